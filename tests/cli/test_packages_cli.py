"""`osae hold request --also ... --enquiry ...`, `osae enquiry show`: the JSON contract for
holds of several rooms and candidate dates, through the real console script."""

from __future__ import annotations

from typing import Any

from tests.cli.test_cli import NOW, hold, loaded, run

__all__ = ["loaded"]  # the fixture, used by name

RECEPTION = ["--room", "hoo", "--start", "12:30", "--end", "15:30"]
CHAPEL = ["--also", "chapel,11:00,12:00"]


def package(url: str, day: str, *extra: str) -> tuple[int, Any]:
    return run(url, "hold", "request", "--date", day, *RECEPTION, *CHAPEL, "--now", NOW, *extra)


def couple(url: str, day: str, *extra: str) -> tuple[int, Any]:
    people = ["--kind", "wedding", "--customer", "山田 様", "--salesperson", "U0SALES001"]
    return package(url, day, *people, *extra)


def test_a_package_answer_lists_its_rooms_and_the_enquiry(loaded: str) -> None:
    code, single = hold(loaded, "--salesperson", "U0SALES002", "--customer", "佐藤様")
    assert (code, single["rank"], single["enquiry"]) == (0, 1, 1)
    assert single["items"] == [
        {
            "room": "hoo",
            "start": "2027-05-12T11:00:00+09:00",
            "end": "2027-05-12T15:00:00+09:00",
            "rank": 1,
        }
    ]
    code, pack = couple(loaded, "2027-05-12")
    assert code == 0
    assert (pack["id"], pack["rank"], pack["expires_at"], pack["enquiry"]) == (2, 2, None, 2)
    assert [(i["room"], i["start"], i["end"], i["rank"]) for i in pack["items"]] == [
        ("hoo", "2027-05-12T12:30:00+09:00", "2027-05-12T15:30:00+09:00", 2),
        ("chapel", "2027-05-12T11:00:00+09:00", "2027-05-12T12:00:00+09:00", 1),
    ]
    assert pack["warnings"] == []
    code, shown = run(loaded, "hold", "show", "2")
    assert (shown["status"], shown["rank"], shown["expires_at"], shown["enquiry"]) == (
        "tentative",
        2,
        None,
        2,
    )
    assert shown["items"] == pack["items"]


def test_a_refusal_names_the_room_and_overlapping_rooms_are_refused(loaded: str) -> None:
    hold(loaded, "--room", "chapel", "--start", "10:30", "--end", "11:30")
    hold(loaded, "--room", "chapel", "--start", "10:30", "--end", "11:30")
    code, refused = couple(loaded, "2027-05-12")
    assert (code, refused["code"], refused["room"]) == (1, "rank_too_low", "chapel")
    assert refused["message"].startswith("チャペル: ")
    code, overlap = couple(loaded, "2027-05-19", "--also", "hoo-a,15:00,16:00")
    assert (code, overlap["code"], overlap["room"]) == (1, "items_overlap", "hoo-a")


def test_candidate_dates_confirm_one_and_the_other_is_released(loaded: str) -> None:
    code, first = couple(loaded, "2027-05-12")
    enquiry = str(first["enquiry"])
    code, second = package(loaded, "2027-05-19", "--enquiry", enquiry)
    assert (code, second["enquiry"], second["rank"]) == (0, first["enquiry"], 1)
    code, third = package(loaded, "2027-05-26", "--enquiry", enquiry)
    assert (code, third["code"], third["holders"]) == (1, "too_many_candidates", [1, 2])
    code, other = hold(loaded, "--date", "2027-05-19", "--customer", "佐藤様")
    assert (code, other["rank"]) == (0, 2)
    code, done = run(loaded, "hold", "confirm", "2", "--actor", "U0SALES001", "--now", NOW)
    assert (code, done["released"], done["candidates"], done["promoted"]) == (0, [1, 3], [1], [])
    code, case = run(loaded, "enquiry", "show", enquiry)
    assert case["enquiry"]["customer"] == "山田 様"
    assert [(h["id"], h["status"], h["enquiry"]) for h in case["holds"]] == [
        (1, "released", 1),
        (2, "confirmed", 1),
    ]
    assert {"rank", "expires_at", "items"} <= set(case["holds"][0])
    code, shown = run(loaded, "hold", "show", "1")
    assert [e["action"] for e in shown["trail"]] == ["requested", "other_date_chosen"]
    # A new enquiry for the same customer (written another way) is warned, not refused.
    code, again = hold(loaded, "--customer", "山田さま", "--date", "2027-06-02")
    assert (code, again["rank"], again["enquiry"]) == (0, 1, 3)
    assert [(w["code"], w["holds"]) for w in again["warnings"]] == [("same_customer", [2])]


def test_a_new_enquiry_needs_its_customer_and_a_package_cannot_go_back_a_revision(
    loaded: str,
) -> None:
    code, usage = run(loaded, "hold", "request", "--date", "2027-05-12", *RECEPTION)
    assert (code, usage["code"]) == (2, "usage")
    assert "--kind, --customer, --salesperson" in usage["message"]
    code, bad = run(loaded, "hold", "request", "--date", "2027-05-12", *RECEPTION, "--also", "x")
    assert (code, bad["code"]) == (2, "usage")
    couple(loaded, "2027-05-12")
    code, refused = run(loaded, "db", "downgrade", "0001")
    assert (code, refused["code"]) == (3, "migration_refused")
    assert "several rooms" in refused["message"]
