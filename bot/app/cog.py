"""Slash commands: ``/ruff new | daily | challenge | cancel | review | puzzle | lesson``;
the features with a package of their own (``bot/features/``: ``hand``, ``rules``,
``leaderboard``, ``stats``, ``settings``, ``options``, ``record``, ``replay``) add
theirs to the same ``/ruff`` group, guarded by this cog's check.

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
from bot.tables.lesson_scripts import LESSONS

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
        name="daily",
        description=N_("Today's deals: the same boards for everyone, played alone in your DMs"),
    )
    @app_commands.describe(
        game=N_("Which game (default: Ruff and Honours)"),
        standings=N_("Show the standings instead of playing"),
    )
    @app_commands.choices(
        game=_game_choices(),
        standings=[
            app_commands.Choice(name=N_("today"), value="today"),
            app_commands.Choice(name=N_("this week"), value="week"),
            app_commands.Choice(name=N_("all time"), value="all"),
        ],
    )
    async def daily(
        self,
        interaction: discord.Interaction[Any],
        game: str | None = None,
        standings: str | None = None,
    ) -> None:
        await self.manager.daily_command(interaction, game, standings)

    @app_commands.command(
        name="challenge",
        description=N_("The same boards for you and someone else, each played alone, compared"),
    )
    @app_commands.describe(
        opponent=N_("Whom to challenge (me: the AI); empty: play your next challenge board"),
        game=N_("Which game (default: Ruff and Honours)"),
        boards=N_("How many boards (default 5)"),
    )
    @app_commands.choices(game=_game_choices())
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.User | None = None,
        game: str | None = None,
        boards: app_commands.Range[int, 1, 6] | None = None,
    ) -> None:
        await self.manager.challenge_command(interaction, opponent, game, boards)

    @app_commands.command(
        name="cancel", description=N_("End this channel's table (opener or Manage Server)")
    )
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        await self.manager.cancel_command(interaction)

    @app_commands.command(
        name="lesson", description=N_("A short lesson on a rule newcomers ask about, in your DMs")
    )
    @app_commands.describe(name=N_("Which lesson (default: the list of lessons)"))
    @app_commands.choices(
        name=[app_commands.Choice(name=lesson.title, value=lesson.name) for lesson in LESSONS]
    )
    async def lesson(self, interaction: discord.Interaction[Any], name: str | None = None) -> None:
        await self.manager.lesson_command(interaction, name)

    @app_commands.command(
        name="review", description=N_("Which of your cards cost you in a finished deal (private)")
    )
    @app_commands.describe(
        table=N_("Table number (default: your table in this channel, else your last game)"),
        deal=N_("Deal number at that table (default: the last finished one)"),
    )
    async def review(
        self,
        interaction: discord.Interaction[Any],
        table: app_commands.Range[int, 1, 2**53] | None = None,
        deal: app_commands.Range[int, 1, 10000] | None = None,
    ) -> None:
        await self.manager.review_command(interaction, table, deal)

    @app_commands.command(
        name="puzzle", description=N_("Replay a position where a card cost you (or a server mate)")
    )
    async def puzzle(self, interaction: discord.Interaction[Any]) -> None:
        await self.manager.puzzle_command(interaction)
