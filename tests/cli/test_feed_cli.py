"""Calendar feeds: `osae feed url|rotate` and `GET /calendar/<token>.ics` from the real web
server (waitress), parsed by the ``icalendar`` library and compared with the live holds."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import pytest

from bot.feeds import CalendarFeeds
from bot.web import Server, build_wsgi
from cli.bootstrap import database_url, hold_engine
from cli.settings import Settings
from tests.cli.test_cli import NOW, hold, loaded, run

__all__ = ["loaded"]  # the fixture, used by name

TOKYO = ZoneInfo("Asia/Tokyo")


@pytest.fixture
def served(loaded: str) -> Iterator[tuple[str, str]]:
    """(database url, base url of a running `osae web`'s calendar route)."""
    engine = hold_engine(database_url(Settings(database_url=loaded)))
    feeds = CalendarFeeds(engine, lambda: datetime(2027, 3, 1, tzinfo=UTC))
    with Server(build_wsgi(None, lambda: (True, {}), feeds)) as server:
        yield loaded, server.url
    engine.close()


def get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)  # noqa: S310 - our own server
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
    except urllib.error.HTTPError as err:
        return err.code, {k.lower(): v for k, v in err.headers.items()}, err.read()


def feed_path(url: str, *which: str, rotate: bool = False) -> str:
    code, answer = run(url, "feed", "rotate" if rotate else "url", *which)
    assert code == 0 and answer["ok"], answer
    return "/calendar/" + answer["url"].rsplit("/calendar/", 1)[1]


def live(url: str) -> list[dict[str, Any]]:
    code, listed = run(url, "hold", "list", "--all")
    assert code == 0
    return [h for h in listed["holds"] if h["status"] in ("tentative", "confirmed")]


def expected(holds: list[dict[str, Any]]) -> dict[str, tuple[Any, ...]]:
    """What each event must say, by UID: one per room of each live hold."""
    found = {}
    for h in holds:
        state = "本予約" if h["status"] == "confirmed" else f"{h['rank']}番手"
        for n, item in enumerate(h["items"], start=1):
            found[f"hold-{h['id']}-{n}@grand-tokyo.osae"] = (
                f"{item['room_name']} {h['customer']}（{state}）",
                "CONFIRMED" if h["status"] == "confirmed" else "TENTATIVE",
                datetime.fromisoformat(item["start_at"]),
                datetime.fromisoformat(item["end_at"]),
                datetime.fromisoformat(h["expires_at"]) if h["expires_at"] else None,
            )
    return found


def events(body: bytes) -> dict[str, tuple[Any, ...]]:
    cal = icalendar.Calendar.from_ical(body)
    found = {}
    for event in cal.walk("VEVENT"):
        alarms = [a for a in event.subcomponents if a.name == "VALARM"]
        trigger = alarms[0].decoded("trigger") if alarms else None
        start, end = event.decoded("dtstart"), event.decoded("dtend")
        assert str(start.tzinfo) == "Asia/Tokyo" and event["dtstart"].params["TZID"] == "Asia/Tokyo"
        found[str(event["uid"])] = (str(event["summary"]), str(event["status"]), start, end,
                                    trigger)  # fmt: skip
    return found


