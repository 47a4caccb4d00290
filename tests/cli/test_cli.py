"""`osae` through its real console script: JSON answers, exit codes, URL forms."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import sqlalchemy as sa

from cli.localservices import free_port
from core.db import database_url

ROOT = Path(__file__).parents[2]
OSAE = shutil.which("osae") or str(ROOT / ".venv" / "bin" / "osae")
NOW = "2027-03-01T09:00"


def run(url: str, *args: str, env: dict[str, str] | None = None) -> tuple[int, Any]:
    environ = {**os.environ, "DATABASE_URL": url, "LANG": "C.UTF-8", **(env or {})}
    environ.pop("OSAE_VENUE", None)
    done = subprocess.run(
        [OSAE, *args, "--json"], capture_output=True, text=True, env=environ, cwd=ROOT, check=False
    )
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, f"expected one JSON object, got {done.stdout!r} {done.stderr!r}"
    assert "Traceback" not in done.stderr
    return done.returncode, json.loads(lines[0])


@pytest.fixture
def loaded(fresh_db: str) -> str:
    code, answer = run(fresh_db, "venue", "load", str(ROOT / "examples" / "venue.toml"))
    assert (code, answer["venue"]) == (0, "grand-tokyo")
    return fresh_db


HOLD = ["hold", "request", "--room", "hoo", "--date", "2027-05-12", "--start", "11:00",
        "--end", "15:00", "--kind", "wedding", "--customer", "山田様",
        "--salesperson", "U0SALES001", "--now", NOW]  # fmt: skip


def hold(url: str, *extra: str) -> tuple[int, Any]:
    return run(url, *HOLD, *extra)


def test_a_scenario_from_the_terminal(loaded: str) -> None:
    code, first = hold(loaded)
    assert (code, first["id"], first["rank"]) == (0, 1, 1)
    code, second = hold(loaded)
    assert (code, second["rank"], second["expires_at"]) == (0, 2, None)
    code, third = hold(loaded)
    assert (code, third["code"]) == (1, "rank_too_low")
    assert "2nd" in third["message"] and third["holders"] == [1]
    assert [(w["id"], w["rank"], w["salesperson"]) for w in third["in_way"]] == [
        (1, 1, "U0SALES001"),
        (2, 2, "U0SALES001"),
    ]
    assert third["in_way"][0]["expires_at"] == "2027-03-08T09:00:00+09:00"
    code, done = run(loaded, "hold", "confirm", "1", "--actor", "U0SALES001", "--now", NOW)
    assert (code, done["released"], done["promoted"]) == (0, [2], [])
    code, listing = run(loaded, "hold", "list", "--date", "2027-05-12")
    assert [(h["id"], h["status"]) for h in listing["holds"]] == [(1, "confirmed"), (2, "released")]
    code, shown = run(loaded, "hold", "show", "2")
    assert [e["action"] for e in shown["trail"]] == ["requested", "lost"]


def test_a_managers_cancel_carries_its_reason_to_the_trail_and_the_salesperson(
    loaded: str,
) -> None:
    hold(loaded)
    run(loaded, "hold", "confirm", "1", "--actor", "U0SALES001", "--now", NOW)
    manager = "U0MANAGER1"  # the example venue's manager
    too_long = "x" * 501
    code, refused = run(loaded, "hold", "cancel", "1", "--actor", manager, "--reason", too_long)
    assert (code, refused["code"]) == (2, "usage") and "500" in refused["message"]
    code, done = run(
        loaded,
        "hold",
        "cancel",
        "1",
        "--actor",
        manager,
        "--reason",
        "先方都合で中止",
        "--now",
        NOW,
    )
    assert (code, done["hold"]["status"]) == (0, "cancelled")
    code, shown = run(loaded, "hold", "show", "1")
    assert shown["trail"][-1]["detail"] == {"reason": "先方都合で中止"}
    code, notices = run(loaded, "outbox", "list")
    told = [n for n in notices["notices"] if n["kind"] == "cancelled"]
    assert [(n["recipient"], n["hold_id"]) for n in told] == [("U0SALES001", 1)]


def test_first_answer_has_id_rank_and_deadline(loaded: str) -> None:
    code, first = hold(loaded)
    assert code == 0
    assert (first["id"], first["rank"]) == (1, 1)
    assert first["expires_at"] == "2027-03-08T09:00:00+09:00"


def test_sweep_expires_and_promotes(loaded: str) -> None:
    hold(loaded)
    hold(loaded, "--salesperson", "U0SALES002")
    code, swept = run(loaded, "sweep", "--now", "2027-03-08T09:00")
    assert (code, swept["expired"], swept["promoted"]) == (0, [1], [2])


def test_refusals_and_usage_errors_are_one_json_object_and_exit_nonzero(loaded: str) -> None:
    code, stranger = run(loaded, "hold", "release", "1", "--actor", "U0X", "--now", NOW)
    assert (code, stranger["code"]) == (1, "hold_not_found")
    code, bad_date = run(loaded, "hold", "list", "--date", "2027-02-30")
    assert (code, bad_date["code"]) == (2, "usage")
    assert "2027-02-30" in bad_date["message"]
    code, bad_time = hold(loaded, "--end", "25:00")
    assert (code, bad_time["code"]) == (2, "usage")


def test_japanese_messages_follow_lang(loaded: str) -> None:
    hold(loaded)
    hold(loaded)
    environ = {**os.environ, "DATABASE_URL": loaded, "LANG": "ja_JP.UTF-8"}
    done = subprocess.run(
        [OSAE, *HOLD], capture_output=True, text=True, env=environ, cwd=ROOT, check=False
    )
    assert done.returncode == 1
    assert "3番手になるため受付できません" in done.stderr


def test_database_url_forms(loaded: str) -> None:
    url = database_url(loaded)
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        socket_dir = conn.execute(sa.text("SHOW unix_socket_directories")).scalar_one()
        port = conn.execute(sa.text("SHOW port")).scalar_one()
    engine.dispose()
    socket_dir = socket_dir.split(",")[0].strip()
    forms = [
        f"postgres://{url.username}@{url.host}:{url.port}/{url.database}",
        f"postgresql://{url.username}@{url.host}:{url.port}/{url.database}",
        f"postgresql+psycopg://{url.username}@{url.host}:{url.port}/{url.database}",
        f"postgresql://{url.username}@{quote(socket_dir, safe='')}:{port}/{url.database}",
        f"postgresql:///{url.database}?host={socket_dir}&port={port}&user={url.username}",
    ]
    for form in forms:
        code, answer = run(form, "venue", "show")
        assert (code, answer.get("venue")) == (0, "grand-tokyo"), form


def test_no_database_says_what_to_set(tmp_path: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    environ["OSAE_DATA_DIR"] = str(tmp_path)
    done = subprocess.run(
        [OSAE, "hold", "list", "--json"], capture_output=True, text=True, env=environ, check=False
    )
    answer = json.loads(done.stdout)
    assert (done.returncode, answer["code"]) == (3, "no_database")
    assert "DATABASE_URL" in answer["message"]
    code, unreachable = run("postgresql://postgres@127.0.0.1:1/none", "hold", "list")
    assert (code, unreachable["code"]) == (3, "database_unreachable")


def test_without_database_url_the_local_stack_is_used_or_said_to_be_stopped(
    tmp_path: Path,
) -> None:
    """What a newcomer meets before and after `python3 dev.py run`: how to start it."""
    environ = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    environ.update(OSAE_DATA_DIR=str(tmp_path), OSAE_LAUNCHER="python3 dev.py")

    def hold_list() -> tuple[int, dict[str, Any], str]:
        command = [OSAE, "hold", "list", "--json"]
        done = subprocess.run(command, capture_output=True, text=True, env=environ, check=False)
        return done.returncode, json.loads(done.stdout), done.stderr

    code, never, said = hold_list()
    assert (code, never["code"]) == (3, "no_database") and "Traceback" not in said
    assert "`python3 dev.py run`" in never["message"]
    (tmp_path / "pgport").write_text(str(free_port()))  # a run that has stopped since
    code, stopped, said = hold_list()
    assert (code, stopped["code"]) == (3, "not_running") and "Traceback" not in said
    assert "is not running" in stopped["message"] and "`python3 dev.py run`" in stopped["message"]


def test_a_hold_carries_guests_contact_note_and_a_venue_kind(fresh_db: str, tmp_path: Path) -> None:
    venue_file = tmp_path / "venue.toml"
    example = (ROOT / "examples" / "venue.toml").read_text(encoding="utf-8")
    venue_file.write_text(
        example + '\n[[kinds]]\nid = "nijikai"\nname = "二次会"\nclass = "banquet"\n',
        encoding="utf-8",
    )
    assert run(fresh_db, "venue", "load", str(venue_file))[0] == 0
    code, made = run(
        fresh_db,
        *[a if a != "wedding" else "nijikai" for a in HOLD],
        "--guests", "40", "--contact", "幹事 090-1111-2222", "--note", "持ち込みあり",
    )  # fmt: skip
    assert code == 0, made
    assert made["hold"]["kind"] == "banquet"  # the class, as before kinds
    assert (made["hold"]["kind_id"], made["hold"]["guests"]) == ("nijikai", 40)
    assert made["expires_at"] == "2027-03-04T09:00:00+09:00"  # a banquet's 3 days
    code, shown = run(fresh_db, "hold", "show", str(made["id"]))
    assert code == 0
    assert {k: shown[k] for k in ("kind", "kind_name", "guests", "contact", "note")} == {
        "kind": "nijikai",
        "kind_name": "二次会",
        "guests": 40,
        "contact": "幹事 090-1111-2222",
        "note": "持ち込みあり",
    }
    assert shown["status"] == "tentative" and shown["trail"][0]["action"] == "requested"
    code, wrong = run(fresh_db, *[a if a != "wedding" else "bonenkai" for a in HOLD])
    # exit 2 as a flag naming nothing (issue 25): the kinds closest first, by name and id
    assert (code, wrong["code"], wrong["field"]) == (2, "unknown_kind", "kind")
    assert wrong["kinds"] == ["wedding", "banquet", "nijikai"]
    assert "nijikai" in wrong["message"] and "wedding" in wrong["message"]
    code, bad = run(fresh_db, *HOLD, "--guests", "forty")
    assert (code, bad["code"]) == (2, "usage") and "number of guests" in bad["message"]


def test_a_reader_that_stops_early_gets_no_traceback(loaded: str) -> None:
    """`osae hold request ... | head`: the hold is made, its answer has no reader, and osae
    ends as a piped command does (141), with nothing on stderr."""
    environ = {**os.environ, "DATABASE_URL": loaded, "LANG": "C.UTF-8"}
    piped = subprocess.Popen(
        [OSAE, *HOLD], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environ, cwd=ROOT
    )
    assert piped.stdout is not None and piped.stderr is not None
    piped.stdout.close()  # a reader that reads nothing
    stderr = piped.stderr.read().decode()
    assert (piped.wait(timeout=60), stderr) == (141, "")
    code, second = hold(loaded)
    assert (code, second["rank"]) == (0, 2)  # the piped request's hold was made
