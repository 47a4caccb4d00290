"""`osae hold deposit` (入金確認) and the deposit fields of hold JSON; `deposit_days` is checked
like every policy key and exported back (docs/rules.md, Deposits)."""

from __future__ import annotations

import csv
import io
import os
import subprocess
from pathlib import Path

from tests.cli.test_cli import NOW, OSAE, ROOT, hold, loaded, run

__all__ = ["loaded"]  # the fixture, shared with test_cli

MANAGER = "U0MANAGER1"  # the example venue's manager


def venue_file(tmp_path: Path, days: str) -> Path:
    example = (ROOT / "examples" / "venue.toml").read_text(encoding="utf-8")
    out = tmp_path / "deposits.toml"
    out.write_text(example.replace("[policy]", f"[policy]\ndeposit_days = {days}", 1), "utf-8")
    return out


def test_a_deposit_recorded_from_the_terminal_once(fresh_db: str, tmp_path: Path) -> None:
    assert run(fresh_db, "venue", "load", str(venue_file(tmp_path, "14")))[0] == 0
    hold(fresh_db)
    code, listed = run(fresh_db, "hold", "show", "1")
    assert code == 0 and listed["hold"]["deposit_due"] is None  # tentative: none due
    run(fresh_db, "hold", "confirm", "1", "--actor", "U0SALES001", "--now", NOW)
    code, shown = run(fresh_db, "hold", "show", "1")
    assert (shown["hold"]["deposit_due"], shown["hold"]["deposit_paid_at"]) == ("2027-03-15", None)
    code, bad = run(fresh_db, "hold", "deposit", "1", "--actor", MANAGER, "--amount", "-5")
    assert (code, bad["code"]) == (2, "usage") and "-5" in bad["message"]
    code, stranger = run(fresh_db, "hold", "deposit", "1", "--actor", "U0SALES009", "--now", NOW)
    assert (code, stranger["code"]) == (1, "not_authorized")
    args = ["hold", "deposit", "1", "--actor", MANAGER, "--amount", "¥100,000", "--now", NOW]
    code, done = run(fresh_db, *args)
    assert code == 0 and (done["id"], done["deposit_amount"]) == (1, 100_000)
    assert done["deposit_due"] == "2027-03-15" and done["deposit_paid_at"].startswith("2027-03-01")
    assert done["hold"]["deposit_paid_by"] == MANAGER
    code, again = run(fresh_db, "hold", "deposit", "1", "--actor", "U0SALES001", "--now", NOW)
    assert (code, again["code"]) == (1, "deposit_already_paid")
    # on … by … (the manager by name: the example venue's [[staff]])
    assert "by 山本" in again["message"] and "1 Mar" in again["message"]
    code, shown = run(fresh_db, "hold", "show", "1")
    assert shown["trail"][-1]["action"] == "deposit_paid"
    environ = {**os.environ, "DATABASE_URL": fresh_db, "LANG": "C.UTF-8"}
    environ.pop("OSAE_VENUE", None)
    said = subprocess.run(
        [OSAE, "hold", "show", "1"], capture_output=True, text=True, env=environ, check=True
    ).stdout
    assert "Deposit: deposit paid (¥100,000) (Mon 1 Mar 9:00 by 山本)" in said


def test_deposit_days_is_checked_and_exported_back(fresh_db: str, tmp_path: Path) -> None:
    code, refused = run(fresh_db, "venue", "load", str(venue_file(tmp_path, "0")))
    assert code != 0 and "deposit_days" in refused["message"]
    assert run(fresh_db, "venue", "load", str(venue_file(tmp_path, "30")))[0] == 0
    code, answer = run(fresh_db, "venue", "export", "grand-tokyo")
    assert code == 0 and "deposit_days = 30" in answer["toml"]


def test_no_deposit_where_the_venue_sets_none(loaded: str) -> None:
    hold(loaded)
    run(loaded, "hold", "confirm", "1", "--actor", "U0SALES001", "--now", NOW)
    code, refused = run(loaded, "hold", "deposit", "1", "--actor", "U0SALES001", "--now", NOW)
    assert (code, refused["code"]) == (1, "no_deposit_due")
    assert "deposit_days" in refused["message"]


def test_the_ledger_export_shows_the_deposit_in_its_own_column(
    fresh_db: str, tmp_path: Path
) -> None:
    assert run(fresh_db, "venue", "load", str(venue_file(tmp_path, "14")))[0] == 0
    hold(fresh_db)
    hold(fresh_db, "--room", "sakura", "--customer", "佐藤様")
    for hold_id in ("1", "2"):
        run(fresh_db, "hold", "confirm", hold_id, "--actor", "U0SALES001", "--now", NOW)
    paid = ["hold", "deposit", "2", "--actor", MANAGER, "--amount", "100000", "--now", NOW]
    assert run(fresh_db, *paid)[0] == 0
    out = tmp_path / "ledger.csv"
    span = ["--from", "2027-05-01", "--to", "2027-05-31"]
    assert run(fresh_db, "export", *span, "--out", str(out))[0] == 0
    table = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    assert table[0][-1] == "予約金"  # appended after メモ
    deposits = {r[6]: r[-1] for r in table[1:]}
    assert deposits == {"山田様": "入金待ち（期日 2027/3/15）", "佐藤様": "入金済（¥100,000）"}
