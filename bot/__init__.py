"""The Slack surface of osae (slack-bolt). It calls ``core``, never SQL.

Entry points (wired by ``jobs.processes`` into ``osae web`` / ``osae serve``):
``app.build_app`` the Bolt app; ``web.build_wsgi`` / ``web.serve`` / ``web.Server`` HTTP;
``socket_mode.run_socket_mode``; ``notices.render_notice`` / ``render_failure_report`` the DMs
the jobs send; ``locales.UserLocales`` each user's language.

At the edge: ``gate`` the trust boundary in front of Bolt (signature first, then the body
parsed by field and shape-checked by ``payloads``); ``strict`` the readers of ids, numbers,
dates and times; ``texts.esc`` the one escape for typed text.

Inside: ``listeners/`` one module per surface (commands, modal, buttons, cancel, home), each
with ``register(app, deps)``; ``views/`` the Block Kit of modals, App Home and messages;
``cards`` a hold as it reads everywhere; ``quickform`` the ``/hold 鳳凰 5/15 ...`` parser;
``form`` the modal's state; ``preview`` the one-line rank preview; ``ids`` every Block Kit id;
``texts/`` the ja / en catalogs.
"""
