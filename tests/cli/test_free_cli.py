"""`osae free` through the real console script: the JSON contract, the text, refusals."""

from __future__ import annotations

import os
import subprocess
from datetime import date

import pytest

from core.rules.rokuyo import rokuyo
from tests.cli.test_cli import OSAE, ROOT, run

EXAMPLE = ROOT / "examples" / "venue.toml"
NOW = ("--now", "2027-04-01T09:00+09:00")
FIELDS = {"date", "rokuyo", "slot", "start", "end", "room", "outcome", "ahead", "until"}


@pytest.fixture
def loaded(fresh_db: str) -> str:
    code, answer = run(fresh_db, "venue", "load", str(EXAMPLE))
    assert (code, answer["venue"]) == (0, "grand-tokyo")
    return fresh_db


def hold(url: str, room: str, day: str, start: str, end: str) -> int:
    code, answer = run(
        url, "hold", "request", "--room", room, "--date", day, "--start", start, "--end", end,
        "--kind", "wedding", "--customer", "山田様", "--salesperson", "U0SALES001", *NOW,
    )  # fmt: skip
    assert code == 0, answer
    return int(answer["id"])


def test_an_autumn_taian_weekend_for_80_guests(loaded: str) -> None:
    held = hold(loaded, "hoo-west", "2027-10-02", "11:00", "14:00")
    code, answer = run(
        loaded, "free", "--from", "2027-10-01", "--to", "2027-10-31", "--days", "weekends",
        "--rokuyo", "大安", "--guests", "80", *NOW,
    )  # fmt: skip
    assert code == 0 and answer["ok"] is True
    results = answer["results"]
    assert set(results[0]) >= FIELDS
    assert {r["date"] for r in results} == {"2027-10-02", "2027-10-30"}
    assert {r["rokuyo"] for r in results} == {"大安"}
    assert "kiku" not in {r["room"] for r in results} and "sakura" not in {
        r["room"] for r in results
    }
    noon = [r for r in results if r["date"] == "2027-10-02" and r["slot"] == "昼"]
    # smallest fitting room first: the chapel seats 80, the whole ballroom 300
    assert [r["room"] for r in noon] == [
        "chapel", "hoo-a", "hoo-b", "hoo-west", "hoo-c", "hoo-east", "hoo",
    ]  # fmt: skip
    west = next(r for r in noon if r["room"] == "hoo-west")
    assert (west["outcome"], west["ahead"]) == ("second", [held])
    assert west["until"] == "2027-04-08T09:00:00+09:00"
    assert (west["start"], west["end"]) == (
        "2027-10-02T11:00:00+09:00",
        "2027-10-02T14:00:00+09:00",
    )
    assert next(r for r in noon if r["room"] == "hoo-a")["outcome"] == "first"


def test_times_instead_of_slots_and_banquets_before_their_window(loaded: str) -> None:
    code, answer = run(
        loaded, "free", "--from", "2027-10-02", "--to", "2027-10-04", "--room", "sakura",
        "--start", "18:00", "--end", "21:00", "--kind", "banquet", *NOW,
    )  # fmt: skip
    assert code == 0
    rows = [(r["date"], r["slot"], r["outcome"]) for r in answer["results"]]
    assert rows == [
        ("2027-10-02", None, "not_open"),
        ("2027-10-03", None, "not_open"),
        ("2027-10-04", None, "first"),
    ]
    assert answer["results"][0]["until"] == "2027-07-04T00:00:00+09:00"


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        (("--from", "2027-10-02", "--to", "2028-10-02"), "range_too_long", "367"),
        (("--from", "2027-10-02", "--to", "2027-10-01"), "bad_range", "2027-10-01"),
        (("--from", "2027-10-02", "--to", "2027-10-03", "--slot", "朝"), "unknown_slot", "朝"),
        (("--from", "2027-10-02", "--to", "2027-10-03", "--room", "ball"), "unknown_room", "ball"),
    ],
)  # fmt: skip
def test_a_bad_search_is_refused_with_what_would_work(
    loaded: str, args: tuple[str, ...], code: str, said: str
) -> None:
    exit_code, answer = run(loaded, "free", *args, *NOW)
    # a room is taken by id or name: one that names none is the flag's (exit 2, as usage)
    assert (exit_code, answer["ok"], answer["code"]) == (2 if "room" in code else 1, False, code)
    assert said in answer["message"]


