"""Deals of the unknown cards consistent with a seat's knowledge (:func:`sample_world`,
a :class:`World`), and a world after a card (:func:`after_card`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from engine.ai.search.bitmasks import (
    card_indices,
)
from engine.ai.search.open_search.knowledge import Known

__all__ = ["World", "after_card", "remaining_cards", "sample_world"]


@lru_cache(maxsize=8)
def _set_tables(places: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Per allowed-set ``a``: the sets of places containing it; per place: the sets holding it."""
    full = 1 << places
    supersets = tuple(tuple(t for t in range(full) if a & ~t == 0) for a in range(full))
    containing = tuple(tuple(t for t in range(full) if t >> p & 1) for p in range(places))
    return supersets, containing


@dataclass(slots=True)
class World:
    """One full deal consistent with a seat's knowledge, ready to play out."""

    hands: list[int]  # per seat
    ups: list[int]  # per seat: face-up layout tops
    fresh: list[int]  # per seat: tops turned up during this trick
    under: list[dict[int, tuple[int, ...]]]  # per seat: top card -> face-down cards, bottom first


def sample_world(k: Known, rng: random.Random) -> World | None:
    """A deal of the unknown cards consistent with ``k`` (see the module docstring).

    If the knowledge admits no deal at all (it never should), the constraints
    are dropped; ``None`` if even that fails.
    """
    places = k.places
    supersets, containing = _set_tables(places)
    free = ((1 << places) - 1) & ~(1 << k.seat)
    for relax in (False, True):
        allowed = {c: (free if relax else a) for c, a in k.allowed.items()}
        room = list(k.room)
        within = [0] * (1 << places)  # cards whose allowed places lie within each set
        for a in allowed.values():
            for t in supersets[a]:
                within[t] += 1
        space = [sum(room[p] for p in range(places) if t >> p & 1) for t in range(1 << places)]
        if any(w > r for w, r in zip(within, space, strict=True)):
            continue
        dealt = [0] * places
        cards = list(allowed)
        rng.shuffle(cards)
        for c in cards:
            a = allowed[c]
            for t in supersets[a]:
                within[t] -= 1
            options = [p for p in range(places) if a >> p & 1 and room[p] > 0]
            while True:
                pick = rng.randrange(sum(room[p] for p in options))
                for p in options:
                    pick -= room[p]
                    if pick < 0:
                        break
                for t in containing[p]:
                    space[t] -= 1
                if all(w <= r for w, r in zip(within, space, strict=True)):
                    break
                for t in containing[p]:
                    space[t] += 1
                options.remove(p)
            room[p] -= 1
            dealt[p] |= 1 << c
        hands = [k.fixed[s] | (dealt[s] if s != k.seat else 0) for s in range(k.n)]
        under: list[dict[int, tuple[int, ...]]] = [{} for _ in range(k.n)]
        if k.piles:
            downs = card_indices(dealt[k.n + 1])
            rng.shuffle(downs)
            i = 0
            for s, top, count in k.piles:
                under[s][top] = tuple(downs[i : i + count])
                i += count
        return World(hands, list(k.ups), list(k.fresh), under)
    return None


def after_card(world: World, seat: int, c: int) -> World:
    """``world`` once ``seat`` has played card ``c`` from its hand or its layout (the card
    beneath a layout card turns face up, fresh)."""
    bit = 1 << c
    hands = list(world.hands)
    ups = list(world.ups)
    under = world.under
    fresh = world.fresh
    if hands[seat] & bit:
        hands[seat] ^= bit
    else:
        ups[seat] ^= bit
        under = list(under)
        mine = dict(under[seat])
        stack = mine.pop(c, ())
        if stack:
            top = stack[-1]
            mine[top] = stack[:-1]
            ups[seat] |= 1 << top
            fresh = list(fresh)
            fresh[seat] |= 1 << top
        under[seat] = mine
    return World(hands, ups, fresh, under)


def remaining_cards(world: World) -> int:
    """Cards still to be played in ``world`` (hands, face-up and face-down layout cards)."""
    total = sum(h.bit_count() for h in world.hands) + sum(u.bit_count() for u in world.ups)
    for u in world.under:
        total += sum(len(stack) for stack in u.values())
    return total
