"""`osae export`: the ledger as a venue's 予約台帳 in xlsx and CSV, read back and compared with
`osae hold list --json`, through the real console script."""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import openpyxl

from core.rules.rokuyo import rokuyo
from tests.cli.test_cli import NOW, hold, loaded, run

__all__ = ["loaded"]  # the fixture, used by name

TOKYO = ZoneInfo("Asia/Tokyo")
HEADERS = ["日付", "曜日・六曜", "部屋", "開始", "終了", "種別", "お客様", "人数", "担当", "状態",
           "期限", "予約番号", "見積", "媒体", "メモ", "予約金"]  # fmt: skip


def ledger(url: str) -> None:
    """A 1st and its 2nd on 鳳凰の間, a package (chapel + 桜の間) confirmed, one released."""
    assert hold(url, "--guests", "80", "--contact", "03-1234-5678", "--note", "和装",
                "--estimate", "3500000", "--source", "fair")[0] == 0  # fmt: skip
    assert hold(url, "--customer", "佐藤様", "--salesperson", "U0SALES002")[0] == 0
    code, _ = run(url, "hold", "request", "--room", "sakura", "--date", "2027-05-11",
                  "--start", "12:30", "--end", "15:30", "--also", "chapel,11:00,12:00",
                  "--kind", "wedding", "--customer", "鈴木様", "--salesperson", "U0SALES001",
                  "--now", NOW)  # fmt: skip
    assert code == 0
    assert run(url, "hold", "confirm", "3", "--actor", "U0SALES001", "--now", NOW)[0] == 0
    code, _ = run(url, "hold", "request", "--room", "kiku", "--date", "2027-05-13", "--start",
                  "18:00", "--end", "01:00", "--kind", "banquet", "--customer", "高橋様",
                  "--salesperson", "U0SALES002", "--now", NOW)  # fmt: skip
    assert code == 0
    assert run(url, "hold", "release", "4", "--actor", "U0SALES002", "--now", NOW)[0] == 0


def expected_rows(url: str) -> list[tuple[Any, ...]]:
    """What `osae hold list --json` says, one row per room, as the layout has it."""
    code, listed = run(url, "hold", "list", "--all")
    assert code == 0
    rows = []
    for h in listed["holds"]:
        if h["status"] not in ("tentative", "confirmed"):
            continue
        state = "本予約" if h["status"] == "confirmed" else f"{h['rank']}番手"
        deadline = (
            datetime.fromisoformat(h["expires_at"]).astimezone(TOKYO).replace(tzinfo=None)
            if h["expires_at"]
            else None
        )
        for item in h["items"]:
            start = datetime.fromisoformat(item["start_at"]).astimezone(TOKYO)
            end = datetime.fromisoformat(item["end_at"]).astimezone(TOKYO)
            rows.append((date.fromisoformat(h["local_date"]), item["room_name"], start.time(),
                         end.time(), h["customer"], h["guests"], h["salesperson"], state,
                         deadline, f"B-{h['enquiry_id']:04d}", h["note"] or None))  # fmt: skip
    return sorted(rows, key=lambda r: (r[0], r[2]))


def test_the_xlsx_read_back_is_the_hold_list(loaded: str, tmp_path: Path) -> None:
    ledger(loaded)
    out = tmp_path / "ledger.xlsx"
    code, answer = run(loaded, "export", "--from", "2027-05-01", "--to", "2027-05-31",
                       "--format", "xlsx", "--out", str(out))  # fmt: skip
    assert code == 0 and answer["ok"], answer
    assert (answer["rows"], answer["holds"], answer["format"]) == (4, 3, "xlsx")
    assert answer["bytes"] == out.stat().st_size
    book = openpyxl.load_workbook(out)
    sheet = book.active
    assert sheet.title == "予約台帳"
    assert [c.value for c in sheet[1]] == HEADERS  # no 連絡先 unless asked, by a manager
    assert sheet.freeze_panes == "A2"
    assert sheet.auto_filter.ref == "A1:P5"
    assert sheet.column_dimensions["G"].width >= 8  # お客様 fits its full-width header
    rows = [tuple(c.value for c in row) for row in sheet.iter_rows(min_row=2)]
    # Real Excel dates and times, not text.
    assert isinstance(rows[0][0], datetime) and isinstance(rows[0][3], time)
    got = [(r[0].date(), r[2], r[3], r[4], r[6], r[7], r[8], r[9], r[10], r[11], r[14])
           for r in rows]  # fmt: skip
    assert got == expected_rows(loaded)
    assert rows[0][1] == f"火・{rokuyo(date(2027, 5, 11)).japanese}" and rows[0][5] == "婚礼"
    # 見積 and 媒体: the booking's estimate in yen and its source as the venue names it
    assert [(r[6], r[12], r[13]) for r in rows] == [
        ("鈴木様", None, None),
        ("鈴木様", None, None),
        ("山田様", 3_500_000, "ブライダルフェア"),
        ("佐藤様", None, None),
    ]
    assert "03-1234-5678" not in str(rows)


