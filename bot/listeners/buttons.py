"""Confirm / Release / Extend (a waiting hold: Nudge) on cards, and the dialogs Confirm and
Release open (Release asks why: a reason of the venue's list, and a note).

Every click is acknowledged at once. The button's value only names the hold: whether the
clicker may act is the engine's decision, from the clicker's id. The clicked message is then
updated in place to the outcome, and the people concerned get a fresh App Home.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from slack_bolt import App, Args
from slack_sdk import WebClient

from bot import cards, ids, strict
from bot.blocks import MAX_MESSAGE_BLOCKS, dump, header
from bot.deps import Deps
from bot.homes import publish_homes
from bot.logs import log_action
from bot.metadata import Meta, Source
from bot.reasons import reason_name, release_reasons
from bot.release_form import read_why
from bot.replies import replace_message, tell
from bot.texts import dates, text
from bot.texts.refusals import describe
from bot.views.dialogs import confirm_modal, info_modal
from bot.views.messages import Message, decided, outcome, splice
from bot.views.release import release_modal
from core.model import Hold, Status, Venue
from core.results import Code, ConfirmAnswer, ExtendAnswer, NudgeAnswer, Refused, ReleaseAnswer

Result = ConfirmAnswer | ReleaseAnswer | ExtendAnswer | NudgeAnswer | Refused
# Refusals that mean the hold moved on since the card was drawn: the card is redrawn.
_STALE = {Code.ALREADY_DECIDED, Code.DEADLINE_PASSED, Code.NOT_FIRST}


@dataclass(frozen=True)
class Click:
    """Who clicked which verb on which hold, and where the button was."""

    user: str
    verb: str  # confirm | release | extend | nudge (its hold: the waiting one)
    hold_id: int
    locale: str
    source: Source
    blocks: list[dict[str, Any]] | None = None  # the clicked message's blocks, when sent along
    trigger_id: str | None = None
    response_url: str | None = None

    @classmethod
    def of(cls, body: dict[str, Any], locale: str) -> Click | None:
        """The click in a block_actions payload; None if the button names no hold."""
        action = body["actions"][0]
        hold_id = strict.hold_id(action.get("value"))
        verb = ids.decision(action["action_id"])
        if hold_id is None or verb is None:
            return None
        return cls(
            user=body["user"]["id"],
            verb=verb,
            hold_id=hold_id,
            locale=locale,
            source=Source.of(body),
            blocks=(body.get("message") or {}).get("blocks"),
            trigger_id=body.get("trigger_id"),
            response_url=body.get("response_url"),
        )


def register(app: App, deps: Deps) -> None:
    app.block_action(ids.DECISION_ACTION)(deps.listener(clicked))
    app.view_submission(ids.CONFIRM_MODAL)(deps.listener(confirm_submitted))
    app.view_submission(ids.RELEASE_MODAL)(deps.listener(release_submitted))


def clicked(deps: Deps, args: Args) -> None:
    args.ack()
    body, client = args.body, args.client
    venue = deps.venue(args.context)
    user = body["user"]["id"]
    locale = deps.locales.get(user)
    click = Click.of(body, locale)
    if click is None:
        no_such_hold(deps, client, venue, body, locale)
        return
    if click.verb == "confirm":
        result: Result | None = ask_to_confirm(deps, client, venue, click)
    elif click.verb == "release":
        result = ask_why(deps, client, venue, click)
    else:
        writes = deps.engine.writes
        acts: dict[str, Callable[..., Result]] = {
            "extend": writes.extend,
            "nudge": writes.nudge_ahead,
        }
        act = acts[click.verb]
        result = act(venue.id, click.hold_id, actor=user, now=deps.now())
    if result is not None:  # None: the dialog is open, and its submission does the rest
        deps.after(body, client, partial(settle, deps, client, venue, click, result))


def no_such_hold(
    deps: Deps, client: WebClient, venue: Venue, body: dict[str, Any], locale: str
) -> None:
    """A button value that names no hold (someone crafted it): the clicker is told so."""
    refused = Refused(Code.HOLD_NOT_FOUND, detail=str(body["actions"][0].get("value"))[:24])
    message = describe(refused, venue.tz, locale, style=dates.style_for(venue, deps.now()))
    tell(client, body["user"]["id"], message, locale, response_url=body.get("response_url"))


def ask_to_confirm(deps: Deps, client: WebClient, venue: Venue, click: Click) -> Refused | None:
    """Open the dialog that says which holds confirming would release (nothing changes until
    it is submitted); or the refusal, if this click cannot confirm."""
    plan = deps.engine.writes.confirm_plan(
        venue.id, click.hold_id, actor=click.user, now=deps.now()
    )
    if isinstance(plan, Refused):
        return plan
    meta = Meta(locale=click.locale, hold_id=click.hold_id, source=click.source)
    view = confirm_modal(plan, venue.tz, meta, style=dates.style_for(venue, deps.now()))
    client.views_open(trigger_id=click.trigger_id, view=view.to_dict())
    return None


def confirm_submitted(deps: Deps, args: Args) -> None:
    meta = Meta.load(args.body["view"].get("private_metadata"))
    user = args.body["user"]["id"]
    venue = deps.venue(args.context)
    if meta.hold_id is None:  # not metadata we wrote
        refused = Refused(Code.HOLD_NOT_FOUND, detail="-")
        reason = describe(refused, venue.tz, meta.locale, style=dates.style_for(venue, deps.now()))
        args.ack(response_action="update", view=info_modal(reason, meta.locale).to_dict())
        return
    click = Click(user, "confirm", meta.hold_id, meta.locale, meta.source or Source())
    result = deps.engine.writes.confirm(venue.id, click.hold_id, actor=user, now=deps.now())
    if isinstance(result, Refused):  # said in the dialog itself
        reason = describe(result, venue.tz, click.locale, style=dates.style_for(venue, deps.now()))
        args.ack(response_action="update", view=info_modal(reason, click.locale).to_dict())
    else:
        args.ack()
    settled = partial(settle, deps, args.client, venue, click, result, told=True)
    deps.after(args.body, args.client, settled)


def ask_why(deps: Deps, client: WebClient, venue: Venue, click: Click) -> Refused | None:
    """Open the dialog that asks why the hold is released (nothing changes until it is
    submitted); or the refusal, if this click cannot release it (the engine decides again on
    submission: this only spares a dialog that could not succeed)."""
    hold = deps.engine.reads.hold(venue.id, click.hold_id)
    if isinstance(hold, Refused):
        return hold
    if not hold.may_act(click.user, venue):
        return Refused(Code.NOT_AUTHORIZED, hold=hold)
    if hold.status is not Status.TENTATIVE:
        return Refused(Code.ALREADY_DECIDED, hold=hold)
    meta = Meta(locale=click.locale, hold_id=click.hold_id, source=click.source)
    reasons = release_reasons(venue, click.locale)
    style = dates.style_for(venue, deps.now())
    view = release_modal(hold, venue.tz, meta, reasons, style=style)
    client.views_open(trigger_id=click.trigger_id, view=view.to_dict())
    return None


def release_submitted(deps: Deps, args: Args) -> None:
    """The release with its reason (the engine call ``osae hold release --reason`` makes);
    a missing reason is refused on its field, a refusal said in the dialog."""
    view = args.body["view"]
    meta = Meta.load(view.get("private_metadata"))
    user, venue = args.body["user"]["id"], deps.venue(args.context)
    why = read_why((view.get("state") or {}).get("values") or {}, venue, meta.locale)
    if why.errors:
        args.ack(response_action="errors", errors=dict(why.errors))
        return
    click = Click(user, "release", meta.hold_id or 0, meta.locale, meta.source or Source())
    result: ReleaseAnswer | Refused = (
        deps.engine.writes.release(
            venue.id, meta.hold_id, actor=user, now=deps.now(), reason=why.reason, note=why.note
        )
        if meta.hold_id is not None
        else Refused(Code.HOLD_NOT_FOUND, detail="-")
    )
    if isinstance(result, Refused):
        reason = describe(result, venue.tz, meta.locale, style=dates.style_for(venue, deps.now()))
        args.ack(response_action="update", view=info_modal(reason, meta.locale).to_dict())
    else:
        args.ack()
    said = text(
        meta.locale,
        "release.done.reason",
        reason=reason_name(venue, why.reason, meta.locale),
        note="",
    )
    settled = partial(settle, deps, args.client, venue, click, result, told=True, said=(said,))
    deps.after(args.body, args.client, settled)


def settle(
    deps: Deps,
    client: WebClient,
    venue: Venue,
    click: Click,
    result: Result,
    *,
    told: bool = False,
    said: tuple[str, ...] = (),
) -> None:
    """After the engine answered: redraw the card, tell the clicker, refresh App Homes."""
    outcome_code = result.code.value if isinstance(result, Refused) else "ok"
    log_action(click.verb, venue.id, click.user, click.hold_id, outcome_code)
    style = dates.style_for(venue, deps.now())
    if isinstance(result, Refused):
        reason = describe(result, venue.tz, click.locale, style=style)
        if result.hold is not None and result.code in _STALE and click.verb != "nudge":
            notes: tuple[str, ...] = (reason,) if result.code is Code.DEADLINE_PASSED else ()
            redraw(deps, client, venue, click, result.hold, None, notes)
        if not told:
            tell(
                client,
                click.user,
                reason,
                click.locale,
                response_url=click.response_url,
                trigger_id=None if click.source.is_message else click.trigger_id,
            )
        return
    deps.notices_written(venue.id)  # lost / promoted / extended notices wait in the outbox
    lead, notes = decided(result, click.user, venue.tz, click.locale, style=style)
    notes = (*said, *notes)  # a release's reason, under the lead
    # A nudge was clicked on the waiting hold's card: that card says it was sent.
    shown = result.asker if isinstance(result, NudgeAnswer) else result.hold
    redraw(deps, client, venue, click, shown, lead, notes)
    publish_homes(deps, client, venue, {click.user, result.hold.salesperson, shown.salesperson})


def redraw(
    deps: Deps,
    client: WebClient,
    venue: Venue,
    click: Click,
    hold: Hold,
    lead: str | None,
    notes: tuple[str, ...],
) -> None:
    """The clicked message shows the hold as it stands now (App Home is republished instead)."""
    if not click.source.is_message:
        return
    card = outcome(
        hold, venue.tz, click.locale, lead, notes, style=dates.style_for(venue, deps.now())
    )
    if click.blocks is not None:
        blocks = splice(click.blocks, hold.id, card.blocks, ids.card_actions(hold.id))
    else:  # after the dialog the message itself is not at hand: draw it again from the ledger
        blocks = _rebuild(deps, venue, click, hold, card.blocks)
    replace_message(client, click.source, Message(card.text, blocks))


def _rebuild(
    deps: Deps, venue: Venue, click: Click, hold: Hold, card: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    blocks = dump([header(click.source.header)]) if click.source.header else []
    shown = click.source.hold_ids  # a button of a hold not in the message: the card alone
    for hold_id in shown if hold.id in shown else (hold.id,):
        if hold_id == hold.id:
            blocks += card
            continue
        other = deps.engine.reads.hold(venue.id, hold_id)
        if not isinstance(other, Refused):
            blocks += dump(
                cards.card(other, venue.tz, click.locale, style=dates.style_for(venue, deps.now()))
            )
    return blocks[:MAX_MESSAGE_BLOCKS]
