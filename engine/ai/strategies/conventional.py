"""The count of the books: sure tricks in a hand, as the whist books count them.

Shared by the hints' reasons (:mod:`engine.ai.explain`) and the arena's rule-based
player (:mod:`engine.ai.baselines.rules`).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, Rank, Suit

__all__ = ["estimated_tricks"]


def estimated_tricks(hand: Sequence[Card], trump: Suit | None) -> float:
    """Sure tricks by the count of the books: aces, guarded kings, twice-guarded
    queens, and every trump past the third (jokers count as aces)."""
    tricks = 0.0
    for suit in Suit:
        held = sorted((c.rank for c in hand if not c.is_joker and c.suit is suit), reverse=True)
        n = len(held)
        if Rank.ACE in held:
            tricks += 1
        if Rank.KING in held and n >= 2:
            tricks += 1 if Rank.ACE in held else 0.5
        if Rank.QUEEN in held and n >= 3:
            tricks += 0.5
        if suit is trump and n > 3:
            tricks += n - 3
    tricks += sum(1 for c in hand if c.is_joker)
    return tricks
