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
        if table is None or table.status != "active" or table.game is None:
            await refuse(interaction, _("This table has ended."))
            return
        if not table.kind.rules.hint_button:
            await refuse(interaction, _("Hints are off at this table."))
            return
        if table.seat_of(interaction.user.id) != seat:
            await refuse(interaction, _("That is not your hand."))
            return
        game = table.game
        if game.version != version or game.to_act() != seat or seat in table.away:
            await refuse(interaction, _("That hand has moved on — a hint is for your own turn."))
            return
        view = game.observe(seat)
        legal = game.legal_actions(seat)
        if not legal:
            await refuse(interaction, _("That hand has moved on — a hint is for your own turn."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            action, reason = await self.svc.ai.hint(view, legal, f"{table.seed}:hint:{version}")
        except RuntimeError:  # the AI pool is closed: the bot is shutting down
            await reply(interaction, _("No hint right now — please try again in a moment."))
            return
        await reply(interaction, hint_text(action, reason, table.rules))
        elapsed = time.perf_counter() - started
        log.debug("table %s: hint for seat %s in %.0f ms", table.id, seat, elapsed * 1000)
