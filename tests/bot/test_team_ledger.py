"""The team's ledger over signed HTTP: a day's rooms (/hold 5/15) to anyone, a manager's
/hold list and App Home of the whole team, a salesperson's unchanged."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from bot import ids
from core.model import Kind
from core.results import RequestAnswer
from jobs.console import lines_of
from tests.bot.conftest import Harness
from tests.support import slack_requests as sr
from tests.support.factories import DAY, MANAGER, SALES, request

SUZUKI = sr.USER_ID  # a salesperson who is not a manager


def take(bot: Harness, **fields: Any) -> RequestAnswer:
    now = fields.pop("now", bot.clock[0])
    result = bot.engine.request(bot.venue.id, request(**fields), now=now)
    assert isinstance(result, RequestAnswer), result
    return result


def ask(bot: Harness, typed: str, *, user: str = SUZUKI, name: str = "r") -> dict[str, Any]:
    """Type ``/hold typed``; the ephemeral answer posted to its response_url."""
    url = bot.slack.response_url(name)
    before = len(bot.slack.calls_to("response_url"))
    status, _, answer = bot.post(sr.slash_command(text=typed, user_id=user, response_url=url))
    assert (status, answer) == (200, "")
    reply: dict[str, Any] = bot.slack.wait_for("response_url", before + 1)[-1].body
    assert reply["response_type"] == "ephemeral"
    return reply


def block(view: dict[str, Any], block_id: str) -> dict[str, Any]:
    return next(b for b in view["blocks"] if b.get("block_id") == block_id)


def shown(reply: dict[str, Any]) -> str:
    """The mrkdwn of every section, header and context, as Slack would be given it."""
    texts = []
    for block in reply["blocks"]:
        if block["type"] == "context":
            texts += [e["text"] for e in block["elements"]]
        if isinstance(block.get("text"), dict):
            texts.append(block["text"]["text"])
    return "\n".join(texts)


def test_a_date_alone_shows_that_days_rooms_to_a_salesperson_and_opens_no_form(
    bot: Harness,
) -> None:
    noon = take(bot, customer="山田様", salesperson=SALES, start="11:00", end="15:00")
    behind = take(
        bot, customer="佐藤様", salesperson=SUZUKI, room="hoo-a", start="15:30", end="17:00"
    )
    take(bot, customer="翌日様", day=DAY + timedelta(days=1))

    reply = ask(bot, "3/10")
    text = shown(reply)
    print(text)
    assert "3/10(水・仏滅) の宴会場" in text
    assert (
        f"11:00–15:00（＋転換60分 〜16:00） #{noon.hold.id} 山田様（婚礼） — "
        f"*1番手* · 期限 *3/8(月・友引) 9:00まで* · 担当 <@{SALES}>" in text
    )
    # 鳳凰A shares A1 with 鳳凰の間: the whole room's list shows it, marked, as a 2nd.
    assert (
        f"15:30–17:00（＋転換60分 〜18:00） ［鳳凰Aで使用］ #{behind.hold.id} 佐藤様（婚礼） — "
        f"*2番手*（順番待ち） · 担当 <@{SUZUKI}>" in text
    )
    assert "*桜の間*（転換 60分）\n終日あいています。" in text
    assert "翌日様" not in text
    assert bot.slack.calls_to("views.open") == []
    assert reply["text"] == "3/10(水・仏滅) の宴会場: 押さえ 2 件"


def test_a_date_and_a_room_word_shows_only_the_rooms_it_names(bot: Harness) -> None:
    take(bot, customer="山田様", salesperson=SALES)
    text = shown(ask(bot, "3/10 鳳凰"))
    assert "*鳳凰の間*" in text and "*鳳凰A*" in text and "*鳳凰B*" in text
    assert "桜の間" not in text and "チャペル" not in text
    only = shown(ask(bot, "桜の間 3/10", name="r2"))
    assert "*桜の間*" in only and "鳳凰" not in only


def test_a_date_with_times_still_opens_the_form(bot: Harness) -> None:
    view_id = bot.command("鳳凰 3/10 11:00-15:00")
    assert view_id and bot.slack.calls_to("response_url") == []
    assert bot.command("3/10 鳳凰 + チャペル", name="plus")  # a package being typed
    assert bot.slack.calls_to("response_url") == []


def test_a_managers_list_is_the_whole_teams_and_takes_filters(bot: Harness) -> None:
    mine = take(bot, customer="部長様", salesperson=MANAGER, room="chapel")
    theirs = take(bot, customer="山田様", salesperson=SALES)
    suzuki = take(bot, customer="佐藤様", salesperson=SUZUKI, room="sakura", day=DAY + timedelta(1))

    team = shown(ask(bot, "list", user=MANAGER))
    assert "*チームの押さえ*（3 件）" in team
    for hold in (mine, theirs, suzuki):
        assert f"#{hold.hold.id} " in team
    assert f"担当 <@{SALES}>" in team and f"担当 <@{SUZUKI}>" in team

    own = shown(ask(bot, "list mine", user=MANAGER, name="r2"))
    assert f"#{mine.hold.id} " in own and f"#{theirs.hold.id} " not in own
    # A mention as Slack escapes it, and a date.
    person = shown(ask(bot, f"list <@{SUZUKI}|suzuki>", user=MANAGER, name="r3"))
    assert "（1 件 · 担当" in person and f"#{suzuki.hold.id} " in person
    dated = shown(ask(bot, "一覧 3/10", user=MANAGER, name="r4"))
    assert f"#{theirs.hold.id} " in dated and f"#{suzuki.hold.id} " not in dated
    nobody = shown(ask(bot, "list <@U0NOBODY1> 3/10", user=MANAGER, name="r5"))
    assert "条件にあう押さえはありません" in nobody


def test_a_salesperson_lists_only_their_own_and_is_told_why_not_anothers(bot: Harness) -> None:
    take(bot, customer="山田様", salesperson=SALES)
    own = take(bot, customer="佐藤様", salesperson=SUZUKI, room="sakura")
    listed = shown(ask(bot, "list"))
    assert f"#{own.hold.id} " in listed and "山田様" not in listed
    refused = ask(bot, f"list <@{SALES}>", name="r2")
    assert "マネージャーだけ" in refused["text"] and "`/hold 5/15`" in refused["text"]
    unread = ask(bot, "list 来週のぶん", name="r3")
    assert "「来週のぶん」は読めませんでした" in unread["text"]


def test_escaped_command_text_reads_as_typed(bot: Harness) -> None:
    """With should_escape on, Slack sends & < > as entities: the form shows what was typed."""
    view_id = bot.command("鳳凰 3/10 11:00-15:00 婚礼 A&amp;B商事様")
    view = bot.slack.view(view_id)
    assert "A&B商事様" in json.dumps(view["blocks"], ensure_ascii=False)


def test_a_managers_home_is_the_teams_ledger_after_a_small_day(bot: Harness) -> None:
    """The story: a 1st due today, a banquet due this week with a 2nd behind it, a whole-room
    hold behind both halves, one confirmed, one lapsed, one withdrawn this month."""
    now = bot.clock[0]
    today = take(
        bot,
        customer="今日まで様",
        salesperson=SALES,
        room="sakura",
        kind=Kind.BANQUET,
        now=now - timedelta(days=2, hours=20),
    )
    week = take(bot, customer="山田様", salesperson=SUZUKI, kind=Kind.BANQUET)
    second = take(bot, customer="佐藤様", salesperson=SALES)
    chapel = take(
        bot,
        customer="式場様",
        salesperson=SUZUKI,
        room="chapel",
        kind=Kind.BANQUET,
        now=now - timedelta(days=4),
    )
    done = take(
        bot, customer="決定様", salesperson=SALES, room="chapel", day=DAY + timedelta(days=7)
    )
    gone = take(
        bot, customer="見送り様", salesperson=SUZUKI, room="sakura", day=DAY + timedelta(days=2)
    )
    assert bot.engine.confirm(bot.venue.id, done.hold.id, actor=SALES, now=now).ok
    assert bot.engine.release(bot.venue.id, gone.hold.id, actor=SUZUKI, now=now).ok
    swept = bot.engine.sweep(bot.venue.id, now=now)
    assert swept.ok and chapel.hold.id in swept.expired  # type: ignore[union-attr]

    before = len(bot.slack.calls_to("views.publish"))
    assert bot.post(sr.app_home_opened_event(MANAGER))[0] == 200
    bot.slack.wait_for("views.publish", before + 1)
    home = bot.slack.home(MANAGER)
    assert home is not None
    text = shown(home)
    print("\n--- the manager's App Home ---\n" + "\n".join(lines_of(home["blocks"], MANAGER, None)))

    assert "チームの台帳" in text
    assert "*今日が期限の1番手（1 件）*" in text and f"#{today.hold.id} 桜の間" in text
    assert f"#{week.hold.id} 鳳凰の間" in text and f"担当 <@{SUZUKI}>" in text
    assert "*2番手の列（1 件）*" in text
    assert (
        f"#{second.hold.id} 鳳凰の間" in text and f"前: #{week.hold.id} 山田様（一般宴会）" in text
    )
    assert "本予約 *1* · 期限切れ *1* · 取り下げ *1*" in text
    # The salesperson's own home is the same as before: no team section.
    before = len(bot.slack.calls_to("views.publish"))
    assert bot.post(sr.app_home_opened_event(SUZUKI))[0] == 200
    bot.slack.wait_for("views.publish", before + 1)
    theirs = shown(bot.slack.home(SUZUKI))  # type: ignore[arg-type]
    assert "チームの台帳" not in theirs and "今日まで様" not in theirs and "山田様" in theirs


def test_a_rooms_button_on_the_day_opens_the_form_on_that_room_and_date(bot: Harness) -> None:
    reply = ask(bot, "3/10 桜")
    (button,) = [b["accessory"] for b in reply["blocks"] if "accessory" in b]
    assert (button["value"], button["text"]["text"]) == ("sakura 2027-03-10", "この部屋を押さえる")
    opens = len(bot.slack.calls_to("views.open"))
    updates = len(bot.slack.calls_to("views.update"))
    click = sr.block_actions(
        ids.HOLD_FROM_DAY,
        button["value"],
        is_ephemeral=True,
        response_url=bot.slack.response_url("d"),
    )
    assert bot.post(click)[0] == 200
    opened = bot.slack.wait_for("views.open", opens + 1)[-1]
    bot.slack.wait_for("views.update", updates + 1)
    view = bot.slack.view(str(opened.response["view"]["id"]))
    assert block(view, ids.ROOM)["element"]["initial_option"]["value"] == "sakura"
    assert block(view, ids.DATE)["element"]["initial_date"] == "2027-03-10"


def test_a_forged_room_button_opens_nothing_and_writes_nothing(bot: Harness) -> None:
    before = bot.fingerprint()
    for value in ("nowhere 2027-03-10", "sakura 2027-02-30", "sakura", "<!channel> x"):
        assert bot.post(sr.block_actions(ids.HOLD_FROM_DAY, value, is_ephemeral=True))[0] == 200
    bot.settle()
    assert bot.slack.calls_to("views.open") == []
    assert bot.fingerprint() == before