@pytest.mark.parametrize(
    "args",
    [
        ("--days", "someday"),
        ("--rokuyo", "吉日"),
        ("--guests", "0"),
        ("--start", "11:00"),
        ("--slot", "昼", "--start", "11:00", "--end", "12:00"),
    ],
)
def test_bad_flags_are_usage_errors(loaded: str, args: tuple[str, ...]) -> None:
    code, answer = run(loaded, "free", "--from", "2027-10-02", "--to", "2027-10-03", *args)
    assert (code, answer["ok"]) == (2, False)


def test_the_text_groups_by_date_with_its_rokuyo_in_japanese(loaded: str) -> None:
    environ = {**os.environ, "DATABASE_URL": loaded, "LANG": "ja_JP.UTF-8"}
    environ.pop("OSAE_VENUE", None)
    done = subprocess.run(
        [OSAE, "free", "--from", "2027-10-02", "--to", "2027-10-02", "--room", "kiku", *NOW],
        capture_output=True, text=True, env=environ, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "10/2(土・大安)",
        "  昼 11:00〜14:00  菊の間（40名）  1番手（空き）",
        "  午後 15:30〜18:00  菊の間（40名）  1番手（空き）",
        "  夜 19:30〜22:00  菊の間（40名）  1番手（空き）",
        "1番手・2番手になれる枠 3件（受付不可 0件・宴会受付前 0件／全3件）",
    ]


def test_read_in_december_next_october_shows_its_year_and_a_2nd_its_deadline(
    loaded: str,
) -> None:
    december = ("--now", "2027-12-02T09:00+09:00")
    code, answer = run(
        loaded, "hold", "request", "--room", "kiku", "--date", "2028-10-02", "--start", "11:00",
        "--end", "14:00", "--kind", "wedding", "--customer", "山田様", "--salesperson",
        "U0SALES001", *december,
    )  # fmt: skip
    assert code == 0, answer
    environ = {**os.environ, "DATABASE_URL": loaded, "LANG": "ja_JP.UTF-8"}
    environ.pop("OSAE_VENUE", None)
    done = subprocess.run(
        [OSAE, "free", "--from", "2028-10-02", "--to", "2028-10-02", "--room", "kiku",
         "--slot", "昼", *december],
        capture_output=True, text=True, env=environ, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    day = rokuyo(date(2028, 10, 2)).japanese
    due = rokuyo(date(2027, 12, 9)).japanese  # a wedding hold's week, from the request
    assert done.stdout.splitlines()[:2] == [
        f"2028/10/2(月・{day})",
        f"  昼 11:00〜14:00  菊の間（40名）  2番手（#{answer['id']} が "
        f"12/9(木・{due}) 9:00まで仮押さえ中）",
    ]


def test_a_refusal_for_a_taken_place_lists_what_would_be_accepted(loaded: str) -> None:
    held = hold(loaded, "hoo-a", "2027-10-02", "11:00", "14:00")
    code, _ = run(loaded, "hold", "confirm", str(held), "--actor", "U0SALES001", *NOW)
    assert code == 0
    code, refused = run(
        loaded, "hold", "request", "--room", "hoo-a", "--date", "2027-10-02", "--start", "11:00",
        "--end", "14:00", "--kind", "wedding", "--customer", "佐藤様", "--salesperson",
        "U0SALES002", *NOW,
    )  # fmt: skip
    assert (code, refused["code"]) == (1, "confirmed_conflict")
    offered = refused["alternatives"]
    assert 1 <= len(offered) <= 5
    assert set(offered[0]) >= {"room", "date", "start", "end", "rank"}
    # 鳳凰B seats as many (90) and is free at that time; 鳳凰の間 shares 鳳凰A's part
    assert (offered[0]["room"], offered[0]["date"], offered[0]["rank"]) == (
        "hoo-b",
        "2027-10-02",
        1,
    )
    assert offered[0]["start"] == "2027-10-02T11:00:00+09:00"
    assert "hoo" not in {o["room"] for o in offered if o["date"] == "2027-10-02"}
