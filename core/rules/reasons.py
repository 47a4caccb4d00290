"""Why a hold left (docs/rules.md, Why a hold left): the reasons a release may give (the
venue's list: its file's ``[[reasons]]``, else the defaults), and which count as a loss."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # core.model's Policy holds the venue's list of these
    from core.model import Venue


@dataclass(frozen=True)
class Reason:
    """One reason a release may give: its ``code`` (stored, typed as ``--reason``), its
    ``name`` (the venue's word; a default not renamed reads in each reader's language) and
    whether a release for it counts as a lost booking."""

    code: str
    name: str
    loss: bool = True


# The defaults, in the order a release dialog offers them.
DEFAULT_REASONS = (
    Reason("other_venue", "他会場に決定"),
    Reason("budget", "予算"),
    Reason("changed_plans", "日程・人数の変更"),
    Reason("called_off", "中止・延期"),
    Reason("no_answer", "連絡がつかない"),
    Reason("entry_error", "入力の誤り", loss=False),
    Reason("other", "その他"),
)
REASONS = tuple(r.code for r in DEFAULT_REASONS)  # the default codes
UNSPECIFIED = "unspecified"  # a release that gave none (scripts from before reasons)
NOT_A_LOSS = frozenset(r.code for r in DEFAULT_REASONS if not r.loss)
MAX_NOTE = 500


def reasons_for(venue: Venue) -> tuple[Reason, ...]:
    """The venue's reasons, in the order a release offers them (the one list a release
    dialog, ``hold release --reason`` and the month's figures read)."""
    return venue.policy.reasons


def not_losses(reasons: Sequence[Reason]) -> frozenset[str]:
    """The codes whose releases are no loss (``entry_error`` by default)."""
    return frozenset(r.code for r in reasons if not r.loss)


def reason_code(value: str | None, reasons: Sequence[Reason] = DEFAULT_REASONS) -> str | None:
    """The code as given (trimmed), ``unspecified`` for none, or None when it is no code
    of ``reasons``."""
    code = (value or "").strip()
    if not code:
        return UNSPECIFIED
    return code if code == UNSPECIFIED or any(r.code == code for r in reasons) else None


def losses(
    expired: int,
    lost: int,
    by_reason: Mapping[str, int],
    no_loss: frozenset[str] = NOT_A_LOSS,
) -> int:
    """Bookings lost: expired, lost to another's confirmation, and released for any reason
    but those that are no loss (an entry error by default; another candidate date chosen
    and an edit's swap are not losses either). A code the venue no longer lists, and
    ``unspecified``, count as losses."""
    withdrawn = sum(n for code, n in by_reason.items() if code not in no_loss)
    return expired + lost + withdrawn
