"""Per-server switches (``/ruff settings``), kept with
:class:`~bot.store.GuildSettingsRepo` and cached in memory.

Today one switch: ``pictures`` — whether the table message carries a picture
of the table and the final post a score chart. ``RH_PICTURES=off`` turns
pictures off for the whole bot, whatever a server chose. Only members with
*Manage Server* may change a switch.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

import discord

from .config import Settings
from .replies import refuse, reply
from .store import GuildSettingsRepo, StoreError

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
        except (StoreError, sqlite3.Error):
            log.warning("could not read the settings of server %s; using the defaults", guild_id, exc_info=True)
            return {}
        if len(self._cache) >= CACHED:
            self._cache.clear()
        self._cache[guild_id] = stored
        return stored

    async def pictures(self, guild_id: int) -> bool:
        """Whether tables in this server show pictures (the bot-wide switch first)."""
        if not self.settings.pictures:
            return False
        return bool((await self.get(guild_id)).get("pictures", True))

    async def settings_command(self, interaction: discord.Interaction[Any], pictures: bool | None) -> None:
        """``/ruff settings [pictures:on|off]``: show or change this server's switches."""
        guild = interaction.guild
        if guild is None:
            await refuse(interaction, "Settings are per server — use this in a server channel.")
            return
        perms = getattr(interaction.user, "guild_permissions", None)
        if pictures is not None and not (perms is not None and perms.manage_guild):
            await refuse(interaction, "Only members with **Manage Server** can change this server's settings.")
            return
        if pictures is not None:
            try:
                stored = await self.repo.update(guild.id, {"pictures": pictures})
            except (StoreError, sqlite3.Error):
                log.exception("could not save the settings of server %s", guild.id)
                await refuse(interaction, "The settings could not be saved — nothing changed. Please try again.")
                return
            self._cache[guild.id] = stored
        on = await self.pictures(guild.id)
        text = f"⚙️ Settings of **{guild.name}** — pictures: **{'on' if on else 'off'}**"
        if not self.settings.pictures:
            text += " (turned off for the whole bot by its host: `RH_PICTURES=off`)"
        elif pictures is not None:
            text += " — from the next change of each table." if on else " — tables show text only from their next change."
        await reply(interaction, text)
