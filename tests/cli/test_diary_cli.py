"""`osae diary`: the diary picture of a day, a week and a month, through the real console
script; the PNG and the PDF are opened and read back (size, pages, the text layer)."""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

from PIL import Image
from pypdf import PdfReader

from tests.cli.test_cli import NOW, OSAE, ROOT, hold, loaded, run

__all__ = ["loaded"]  # the fixture, used by name

DAY = "2027-05-12"  # a Wednesday
CUSTOMERS = ("山田様", "株式会社サンプル", "佐藤・鈴木家", "Smith & Co")


def _fill(url: str) -> None:
    hold(url)  # 鳳凰の間 11:00-15:00 山田様, 1st
    for n, (room, customer, start, end) in enumerate(
        [
            ("hoo-a", "株式会社サンプル", "17:30", "20:00"),
            ("sakura", "佐藤・鈴木家", "18:00", "21:00"),
            ("chapel", "Smith & Co", "10:00", "11:00"),
        ]
    ):
        code, answer = run(url, "hold", "request", "--room", room, "--date", DAY, "--start",
                           start, "--end", end, "--kind", "banquet" if n == 0 else "wedding",
                           "--customer", customer, "--guests", str(40 + n),
                           "--salesperson", "U0SALES002", "--now", NOW)  # fmt: skip
        assert code == 0, answer
    run(url, "hold", "confirm", "4", "--actor", "U0SALES002", "--now", NOW)


def test_a_day_as_pdf_has_every_customer_in_its_text_and_one_a4_landscape_page(
    loaded: str, tmp_path: Path
) -> None:
    _fill(loaded)
    out = tmp_path / "day.pdf"
    code, answer = run(loaded, "diary", "--date", DAY, "--out", str(out), "--now", NOW)
    assert code == 0, answer
    assert answer["file"] == str(out) and answer["size"] == out.stat().st_size > 10_000
    assert (answer["view"], answer["from"], answer["to"], answer["holds"]) == ("day", DAY, DAY, 4)
    assert answer["venue"] == "grand-tokyo" and answer["rooms"][:4] == [
        "hoo",
        "hoo-east",
        "hoo-west",
        "hoo-a",
    ]
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (297, 210)
    page = reader.pages[0].extract_text()
    for customer in CUSTOMERS:
        assert customer in page, customer
    assert "鳳凰の間" in page and "Wed 12 May" in page and "U0SALES002" in page
    # real text in an embedded TrueType font, not shapes
    fonts = reader.pages[0]["/Resources"]["/Font"]
    described = [f.get_object() for f in fonts.values()]
    assert any("IPAexGothic" in str(f["/BaseFont"]) for f in described)
    assert all(str(f["/Subtype"]) in ("/Type0", "/TrueType") for f in described)


def test_a_month_as_png_and_a3_pdf_and_a_week(loaded: str, tmp_path: Path) -> None:
    _fill(loaded)
    png = tmp_path / "month.png"
    code, answer = run(loaded, "diary", "--date", DAY, "--month", "--out", str(png), "--now", NOW)
    assert code == 0, answer
    assert (answer["view"], answer["from"], answer["to"]) == ("month", "2027-05-01", "2027-05-31")
    assert answer["format"] == "png" and answer["holds"] == 4
    image = Image.open(png)
    assert image.format == "PNG" and image.width >= 2400 and image.height > 800
    pdf = tmp_path / "month.pdf"
    code, answer = run(loaded, "diary", "--date", DAY, "--month", "--out", str(pdf), "--now", NOW)
    box = PdfReader(pdf).pages[0].mediabox
    assert round(float(box.width) / 72 * 25.4) == 420  # a month reads better on A3
    code, week = run(loaded, "diary", "--date", DAY, "--week", "--out", str(tmp_path / "w.pdf"),
                     "--paper", "a3", "--now", NOW)  # fmt: skip
    assert (code, week["from"], week["to"], week["holds"]) == (0, "2027-05-10", "2027-05-16", 4)
    text = PdfReader(tmp_path / "w.pdf").pages[0].extract_text()
    assert all(c in text for c in CUSTOMERS)
    assert "10 May\nMon\nTomobiki" in text  # the date axis: weekday and 六曜 (友引)


def test_bad_output_and_dates_are_refused_with_what_works(loaded: str, tmp_path: Path) -> None:
    code, wrong = run(loaded, "diary", "--date", DAY, "--out", str(tmp_path / "x.jpg"))
    assert (code, wrong["code"]) == (2, "bad_format") and ".png" in wrong["message"]
    assert not (tmp_path / "x.jpg").exists()
    code, bad = run(loaded, "diary", "--date", "2027-02-30", "--out", str(tmp_path / "x.png"))
    assert (code, bad["code"]) == (2, "usage") and "2027-02-30" in bad["message"]
    code, both = run(loaded, "diary", "--date", DAY, "--week", "--month", "--out", "x.png")
    assert (code, both["code"]) == (2, "usage")
    code, edge = run(loaded, "diary", "--date", "9999-12-31", "--week", "--out", "x.png")
    assert (code, edge["code"]) == (2, "bad_date")
    code, nowhere = run(loaded, "diary", "--date", DAY, "--out", "/proc/osae/x.png")
    assert (code, nowhere["code"]) == (1, "unwritable") and "--out" in nowhere["message"]


def test_plain_text_answer_in_japanese(loaded: str, tmp_path: Path) -> None:
    out = tmp_path / "empty.png"
    environ = {**os.environ, "DATABASE_URL": loaded, "LANG": "ja_JP.UTF-8"}
    command = [OSAE, "diary", "--date", DAY, "--out", str(out), "--now", NOW]
    done = subprocess.run(
        command, capture_output=True, text=True, env=environ, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    assert f"{out} に 台帳 5/12(水" in done.stdout and "押さえ 0 件" in done.stdout
    assert Image.open(out).format == "PNG"
