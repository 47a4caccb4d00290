"""Many workspaces (Add to Slack): two workspaces install osae through Bolt's OAuth flow on
the real HTTP endpoint; each one's commands, cards and DMs go out with its own token; one
uninstalls, and its requests are refused with nothing written and its notices wait, while
the other keeps working; a token about to expire is refreshed once, on the real clock.

Real PostgreSQL (installations in slack_sdk's SQLAlchemy store, tables by migration 0008),
the Slack stand-in answering oauth.v2.access, auth.test and apps.uninstall, requests signed
as Slack signs them.
"""

from __future__ import annotations

import json
import secrets
import threading
import time

import sqlalchemy as sa
from slack_sdk import WebClient

from bot import ids
from cli import installs
from core.engine import HoldEngine
from core.model import WorkspaceLink
from core.results import RequestAnswer
from tests.bot.conftest import values
from tests.jobs.conftest import MovingClock
from tests.jobs.scenarios import SECOND, promote, rows
from tests.jobs.workspaces import INSTALLER_A, INSTALLER_B, SECRET, Two, bearer, two
from tests.support import factories, fingerprint
from tests.support import slack_requests as sr
from tests.support.installing import install
from tests.support.slack_oauth import CLIENT_ID, CLIENT_SECRET, LIFETIME
from tests.support.slack_standin import SlackStandin

__all__ = ["two"]  # the fixture


def test_two_workspaces_each_with_its_own_token_and_one_uninstalls(
    two: Two, slack: SlackStandin, engine: HoldEngine, sa_engine: sa.Engine, clock: MovingClock
) -> None:
    for team, installer in ((two.team_a, INSTALLER_A), (two.team_b, INSTALLER_B)):
        done = install(two.url, slack, team, installer=installer)
        assert "Add to Slack" in done.install_page.text
        assert f"client_id={CLIENT_ID}" in done.authorize_url and "commands" in done.authorize_url
        assert done.finished.status == 200 and "Thank you!" in done.finished.text
    token_a, token_b = two.token(two.team_a), two.token(two.team_b)
    assert token_a != token_b
    exchanges = slack.calls_to("oauth.v2.access")
    assert [c.body.get("code", "").startswith("code-") for c in exchanges] == [True, True]

    # Commands: each workspace's modal is opened with its own token.
    for team, user, token in (
        (two.team_a, INSTALLER_A, token_a),
        (two.team_b, INSTALLER_B, token_b),
    ):
        status, _ = two.command(team, user)
        assert status == 200
        opened = slack.wait_for("views.open", predicate=lambda c, t=token: bearer(c) == t)
        assert opened[-1].ok
    # Cards and DMs: each venue's rows go out with its workspace's token, to its channel.
    courier = two.runtime.courier()
    for hotel, token, channel in (
        (two.hotel_a, token_a, "C0HOTELA"),
        (two.hotel_b, token_b, "C0HOTELB"),
    ):
        slack.clear()
        promote(engine, hotel, clock())
        card = engine.request(
            hotel.id, factories.request(room="sakura"), now=clock(), announce=True
        )
        assert isinstance(card, RequestAnswer)
        courier.drain(hotel.id)
        posts = slack.calls_to("chat.postMessage")
        assert {bearer(c) for c in posts} == {token}
        assert {c.body["channel"] for c in posts} == {SECOND, channel}
        assert all(c.ok for c in posts)

    # Workspace B removes osae: Slack revokes its tokens and tells the app.
    assert WebClient(token=token_b, base_url=slack.base_url).apps_uninstall(
        client_id=CLIENT_ID, client_secret=CLIENT_SECRET
    )["ok"]
    status, _, _ = sr.post(
        f"{two.url}/slack/events",
        sr.event_callback(
            {"type": "app_uninstalled", "event_ts": sr.action_ts()}, team_id=two.team_b
        ),
        SECRET,
    )
    assert status == 200
    stores = two.runtime.stores()
    deadline = time.monotonic() + 10
    while stores.installations.find_installation(enterprise_id=None, team_id=two.team_b):
        assert time.monotonic() < deadline, "app_uninstalled left B's installation stored"
        time.sleep(0.05)
    assert stores.installations.find_bot(enterprise_id=None, team_id=two.team_b) is None

    # B's requests are refused with nothing written; B's notices wait; A keeps working.
    before = fingerprint.tables(sa_engine, two.hotel_b.id)
    slack.clear()
    status, _ = two.command(two.team_b, INSTALLER_B)
    assert status == 200
    told = str(slack.responses(two.team_b)[-1].body.get("text"))
    assert "インストールされていない" in told and "not installed" in told
    assert slack.calls_to("views.open") == []
    assert fingerprint.tables(sa_engine, two.hotel_b.id) == before
    waiting = engine.request(
        two.hotel_b.id,
        factories.request(room="hoo", start="18:00", end="20:00"),
        now=clock(),
        announce=True,
    )
    assert isinstance(waiting, RequestAnswer)
    pending = len(engine.notices(two.hotel_b.id, status="pending"))
    assert pending >= 1
    assert courier.drain(two.hotel_b.id).sent == 0
    assert len(engine.notices(two.hotel_b.id, status="pending")) == pending
    assert engine.notices(two.hotel_b.id, status="failed") == []
    assert slack.calls_to("chat.postMessage") == []

    status, _ = two.command(two.team_a, INSTALLER_A)
    assert status == 200
    assert bearer(slack.wait_for("views.open")[-1]) == token_a
    engine.request(
        two.hotel_a.id,
        factories.request(room="hoo", start="18:00", end="20:00"),
        now=clock(),
        announce=True,
    )
    assert courier.drain(two.hotel_a.id).sent >= 1
    assert {bearer(c) for c in slack.calls_to("chat.postMessage")} == {token_a}
    assert rows(engine, two.hotel_a, "failed") == []


