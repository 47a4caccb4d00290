"""The README's terminal section ("The engine from the terminal"), read from README.md itself
and run as written, in Japanese (``OSAE_LANG=ja``), twice on the same database (issue 30,
items 4 and 6): every command succeeds both times, and no line it prints is English.

What a person may read in ASCII in a Japanese terminal (``english``): a line with a Japanese
character passes; a line of ASCII alone passes only when each of its words is a number,
a date or a time (no letter), an id or a code (letters joined by ``_ - . / : = @`` or with a
digit: ``U0SALES001``, ``B-0003``, ``hoo-east``, ``other_venue``, ``week.png``), a flag
(``--json``), an address (``https://…``), or a command line (``osae …``, ``python3 …``).

Changed from the README, and only this: ``python3 dev.py osae`` is this checkout's ``osae``
(``dev.py`` would build a .venv first), and the minute the 1st's deadline waits for
(``sleep 65``) is not waited: the 1st is asked a minute earlier, so its deadline has just
lapsed when the sweep comes.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess

from tests.cli.test_cli import OSAE, ROOT

SECTION = "## The engine from the terminal"
_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.S | re.M)
_JAPANESE = re.compile(r"[^\x00-\x7f]")
_NO_LETTER = re.compile(r"^[^A-Za-z]*$")
_CODE = re.compile(r"^(?=.*[A-Za-z])[A-Za-z0-9]+(?:[_\-./:=@+][A-Za-z0-9]+)+$|^(?=.*\d)\w+$")
_FLAG = re.compile(r"^--?[a-z][a-z-]*(=.*)?$")
_PUNCT = "()[]{}<>,;:!?\"'`|"


def tour() -> str:
    """The section's shell blocks, from its heading to the next heading."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index(SECTION) + len(SECTION) :]
    section = re.split(r"^#{2,3} ", section, maxsplit=1, flags=re.M)[0]
    blocks = _BLOCK.findall(section)
    assert len(blocks) >= 3, "the terminal section's ```sh blocks"
    return "\n".join(blocks)


def runnable(script: str) -> str:
    """The README's commands with this checkout's osae, without the minute's wait."""
    assert "sleep 65" in script and "-7 days +1 minute" in script, "the tour's wait changed"
    script = script.replace("python3 dev.py osae", shlex.quote(OSAE))
    script = script.replace("sleep 65", "true").replace("-7 days +1 minute", "-7 days -1 minute")
    return "set -euo pipefail\n" + script


def english(line: str) -> bool:
    """A printed line a Japanese reader would read as English (the module's docstring)."""
    if _JAPANESE.search(line) or not line.strip():
        return False
    words = line.split()
    if words[0] in ("osae", "python3", "$"):  # a command line, to copy
        return False
    return not all(_allowed(word) for word in words)


def _allowed(word: str) -> bool:
    if word.startswith(("http://", "https://", "webcal://")) or _FLAG.match(word):
        return True
    bare = word.strip(_PUNCT).removeprefix("#")
    return bool(_NO_LETTER.match(bare) or _CODE.match(bare))


def test_the_words_of_the_check() -> None:
    """What ``english`` lets through and what it names."""
    assert not english("#2 鳳凰の間 2027/2/6(土・大安) 11:00〜15:00 佐藤様（婚礼）")
    assert not english("  12:00  U0SALES001  B-0003  hoo-east  other_venue  week.png  #3  40")
    assert not english("https://example.com/feed/abc.ics")
    assert english("schema revision: 0013_nudged_at")
    assert english("expired [1], promoted [2]")
    assert english("osae: the database has no osae tables; run `osae db upgrade`")
    assert english("  released: #2")
    assert not english("osae hold confirm 2 --actor U0SALES002")


def test_the_readme_tour_runs_twice_in_japanese(fresh_db: str) -> None:
    environ = {**os.environ, "DATABASE_URL": fresh_db, "OSAE_LANG": "ja", "LANG": "C.UTF-8"}
    for name in ("OSAE_VENUE", "REDIS_URL", "SLACK_BOT_TOKEN"):
        environ.pop(name, None)
    script = runnable(tour())
    for run in ("a new database", "the same database again"):
        done = subprocess.run(
            ["bash", "-c", script],
            capture_output=True,
            text=True,
            env=environ,
            cwd=ROOT,
            check=False,
            timeout=600,
        )
        printed = done.stdout + done.stderr
        assert done.returncode == 0, f"on {run}, the tour stopped:\n{printed}"
        assert "Traceback" not in printed
        said = [line for line in printed.splitlines() if english(line)]
        assert not said, f"on {run}, lines in English:\n" + "\n".join(said)
