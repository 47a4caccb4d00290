"""Reminders 24 h before a deadline and the Monday digest: outbox rows, at most once each."""

from __future__ import annotations

from datetime import timedelta

from core import events
from core.model import Hold
from core.operations import pipeline, team
from core.operations.tx import Tx
from core.store import deposits, holds
from core.store.next_actions import follow_ups, next_actions

REMINDER_AHEAD = timedelta(hours=24)
DIGEST_SPAN = timedelta(days=7)


# The venue-local hour a booking's next action is told to its salesperson that day.
NEXT_ACTION_HOUR = 8


def queue_reminders(tx: Tx) -> int:
    """One reminder per hold and deadline: an extended deadline gets its own. And from
    ``NEXT_ACTION_HOUR`` on, one DM per booking whose next action is today."""
    due = holds.firsts_due(tx.conn, tx.venue, tx.now + REMINDER_AHEAD, after=tx.now)
    tx.journal.record(*[events.ReminderDue(h) for h in due])
    local = tx.now.astimezone(tx.venue.tz)
    if local.hour >= NEXT_ACTION_HOUR:
        found = next_actions(tx.conn, tx.venue, local.date())
        tx.journal.record(*[events.NextActionDue(h) for h in found])
    return tx.journal.flush()


def queue_digests(tx: Tx) -> int:
    """Each salesperson's 1st holds with a deadline in the coming 7 days and follow-ups (next
    actions due in those days, or overdue), and to each manager
    the whole venue's (with every 2nd queue) when there is any; once per ISO week."""
    until = tx.now + DIGEST_SPAN
    iso = tx.now.astimezone(tx.venue.tz).date().isocalendar()
    week = f"{iso.year}-W{iso.week:02d}"
    due = holds.firsts_due(tx.conn, tx.venue, until, after=tx.now)
    today = tx.now.astimezone(tx.venue.tz).date()
    by_person: dict[str, list[Hold]] = {}
    for h in due:
        by_person.setdefault(h.salesperson, []).append(h)
    # i28-ping: each one's follow-ups (next actions) of the coming 7 days, and overdue ones
    follow: dict[str, list[Hold]] = {}
    for h in follow_ups(tx.conn, tx.venue, today + DIGEST_SPAN - timedelta(days=1)):
        follow.setdefault(h.salesperson, []).append(h)
    tx.journal.record(
        *[
            events.DigestDue(
                person,
                tuple(by_person.get(person, ())),
                week,
                tx.now,
                until,
                tuple(follow.get(person, ())),
            )
            for person in sorted(by_person.keys() | follow.keys())
        ]
    )
    queues = team.queues(tx, today)
    overdue = tuple(deposits.past_due(tx.conn, tx.venue, today, told=None))  # 予約金
    past = pipeline.last_week(tx, tx.now)  # i28-report: last week's numbers
    if due or queues or overdue or past.numbers.any:
        waiting = tuple((q.hold, q.ahead) for q in queues)
        tx.journal.record(
            *[
                events.ManagerDigestDue(
                    manager, tuple(due), waiting, week, tx.now, until, overdue, past
                )
                for manager in sorted(tx.venue.managers)
            ]
        )
    return tx.journal.flush()
