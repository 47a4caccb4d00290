#!/usr/bin/env python3
"""Set up osae in ./.venv and run it or its tests; needs only Python >= 3.11.

python3 dev.py run [ARGS]    # osae serve: web + worker + clock (own PostgreSQL/Redis if none)
python3 dev.py test [ARGS]   # ruff, mypy and the whole pytest suite (ARGS go to pytest)
python3 dev.py bench NAME    # a benchmark from bench/ (hot_slot, scale, ...)
python3 dev.py osae ARGS     # any osae command inside the venv
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / "bin"
STAMP = VENV / ".osae-installed"
INPUTS = ("pyproject.toml", "constraints.txt")


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):
        sys.exit("osae needs Python 3.11 or newer")
    if not argv or argv[0] not in {"run", "test", "bench", "osae", "setup"}:
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    ensure_installed()
    if command == "setup":
        return 0
    if command == "run":
        return run([str(BIN / "osae"), "serve", *rest])
    if command == "osae":
        return run([str(BIN / "osae"), *rest])
    if command == "bench":
        return run(
            [str(BIN / "python"), "-m", f"bench.{rest[0]}", *rest[1:]] if rest else ["false"]
        )
    return test(rest)


def test(pytest_args: list[str]) -> int:
    """Style, types, then the suite; stop at the first that fails."""
    steps = [
        [str(BIN / "ruff"), "check", "."],
        [str(BIN / "ruff"), "format", "--check", "."],
        [str(BIN / "mypy")],
        [str(BIN / "python"), "-m", "pytest", *pytest_args],
    ]
    for step in steps:
        print("+", " ".join(Path(step[0]).name if i == 0 else a for i, a in enumerate(step)))
        code = run(step)
        if code != 0:
            return code
    return 0


def run(cmd: list[str]) -> int:
    env = dict(os.environ, VIRTUAL_ENV=str(VENV), PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}")
    return subprocess.call(cmd, cwd=ROOT, env=env)  # noqa: S603 - our own venv's tools


def ensure_installed() -> None:
    """Create the venv and install osae with its dev and local extras, once per input change."""
    digest = hashlib.sha256(b"".join((ROOT / n).read_bytes() for n in INPUTS)).hexdigest()
    if STAMP.exists() and STAMP.read_text() == digest:
        return
    if not (BIN / "python").exists():
        create_venv()
    pip = [str(BIN / "python"), "-m", "pip", "--disable-pip-version-check", "-q"]
    check(
        [*pip, "install", "-c", str(ROOT / "constraints.txt"), "-e", f"{ROOT}[dev,local]"],
        "installing osae and its dependencies",
    )
    STAMP.write_text(digest)


def create_venv() -> None:
    """A venv with pip; Debian without python3-venv has no ensurepip, so fetch pip from PyPI."""
    print("creating .venv ...")
    try:
        venv.EnvBuilder(with_pip=True).create(VENV)
    except (subprocess.CalledProcessError, OSError) as err:
        print(f"ensurepip unavailable ({err}); fetching pip from PyPI instead")
    else:
        return
    venv.EnvBuilder(with_pip=False, clear=True).create(VENV)
    with urllib.request.urlopen("https://pypi.org/pypi/pip/json", timeout=60) as resp:
        files = json.load(resp)["urls"]
    wheel = next(f for f in files if f["filename"].endswith(".whl"))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / wheel["filename"]
        urllib.request.urlretrieve(wheel["url"], path)  # noqa: S310 - PyPI over https
        check([str(BIN / "python"), f"{path}/pip", "install", "-q", str(path)], "bootstrapping pip")


def check(cmd: list[str], what: str) -> None:
    if subprocess.call(cmd, cwd=ROOT) != 0:  # noqa: S603
        sys.exit(f"failed while {what}: {' '.join(cmd)}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
