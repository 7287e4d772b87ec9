"""The Hint button of a table with hints (``/ruff new options: hints:on``).

A hint is private: the hard AI's choice for the clicker's own turn and the reason
for it in words (:mod:`engine.ai.explain`), answered ephemerally in the clicker's
language. It is worked out from the seat's own view only, off the event loop
(:meth:`bot.tables.aipool.AIPool.hint`), and changes nothing: no lock is held while
it thinks, nothing is written. A click at a table without hints, by someone else,
out of turn or on an old hand gets a short private answer.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import discord

from bot.discord_ui.services import DiscordServices
from bot.present.i18n import _
from bot.present.render.coach import hint_text
from bot.present.replies import refuse, reply
from bot.tables.table import Table

log = logging.getLogger(__name__)

__all__ = ["Hints"]


class Hints:
    """Answers the Hint button."""

    def __init__(self, svc: DiscordServices) -> None:
        self.svc = svc

    async def on_hint(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, seat: int
    ) -> None:
        started = time.perf_counter()
        table = await self.svc.current_table(table_id)
        refusal = self.refusal(table, interaction.user.id, version, seat)
        if refusal is not None:
            await refuse(interaction, refusal)
            return
        assert table is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        await reply(interaction, await self.think(table, version, seat))
        elapsed = time.perf_counter() - started
        log.debug("table %s: hint for seat %s in %.0f ms", table.id, seat, elapsed * 1000)

    def refusal(self, table: Table | None, user_id: int, version: int, seat: int) -> str | None:
        """Why ``user_id`` gets no hint for ``seat`` at ``version``, or None — for every front."""
        if table is None or table.status != "active" or table.game is None:
            return _("This table has ended.")
        if not table.kind.rules.hint_button:
            return _("Hints are off at this table.")
        if table.seat_of(user_id) != seat:
            return _("That is not your hand.")
        game = table.game
        if game.version != version or game.to_act() != seat or seat in table.away:
            return _("That hand has moved on — a hint is for your own turn.")
        if not game.legal_actions(seat):
            return _("That hand has moved on — a hint is for your own turn.")
        return None

    async def think(self, table: Table, version: int, seat: int) -> str:
        """The hint in words, for a turn :meth:`refusal` let through (off the loop, no lock)."""
        game = table.game
        legal = [] if game is None or game.version != version else game.legal_actions(seat)
        if game is None or not legal:  # it moved on meanwhile
            return _("That hand has moved on — a hint is for your own turn.")
        view = game.observe(seat)
        try:
            action, reason = await self.svc.ai.hint(view, legal, f"{table.seed}:hint:{version}")
        except RuntimeError:  # the AI pool is closed: the bot is shutting down
            return _("No hint right now — please try again in a moment.")
        return hint_text(action, reason, table.rules)
