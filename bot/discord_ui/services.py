"""The shared parts as the Discord front needs them: the table layer's
:class:`~bot.tables.services.Services` and the Discord client with its coalesced
output (:class:`~bot.present.notify.Notifier`)."""

from __future__ import annotations

import discord

from bot.config import Settings
from bot.present.notify import Notifier
from bot.store import Database
from bot.tables.aipool import AIPool
from bot.tables.services import Services

__all__ = ["DiscordServices"]


class DiscordServices(Services):
    """:class:`Services`, and the client and notifier every Discord output goes through."""

    def __init__(
        self, client: discord.Client, db: Database, settings: Settings, ai: AIPool
    ) -> None:
        super().__init__(db, settings, ai)
        self.client = client
        self.notifier = Notifier(client, settings.table_edit_interval)
        self.now = _discord_now  # the timers run by Discord's clock (a simulator's in tests)


def _discord_now() -> float:
    return discord.utils.utcnow().timestamp()
