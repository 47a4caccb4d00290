"""`osae hold nudge`: the 1st's id, or a waiting hold's (as its button names it)."""

from __future__ import annotations

from datetime import datetime

from tests.cli.test_cli import NOW, hold, loaded, run

__all__ = ["loaded"]  # the fixture, shared with test_cli


def test_nudge_from_the_terminal_once_and_by_who_waits(loaded: str) -> None:
    hold(loaded)
    hold(loaded, "--salesperson", "U0SALES002")
    code, refused = run(loaded, "hold", "nudge", "1", "--actor", "U0SALES001", "--now", NOW)
    assert (code, refused["code"]) == (1, "not_waiting")
    assert "順番待ち" in refused["message"] or "waiting behind" in refused["message"]
    code, done = run(loaded, "hold", "nudge", "2", "--actor", "U0SALES002", "--now", NOW)
    assert code == 0 and (done["id"], done["asker"]) == (1, 2)  # 2 waits: the 1st ahead
    two_days = datetime.fromisoformat("2027-03-03T09:00:00+09:00")  # not seven
    assert datetime.fromisoformat(done["expires_at"]) == two_days
    assert datetime.fromisoformat(done["hold"]["nudged_at"]) == datetime.fromisoformat(
        NOW + "+09:00"
    )
    code, again = run(loaded, "hold", "nudge", "1", "--actor", "U0SALES002", "--now", NOW)
    assert (code, again["code"]) == (1, "already_nudged")
    code, shown = run(loaded, "hold", "show", "1")
    assert shown["trail"][-1]["action"] == "nudged"
