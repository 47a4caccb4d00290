"""A booking's details (estimate, plan, source, next action) as its enquiry's columns."""

from __future__ import annotations

from typing import Any

from core.model import Details
from core.store.schema import enquiries

COLUMNS = (
    enquiries.c.estimate,
    enquiries.c.plan,
    enquiries.c.source,
    enquiries.c.next_action,
    enquiries.c.next_action_note,
)


def from_mapping(m: Any) -> Details:
    """The details of a row that selected ``COLUMNS`` (a row without them: none)."""
    if "plan" not in m:
        return Details()
    return Details(
        estimate=m["estimate"],
        plan=m["plan"],
        source=m["source"],
        next_action=m["next_action"],
        next_action_note=m["next_action_note"],
    )


def params(details: Details) -> dict[str, Any]:
    """The bound parameters a statement writing them takes, named as the columns."""
    return {
        "estimate": details.estimate,
        "plan": details.plan,
        "source": details.source,
        "next_action": details.next_action,
        "next_action_note": details.next_action_note,
    }
