"""Slash commands: ``/ruff new | hand | cancel | rules | leaderboard | stats | settings | options | record | replay | review | puzzle | lesson``.

Thin by design: each command validates its options' shape and hands over to
the :class:`~bot.app.manager.GameManager`. The features that are packages of their
own (``/ruff daily``, ``/ruff challenge``: ``bot/features/``) add theirs to this group.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.manager import GameManager, preset_choices
from bot.present.i18n import LANGUAGES, N_, _
from bot.present.installs import bot_away
from bot.present.replies import refuse
from bot.tables.lesson_scripts import LESSONS
from engine import game_ids, make_rules


def _game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=make_rules(g).title + f" ({g})", value=g) for g in game_ids()]


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
        name="hand", description=N_("Show your hand here (if your DMs are closed)")
    )
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await self.manager.hand_command(interaction)

    @app_commands.command(
        name="cancel", description=N_("End this channel's table (opener or Manage Server)")
    )
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        await self.manager.cancel_command(interaction)

    @app_commands.command(name="rules", description=N_("A short summary of the rules"))
    @app_commands.describe(
        game=N_("A game to describe (default: this channel's table)"), preset=N_("Its preset")
    )
    @app_commands.choices(game=_game_choices())
    async def rules(
        self,
        interaction: discord.Interaction[Any],
        game: str | None = None,
        preset: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        await self.manager.rules_command(interaction, game, preset)

    @app_commands.command(
        name="leaderboard", description=N_("This server's players of one game, by rating")
    )
    @app_commands.describe(
        game=N_("Which game (default: the most played here)"), page=N_("Page number")
    )
    @app_commands.choices(game=_game_choices())
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: str | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        await self.manager.leaderboard(interaction, page - 1, game)

    @app_commands.command(
        name="stats", description=N_("A player's ratings and record in this server")
    )
    @app_commands.describe(
        user=N_("Whose record (default: yours)"),
        game=N_("One game only (default: every game played)"),
    )
    @app_commands.choices(game=_game_choices())
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        await self.manager.stats(interaction, user, game)

    @app_commands.command(
        name="settings",
        description=N_("This server's settings (changing them needs Manage Server)"),
    )
    @app_commands.describe(
        pictures=N_("Show a picture of the table and the final score chart"),
        language=N_(
            "The language of the tables here (each player's own messages follow their Discord language)"
        ),
    )
    @app_commands.choices(
        pictures=[
            app_commands.Choice(name=N_("on"), value="on"),
            app_commands.Choice(name=N_("off"), value="off"),
        ],
        language=[app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()],
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        pictures: str | None = None,
        language: str | None = None,
    ) -> None:
        await self.manager.settings_command(
            interaction, None if pictures is None else pictures == "on", language
        )

    @app_commands.command(
        name="options", description=N_("Your own options, at every table (only you see them)")
    )
    @app_commands.describe(
        auto_play=N_("Play your only legal card for you after a short pause"),
    )
    @app_commands.choices(
        auto_play=[
            app_commands.Choice(name=N_("on"), value="on"),
            app_commands.Choice(name=N_("off"), value="off"),
        ],
    )
    async def options(
        self, interaction: discord.Interaction[Any], auto_play: str | None = None
    ) -> None:
        await self.manager.options_command(
            interaction, None if auto_play is None else auto_play == "on"
        )

    @app_commands.command(
        name="record", description=N_("A finished game as files (.json record and .pbn deals)")
    )
    @app_commands.describe(
        table=N_("Table number (default: the last game you finished in this server)")
    )
    async def record(
        self,
        interaction: discord.Interaction[Any],
        table: app_commands.Range[int, 1, 2**53] | None = None,
    ) -> None:
        await self.manager.record_command(interaction, table)

    @app_commands.command(
        name="replay", description=N_("Step through a finished game trick by trick")
    )
    @app_commands.describe(
        table=N_("Table number (default: the last game you finished in this server)")
    )
    async def replay(
        self,
        interaction: discord.Interaction[Any],
        table: app_commands.Range[int, 1, 2**53] | None = None,
    ) -> None:
        await self.manager.replay_command(interaction, table)

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
