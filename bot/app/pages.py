"""The pages-only process (``python -m bot --pages-only``, ``RH_PAGES_ONLY=on``): a bot
process that serves the web table and nothing else, beside the game processes.

It logs in to Discord's HTTP API only (the sign-in's activity-instance look-ups, the
messages a page's lobby change sends) and connects to **no gateway shard**: no
interaction, no DM, no server's events arrive here. Its :class:`~bot.cluster.sync.Cluster`
holds **no table's lease, ever** (not a new table, not an expired lease, not an old
table: those are the game processes'), so it runs no AI and no timer. A page opened
here loads a copy of its channel's table and follows it over PostgreSQL's
notifications; a player's move from a page commits through the same ``act()`` as a
button (a player's move needs no lease) and the table's owner, told by the database,
shows it in Discord and arms what comes next. So the game processes never carry a
page: the web table's CPU is this process's (docs/operations.md, "The web table (the
Discord Activity) at scale").

It needs PostgreSQL shared with the game processes (with SQLite there is one process,
which serves the pages itself) and the web table's settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

from bot.app.client import RuffBot
from bot.config import Settings, env_name
from bot.store import is_postgresql_url

log = logging.getLogger(__name__)

__all__ = ["refusal", "serve"]


def refusal(settings: Settings) -> str | None:
    """Why ``settings`` cannot run a pages-only process (one line), or None."""
    if not is_postgresql_url(settings.database):
        return (
            f"--pages-only needs {env_name('database')} to be a postgresql:// URL shared with "
            "the game processes (with SQLite there is one process: set RH_WEB_PORT on it "
            "instead)"
        )
    if settings.web_port is None:
        return (
            f"--pages-only serves the web table: set {env_name('web_port')} (and "
            f"{env_name('client_id')}, {env_name('client_secret')}, "
            f"{env_name('web_session_secret')}; see docs/web-table.md)"
        )
    if settings.client_id is None and not settings.web_mock_auth:
        return (
            f"--pages-only serves the web table: set {env_name('client_id')} and "
            f"{env_name('client_secret')} (its sign-in; see docs/web-table.md)"
        )
    if settings.client_id is not None and not settings.client_secret:
        return (
            f"--pages-only serves the web table: set {env_name('client_secret')} "
            "(its sign-in exchanges the OAuth2 code with it)"
        )
    return None


async def serve(bot: RuffBot, token: str, stop: asyncio.Event | None = None) -> None:
    """Log ``bot`` in over HTTP (which opens the database, resumes nothing of its own,
    starts the web table), serve until ``stop`` is set (SIGTERM or Ctrl-C when not
    given), then close it: the pages go, the database closes."""
    problem = refusal(bot.settings)
    if problem is not None:
        raise ValueError(problem)
    if stop is None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
    async with bot:  # closes the bot (the web table, the manager, the database) at the end
        await bot.login(token)  # HTTP only: no gateway connection, no shard
        log.info(
            "pages-only process: the web table on port %s, no gateway shard",
            bot.web.port if bot.web is not None else "?",
        )
        await stop.wait()
