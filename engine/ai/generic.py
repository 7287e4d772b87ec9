"""Table maxims for any seating: 2 or 3 players, everyone alone, face-up layouts.

The ``easy`` player's own rules (:mod:`engine.ai.easy`) and the searches know
four seats with partners opposite and a hidden deal. A table that is not that
(Ruffe and Trump for three or two, or single-handed; Turnover Bridge with its
layouts) is played by the maxims here, which read the seats and sides from the
view (``SeatView.sides``) and count every card the seat can see (its hand, the
tricks, the face-up layout cards) as out of the others' hands:

* leading: cash a card no unseen card of its suit can beat (not a trump while
  side suits remain), else lead the lowest card of the longest side suit;
* following: when the trick is already the side's, play the lowest card; else
  win as cheaply as possible, and when that is impossible play the lowest card
  (throwing from a side suit before a trump).

``wants_generic(view)`` says whether a view needs them. ``easy`` plays these
tables by the maxims; ``normal`` and ``hard`` search them with sampled worlds
(:mod:`engine.ai.open_search`) and fall back to the maxims only when a view
cannot be read. Decisions outside
play: a declared ruff states the hand's true value (:func:`claim_for`).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action, Play
from engine.cards import SUITS, Card, Suit, cards_from_mask, mask_of
from engine.view import SeatView

__all__ = ["claim_for", "generic_card", "wants_generic"]

_PARTNERS_OPPOSITE = (0, 1, 0, 1)


def wants_generic(view: SeatView) -> bool:
    """True unless the view is the four-handed partnership game the other maxims know."""
    return bool(view.layouts) or (bool(view.sides) and view.sides != _PARTNERS_OPPOSITE)


def claim_for(view: SeatView, legal: Sequence[Action]) -> Action | None:
    """Under ``ruff_announce = declared``: claim the hand's true ruff, when that is legal."""
    from engine.phases.contest import RuffClaim, ruff_value

    if view.rules is None or not any(isinstance(a, RuffClaim) for a in legal):
        return None
    value = ruff_value(mask_of(view.hand), view.turn_up, view.trump, view.rules.ruff_measure)
    claim = RuffClaim(value)
    return claim if claim in legal else None


def _seen(view: SeatView) -> int:
    mask = mask_of(view.hand)
    for _, cards, _ in view.completed_tricks:
        mask |= mask_of(cards)
    for _, card in view.trick:
        mask |= card.bit
    for seat_piles in view.layouts:
        for pile in seat_piles:
            if pile.up is not None:
                mask |= pile.up.bit
    return mask


def _value(card: Card, trump: Suit | None) -> int:
    """How dear a card is to give away: rank, trumps above every side card."""
    return int(card.rank) + (100 if card.suit is trump else 0)


def generic_card(view: SeatView, legal_mask: int) -> Card:
    """The card the maxims play from ``legal_mask`` (see the module docstring)."""
    legal = list(cards_from_mask(legal_mask))
    trump = view.trump
    order = view.rank_order
    if not view.trick:
        unseen = ~_seen(view)
        masters = [
            c
            for c in legal
            if not any(
                o.suit is c.suit and order.strength(o) > order.strength(c)
                for o in cards_from_mask(unseen & c.suit.mask)
            )
        ]
        side_masters = [c for c in masters if c.suit is not trump]
        if side_masters:
            return max(side_masters, key=order.strength)
        if masters and all(c.suit is trump for c in legal):
            return max(masters, key=order.strength)
        by_suit = {s: [c for c in legal if c.suit is s] for s in SUITS if s is not trump}
        longest = max(by_suit.values(), key=len, default=[])
        pool = longest or legal
        return min(pool, key=order.strength)
    cards = [c for _, c in view.trick]
    n = len(view.sides) if view.sides else 4
    winner_pos = order.trick_winner(cards, trump)
    winner_seat = (view.trick_leader + winner_pos) % n
    sides = view.sides or _PARTNERS_OPPOSITE
    cheapest = min(legal, key=lambda c: _value(c, trump))
    if sides[winner_seat] == sides[view.seat]:
        return cheapest
    winning = [c for c in legal if order.trick_winner([*cards, c], trump) == len(cards)]
    if winning:
        return min(winning, key=lambda c: _value(c, trump))
    return cheapest


def generic_play(view: SeatView, legal: Sequence[Action]) -> Action:
    """The maxims' choice among ``legal`` (a play, or a claim, or the first action)."""
    claim = claim_for(view, legal)
    if claim is not None:
        return claim
    mask = 0
    for action in legal:
        if isinstance(action, Play):
            mask |= action.card.bit
    if not mask:
        return legal[0]
    card = generic_card(view, mask)
    for action in legal:
        if isinstance(action, Play) and action.card is card:
            return action
    return legal[0]  # pragma: no cover - the card came from legal