def test_a_token_about_to_expire_is_refreshed_once_not_per_call(
    two: Two, slack: SlackStandin, engine: HoldEngine, clock: MovingClock
) -> None:
    # Its first token enters Bolt's refresh window (the last 120 minutes) 3 s from now.
    slack.installs.lifetime = installs.REFRESH_MINUTES * 60 + 3
    install(two.url, slack, two.team_a, installer=INSTALLER_A)
    slack.installs.lifetime = LIFETIME
    first = two.token(two.team_a)
    issued = time.time()
    status, _ = two.command(two.team_a, INSTALLER_A)
    assert status == 200
    assert bearer(slack.wait_for("views.open")[-1]) == first
    assert not [c for c in slack.calls_to("oauth.v2.access") if c.body.get("grant_type")]

    time.sleep(max(0.0, issued + 3.5 - time.time()))
    courier = two.runtime.courier()
    # A burst as the token enters its window: commands and a drain at the same moment.
    promote(engine, two.hotel_a, clock(), day=factories.DAY.replace(day=1))
    start = threading.Barrier(5)

    def command() -> None:
        start.wait()
        assert two.command(two.team_a, INSTALLER_A)[0] == 200

    def drain() -> None:
        start.wait()
        courier.drain(two.hotel_a.id)

    burst = [threading.Thread(target=command) for _ in range(4)] + [threading.Thread(target=drain)]
    for thread in burst:
        thread.start()
    for thread in burst:
        thread.join(timeout=30)
    slack.wait_for("views.open", 5)
    for n in range(2):  # and calls after it
        status, _ = two.command(two.team_a, INSTALLER_A)
        assert status == 200
        slack.wait_for("views.open", n + 6)
        promote(engine, two.hotel_a, clock(), day=factories.DAY.replace(day=n + 2))
        courier.drain(two.hotel_a.id)
    refreshes = [c for c in slack.calls_to("oauth.v2.access") if c.body.get("grant_type")]
    assert len(refreshes) == 1, "refreshed once, not per call"
    assert refreshes[0].body["grant_type"] == "refresh_token"
    second = two.token(two.team_a)
    assert second != first
    later = [c for c in slack.calls if c.at > refreshes[0].at and c.method != "oauth.v2.access"]
    assert later and {bearer(c) for c in later} == {second}


