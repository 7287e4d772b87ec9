"""Slash commands: ``/ruff new | hand | cancel | rules | leaderboard | stats | settings | record | replay | review | puzzle``.

Thin by design: each command validates its options' shape and hands over to
the :class:`~bot.app.manager.GameManager`.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.manager import GameManager, preset_choices
from bot.present.i18n import LANGUAGES, N_
from engine import game_ids, make_rules


def _game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=make_rules(g).title + f" ({g})", value=g) for g in game_ids()]


class RuffCog(
    commands.GroupCog,
    group_name="ruff",
    group_description=N_("Play Ruff and Honours and its relatives"),
):
    """The ``/ruff`` command group."""

    def __init__(self, manager: GameManager) -> None:
        self.manager = manager
        super().__init__()

    @app_commands.command(name="new", description=N_("Open a table in this channel"))
    @app_commands.describe(
        game=N_("Which game (default: Ruff and Honours)"),
        preset=N_("Rule preset (default: the game's standard)"),
        target=N_("Points needed to win a game"),
        options=N_("Extra rule parameters, e.g. ruff_mandatory=true, first_leader=ruffer"),
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
