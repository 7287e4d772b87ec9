"""The bot: opens the database, builds the manager, registers commands and buttons."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from .cog import RuffCog
from .components import RHButton, RHSelect
from .config import Settings
from .i18n import _
from .locales import CommandTranslator, arrive
from .manager import GameManager
from .store import Database

log = logging.getLogger(__name__)


class RuffTree(app_commands.CommandTree[Any]):
    """The command tree: every slash command first sets the language of its answer
    (the user's Discord locale) and remembers that locale for the user's DMs."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        await arrive(interaction)
        return True


class RuffBot(commands.Bot):
    """``commands.Bot`` with the game manager attached as ``bot.manager``."""

    manager: GameManager
    db: Database

    def __init__(self, settings: Settings, *, sync_commands: bool = True) -> None:
        intents = discord.Intents.default()  # no privileged intents are needed
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None, tree_cls=RuffTree
        )
        self.settings = settings
        self.sync_commands = sync_commands
        self._db: Database | None = None

    async def setup_hook(self) -> None:
        self.db = self._db = await Database.open(
            self.settings.database, clock=lambda: discord.utils.utcnow().timestamp()
        )
        self.manager = GameManager(self, self.db, self.settings)
        await self.add_cog(RuffCog(self.manager))
        self.add_dynamic_items(RHButton, RHSelect)
        self.tree.error(self._on_tree_error)
        await self.tree.set_translator(CommandTranslator())
        if self.sync_commands:
            if self.settings.dev_guild_id:
                guild = discord.Object(id=self.settings.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
            else:
                synced = await self.tree.sync()
            log.info("synced %d application command(s)", len(synced))
        await self.manager.resume()

    async def _on_tree_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        log.exception("command failed", exc_info=error)
        text = _("Something went wrong — nothing was changed. Please try again.")
        if isinstance(error, app_commands.TransformerError):
            text = _("I could not understand that option: {value}.").format(value=repr(error.value))
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass

    async def close(self) -> None:
        manager = getattr(self, "manager", None)
        if manager is not None:
            await manager.close()
        await super().close()
        if self._db is not None:
            await self._db.close()
            self._db = None


def create_bot(settings: Settings, *, sync_commands: bool = True) -> RuffBot:
    return RuffBot(settings, sync_commands=sync_commands)
