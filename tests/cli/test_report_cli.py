"""`osae report`: the pipeline's JSON contract, its table in the terminal's language, its
xlsx file and the refusals of a bad month or format, through the real console script. The
figures themselves are held to a scripted month in tests/engine/test_pipeline.py."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import openpyxl
from PIL import Image

from tests.cli.test_cli import NOW, OSAE, ROOT, hold, loaded, run

__all__ = ["loaded"]  # the fixture, used by name


def _month(url: str) -> None:
    """A confirmed wedding (80 guests, ¥4,000,000 from ゼクシィ), its 2nd lost to it, and a
    banquet released for its budget: three bookings of May 2027, asked in March."""
    code, first = hold(url, "--guests", "80", "--estimate", "4000000", "--source", "zexy")
    assert code == 0
    assert hold(url, "--salesperson", "U0SALES002", "--source", "hanayume")[0] == 0
    code, third = run(url, "hold", "request", "--room", "sakura", "--date", "2027-05-13",
                      "--start", "18:00", "--end", "20:00", "--kind", "banquet", "--customer",
                      "鈴木様", "--salesperson", "U0SALES001", "--now", NOW)  # fmt: skip
    assert code == 0
    later = "2027-03-02T09:00"
    done = run(url, "hold", "confirm", str(first["id"]), "--actor", "U0SALES001", "--now", later)
    assert done[0] == 0
    gone = run(url, "hold", "release", str(third["id"]), "--actor", "U0SALES001", "--reason",
               "budget", "--now", later)  # fmt: skip
    assert gone[0] == 0


def test_the_json_contract(loaded: str) -> None:
    _month(loaded)
    code, may = run(loaded, "report", "--month", "2027-05")
    assert code == 0 and may["ok"] and may["month"] == "2027-05"
    event = may["by_event_month"]
    assert (event["enquiries"], event["holds"], event["confirmed"], event["lost"]) == (3, 3, 1, 2)
    assert event["lost_by_reason"] == {"budget": 1, "taken": 1}
    assert (event["decided"], event["conversion"], event["median_days_to_decision"]) == (
        3,
        round(1 / 3, 4),
        1.0,
    )
    assert may["by_enquiry_month"]["enquiries"] == 0  # asked in March
    people = {p["salesperson"]: p for p in may["by_salesperson"]}
    assert set(people) == {"U0SALES001", "U0SALES002"}
    assert people["U0SALES001"]["by_event_month"]["confirmed"] == 1
    assert people["U0SALES001"]["salesperson_name"]  # a name, the id at least
    sources = {s["source"]: s for s in may["by_source"]}
    assert sources["zexy"]["source_name"] == "ゼクシィ"
    assert sources[None]["by_event_month"]["lost_by_reason"] == {"budget": 1}
    assert [k["kind"] for k in may["by_kind"]] == ["banquet", "wedding"]
    reasons = {r["reason"]: r for r in may["by_reason"]}
    assert (reasons["budget"]["by_event_month"], reasons["other_venue"]["by_event_month"]) == (1, 0)
    assert [f["month"] for f in may["forecast"]] == ["2027-05", "2027-06", "2027-07", "2027-08"]
    assert may["forecast"][0]["confirmed"] == {
        "bookings": 1,
        "guests": 80,
        "estimate": 4_000_000,
        "without_estimate": 0,
    }
    _, march = run(loaded, "report", "--month", "2027-03")
    assert march["by_enquiry_month"]["enquiries"] == 3 and march["by_event_month"]["enquiries"] == 0


def test_the_table_reads_in_the_terminals_language_and_the_xlsx_keeps_numbers(
    loaded: str, tmp_path: Path
) -> None:
    _month(loaded)
    environ = {**os.environ, "DATABASE_URL": loaded, "LANG": "ja_JP.UTF-8"}
    environ.pop("OSAE_VENUE", None)
    done = subprocess.run([OSAE, "report", "--month", "2027-05"], capture_output=True,
                          text=True, env=environ, cwd=ROOT, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    printed = done.stdout
    assert "2027年5月のパイプライン" in printed and "成約率" in printed
    assert "失注の理由（挙式・開催が2027年5月）: 予算 1、他の予約が本予約 1" in printed
    assert "33%" in printed and "¥4,000,000" in printed
    out = tmp_path / "may.xlsx"
    code, wrote = run(loaded, "report", "--month", "2027-05", "--format", "xlsx", "--out", str(out),
                      env={"LANG": "en_US.UTF-8"})  # fmt: skip
    assert (code, wrote["file"], wrote["format"]) == (0, str(out), "xlsx")
    book = openpyxl.load_workbook(out)
    assert book.sheetnames == ["Summary", "Splits", "Forecast"]
    summary = [[c.value for c in row] for row in book["Summary"].iter_rows()]
    assert summary[1][:4] == [None, "Enquiries", "Dates", "Confirmed"]
    assert summary[2][:5] == ["Events in 2027-05", 3, 3, 1, 2]
    forecast = [[c.value for c in row] for row in book["Forecast"].iter_rows()]
    assert forecast[2] == ["2027-05", 1, 80, 4_000_000, 0, 0, 0]
    chart = tmp_path / "may.png"
    code, drew = run(loaded, "report", "--month", "2027-05", "--format", "png", "--out", str(chart))
    assert (code, drew["format"], drew["bytes"]) == (0, "png", chart.stat().st_size)
    with Image.open(chart) as picture:
        assert picture.format == "PNG" and picture.info["Title"].endswith("2027-05")


def test_bad_months_and_formats_are_refused_before_anything_is_read(loaded: str) -> None:
    code, bad = run(loaded, "report", "--month", "2027-13")
    assert (code, bad["code"]) == (2, "usage")
    code, bad = run(loaded, "report", "--format", "xlsx")
    assert (code, bad["code"]) == (2, "usage") and "--out" in bad["message"]
    code, bad = run(loaded, "report", "--format", "pdf", "--out", "x.pdf")
    assert (code, bad["code"]) == (2, "usage")
