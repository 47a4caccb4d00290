"""A newcomer's venue set up in Slack: a workspace installs osae, its installer's App Home
offers 会場の設定, a template makes the venue, rooms are edited and added in a modal, the
sales channel, managers and language are chosen; every change is checked as a venue file
is, audited, and a refused change writes nothing. All through signed requests to the real
endpoint, with the workspace's own token."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from bot import ids
from core.engine import HoldEngine
from core.store.schema import audit_events
from tests.jobs.workspaces import Two, bearer, two
from tests.support import fingerprint
from tests.support import slack_requests as sr
from tests.support.installing import install
from tests.support.slack_standin import SlackStandin

__all__ = ["two"]  # the fixture

INSTALLER = "U0NEWCOMER"
COLLEAGUE = "U0COLLEAG1"


def blocks_text(view: dict[str, Any]) -> str:
    return json.dumps(view["blocks"], ensure_ascii=False)


def home_of(slack: SlackStandin, user: str, count: int) -> dict[str, Any]:
    call = slack.wait_for("views.publish", count, predicate=lambda c: c.body["user_id"] == user)
    return call[-1].response["view"]


def room_values(
    name: str, parts: str, capacity: str | None, turnover: str, room_id: str | None = None
) -> dict[str, dict[str, Any]]:
    values = {
        ids.ROOM_NAME: {ids.ROOM_NAME: sr.text_value(name)},
        ids.ROOM_PARTS: {ids.ROOM_PARTS: sr.text_value(parts)},
        ids.ROOM_CAPACITY: {ids.ROOM_CAPACITY: sr.text_value(capacity, "number_input")},
        ids.ROOM_TURNOVER: {ids.ROOM_TURNOVER: sr.text_value(turnover, "number_input")},
    }
    if room_id is not None:
        values[ids.ROOM_ID] = {ids.ROOM_ID: sr.text_value(room_id)}
    return values


def audit_lines(db: sa.Engine, venue_id: str) -> list[dict[str, Any]]:
    with db.connect() as conn:
        rows = conn.execute(
            sa.select(audit_events.c.actor, audit_events.c.action, audit_events.c.detail)
            .where(audit_events.c.venue_id == venue_id, audit_events.c.hold_id.is_(None))
            .order_by(audit_events.c.id)
        )
        return [dict(r._mapping) for r in rows]


def test_a_newcomer_sets_the_venue_up_from_app_home(
    two: Two, slack: SlackStandin, engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    team = two.team_c
    for user in (INSTALLER, COLLEAGUE):
        slack.set_user(user, locale="ja-JP")
    install(two.url, slack, team, installer=INSTALLER)
    token = two.token(team)

    # The installer opens App Home: 会場の設定, from a template or a venue file.
    status, _ = two.post(sr.app_home_opened_event(INSTALLER, team_id=team))
    assert status == 200
    home = home_of(slack, INSTALLER, 1)
    shown = blocks_text(home)
    assert "会場の設定" in shown and "ホテル宴会場のテンプレートで始める" in shown
    assert "ゲストハウスのテンプレートで始める" in shown
    assert "会場ファイルをアップロード・貼り付け" in shown
    assert bearer(slack.last("views.publish")) == token

    # A colleague who did not install it may not start one.
    status, _ = two.post(
        sr.block_actions(
            actions=[sr.action(ids.SETUP_TEMPLATE, "hotel_banquet")],
            view=home,
            user_id=COLLEAGUE,
            team_id=team,
        )
    )
    assert status == 200
    refused = slack.wait_for("views.open")[-1]
    assert "マネージャー" in blocks_text(refused.response["view"])
    assert engine.workspace_venues(team) == []

    # The installer starts from the hotel banquet floor.
    two.post(
        sr.block_actions(
            actions=[sr.action(ids.SETUP_TEMPLATE, "hotel_banquet")],
            view=home,
            user_id=INSTALLER,
            team_id=team,
        )
    )
    home = home_of(slack, INSTALLER, 2)
    (venue_id,) = engine.workspace_venues(team)
    venue = engine.venue(venue_id)
    assert venue is not None and venue.managers == {INSTALLER} and "ballroom" in venue.rooms
    assert "会場の設定" in blocks_text(home) and ids.SETUP_OPEN in blocks_text(home)

    # 会場の設定 opens the settings modal listing the rooms.
    two.post(
        sr.block_actions(
            actions=[sr.action(ids.SETUP_OPEN, venue_id)],
            view=home,
            user_id=INSTALLER,
            team_id=team,
        )
    )
    modal = slack.wait_for("views.open", 2)[-1].response["view"]
    assert modal["callback_id"] == ids.SETUP_MODAL
    assert "大宴会場 東" in blocks_text(modal) and "140名" in blocks_text(modal)

    # Edit a room: its modal is pushed; a bad value is refused in place, nothing written.
    pushed = slack.issue_trigger(view_id=modal["id"])
    two.post(
        sr.block_actions(
            actions=[sr.action(ids.SETUP_ROOM, "ballroom-east")],
            view=modal,
            user_id=INSTALLER,
            team_id=team,
            trigger_id=pushed,
        )
    )
    room = slack.wait_for("views.push")[-1].response["view"]
    assert room["callback_id"] == ids.SETUP_ROOM_MODAL
    before = fingerprint.tables(sa_engine, venue_id)
    status, answer = two.post(
        sr.view_submission(
            room_values("大宴会場 東", " , ", "150", "90"),
            view=room,
            user_id=INSTALLER,
            team_id=team,
        )
    )
    assert status == 200 and json.loads(answer)["errors"][ids.ROOM_PARTS].startswith(
        "区画を1つ以上"
    )
    status, answer = two.post(
        sr.view_submission(
            room_values("大宴会場 東", "ballroom-1", "0", "90"),
            view=room,
            user_id=INSTALLER,
            team_id=team,
        )
    )
    assert "capacity" in json.loads(answer)["errors"][ids.ROOM_NAME]  # the venue file's check
    assert fingerprint.tables(sa_engine, venue_id) == before
    status, answer = two.post(
        sr.view_submission(
            room_values("大宴会場 東（窓側）", "ballroom-1", "150", "60"),
            view=room,
            user_id=INSTALLER,
            team_id=team,
        )
    )
    assert status == 200 and answer == ""
    east = engine.venue(venue_id).rooms["ballroom-east"]  # type: ignore[union-attr]
    assert (east.name, east.capacity, east.turnover_min) == ("大宴会場 東（窓側）", 150, 60)
    redrawn = slack.wait_for("views.update", predicate=lambda c: c.body["view_id"] == modal["id"])
    assert "大宴会場 東（窓側）" in json.dumps(redrawn[-1].body["view"], ensure_ascii=False)

    # Add a room.
    added = slack.issue_trigger(view_id=modal["id"])
    two.post(
        sr.block_actions(
            actions=[sr.action(ids.SETUP_ROOM_ADD, "add")],
            view=modal,
            user_id=INSTALLER,
            team_id=team,
            trigger_id=added,
        )
    )
    new_room = slack.wait_for("views.push", 2)[-1].response["view"]
    status, answer = two.post(
        sr.view_submission(
            room_values("ガーデン", "garden", None, "30", room_id="garden"),
            view=new_room,
            user_id=INSTALLER,
            team_id=team,
        )
    )
    assert status == 200 and answer == ""
    garden = engine.venue(venue_id).rooms["garden"]  # type: ignore[union-attr]
    assert (garden.parts, garden.capacity, garden.turnover_min) == ({"garden"}, None, 30)

    # The sales channel, the managers and the language.
    settings = {
        ids.SETUP_CHANNEL: {
            ids.SETUP_CHANNEL: {
                "type": "conversations_select",
                "selected_conversation": "C0NEWSALES",
            }
        },
        ids.SETUP_MANAGERS: {
            ids.SETUP_MANAGERS: {
                "type": "multi_users_select",
                "selected_users": [INSTALLER, COLLEAGUE],
            }
        },
        ids.SETUP_LANGUAGE: {ids.SETUP_LANGUAGE: sr.select_value("en")},
    }
    status, answer = two.post(
        sr.view_submission(settings, view=slack.view(modal["id"]), user_id=INSTALLER, team_id=team)
    )
    assert status == 200 and answer == ""
    venue = engine.venue(venue_id)
    assert venue is not None
    assert (venue.sales_channel, venue.managers, venue.language) == (
        "C0NEWSALES",
        {INSTALLER, COLLEAGUE},
        "en",
    )

    # Every change is in the venue's audit trail: who, from where, what.
    lines = audit_lines(sa_engine, venue_id)
    assert [line["actor"] for line in lines] == [INSTALLER] * 4
    assert all(
        line["action"] == "venue_set" and line["detail"]["source"] == "slack" for line in lines
    )
    assert lines[0]["detail"]["workspace"] == team
    assert lines[1]["detail"]["changed"] == ["rooms"] and lines[2]["detail"]["changed"] == ["rooms"]
    assert lines[3]["detail"]["changed"] == [
        "venue.language",
        "venue.managers",
        "venue.sales_channel",
    ]

    # The workspace's /hold works in its new venue, with its own token.
    status, _ = two.command(team, INSTALLER)
    assert status == 200
    opened = slack.wait_for("views.open", predicate=lambda c: bearer(c) == token)
    assert opened[-1].ok


def upload_values(file: dict[str, Any] | None, pasted: str | None = None) -> dict[str, Any]:
    files = [file] if file is not None else []
    return {
        ids.SETUP_UPLOAD: {ids.SETUP_UPLOAD: {"type": "file_input", "files": files}},
        ids.SETUP_FILE: {ids.SETUP_FILE: sr.text_value(pasted)},
    }


def test_a_venue_file_uploaded_in_slack_sets_the_venue_up_and_a_foreign_url_is_not_fetched(
    two: Two, slack: SlackStandin, engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    team = two.team_c
    slack.set_user(INSTALLER, locale="en-US")
    install(two.url, slack, team, installer=INSTALLER)
    two.post(sr.app_home_opened_event(INSTALLER, team_id=team))
    home = home_of(slack, INSTALLER, 1)
    assert "Upload or paste a venue file" in blocks_text(home)
    two.post(
        sr.block_actions(
            actions=[sr.action(ids.SETUP_PASTE, "paste")],
            view=home,
            user_id=INSTALLER,
            team_id=team,
        )
    )
    modal = slack.wait_for("views.open")[-1].response["view"]
    assert modal["callback_id"] == ids.SETUP_PASTE_MODAL and "file_input" in blocks_text(modal)

    # Nothing chosen, a file from elsewhere, a file that is no venue file: refused, nothing written.
    before = engine.venue_ids()
    _, answer = two.post(
        sr.view_submission(upload_values(None), view=modal, user_id=INSTALLER, team_id=team)
    )
    assert "Upload a venue file" in json.loads(answer)["errors"][ids.SETUP_UPLOAD]
    foreign = {
        "id": "F0EVIL",
        "name": "v.toml",
        "url_private_download": "https://evil.example/v.toml",
    }
    _, answer = two.post(
        sr.view_submission(upload_values(foreign), view=modal, user_id=INSTALLER, team_id=team)
    )
    assert "not uploaded to Slack" in json.loads(answer)["errors"][ids.SETUP_UPLOAD]
    broken = slack.host_file("broken.toml", b'[venue]\nid = "x"\nname = "x"\n')
    _, answer = two.post(
        sr.view_submission(upload_values(broken), view=modal, user_id=INSTALLER, team_id=team)
    )
    assert "at least one [[rooms]]" in json.loads(answer)["errors"][ids.SETUP_FILE]
    assert engine.venue_ids() == before and engine.workspace_venues(team) == []

    # The venue file, uploaded: read once with the workspace's token, checked, saved, linked.
    raw = (Path(__file__).parents[2] / "bot" / "venue_templates" / "wedding_house.toml").read_text()
    raw = raw.replace('name = "ゲストハウス"', 'name = "森のゲストハウス"')
    uploaded = slack.host_file("mori.toml", raw.encode())
    status, answer = two.post(
        sr.view_submission(upload_values(uploaded), view=modal, user_id=INSTALLER, team_id=team)
    )
    assert status == 200 and answer == ""
    fetched = [c for c in slack.calls if c.method == "files"]
    assert [bearer(c) for c in fetched[-1:]] == [two.token(team)]
    (venue_id,) = engine.workspace_venues(team)
    venue = engine.venue(venue_id)
    assert venue is not None and venue.name == "森のゲストハウス" and INSTALLER in venue.managers
    assert set(venue.rooms) == {"hall", "garden", "chapel", "bridal"}
    assert audit_lines(sa_engine, venue_id)[0]["detail"]["source"] == "slack"
