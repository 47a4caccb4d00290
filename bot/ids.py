"""Every callback_id, block_id and action_id the bot sends or listens for, in one place."""

from __future__ import annotations

import re

COMMAND = "/hold"

# -- the /hold modal -------------------------------------------------------------------------
HOLD_MODAL = "hold_modal"  # callback_id of the form (and of its loading placeholder)

# One input block per field; each input's element uses the action id of the same name.
ROOM = "hold_room"
DATE = "hold_date"
START = "hold_start"
END = "hold_end"
KIND = "hold_kind"
CUSTOMER = "hold_customer"
SALESPERSON = "hold_salesperson"
NOTE = "hold_note"

# Inputs whose change sends a block_actions (dispatch_action) and refreshes the preview.
PREVIEW_INPUTS = (ROOM, DATE, START, END, KIND)
PREVIEW_ACTION = re.compile(r"^hold_(room|date|start|end|kind)$")

PREVIEW = "hold_preview"  # the context block with the one-line rank preview
NOTICE = "hold_notice"  # what the quick form did not understand, or why a submission was refused

# Refused.field (the request field at fault) -> the input block that shows the error.
FIELD_BLOCKS = {
    "room": ROOM,
    "date": DATE,
    "start": START,
    "end": END,
    "kind": KIND,
    "customer": CUSTOMER,
    "salesperson": SALESPERSON,
    "note": NOTE,
}

# -- buttons on hold cards (messages, DMs, App Home); the value is the hold id ----------------
CONFIRM = "hold_confirm"
RELEASE = "hold_release"
EXTEND = "hold_extend"
DECISION_ACTION = re.compile(r"^hold_(confirm|release|extend)$")


def card_actions(hold_id: int) -> str:
    """block_id of a hold's button row: unique per hold, so a digest can list many."""
    return f"hold_actions_{hold_id}"


CARD_ACTIONS = re.compile(r"hold_actions_([0-9]+)")  # what card_actions makes (fullmatch)


def decision(action_id: str) -> str | None:
    """The verb of a decision button's action id (``confirm``, ``release``, ``extend``)."""
    found = DECISION_ACTION.match(action_id)
    return found.group(1) if found else None


# -- the confirmation dialog Confirm opens ---------------------------------------------------
CONFIRM_MODAL = "confirm_modal"
CANCEL_MODAL = "cancel_modal"  # a manager's /hold cancel N asks first
CANCEL_REASON = "cancel_reason"  # its reason input: block id and action id
INFO_MODAL = "info_modal"  # a read-only dialog telling why nothing happened (App Home clicks)

# -- App Home --------------------------------------------------------------------------------
HOME = "home"
