"""`osae ping add|list|drop`: a banquet refused for its window is kept and listed; one that
would be taken now is refused saying what to do; only its asker or a manager drops it."""

from __future__ import annotations

import os
import subprocess

from tests.cli.test_cli import NOW, OSAE, ROOT, loaded, run

__all__ = ["loaded"]  # the fixture, shared with test_cli

SATURDAY = "2027-09-04"  # a wedding-priority day: banquets open 2027-06-06 00:00
PING = ["ping", "add", "--room", "hoo", "--start", "18:00", "--end", "21:00",
        "--kind", "banquet", "--customer", "山田商事様", "--now", NOW]  # fmt: skip


def ping(url: str, day: str, who: str, *extra: str) -> tuple[int, dict[str, object]]:
    return run(url, *PING, "--date", day, "--salesperson", who, *extra)


def test_a_ping_is_kept_listed_in_order_and_dropped_by_its_asker(loaded: str) -> None:
    code, kept = ping(loaded, SATURDAY, "U0SALES001", "--guests", "80")
    assert code == 0 and kept["replayed"] is False
    ping_json = kept["ping"]
    assert isinstance(ping_json, dict)
    assert ping_json["opens_at"] == "2027-06-06T00:00:00+09:00"
    assert ping_json["request"]["guests"] == 80 and ping_json["asker"] == "U0SALES001"
    code, again = ping(loaded, SATURDAY, "U0SALES001", "--guests", "80")
    assert (code, again["id"], again["replayed"]) == (0, kept["id"], True)
    code, other = ping(loaded, SATURDAY, "U0SALES002", "--actor", "U0SALES003")
    assert code == 0
    code, listed = run(loaded, "ping", "list")
    assert [(p["id"], p["asker"]) for p in listed["pings"]] == [
        (kept["id"], "U0SALES001"),
        (other["id"], "U0SALES003"),
    ]

    code, refused = run(loaded, "ping", "drop", str(kept["id"]), "--actor", "U0SALES002")
    assert (code, refused["code"]) == (1, "not_authorized")
    code, dropped = run(loaded, "ping", "drop", str(kept["id"]), "--actor", "U0SALES001")
    assert code == 0 and dropped["ping"]["status"] == "dropped"
    code, listed = run(loaded, "ping", "list")
    assert [p["id"] for p in listed["pings"]] == [other["id"]]
    code, everything = run(loaded, "ping", "list", "--all")
    assert {p["status"] for p in everything["pings"]} == {"waiting", "dropped"}


def test_a_ping_that_makes_no_sense_is_refused_saying_what_to_do(loaded: str) -> None:
    code, weekday = ping(loaded, "2027-03-10", "U0SALES001")
    assert (code, weekday["code"]) == (1, "not_priority_day")
    assert "/hold" in weekday["message"]
    code, open_now = ping(loaded, SATURDAY, "U0SALES001", "--now", "2027-06-06T00:00")
    assert (code, open_now["code"]) == (1, "window_open")
    assert open_now["opens_at"] == "2027-06-06T00:00:00+09:00"
    code, wedding = run(loaded, *PING[:9], "wedding", *PING[10:], "--date", SATURDAY,
                        "--salesperson", "U0SALES001")  # fmt: skip
    assert (code, wedding["code"]) == (1, "window_open")
    code, bad = run(loaded, *PING, "--date", "2027-02-30", "--salesperson", "U0SALES001")
    assert code == 2 and bad["ok"] is False
    code, listed = run(loaded, "ping", "list", "--all")
    assert listed["pings"] == []


def test_the_terminal_says_it_in_japanese(loaded: str) -> None:
    environ = {**os.environ, "DATABASE_URL": loaded, "LANG": "ja_JP.UTF-8"}
    environ.pop("OSAE_VENUE", None)
    held = ["hold", "request", *PING[2:], "--date", SATURDAY, "--salesperson", "U0SALES001"]
    refused = subprocess.run(
        [OSAE, *held], capture_output=True, text=True, env=environ, cwd=ROOT, check=False
    )
    assert refused.returncode == 1 and "土日祝は婚礼を優先する" in refused.stderr
    assert "開放日に知らせるには、同じ指定で `osae ping add`" in refused.stderr
    args = [*PING, "--date", SATURDAY, "--salesperson", "U0SALES001", "--guests", "80"]
    done = subprocess.run(
        [OSAE, *args], capture_output=True, text=True, env=environ, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "鳳凰" in done.stdout and "山田商事様" in done.stdout and "80名" in done.stdout
    assert "2027/6/6" in done.stdout or "6/6" in done.stdout
    assert "DM でお知らせします" in done.stdout
