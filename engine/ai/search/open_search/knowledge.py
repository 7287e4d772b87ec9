"""What a seat at an open table knows of the deal (:func:`knowledge_of`), and which
tables the open search plays (:func:`applies`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.ai.search.bitmasks import (
    NO_TRUMP,
    SUIT_BITS,
    card_indices,
)
from engine.ai.search.worlds import rules_for
from engine.cards import HIGH, Rank, mask_of
from engine.game import SeatView
from engine.rules import Rules

__all__ = ["Known", "applies", "knowledge_of"]


def applies(view: SeatView) -> bool:
    """Whether this search can play the view: a natural 52-card pack ranked ``HIGH``
    (no jokers), at most four seats."""
    rules = view.rules
    return (
        rules is not None
        and rules.jokers == 0
        and view.rank_order == HIGH
        and 2 <= view.n_seats <= 4
    )


@lru_cache(maxsize=8)
def _deck(removed: tuple[Rank, ...]) -> int:
    deck = 0
    for i in range(52):
        if Rank(i % 13 + 2) not in removed:
            deck |= 1 << i
    return deck


# --------------------------------------------------------------------------- what a seat knows


@dataclass(slots=True)
class Known:
    """One seat's knowledge of the deal in play (see :func:`knowledge_of`).

    Places: ``0..n-1`` the seats' hands, ``n`` the cards out of play (the
    head, a lay-out), ``n + 1`` the face-down layout cards.
    """

    seat: int
    n: int
    sides: tuple[int, ...]
    trump: int  # 0..3, or NO_TRUMP
    hand: int  # the seat's own hand (its face-up layout cards are in ``ups``)
    played: int  # every card played this deal, the current trick included
    leader: int
    trick: list[int]
    tricks: list[int]  # tricks won per side so far
    fixed: list[int]  # per seat: cards known to be in its hand (the seat's own hand included)
    room: list[int]  # per place: unknown cards it holds
    allowed: dict[int, int]  # unknown card -> bitmask of the places it may be in
    ups: list[int]  # per seat: face-up layout tops
    fresh: list[int]  # per seat: tops turned up during this trick
    piles: list[tuple[int, int, int]]  # (seat, top card, face-down count) of every covered pile
    stop: int  # a side with this many tricks ends the deal
    rules: Rules

    @property
    def places(self) -> int:
        return self.n + 2


def _voids(view: SeatView, n: int) -> list[int]:
    """Per seat, the suit masks it has shown void in (its hand, for a layout game)."""
    void = [0] * n
    tricks: list[tuple[int, Sequence[int]]] = [
        (leader, [c.index for c in cards]) for leader, cards, _ in view.completed_tricks
    ]
    if view.trick:
        tricks.append((view.trick_leader, [c.index for _, c in view.trick]))
    for leader, cards in tricks:
        led = cards[0] // 13
        for i, c in enumerate(cards[1:], start=1):
            if c // 13 != led:
                void[(leader + i) % n] |= SUIT_BITS[led]
    return void


def knowledge_of(view: SeatView) -> Known | None:
    """What ``view``'s seat knows, or ``None`` when the view and rules disagree
    (the caller then plays by the maxims)."""
    rules = rules_for(view)
    n = view.n_seats
    seat = view.seat
    sides = view.sides or tuple(s % 2 for s in range(n))
    trump = view.trump.order if view.trump is not None else NO_TRUMP
    hand = mask_of(view.hand)
    played = 0
    for _, cards, _ in view.completed_tricks:
        played |= mask_of(cards)
    trick = [c.index for _, c in view.trick]
    for c in trick:
        played |= 1 << c
    ups = [0] * n
    fresh = [0] * n
    piles: list[tuple[int, int, int]] = []
    down_total = 0
    for s, seat_piles in enumerate(view.layouts[:n]):
        for pile in seat_piles:
            if pile.up is None:
                continue
            ups[s] |= pile.up.bit
            if pile.fresh:
                fresh[s] |= pile.up.bit
            if pile.down:
                piles.append((s, pile.up.index, pile.down))
                down_total += pile.down
    public = 0
    for u in ups:
        public |= u
    pool = _deck(rules.removed_ranks) & ~hand & ~played & ~public & ~mask_of(view.my_discards)
    fixed = [0] * n
    fixed[seat] = hand
    out = n
    down = n + 1
    everywhere = ((1 << (n + 2)) - 1) & ~(1 << seat)
    if not down_total:
        everywhere &= ~(1 << down)
    allowed = dict.fromkeys(card_indices(pool), everywhere)
    void = _voids(view, n)
    for c in allowed:
        for s in range(n):
            if void[s] >> c & 1:
                allowed[c] &= ~(1 << s)
    turn_up = view.turn_up
    if turn_up is not None and turn_up.index in allowed:
        holder = view.turn_up_holder
        if holder is None and view.ruff_state == "taken":
            holder = view.ruffer  # the rubber took the head's top four, the turn-up with them
        if holder is not None and holder != seat and not void[holder] >> turn_up.index & 1:
            allowed[turn_up.index] = 1 << holder
        elif holder is None:
            allowed[turn_up.index] = 1 << out  # still in the head
    if (
        view.trump is not None
        and view.ruff_state == "taken"
        and view.ruffer is not None
        and view.ruffer not in (seat, view.dealer)
    ):
        ace = view.trump.order * 13 + 12
        if ace in allowed and ace != (turn_up.index if turn_up else -1):
            keep = allowed[ace] & ((1 << view.ruffer) | (1 << out))
            if keep:
                allowed[ace] = keep  # he rubbed because he held it
    room = [0] * (n + 2)
    sizes = view.hand_sizes
    for s in range(n):
        if s != seat:
            room[s] = sizes[s] - fixed[s].bit_count()
    room[down] = down_total
    room[out] = pool.bit_count() - sum(room)
    if any(r < 0 for r in room):
        return None
    tricks = list(view.tricks) if view.tricks else [0] * (max(sides) + 1)
    stop = rules.tricks_per_deal // 2 + 1 if rules.stop_at_majority else 10**6
    return Known(
        seat, n, tuple(sides), trump, hand, played, view.trick_leader, trick, tricks,
        fixed, room, allowed, ups, fresh, piles, stop, rules,
    )  # fmt: skip
