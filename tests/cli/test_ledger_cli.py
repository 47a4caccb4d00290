"""`osae day`, `osae stats` and `osae hold list --salesperson/--all/--date`: the team's ledger
from the terminal, through the real console script (JSON contract and plain text)."""

from __future__ import annotations

import os
import subprocess

from tests.cli.test_cli import NOW, OSAE, ROOT, hold, loaded, run

__all__ = ["loaded"]  # the fixture, used by name

DAY = "2027-05-12"


def test_a_day_lists_each_room_in_time_order_with_rank_deadline_and_turnover(loaded: str) -> None:
    hold(loaded)  # #1 鳳凰の間 11:00-15:00, 1st
    code, _ = run(loaded, "hold", "request", "--room", "hoo-a", "--date", DAY, "--start",
                  "16:00", "--end", "18:00", "--kind", "banquet", "--customer", "佐藤様",
                  "--salesperson", "U0SALES002", "--now", NOW)  # fmt: skip
    assert code == 0

    code, day = run(loaded, "day", DAY)
    assert code == 0 and day["ok"] and day["date"] == DAY and day["holds"] == 2
    rooms = {r["id"]: r for r in day["rooms"]}
    assert list(rooms)[:4] == ["hoo", "hoo-east", "hoo-west", "hoo-a"]  # the venue file's order
    first, second = rooms["hoo"]["holds"]
    assert (first["id"], first["rank"], first["status"], first["shared"]) == (
        1,
        1,
        "tentative",
        False,
    )
    assert first["salesperson"] == "U0SALES001"
    assert first["expires_at"] == "2027-03-08T09:00:00+09:00"
    assert (first["turnover_min"], first["free_from"]) == (90, "2027-05-12T16:30:00+09:00")
    # 16:00 on 鳳凰A is inside 鳳凰の間's 90-minute turnover: a 2nd, and it shows why.
    assert (second["id"], second["rank"], second["expires_at"], second["shared"]) == (
        2,
        2,
        None,
        True,
    )
    assert second["room"] == "hoo-a" and second["start"] == "2027-05-12T16:00:00+09:00"
    assert rooms["sakura"]["holds"] == []
    assert [h["id"] for h in rooms["hoo-c"]["holds"]] == [1]  # a third of the whole room

    code, only = run(loaded, "day", DAY, "--room", "鳳凰 東", "--room", "sakura")
    assert [r["id"] for r in only["rooms"]] == ["hoo-east", "sakura"]
    code, unknown = run(loaded, "day", DAY, "--room", "大広間")
    assert (code, unknown["ok"], unknown["code"]) == (2, False, "unknown_room")
    assert "鳳凰の間 (hoo)" in unknown["message"] and "hoo" in unknown["choices"]
    code, bad = run(loaded, "day", "5/12")
    assert (code, bad["code"]) == (2, "usage")


def test_a_day_in_plain_text(loaded: str) -> None:
    hold(loaded)
    environ = {**os.environ, "DATABASE_URL": loaded, "LANG": "ja_JP.UTF-8"}
    done = subprocess.run([OSAE, "day", DAY, "--room", "hoo", "--now", NOW], capture_output=True,
                          text=True, env=environ, cwd=ROOT, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    print(done.stdout)
    assert done.stdout.startswith("5/12(水・仏滅)\n鳳凰の間（hoo・転換 90分）\n")
    assert (
        "  11:00〜15:00（転換 90分 → 16:30）  #1 山田様  [1番手 · 期限 3/8(月・友引) 9:00まで]"
        "  担当 田中" in done.stdout
    )


def test_hold_list_filters_by_salesperson_and_date_and_says_when_it_is_cut(loaded: str) -> None:
    hold(loaded)
    hold(loaded, "--salesperson", "U0SALES002", "--date", "2027-05-13")
    code, everyone = run(loaded, "hold", "list")
    assert [h["id"] for h in everyone["holds"]] == [1, 2] and everyone["truncated"] is False
    code, theirs = run(loaded, "hold", "list", "--salesperson", "U0SALES002")
    assert [h["id"] for h in theirs["holds"]] == [2]
    code, dated = run(loaded, "hold", "list", "--date", "2027-05-13", "--salesperson", "U0SALES001")
    assert (code, dated["holds"]) == (0, [])
    code, every = run(loaded, "hold", "list", "--all")
    assert [h["id"] for h in every["holds"]] == [1, 2] and every["truncated"] is False


def test_stats_count_a_months_outcomes(loaded: str) -> None:
    hold(loaded)
    hold(loaded)
    hold(loaded, "--room", "sakura")
    run(loaded, "hold", "confirm", "1", "--actor", "U0SALES001", "--now", NOW)
    run(loaded, "hold", "release", "3", "--actor", "U0SALES001", "--now", NOW)
    code, march = run(loaded, "stats", "--month", "2027-03")
    assert code == 0
    added = {"by_reason", "by_outcome", "losses", "house"}  # issues 25 and 28 add these
    assert added <= set(march)
    assert march["house"] == {"held": 0, "released": 0}
    shown = {k: v for k, v in march.items() if k not in added}
    assert shown == {
        "ok": True,
        "month": "2027-03",
        "from": "2027-03-01T00:00:00+09:00",
        "until": "2027-04-01T00:00:00+09:00",
        "confirmed": 1,
        "expired": 0,
        "released": 1,
        "lost": 1,
        "cancelled": 0,
    }
    code, now = run(loaded, "stats", "--now", "2027-04-02T10:00")
    assert (now["month"], now["confirmed"]) == ("2027-04", 0)
    code, bad = run(loaded, "stats", "--month", "2027-13")
    assert (code, bad["code"]) == (2, "usage")
