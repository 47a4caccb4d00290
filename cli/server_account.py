"""Who runs our own PostgreSQL, and where it can reach its binaries and its data.

PostgreSQL refuses to run as root. Run by a normal user, it runs as that user, with its
binaries and data where they are. Run by root, it runs as a system account of its own
(``osae-postgres``, created on first use, like Debian's ``postgres``), and what that account
cannot reach (a clone in /root, whose venv holds the binaries and whose ./.data the data) is
placed under ``/var/lib/osae-local`` instead: the binaries as hard links (a copy across file
systems), the data folder with a symlink to it from where it was asked for.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pwd
import shutil
import stat
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

ACCOUNT = "osae-postgres"
FALLBACK_ACCOUNT = "nobody"  # where useradd is missing (busybox images)
HOME = Path("/var/lib/osae-local")
PUBLIC = 0o755  # root's folders the account passes through: only the servers' own are private


class AccountError(RuntimeError):
    """The account could not be made, or a place for it could not be prepared."""


@dataclass(frozen=True)
class Account:
    name: str
    uid: int
    gid: int

    def owns(self, path: Path) -> None:
        os.chown(path, self.uid, self.gid)

    def can_reach(self, path: Path) -> bool:
        """Whether every folder above ``path`` lets this account through (``x``)."""
        groups = set(os.getgrouplist(self.name, self.gid))
        for folder in path.parents:
            info = folder.stat()
            if info.st_uid == self.uid:
                bit = stat.S_IXUSR
            elif info.st_gid in groups:
                bit = stat.S_IXGRP
            else:
                bit = stat.S_IXOTH
            if not info.st_mode & bit:
                return False
        return True


def server_account() -> Account | None:
    """None when we are not root (the server runs as us); else the account, made if new."""
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam(ACCOUNT)
    except KeyError:
        entry = _create()
    return Account(entry.pw_name, entry.pw_uid, entry.pw_gid)


def reachable_install(bindir: Path, account: Account | None) -> Path:
    """``bindir``, or the same PostgreSQL installation linked where ``account`` reaches it
    (its share/ and lib/ come along: the binaries find them relative to themselves)."""
    if account is None or account.can_reach(bindir / "initdb"):
        return bindir
    install = bindir.parent
    server = (bindir / "postgres").stat()
    key = _key(f"{install}:{server.st_size}:{server.st_mtime_ns}")
    target = HOME / "postgres" / key
    if not (target / "bin" / "postgres").exists():
        _public_folder(target.parent)
        staging = Path(tempfile.mkdtemp(prefix=".copy-", dir=target.parent))
        try:
            shutil.copytree(install, staging / "install", symlinks=True, copy_function=_link)
            os.chmod(staging / "install", PUBLIC)
            with contextlib.suppress(OSError):  # another process got there first: theirs is fine
                (staging / "install").rename(target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return target / "bin"


def cluster_home(data_dir: Path, account: Account | None) -> Path:
    """Where the cluster (pgdata, socket, log) lives: ``data_dir`` when the server's account
    can reach it, else a folder of its own under HOME that ``data_dir/pgdata`` links to."""
    if account is None:
        return data_dir
    if account.can_reach(data_dir):
        account.owns(data_dir)
        return data_dir
    home = HOME / "clusters" / _key(str(data_dir))
    _public_folder(home.parent)
    home.mkdir(exist_ok=True)
    account.owns(home)
    link = data_dir / "pgdata"
    if not link.is_symlink():
        if link.exists():
            raise AccountError(
                f"{link} was made by an older osae that ran PostgreSQL where {account.name} "
                f"cannot reach it; remove it (rm -r {link}) and start again"
            )
        link.symlink_to(home / "pgdata")
    return home


def adopt(pgdata: Path, account: Account | None) -> None:
    """A cluster made by an earlier osae that ran PostgreSQL as ``nobody``: hand it over,
    files and all, to the account (PostgreSQL insists on owning its data folder)."""
    if account is None or not pgdata.exists() or pgdata.stat().st_uid == account.uid:
        return
    account.owns(pgdata)
    for folder, folders, files in os.walk(pgdata):
        for name in (*folders, *files):
            os.chown(Path(folder) / name, account.uid, account.gid, follow_symlinks=False)


def _create() -> pwd.struct_passwd:
    command = [
        "useradd",
        "--system",
        "--user-group",
        "--no-create-home",
        "--home-dir",
        str(HOME),
        "--shell",
        "/usr/sbin/nologin",
        "--comment",
        "osae's local PostgreSQL",
        ACCOUNT,
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False)  # noqa: S603
    except FileNotFoundError:
        return pwd.getpwnam(FALLBACK_ACCOUNT)
    with contextlib.suppress(KeyError):  # made now, or by a concurrent run (useradd exit 9)
        return pwd.getpwnam(ACCOUNT)
    reason = done.stderr.strip() or f"exit {done.returncode}"
    raise AccountError(
        f"cannot create the system user {ACCOUNT} that runs PostgreSQL as root ({reason}); "
        "run as a normal user, or set DATABASE_URL to a PostgreSQL you run"
    )


def _public_folder(path: Path) -> None:
    """Root's, readable and enterable by anyone: the account must pass through it."""
    path.mkdir(parents=True, exist_ok=True)
    for folder in (path, *[p for p in path.parents if p.is_relative_to(HOME)]):
        os.chmod(folder, PUBLIC)


def _link(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:  # another file system, or links not allowed: a copy does the same
        shutil.copy2(source, target)


def _key(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]
