#!/usr/bin/env python3
"""Set up osae in ./.venv and run it or its tests; needs only Python >= 3.11.

python3 dev.py run [ARGS]    # osae serve: web + worker + clock, own PostgreSQL/Redis; Ctrl-C stops
python3 dev.py test [ARGS]   # ruff, mypy and the whole pytest suite (ARGS go to pytest)
python3 dev.py osae ARGS     # any osae command inside the venv, e.g. `osae hold list`
python3 dev.py bench NAME    # a benchmark from bench/ (hot_slot, scale, ...)
python3 dev.py setup         # only set up .venv
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path
from typing import NoReturn
from urllib.parse import urljoin

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP_NAME = ".osae-installed"
INPUTS = ("pyproject.toml", "constraints.txt")
# PyPI's JSON for pip (OSAE_PIP_JSON: a mirror's); its file URLs may be relative to it.
PIP_JSON = os.environ.get("OSAE_PIP_JSON") or "https://pypi.org/pypi/pip/json"
LAUNCHER = "python3 dev.py"  # how osae's messages name their commands when started from here


class SetupError(Exception):
    """Setting up .venv failed; the message says why and what to do, in one sentence."""


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):
        sys.exit(f"osae needs Python 3.11 or newer (this is {sys.version.split()[0]})")
    if not argv or argv[0] not in {"run", "test", "bench", "osae", "setup"}:
        print(__doc__)
        return 2
    if argv[0] == "bench" and len(argv) < 2:
        print("usage: python3 dev.py bench NAME [ARGS] (a module of bench/)", file=sys.stderr)
        return 2
    try:
        ensure_installed(VENV)
    except SetupError as err:
        print(f"dev.py: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ndev.py: setup interrupted; run the same command again to finish it")
        return 130
    return dispatch(argv[0], argv[1:])


def dispatch(command: str, rest: list[str]) -> int:
    if command == "setup":
        return 0
    if command == "test":
        return test(rest)
    bins = bin_dir(VENV)
    if command == "bench":
        os.chdir(ROOT)
        replace_with([str(bins / "python"), "-m", f"bench.{rest[0]}", *rest[1:]])
    replace_with([str(bins / "osae"), *(["serve"] if command == "run" else []), *rest])


# -- running inside the venv -------------------------------------------------------------------
def venv_env() -> dict[str, str]:
    env = dict(os.environ, VIRTUAL_ENV=str(VENV), OSAE_LAUNCHER=LAUNCHER)
    env["PATH"] = f"{bin_dir(VENV)}{os.pathsep}{env.get('PATH', '')}"
    env.setdefault("OSAE_DATA_DIR", str(ROOT / ".data"))  # the CLI finds `run`'s stack anywhere
    return env


def replace_with(cmd: list[str]) -> NoReturn:
    """Become ``cmd`` (exec): Ctrl-C and SIGTERM then reach osae itself, which stops cleanly."""
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(cmd[0], cmd, venv_env())  # noqa: S606 - our own venv's tools


def test(pytest_args: list[str]) -> int:
    """Style, types, then the suite; stop at the first that fails."""
    bins = bin_dir(VENV)
    steps = [
        [str(bins / "ruff"), "check", "."],
        [str(bins / "ruff"), "format", "--check", "."],
        [str(bins / "mypy")],
        [str(bins / "python"), "-m", "pytest", *pytest_args],
    ]
    for step in steps:
        print("+", " ".join(Path(step[0]).name if i == 0 else a for i, a in enumerate(step)))
        code = call(step)
        if code != 0:
            return code
    return 0


def call(cmd: list[str]) -> int:
    """Run a step and wait for it. Ctrl-C reaches the step from the terminal (same process
    group), so it is not passed on again; SIGTERM sent to dev.py is."""
    proc = subprocess.Popen(cmd, cwd=ROOT, env=venv_env())  # noqa: S603 - our venv's tools
    previous = {
        signal.SIGINT: signal.signal(signal.SIGINT, signal.SIG_IGN),
        signal.SIGTERM: signal.signal(signal.SIGTERM, lambda n, f: proc.send_signal(n)),
    }
    try:
        return proc.wait()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


# -- setting up .venv --------------------------------------------------------------------------
def bin_dir(venv: Path) -> Path:
    return venv / "bin"


def ensure_installed(venv: Path) -> None:
    """A venv with pip and osae installed with its dev and local extras, once per input change."""
    digest = hashlib.sha256(b"".join((ROOT / n).read_bytes() for n in INPUTS)).hexdigest()
    stamp = venv / STAMP_NAME
    python = bin_dir(venv) / "python"
    if python.exists() and stamp.exists() and stamp.read_text() == digest:
        return
    if not venv.exists():
        say("first run: creating .venv, installing osae and its dependencies (about a minute)")
    else:
        say("updating .venv (pyproject.toml or constraints.txt changed, or setup did not finish)")
    make_venv(venv)
    stamp.unlink(missing_ok=True)
    pip = [str(python), "-m", "pip", "--disable-pip-version-check", "-q"]
    install = [*pip, "install", "-c", str(ROOT / "constraints.txt"), "-e", f"{ROOT}[dev,local]"]
    quiet = dict(os.environ, PYTHONWARNINGS="ignore")  # setuptools' page about editable installs
    if subprocess.call(install, cwd=ROOT, env=quiet) != 0:  # noqa: S603 - the venv's own pip
        raise SetupError(
            "installing osae's dependencies failed (pip's messages are above); check that "
            "this machine reaches pypi.org, then run the same command again"
        )
    stamp.write_text(digest)


def make_venv(venv: Path) -> None:
    """Create ``venv`` with a working pip, or keep it if it has one; a half-made venv (no pip,
    or a Python that no longer runs) is made again. Nothing half-made is left on failure."""
    if venv.exists() or venv.is_symlink():
        if has_pip(venv):
            return
        say(f"{venv.name} is incomplete (an earlier setup stopped half-way): making it again")
        remove(venv)
    try:
        create_venv(venv)
        verify_pip(venv)
    except BaseException:
        remove(venv)
        raise


def verify_pip(venv: Path) -> None:
    if not has_pip(venv):
        raise SetupError(
            f"the new {venv.name} has no working pip; install python3-venv "
            "(apt install python3-venv) and run the same command again"
        )


def has_pip(venv: Path) -> bool:
    python = bin_dir(venv) / "python"
    if not python.exists():  # also a symlink to a Python that was removed
        return False
    probe = [str(python), "-m", "pip", "--version"]
    return subprocess.call(probe, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0  # noqa: S603


def create_venv(venv: Path) -> None:
    """With ensurepip when it works; Debian and Ubuntu ship it only in python3-venv, so
    otherwise a venv without pip, then pip's own wheel from PyPI."""
    try:
        import venv as venv_module  # noqa: PLC0415 - only needed when (re)creating
    except ImportError:
        raise SetupError(
            "this Python has no venv module; install it (apt install python3-venv) and run "
            "the same command again"
        ) from None
    if ensurepip_available():
        quiet = io.StringIO()  # Debian's venv prints a page about apt before it gives up
        try:
            with contextlib.redirect_stdout(quiet):
                venv_module.EnvBuilder(with_pip=True, clear=True).create(venv)
        except (SystemExit, subprocess.CalledProcessError, OSError) as err:
            say(f"ensurepip did not work ({type(err).__name__}); fetching pip from PyPI instead")
        else:
            return
    venv_module.EnvBuilder(with_pip=False, clear=True).create(venv)
    install_pip(bin_dir(venv) / "python")


