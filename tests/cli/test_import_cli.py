"""`osae import`: a ledger file placed as holds, all or nothing, through the real console
script; an export imported into an empty venue gives the same ledger back."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_cli import NOW, ROOT, loaded, run
from tests.cli.test_export_cli import HEADERS, ledger
from tests.support import databases

__all__ = ["loaded"]  # the fixture, used by name

DAY = "2027-05-12"


@pytest.fixture
def empty(pg_server: str, template_db: str) -> Iterator[str]:
    """A second venue, loaded from the same file, with no hold."""
    name = databases.create_database(pg_server, template=template_db)
    url = databases.with_database(pg_server, name)
    code, _ = run(url, "venue", "load", str(ROOT / "examples" / "venue.toml"))
    assert code == 0
    yield url
    databases.drop_database(pg_server, name)


def the_ledger(url: str) -> list[tuple[Any, ...]]:
    """Every live hold as the ledger has it, whatever its id and booking number (and a
    package's rooms in time order, as the file lists them)."""
    code, listed = run(url, "hold", "list", "--all")
    assert code == 0
    return sorted(
        (h["local_date"], h["status"], h["rank"], h["expires_at"], h["customer"], h["kind_id"],
         h["salesperson"], h["guests"], h["note"], h["contact"], h["estimate"], h["source"],
         tuple(sorted((i["start_at"], i["end_at"], i["room_id"], i["rank"]) for i in h["items"])))
        for h in listed["holds"]
        if h["status"] in ("tentative", "confirmed")
    )  # fmt: skip


def write_csv(path: Path, rows: list[list[str]], encoding: str = "utf-8-sig") -> Path:
    buffer = io.StringIO()
    csv.writer(buffer).writerows([HEADERS, *rows])
    path.write_bytes(buffer.getvalue().encode(encoding))
    return path


def row(room: str, start: str, end: str, customer: str, state: str, booking: str = "",
        day: str = DAY) -> list[str]:  # fmt: skip
    return [day, "", room, start, end, "婚礼", customer, "", "U0SALES001", state, "", booking,
            "", "", "", ""]  # fmt: skip


def test_an_export_imported_into_an_empty_venue_gives_the_same_ledger(
    loaded: str, empty: str, tmp_path: Path
) -> None:
    ledger(loaded)  # a 1st and its 2nd, a confirmed package, a released hold
    out = tmp_path / "ledger.xlsx"
    code, _ = run(loaded, "export", "--from", "2027-05-01", "--to", "2027-05-31", "--all",
                  "--with-contact", "--actor", "U0MANAGER1", "--out", str(out))  # fmt: skip
    assert code == 0
    code, dry = run(empty, "import", str(out), "--dry-run", "--now", NOW)
    assert (code, dry["placed"], dry["dry_run"], dry["rows"], dry["refused"]) == (
        0, False, True, 4, [])  # fmt: skip
    assert the_ledger(empty) == []  # a dry run writes nothing
    code, done = run(empty, "import", str(out), "--now", NOW)
    assert code == 0 and done["placed"], done
    assert (done["rows"], len(done["holds"]), done["confirmed"], done["skipped"]) == (4, 3, 1, 1)
    assert the_ledger(empty) == the_ledger(loaded)


def test_every_row_that_cannot_be_placed_is_named_and_nothing_is_written(
    loaded: str, tmp_path: Path
) -> None:
    rows = [
        row("hoo", "11:00", "15:00", "山田様", "本予約", "B-0001"),  # line 2: confirmed
        row("鳳凰A", "12:00", "14:00", "佐藤様", "1番手"),  # 3: in the way of a confirmed one
        row("大広間", "11:00", "15:00", "鈴木様", "1番手"),  # 4: no such room
        row("sakura", "25:00", "26:00", "高橋様", "仮"),  # 5: not a time
        row("kiku", "11:00", "15:00", "伊藤様", "1番手"),  # 6
        row("kiku", "11:00", "15:00", "渡辺様", "2番手"),  # 7
        row("kiku", "11:00", "15:00", "中村様", "2番手"),  # 8: would be a 3rd
        row("kiku", "16:00", "18:00", "小林様", "保留"),  # 9: what state is that?
    ]
    path = write_csv(tmp_path / "ledger.csv", rows)
    code, answer = run(loaded, "import", str(path), "--now", NOW)
    assert (code, answer["ok"], answer["placed"], answer["code"]) == (1, False, False, "not_placed")
    why = {r["line"]: (r["code"], r["message"]) for r in answer["refused"]}
    assert sorted(why) == [3, 4, 5, 8, 9]
    assert why[3][0] == "confirmed_conflict"
    assert why[4][0] == "unknown_room" and "大広間" in why[4][1] and "鳳凰の間" in why[4][1]
    assert why[5][0] == "bad_time" and "25:00" in why[5][1]
    assert why[8][0] == "rank_too_low"
    assert why[9][0] == "bad_state" and "保留" in why[9][1]
    code, listed = run(loaded, "hold", "list")
    assert listed["holds"] == []  # all or nothing
    environ = {"LANG": "ja_JP.UTF-8"}
    code, ja = run(loaded, "import", str(path), "--now", NOW, env=environ)
    assert "何も書き込んでいません" in ja["message"]
    assert (
        "部屋「大広間」はこの会場にありません"
        in {r["line"]: r["message"] for r in ja["refused"]}[4]
    )


def test_bad_files_are_told_what_would_work_and_write_nothing(loaded: str, tmp_path: Path) -> None:
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(b"PK\x03\x04 this is not a workbook")
    code, answer = run(loaded, "import", str(broken))
    assert (code, answer["code"]) == (2, "not_xlsx") and "CSV" in answer["message"]
    sjis = write_csv(tmp_path / "sjis.csv", [row("hoo", "11:00", "15:00", "山田様", "1番手")],
                     encoding="shift_jis")  # fmt: skip
    code, answer = run(loaded, "import", str(sjis), env={"LANG": "ja_JP.UTF-8"})
    assert (code, answer["code"]) == (2, "not_utf8")
    assert "Shift_JIS" in answer["message"] and "CSV UTF-8" in answer["message"]
    odd = tmp_path / "ledger.txt"
    odd.write_text("x")
    assert run(loaded, "import", str(odd))[1]["code"] == "usage"
    headless = tmp_path / "other.csv"
    headless.write_text("Date,Room\n2027-05-12,hoo\n", encoding="utf-8")
    code, answer = run(loaded, "import", str(headless))
    assert (code, answer["code"]) == (2, "missing_columns") and "--columns" in answer["message"]
    code, listed = run(loaded, "hold", "list")
    assert listed["holds"] == []


def test_other_headers_are_mapped_with_columns(loaded: str, tmp_path: Path) -> None:
    path = tmp_path / "theirs.csv"
    path.write_text(
        "Date,Room,From,To,Kind,Guest,Staff,State\n"
        "2027/5/12,鳳凰の間,11:00,15:00,婚礼,山田様,U0SALES001,仮\n",
        encoding="utf-8",
    )
    mapping = "日付=Date,部屋=Room,開始=From,終了=To,種別=Kind,お客様=Guest,担当=Staff,状態=State"
    code, answer = run(loaded, "import", str(path), "--columns", mapping, "--now", NOW)
    assert code == 0 and answer["placed"] and answer["rows"] == 1
    code, listed = run(loaded, "hold", "list")
    assert [(h["customer"], h["rank"]) for h in listed["holds"]] == [("山田様", 1)]
    code, bad = run(loaded, "import", str(path), "--columns", "Datum=Date")
    assert (code, bad["code"]) == (2, "usage") and "日付=Date" in bad["message"]


def test_a_house_hold_exported_comes_back_a_house_hold(
    loaded: str, empty: str, tmp_path: Path
) -> None:
    code, fair = run(loaded, "hold", "request", "--house", "--actor", "U0MANAGER1", "--room",
                     "hoo", "--date", DAY, "--start", "10:00", "--end", "17:00", "--customer",
                     "ブライダルフェア", "--now", NOW)  # fmt: skip
    assert code == 0 and fair["hold"]["house"], fair
    out = tmp_path / "ledger.csv"
    code, _ = run(loaded, "export", "--from", DAY, "--to", DAY, "--format", "csv",
                  "--actor", "U0MANAGER1", "--out", str(out))  # fmt: skip
    assert code == 0 and "社内押さえ" in out.read_text(encoding="utf-8-sig")
    code, done = run(empty, "import", str(out), "--now", NOW)
    assert code == 0 and done["placed"], done
    code, listed = run(empty, "hold", "list", "--all")
    assert [(h["house"], h["rank"], h["expires_at"]) for h in listed["holds"]] == [(True, 1, None)]
    assert the_ledger(empty) == the_ledger(loaded)
