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

    code, swapped = edit(loaded, 1, 2, "--end", "16:00")
    assert code == 0
    assert (swapped["id"], swapped["kept_place"], swapped["rank"]) == (3, False, 2)
    assert swapped["expires_at"] is None
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
