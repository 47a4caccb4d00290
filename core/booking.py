"""The booking number: one enquiry's number for life, in a form no one mistakes for a hold id."""

from __future__ import annotations

import re

_WRITTEN = re.compile(r"\s*(?:[Bb]\s*-?\s*)?0*(\d{1,12})\s*")


def booking_number(enquiry_id: int) -> str:
    return f"B-{enquiry_id:04d}"


def booking_id(value: str) -> int | None:
    """The enquiry id a booking number names, as staff type it (``B-0012``, ``b12``, ``12``;
    full-width digits too), or None when it is not one."""
    match = _WRITTEN.fullmatch(value.translate(_FULL_WIDTH))
    if match is None or int(match.group(1)) == 0:
        return None
    return int(match.group(1))


_FULL_WIDTH = str.maketrans("０１２３４５６７８９Ｂｂ－", "0123456789Bb-")
