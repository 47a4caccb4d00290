"""`osae hold request --house`: a manager's 社内押さえ from the terminal, and its refusals."""

from __future__ import annotations

import os
import subprocess

from tests.cli.test_cli import NOW, OSAE, ROOT, hold, loaded, run

__all__ = ["loaded"]  # the fixture, shared with test_cli

FAIR = ["hold", "request", "--room", "hoo", "--date", "2027-05-12", "--start", "10:00",
        "--end", "17:00", "--customer", "ブライダルフェア", "--house", "--now", NOW]  # fmt: skip


def test_a_manager_holds_a_room_for_a_fair_and_only_a_manager_releases_it(loaded: str) -> None:
    code, refused = run(loaded, *FAIR, "--actor", "U0SALES001")
    assert (code, refused["code"], refused["field"]) == (1, "not_a_manager", "house")
    assert "manager" in refused["message"]
    code, usage = run(loaded, *FAIR)
    assert (code, usage["code"]) == (2, "usage")
    code, fair = run(loaded, *FAIR, "--actor", "U0MANAGER1")
    assert code == 0, fair
    assert (fair["rank"], fair["expires_at"], fair["hold"]["house"]) == (1, None, True)
    assert fair["hold"]["salesperson"] == "U0MANAGER1" and fair["hold"]["kind_id"] == "banquet"
    code, second = hold(loaded)  # a customer's hold the same day: behind it, as behind a 1st
    assert (code, second["rank"], second["hold"]["house"]) == (0, 2, False)
    code, again = run(loaded, *FAIR, "--actor", "U0MANAGER1")
    assert (code, again["code"]) == (1, "house_not_first")
    assert sorted(h["id"] for h in again["in_way"]) == [1, 2]
    for action in ("confirm", "extend"):
        code, no = run(loaded, "hold", action, "1", "--actor", "U0MANAGER1", "--now", NOW)
        assert (code, no["code"]) == (1, "house_hold")
    code, no = run(loaded, "hold", "release", "1", "--actor", "U0SALES001", "--now", NOW)
    assert (code, no["code"]) == (1, "not_a_manager")
    code, listed = run(loaded, "hold", "list")
    assert [h["house"] for h in listed["holds"]] == [True, False]
    code, done = run(loaded, "hold", "release", "1", "--actor", "U0MANAGER1", "--now", NOW)
    assert (code, done["promoted"]) == (0, [2])
    code, stats = run(loaded, "stats", "--month", "2027-03")
    assert (stats["released"], stats["house"]) == (0, {"held": 1, "released": 1})


def test_list_and_show_say_house_in_words(loaded: str) -> None:
    run(loaded, *FAIR, "--actor", "U0MANAGER1")
    environ = {**os.environ, "DATABASE_URL": loaded, "LANG": "ja_JP.UTF-8"}
    environ.pop("OSAE_VENUE", None)
    for command in (["hold", "list"], ["hold", "show", "1"]):
        done = subprocess.run(
            [OSAE, *command], capture_output=True, text=True, env=environ, cwd=ROOT, check=True
        )
        assert "社内押さえ" in done.stdout, done.stdout