def ensurepip_available() -> bool:
    try:
        import ensurepip  # noqa: F401, PLC0415 - only whether it is there
    except ImportError:
        return False
    return True


def install_pip(python: Path) -> None:
    """Download pip's wheel as the index lists it (checking its sha256) and let it install
    itself into ``python``'s environment."""
    meta = json.loads(fetch(PIP_JSON))
    wheel = next(f for f in meta["urls"] if f["filename"].endswith(".whl"))
    data = fetch(wheel_url(PIP_JSON, wheel["url"]))
    expected = wheel.get("digests", {}).get("sha256")
    if expected and hashlib.sha256(data).hexdigest() != expected:
        raise SetupError(
            f"the downloaded {wheel['filename']} does not match its sha256 from the index; "
            "run the same command again (a proxy may have changed it)"
        )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / wheel["filename"]
        path.write_bytes(data)
        install = [str(python), f"{path}/pip", "install", "-q", "--no-index", str(path)]
        if subprocess.call(install, stdout=subprocess.DEVNULL) != 0:  # noqa: S603 - pip's wheel
            raise SetupError("pip's wheel did not install itself; run the same command again")


def wheel_url(index_json: str, url: str) -> str:
    """The file's absolute URL: an index may list it relative to the JSON's own address."""
    return urljoin(index_json, url)


def fetch(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:  # noqa: S310 - https from constants
            body: bytes = answer.read()
    except urllib.error.URLError as err:
        reason = err.reason
        if isinstance(reason, ssl.SSLCertVerificationError):
            raise SetupError(
                f"cannot verify the certificate of {url} ({reason.verify_message}); install the "
                "CA certificates (apt install ca-certificates) and run the same command again"
            ) from None
        raise SetupError(
            f"cannot download {url} ({reason}); check this machine's internet access (or set "
            "https_proxy), or install python3-venv (apt install python3-venv), then run again"
        ) from None
    except (TimeoutError, OSError) as err:
        raise SetupError(
            f"cannot download {url} ({err}); check this machine's internet access and run again"
        ) from None
    return body


def remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    else:
        shutil.rmtree(path, ignore_errors=True)


def say(line: str) -> None:
    print(f"dev.py: {line}", flush=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
