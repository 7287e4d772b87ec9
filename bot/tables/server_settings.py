"""Per-server switches (``/ruff settings``), kept with
:class:`~bot.store.GuildSettingsRepo` and cached in memory.

Two switches:

* ``pictures`` — whether the table message carries a picture of the table and
  the final post a score chart. ``RH_PICTURES=off`` turns pictures off for the
  whole bot, whatever a server chose.
* ``language`` — the language of everything public at the server's tables (the
  table message, its thread's summaries and pings): ``en`` (the default) or
  ``de``. Private texts follow each player's own Discord language instead
  (bot/present/locales.py).

Only members with *Manage Server* may change a switch (the command is
``bot.discord_ui.options``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from bot.config import Settings
from bot.present.i18n import DEFAULT, LANGUAGES
from bot.store import GuildSettingsRepo, StoreError

log = logging.getLogger(__name__)

__all__ = ["ServerSettings"]

CACHED = 4096  # servers whose settings are kept in memory (a dict, cleared when full)


class ServerSettings:
    """Reads and changes a server's switches; reads are served from memory."""

    def __init__(self, repo: GuildSettingsRepo, settings: Settings) -> None:
        self.repo = repo
        self.settings = settings
        self._cache: dict[int, dict[str, Any]] = {}

    async def get(self, guild_id: int) -> dict[str, Any]:
        cached = self._cache.get(guild_id)
        if cached is not None:
            return cached
        try:
            stored = await self.repo.get(guild_id)
        except StoreError:
            log.warning(
                "could not read the settings of server %s; using the defaults",
                guild_id,
                exc_info=True,
            )
            return {}
        if len(self._cache) >= CACHED:
            self._cache.clear()
        self._cache[guild_id] = stored
        return stored

    async def preload(self, guild_ids: Iterable[int]) -> None:
        """Read the settings of ``guild_ids`` not in memory in one query (the servers
        of the tables resumed at a start), so each table's then costs no query."""
        missing = [g for g in set(guild_ids) if g not in self._cache]
        if not missing or len(self._cache) + len(missing) > CACHED:
            return
        try:
            self._cache.update(await self.repo.get_many(missing))
        except StoreError:
            log.warning("could not read the servers' settings; read one by one", exc_info=True)

    async def pictures(self, guild_id: int) -> bool:
        """Whether tables in this server show pictures (the bot-wide switch first)."""
        if not self.settings.pictures:
            return False
        return bool((await self.get(guild_id)).get("pictures", True))

    async def language(self, guild_id: int) -> str:
        """The language of this server's tables (``en`` unless a manager chose another)."""
        language = str((await self.get(guild_id)).get("language", DEFAULT))
        return language if language in LANGUAGES else DEFAULT

    async def change(self, guild_id: int, changes: dict[str, Any]) -> None:
        """Change this server's switches (a value of None: back to the default). Raises
        a store error when they could not be saved (nothing changed)."""
        self._cache[guild_id] = await self.repo.update(guild_id, changes)
