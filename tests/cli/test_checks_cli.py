"""The terminal's ways in refuse what Slack's do (core.checks): one line in the reader's
language, exit code 2, nothing written. And a clock change's missing hour, refused."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.cli.test_cli import HOLD, NOW, OSAE, ROOT, hold, loaded, run

__all__ = ["loaded"]  # the fixture, shared

EXAMPLE = (ROOT / "examples" / "venue.toml").read_text(encoding="utf-8")


def _nothing_held(url: str) -> None:
    code, listing = run(url, "hold", "list", "--all")
    assert (code, listing["holds"]) == (0, [])


@pytest.mark.parametrize(
    ("flag", "typed", "named"),
    [
        ("--customer", "山田様\x1b[31m赤", "U+001B"),
        ("--customer", "Hanako\u202eokanaH", "U+202E"),
        ("--note", "ok\x9b2J", "U+009B"),
        ("--salesperson", "<!channel>", "<!channel>"),
        ("--creator", "bob", "bob"),
    ],
)
def test_a_flag_that_fails_a_check_is_one_line_exit_2_and_nothing_is_written(
    loaded: str, flag: str, typed: str, named: str
) -> None:
    args = [*HOLD]
    if flag in args:
        args[args.index(flag) + 1] = typed
    else:
        args += [flag, typed]
    code, answer = run(loaded, *args)
    assert (code, answer["ok"], answer["code"]) == (2, False, "usage"), answer
    assert flag in answer["message"] and named in answer["message"]
    assert "\x1b" not in answer["message"] and "\u202e" not in answer["message"]
    _nothing_held(loaded)


def test_an_actor_must_be_a_slack_user_id(loaded: str) -> None:
    assert hold(loaded)[0] == 0
    code, answer = run(loaded, "hold", "release", "1", "--actor", "<!channel>", "--now", NOW)
    assert (code, answer["code"]) == (2, "usage")
    code, shown = run(loaded, "hold", "show", "1")
    assert shown["hold"]["status"] == "tentative"


def _load(url: str, tmp_path: Path, text: str, lang: str = "C.UTF-8") -> tuple[int, str, str]:
    path = tmp_path / "venue.toml"
    path.write_text(text, encoding="utf-8")
    environ = {**os.environ, "DATABASE_URL": url, "LANG": lang}
    environ.pop("OSAE_VENUE", None)
    environ.pop("OSAE_LANG", None)
    done = subprocess.run(
        [OSAE, "venue", "load", str(path)], capture_output=True, text=True, env=environ, check=False
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    ("change", "en", "ja"),
    [
        (
            ("turnover_min = 90", "turnover = 30"),
            "Did you mean 'turnover_min'?",
            "「turnover_min」のことですか？",
        ),
        (
            ("capacity = 300", "capcity = 300"),
            "Did you mean 'capacity'?",
            "「capacity」のことですか？",
        ),
        (
            ("horizon_days = 730", "horizon_days = 100000000"),
            "from 1 to 3650, not 100000000",
            "1 から 3650 まで",
        ),
        (
            ('name = "鳳凰の間"', 'name = "鳳凰の間\\u0000"'),
            "control character (U+0000)",
            "制御文字（U+0000）",
        ),
        (
            ('id = "grand-tokyo"', 'id = "v test/../<!channel>"'),
            "cannot be a venue id",
            "会場 ID にできません",
        ),
        (
            ('managers = ["U0MANAGER1"]', 'managers = ["<!channel>", "bob"]'),
            "not a Slack user id",
            "ユーザー ID ではありません",
        ),
        # not a shared check: its English detail, framed in the reader's language
        (
            ('timezone = "Asia/Tokyo"', 'timezone = "Mars/Olympus"'),
            "'Mars/Olympus' is not an IANA time zone",
            "会場ファイルを読み込めません（何も書き込んでいません）",
        ),
    ],
)
def test_a_venue_file_that_fails_a_check_is_one_line_in_the_readers_language(
    fresh_db: str, tmp_path: Path, change: tuple[str, str], en: str, ja: str
) -> None:
    old, new = change
    assert old in EXAMPLE
    bad = EXAMPLE.replace(old, new, 1)
    for lang, expected in (("C.UTF-8", en), ("ja_JP.UTF-8", ja)):
        code, out, err = _load(fresh_db, tmp_path, bad, lang)
        assert code == 2, (out, err)
        assert out == "" and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1 and expected in err, err
    assert run(fresh_db, "venue", "show")[0] != 0  # nothing was loaded


def test_a_time_the_clocks_skip_is_refused_naming_the_gap_and_25_hours_are_too_long(
    fresh_db: str, tmp_path: Path
) -> None:
    ny = EXAMPLE.replace('timezone = "Asia/Tokyo"', 'timezone = "America/New_York"', 1)
    assert ny != EXAMPLE
    assert _load(fresh_db, tmp_path, ny)[0] == 0
    spring = ["--date", "2027-03-14", "--start", "02:30", "--end", "04:00"]
    code, answer = hold(fresh_db, *spring)
    assert (code, answer["code"]) == (1, "bad_times"), answer
    assert "02:00–03:00" in answer["message"] and "America/New_York" in answer["message"]
    code, answer = hold(fresh_db, "--date", "2027-11-07", "--start", "00:00", "--end", "00:00")
    assert (code, answer["code"]) == (1, "too_long"), answer
    code, listing = run(fresh_db, "hold", "list", "--all")
    assert listing["holds"] == []
    code, kept = hold(fresh_db, "--date", "2027-03-14", "--start", "01:30", "--end", "02:00")
    assert code == 1 and kept["code"] == "bad_times"  # its end, 02:00, is skipped too
    code, kept = hold(fresh_db, "--date", "2027-03-14", "--start", "01:00", "--end", "01:59")
    assert code == 0, kept
