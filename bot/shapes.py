"""Checks of a value's shape, composed: each takes (value, where) and raises ``Malformed``
naming the field at fault. ``bot.payloads`` builds the shapes of what Slack sends from them."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any


class Malformed(ValueError):
    """A body osae cannot read: ``where`` names the field, ``why`` what is wrong with it."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"{where}: {why}")
        self.where = where
        self.why = why


# A check takes (value, where) and raises Malformed; an object's fields are required unless
# wrapped in ``optional`` (missing or null). Fields not listed are not read by anyone.
Check = Callable[[Any, str], None]


def _at(where: str, key: str | int) -> str:
    return f"{where}.{key}" if where else str(key)


def string(pattern: str | None = None) -> Check:
    compiled = re.compile(pattern) if pattern else None

    def check(value: Any, where: str) -> None:
        if not isinstance(value, str):
            raise Malformed(where, "not a string")
        if compiled is not None and not compiled.fullmatch(value):
            raise Malformed(where, "not in the expected form")

    return check


def boolean(value: Any, where: str) -> None:
    if not isinstance(value, bool):
        raise Malformed(where, "not true or false")


def integer(value: Any, where: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Malformed(where, "not a whole number")


def anything(value: Any, where: str) -> None:
    """Read by no one here: any value will do."""


class optional:  # noqa: N801 - reads as the other checks do
    """Missing or null, else ``inner``."""

    def __init__(self, inner: Check) -> None:
        self.inner = inner

    def __call__(self, value: Any, where: str) -> None:
        if value is not None:
            self.inner(value, where)


def obj(**fields: Check) -> Check:
    def check(value: Any, where: str) -> None:
        if not isinstance(value, dict):
            raise Malformed(where, "not an object")
        for key, field in fields.items():
            if key not in value and not isinstance(field, optional):
                raise Malformed(_at(where, key), "missing")
            field(value.get(key), _at(where, key))

    return check


def listof(item: Check, *, least: int = 0) -> Check:
    def check(value: Any, where: str) -> None:
        if not isinstance(value, list):
            raise Malformed(where, "not a list")
        if len(value) < least:
            raise Malformed(where, f"fewer than {least} items")
        for i, element in enumerate(value):
            item(element, _at(where, i))

    return check


def mapping(inner: Check) -> Check:
    """An object with any keys, each value of one shape (``state.values``)."""

    def check(value: Any, where: str) -> None:
        if not isinstance(value, dict):
            raise Malformed(where, "not an object")
        for key, element in value.items():
            inner(element, _at(where, key))

    return check


def either(*choices: Check) -> Check:
    def check(value: Any, where: str) -> None:
        for choice in choices:
            try:
                choice(value, where)
            except Malformed:
                continue
            return
        raise Malformed(where, "not of any expected shape")

    return check
