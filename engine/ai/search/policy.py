"""A model of how the other seats choose their cards, and how well a sampled deal explains
their play under it (the trial level ``hard-policy``'s inference).

The model is a conditional logit over the legal cards of one decision: each card is
described by a few features of the hand it came from and the trick so far
(:func:`card_features`: its rank, whether it is the lowest or highest of its suit in
the hand, a master, the suit's length, at a lead, a follow or a discard; whether it
beats the trick, is the cheapest that does, ruffs, with partner winning or not), and
``P(card) = exp(w . f(card)) / sum over the legal cards of exp(w . f(card'))``. The
weights ``w`` are learned from the arena's exported plays, where every hand is
known (``python -m tools.learn_policy``).

A sampled deal of the unseen cards is then weighed by how likely the model makes the
cards the others have played this deal, each from the hand it held then (the
sampled hand plus the cards that seat played since): :func:`play_history` reads
those plays from a view once, :func:`log_likelihood` scores one deal. A seat's own
cards, and decisions with one legal card, say nothing and are left out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.ai.search.bitmasks import NO_TRUMP, SUIT_BITS, SUIT_MASK_OF, trick_winner_pos
from engine.game import SeatView

__all__ = ["FEATURES", "Decision", "card_features", "log_likelihood", "play_history"]

FEATURES = (
    "lead rank",
    "lead trump",
    "lead lowest",
    "lead highest",
    "lead master",
    "lead length",
    "lead top of a sequence",
    "lead longest suit",
    "lead singleton",
    "follow rank",
    "follow lowest",
    "follow highest",
    "follow beats",
    "follow beats, partner winning",
    "follow cheapest that beats",
    "follow beats, second hand",
    "follow beats, fourth hand",
    "follow master",
    "discard rank",
    "discard ruffs",
    "discard ruffs, partner winning",
    "discard over-ruffs",
    "discard lowest",
    "discard length",
    "discard master",
    "discard trump, not ruffing",
)
"""The features' names, in the order :func:`card_features` gives them."""

_N = len(FEATURES)


@dataclass(frozen=True, slots=True)
class Decision:
    """One card another seat played this deal, with what it was chosen from
    (everything but the seat's hand, which a sampled deal supplies)."""

    index: int  # the play's place in the deal's sequence of cards
    seat: int
    card: int
    trick: tuple[int, ...]  # the cards before it in its trick
    leader: int  # the trick's leader
    gone: int  # the cards played in earlier tricks


def play_history(view: SeatView) -> tuple[list[int], list[int], list[Decision]]:
    """The deal's plays in order as ``(seats, cards, decisions)``: every card played so far
    (earlier tricks and the current one) and, for each card of another seat, its
    :class:`Decision`."""
    seats: list[int] = []
    cards: list[int] = []
    decisions: list[Decision] = []
    gone = 0
    tricks = [(leader, [c.index for c in trick]) for leader, trick, _w in view.completed_tricks]
    if view.trick:
        tricks.append((view.trick_leader, [c.index for _s, c in view.trick]))
    for leader, trick in tricks:
        for pos, card in enumerate(trick):
            seat = (leader + pos) % 4
            if seat != view.seat:
                decisions.append(Decision(len(cards), seat, card, tuple(trick[:pos]), leader, gone))
            seats.append(seat)
            cards.append(card)
        for card in trick:
            gone |= 1 << card
    return seats, cards, decisions


def _legal(hand: int, trick: tuple[int, ...]) -> int:
    if not trick:
        return hand
    return hand & SUIT_MASK_OF[trick[0]] or hand


def card_features(
    hand: int, card: int, trick: tuple[int, ...], gone: int, trump: int, sides_same: bool
) -> list[float]:
    """The features of playing ``card`` from ``hand`` (:data:`FEATURES`), the trick so far
    ``trick``, ``gone`` the cards of earlier tricks, ``sides_same``: the trick's winner so
    far is the player's partner (always false at a lead)."""
    f = [0.0] * _N
    suit = SUIT_MASK_OF[card]
    mine = hand & suit
    rank = (card % 13) / 12
    lowest = float(mine & -mine == 1 << card)
    highest = float(mine.bit_length() - 1 == card)
    above = suit & ~((2 << card) - 1)
    master = float(not above & ~hand & ~gone & ~_trick_mask(trick))
    length = mine.bit_count() / 13
    is_trump = trump != NO_TRUMP and card // 13 == trump
    if not trick:
        lengths = [(hand & SUIT_BITS[s]).bit_count() for s in range(4) if s != trump]
        f[0] = rank
        f[1] = float(is_trump)
        f[2] = lowest
        f[3] = highest
        f[4] = master
        f[5] = length
        f[6] = float(bool(hand >> (card + 1) & 1) and card % 13 < 12)
        f[7] = float(not is_trump and mine.bit_count() >= max(lengths, default=0))
        f[8] = float(mine.bit_count() == 1)
        return f
    win_pos = trick_winner_pos(list(trick), trump)
    winner = trick[win_pos]
    beats = trick_winner_pos([*trick, card], trump) == len(trick)
    if card // 13 == trick[0] // 13:
        f[9] = rank
        f[10] = lowest
        f[11] = highest
        f[12] = float(beats)
        f[13] = float(beats and sides_same)
        if beats:
            over = mine & ~((2 << winner) - 1) if winner // 13 == card // 13 else mine
            f[14] = float(over & -over == 1 << card)
            f[15] = float(len(trick) == 1)
            f[16] = float(len(trick) == 3)
        f[17] = master
        return f
    f[18] = rank
    if is_trump:
        f[19] = float(beats)
        f[20] = float(beats and sides_same)
        f[21] = float(beats and winner // 13 == trump)
        f[25] = float(not beats)
    f[22] = lowest
    f[23] = length
    f[24] = master
    return f


def _trick_mask(trick: tuple[int, ...]) -> int:
    m = 0
    for c in trick:
        m |= 1 << c
    return m


def log_likelihood(
    weights: tuple[float, ...],
    world: list[int],
    seats: list[int],
    cards: list[int],
    decisions: list[Decision],
    trump: int,
    sides: tuple[int, ...],
) -> float:
    """The model's log-likelihood of the others' cards (``decisions``, from
    :func:`play_history`) in the deal whose hands are now ``world``: each card chosen
    from the hand its seat held then (its hand now and the cards it played since)."""
    hands = list(world[:4])
    total = 0.0
    k = len(cards)
    for d in reversed(decisions):
        while k > d.index:  # give back every card played from this one on
            k -= 1
            hands[seats[k]] |= 1 << cards[k]
        hand = hands[d.seat]
        legal = _legal(hand, d.trick)
        if not legal >> d.card & 1:
            legal = hand  # a revoke (where the rules let it stand)
        if legal & (legal - 1) == 0:
            continue  # one card: no choice
        same = False
        if d.trick:
            win = (d.leader + trick_winner_pos(list(d.trick), trump)) % 4
            same = sides[win] == sides[d.seat]
        logits = []
        chosen = 0.0
        m = legal
        while m:
            c = (m & -m).bit_length() - 1
            m &= m - 1
            f = card_features(hand, c, d.trick, d.gone, trump, same)
            z = sum(w * x for w, x in zip(weights, f, strict=True))
            logits.append(z)
            if c == d.card:
                chosen = z
        top = max(logits)
        total += chosen - top - math.log(sum(math.exp(z - top) for z in logits))
    return total
