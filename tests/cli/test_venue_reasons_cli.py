"""Reasons from the venue file through ``cli.main.main`` on PostgreSQL: ``hold release
--reason`` takes the venue's codes (and names), refuses another listing the venue's, and
``stats`` counts losses by each reason's own ``loss``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.cli.test_typed_names_cli import NOW, ROOT, osae, request

__all__ = ["osae"]  # the fixture, used by name


def release(osae: Any, hold_id: int, *extra: str) -> tuple[int, dict[str, Any]]:
    return osae("hold", "release", str(hold_id), "--actor", "U0SALES001", "--now", NOW, *extra)


def test_a_release_takes_the_venues_reasons_and_stats_follow_their_loss(osae: Any) -> None:
    made = [
        request(osae, "--room", room, "--kind", "wedding")[1]["id"]
        for room in ("hoo", "sakura", "kiku", "chapel")
    ]
    code, bad = release(osae, made[0], "--reason", "closed")
    assert (code, bad["code"], bad["field"]) == (1, "unknown_reason", "reason")
    assert "venue_closed" in bad["message"] and "other_venue" in bad["message"]

    code, closed = release(osae, made[0], "--reason", "venue_closed")
    assert code == 0 and closed["hold"]["reason"] == "venue_closed"
    code, by_name = release(osae, made[1], "--reason", "休館")  # the venue's name for it
    assert code == 0 and by_name["hold"]["reason"] == "venue_closed"
    code, _typo = release(osae, made[2], "--reason", "entry_error")  # a loss at this venue
    code, budget = release(osae, made[3], "--reason", "予算")  # a default, by its name
    assert code == 0 and budget["hold"]["reason"] == "budget"

    code, stats = osae("stats", "--month", "2027-03", "--now", NOW)
    assert code == 0
    assert stats["by_reason"] == {"budget": 1, "entry_error": 1, "venue_closed": 2}
    assert stats["released"] == 4 and stats["losses"] == 2  # the closures are no loss


def test_max_event_hours_decides_how_long_past_midnight_may_last(osae: Any, tmp_path: Path) -> None:
    night = ["--kind", "banquet", "--start", "22:00"]
    code, nine = request(osae, "--room", "kiku", *night, "--end", "07:00")
    assert code == 0, nine  # 9 hours: within the default 12
    shorter = tmp_path / "eight.toml"
    example = (ROOT / "examples" / "venue.toml").read_text("utf-8")
    shorter.write_text(example.replace("[policy]", "[policy]\nmax_event_hours = 8\n#", 1))
    assert osae("venue", "load", str(shorter))[0] == 0
    code, refused = request(osae, "--room", "sakura", *night, "--end", "07:00", lang="ja_JP.UTF-8")
    assert (code, refused["code"], refused["field"]) == (1, "overnight_too_long", "end")
    assert refused["message"].startswith("22:00〜翌07:00 は9時間です。")
    assert "8時間まで" in refused["message"]
    code, seven = request(osae, "--room", "sakura", *night, "--end", "05:00")
    assert code == 0, seven
