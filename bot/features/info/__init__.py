"""What reads rather than plays: ``/ruff hand``, ``/ruff rules``,
``/ruff leaderboard`` and ``/ruff stats``, and the leaderboard's page buttons
(``rh:lb:<page>[:<game>]``, the id grammar they had before the feature had a
package: the buttons of old leaderboard messages still page). ``info.py``
answers them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord_ui.presenter import Presenter
from bot.features import Feature
from bot.features.choices import game_choices
from bot.features.info.info import PAGE_PREFIX, PAGE_SHAPE, Info
from bot.features.items import item_class
from bot.present.i18n import N_
from bot.tables.services import Services

__all__ = ["build"]


def build(svc: Services, presenter: Presenter) -> Feature:
    """The feature, reading ``svc``'s repositories and the tables in memory; a hand is
    shown by ``presenter``'s hands."""
    info = Info(svc, presenter)

    @app_commands.command(
        name="hand", description=N_("Show your hand here (if your DMs are closed)")
    )
    async def hand(interaction: discord.Interaction[Any]) -> None:
        await info.hand_command(interaction)

    @app_commands.command(name="rules", description=N_("A short summary of the rules"))
    @app_commands.describe(
        game=N_("A game to describe (default: this channel's table)"), preset=N_("Its preset")
    )
    @app_commands.choices(game=game_choices())
    async def rules(
        interaction: discord.Interaction[Any],
        game: str | None = None,
        preset: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        await info.rules_command(interaction, game, preset)

    @app_commands.command(
        name="leaderboard", description=N_("This server's players of one game, by rating")
    )
    @app_commands.describe(
        game=N_("Which game (default: the most played here)"), page=N_("Page number")
    )
    @app_commands.choices(game=game_choices())
    async def leaderboard(
        interaction: discord.Interaction[Any],
        game: str | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        await info.leaderboard(interaction, page - 1, game)

    @app_commands.command(
        name="stats", description=N_("A player's ratings and record in this server")
    )
    @app_commands.describe(
        user=N_("Whose record (default: yours)"),
        game=N_("One game only (default: every game played)"),
    )
    @app_commands.choices(game=game_choices())
    async def stats(
        interaction: discord.Interaction[Any],
        user: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        await info.stats(interaction, user, game)

    async def page(
        interaction: discord.Interaction[Any], m: re.Match[str], values: Sequence[str]
    ) -> None:
        await info.on_leaderboard_page(interaction, int(m.group(1)), m.group(2) or None)

    return Feature(
        name="info",
        commands=[hand, rules, leaderboard, stats],
        items=[item_class("LeaderboardPage", PAGE_PREFIX, {PAGE_SHAPE: page}, svc.user_locales)],
    )
