"""Slash commands: ``/ruff new | cancel``; the features
with a package of their own (``bot/features/``: ``daily``, ``challenge``, ``hand``, ``rules``,
``leaderboard``, ``stats``, ``settings``, ``options``, ``record``, ``replay``, ``review``,
``puzzle``, ``lesson``) add theirs to
the same ``/ruff`` group, guarded by this cog's check.

Thin by design: each command validates its options' shape and hands over to
the :class:`~bot.app.manager.GameManager`.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.manager import GameManager, preset_choices
from bot.features.choices import game_choices as _game_choices
from bot.present.i18n import N_, _
from bot.present.installs import bot_away
from bot.present.replies import refuse

ANYWHERE = frozenset({"daily", "challenge", "rules", "options"})
"""The commands a player's own install of the app may use where the bot is not
(a server that did not invite it, a group DM): each plays in the bot's DM or only
answers privately."""


@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class RuffCog(
    commands.GroupCog,
    group_name="ruff",
    group_description=N_("Play Ruff and Honours and its relatives"),
):
    """The ``/ruff`` command group."""

    def __init__(self, manager: GameManager) -> None:
        self.manager = manager
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Where the bot is not (only the player's own install reaches there), only
        :data:`ANYWHERE`'s commands run; any other gets a short private answer."""
        command = interaction.command
        if not bot_away(interaction) or (command is not None and command.name in ANYWHERE):
            return True
        await refuse(
            interaction,
            _(
                "Tables need the bot in this server: ask an admin to add it. "
                "`/ruff daily` and `/ruff challenge` work anywhere."
            ),
        )
        return False

    @app_commands.command(name="new", description=N_("Open a table in this channel"))
    @app_commands.describe(
        game=N_("Which game (default: Ruff and Honours)"),
        preset=N_("Rule preset (default: the game's standard)"),
        target=N_("Points needed to win a game"),
        options=N_("Rule parameters, e.g. ruff_mandatory=true; hints:on for unrated hints"),
    )
    @app_commands.choices(game=_game_choices())
    async def new(
        self,
        interaction: discord.Interaction[Any],
        game: str = "ruff-honours-cotton",
        preset: app_commands.Range[str, 1, 40] | None = None,
        target: app_commands.Range[int, 1, 99] | None = None,
        options: app_commands.Range[str, 1, 300] | None = None,
    ) -> None:
        await self.manager.new_table(interaction, game, preset, target, options)

    @new.autocomplete("preset")
    async def _preset_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        return [
            app_commands.Choice(name=p, value=p)
            for p in preset_choices(game)
            if current.lower() in p.lower()
        ][:25]

    @app_commands.command(
        name="cancel", description=N_("End this channel's table (opener or Manage Server)")
    )
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        await self.manager.cancel_command(interaction)
