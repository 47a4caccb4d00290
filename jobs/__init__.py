"""Dramatiq on Redis: sweep, outbox delivery, reminders, weekly digest, and the clock.

It imports ``core`` only (of ours). What it needs from elsewhere it is handed by
``cli.bootstrap``: the broker, the notice renderer (``bot.notices``), the transport (Slack DMs
through ``slack_post``, or the terminal through ``console``) and the recipients' languages.
"""
