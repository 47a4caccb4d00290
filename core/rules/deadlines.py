"""Reply deadlines and the date limits of booking (docs/rules.md, Deadlines; Banquet window)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from core.model import Kind, Policy
from core.rules.calendar import is_priority_day
from core.rules.spans import local_instant


def deadline_from(
    moment: datetime, kind: Kind, start: datetime, policy: Policy, tz: ZoneInfo
) -> datetime:
    """``hold_days[kind]`` on from ``moment``, never after the event starts.

    ``moment`` is now for a hold that becomes 1st (requested or promoted), and the current
    deadline for an extension.
    """
    due = min(staff_deadline(days_later(moment, policy.days_for(kind), tz), policy, tz), start)
    return due.astimezone(tz)  # as the venue's staff read it (instants compare absolutely)


def staff_deadline(due: datetime, policy: Policy, tz: ZoneInfo) -> datetime:
    """``due`` as the venue's staff read a deadline: moved past closed weekdays (定休日) to the
    next open day, and set to ``deadline_time`` on that day if the venue has one.

    Unset, both leave ``due`` as it is: counted to the minute.
    """
    local = due.astimezone(tz)
    day = local.date()
    while day.weekday() in policy.closed_weekdays:  # the venue file keeps one day open
        day += timedelta(days=1)
    if policy.deadline_time is not None:
        return local_instant(day, policy.deadline_time, tz).astimezone(tz)
    if day == local.date():
        return due
    return datetime.combine(day, local.time(), tzinfo=tz)


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
    return local_instant(day - timedelta(days=policy.banquet_open_days), 0, tz).astimezone(tz)


def last_bookable_day(today: date, policy: Policy) -> date:
    return today + timedelta(days=policy.horizon_days)
