"""`osae serve`'s parts come back by themselves: its PostgreSQL's postmaster and its Redis
killed with SIGKILL are started again (a line each, in the reader's language) and the stack
serves within 10 s; its database lets no one in without the data folder's password, keeps
fsync on, and a data folder of an older osae is locked down at its next start; the web
listens on 127.0.0.1 only, as the start-up line says."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import psycopg

from cli import localservices
from tests.jobs.processes import OSAE, Child, osae_env
from tests.jobs.test_serve import HEALTHY

BACK_WITHIN = 10.0  # seconds, after any single kill


def health(port: int) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=3) as got:
            return got.status, json.loads(got.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())
    except OSError:
        return 0, {}


def back_after(port: int, since: float) -> float:
    """Seconds from ``since`` until /healthz says 200 with every part ok."""
    while time.monotonic() - since < 3 * BACK_WITHIN:
        if health(port) == (200, HEALTHY):
            return time.monotonic() - since
        time.sleep(0.1)
    raise AssertionError(f"not back in {3 * BACK_WITHIN}s: {health(port)}")


def a_hold(env: dict[str, str], customer: str) -> dict[str, Any]:
    done = subprocess.run(
        [*OSAE, "hold", "request", "--room", "hoo", "--date", "2027-09-01", "--start", "11:00",
         "--end", "12:00", "--kind", "wedding", "--customer", customer,
         "--salesperson", "U0SALES001", "--json"],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    parsed: dict[str, Any] = json.loads(done.stdout)
    return parsed


def listening_addresses(port: int) -> set[str]:
    """The local addresses a socket listens on at ``port`` (from /proc/net/tcp)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, hex_port = local.split(":")
        if state == "0A" and int(hex_port, 16) == port:
            found.add(".".join(str(int(address[i : i + 2], 16)) for i in (6, 4, 2, 0)))
    return found


def test_serve_brings_back_a_killed_postgres_and_redis(data_dir: Path, tmp_path: Path) -> None:
    port = localservices.free_port()
    env = osae_env(OSAE_DATA_DIR=str(data_dir), PORT=str(port), LANG="ja_JP.UTF-8")
    serve = Child(["serve"], env, tmp_path / "logs")
    serve.wait_for_output("Ctrl-C", timeout=120)
    said = serve.output()
    assert f"http://127.0.0.1:{port}" in said and "***@127.0.0.1" in said
    assert listening_addresses(port) == {"127.0.0.1"}, "listens where it says"
    assert a_hold(env, "山田様")["rank"] == 1

    redis_pid = int((data_dir / "redis" / "redis.pid").read_text())
    os.kill(redis_pid, signal.SIGKILL)
    killed = time.monotonic()
    serve.wait_for_output("Redis が予期せず止まりました", timeout=BACK_WITHIN)
    serve.wait_for_output("Redis が再び動いています", timeout=BACK_WITHIN)
    took = back_after(port, killed)

    postmaster = int((data_dir / "pgdata" / "postmaster.pid").read_text().split()[0])
    os.kill(postmaster, signal.SIGKILL)
    killed = time.monotonic()
    # Its backends may answer a moment longer: back is once it was started again.
    serve.wait_for_output("PostgreSQL が再び動いています", timeout=BACK_WITHIN)
    took_pg = back_after(port, killed)
    print(f"\nback after a kill: Redis {took:.1f}s, PostgreSQL {took_pg:.1f}s")
    assert took <= BACK_WITHIN and took_pg <= BACK_WITHIN
    assert a_hold(env, "佐藤様")["rank"] == 2, "the first hold is kept, the database serves"

    assert serve.stop(signal.SIGINT) == 0, serve.output()[-2000:]
    assert serve.out.read_text().rstrip().endswith("osae: 止まりました")  # the terminal reads ja
    assert "Traceback" not in serve.output(), "an outage is a line, not a traceback"


def test_only_osae_gets_into_its_database_and_an_older_data_folder_is_locked_down(
    data_dir: Path, tmp_path: Path
) -> None:
    port = localservices.free_port()
    env = osae_env(OSAE_DATA_DIR=str(data_dir), PORT=str(port), LANG="C.UTF-8")
    serve = Child(["serve"], env, tmp_path / "logs")
    serve.wait_for_output("Ctrl-C", timeout=120)
    pg_port = int((data_dir / "pgport").read_text())
    secret_file = data_dir / "pgpassword"
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    secret = secret_file.read_text().strip()
    open_url = f"postgresql://postgres@127.0.0.1:{pg_port}/osae"
    assert not localservices.postgres_answers(open_url), "no way in without the password"
    assert not localservices.postgres_answers(open_url.replace("postgres@", "postgres:x@"))
    with psycopg.connect(f"postgresql://postgres:{secret}@127.0.0.1:{pg_port}/osae") as conn:
        assert conn.execute("SHOW fsync").fetchone() == ("on",)
        assert conn.execute("SELECT count(*) FROM venues").fetchone() == (1,)
    assert serve.stop(signal.SIGINT) == 0

    secret_file.unlink()  # as an osae before the password left its data folder
    again = Child(["serve"], env, tmp_path / "logs")
    again.wait_for_output("Ctrl-C", timeout=120)
    said = again.output()
    assert "open to every local user" in said and "demo venue loaded" not in said
    assert health(port) == (200, HEALTHY)
    assert secret_file.read_text().strip() != secret
    assert not localservices.postgres_answers(open_url)
    assert not localservices.postgres_answers(open_url.replace("postgres@", f"postgres:{secret}@"))
    assert again.stop(signal.SIGINT) == 0


def test_a_part_that_cannot_come_back_stops_serve_with_one_line(
    data_dir: Path, tmp_path: Path
) -> None:
    port = localservices.free_port()
    env = osae_env(OSAE_DATA_DIR=str(data_dir), PORT=str(port), LANG="C.UTF-8")
    serve = Child(["serve"], env, tmp_path / "logs")
    serve.wait_for_output("Ctrl-C", timeout=120)
    pgdata = data_dir / "pgdata"
    postmaster = int((pgdata / "postmaster.pid").read_text().split()[0])
    os.kill(postmaster, signal.SIGKILL)
    pgdata.rename(data_dir / "pgdata.away")  # its files gone: it cannot be started again
    try:
        assert serve.proc.wait(60) == 3, serve.output()[-2000:]
    finally:
        (data_dir / "pgdata.away").rename(pgdata)
    said = serve.out.read_text()
    assert "PostgreSQL stopped unexpectedly and could not be started again" in said
    assert said.rstrip().endswith("osae: stopped")
    assert "Traceback" not in serve.output()
