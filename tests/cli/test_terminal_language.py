"""issue 30: the terminal speaks its reader's language (OSAE_LANG, else LANG), argparse's own
words included (``cli.argparse_words``: its gettext catalog, not patched messages)."""

from __future__ import annotations

import argparse
import gettext
import logging
import os
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from cli import argparse_words
from cli.main import main

BAD_DATE = ["hold", "request", "--room", "hoo", "--date", "2027-02-30", "--start", "11:00",
            "--end", "15:00", "--customer", "山田様", "--salesperson", "U0SALES001"]  # fmt: skip


def speak(monkeypatch: pytest.MonkeyPatch, osae_lang: str | None, lang: str) -> None:
    if osae_lang is None:
        monkeypatch.delenv("OSAE_LANG", raising=False)
    else:
        monkeypatch.setenv("OSAE_LANG", osae_lang)
    monkeypatch.setenv("LANG", lang)
    monkeypatch.delenv("LANGUAGE", raising=False)


def osae(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``osae ARGS`` in this process: its exit code, what it printed and what it complained."""
    try:
        code = main(list(args))
    except SystemExit as done:
        code = int(done.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_catalog_shipped_is_the_po_compiled() -> None:
    assert argparse_words.MO.read_bytes() == argparse_words.compiled(), (
        "cli/locale/ja/LC_MESSAGES/messages.mo is stale: run python -m cli.argparse_words"
    )


def test_every_message_of_this_pythons_argparse_has_its_japanese() -> None:
    with argparse_words.PO.open("rb") as source:
        catalog = read_po(source, locale="ja")
    asked = [found[1] for found in extract_from_file("python", argparse.__file__)]
    assert len(asked) > 30  # argparse's messages were found at all
    missing = []
    for msgid in asked:
        key = msgid[0] if isinstance(msgid, tuple) else msgid
        message = catalog.get(key)
        said = message.string if message is not None else None
        if not (said[0] if isinstance(said, tuple) else said):
            missing.append(key)
    assert missing == []


@pytest.mark.parametrize(
    ("osae_lang", "lang"), [("ja", "C"), (None, "ja_JP.UTF-8")], ids=["OSAE_LANG", "LANG"]
)
def test_a_bad_date_is_refused_in_japanese(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    osae_lang: str | None,
    lang: str,
) -> None:
    speak(monkeypatch, osae_lang, lang)
    code, _, err = osae(capsys, *BAD_DATE)
    assert code == 2
    assert err.startswith("使い方: osae hold request")
    assert "osae hold request: エラー: --date: '2027-02-30' は日付として読めません" in err
    assert "usage" not in err and "error" not in err
    assert os.environ.get("LANGUAGE") is None  # put back: nothing osae starts inherits it


def test_in_english_argparse_says_its_own_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    speak(monkeypatch, "en", "ja_JP.UTF-8")  # OSAE_LANG wins over LANG
    code, _, err = osae(capsys, *BAD_DATE)
    assert code == 2
    assert "error: argument --date: '2027-02-30' is not a date like 2027-03-10" in err
    speak(monkeypatch, None, "C")
    code, _, err = osae(capsys, "hold", "request", "--start", "25:00")
    assert code == 2 and "'25:00' is not a time written HH:MM" in err


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["hold", "request", "--start", "25:00"], "'25:00' は時刻として読めません"),
        (["hold", "request", "--guests", "0"], "'0' は人数として読めません"),
        (["db"], "次の引数を指定してください: 操作"),
        (["dbx"], "'dbx' は選べません"),
        (["db", "current", "--bogus"], "知らない引数です: --bogus"),
        (["hold", "show", "--venue"], "値を一つ指定してください"),
    ],
)
def test_usage_errors_in_japanese(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    says: str,
) -> None:
    speak(monkeypatch, "ja", "C")
    code, _, err = osae(capsys, *args)
    assert code == 2
    assert says in err and "エラー: " in err


@pytest.mark.parametrize("command", [[], ["db"], ["hold"], ["db", "upgrade"]])
def test_help_in_japanese(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    speak(monkeypatch, "ja", "C")
    code, out, _ = osae(capsys, *command, "--help")
    assert code == 0
    assert out.startswith(f"使い方: {' '.join(['osae', *command])}")
    assert "この説明を表示して終わります" in out and "オプション:" in out
    assert "show this help" not in out and "usage" not in out
    speak(monkeypatch, None, "C")
    code, out, _ = osae(capsys, *command, "--help")
    assert out.startswith("usage: ") and "show this help message and exit" in out


def test_gettext_is_left_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "fr")
    domain = gettext.textdomain()
    bound = gettext.bindtextdomain(domain)
    with argparse_words.speaking("ja"):
        assert gettext.gettext("usage: ") == "使い方: "
        assert gettext.ngettext("expected %s argument", "expected %s arguments", 2) == (
            "値を %s 個指定してください"
        )
    assert gettext.gettext("usage: ") == "usage: "
    assert os.environ["LANGUAGE"] == "fr" and gettext.bindtextdomain(domain) == bound


# The commands whose words are this terminal catalogs (hold, venue, free: cli/tour's).
OWN = ("db", "day", "stats", "enquiry", "calendar", "diary", "web", "worker", "clock", "serve",
       "outbox", "export", "feed", "import")  # fmt: skip


def _parsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Every (sub)command's parser under ``parser``, by its prog."""
    found = {parser.prog: parser}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found.update(_parsers(sub))
    return found


def _helps(parser: argparse.ArgumentParser) -> list[str]:
    said = [a.help for a in parser._actions if a.help and a.help != argparse.SUPPRESS]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            said += [c.help for c in action._choices_actions if c.help]
    return [*said, *([parser.description] if parser.description else [])]


def test_every_help_of_the_operators_commands_is_in_japanese(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    speak(monkeypatch, "ja", "C")
    from cli import context
    from cli.main import build_parser

    context.use_language("ja")
    with argparse_words.speaking("ja"):
        parsers = _parsers(build_parser())
    own = {p: parser for p, parser in parsers.items() if p.split(" ")[1:2] in ([c] for c in OWN)}
    assert len(own) > 20
    english = [
        (prog, said) for prog, parser in own.items() for said in _helps(parser) if said.isascii()
    ]
    assert english == []
    assert not str(parsers["osae"].description).isascii()
    context.use_language("en")
    with argparse_words.speaking("en"):
        assert _helps(_parsers(build_parser())["osae day"])[0].isascii()


def test_serve_says_what_slack_lacks_in_japanese(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    speak(monkeypatch, "ja", "C")
    for name in [k for k in os.environ if k.startswith("SLACK_")]:
        monkeypatch.delenv(name)
    monkeypatch.delenv("OSAE_LAUNCHER", raising=False)  # `dev.py test` names itself so
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-only-this")
    root = logging.getLogger()  # `osae serve` sets up logging on this test's stderr: put back
    monkeypatch.setattr(root, "handlers", list(root.handlers))
    monkeypatch.setattr(root, "level", root.level)
    code, _, err = osae(capsys, "serve")
    assert code == 2
    assert "osae serve: Slack の設定が足りません。何も起動していません。" in err
    assert "足りないもの: SLACK_APP_TOKEN または SLACK_SIGNING_SECRET" in err
    assert "SLACK_ で始まる変数をすべて消してください" in err
    assert "nothing was started" not in err and "Missing" not in err
    assert "2. 次を設定して、もう一度 `osae serve` を実行します" in err  # the steps too
    from cli import context, process_commands
    from cli.errors import CommandError
    from cli.settings import Settings

    context.use_language("ja")  # (not through main: `osae worker` would set up logging)
    with pytest.raises(CommandError, match="REDIS_URL が設定されていません"):
        process_commands._runtime(Settings.from_env({}))


def test_the_web_says_where_it_listens_in_japanese(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from cli import context, process_commands
    from cli.settings import Settings

    settings = replace(Settings.from_env({}), port=8123)
    context.use_language("ja")
    said = process_commands._listening(settings, "127.0.0.1")
    assert (
        said
        == "web: http://127.0.0.1:8123（GET /healthz。Slack なしなので Slack の受け口はありません）"
    )
    context.use_language("C")
    said = process_commands._listening(settings, "127.0.0.1")
    assert said == "web on http://127.0.0.1:8123 (GET /healthz; no Slack endpoint without Slack)"


def test_the_ops_lines_and_terminal_catalogs_have_both_languages() -> None:
    from bot.texts import terminal, terminal_help, terminal_out, terminal_run
    from cli import ops_texts

    for module in (terminal, terminal_help, terminal_out, terminal_run):
        assert set(module.JA) == set(module.EN), module.__name__
    assert set(ops_texts.JA) == set(ops_texts.EN)


def test_the_local_servers_say_their_troubles_in_japanese(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from cli import local_stack

    speak(monkeypatch, "ja", "C")
    (tmp_path / local_stack.PID_FILE).write_text("4194303")  # a crashed serve's, gone now
    notes: list[str] = []
    local_stack.claim(tmp_path, notes)()
    assert notes == [
        "前回の osae serve（pid 4194303）がきちんと止まっていませんでした。新しく起動します"
    ]


def test_a_setting_set_wrongly_is_said_in_the_readers_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PORT", "abc")
    speak(monkeypatch, "ja", "C")
    code, _, err = osae(capsys, "day", "2027-05-12")
    assert code == 2 and "osae: PORT='abc' は数ではありません" in err
    monkeypatch.setenv("PORT", "3.5")
    speak(monkeypatch, None, "C")
    code, _, err = osae(capsys, "day", "2027-05-12")
    assert code == 2 and "osae: PORT='3.5' must be a whole number" in err
