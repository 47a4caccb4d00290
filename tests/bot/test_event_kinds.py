"""Every kind of event is declared once (core/event_kinds.py: its audit line, its DMs, its
card), and what it declares is rendered (bot/notices.py, bot/card_notices.py) and worded in
both languages (bot/texts). A new kind that misses one of them fails here, by name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any, get_args

import pytest

from bot.card_notices import LINES, render_card_line
from bot.notices import RENDERERS, render_notice
from bot.texts import CATALOGS
from core import events
from core.deposits import Deposit
from core.event_kinds import KINDS, card_lines, dm_kinds
from core.events import Action
from core.journal import audit_event, notices_of, told_queued
from core.model import Details, HoldRequest, Status
from core.notices import CARD_RECIPIENT, QUEUED_RECIPIENT, Notice, NoticeKind
from core.pings import WindowPing
from tests.bot import samples
from tests.support.factories import JST, MANAGER, NOW, SALES

LANGUAGES = ("ja", "en")


def missing(keys: list[str]) -> list[tuple[str, str]]:
    return [(lang, key) for lang in LANGUAGES for key in keys if key not in CATALOGS[lang]]


def test_every_event_class_has_one_entry_and_every_entry_leaves_something() -> None:
    assert set(KINDS) == set(get_args(events.Event))
    for cls, kind in KINDS.items():
        assert (kind.trail, kind.dms, kind.card) != (None, None, None), cls.__name__


def test_every_action_and_kind_of_dm_is_declared_by_some_event() -> None:
    written = {k.trail[0] for k in KINDS.values() if k.trail is not None}
    # a venue's own change (its setup in Slack) is no hold's event: core.operations.venue_settings
    assert written == set(Action) - {Action.VENUE_SET}
    assert dm_kinds() == set(NoticeKind) - {NoticeKind.CARD}


@pytest.mark.parametrize("kind", sorted(dm_kinds()))
def test_every_kind_of_dm_has_a_renderer_and_its_texts(kind: NoticeKind) -> None:
    assert kind in RENDERERS
    assert missing([f"notice.kind.{kind}", f"notice.{kind}.title", f"notice.{kind}.text"]) == []


@pytest.mark.parametrize("action", sorted(card_lines()))
def test_every_card_action_has_its_thread_line_and_its_texts(action: Action) -> None:
    assert action in LINES
    if LINES[action] is not None:  # a new card (requested) adds no line
        assert missing([f"thread.{action}"]) == []


# -- each kind end to end: the journal's rows, rendered in both languages --------------------
def _samples() -> dict[type[Any], Callable[[], Any]]:
    first, second, other = samples.hold(), samples.waiting(), samples.hold(room_id="sakura")
    gone = samples.hold(status=Status.RELEASED, rank=None)
    week = ("2027-W09", NOW, NOW + timedelta(days=7))
    booked = samples.hold(status=Status.CONFIRMED, rank=None, expires_at=None)
    booked = replace(booked, deposit=Deposit(due=NOW.date() + timedelta(days=14)))
    return {
        events.Requested: lambda: events.Requested(SALES, 1, first.expires_at, (("hoo", 1),)),
        events.Announced: lambda: events.Announced(first, SALES),
        events.Queued: lambda: events.Queued(second, (first.id,)),
        events.Confirmed: lambda: events.Confirmed(first, SALES, (second.id,)),
        events.Lost: lambda: events.Lost(gone, SALES, first),
        events.OtherDateChosen: lambda: events.OtherDateChosen(gone, SALES, other),
        events.Released: lambda: events.Released(first, SALES),
        events.Extended: lambda: events.Extended(
            first, SALES, NOW + timedelta(days=9), first, (second,)
        ),
        events.Nudged: lambda: events.Nudged(first, SALES, second, first),
        events.Cancelled: lambda: events.Cancelled(first, MANAGER, "先方都合"),
        events.ActedFor: lambda: events.ActedFor(
            gone, MANAGER, "released", "other_venue", "駅前の式場"
        ),
        events.Promoted: lambda: events.Promoted(first, SALES, "released", (other.id,)),
        events.Expired: lambda: events.Expired(gone),
        events.Edited: lambda: events.Edited(first, other, SALES, kept_place=False),
        events.ReminderDue: lambda: events.ReminderDue(first),
        events.NextActionDue: lambda: events.NextActionDue(
            replace(first, details=Details(next_action=NOW.date(), next_action_note="打合せ"))
        ),
        events.DepositPaid: lambda: events.DepositPaid(
            booked, SALES, replace(booked, deposit=replace(booked.deposit, paid_at=NOW))
        ),
        events.DepositReminderDue: lambda: events.DepositReminderDue(booked),
        events.DepositOverdue: lambda: events.DepositOverdue(booked),
        events.DigestDue: lambda: events.DigestDue(SALES, (first,), *week),
        events.ManagerDigestDue: lambda: events.ManagerDigestDue(
            MANAGER, (first,), ((second, (first,)),), *week, overdue=(booked,)
        ),
        events.PingAsked: lambda: events.PingAsked(_ping()),
        events.PingDropped: lambda: events.PingDropped(_ping(), MANAGER),
        events.WindowOpened: lambda: events.WindowOpened(_ping(), (("hoo", "鳳凰の間"),), "忘年会"),
    }


def _ping() -> WindowPing:
    asked = HoldRequest(
        "hoo", NOW.date(), 18 * 60, 21 * 60, "banquet", "<!channel> 商事", SALES, SALES
    )
    return WindowPing(7, "grand-tokyo", SALES, asked, NOW, opens_at=NOW + timedelta(days=1))


@pytest.mark.parametrize("cls", sorted(KINDS, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_what_each_kind_leaves_is_written_and_rendered_in_both_languages(cls: type[Any]) -> None:
    made = _samples()
    assert cls in made, f"add a sample of {cls.__name__} here"
    event, declared = made[cls](), KINDS[cls]
    trail = audit_event(event, NOW)
    assert (trail.action if trail else None) == (declared.trail and declared.trail[0])
    rows = [samples.notice(NoticeKind(n.kind), dict(n.payload)) for n in notices_of(event, NOW)]
    dms = [n for n in rows if n.kind != NoticeKind.CARD]
    cards = [n for n in rows if n.kind == NoticeKind.CARD]
    assert {n.kind for n in dms} <= ({declared.dms[0]} if declared.dms else set())
    assert len(cards) == (1 if declared.card else 0)
    if declared.dms and not dms:
        pytest.fail(f"{cls.__name__} declares DMs but its sample sent none")
    # a queued row is resolved at delivery: one row to each 1st's salesperson
    delivered = [
        samples.notice(NoticeKind.QUEUED, _resolved(d)) if d.kind == "queued" else d for d in dms
    ]
    for dm in delivered:
        for lang in LANGUAGES:
            out = render_notice(dm, tz=JST, locale=lang)
            assert out.text and out.blocks
    for card in cards:
        assert declared.card and card.payload["event"] == declared.card[0].value
        for lang in LANGUAGES:
            render_card_line(card, tz=JST, locale=lang)


def _resolved(queued: Notice) -> dict[str, Any]:
    first = samples.hold()
    told = told_queued(replace(queued, recipient=QUEUED_RECIPIENT), [first])
    assert [n.recipient for n in told] == [first.salesperson]
    return dict(told[0].payload)


def test_a_card_row_goes_to_the_card_and_a_dm_to_its_salesperson() -> None:
    hold = samples.hold()
    rows = notices_of(events.Expired(hold), NOW)
    assert [(n.kind, n.recipient) for n in rows] == [
        (NoticeKind.EXPIRED.value, hold.salesperson),
        (NoticeKind.CARD.value, CARD_RECIPIENT),
    ]