def test_the_venue_feed_is_the_live_holds_and_follows_each_change(
    served: tuple[str, str],
) -> None:
    url, base = served
    assert hold(url, "--contact", "090-0000-1111")[0] == 0  # #1 1st 鳳凰の間
    assert hold(url, "--customer", "佐藤様", "--salesperson", "U0SALES002")[0] == 0  # #2 2nd
    code, _ = run(url, "hold", "request", "--room", "sakura", "--date", "2027-05-11",
                  "--start", "12:30", "--end", "15:30", "--also", "chapel,11:00,12:00",
                  "--kind", "wedding", "--customer", "鈴木様", "--salesperson", "U0SALES001",
                  "--now", NOW)  # fmt: skip
    assert code == 0
    path = feed_path(url, "--venue")
    status, headers, body = get(base + path)
    assert status == 200 and headers["content-type"].startswith("text/calendar")
    assert events(body) == expected(live(url)) and len(events(body)) == 4
    cal = icalendar.Calendar.from_ical(body)
    assert [str(z["tzid"]) for z in cal.walk("VTIMEZONE")] == ["Asia/Tokyo"]
    assert b"090-0000-1111" not in body  # never the contact
    etag = headers["etag"]

    # Nothing changed: 304, by ETag or by date, without a body.
    status, again, empty = get(base + path, **{"If-None-Match": etag})
    assert (status, empty, again["etag"]) == (304, b"", etag)
    status, _, _ = get(base + path, **{"If-Modified-Since": headers["last-modified"]})
    assert status == 304

    # Confirm #1: it is CONFIRMED, its 2nd (#2) lost the slot and drops out.
    assert run(url, "hold", "confirm", "1", "--actor", "U0SALES001", "--now", NOW)[0] == 0
    status, changed, body = get(base + path, **{"If-None-Match": etag})
    assert status == 200 and changed["etag"] != etag
    now_live = events(body)
    assert now_live == expected(live(url))
    assert now_live["hold-1-1@grand-tokyo.osae"][1] == "CONFIRMED"
    assert not any(uid.startswith("hold-2-") for uid in now_live)

    # An edit in place: same UID, the new customer in its summary.
    code, shown = run(url, "hold", "show", "3")
    code, _ = run(url, "hold", "edit", "3", "--actor", "U0SALES001", "--customer", "鈴木家",
                  "--version", str(shown["hold"]["version"]), "--now", NOW)  # fmt: skip
    assert code == 0
    _, _, body = get(base + path)
    assert events(body)["hold-3-1@grand-tokyo.osae"][0].startswith("桜の間 鈴木家")
    assert events(body) == expected(live(url))

    # A release: the package's two rooms drop out.
    assert run(url, "hold", "release", "3", "--actor", "U0SALES001", "--now", NOW)[0] == 0
    _, _, body = get(base + path)
    assert set(events(body)) == {"hold-1-1@grand-tokyo.osae"}


def test_a_salespersons_feed_has_theirs_with_the_deadline_as_an_alarm(
    served: tuple[str, str],
) -> None:
    url, base = served
    hold(url)
    hold(url, "--customer", "佐藤様", "--salesperson", "U0SALES002", "--date", "2027-05-13")
    _, _, body = get(base + feed_path(url, "--salesperson", "U0SALES001"))
    mine = events(body)
    assert list(mine) == ["hold-1-1@grand-tokyo.osae"]
    summary, status, start, _, alarm = mine["hold-1-1@grand-tokyo.osae"]
    assert (summary, status) == ("鳳凰の間 山田様（1番手）", "TENTATIVE")
    assert start == datetime(2027, 5, 12, 11, 0, tzinfo=TOKYO)
    assert alarm == datetime(2027, 3, 8, 9, 0, tzinfo=TOKYO)  # its deadline
    # The URL is shown again unchanged, until it is rotated.
    assert feed_path(url, "--salesperson", "U0SALES001") == feed_path(
        url, "--salesperson", "U0SALES001"
    )


def test_unknown_and_rotated_tokens_get_a_bare_404(served: tuple[str, str]) -> None:
    url, base = served
    hold(url)
    old = feed_path(url, "--venue")
    assert get(base + old)[0] == 200
    new = feed_path(url, "--venue", rotate=True)
    assert new != old
    for path in (old, "/calendar/" + "A" * 43 + ".ics", "/calendar/short.ics", "/calendar/"):
        status, headers, body = get(base + path)
        assert (status, body) == (404, b""), path
        assert "etag" not in headers and "content-type" not in headers
    assert get(base + new)[0] == 200
