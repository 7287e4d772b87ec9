"""The bot: opens the database, builds the manager, registers commands and buttons."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.cog import RuffCog
from bot.app.manager import GameManager
from bot.config import Settings
from bot.features import Feature, install
from bot.present import suit_emojis
from bot.present.components import RHButton, RHSelect, bind
from bot.present.i18n import _
from bot.present.locales import CommandTranslator, Remembers, arrive
from bot.store import Database
from bot.web.server import WebTable

log = logging.getLogger(__name__)


class RuffTree(app_commands.CommandTree[Any]):
    """The command tree: every slash command first sets the language of its answer
    (the user's Discord locale) and remembers that locale for the user's DMs
    (``locales``, the manager's, set by the client once it is built)."""

    locales: Remembers | None = None

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        await arrive(interaction, self.locales)
        return True


class RuffBot(commands.Bot):
    """``commands.Bot`` with the game manager attached as ``bot.manager``."""

    manager: GameManager
    db: Database

    def __init__(self, settings: Settings, *, sync_commands: bool = True, **options: Any) -> None:
        intents = discord.Intents.default()  # no privileged intents are needed
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=RuffTree,
            **options,
        )
        self.settings = settings
        self.sync_commands = sync_commands
        self._db: Database | None = None
        self.web: WebTable | None = None  # the web table (RH_WEB_PORT), started with the bot

    async def setup_hook(self) -> None:
        self.db = self._db = await Database.open(
            self.settings.database, clock=lambda: discord.utils.utcnow().timestamp()
        )
        if self.settings.card_emojis:  # the card buttons' suit marks (text labels if refused)
            await suit_emojis.install(self)
        else:
            suit_emojis.clear()
        self.manager = GameManager(self, self.db, self.settings)
        if isinstance(self.tree, RuffTree):
            self.tree.locales = self.manager.user_locales
        cog = RuffCog(self.manager)
        self.features: list[Feature] = self.manager.features()
        group = cog.app_command
        assert group is not None  # a GroupCog always has its group
        install(self, self.tree, group, self.features, check=cog.interaction_check)
        await self.add_cog(cog)
        bind(self, self.manager)  # the clicks' handler, injected (not looked up on the client)
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
        if not self.settings.pages_only:  # a pages-only process runs no game's background work
            for feature in self.features:
                await feature.start()
        if self.settings.web_port is not None:
            from bot.app.web_door import ManagerDoor

            self.web = WebTable(
                self.manager.services,
                self.settings,
                ManagerDoor(self.manager),
                bot_token=self.settings.token,
            )
            await self.web.start()

    async def connect(self, *, reconnect: bool = True) -> None:
        """The gateway; never for a pages-only process (bot/app/pages.py logs it in over
        HTTP alone), so no shard's events ever reach it."""
        if self.settings.pages_only:
            raise RuntimeError("a pages-only process connects to no gateway shard")
        await super().connect(reconnect=reconnect)

    async def _on_tree_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.CheckFailure) and interaction.response.is_done():
            return  # refused, and answered, by the check (bot/app/cog.py)
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
        if self.web is not None:
            await self.web.close()
            self.web = None
        for feature in reversed(getattr(self, "features", [])):
            try:
                await feature.close()
            except Exception:
                log.exception("closing the feature %s failed", feature.name)
        manager = getattr(self, "manager", None)
        if manager is not None:
            await manager.close()
        await super().close()
        if self._db is not None:
            await self._db.close()
            self._db = None


class ShardedRuffBot(RuffBot, commands.AutoShardedBot):
    """The bot holding the gateway shards ``settings.shard_ids`` of ``settings.shard_count``
    (discord.py's AutoShardedBot: one gateway connection per shard, one event loop);
    see bot/sharding.py."""

    def __init__(self, settings: Settings, *, sync_commands: bool = True, **options: Any) -> None:
        options.setdefault("shard_count", settings.shard_count)
        if settings.shard_ids is not None:
            options.setdefault("shard_ids", list(settings.shard_ids))
        super().__init__(settings, sync_commands=sync_commands, **options)


def create_bot(settings: Settings, *, sync_commands: bool = True) -> RuffBot:
    """The bot; sharded when ``settings.shard_count`` is set (``--shard-count``), and then
    only the process holding shard 0 syncs the slash commands. A pages-only process
    (``settings.pages_only``, :mod:`bot.app.pages`) holds no shard and syncs nothing."""
    if settings.pages_only:
        return RuffBot(settings, sync_commands=False)
    if settings.shard_count is not None:
        from bot.sharding import syncs_commands

        return ShardedRuffBot(
            settings, sync_commands=sync_commands and syncs_commands(settings.shard_ids)
        )
    return RuffBot(settings, sync_commands=sync_commands)
