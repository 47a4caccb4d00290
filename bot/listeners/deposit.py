"""「入金確認」 on a confirmed booking's card, DM or App Home: its deposit recorded paid.

Acknowledged at once. The button's value only names the hold: whether the clicker may record
it (the booking's salesperson or a manager) is the engine's decision. The clicked message is
redrawn (入金済, no button), the clicker is told a refusal, and App Homes are refreshed.
"""

from __future__ import annotations

from functools import partial

from slack_bolt import App, Args
from slack_sdk import WebClient

from bot import cards, ids, strict
from bot.deposits import deposit_state
from bot.deps import Deps
from bot.homes import publish_homes
from bot.listeners.buttons import Click, no_such_hold, redraw
from bot.logs import log_action
from bot.metadata import Source
from bot.replies import tell
from bot.texts import dates, text
from bot.texts.refusals import describe
from core.model import Venue
from core.results import Code, DepositAnswer, Refused


def register(app: App, deps: Deps) -> None:
    app.block_action(ids.DEPOSIT)(deps.listener(clicked))


def clicked(deps: Deps, args: Args) -> None:
    args.ack()
    body, client = args.body, args.client
    venue = deps.venue(args.context)
    user = body["user"]["id"]
    locale = deps.locales.get(user)
    hold_id = strict.hold_id(body["actions"][0].get("value"))
    if hold_id is None:
        no_such_hold(deps, client, venue, body, locale)
        return
    click = Click(
        user=user,
        verb="deposit",
        hold_id=hold_id,
        locale=locale,
        source=Source.of(body),
        blocks=(body.get("message") or {}).get("blocks"),
        trigger_id=body.get("trigger_id"),
        response_url=body.get("response_url"),
    )
    result = deps.engine.writes.record_deposit(venue.id, hold_id, actor=user, now=deps.now())
    deps.after(body, client, partial(settle, deps, client, venue, click, result))


def settle(
    deps: Deps, client: WebClient, venue: Venue, click: Click, result: DepositAnswer | Refused
) -> None:
    """After the engine answered: redraw the card, tell the clicker, refresh App Homes."""
    log_action("deposit", venue.id, click.user, click.hold_id, getattr(result, "code", "ok"))
    now = deps.now()
    style = dates.style_for(venue, now)
    if isinstance(result, Refused):
        if result.hold is not None and result.code is Code.DEPOSIT_ALREADY_PAID:
            redraw(deps, client, venue, click, result.hold, None, ())  # it shows 入金済
        reason = describe(result, venue.tz, click.locale, style=style)
        trigger = None if click.source.is_message else click.trigger_id
        tell(
            client,
            click.user,
            reason,
            click.locale,
            response_url=click.response_url,
            trigger_id=trigger,
        )
        return
    deps.notices_written(venue.id)  # its card's row waits in the outbox
    hold = result.hold
    state = deposit_state(hold, venue.tz, click.locale, now=now, style=style)
    line = cards.line(hold, venue.tz, click.locale, style=style)
    lead = text(click.locale, "deposit.done", hold=line, state=state)
    redraw(deps, client, venue, click, hold, lead, ())
    publish_homes(deps, client, venue, {click.user, hold.salesperson})
