"""Bid Whist's card model: the suits and trick keys of the 54 cards under one trump
and rank order (:class:`DealModel`), following suit and who wins a trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from engine.ai.search.bitmasks import card_indices
from engine.cards import Card, RankOrder, Suit
from engine.game import SeatView

__all__ = [
    "BJ",
    "CARDS",
    "DealModel",
    "LJ",
    "NONE",
    "applies",
    "beats",
    "can_win",
    "highest_card",
    "is_master",
    "led_suit",
    "legal_mask",
    "lowest_card",
    "model_of",
    "winner_pos",
]

NONE: Final = 4  # "no suit": a no-trump joker, or no trump at all
LJ: Final = 52
BJ: Final = 53
CARDS: Final = tuple(Card.from_index(i) for i in range(54))
_NATURAL_SUIT: Final = tuple(i // 13 for i in range(52))


def applies(view: SeatView) -> bool:
    """Whether this module plays the view's game: a contract game with jokers and
    a chosen rank order (the ``bid_whist`` family)."""
    return view.rules is not None and view.rules.family == "bid_whist"


# --------------------------------------------------------------------------- the card model


@dataclass(frozen=True, slots=True)
class DealModel:
    """Suits and trick keys of the 54 cards under one trump and rank order."""

    trump: int  # 0..3, or NONE
    key: tuple[int, ...]  # trick key of each card (RankOrder.key): trumps 100+, NT jokers 0
    suit: tuple[int, ...]  # effective suit of each card (NONE for a no-trump joker)
    masks: tuple[int, int, int, int, int]  # the cards of each effective suit (4: no suit)


@lru_cache(maxsize=32)
def model_of(trump: Suit | None, order: RankOrder) -> DealModel:
    """The card model of a deal (cached: there are at most 4 x 5 x 3 of them)."""
    t = NONE if trump is None else trump.order
    key = tuple(order.key(c, trump) for c in CARDS)
    suit = tuple((*_NATURAL_SUIT, t, t))
    masks = [0, 0, 0, 0, 0]
    for i, s in enumerate(suit):
        masks[s] |= 1 << i
    return DealModel(t, key, suit, (masks[0], masks[1], masks[2], masks[3], masks[4]))


def lowest_card(m: DealModel, mask: int) -> int:
    return min(card_indices(mask), key=m.key.__getitem__)


def highest_card(m: DealModel, mask: int) -> int:
    return max(card_indices(mask), key=m.key.__getitem__)


def led_suit(m: DealModel, trick: Sequence[int]) -> int:
    """The suit to follow: the first card with a suit (a led no-trump joker fixes none)."""
    for c in trick:
        s = m.suit[c]
        if s != NONE:
            return s
    return NONE


def legal_mask(m: DealModel, hand: int, trick: Sequence[int]) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (follow suit if you can)."""
    if not trick:
        return hand
    led = led_suit(m, trick)
    if led == NONE:
        return hand
    follow = hand & m.masks[led]
    return follow or hand


def can_win(m: DealModel, c: int, led: int) -> bool:
    return m.key[c] >= 100 or (m.suit[c] == led and led != NONE)


def winner_pos(m: DealModel, trick: Sequence[int]) -> int:
    """Position (play order) of the card winning ``trick`` so far."""
    led = led_suit(m, trick)
    win, best = 0, -1
    for i, c in enumerate(trick):
        if can_win(m, c, led) and m.key[c] > best:
            best, win = m.key[c], i
    return win


def beats(m: DealModel, c: int, best: int, led: int) -> bool:
    if not can_win(m, c, led):
        return False
    if not can_win(m, best, led):
        return True
    return m.key[c] > m.key[best]


def is_master(m: DealModel, c: int, unseen: int) -> bool:
    s = m.suit[c]
    if s == NONE:
        return False
    k = m.key[c]
    return all(m.key[o] < k for o in card_indices(unseen & m.masks[s]))


# --------------------------------------------------------------------------- the maxims
