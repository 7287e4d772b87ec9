"""The web table: the Discord Activity front (docs/web-table.md).

An ``aiohttp.web`` application on the bot's own event loop: the static page
(``static/``, the bundle built from ``web/``), card faces drawn as SVG
(:mod:`bot.web.cards`), the sign-in (:mod:`bot.web.signin`: Discord's OAuth2 code
exchange, or the offline demo's mock), short signed sessions
(:mod:`bot.web.session`) and one WebSocket per player (:mod:`bot.web.front`):
the seat's JSON projection after every commit the feed publishes, and actions
back through the same :func:`bot.tables.act.act` as the Discord buttons.
"""
