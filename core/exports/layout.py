"""The 予約台帳 layout: its columns, in order, and one row per room of each hold."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime, time

from core.booking import booking_number
from core.model import Hold, HoldItem, Venue
from core.rules.rokuyo import rokuyo

# The columns of a venue's 予約台帳, in order; 連絡先 only when the contact is asked for.
DAY, WEEKDAY, ROOM, START, END, KIND, CUSTOMER, GUESTS = (
    "日付",
    "曜日・六曜",
    "部屋",
    "開始",
    "終了",
    "種別",
    "お客様",
    "人数",
)
SALESPERSON, STATE, DEADLINE, BOOKING, ESTIMATE, SOURCE, NOTE, CONTACT = (
    "担当",
    "状態",
    "期限",
    "予約番号",
    "見積",
    "媒体",
    "メモ",
    "連絡先",
)
HEADERS: tuple[str, ...] = (
    DAY,
    WEEKDAY,
    ROOM,
    START,
    END,
    KIND,
    CUSTOMER,
    GUESTS,
    SALESPERSON,
    STATE,
)
HEADERS += (DEADLINE, BOOKING, ESTIMATE, SOURCE, NOTE)
DEPOSIT = "予約金"  # 入金待ち（期日 2027/3/15）, 入金済: appended (issue 28); an import ignores it
HEADERS += (DEPOSIT,)
WEEKDAYS = "月火水木金土日"

# A hold's 状態 as the caller words it (1番手, 本予約, 取消: 理由 ...).
StateWords = Callable[[Hold], str]


@dataclass(frozen=True)
class LedgerRow:
    """One room of one hold, venue-local; ``deadline`` naive local time (as Excel keeps it),
    ``contact`` None when the column is not shown. 見積 is the booking's estimate in yen,
    媒体 its source as the venue names it."""

    day: date
    weekday: str
    room: str
    start: time
    end: time
    kind: str
    customer: str
    guests: int | None
    salesperson: str
    state: str
    deadline: datetime | None
    booking: str
    estimate: int | None
    source: str
    note: str
    deposit: str = ""  # the booking's deposit, worded by the caller ("" none)
    contact: str | None = None

    def cells(self) -> tuple[object, ...]:
        values: tuple[object, ...] = (
            self.day,
            self.weekday,
            self.room,
            self.start,
            self.end,
            self.kind,
            self.customer,
            self.guests,
            self.salesperson,
            self.state,
            self.deadline,
            self.booking,
            self.estimate,
            self.source,
            self.note,
            self.deposit,
        )
        return values if self.contact is None else (*values, self.contact)


def headers(with_contact: bool) -> tuple[str, ...]:
    return (*HEADERS, CONTACT) if with_contact else HEADERS


def weekday_of(day: date, venue: Venue) -> str:
    """金・大安 (or 金 where the venue does not show its 六曜)."""
    weekday = WEEKDAYS[day.weekday()]
    return f"{weekday}・{rokuyo(day).japanese}" if venue.policy.show_rokuyo else weekday


def ledger_rows(
    found: Iterable[Hold],
    venue: Venue,
    state: StateWords,
    *,
    with_contact: bool = False,
    deposit: StateWords = lambda hold: "",
) -> list[LedgerRow]:
    """Every room of every hold, in date and time order (then arrival, then item order).
    担当 is the salesperson's Slack id: what an import of the file takes back."""
    keyed = [
        ((h.local_date, item.start_at, h.id, n), h, item)
        for h in found
        for n, item in enumerate(h.items)
    ]
    keyed.sort(key=lambda entry: entry[0])
    weekdays: dict[date, str] = {}
    rows = []
    for _, hold, item in keyed:
        day = hold.local_date
        if day not in weekdays:
            weekdays[day] = weekday_of(day, venue)
        row = _row(hold, item, venue, state(hold), weekdays[day], with_contact)
        rows.append(replace(row, deposit=deposit(hold)))
    return rows


def _row(
    hold: Hold,
    item: HoldItem,
    venue: Venue,
    state: str,
    weekday: str,
    with_contact: bool,
) -> LedgerRow:
    tz = venue.tz
    deadline = hold.expires_at.astimezone(tz).replace(tzinfo=None) if hold.expires_at else None
    start, end = item.start_at.astimezone(tz), item.end_at.astimezone(tz)
    return LedgerRow(
        day=hold.local_date,
        weekday=weekday,
        room=item.room_name,
        start=start.time().replace(tzinfo=None),
        end=end.time().replace(tzinfo=None),
        kind=hold.kind_name or hold.kind_id,
        customer=hold.customer,
        guests=hold.guests,
        salesperson=hold.salesperson,
        state=state,
        deadline=deadline.replace(second=0, microsecond=0) if deadline else None,
        booking=booking_number(hold.enquiry_id),
        estimate=hold.details.estimate,
        source=venue.policy.source_name(hold.details.source) if hold.details.source else "",
        note=hold.note,
        contact=hold.contact if with_contact else None,
    )
