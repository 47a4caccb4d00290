"""`osae hold release --reason CODE --reason-note TEXT`, `osae stats --json`'s `by_reason`,
`by_outcome` and `losses`, and `osae enquiry show B-0001`, through the real console script."""

from __future__ import annotations

from tests.cli.test_cli import NOW, hold, loaded, run

__all__ = ["loaded"]  # the fixture, used by name


def release(url: str, hold_id: int, *extra: str) -> tuple[int, dict[str, object]]:
    return run(url, "hold", "release", str(hold_id), "--actor", "U0SALES001", "--now", NOW, *extra)


def test_a_release_says_why_and_the_months_stats_count_it(loaded: str) -> None:
    code, first = hold(loaded)
    code, second = hold(loaded, "--room", "sakura", "--customer", "鈴木様")
    code, third = hold(loaded, "--room", "chapel", "--customer", "高橋様")

    code, bad = release(loaded, first["id"], "--reason", "cheaper")
    assert (code, bad["code"], bad["field"]) == (1, "unknown_reason", "reason")
    assert "other_venue" in str(bad["message"])
    code, done = release(loaded, first["id"], "--reason", "budget", "--reason-note", "見積が高い")
    assert code == 0
    shown = done["hold"]
    assert isinstance(shown, dict)
    assert (shown["outcome"], shown["reason"], shown["reason_note"]) == (
        "withdrawn",
        "budget",
        "見積が高い",
    )
    assert shown["booking"] == "B-0001"
    code, _typo = release(loaded, second["id"], "--reason", "entry_error")
    code, plain = release(loaded, third["id"])  # scripts from before reasons keep working
    assert code == 0 and plain["hold"]["reason"] == "unspecified"  # type: ignore[index]

    code, stats = run(loaded, "stats", "--month", "2027-03", "--now", NOW)
    assert code == 0
    assert stats["by_reason"] == {"budget": 1, "entry_error": 1, "unspecified": 1}
    assert stats["released"] == 3 and stats["losses"] == 2  # the entry error is no loss
    assert stats["by_outcome"]["withdrawn"] == 3

    code, case = run(loaded, "enquiry", "show", "B-0002")
    assert code == 0 and case["enquiry"]["id"] == 2 and case["enquiry"]["booking"] == "B-0002"
    assert [h["booking"] for h in case["holds"]] == ["B-0002"]
    code, wrong = run(loaded, "enquiry", "show", "H-2")
    assert code == 2 and "B-0012" in str(wrong["message"])
