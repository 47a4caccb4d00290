"""`osae hold edit`: the JSON contract of an edit that keeps its place and one that swaps,
`hold show`'s version, and a stale version refused, through the real console script."""

from __future__ import annotations

from tests.cli.test_cli import NOW, hold, loaded, run

__all__ = ["loaded"]  # the fixture, used by name

KEYS = {"ok", "id", "kept_place", "rank", "expires_at", "released", "promoted"}


def edit(url: str, hold_id: int, version: int, *extra: str) -> tuple[int, dict[str, object]]:
    args = ["hold", "edit", str(hold_id), "--actor", "U0SALES001", "--version", str(version)]
    return run(url, *args, "--now", NOW, *extra)


def test_an_edit_that_keeps_its_place_and_one_that_swaps(loaded: str) -> None:
    code, first = hold(loaded)
    code, second = hold(loaded, "--salesperson", "U0SALES002", "--customer", "佐藤様")
    code, shown = run(loaded, "hold", "show", "1")
    assert (code, shown["version"]) == (0, 1)

    code, kept = edit(loaded, 1, 1, "--start", "12:00")
    assert code == 0 and set(kept) >= KEYS
    assert (kept["id"], kept["kept_place"], kept["rank"]) == (1, True, 1)
    assert kept["expires_at"] == first["expires_at"]
    assert (kept["released"], kept["promoted"]) == ([], [])
    code, shown = run(loaded, "hold", "show", "1")
    assert shown["version"] == 2
    assert shown["items"][0]["start"] == "2027-05-12T12:00:00+09:00"
    assert [e["action"] for e in shown["trail"]] == ["requested", "edited"]

    code, stale = edit(loaded, 1, 1, "--end", "16:00")
    assert (code, stale["code"]) == (1, "stale_version")
    assert "changed since the form was opened" in str(stale["message"])

    # 30 minutes longer, meeting nobody but its own 2nd: the dry run says it keeps 1st and
    # writes nothing; the edit keeps the id, the rank and the deadline.
    code, dry = edit(loaded, 1, 2, "--end", "16:00", "--dry-run")
    assert code == 0 and dry["dry_run"] is True
    assert (dry["would"], dry["kept_place"], dry["rank"], dry["promoted"]) == ("keep", True, 1, [])
    assert dry["booking"] == "B-0001" and dry["would_lose_first"] is False
    code, shown = run(loaded, "hold", "show", "1")
    assert shown["version"] == 2 and shown["items"][0]["end"] == "2027-05-12T15:00:00+09:00"
    code, longer = edit(loaded, 1, 2, "--end", "16:00")
    assert code == 0 and (longer["id"], longer["kept_place"], longer["rank"]) == (1, True, 1)
    assert longer["expires_at"] == first["expires_at"] and longer["booking"] == "B-0001"
    code, still = run(loaded, "hold", "show", str(second["id"]))
    assert still["rank"] == 2

    # Onto 桜の間, where another booking is 1st: a swap that would cost the 1st place.
    code, there = hold(loaded, "--room", "sakura", "--customer", "鈴木様")
    code, dry = edit(loaded, 1, 3, "--room", "sakura", "--dry-run")
    assert (code, dry["would"], dry["rank"], dry["ahead"]) == (0, "swap", 2, [there["id"]])
    assert dry["would_lose_first"] is True and dry["promoted"] == [second["id"]]
    code, no = edit(loaded, 1, 3, "--room", "sakura")
    assert (code, no["code"], no["rank"], no["holders"]) == (2, "would_lose_first", 2, [3])
    assert "--yes" in str(no["message"])
    code, swapped = edit(loaded, 1, 3, "--room", "sakura", "--yes")
    assert code == 0
    assert (swapped["id"], swapped["kept_place"], swapped["rank"]) == (4, False, 2)
    assert swapped["expires_at"] is None and swapped["booking"] == "B-0001"
    assert (swapped["released"], swapped["promoted"]) == ([1], [second["id"]])
    code, old = run(loaded, "hold", "show", "1")
    assert old["status"] == "released"


def test_a_refused_edit_is_one_json_object_saying_why(loaded: str) -> None:
    hold(loaded)
    code, nothing = edit(loaded, 1, 1)
    assert (code, nothing["code"]) == (1, "no_change")
    code, bad = edit(loaded, 1, 1, "--item", "チャペル", "--start", "12:00")
    assert (code, bad["code"], bad["field"]) == (1, "item_not_found", "item")
    code, usage = run(loaded, "hold", "edit", "1", "--actor", "U0SALES001", "--json")
    assert code == 2 and usage["ok"] is False
