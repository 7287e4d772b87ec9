"""Today's deals (``/ruff daily``) as a feature: the command, and the buttons of a
finished board's message (``dy:<verb>:<table>``: ▶ the next board, the deal, the
review, sharing and posting the share line).

* :mod:`bot.features.daily.boards` — the boards: dealt in the DM, followed to their
  end, each ended by editing its DM into one result message;
* :mod:`bot.features.daily.standings` — ``/ruff daily standings:``.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.features import Feature, answered
from bot.features.coach.coach import Coach
from bot.features.daily.boards import DAILY_TEMPLATE, Daily
from bot.features.daily.standings import DailyStandings
from bot.present.i18n import N_
from engine import game_ids, make_rules

__all__ = ["build", "game_choices"]


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=make_rules(g).title + f" ({g})", value=g) for g in game_ids()]


def build(daily: Daily, reader: DailyStandings, coach: Coach) -> Feature:
    """The daily feature over its parts (made by the manager: the feed follows them)."""

    @app_commands.command(
        name="daily",
        description=N_("Today's deals: the same boards for everyone, played alone in your DMs"),
    )
    @app_commands.describe(
        game=N_("Which game (default: Ruff and Honours)"),
        standings=N_("Show the standings instead of playing"),
    )
    @app_commands.choices(
        game=game_choices(),
        standings=[
            app_commands.Choice(name=N_("today"), value="today"),
            app_commands.Choice(name=N_("this week"), value="week"),
            app_commands.Choice(name=N_("all time"), value="all"),
        ],
    )
    async def daily_command(
        interaction: discord.Interaction[Any],
        game: str | None = None,
        standings: str | None = None,
    ) -> None:
        if standings is None:
            await daily.command(interaction, game)
        else:
            await reader.standings(interaction, game, standings)

    class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=DAILY_TEMPLATE):
        """A button of a finished board's message; its id names the verb and the table."""

        def __init__(self, verb: str, table_id: int) -> None:
            super().__init__(discord.ui.Button(custom_id=f"dy:{verb}:{table_id}"))
            self.verb = verb
            self.table_id = table_id

        @classmethod
        async def from_custom_id(
            cls,
            interaction: discord.Interaction[Any],
            item: discord.ui.Item[Any],
            match: re.Match[str],
            /,
        ) -> BoardButton:
            return cls(match["verb"], int(match["table"]))

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await answered(interaction, self._click)

        async def _click(self, interaction: discord.Interaction[Any]) -> None:
            if self.verb == "next":
                await daily.on_next(interaction, self.table_id)
            elif self.verb == "deal":
                await daily.on_deal(interaction, self.table_id)
            elif self.verb == "review":
                await daily.on_review(interaction, self.table_id, coach)
            elif self.verb == "share":
                await daily.on_share(interaction, self.table_id)
            else:
                await daily.on_post(interaction, self.table_id)

    return Feature(name="daily", commands=[daily_command], items=[BoardButton])
