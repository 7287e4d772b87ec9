"""Auto-play of a single legal card, for the players who chose it (``/ruff options``).

When it is a human's turn, that player chose ``auto_play``, and the engine offers
them exactly one action, a card play, the card is played for them after
``RH_AUTO_PLAY_DELAY`` seconds — long enough to see the turn come and the card go —
through :func:`bot.tables.commit.commit`, exactly as their click would be (the move
is theirs: it counts as them being present). Their hand message says what was
played and why. A click that comes first wins; the pause is only ever for a card
with no alternative, never for a decision (a claim's answer, a bid, honours).
"""

from __future__ import annotations

import asyncio
import logging

from bot.store import StoreError
from bot.tables import commit
from bot.tables.front import Front
from bot.tables.services import Services
from bot.tables.sync import TableBehind
from bot.tables.table import Table
from engine import IllegalAction, Play, SeatView

log = logging.getLogger(__name__)

__all__ = ["AutoPlay", "single_card"]


def single_card(view: SeatView) -> Play | None:
    """The one action ``view.seat`` may take when it is a card play, else None."""
    if not view.my_turn or len(view.legal) != 1:
        return None
    action = view.legal[0]
    return action if isinstance(action, Play) else None


class AutoPlay:
    """Plays a lone legal card for the players who asked for it."""

    def __init__(self, svc: Services, front: Front) -> None:
        self.svc = svc
        self.front = front

    def arm(self, table: Table, seat: int) -> None:
        """Called when ``seat`` (a human's) is to act: plays for them later if they
        chose auto-play and have a single legal card."""
        game = table.game
        human = table.human(seat)
        if game is None or human is None or seat in table.away:
            return
        action = single_card(table.view(seat))  # the view its hand message shows too
        if action is None:
            return
        self.svc.own(
            self._play_later(table, seat, human.user_id, game.version, action),
            name=f"auto-play-{table.id}",
        )

    async def _play_later(
        self, table: Table, seat: int, user_id: int, version: int, action: Play
    ) -> None:
        if not await self.svc.player_options.auto_play(user_id):
            return
        await asyncio.sleep(max(0.0, self.svc.settings.auto_play_delay))
        async with table.lock:
            game = table.game
            human = table.human(seat)
            if (
                table.status != "active"
                or game is None
                or game.version != version  # a click (or anything else) came first
                or game.to_act() != seat
                or human is None
                or human.user_id != user_id
                or seat in table.away
            ):
                return
            try:
                await commit.commit(self.svc, table, seat, [action], user_id)
            except (IllegalAction, TableBehind, StoreError) as exc:
                # nothing was played: the player still has their turn and their button
                log.info("table %s: auto-play for seat %s not made: %r", table.id, seat, exc)
                return
            self.front.auto_played(table, seat, action)
