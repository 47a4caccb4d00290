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
GUESTS = "hold_guests"
# i25b: the booking's details (block and action ids alike)
ESTIMATE = "hold_estimate"
PLAN = "hold_plan"
SOURCE = "hold_source"
NEXT_ACTION = "hold_next_action"
NEXT_ACTION_NOTE = "hold_next_action_note"
EDIT_ITEM = "hold_edit_item"  # an edit form of a package: which room it changes
CONTACT = "hold_contact"

# Inputs whose change sends a block_actions (dispatch_action) and refreshes the preview.
# The customer too (on Enter): a customer holding under another enquiry is warned of.
PREVIEW_INPUTS = (ROOM, DATE, START, END, KIND, CUSTOMER)
PREVIEW_ACTION = re.compile(r"^hold_(room|date|start|end|kind|customer)$")

# More rooms of one hold (a package), each row a room, a start and an end. The first row is
# ROOM / START / END above; each further row has a key of its own (kept in the metadata), so
# a row removed and one added later never share a block id: Slack keeps what was typed in a
# block id it has seen, whatever the update's initial value says.
ITEM_ROOM = "hold_item_room_{}"
ITEM_START = "hold_item_start_{}"
ITEM_END = "hold_item_end_{}"
ITEM_ACTION = re.compile(r"^hold_item_(room|start|end)_([0-9]{1,3})$")
ITEM_ROOM_ACTION = re.compile(r"^hold_item_room_[0-9]{1,3}$")  # rooms found as typed
ADD_ROOM = "hold_add_room"  # "+ 部屋を追加": another row, its start the last row's end
REMOVE_ROOM = "hold_remove_room"  # a row's remove button; its value is the row's key
ROWS_ACTIONS = "hold_rows_actions"  # the block of the add button
MAX_ROW_KEY = 999


def item_room(key: int) -> str:
    return ITEM_ROOM.format(key)


def item_start(key: int) -> str:
    return ITEM_START.format(key)


def item_end(key: int) -> str:
    return ITEM_END.format(key)


def remove_row(key: int) -> str:
    """block_id of a row's remove button."""
    return f"hold_remove_row_{key}"


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
    "guests": GUESTS,
    "contact": CONTACT,
    # i25b: what else a booking carries (refusals name these fields)
    "estimate": "hold_estimate",
    "plan": "hold_plan",
    "source": "hold_source",
    "next_action": "hold_next_action",
    "next_action_note": "hold_next_action_note",
}

# -- buttons on hold cards (messages, DMs, App Home); the value is the hold id ----------------
CONFIRM = "hold_confirm"
RELEASE = "hold_release"
EXTEND = "hold_extend"
NUDGE = "hold_nudge"  # 「1番手に回答を依頼」 on a waiting hold: its value the waiting hold
DECISION_ACTION = re.compile(r"^hold_(confirm|release|extend|nudge)$")
ANOTHER_DATE = "hold_another_date"  # "別の候補日": the form again, same customer and rooms
EDIT = "hold_edit"  # opens the /hold form filled in with the hold, to change it


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

# -- a day's rooms (/hold 5/15): each room's button opens the form on it; value "room date" --
HOLD_FROM_DAY = "ledger_hold_room"

# -- App Home --------------------------------------------------------------------------------
HOME = "home"

# -- finding a slot (/hold free, the search modal, alternatives on refusals) ----------------
FREE_HOLD = "free_hold"  # a result's or an alternative's button: value is bot.places' value
FREE_HOLD_ACTION = re.compile(r"^free_hold(_[1-5])?$")  # alternatives are numbered 1 to 5
MAX_ALTERNATIVES = 5  # a refusal offers at most five (core.operations.search.MOST)


def free_hold_alternative(n: int) -> str:
    """The button of a refusal's ``n``-th alternative (1 to 5): one actions block needs an
    action id per button; ``FREE_HOLD_ACTION`` matches them."""
    if not 1 <= n <= MAX_ALTERNATIVES:
        raise ValueError(f"alternative {n} is not 1 to {MAX_ALTERNATIVES}")
    return f"{FREE_HOLD}_{n}"


FREE_MORE = "free_more"  # the next page of a search's results: value {"q": text, "p": page}
ALTERNATIVES = "hold_alternatives"  # block_id of a refusal's alternatives in the hold modal
FIND_SLOT = "find_slot"  # App Home's "Find a slot" button
FIND_MODAL = "find_modal"  # callback_id of the search form
FIND_TEXT = "find_text"  # its one input: what to look for, as /hold free takes it

