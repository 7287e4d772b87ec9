"""``/ruff challenge`` as a feature: the command, and the challenge's buttons
(``ch:<verb>:<challenge>``): **▶ Play** and **Decline** on the invitation, **▶ Board N**
under a finished board, **Rematch** under the comparison. The challenges themselves:
:mod:`bot.features.challenge.challenges`."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.features import Feature
from bot.features.challenge.challenges import CHALLENGE_PREFIX, Challenges
from bot.features.choices import game_choices
from bot.features.items import item_class, numbers
from bot.present.i18n import N_
from bot.present.locales import Remembers

__all__ = ["build"]


def build(challenges: Challenges, locales: Remembers) -> Feature:
    """The challenge feature over its :class:`Challenges` (made by the manager)."""

    @app_commands.command(
        name="challenge",
        description=N_("The same boards for you and someone else, each played alone, compared"),
    )
    @app_commands.describe(
        opponent=N_("Whom to challenge (me: the AI); empty: play your next challenge board"),
        game=N_("Which game (default: Ruff and Honours)"),
        boards=N_("How many boards (default 5)"),
    )
    @app_commands.choices(game=game_choices())
    async def challenge_command(
        interaction: discord.Interaction[Any],
        opponent: discord.User | None = None,
        game: str | None = None,
        boards: app_commands.Range[int, 1, 6] | None = None,
    ) -> None:
        await challenges.command(interaction, opponent, game, boards)

    challenge = r"(\d{1,19})"  # the challenge's buttons: ch:<verb>:<challenge>
    routes = {
        rf"play:{challenge}": numbers(lambda i, c: challenges.on_next(i, c, True)),
        rf"next:{challenge}": numbers(lambda i, c: challenges.on_next(i, c, False)),
        rf"decline:{challenge}": numbers(challenges.on_decline),
        rf"rematch:{challenge}": numbers(challenges.on_rematch),
    }
    return Feature(
        name="challenge",
        commands=[challenge_command],
        items=[item_class("ChallengeButton", CHALLENGE_PREFIX, routes, locales)],
    )
