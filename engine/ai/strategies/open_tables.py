"""The open tables: 2 or 3 players, everyone alone, face-up layouts.

The partnership strategies (:mod:`engine.ai.strategies.partnership`) know four
seats with partners opposite and a hidden deal. A table that is not that
(Ruffe and Trump for three or two, or single-handed; Turnover Bridge with its
layouts) is played here, reading the seats and sides from the view
(``SeatView.sides``); :func:`wants_generic` says whether a view needs it.

``easy`` plays these tables by the maxims (:func:`generic_card`), which count
every card the seat can see (its hand, the tricks, the face-up layout cards)
as out of the others' hands:

* leading: cash a card no unseen card of its suit can beat (not a trump while
  side suits remain), else lead the lowest card of the longest side suit;
* following: when the trick is already the side's, play the lowest card; else
  win as cheaply as possible, and when that is impossible play the lowest card
  (throwing from a side suit before a trump).

``normal`` and ``hard`` search them (:func:`search_choice`: sampled worlds and
greedy playouts for every seat, each world solved exactly near the end, by
:mod:`engine.ai.search.open_search`), ``hard`` weighing each world by how well
it explains the others' plays at tables of two or three
(:mod:`engine.ai.search.open_inference`; single-handed it showed no gain), and,
at tables of three or more each alone, valuing a deal as its own card points
less the mean of the others' (``relative``: points come only over par, so a
player who cannot reach par himself keeps the others at it). They fall back to
the maxims only when a view cannot be read.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action, Play, play
from engine.ai.levels import Profile
from engine.ai.search import open_search as ops
from engine.ai.search.bitmasks import play_mask
from engine.ai.search.budget import Budget
from engine.ai.search.open_search import applies, search_play
from engine.ai.strategies.obvious import claim_for
from engine.cards import SUITS, Card, Suit, cards_from_mask, mask_of
from engine.view import SeatView

__all__ = [
    "budget_of",
    "generic_card",
    "generic_play",
    "open_strategy",
    "search_choice",
    "wants_generic",
]

_PARTNERS_OPPOSITE = (0, 1, 0, 1)


def wants_generic(view: SeatView) -> bool:
    """True unless the view is the four-handed partnership game the other maxims know."""
    return bool(view.layouts) or (bool(view.sides) and view.sides != _PARTNERS_OPPOSITE)


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
    mask = play_mask(legal)
    if not mask:
        return legal[0]
    card = generic_card(view, mask)
    for action in legal:
        if isinstance(action, Play) and action.card is card:
            return action
    return legal[0]  # pragma: no cover - the card came from legal


def budget_of(profile: Profile) -> Budget:
    """The budget of ``profile``'s search at the open tables."""
    return Budget(
        soft=profile.soft, cap=profile.cap, min_worlds=2, max_worlds=profile.open_worlds, margin=0.0
    )


def search_choice(
    view: SeatView,
    legal: Sequence[Action],
    mask: int,
    rng: random.Random,
    profile: Profile,
    budget: Budget,
    start: float,
) -> Action:
    """The searching levels' card among the plays of ``mask`` (see the module
    docstring), or the maxims' (:func:`generic_play`) when the search finds nothing."""
    exact = profile.open_exact if view.layouts else profile.open_exact_hidden
    sharp = profile.sharp and view.n_seats <= 3
    found = (
        search_play(view, mask, rng, budget, start, exact, sharp, profile.relative)
        if applies(view)
        else None
    )
    return generic_play(view, legal) if found is None else play(Card.from_index(found))


def open_strategy(view: SeatView, profile: Profile) -> ops.OpenStrategy:
    """The strategy of ``view``'s card at an open table as ``profile`` plays it
    (:class:`engine.ai.search.open_search.OpenStrategy`: exact from its ``open_exact``
    cards a seat, ``open_exact_hidden`` without layouts; worlds weighed when it is
    ``sharp`` at two or three seats; valued ``relative``). Raises ``ValueError`` when
    the view cannot be read."""
    exact = profile.open_exact if view.layouts else profile.open_exact_hidden
    sharp = profile.sharp and view.n_seats <= 3
    found = ops.OpenStrategy.of(view, exact, sharp, profile.relative)
    if found is None:
        raise ValueError("the open tables' card model cannot read this view")
    return found
