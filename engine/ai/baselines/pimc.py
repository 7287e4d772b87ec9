"""Plain PIMC (level ``pimc``): the literature's baseline for card play.

Perfect-information Monte Carlo as first used for bridge: deal the unseen cards
uniformly among the deals consistent with what the seat knows for certain (its
hand, the cards played, voids shown, honours shown or announced, where the
ruff's turn-up must be), solve each deal double dummy, and play the card with
the best mean value. It is ``hard`` with everything ``hard`` infers taken away:
no weights from the others' plays (``inference``), no bias on what a ruffer laid
out (``uniform``), no weighing of worlds at the open tables (``sharp``). The
solver (DDS), the value of a deal's tricks, the budget and the most worlds a
decision (``HARD.max_worlds``, 64, the CPU clock deciding first) are ``hard``'s,
so a duplicate match of the two measures what the inference is worth.

Every decision that is not a card at a table the determinized search plays
(bids, discards, the open tables' lay-out) is taken as ``hard`` takes it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from engine.ai.levels import HARD, Profile
from engine.ai.players import EasyPlayer, GuardedPlayer, LevelPlayer, Player

__all__ = ["PIMC", "pimc_player"]

PIMC: Final = replace(HARD, name="pimc", inference=False, uniform=True, sharp=False)
"""``hard``'s profile without its inference."""


def pimc_player(budget: float | None = None, cap: float | None = None) -> Player:
    """A ``pimc`` player with ``hard``'s budget (``budget`` and ``cap`` replace it when given)."""
    chosen: Profile = replace(
        PIMC,
        soft=PIMC.soft if budget is None else budget,
        cap=PIMC.cap if cap is None else cap,
    )
    return GuardedPlayer(LevelPlayer(chosen), EasyPlayer(noise=0.0), cap=chosen.cap)
