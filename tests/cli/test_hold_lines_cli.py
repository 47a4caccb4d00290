"""What `osae hold ...`, `free` and `venue show` print for a person (issue 30): dates as the
cards write them (the year when it is not this one, 曜日 and 六曜), words not codes, the
version `hold edit` needs, the new deadline of an extension, the live holds by default, and
when the notices of a write made at a future ``--now`` will go; the JSON as before."""

from __future__ import annotations

import os
import subprocess
from datetime import date

import pytest

from cli import argparse_words
from core.rules.rokuyo import rokuyo
from tests.cli.test_cli import OSAE, ROOT, run
from tests.cli.test_terminal_language import _helps, _parsers, speak

DECEMBER = ("--now", "2026-12-07T10:00+09:00")  # a 2027 date shows its year
HOLD = ["hold", "request", "--room", "hoo", "--date", "2027-02-06", "--start", "11:00",
        "--end", "15:00", "--kind", "wedding"]  # fmt: skip


@pytest.fixture
def loaded(fresh_db: str) -> str:
    code, answer = run(fresh_db, "venue", "load", str(ROOT / "examples" / "venue.toml"))
    assert (code, answer["venue"]) == (0, "grand-tokyo")
    return fresh_db


def terminal(url: str, *args: str, lang: str = "ja") -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "DATABASE_URL": url, "OSAE_LANG": lang, "LANG": "C.UTF-8"}
    environ.pop("OSAE_VENUE", None)
    return subprocess.run(
        [OSAE, *args], capture_output=True, text=True, env=environ, cwd=ROOT, check=False
    )


def test_holds_read_as_their_cards_and_say_what_was_done(loaded: str) -> None:
    first = terminal(loaded, *HOLD, "--customer", "山田様", "--salesperson", "U0SALES001",
                     *DECEMBER)  # fmt: skip
    six = rokuyo(date(2027, 2, 6)).japanese
    assert first.returncode == 0, first.stderr
    assert f"2027/2/6(土・{six}) 11:00〜15:00 山田様（婚礼）" in first.stdout
    assert "12/14(月・" in first.stdout and "まで" in first.stdout  # its deadline, a card's
    second = terminal(loaded, *HOLD, "--customer", "佐藤様", "--actor", "U0SALES002",
                      "--salesperson", "U0SALES002", *DECEMBER)  # fmt: skip
    assert "前に: 1番手 #1 山田様（婚礼）担当 田中" in second.stdout, second.stdout
    extended = terminal(loaded, "hold", "extend", "1", "--actor", "U0SALES001", *DECEMBER)
    assert extended.stdout.splitlines()[:2] == [
        f"回答期限を延長しました: B-0001 #1 鳳凰の間 2027/2/6(土・{six}) 11:00〜15:00 "
        "山田様（婚礼）",
        f"  新しい回答期限: 12/21(月・{rokuyo(date(2026, 12, 21)).japanese}) 10:00まで",
    ]
    confirmed = terminal(loaded, "hold", "confirm", "1", "--actor", "U0SALES001", *DECEMBER)
    assert "本予約にしました: B-0001 #1" in confirmed.stdout
    assert "  解除: B-0002 #2" in confirmed.stdout
    assert "released" not in confirmed.stdout
    shown = terminal(loaded, "hold", "show", "2", *DECEMBER)
    assert "  版: 2（変更するときは hold edit 2 --version 2）" in shown.stdout
    assert "押さえ" in shown.stdout and "requested" not in shown.stdout
    live = terminal(loaded, "hold", "list", *DECEMBER).stdout.splitlines()
    assert [line.split()[1] for line in live] == ["#1"]  # #2 lost its place: not live
    every = terminal(loaded, "hold", "list", "--status", "all", *DECEMBER).stdout
    assert "#2" in every and "解除（他の押さえが本予約）" in every
    _, listing = run(loaded, "hold", "list")  # the JSON: every hold, as before
    assert [h["id"] for h in listing["holds"]] == [1, 2]
    _, released = run(loaded, "hold", "list", "--status", "released")
    assert [h["id"] for h in released["holds"]] == [2]


def test_a_write_at_a_future_now_says_when_its_notices_go(loaded: str) -> None:
    later = ("--now", "2030-01-04T09:00+09:00")
    said = terminal(loaded, *HOLD, "--customer", "山田様", "--salesperson", "U0SALES001",
                    "--date", "2030-02-02", *later, lang="en")  # fmt: skip
    assert said.returncode == 0, said.stderr
    assert "Its notices go out at Fri 4 Jan 2030 (Shakko) 9:00" in said.stdout


def test_free_takes_what_priority_days_takes_and_any_kind_of_the_venue(loaded: str) -> None:
    code, saturdays = run(loaded, "free", "--from", "2027-10-01", "--to", "2027-10-10",
                          "--days", "saturdays,2027-10-06", "--room", "kiku", "--slot", "昼",
                          *DECEMBER)  # fmt: skip
    assert code == 0, saturdays
    assert sorted({r["date"] for r in saturdays["results"]}) == [
        "2027-10-02", "2027-10-06", "2027-10-09"
    ]  # fmt: skip
    code, banquet = run(loaded, "free", "--from", "2027-10-02", "--to", "2027-10-02",
                        "--kind", "banquet", *DECEMBER)  # fmt: skip
    assert code == 0 and {r["outcome"] for r in banquet["results"]} == {"not_open"}  # a Saturday
    refused = terminal(loaded, "free", "--from", "2027-10-01", "--to", "2027-10-01",
                       "--kind", "nijikai")  # fmt: skip
    assert refused.returncode == 2 and "nijikai" in refused.stderr and "婚礼" in refused.stderr


def test_venue_show_says_what_the_venue_file_set(loaded: str) -> None:
    shown = terminal(loaded, "venue", "show").stdout
    assert "    hoo  鳳凰の間  区画 hoo-1,hoo-2,hoo-3  定員 300  転換 90分" in shown
    assert "1番手の回答期限 婚礼7日・一般宴会3日" in shown
    assert "時間帯: 昼 11:00〜14:00, 午後 15:30〜18:00, 夜 19:30〜22:00" in shown
    assert "種別: wedding=婚礼, banquet=一般宴会" in shown and "マネージャー U0MANAGER1" in shown
    helped = terminal(loaded, "hold", "request", "--help").stdout
    assert "依頼する人の Slack ユーザーID" in helped and "--actor ACTOR, --creator ACTOR" in helped


MINE = ("hold", "venue", "free", "sweep")  # this catalog's commands (bot/texts/terminal_holds*)


def test_every_help_of_the_hold_venue_and_free_commands_is_in_japanese(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What `osae hold|venue|free|sweep ... --help` explains, in Japanese; the same in English."""
    speak(monkeypatch, "ja", "C")
    from cli import context
    from cli.main import build_parser

    context.use_language("ja")
    with argparse_words.speaking("ja"):
        parsers = _parsers(build_parser())
    mine = {p: parser for p, parser in parsers.items() if p.split(" ")[1:2] in ([c] for c in MINE)}
    assert len(mine) > 10
    english = [
        (prog, said) for prog, parser in mine.items() for said in _helps(parser) if said.isascii()
    ]
    assert english == []
    context.use_language("en")
    with argparse_words.speaking("en"):
        assert _helps(_parsers(build_parser())["osae hold request"])[0].isascii()