def test_csv_is_utf8_with_a_bom_and_contacts_only_for_managers(loaded: str, tmp_path: Path) -> None:
    ledger(loaded)
    out = tmp_path / "ledger.csv"
    span = ["--from", "2027-05-01", "--to", "2027-05-31", "--out", str(out)]
    code, refused = run(loaded, "export", *span, "--with-contact", "--actor", "U0SALES001")
    assert (code, refused["code"]) == (2, "forbidden")
    assert "マネージャー" in refused["message"] or "manager" in refused["message"]
    assert not out.exists()  # nothing written
    code, answer = run(loaded, "export", *span, "--with-contact", "--actor", "U0MANAGER1")
    assert code == 0 and answer["format"] == "csv" and answer["with_contact"] is True
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    table = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert table[0] == [*HEADERS, "連絡先"]
    first = next(r for r in table[1:] if r[6] == "山田様")
    weekday = f"水・{rokuyo(date(2027, 5, 12)).japanese}"
    assert first[:5] == ["2027-05-12", weekday, "鳳凰の間", "11:00", "15:00"]
    assert (first[7], first[9], first[10], first[16]) == ("80", "1番手", "2027-03-08 09:00",
                                                          "03-1234-5678")  # fmt: skip


def test_all_adds_the_holds_that_left_with_why(loaded: str, tmp_path: Path) -> None:
    ledger(loaded)
    assert run(loaded, "hold", "cancel", "3", "--actor", "U0MANAGER1", "--reason", "先方の都合",
               "--now", NOW)[0] == 0  # fmt: skip
    out = tmp_path / "all.csv"
    span = ["--from", "2027-05-01", "--to", "2027-05-31", "--out", str(out)]
    code, live = run(loaded, "export", *span)
    assert (code, live["rows"]) == (0, 2)
    code, every = run(loaded, "export", *span, "--all")
    assert (code, every["rows"], every["all"]) == (0, 5, True)
    table = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    states = {(r[2], r[6]): r[9] for r in table[1:]}
    assert states[("チャペル", "鈴木様")] == "取消（先方の都合）"
    assert states[("菊の間", "高橋様")] == "取り下げ"
    kiku = next(r for r in table[1:] if r[2] == "菊の間")
    assert (kiku[3], kiku[4]) == ("18:00", "01:00")  # past midnight: the end is the next day's


def test_bad_ranges_and_files_are_refused_with_what_would_work(loaded: str, tmp_path: Path) -> None:
    code, back = run(loaded, "export", "--from", "2027-05-31", "--to", "2027-05-01",
                     "--out", str(tmp_path / "x.xlsx"))  # fmt: skip
    assert (code, back["code"]) == (2, "bad_range") and "--from" in back["message"]
    code, odd = run(loaded, "export", "--from", "2027-05-01", "--to", "2027-05-31",
                    "--out", str(tmp_path / "x.pdf"))  # fmt: skip
    assert (code, odd["code"]) == (2, "usage") and ".xlsx" in odd["message"]
    code, nowhere = run(loaded, "export", "--from", "2027-05-01", "--to", "2027-05-31",
                        "--out", str(tmp_path / "no" / "such" / "x.csv"))  # fmt: skip
    assert (code, nowhere["code"]) == (3, "cannot_write") and "--out" in nowhere["message"]
