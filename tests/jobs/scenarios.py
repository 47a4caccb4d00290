"""Holds that make notices, and ways to look at what reached Slack."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta

from core.engine import HoldEngine
from core.model import Hold, Venue
from core.notices import Notice, NoticeKind
from core.results import RequestAnswer
from tests.support import factories
from tests.support.slack_standin import Call, SlackStandin

FIRST = "U0SALESA1"
SECOND = "U0SALESB1"


def promote(
    engine: HoldEngine, venue: Venue, now: datetime, room: str = "hoo", day: date | None = None
) -> Hold:
    """A 1st and a 2nd hold on one slot; the 1st is released, so the 2nd is promoted: one
    DM, the promoted one. (The 1st is not told of the 2nd here, and the two holds have no
    card in Slack, so their card rows are done as delivery would find them: nothing to
    redraw. ``test_cards`` and ``test_day_story`` deliver cards.)"""
    day = day or factories.DAY
    engine.save_venue(quiet(venue), now=now)
    first = engine.request(
        venue.id, factories.request(room=room, day=day, salesperson=FIRST), now=now
    )
    second = engine.request(
        venue.id, factories.request(room=room, day=day, salesperson=SECOND), now=now
    )
    assert isinstance(first, RequestAnswer) and isinstance(second, RequestAnswer)
    assert (first.rank, second.rank) == (1, 2)
    engine.release(venue.id, first.hold.id, actor=FIRST, now=now)
    for row in cards(engine, venue, "pending"):
        engine.notice_sent(venue.id, row.id, channel="-", ref="no card", now=now)
    return second.hold


def a_month_after(now: datetime) -> date:
    """A date for holds requested at the real now (subprocess workers use real time)."""
    return (now + timedelta(days=30)).astimezone(factories.JST).date()


def rows(engine: HoldEngine, venue: Venue, status: str | None = None) -> list[Notice]:
    """The venue's DMs in the outbox (its cards' rows aside: ``cards``)."""
    return [n for n in engine.notices(venue.id, status=status) if n.kind != NoticeKind.CARD]


def cards(engine: HoldEngine, venue: Venue, status: str | None = None) -> list[Notice]:
    return [n for n in engine.notices(venue.id, status=status) if n.kind == NoticeKind.CARD]


def quiet(venue: Venue) -> Venue:
    """The venue without the note to a 1st when a 2nd queues (tests of one DM's delivery)."""
    return replace(venue, policy=replace(venue.policy, notify_first_of_second=False))


def dms_to(slack: SlackStandin, user: str) -> list[Call]:
    return [c for c in slack.calls_to("chat.postMessage") if c.body.get("channel") == user]


def buttons(call: Call) -> dict[str, str]:
    return {
        element["action_id"]: element.get("value", "")
        for block in call.body.get("blocks", [])
        if block.get("type") == "actions"
        for element in block.get("elements", [])
    }
