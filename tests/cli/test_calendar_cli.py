"""`osae calendar` through the real console script: the JSON contract and its refusals."""

from __future__ import annotations

import os
import subprocess
from datetime import date, timedelta
from pathlib import Path

import pytest

from core.rules.rokuyo import rokuyo
from tests.cli.test_cli import OSAE, ROOT, run

EXAMPLE = ROOT / "examples" / "venue.toml"


@pytest.fixture
def loaded(fresh_db: str) -> str:
    code, answer = run(fresh_db, "venue", "load", str(EXAMPLE))
    assert (code, answer["venue"]) == (0, "grand-tokyo")
    return fresh_db


def table(url: str, *args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "DATABASE_URL": url, "LANG": lang}
    environ.pop("OSAE_VENUE", None)
    return subprocess.run(
        [OSAE, "calendar", *args], capture_output=True, text=True, env=environ, check=False
    )


def test_each_day_has_its_rokuyo_holiday_priority_and_banquet_opening(loaded: str) -> None:
    code, answer = run(loaded, "calendar", "--from", "2027-10-01", "--to", "2027-10-17")
    assert code == 0
    days = {d["date"]: d for d in answer["days"]}
    assert list(days) == [str(date(2027, 10, 1) + timedelta(days=i)) for i in range(17)]
    assert set(answer["days"][0]) == {
        "date", "weekday", "rokuyo", "holiday", "priority", "banquet_opens_at",
    }  # fmt: skip
    # koyominote prints 2027-10-17 as 旧暦 9月18日 友引.
    assert days["2027-10-17"]["rokuyo"] == "友引"
    assert all(d["rokuyo"] == rokuyo(date.fromisoformat(d["date"])).japanese for d in days.values())
    friday, saturday, sports_day = days["2027-10-01"], days["2027-10-02"], days["2027-10-11"]
    assert (friday["weekday"], friday["priority"], friday["banquet_opens_at"]) == (
        "fri", False, None,
    )  # fmt: skip
    assert (saturday["weekday"], saturday["priority"], saturday["holiday"]) == ("sat", True, None)
    assert saturday["banquet_opens_at"] == "2027-07-04T00:00:00+09:00"  # 90 days before
    assert (sports_day["weekday"], sports_day["holiday"]) == ("mon", "スポーツの日")
    assert sports_day["priority"] is True
    assert sports_day["banquet_opens_at"] == "2027-07-13T00:00:00+09:00"


def test_a_whole_year_is_the_most_one_call_shows(loaded: str) -> None:
    code, leap_year = run(loaded, "calendar", "--from", "2028-01-01", "--to", "2028-12-31")
    assert (code, len(leap_year["days"])) == (0, 366)
    code, too_long = run(loaded, "calendar", "--from", "2028-01-01", "--to", "2029-01-01")
    assert (code, too_long["code"]) == (2, "range_too_long")
    assert "367" in too_long["message"] and "366" in too_long["message"]


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (("--from", "2027-10-10", "--to", "2027-10-01"), "bad_range", "earlier date first"),
        (("--from", "2027-02-30", "--to", "2027-03-01"), "usage", "2027-02-30"),
        (("--from", "27-10-01", "--to", "2027-10-02"), "usage", "2027-10-01"),
        (("--from", "2200-01-01", "--to", "2200-01-02"), "bad_range", "1900–2199"),
        (("--to", "2027-10-02"), "usage", "--from"),
    ],
)
def test_bad_ranges_are_refused_with_what_would_work(
    loaded: str, args: tuple[str, ...], code: str, words: str
) -> None:
    exit_code, answer = run(loaded, "calendar", *args)
    assert (exit_code, answer["code"]) == (2, code)
    assert words in answer["message"]


def test_refusals_speak_japanese_when_asked(loaded: str) -> None:
    done = table(loaded, "--from", "2027-10-10", "--to", "2027-10-01", lang="ja_JP.UTF-8")
    assert done.returncode == 2
    assert "早い日付を先に" in done.stderr and "Traceback" not in done.stderr


def test_the_table_reads_in_the_users_language(loaded: str) -> None:
    english = table(loaded, "--from", "2027-10-11", "--to", "2027-10-12")
    assert english.returncode == 0
    assert english.stdout.splitlines()[0].split("  ")[:4] == [
        "2027-10-11", "Mon", "友引", "Sports Day",
    ]  # fmt: skip
    japanese = table(loaded, "--from", "2027-10-11", "--to", "2027-10-11", lang="ja_JP.UTF-8")
    assert japanese.stdout.strip().startswith("2027-10-11  月  友引  スポーツの日  婚礼優先日")


def test_a_venue_that_hides_rokuyo_still_answers_it_in_json(fresh_db: str, tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8").replace("show_rokuyo = true", "show_rokuyo = false")
    hidden = tmp_path / "hidden.toml"
    hidden.write_text(text, encoding="utf-8")
    code, _ = run(fresh_db, "venue", "load", str(hidden))
    assert code == 0
    shown = table(fresh_db, "--from", "2027-10-17", "--to", "2027-10-17")
    assert (
        shown.stdout.strip()
        == "2027-10-17  Sun  wedding priority  banquets from Mon 19 Jul 2027 0:00"
    )
    code, answer = run(fresh_db, "calendar", "--from", "2027-10-17", "--to", "2027-10-17")
    assert answer["days"][0]["rokuyo"] == "友引"


def test_an_unknown_venue_is_named(loaded: str) -> None:
    code, answer = run(loaded, "calendar", "--from", "2027-10-01", "--to", "2027-10-01",
                       "--venue", "nowhere")  # fmt: skip
    assert (code, answer["code"]) == (1, "unknown_venue")
    assert "nowhere" in answer["message"]
