"""``/ruff challenge`` as a feature: the command, and the challenge's buttons
(``ch:<verb>:<challenge>``): **▶ Play** and **Decline** on the invitation, **▶ Board N**
under a finished board, **Rematch** under the comparison. The challenges themselves:
:mod:`bot.features.challenge.challenges`."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.features import Feature, answered
from bot.features.challenge.challenges import CHALLENGE_TEMPLATE, Challenges
from bot.features.daily import game_choices
from bot.present.i18n import N_

__all__ = ["build"]


def build(challenges: Challenges) -> Feature:
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

    class ChallengeButton(
        discord.ui.DynamicItem[discord.ui.Button[Any]], template=CHALLENGE_TEMPLATE
    ):
        """A challenge's button; its id names the verb and the challenge."""

        def __init__(self, verb: str, challenge_id: int) -> None:
            super().__init__(discord.ui.Button(custom_id=f"ch:{verb}:{challenge_id}"))
            self.verb = verb
            self.challenge_id = challenge_id

        @classmethod
        async def from_custom_id(
            cls,
            interaction: discord.Interaction[Any],
            item: discord.ui.Item[Any],
            match: re.Match[str],
            /,
        ) -> ChallengeButton:
            return cls(match["verb"], int(match["challenge"]))

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await answered(interaction, self._click)

        async def _click(self, interaction: discord.Interaction[Any]) -> None:
            if self.verb in ("play", "next"):
                await challenges.on_next(interaction, self.challenge_id, self.verb == "play")
            elif self.verb == "decline":
                await challenges.on_decline(interaction, self.challenge_id)
            else:
                await challenges.on_rematch(interaction, self.challenge_id)

    return Feature(name="challenge", commands=[challenge_command], items=[ChallengeButton])
