"""The Slack surface of osae (slack-bolt). It imports ``core`` only (of ours), never SQL.

Entry points (built by ``cli.bootstrap`` and run by ``osae web`` / ``osae serve``):
``app.build_app`` the Bolt app; ``web.build_wsgi`` / ``web.Server`` HTTP;
``socket_mode.run_socket_mode``; ``notices.render_notice`` / ``render_failure_report`` the DMs
the jobs send (handed to them by the root); ``locales.UserLocales`` each user's language.

At the edge: ``gate`` the trust boundary in front of Bolt (signature first, then the body
parsed by field and shape-checked by ``payloads``); ``strict`` the readers of ids, numbers,
dates and times; ``texts.esc`` the one escape for typed text.

Inside: ``listeners/`` one module per surface (commands, modal, buttons, cancel, home), each
with ``register(app, deps)`` and listeners ``handler(deps, args)`` that parse, call core and
reply; ``deps`` what they share; ``views/`` the Block Kit of modals, App Home and messages;
``cards`` a hold as it reads everywhere; ``quickform`` the ``/hold 鳳凰 5/15 ...`` parser;
``form`` the modal's inputs; ``metadata`` what a modal remembers (private_metadata);
``preview`` the one-line rank preview; ``replies`` and ``homes`` answering after an action;
``ids`` every Slack id; ``texts/`` the ja / en catalogs and ``DEFAULT_LOCALE``.
"""