# -- a venue's setup in Slack (App Home 会場の設定, issue 29) ---------------------------------
SETUP_TEMPLATE = "setup_template"  # a button: value is a template's name (bot.venue_templates)
SETUP_PASTE = "setup_paste"  # opens the modal a venue file is pasted in
SETUP_OPEN = "setup_open"  # App Home's 会場の設定 button: opens the settings modal
SETUP_MODAL = "setup_modal"  # callback_id of the settings modal
SETUP_CHANNEL = "setup_channel"  # its sales channel (conversations_select): block and action
SETUP_MANAGERS = "setup_managers"  # its managers (multi_users_select)
SETUP_LANGUAGE = "setup_language"  # the channel's language (static_select: ja, en)
SETUP_ROOM = "setup_room"  # a room's 編集 button in the settings modal: value is its id
SETUP_ROOM_ADD = "setup_room_add"  # 部屋を追加
SETUP_ROOM_MODAL = "setup_room_modal"  # callback_id of a room's modal (pushed)
ROOM_ID = "setup_room_id"  # a new room's id
ROOM_NAME = "setup_room_name"
ROOM_PARTS = "setup_room_parts"  # part ids, separated by commas or spaces
ROOM_CAPACITY = "setup_room_capacity"
ROOM_TURNOVER = "setup_room_turnover"
SETUP_PASTE_MODAL = "setup_paste_modal"  # callback_id of the venue-file modal
SETUP_FILE = "setup_file"  # its multiline input: the venue file's TOML
VENUE_PICK = "venue_pick"  # which venue (a workspace with several): /hold form and App Home
SETUP_UPLOAD = "setup_upload"  # the venue-file modal's file_input: a .toml uploaded

# -- the diary picture (台帳, issue 27) --------------------------------------------------------
DIARY_WEEK = "diary_week"  # App Home's button: this week's diary, uploaded to the DM
DIARY_BLOCK = "diary_home"  # block_id of its section (a manager's home places it once)

# -- the ledger taken out (issue 27: export, calendar feeds) ---------------------------------
LEDGER_EXPORT = "ledger_export"  # a manager's App Home: 「Excel で出力」, the file to the DM
LEDGER_EXPORT_BLOCK = "ledger_export_home"
FEED_BLOCK = "calendar_feed_home"  # the person's calendar feed URL
# issue 27 (viewing writes nothing): App Home's button that issues the calendar feed URLs
FEED_ISSUE = "calendar_feed_issue"  # value: FEED_MINE, or FEED_VENUE (a manager's: both)
FEED_ISSUE_BLOCK = "calendar_feed_issue_home"
FEED_MINE = "mine"
FEED_VENUE = "venue"

# -- i25-slack: the release dialog (取り下げる asks why) ----------------------------------------
RELEASE_MODAL = "release_modal"  # callback_id of the dialog the Release button opens
RELEASE_REASON = "release_reason"  # its reason (static_select): block id and action id
RELEASE_NOTE = "release_note"  # its optional note (plain_text_input): block id and action id

# -- 予約金 (deposits): 「入金確認」 on a confirmed booking's card, DM and App Home -----------
DEPOSIT = "hold_deposit"  # its value the hold id; the engine decides who may

# -- the window ping (開放日に知らせる, issue 28 item 4) --------------------------------------
PING_ASK = "ping_ask"  # the banquet-window refusal's button in the hold form: keeps the ping
PING_BLOCK = "ping_offer"  # block_id of that offer (the form's refusal, with its button)
PING_HOLD = "ping_hold"  # the DM's button when the window opens: value is the ping's id
PING_DROP = "ping_drop"  # App Home's drop button beside a waiting ping: value is its id
PINGS_HOME = "pings_home"  # block_id of App Home's pings
FOLLOW_UPS_HOME = "follow_ups_home"  # block_id of App Home's 次のアクション (issue 28 item 6)

# -- 社内押さえ (house holds, issue 28 item 2): a manager's /hold form offers the choice ------
HOUSE = "hold_house"  # the checkbox: block id and action id (a change redraws the preview)
HOUSE_VALUE = "house"  # its one option's value
FIELD_BLOCKS["house"] = HOUSE  # a refusal of the house flag (not_a_manager) is shown on it

# -- i28-report: the manager's pipeline ------------------------------------------------------
PIPELINE_BLOCK = "pipeline_home"  # block_id of the managers' App Home pipeline section
PIPELINE_CHART = "pipeline_chart"  # its 「グラフで見る」: the chart picture, to the DM
