"""Venue files a venue's setup in Slack starts from (package data, read when asked)."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

TEMPLATES = ("hotel_banquet", "wedding_house")


def template(name: str) -> dict[str, Any]:
    """The template's venue file as a document; KeyError for a name not in ``TEMPLATES``."""
    if name not in TEMPLATES:
        raise KeyError(name)
    raw = resources.files(__package__).joinpath(f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(raw)
