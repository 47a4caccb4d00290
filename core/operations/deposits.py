"""Deposits (予約金): the due date a confirmation sets, 入金確認, and the reminders and past-due
notices the clock's deposits job queues, each at most once per booking (docs/rules.md)."""

from __future__ import annotations

from core import events
from core.deposits import DEPOSIT_HOUR, amount_problem, due_date
from core.model import Hold, Status
from core.operations.tx import Tx
from core.results import Code, DepositAnswer, Refused
from core.store import deposits, holds


def set_at_confirm(tx: Tx, hold: Hold) -> None:
    """The booking of ``hold`` was just confirmed: its deposit is due ``deposit_days`` after
    today (venue-local), never after its event's day; none when the venue sets no days."""
    today = tx.now.astimezone(tx.venue.tz).date()
    due = due_date(today, hold.local_date, tx.venue.policy.deposit_days)
    deposits.set_due(tx.conn, tx.venue, hold.enquiry_id, due)


def record_paid(tx: Tx, hold_id: int, actor: str, amount: int | None) -> DepositAnswer | Refused:
    """入金確認: the salesperson or a manager records the deposit of a confirmed booking paid,
    once (a second time is refused saying when and by whom it was recorded)."""
    hold = holds.get(tx.conn, tx.venue, hold_id)
    if hold is None:
        return Refused(Code.HOLD_NOT_FOUND, detail=str(hold_id))
    if amount_problem(amount) is not None:
        return Refused(Code.BAD_DEPOSIT_AMOUNT, field="amount", detail=str(amount), hold=hold)
    if actor != hold.salesperson and not tx.venue.is_manager(actor):
        return Refused(Code.NOT_AUTHORIZED, hold=hold, detail="deposit")
    if hold.deposit.paid:
        return Refused(Code.DEPOSIT_ALREADY_PAID, hold=hold)
    if hold.status is not Status.CONFIRMED or hold.deposit.due is None:
        return Refused(Code.NO_DEPOSIT_DUE, hold=hold)
    deposits.record_paid(tx.conn, tx.venue, hold.enquiry_id, actor, amount, tx.now)
    paid = holds.get(tx.conn, tx.venue, hold.id)
    assert paid is not None  # noqa: S101 - read back in the same transaction
    tx.journal.record(events.DepositPaid(hold, actor, paid))
    return DepositAnswer(paid)


def queue_notices(tx: Tx) -> int:
    """From ``DEPOSIT_HOUR`` (venue-local): a reminder to each salesperson whose booking's
    deposit falls due within ``REMIND_DAYS``, and a notice for each one past due, each once
    (its marker set in this transaction, with its outbox row)."""
    local = tx.now.astimezone(tx.venue.tz)
    if local.hour < DEPOSIT_HOUR:
        return 0
    today = local.date()
    remind = deposits.to_remind(tx.conn, tx.venue, today)
    overdue = deposits.past_due(tx.conn, tx.venue, today, told=False)
    deposits.mark(tx.conn, tx.venue, _enquiries(remind), "deposit_reminded_at", tx.now)
    deposits.mark(tx.conn, tx.venue, _enquiries(overdue), "deposit_overdue_at", tx.now)
    tx.journal.record(
        *[events.DepositReminderDue(h) for h in remind],
        *[events.DepositOverdue(h) for h in overdue],
    )
    return tx.journal.flush()


def _enquiries(found: list[Hold]) -> list[int]:
    return sorted({h.enquiry_id for h in found})
