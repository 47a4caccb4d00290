"""What a booking carries through the real console script (issue 25, items 1 and 7): the
detail flags of `hold request` and `hold edit`, their JSON fields, and an edit that swaps
(and another candidate date) keeping guests, contact, note and every detail."""

from __future__ import annotations

from tests.cli.test_cli import NOW, hold, loaded, run

__all__ = ["loaded"]  # the fixture, used by name

DETAILS = ("estimate", "plan", "source", "next_action", "next_action_note")
FULL = [
    "--guests", "80", "--contact", "090-1111-2222", "--note", "和装",
    "--estimate", "¥3,500,000", "--plan", "チャペル挙式プラン", "--source", "zexy",
    "--next-action", "2027-03-10", "--next-action-note", "2回目の打合せ",
]  # fmt: skip


def edit(url: str, hold_id: int, version: int, *extra: str) -> tuple[int, dict[str, object]]:
    args = ["hold", "edit", str(hold_id), "--actor", "U0SALES001", "--version", str(version)]
    return run(url, *args, "--now", NOW, *extra)


def shown(url: str, hold_id: int) -> dict[str, object]:
    code, found = run(url, "hold", "show", str(hold_id))
    assert code == 0
    return found


def test_a_request_carries_the_details_into_every_hold_json(loaded: str) -> None:
    code, first = hold(loaded, *FULL)
    assert code == 0
    carried = first["hold"]
    assert {k: carried[k] for k in DETAILS} == {
        "estimate": 3_500_000,
        "plan": "チャペル挙式プラン",
        "source": "zexy",
        "next_action": "2027-03-10",
        "next_action_note": "2回目の打合せ",
    }
    found = shown(loaded, first["id"])
    assert found["estimate"] == 3_500_000 and found["source"] == "zexy"
    assert found["hold"]["guests"] == 80
    # Without the flags: the fields are there, empty (no field changes meaning).
    code, bare = hold(loaded, "--salesperson", "U0SALES002", "--customer", "佐藤様")
    assert {k: bare["hold"][k] for k in DETAILS} == dict.fromkeys(DETAILS) | {
        "plan": "",
        "source": "",
        "next_action_note": "",
    }


def test_an_edit_that_swaps_keeps_everything_and_can_change_each(loaded: str) -> None:
    code, first = hold(loaded, *FULL)
    # another candidate date of the same booking, bringing nothing of its own
    code, other = run(
        loaded, "hold", "request", "--enquiry", str(first["enquiry"]), "--room", "hoo",
        "--date", "2027-05-19", "--start", "11:00", "--end", "15:00", "--now", NOW,
    )  # fmt: skip
    assert code == 0 and other["hold"]["guests"] == 80
    # a rival in 桜: moving there meets them, a swap (a new arrival, 2nd behind them)
    code, _rival = hold(
        loaded, "--room", "sakura", "--salesperson", "U0SALES002", "--customer", "佐藤様"
    )
    assert code == 0
    code, swapped = edit(loaded, first["id"], 1, "--room", "sakura", "--yes")
    assert (code, swapped["kept_place"], swapped["rank"]) == (0, False, 2)
    for hold_id in (swapped["id"], other["id"]):
        now = shown(loaded, hold_id)["hold"]
        assert (now["guests"], now["contact"], now["note"]) == (80, "090-1111-2222", "和装")
        assert (now["estimate"], now["plan"], now["source"]) == (
            3_500_000,
            "チャペル挙式プラン",
            "zexy",
        )
        assert (now["next_action"], now["next_action_note"]) == ("2027-03-10", "2回目の打合せ")

    version = shown(loaded, swapped["id"])["version"]
    code, changed = edit(
        loaded, swapped["id"], version, "--guests", "60", "--contact", "03-0000-0000",
        "--estimate", "2800000", "--plan", "披露宴のみ", "--source", "fair",
        "--next-action", "2027-03-20", "--next-action-note", "見積の再提示",
    )  # fmt: skip
    assert code == 0 and changed["kept_place"] is True  # the booking's row only: same place
    for hold_id in (swapped["id"], other["id"]):  # every candidate date shows the change
        now = shown(loaded, hold_id)["hold"]
        assert (now["guests"], now["contact"], now["estimate"]) == (60, "03-0000-0000", 2_800_000)
        assert (now["plan"], now["source"], now["next_action"]) == (
            "披露宴のみ",
            "fair",
            "2027-03-20",
        )


def test_bad_details_are_refused_saying_what_works(loaded: str) -> None:
    code, unknown = hold(loaded, "--source", "instagram")
    assert (code, unknown["code"], unknown["field"]) == (1, "unknown_source", "source")
    assert "zexy" in unknown["message"] and "instagram" in unknown["message"]
    code, usage = hold(loaded, "--estimate", "三百万")
    assert (code, usage["code"]) == (2, "usage")
    assert "三百万" in usage["message"]
    code, nothing = run(loaded, "hold", "list")
    assert nothing["holds"] == []


def test_a_package_edited_room_by_room_keeps_guests_contact_details_and_its_number(
    loaded: str,
) -> None:
    code, made = run(
        loaded, "hold", "request", "--room", "sakura", "--date", "2027-05-11", "--start", "12:30",
        "--end", "15:30", "--also", "chapel,11:00,12:00", "--kind", "wedding",
        "--customer", "鈴木様", "--salesperson", "U0SALES001", "--now", NOW, *FULL,
    )  # fmt: skip
    assert code == 0
    booking, hold_id = made["hold"]["booking"], made["id"]
    # a rival in 菊の間 at the reception's new time: moving there is a swap
    code, _ = hold(loaded, "--room", "kiku", "--date", "2027-05-11", "--start", "13:00",
                   "--end", "16:00", "--salesperson", "U0SALES002",
                   "--customer", "佐藤様")  # fmt: skip
    steps = [
        ("--item", "chapel", "--start", "10:30"),  # the chapel earlier: meets nobody
        ("--item", "桜の間", "--room", "kiku", "--start", "13:00", "--end", "16:00", "--yes"),
        ("--item", "chapel", "--end", "12:30"),
    ]
    for step in steps:
        version = shown(loaded, hold_id)["version"]
        code, done = edit(loaded, hold_id, version, *step)
        assert code == 0, done
        hold_id = done["id"]
        now = done["hold"]
        assert now["booking"] == booking
        assert (now["guests"], now["contact"], now["note"]) == (80, "090-1111-2222", "和装")
        assert {k: now[k] for k in DETAILS} == {
            "estimate": 3_500_000,
            "plan": "チャペル挙式プラン",
            "source": "zexy",
            "next_action": "2027-03-10",
            "next_action_note": "2回目の打合せ",
        }
    rooms = sorted(i["room_id"] for i in shown(loaded, hold_id)["hold"]["items"])
    assert rooms == ["chapel", "kiku"]
