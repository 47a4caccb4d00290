"""Why a hold left (docs/rules.md, Why a hold left): the reason codes a release may give,
and which outcomes count as a loss."""

from __future__ import annotations

from collections.abc import Mapping

# The default list (its names are the bot's texts, ``reason.<code>``), in the order a
# release dialog offers them.
REASONS = (
    "other_venue",  # 他会場に決定
    "budget",  # 予算
    "changed_plans",  # 日程・人数の変更
    "called_off",  # 中止・延期
    "no_answer",  # 連絡がつかない
    "entry_error",  # 入力の誤り: not a loss
    "other",  # その他
)
UNSPECIFIED = "unspecified"  # a release that gave none (scripts from before reasons)
NOT_A_LOSS = frozenset({"entry_error"})
MAX_NOTE = 500


def reason_code(value: str | None) -> str | None:
    """The code as given (trimmed), ``unspecified`` for none, or None when it is no code
    of the list."""
    code = (value or "").strip()
    if not code:
        return UNSPECIFIED
    return code if code in REASONS or code == UNSPECIFIED else None


def losses(expired: int, lost: int, by_reason: Mapping[str, int]) -> int:
    """Bookings lost: expired, lost to another's confirmation, and released for any reason
    but an entry error (another candidate date chosen and an edit's swap are not losses)."""
    withdrawn = sum(n for code, n in by_reason.items() if code not in NOT_A_LOSS)
    return expired + lost + withdrawn
