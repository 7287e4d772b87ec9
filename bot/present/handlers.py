"""What the components hand a click over to: a small Protocol.

``bot.present.components`` parses a ``custom_id`` and calls one of these methods on
the handler the wiring bound to the client (``components.bind(client, manager)``); it
never imports the manager itself, so the two modules do not depend on each other
(the manager builds views from components).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.present.locales import Remembers
from engine import Action

__all__ = ["ClickHandler"]


class ClickHandler(Protocol):
    """The game side of every button and menu the bot sends."""

    @property
    def user_locales(self) -> Remembers:
        """Each player's language, remembered from their clicks."""
        ...

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
