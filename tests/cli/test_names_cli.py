"""People by name in the terminal (issue 25, item 6): the venue file's [[staff]] names them,
hold JSON adds `salesperson_name`, and no line the terminal prints carries Slack markup."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.cli.test_cli import HOLD, NOW, OSAE, ROOT, run

# one more person beside the example venue's own [[staff]] (田中 is U0SALES001 there)
STAFF = """
[[staff]]
id = "U0SALES009"
name = "中村"
"""


def terminal(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "DATABASE_URL": url, "LANG": "ja_JP.UTF-8"}
    environ.pop("OSAE_VENUE", None)
    return subprocess.run(
        [OSAE, *args], capture_output=True, text=True, env=environ, cwd=ROOT, check=False
    )


def test_the_staff_table_names_people_in_json_and_in_every_line(
    fresh_db: str, tmp_path: Path
) -> None:
    venue = tmp_path / "venue.toml"
    venue.write_text((ROOT / "examples" / "venue.toml").read_text() + STAFF, encoding="utf-8")
    assert run(fresh_db, "venue", "load", str(venue))[0] == 0
    code, first = run(fresh_db, *HOLD)
    assert code == 0
    assert first["hold"]["salesperson_name"] == "田中"
    code, named = run(fresh_db, *HOLD, "--salesperson", "U0SALES009", "--customer", "佐藤様")
    assert named["hold"]["salesperson_name"] == "中村"
    code, other = run(
        fresh_db, *HOLD, "--salesperson", "U0SALES003", "--customer", "森様", "--date", "2027-05-13"
    )
    assert other["hold"]["salesperson_name"] == "U0SALES003"  # nobody named them: the id

    refused = terminal(fresh_db, "hold", "release", "1", "--actor", "U0STRANGER", "--now", NOW)
    assert refused.returncode == 1
    assert "田中" in refused.stdout + refused.stderr
    assert "<@" not in refused.stdout + refused.stderr
    shown = terminal(fresh_db, "hold", "show", "1")
    assert shown.returncode == 0 and "<@" not in shown.stdout and "*" not in shown.stdout


def test_an_unknown_key_of_the_staff_table_is_refused_naming_the_close_one(
    fresh_db: str, tmp_path: Path
) -> None:
    venue = tmp_path / "venue.toml"
    bad = STAFF.replace("name =", "nmae =")
    venue.write_text((ROOT / "examples" / "venue.toml").read_text() + bad, encoding="utf-8")
    code, answer = run(fresh_db, "venue", "load", str(venue))
    assert code != 0 and "nmae" in answer["message"] and "name" in answer["message"]
