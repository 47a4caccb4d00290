"""The DMs the jobs send: every notice kind, both languages, Block Kit's limits."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from slack_sdk import WebClient

from bot import ids
from bot.notices import UnrenderableNotice, render_failure_report, render_notice
from core.model import Status
from core.notices import NoticeKind
from tests.bot import samples
from tests.support.factories import JST, NOW, SALES
from tests.support.slack_standin import SlackStandin


@pytest.fixture(scope="module")
def slack() -> Iterator[SlackStandin]:
    with SlackStandin() as standin:
        yield standin


def buttons(blocks: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [
        (e["action_id"], e["value"])
        for b in blocks
        if b["type"] == "actions"
        for e in b["elements"]
    ]


def all_text(blocks: list[dict[str, Any]]) -> str:
    return json.dumps(blocks, ensure_ascii=False)


def test_promoted_names_the_hold_the_new_deadline_and_offers_confirm_extend_and_release() -> None:
    held = samples.hold()
    out = render_notice(samples.about(NoticeKind.PROMOTED, held), tz=JST, locale="ja-JP")

    assert "1番手になりました" in out.text
    assert "鳳凰の間 3/10(水・仏滅) 11:00〜15:00" in out.text
    # the deadline to the minute, and the time left when the DM was written (3/1 9:00)
    assert "期限 3/8(月・友引) 9:00まで（あと7日）" in out.text
    assert buttons(out.blocks) == [
        (ids.CONFIRM, str(held.id)),
        (ids.EXTEND, str(held.id)),
        (ids.RELEASE, str(held.id)),
        (ids.EDIT, str(held.id)),
    ]
    release = out.blocks[1]["elements"][2]
    assert release["style"] == "danger" and "confirm" not in release  # its dialog asks why


@pytest.mark.parametrize(
    ("cause", "ja", "en"),
    [
        ("expired", "前の1番手（#7）が期限切れ", "The 1st hold ahead (#7) expired"),
        ("released", "前の1番手（#7）が取り下げ", "The 1st hold ahead (#7) was released"),
        ("cancelled", "前の本予約（#7）がキャンセル", "The booking ahead (#7) was cancelled"),
        ("lost", "他の本予約で外れた", "lost its slot to another booking"),
        ("", "前の押さえが外れたため", "The hold ahead of yours left"),
    ],
)
def test_promoted_says_why_it_moved_up(cause: str, ja: str, en: str) -> None:
    row = samples.about(NoticeKind.PROMOTED, samples.hold())
    row = replace(row, payload={**row.payload, "cause": cause, "after": [7] if cause else []})
    assert ja in all_text(render_notice(row, tz=JST, locale="ja").blocks)
    assert en in all_text(render_notice(row, tz=JST, locale="en").blocks)


def test_promoted_in_english_for_an_english_locale() -> None:
    out = render_notice(samples.about(NoticeKind.PROMOTED, samples.hold()), tz=JST, locale="en-US")
    assert out.text.startswith("Now 1st")
    assert "reply by Mon 8 Mar (Tomobiki) 9:00 (7 days left)" in out.text
    labels = [e["text"]["text"] for e in out.blocks[1]["elements"]]
    assert labels == ["Confirm", "Extend", "Release", "Edit"]


def test_lost_names_the_confirmed_winner_and_has_no_buttons() -> None:
    loser = samples.waiting(status=Status.RELEASED, rank=None)
    winner = samples.hold(customer="佐藤様", status=Status.CONFIRMED, rank=None, expires_at=None)
    out = render_notice(samples.about(NoticeKind.LOST, loser, winner=winner), tz=JST, locale="ja")

    # lost is not withdrawn: the words say another hold was booked, and what to do next
    assert "他の押さえが本予約" in out.text and "取り下げ" not in out.text
    assert f"#{winner.id} 佐藤様（婚礼）" in all_text(out.blocks)
    assert "別の日程か部屋をご提案ください" in all_text(out.blocks)
    assert buttons(out.blocks) == []


def test_a_candidate_date_released_says_which_date_the_customer_chose() -> None:
    dropped = samples.waiting(status=Status.RELEASED, rank=None)
    chosen = samples.hold(status=Status.CONFIRMED, rank=None, expires_at=None)
    row = samples.about(NoticeKind.OTHER_DATE_CHOSEN, dropped, chosen=chosen)
    ja = render_notice(row, tz=JST, locale="ja")
    assert ja.text.startswith("候補日が取り下げ")
    assert f"#{chosen.id} " in all_text(ja.blocks) and "に決めたため" in all_text(ja.blocks)
    assert buttons(ja.blocks) == []
    en = render_notice(row, tz=JST, locale="en-US")
    assert "The customer chose" in all_text(en.blocks)


def test_expired_says_so_without_buttons() -> None:
    gone = samples.hold(status=Status.EXPIRED, rank=None, expires_at=None)
    out = render_notice(samples.about(NoticeKind.EXPIRED, gone), tz=JST, locale="ja")
    assert out.text.startswith("期限切れ")
    assert buttons(out.blocks) == []


def test_extended_tells_the_next_in_line_the_new_deadline_of_the_hold_ahead() -> None:
    ahead = samples.hold(customer="佐藤様", extensions_used=1, expires_at=NOW + timedelta(days=14))
    mine = samples.waiting(customer="鈴木様")
    out = render_notice(samples.about(NoticeKind.EXTENDED, mine, ahead=ahead), tz=JST, locale="ja")

    assert "新しい期限 3/15(月・先負) 9:00まで（あと14日）" in out.text
    body = all_text(out.blocks)
    assert "2番手" in body and "鈴木様" in body and "佐藤様" in body


def test_reminder_offers_confirm_extend_and_release() -> None:
    held = samples.hold()
    out = render_notice(samples.about(NoticeKind.REMINDER, held), tz=JST, locale="ja")
    assert "24時間" in out.text
    assert [a for a, _ in buttons(out.blocks)] == [ids.CONFIRM, ids.EXTEND, ids.RELEASE, ids.EDIT]


def test_customer_text_is_escaped_for_mrkdwn() -> None:
    held = samples.hold(customer="<!channel> & 株式会社")
    out = render_notice(samples.about(NoticeKind.PROMOTED, held), tz=JST, locale="ja")
    body = out.blocks[0]["text"]["text"]
    assert "&lt;!channel&gt; &amp; 株式会社" in body
    assert "<!channel>" not in body


def test_digest_lists_each_hold_with_buttons_soonest_deadline_first() -> None:
    late = samples.hold(customer="遅い様", expires_at=NOW + timedelta(days=6))
    soon = samples.hold(customer="早い様", expires_at=NOW + timedelta(days=3))
    out = render_notice(samples.digest([late, soon]), tz=JST, locale="ja")

    assert out.text == "今週が期限の1番手が 2 件あります"
    assert out.blocks[0]["type"] == "header"
    assert "3/1(月・大安)〜3/8(月・友引)" in out.blocks[0]["text"]["text"]
    sections = [b["text"]["text"] for b in out.blocks if b["type"] == "section"]
    assert "早い様" in sections[0] and "遅い様" in sections[1]
    assert [v for a, v in buttons(out.blocks) if a == ids.CONFIRM] == [str(soon.id), str(late.id)]


@pytest.mark.parametrize("count", [24, 25, 200])
def test_a_digest_of_any_size_fits_in_fifty_blocks_and_points_to_app_home(count: int) -> None:
    out = render_notice(samples.digest([samples.hold() for _ in range(count)]), tz=JST, locale="ja")

    assert len(out.blocks) <= 50
    block_ids = [b["block_id"] for b in out.blocks if "block_id" in b]
    assert len(block_ids) == len(set(block_ids))
    shown = len([b for b in out.blocks if b["type"] == "actions"])
    if count <= 24:
        assert shown == count and "ホームタブ" not in all_text(out.blocks)
    else:
        assert out.blocks[-1]["type"] == "context"
        assert f"ほか {count - shown} 件はホームタブ" in out.blocks[-1]["elements"][0]["text"]


def test_every_rendering_is_accepted_by_slack(slack: SlackStandin) -> None:
    """The stand-in checks what Slack checks: block count, unique block ids, text sizes."""
    client = WebClient(token="xoxb-test", base_url=slack.base_url, retry_handlers=[])
    held = samples.hold(customer="長" * 200)
    rows = [
        samples.about(NoticeKind.PROMOTED, held),
        samples.about(NoticeKind.LOST, held, winner=samples.hold()),
        samples.about(NoticeKind.EXPIRED, held),
        samples.about(NoticeKind.EXTENDED, samples.waiting(), ahead=held),
        samples.about(NoticeKind.REMINDER, held),
        samples.digest([samples.hold(customer="長" * 200) for _ in range(80)]),
    ]
    for row in rows:
        for locale in ("ja-JP", "en-US"):
            out = render_notice(row, tz=JST, locale=locale)
            answer = client.chat_postMessage(channel=SALES, text=out.text, blocks=out.blocks)
            assert answer["ok"]


def test_an_unknown_kind_or_broken_payload_is_refused_with_a_value_error() -> None:
    with pytest.raises(UnrenderableNotice):
        render_notice(samples.notice(NoticeKind.PROMOTED, {}), tz=JST, locale="ja")
    weird = replace(samples.about(NoticeKind.PROMOTED, samples.hold()), kind="telegram")
    with pytest.raises(ValueError, match="telegram"):
        render_notice(weird, tz=JST, locale="ja")


def test_failure_report_says_which_notices_failed_to_whom_and_why() -> None:
    promoted = samples.about(NoticeKind.PROMOTED, samples.hold())
    failed = [
        replace(promoted, status="failed", last_error="channel_not_found", recipient="U0GONE0001"),
        replace(samples.digest([samples.hold()]), status="failed"),
    ]
    out = render_failure_report(failed, tz=JST, locale="ja")

    assert out.text == "届けられなかった通知が 2 件あります"
    body = all_text(out.blocks)
    assert "<@U0GONE0001>" in body and "`channel_not_found`" in body and "繰り上げ" in body
    assert "週次まとめ" in body and "理由不明" in body


def test_a_long_failure_report_stays_within_limits(slack: SlackStandin) -> None:
    promoted = samples.about(NoticeKind.PROMOTED, samples.hold())
    rows = [replace(promoted, id=i, last_error="x" * 5000) for i in range(120)]
    out = render_failure_report(rows, tz=JST, locale="en")

    assert len(out.blocks) <= 50
    assert all(len(b["text"]["text"]) <= 3000 for b in out.blocks if b["type"] == "section")
    assert "90 more" in all_text(out.blocks)
    client = WebClient(token="xoxb-test", base_url=slack.base_url, retry_handlers=[])
    assert client.chat_postMessage(channel="C0SALES01", text=out.text, blocks=out.blocks)["ok"]


def test_a_dm_sent_later_counts_the_time_left_from_when_it_is_sent() -> None:
    held = samples.hold()  # deadline 3/8 9:00
    row = samples.about(NoticeKind.REMINDER, held)
    out = render_notice(row, tz=JST, locale="ja", now=NOW + timedelta(days=6, hours=7))
    assert "期限 3/8(月・友引) 9:00まで（あと17時間）" in out.text
    out = render_notice(row, tz=JST, locale="ja", now=NOW + timedelta(days=6, hours=16))
    assert "期限 3/8(月・友引) 9:00まで（本日）" in out.text
    out = render_notice(row, tz=JST, locale="en", now=NOW + timedelta(days=7, hours=-2))
    assert "Mon 8 Mar (Tomobiki) 9:00 (due today)" in out.text


def test_a_dm_read_in_another_year_carries_the_year_and_a_venue_may_hide_rokuyo() -> None:
    held = samples.hold()  # 2027/3/10, deadline 2027/3/8
    row = samples.about(NoticeKind.PROMOTED, held)
    december = NOW.replace(year=2026, month=12)
    out = render_notice(row, tz=JST, locale="ja", now=december, rokuyo=False)
    assert f"#{held.id} 鳳凰の間 2027/3/10(水) 11:00〜15:00" in out.text
    assert "期限 2027/3/8(月) 9:00まで（あと" in out.text
    assert "仏滅" not in all_text(out.blocks) and "友引" not in all_text(out.blocks)
