"""dev.py's bootstrap on machines like a fresh Debian: no ensurepip, a half-made .venv, an
index that lists relative file URLs, a download that fails."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import dev
from cli import localservices

REPO = Path(__file__).resolve().parents[1]
# What a Debian or Ubuntu Python without python3-venv does: `import ensurepip` fails.
NO_ENSUREPIP = "import sys; sys.modules['ensurepip'] = None\n"
# And what Debian's venv does when ensurepip is there but cannot run: a page, then exit 1.
DEBIAN_VENV = """
import sys, types, venv
sys.modules.setdefault("ensurepip", types.ModuleType("ensurepip"))  # importable, whatever this is
def _setup_pip(self, context):
    print("The virtual environment was not created successfully because ensurepip is not")
    print("available.  On Debian/Ubuntu systems, you need to install the python3-venv")
    sys.exit(1)
venv.EnvBuilder._setup_pip = _setup_pip
"""


def bootstrap(venv: Path, prelude: str, env: dict[str, str] | None = None) -> str:
    """``dev.make_venv(venv)`` in a fresh interpreter after ``prelude``; its output."""
    script = prelude + textwrap.dedent(f"""
        sys.path.insert(0, {str(REPO)!r})
        import dev
        from pathlib import Path
        try:
            dev.make_venv(Path({str(venv)!r}))
        except dev.SetupError as err:
            print("SetupError:", err)
    """)
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
        check=False,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout


@pytest.fixture
def venv(tmp_path: Path) -> Iterator[Path]:
    """Where a test makes its venv; removed after (34 MB each: pytest keeps three runs)."""
    yield tmp_path / ".venv"
    shutil.rmtree(tmp_path / ".venv", ignore_errors=True)


def pip_works(venv: Path) -> bool:
    probe = [str(venv / "bin" / "python"), "-m", "pip", "--version"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


def test_without_ensurepip_pip_comes_from_the_index(venv: Path) -> None:
    said = bootstrap(venv, NO_ENSUREPIP)
    assert pip_works(venv), said
    assert "SetupError" not in said


def test_relative_file_urls_of_the_index_are_resolved() -> None:
    index = "https://pypi.example/pypi/pip/json"
    relative = "../../packages/packages/07/25/pip-26.3-py3-none-any.whl"
    assert dev.wheel_url(index, relative) == (
        "https://pypi.example/packages/packages/07/25/pip-26.3-py3-none-any.whl"
    )
    absolute = "https://files.example/packages/pip-26.3-py3-none-any.whl"
    assert dev.wheel_url(index, absolute) == absolute


def test_a_half_made_venv_and_a_debian_venv_that_gives_up(venv: Path) -> None:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    assert not pip_works(venv)  # what a setup stopped half-way leaves

    said = bootstrap(venv, DEBIAN_VENV)

    assert pip_works(venv), said
    assert "incomplete" in said and "ensurepip did not work" in said
    assert "python3-venv package" not in said, "Debian's page is not shown"


def test_a_venv_whose_python_is_gone_is_made_again(venv: Path) -> None:
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to("/nonexistent/python3.11")  # Python upgraded away

    said = bootstrap(venv, NO_ENSUREPIP)

    assert pip_works(venv) and "incomplete" in said, said


def test_a_failed_download_says_why_and_leaves_no_venv(tmp_path: Path) -> None:
    """The whole command, as a newcomer runs it: one line, exit 1, nothing half-made."""
    for name in ("dev.py", "pyproject.toml", "constraints.txt"):
        shutil.copy(REPO / name, tmp_path / name)
    closed = f"http://127.0.0.1:{localservices.free_port()}/pypi/pip/json"
    run_dev = NO_ENSUREPIP + (
        f"sys.argv = ['dev.py', 'setup']; import runpy; "
        f"runpy.run_path({str(tmp_path / 'dev.py')!r}, run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", run_dev],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "OSAE_PIP_JSON": closed},
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"dev.py: cannot download {closed}") and "run again" in line
    assert "first run" in done.stdout
    assert not (tmp_path / ".venv").exists()
