"""The DMs and the digest of packages and candidate dates: every room, dates side by side."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.notices import render_notice
from core.model import Hold, HoldItem
from core.notices import NoticeKind
from tests.bot import samples
from tests.support.factories import DAY, JST

ROOMS = {  # 〜 between times in Japanese, – in English
    "ja-JP": "チャペル 11:00〜12:00 + 鳳凰の間 12:30〜15:30",
    "en-US": "チャペル 11:00–12:00 + 鳳凰の間 12:30–15:30",
}


def couple(**changes: object) -> Hold:
    """A wedding package: the chapel, then the ballroom."""
    start = datetime(DAY.year, DAY.month, DAY.day, 11, 0, tzinfo=JST)
    chapel = HoldItem(
        "chapel",
        "チャペル",
        frozenset({"C1"}),
        start,
        start + timedelta(hours=1),
        start + timedelta(hours=2),
        1,
    )
    hoo_at = start + timedelta(minutes=90)
    hoo = HoldItem(
        "hoo",
        "鳳凰の間",
        frozenset({"A1", "A2"}),
        hoo_at,
        hoo_at + timedelta(hours=3),
        hoo_at + timedelta(hours=4),
        1,
    )
    return samples.hold(
        items=(chapel, hoo),
        room_id="chapel",
        room_name="チャペル",
        start_at=start,
        end_at=chapel.end_at,
        **changes,
    )


def test_every_dm_about_a_package_lists_its_rooms_in_both_languages() -> None:
    held, chosen = couple(enquiry_id=5), couple(enquiry_id=5, local_date=DAY)
    for kind, extra in (
        (NoticeKind.PROMOTED, {}),
        (NoticeKind.REMINDER, {}),
        (NoticeKind.LOST, {"winner": samples.hold()}),
        (NoticeKind.OTHER_DATE_CHOSEN, {"chosen": chosen}),
    ):
        for locale in ("ja-JP", "en-US"):
            out = render_notice(samples.about(kind, held, **extra), tz=JST, locale=locale)
            assert ROOMS[locale] in out.text, (kind, locale, out.text)
            assert ROOMS[locale] in str(out.blocks)


def test_the_digest_keeps_candidate_dates_of_one_enquiry_together() -> None:
    soon = couple(enquiry_id=5, expires_at=samples.NOW + timedelta(days=2))
    other = samples.hold(
        enquiry_id=6, customer="佐藤様", expires_at=samples.NOW + timedelta(days=3)
    )
    later = couple(
        enquiry_id=5, local_date=DAY + timedelta(days=7), expires_at=samples.NOW + timedelta(days=4)
    )
    out = render_notice(samples.digest([other, later, soon]), tz=JST, locale="ja-JP")
    sections = [b["text"]["text"] for b in out.blocks if b["type"] == "section"]
    held = [next(x for x in s.splitlines() if x.startswith("B-")) for s in sections]
    assert [line.split(" ")[:2] for line in held] == [
        [f"B-{h.enquiry_id:04d}", f"#{h.id}"] for h in (soon, later, other)
    ]  # each hold named by its booking number, then its own number
    assert sections[0].startswith(
        f":calendar: 案件 B-0005 の候補日 · ほかに #{later.id} 3/17(水・大安) 1番手"
    )
    assert sections[1].startswith(
        f":calendar: 案件 B-0005 の候補日 · ほかに #{soon.id} 3/10(水・仏滅) 1番手"
    )
    assert "候補日" not in sections[2]
