"""What a Bid Whist seat knows of where the cards are (:func:`knowledge_of`), and deals
of the cards it cannot see consistent with that (:func:`sample_world`): the other
hands and the hidden kitty or lay-out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from engine.ai.search.bitmasks import card_indices
from engine.ai.strategies.bid_whist.model import BJ, CARDS, LJ, NONE, DealModel, led_suit
from engine.cards import mask_of
from engine.game import SeatView

__all__ = ["Knowledge", "knowledge_of", "pack_mask", "sample_world", "shown_voids"]


def pack_mask(jokers: int) -> int:
    """The cards of the pack: the 52 and ``jokers`` jokers (the Big one alone with one)."""
    mask = (1 << 52) - 1
    if jokers >= 1:
        mask |= 1 << BJ
    if jokers >= 2:
        mask |= 1 << LJ
    return mask


@dataclass(slots=True)
class Knowledge:
    """What one seat knows of where the cards are (see :func:`knowledge_of`)."""

    seat: int
    hand: int
    pool: int  # cards this seat cannot place: in other hands or hidden out of play
    need: list[int]  # cards each seat still holds (mine included) and, at index 4, hidden out
    allowed: dict[int, int]  # card -> bitmask of the slots (0..3 seats, 4 out) it may be in


def shown_voids(m: DealModel, view: SeatView) -> dict[int, int]:
    """Per seat, the suits (bit per suit) it has shown void in during play."""
    voids: dict[int, int] = {}
    n = len(view.hand_sizes)
    plays: list[list[tuple[int, int]]] = [
        [((leader + i) % n, c.index) for i, c in enumerate(cards)]
        for leader, cards, _ in view.completed_tricks
    ]
    plays.append([(s, c.index) for s, c in view.trick])
    for trick in plays:
        cards = [c for _, c in trick]
        for i, (seat, card) in enumerate(trick):
            led = led_suit(m, cards[:i]) if i else NONE
            if led != NONE and m.suit[card] != led:
                voids[seat] = voids.get(seat, 0) | (1 << led)
    return voids


def knowledge_of(view: SeatView, m: DealModel) -> Knowledge:
    """The view's facts: my hand, the unseen pool, how many each place holds, voids."""
    rules = view.rules
    assert rules is not None
    seat = view.seat
    hand = mask_of(view.hand)
    played = mask_of(view.trick[i][1] for i in range(len(view.trick)))
    for _, cards, _ in view.completed_tricks:
        played |= mask_of(cards)
    known_out = mask_of(view.my_discards)
    pool = pack_mask(rules.jokers) & ~hand & ~played & ~known_out
    need = [*view.hand_sizes, 0]
    need[4] = pool.bit_count() - sum(need[s] for s in range(4) if s != seat)
    need[seat] = 0
    all_slots = 0b11111 & ~(1 << seat)
    allowed: dict[int, int] = {}
    voids = shown_voids(m, view)
    declarer = view.declarer
    exposed = set(view.stock_taken) if declarer is not None and declarer != seat else set()
    nt_discards_jokers = (
        declarer is not None
        and view.trump is None
        and view.contract.endswith("n")
        and rules.nt_jokers == "bidder_discards"
        and view.phase == "play"
    )
    for c in card_indices(pool):
        slots = all_slots
        for s in range(4):
            if voids.get(s, 0) >> m.suit[c] & 1 and m.suit[c] != NONE:
                slots &= ~(1 << s)
        if declarer is not None and CARDS[c] in exposed:
            slots &= (1 << declarer) | (1 << 4)
        if nt_discards_jokers and c >= LJ and declarer is not None:
            slots &= ~(1 << declarer)
        allowed[c] = slots
    return Knowledge(seat, hand, pool, need, allowed)


_SUPERSETS: Final = tuple(tuple(t for t in range(32) if a & ~t == 0) for a in range(32))
_CONTAINING: Final = tuple(tuple(t for t in range(32) if t >> s & 1) for s in range(5))


def _feasible(within: list[int], space: list[int]) -> bool:
    """Hall's condition: for every set T of places, the cards that may only go
    into T fit into T's room (``space[T]``): the test of a deal with capacities."""
    return all(w <= r for w, r in zip(within, space, strict=True))


def sample_world(k: Knowledge, rng: random.Random) -> list[int] | None:
    """Four hands and the hidden out-of-play cards (index 4), consistent with ``k``.

    Each card goes, in random order, to a random place it may be in, weighted
    by the room left there, among the places that keep the rest of the deal
    possible (:func:`_feasible`), so every consistent deal can come out and no
    attempt dead-ends. If the knowledge admits no deal at all (it never should),
    the voids are dropped; ``None`` if even that fails.
    """
    for relax in (False, True):
        free = 0b11111 & ~(1 << k.seat)
        allowed = {c: (free if relax else a) for c, a in k.allowed.items()}
        room = list(k.need)
        within = [0] * 32  # cards whose allowed places lie within each set of places
        for a in allowed.values():
            for t in _SUPERSETS[a]:
                within[t] += 1
        space = [sum(room[s] for s in range(5) if t >> s & 1) for t in range(32)]
        if not _feasible(within, space):
            continue
        world = [0, 0, 0, 0, 0]
        world[k.seat] = k.hand
        cards = list(allowed)
        rng.shuffle(cards)
        for c in cards:
            a = allowed[c]
            for t in _SUPERSETS[a]:
                within[t] -= 1
            places = [s for s in range(5) if a >> s & 1 and room[s] > 0]
            while True:
                pick = rng.randrange(sum(room[s] for s in places))
                for s in places:
                    pick -= room[s]
                    if pick < 0:
                        break
                for t in _CONTAINING[s]:
                    space[t] -= 1
                if _feasible(within, space):
                    break
                for t in _CONTAINING[s]:
                    space[t] += 1
                places.remove(s)
            room[s] -= 1
            world[s] |= 1 << c
        return world
    return None
