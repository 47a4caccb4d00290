"""What `osae serve` tells a newcomer: how to try it without Slack, and how to connect Slack.

The try-it commands are the README's ("The engine from the terminal"), with dates taken
relative to today by `date`, so they work whenever they are pasted.
"""

from __future__ import annotations

from bot.texts import DEFAULT_LOCALE, lang, text
from cli.settings import Settings

DEMO_VENUE = "grand-tokyo"  # examples/venue.toml, which `osae serve` loads into a new database


def without_slack(settings: Settings, venue_ids: list[str], manifest: str) -> str:
    """Printed once when `osae serve` runs in console mode, in the terminal's language."""
    code = lang(settings.language)
    lines = ["", text(code, "tour.without_slack"), *languages(settings)]
    if DEMO_VENUE in venue_ids:
        venue = ["--venue", DEMO_VENUE] if len(venue_ids) > 1 else []
        lines += [
            "",
            text(code, "tour.try_it"),
            "",
            *(f"  {line}" for line in try_it(settings, venue)),
        ]
    lines += ["", *connect_slack_briefly(settings, manifest), ""]
    return "\n".join(lines)


def languages(settings: Settings) -> list[str]:
    """Why cards and DMs may print in two languages: as in Slack, a card is the sales
    channel's (its language: OSAE_LANG, else ja) and a DM its reader's (here the terminal's)."""
    channel, terminal = lang(settings.report_locale), lang(settings.language or DEFAULT_LOCALE)
    readers = {terminal, *(lang(v) for v in settings.console_languages.values())}
    if readers == {channel}:
        return []
    return [text(settings.language, "tour.languages", channel=channel, terminal=terminal)]


def try_it(settings: Settings, venue: list[str]) -> list[str]:
    """Shell lines: two holds on one slot 60 days ahead, the 1st's deadline a minute away."""
    hold = [*venue, "hold", "request", "--room", "hoo", "--date", "$day"]
    hold += ["--start", "11:00", "--end", "15:00", "--kind", "wedding"]
    return [
        "day=$(date -d '+60 days' +%F)",
        settings.command(*hold, "--customer", "山田様", "--salesperson", "U0SALES001") + " \\",
        "    --now \"$(date -d '-7 days +1 minute' -Iseconds)\"",
        settings.command(*hold, "--customer", "佐藤様", "--salesperson", "U0SALES002"),
        settings.command(*venue, "hold", "list", "--date", "$day"),
        f"sleep 65; {settings.command(*venue, 'sweep')}"
        f"   {text(settings.language, 'tour.sweep_comment')}",
    ]


def connect_slack_briefly(settings: Settings, manifest: str) -> list[str]:
    serve = settings.command("serve")
    return [
        text(settings.language, "tour.connect", manifest=manifest),
        f"  Socket Mode: SLACK_BOT_TOKEN=xoxb-... SLACK_APP_TOKEN=xapp-... {serve}",
        f"  HTTP:        SLACK_BOT_TOKEN=xoxb-... SLACK_SIGNING_SECRET=... {serve}",
        text(settings.language, "tour.connect_where"),
    ]


def connect_slack(command: str, manifest: str, language: str | None) -> str:
    """The steps from nothing to a connected Slack app, in ``language``."""
    return text(language, "tour.connect_steps", command=command, manifest=manifest)
