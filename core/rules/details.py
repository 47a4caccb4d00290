"""A booking's details checked (docs/rules.md, The booking record): the estimate a whole
number of yen, the plan and the next action's note of bounded length, the source one of the
venue's codes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.model import Details, Hold, HoldEdit, Venue
from core.results import Code, Refused

if TYPE_CHECKING:  # core.rules.requests checks details with this module
    from core.rules.requests import Checked

MAX_ESTIMATE = 1_000_000_000  # yen: ten digits is no banquet
MAX_PLAN = 200
MAX_ACTION_NOTE = 200


def check_details(details: Details, venue: Venue) -> Refused | None:
    """None when every given field is usable, else the refusal naming the first that is not."""
    estimate = details.estimate
    if estimate is not None and not 0 <= estimate <= MAX_ESTIMATE:
        return Refused(
            Code.BAD_ESTIMATE, field="estimate", limit=MAX_ESTIMATE, detail=str(estimate)
        )
    if len(details.plan.strip()) > MAX_PLAN:
        return Refused(Code.BAD_PLAN, field="plan", limit=MAX_PLAN)
    if len(details.next_action_note.strip()) > MAX_ACTION_NOTE:
        return Refused(Code.BAD_ACTION_NOTE, field="next_action_note", limit=MAX_ACTION_NOTE)
    codes = tuple(code for code, _ in venue.policy.sources)
    if details.source and details.source not in codes:
        return Refused(
            Code.UNKNOWN_SOURCE, field="source", detail=details.source[:40], choices=codes
        )
    return None


def cleaned(details: Details) -> Details:
    """The texts stripped, as they are stored."""
    return Details(
        estimate=details.estimate,
        plan=details.plan.strip(),
        source=details.source.strip(),
        next_action=details.next_action,
        next_action_note=details.next_action_note.strip(),
    )


def joined_details(given: Details, kept: Details) -> Details:
    """A candidate date's details: each field it gives, else the enquiry's."""
    return Details(
        estimate=kept.estimate if given.estimate is None else given.estimate,
        plan=given.plan.strip() or kept.plan,
        source=given.source.strip() or kept.source,
        next_action=kept.next_action if given.next_action is None else given.next_action,
        next_action_note=given.next_action_note.strip() or kept.next_action_note,
    )


def changed_details(kept: Details, change: HoldEdit) -> Details:
    """The booking's details with each field the edit gives replaced."""

    def given(new: object, old: object) -> Any:
        return old if new is None else new

    return Details(
        estimate=given(change.estimate, kept.estimate),
        plan=given(change.plan, kept.plan),
        source=given(change.source, kept.source),
        next_action=given(change.next_action, kept.next_action),
        next_action_note=given(change.next_action_note, kept.next_action_note),
    )


def booking_row(shown: Checked | Hold, salesperson: str) -> tuple[object, ...]:
    """What an edit may change besides rooms and times: its enquiry's row."""
    return (
        shown.customer,
        shown.note,
        salesperson,
        shown.kind_id,
        shown.guests,
        shown.contact,
        shown.details,
    )
