"""What the components hand a click over to: a small Protocol.

``bot.present.components`` parses a ``custom_id`` and calls one of these methods on the
client's ``manager``; it never imports the manager itself, so the two modules
do not depend on each other (the manager builds views from components).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import discord

from engine import Action

__all__ = ["ClickHandler", "handler_of"]


class ClickHandler(Protocol):
    """The game side of every button and menu the bot sends."""

    async def refuse(self, interaction: discord.Interaction[Any], text: str) -> None: ...

    async def on_table_button(
        self, interaction: discord.Interaction[Any], table_id: int, verb: str
    ) -> None: ...

    async def on_action(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        seat: int,
        actions: Sequence[Action],
    ) -> None: ...

    async def on_pick(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        seat: int,
        verb: str,
        values: Sequence[str],
        confirmed: bool = False,
    ) -> None: ...

    async def on_leaderboard_page(
        self, interaction: discord.Interaction[Any], page: int, game_id: str | None = None
    ) -> None: ...

    async def on_replay_step(
        self, interaction: discord.Interaction[Any], table_id: int, step: int
    ) -> None: ...

    async def on_hint(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, seat: int
    ) -> None: ...

    async def on_lesson(
        self,
        interaction: discord.Interaction[Any],
        lesson: str,
        step: int,
        action: Action | None,
        cards: Sequence[str] = (),
        confirmed: bool = False,
    ) -> None:
        """A lesson's button or menu: start it (no ``action``, no ``cards``), answer its
        step with ``action``, or with the lay-out's ``cards`` (chosen in the menu, then
        ``confirmed``)."""
        ...


def handler_of(interaction: discord.Interaction[Any]) -> ClickHandler:
    """The handler the running bot registered as ``client.manager``."""
    handler: ClickHandler = getattr(interaction.client, "manager")  # noqa: B009 - set in setup_hook
    return handler
