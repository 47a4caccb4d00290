"""One post a second per conversation (Slack's chat.postMessage rule): a burst to the sales
channel goes out at that pace, from several threads, without meeting a 429; other
conversations do not wait for it."""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass

from slack_sdk import WebClient

from bot.locales import UserLocales
from jobs.slack_post import ChannelPacer, SlackDM
from jobs.transport import Delivered
from tests.support.slack_standin import SlackStandin


@dataclass(frozen=True)
class Text:
    text: str
    blocks: tuple[dict[str, object], ...] = ()


def test_a_burst_to_one_channel_goes_out_a_second_apart_and_others_do_not_wait() -> None:
    # Slack lets a conversation burst a little above one a second; what arrives a few ms
    # early is not refused there either.
    with SlackStandin(per_channel_rate=1.0, per_channel_burst=2) as slack:
        client = WebClient(token="xoxb-test", base_url=slack.base_url, retry_handlers=[])
        dm = SlackDM(client, UserLocales(client), timeout=5, pacer=ChannelPacer())
        outcomes: list[object] = []

        def post(n: int) -> None:
            outcomes.append(dm.send("C0SALES01", Text(f"card {n}")))

        threads = [threading.Thread(target=post, args=(n,)) for n in range(5)]
        for thread in threads:
            thread.start()
        other = dm.send("C0OTHER01", Text("elsewhere"))
        for thread in threads:
            thread.join(timeout=15)

        assert all(isinstance(o, Delivered) for o in [*outcomes, other])
        posts = [c for c in slack.calls_to("chat.postMessage") if c.body["channel"] == "C0SALES01"]
        assert [c.status for c in posts] == [200] * 5, "no 429 met"
        gaps = [b.at - a.at for a, b in itertools.pairwise(posts)]
        assert min(gaps) >= 0.9, gaps
        first = next(
            c for c in slack.calls_to("chat.postMessage") if c.body["channel"] == "C0OTHER01"
        )
        assert first.at - posts[0].at < 0.9, "another channel waited for the burst"


def test_without_the_pacer_slack_answers_429_with_retry_after() -> None:
    with SlackStandin(per_channel_rate=1.0, per_channel_burst=2) as slack:
        client = WebClient(token="xoxb-test", base_url=slack.base_url, retry_handlers=[])
        dm = SlackDM(client, UserLocales(client), timeout=5)
        sent = [dm.send("C0SALES01", Text(str(n))) for n in range(3)]
        assert all(isinstance(o, Delivered) for o in sent[:2])
        assert getattr(sent[2], "retry_after", None) == 1.0
