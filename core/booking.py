"""The booking number: one enquiry's number for life, in a form no one mistakes for a hold id."""

from __future__ import annotations


def booking_number(enquiry_id: int) -> str:
    return f"B-{enquiry_id:04d}"