def test_a_hotel_group_workspace_asks_which_venue_and_holds_go_to_the_chosen_one(
    two: Two, slack: SlackStandin, engine: HoldEngine, clock: MovingClock
) -> None:
    install(two.url, slack, two.team_a, installer=INSTALLER_A)
    second = engine.save_venue(factories.venue(name="ホテルA 別館"), now=clock())
    engine.link_workspace(WorkspaceLink(second.id, two.team_a), now=clock())
    first = two.hotel_a
    group = sorted([first.id, second.id])
    assert engine.workspace_venues(two.team_a) == group

    status, _ = two.command(two.team_a, INSTALLER_A)
    assert status == 200
    form = slack.wait_for("views.update")[-1].response["view"]
    pick = next(b for b in form["blocks"] if b.get("block_id") == ids.VENUE_PICK)
    names = {o["text"]["text"] for o in pick["accessory"]["options"]}
    assert names == {"ホテルA", "ホテルA 別館"}
    assert pick["accessory"]["initial_option"]["value"] == group[0]

    chosen = group[1]
    picked = sr.action(
        ids.VENUE_PICK,
        block_id=ids.VENUE_PICK,
        action_type="static_select",
        selected_option=sr.option(chosen),
    )
    two.post(sr.block_actions(actions=[picked], view=form, user_id=INSTALLER_A, team_id=two.team_a))
    redrawn = slack.wait_for("views.update", 2)[-1].response["view"]
    pick = next(b for b in redrawn["blocks"] if b.get("block_id") == ids.VENUE_PICK)
    assert pick["accessory"]["initial_option"]["value"] == chosen
    assert engine.chosen_venue(INSTALLER_A, group) == chosen

    status, _ = two.post(
        sr.view_submission(
            values(salesperson=INSTALLER_A), view=redrawn, user_id=INSTALLER_A, team_id=two.team_a
        )
    )
    assert status == 200
    other = group[0]
    assert [h.customer for h in engine.holds(chosen)] == ["山田様"]
    assert engine.holds(other) == []

    # App Home offers the same choice.
    two.post(sr.app_home_opened_event(INSTALLER_A, team_id=two.team_a))
    home = slack.wait_for("views.publish")[-1].response["view"]
    assert ids.VENUE_PICK in json.dumps(home["blocks"])


def test_an_org_wide_install_serves_each_workspace_of_the_org_with_the_orgs_token(
    two: Two, slack: SlackStandin, engine: HoldEngine, clock: MovingClock
) -> None:
    org = f"E0ORG{secrets.token_hex(3).upper()}"
    done = install(two.url, slack, None, installer=INSTALLER_A, enterprise_id=org)
    assert done.finished.status == 200 and "Thank you!" in done.finished.text
    stored = two.runtime.stores().installations.find_installation(
        enterprise_id=org, team_id=None, is_enterprise_install=True
    )
    assert stored is not None and stored.is_enterprise_install and stored.team_id is None
    token = stored.bot_token
    venue = engine.save_venue(
        factories.venue(name="グループ本館", sales_channel="C0ORG01"), now=clock()
    )
    engine.link_workspace(WorkspaceLink(venue.id, org, org, org_wide=True), now=clock())

    # A /hold from one workspace of the org, as Slack sends it for an org-wide install.
    fields = sr.form_fields(
        sr.slash_command(
            team_id="T0ORGTEAM1", user_id=INSTALLER_A, response_url=slack.response_url("org")
        )
    )
    fields.update({"enterprise_id": org, "enterprise_name": org, "is_enterprise_install": "true"})
    status, _ = two.post(sr.form_body(fields))
    assert status == 200
    opened = slack.wait_for("views.open")[-1]
    assert opened.ok and bearer(opened) == token

    # Its notices go out with the org's token too.
    asked = engine.request(venue.id, factories.request(room="sakura"), now=clock(), announce=True)
    assert isinstance(asked, RequestAnswer)
    assert two.runtime.courier().drain(venue.id).sent >= 1
    card = slack.last("chat.postMessage")
    assert card.ok and card.body["channel"] == "C0ORG01" and bearer(card) == token


def test_tokens_revoked_deletes_the_bot_token_and_the_venues_notices_wait(
    two: Two, slack: SlackStandin, engine: HoldEngine, clock: MovingClock
) -> None:
    install(two.url, slack, two.team_a, installer=INSTALLER_A)
    tokens = two.runtime.workspace_dms()
    assert tokens(two.hotel_a.id) is not None
    revoked = {
        "type": "tokens_revoked",
        "tokens": {"bot": ["U0BOTXXXX"]},
        "event_ts": sr.action_ts(),
    }
    status, _ = two.post(sr.event_callback(revoked, team_id=two.team_a))
    assert status == 200
    stores = two.runtime.stores()
    deadline = time.monotonic() + 10
    while stores.installations.find_bot(enterprise_id=None, team_id=two.team_a) is not None:
        assert time.monotonic() < deadline, "tokens_revoked left the bot token stored"
        time.sleep(0.05)
    assert tokens(two.hotel_a.id) is None
    engine.request(two.hotel_a.id, factories.request(room="sakura"), now=clock(), announce=True)
    waiting = len(engine.notices(two.hotel_a.id, status="pending"))
    slack.clear()
    assert two.runtime.courier().drain(two.hotel_a.id).sent == 0
    assert len(engine.notices(two.hotel_a.id, status="pending")) == waiting >= 1
    assert slack.calls_to("chat.postMessage") == []
