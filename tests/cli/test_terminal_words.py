"""issue 30: what the operator's commands print, in the reader's language (OSAE_LANG, else
LANG), with no internal word and no Slack markup; their ``--json`` the same in every language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main
from tests.cli.test_cli import NOW, hold, loaded

__all__ = ["loaded"]  # the fixture, used by name

DAY = "2027-05-12"
LATE = ["--start", "21:00", "--end", "23:30", "--kind", "banquet", "--customer", "鈴木様"]


def osae(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, *args: str
) -> tuple[int, str]:
    """``osae ARGS`` in this process as a reader of ``lang`` (``ja``: OSAE_LANG; ``C``: LANG)."""
    if lang == "ja":
        monkeypatch.setenv("OSAE_LANG", "ja")
    else:
        monkeypatch.delenv("OSAE_LANG", raising=False)
    monkeypatch.setenv("LANG", lang)
    try:
        code = main(list(args))
    except SystemExit as done:
        code = int(done.code or 0)
    out, err = capsys.readouterr()
    return code, out + err


@pytest.fixture
def held(loaded: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The demo venue with a wedding hold (1st) and a late banquet past midnight's turnover."""
    assert hold(loaded)[0] == 0
    assert hold(loaded, "--room", "hoo", *LATE[:2], *LATE[2:])[0] in (0, 1)
    monkeypatch.setenv("DATABASE_URL", loaded)
    monkeypatch.delenv("OSAE_VENUE", raising=False)
    monkeypatch.delenv("REDIS_URL", raising=False)
    return loaded


COMMANDS = [
    ["day", DAY, "--room", "hoo", "--now", NOW],
    ["stats", "--month", "2027-05"],
    ["enquiry", "show", "B-0001"],
    ["outbox", "list"],
    ["db", "current"],
    ["calendar", "--from", "2027-05-10", "--to", "2027-05-12"],
]


def test_the_commands_speak_japanese(
    held: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    said = {c[0]: osae(monkeypatch, capsys, "ja", *c) for c in COMMANDS}
    assert all(code == 0 for code, _ in said.values()), said
    day = said["day"][1]
    assert day.startswith("5/12(水・仏滅)\n鳳凰の間（hoo・転換 90分）\n")
    assert (
        "11:00〜15:00（転換 90分 → 16:30）  #1 山田様  [1番手 · 期限 3/8(月・友引) 9:00まで]" in day
    )
    assert "21:00〜23:30（転換 90分 → 翌1:00）" in day
    assert "2027年5月: 本予約 0" in said["stats"][1]
    assert said["enquiry"][1].startswith("B-0001 山田様（婚礼）担当 田中\n")
    card = "チャンネルのカード更新  宛先 カードのチャンネル  押さえ #1  送信 0回  送信待ち"
    assert card in said["outbox"][1]
    assert said["db"][1].startswith("データベースの版: ")
    for command, (_, out) in said.items():
        for word in ("wedding", "(next day)", "requested", "<@", "'", "pending", "schema"):
            assert word not in out, (command, word, out)


def test_the_same_commands_speak_english(
    held: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    said = {c[0]: osae(monkeypatch, capsys, "C", *c)[1] for c in COMMANDS}
    assert "  21:00–23:30 (+90 min turnover → 1:00 next day)  #2 鈴木様" in said["day"]
    assert said["day"].startswith("Wed 12 May (Butsumetsu)\n鳳凰の間 (hoo, turnover 90 min)\n")
    assert said["stats"].startswith("May 2027: confirmed 0")
    assert said["enquiry"].startswith("B-0001 山田様 (wedding), by 田中\n")
    assert "channel card update to the card     hold 1" in said["outbox"]
    assert said["db"].startswith("schema revision: ")


def test_json_answers_do_not_change_with_the_language(
    held: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    ledger = tmp_path / "ledger.csv"
    takeout = [
        ["export", "--from", DAY, "--to", DAY, "--out", str(ledger)],
        ["feed", "url", "--venue"],
    ]
    for command in [*COMMANDS, *takeout]:
        ja = osae(monkeypatch, capsys, "ja", *command, "--json")
        en = osae(monkeypatch, capsys, "C", *command, "--json")
        assert ja == en, command
        assert json.loads(ja[1])["ok"] is True


@pytest.mark.parametrize(
    ("args", "ja", "en"),
    [
        (
            ["day", DAY, "--room", "xyz"],
            "部屋「xyz」はこの会場にありません",
            "The venue has no room 'xyz'",
        ),
        (["stats", "--month", "2027-13"], "月として読めません", "is not a month"),
        (["enquiry", "show", "X-1"], "受付番号として読めません", "is not a booking number"),
        (
            ["venue", "link", "grand-tokyo", "X123"],
            "X123 はワークスペースの ID（T0123ABCD のような形",
            "X123 is not a workspace id like T0123ABCD",
        ),
    ],
)
def test_refusals_in_the_readers_language(
    held: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    ja: str,
    en: str,
) -> None:
    code, said = osae(monkeypatch, capsys, "ja", *args)
    assert code == 2 and ja in said
    code, said = osae(monkeypatch, capsys, "C", *args)
    assert code == 2 and en in said


def test_an_import_refused_names_who_is_in_the_way_without_markup(
    held: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    assert hold(held)[0] == 0  # a 2nd behind the wedding: a third would be refused
    ledger = tmp_path / "ledger.csv"
    assert (
        osae(monkeypatch, capsys, "ja", "export", "--from", DAY, "--to", DAY, "--out", str(ledger))[
            0
        ]
        == 0
    )
    code, said = osae(monkeypatch, capsys, "ja", "import", str(ledger), "--dry-run")
    assert code == 1 and "取り込めません" in said
    assert "担当 田中" in said and "<@" not in said


def test_without_a_database_the_newcomer_is_told_how_to_start_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("OSAE_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("OSAE_LAUNCHER", raising=False)
    code, said = osae(monkeypatch, capsys, "ja", "day", DAY)
    assert code != 0
    assert f"DATABASE_URL が設定されておらず、{tmp_path} で osae を動かしたこともありません" in said
    assert "別の端末で osae serve を起動する" in said
