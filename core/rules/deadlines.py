"""Reply deadlines and the date limits of booking (DESIGN.md, Operations; Wedding vs. banquet)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from core.model import Kind, Policy
from core.rules.calendar import is_priority_day
from core.rules.spans import local_instant


def first_deadline(
    now: datetime, kind: Kind, start: datetime, policy: Policy, tz: ZoneInfo
) -> datetime:
    """A 1st hold's deadline: ``hold_days[kind]`` from now, never after the event starts."""
    return min(days_later(now, policy.days_for(kind), tz), start)


def extended_deadline(
    current: datetime, kind: Kind, start: datetime, policy: Policy, tz: ZoneInfo
) -> datetime:
    return min(days_later(current, policy.days_for(kind), tz), start)


def days_later(moment: datetime, days: int, tz: ZoneInfo) -> datetime:
    """The same venue-local clock time ``days`` days on, whatever zone ``moment`` is given in.

    A salesperson told "7 days" across a daylight-saving change expects the same time of day,
    not 168 hours; adding days to the local time (not to UTC) gives that.
    """
    return moment.astimezone(tz) + timedelta(days=days)


def banquet_opens_at(day: date, policy: Policy, tz: ZoneInfo) -> datetime | None:
    """When banquet holds open for ``day``, or None when the day is not wedding-priority."""
    if not is_priority_day(day, policy.priority_days):
        return None
    return local_instant(day - timedelta(days=policy.banquet_open_days), 0, tz)


def last_bookable_day(today: date, policy: Policy) -> date:
    return today + timedelta(days=policy.horizon_days)
