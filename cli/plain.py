"""The terminal never prints Slack markup: a mention ``<@U0TANAKA>`` reads as the person's name
(Slack's as cached, else the venue file's [[staff]], else the id), ``*bold*`` as plain text,
and the entities mrkdwn needs (``&lt;``) as the characters they stand for."""

from __future__ import annotations

import re
from collections.abc import Mapping

_MENTION = re.compile(r"<@([UW][A-Z0-9]{2,40})(?:\|[^<>]*)?>")
_BOLD = re.compile(r"(?<![\w*])\*([^*\n]+)\*(?![\w*])")
_ENTITIES = (("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&"))


def unmark(said: str, names: Mapping[str, str]) -> str:
    said = _MENTION.sub(lambda m: names.get(m.group(1)) or m.group(1), said)
    said = _BOLD.sub(r"\1", said)
    for entity, char in _ENTITIES:
        said = said.replace(entity, char)
    return said
