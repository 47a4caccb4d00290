"""argparse's own words (``usage:``, ``error:``, "the following arguments are required", the
help's headings) in the terminal's language, through gettext, where argparse asks for them.

argparse words every message with ``gettext.gettext``/``ngettext``, in gettext's current
domain (``messages`` unless someone changed it). ``speaking(language)`` binds that domain to
osae's catalog (``cli/locale/ja/LC_MESSAGES/messages.mo``, compiled by Babel from the ``.po``
beside it) and names the language in ``LANGUAGE``, gettext's first choice, while the parser is
built, parses and prints its help: ``ja`` finds the Japanese catalog; ``en`` finds none and
argparse says its own English. Both are put back afterwards, so no process osae starts (a
PostgreSQL, a worker) inherits them.

After editing the ``.po``: ``python -m cli.argparse_words`` writes the ``.mo`` again (a test
fails until it matches).
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).with_name("locale")
PO = LOCALE_DIR / "ja" / "LC_MESSAGES" / "messages.po"
MO = PO.with_suffix(".mo")


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """argparse's messages in ``language`` (``ja`` or ``en``) inside the block."""
    domain = gettext.textdomain()  # argparse's: it calls gettext.gettext, not dgettext
    bound = gettext.bindtextdomain(domain)
    chosen = os.environ.get("LANGUAGE")
    gettext.bindtextdomain(domain, str(LOCALE_DIR))
    os.environ["LANGUAGE"] = language
    try:
        yield
    finally:
        gettext.bindtextdomain(domain, bound)
        if chosen is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = chosen


def compiled() -> bytes:
    """The ``.mo`` the ``.po`` makes, by Babel."""
    with PO.open("rb") as source:
        catalog = read_po(source, locale="ja")
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def build() -> None:
    MO.write_bytes(compiled())


if __name__ == "__main__":
    build()
