"""Today's deals (``/ruff daily``) as a feature: the command, and the buttons of a
finished board's message (``dy:<verb>:<table>``: ▶ the next board, the deal, the
review, sharing and posting the share line).

* :mod:`bot.features.daily.boards` — the boards: dealt in the DM, followed to their
  end, each ended by editing its DM into one result message;
* :mod:`bot.features.daily.standings` — ``/ruff daily standings:``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.features import Feature
from bot.features.choices import game_choices
from bot.features.coach.coach import Coach
from bot.features.daily.boards import DAILY_PREFIX, Daily
from bot.features.daily.standings import DailyStandings
from bot.features.items import item_class, numbers
from bot.present.i18n import N_
from bot.present.locales import Remembers

__all__ = ["build"]


def build(daily: Daily, reader: DailyStandings, coach: Coach, locales: Remembers) -> Feature:
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

    table = r"(\d{1,19})"  # a finished board's buttons: dy:<verb>:<the board's table>
    routes = {
        rf"next:{table}": numbers(daily.on_next),
        rf"deal:{table}": numbers(daily.on_deal),
        rf"review:{table}": numbers(lambda i, t: daily.on_review(i, t, coach)),
        rf"share:{table}": numbers(daily.on_share),
        rf"post:{table}": numbers(daily.on_post),
    }
    return Feature(
        name="daily",
        commands=[daily_command],
        items=[item_class("BoardButton", DAILY_PREFIX, routes, locales)],
    )
