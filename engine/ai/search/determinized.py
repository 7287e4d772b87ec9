"""Determinized search shared by ``normal`` and ``hard``.

Sample a world (a full deal consistent with the seat's knowledge), score every
candidate card in it (by greedy playout or exact double-dummy solving), and
repeat until the time budget is spent; play the card with the best mean
value. Touching cards are merged first, so equivalent cards are evaluated
once.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Protocol

from engine.ai.search import clock, dds
from engine.ai.search.bitmasks import SUIT_BITS, playout, trick_winner_pos
from engine.ai.search.budget import Budget
from engine.ai.search.solver import SolverTimeout, solve_cards
from engine.ai.search.worlds import Situation

__all__ = [
    "CardSearch",
    "Evaluator",
    "candidate_cards",
    "dds_evaluator",
    "honour_counts",
    "playout_evaluator",
    "search_card",
    "settled_follow",
    "solver_evaluator",
]

# evaluator(sit, world hands, candidate cards, deadline) -> {card: my side's tricks from now}
Evaluator = Callable[[Situation, list[int], list[int], float], dict[int, int]]


def candidate_cards(sit: Situation, legal: int) -> list[int]:
    """One card (the lowest) for each run of equivalent legal cards.

    Two of my cards are equivalent when every card ranked between them is mine
    or has already gone in an earlier trick.
    """
    trick_mask = 0
    for c in sit.trick:
        trick_mask |= 1 << c
    gone = (sit.played & ~trick_mask) | sit.fixed[4]
    out: list[int] = []
    for bits in SUIT_BITS:
        mine = legal & bits
        if not mine:
            continue
        others = bits & ~gone & ~sit.my_hand
        prev = -1
        m = mine
        while m:
            c = (m & -m).bit_length() - 1
            m &= m - 1
            if prev < 0 or others & ((1 << c) - (1 << (prev + 1))):
                out.append(c)
            prev = c
    return out


def settled_follow(sit: Situation, legal: int) -> int | None:
    """Last to play and following suit, when no card changes who takes the trick: the lowest.

    (Only an unblocking play could beat it, which greedy playouts cannot see.)
    """
    trick = sit.trick
    if len(trick) != 3 or legal & ~SUIT_BITS[trick[0] // 13]:
        return None
    trump = sit.trump
    outcomes = set()
    m = legal
    while m:
        c = (m & -m).bit_length() - 1
        m &= m - 1
        outcomes.add(trick_winner_pos([*trick, c], trump) % 2)
    if len(outcomes) != 1:
        return None
    return (legal & -legal).bit_length() - 1


def honour_counts(sit: Situation, world: list[int]) -> tuple[int, int] | None:
    rules = sit.rules
    if not rules.honours or not sit.honours or rules.honours_basis == "captured":
        return None
    hon = sit.honours
    counts = [0, 0]
    for s in range(4):
        counts[s % 2] += ((world[s] | sit.played_by[s]) & hon).bit_count()
    return counts[0], counts[1]


def playout_evaluator(
    sit: Situation, world: list[int], cands: list[int], deadline: float
) -> dict[int, int]:
    """Greedy playout after each candidate card."""
    seat = sit.seat
    trump = sit.trump
    side = seat % 2
    tricks_left = sit.tricks_left
    ns_now = sit.tricks[0]
    out: dict[int, int] = {}
    for c in cands:
        hands = list(world)
        hands[seat] ^= 1 << c
        trick = [*sit.trick, c]
        ns = playout(hands, sit.leader, trick, trump, ns_now, tricks_left) - ns_now
        out[c] = ns if side == 0 else tricks_left - ns
    return out


def solver_evaluator(
    sit: Situation, world: list[int], cands: list[int], deadline: float
) -> dict[int, int]:
    """Exact double-dummy values from the pure-Python solver."""
    return solve_cards(world, sit.leader, sit.trick, sit.trump, deadline)


def dds_evaluator(
    sit: Situation, world: list[int], cands: list[int], deadline: float
) -> dict[int, int]:
    """Exact double-dummy values from DDS (small endgames go to the Python solver)."""
    if world[sit.seat].bit_count() <= 2:
        return solve_cards(world, sit.leader, sit.trick, sit.trump, deadline)
    timeout = max(0.001, deadline - clock.now())
    return dds.solve_cards(world, sit.leader, sit.trick, sit.trump, timeout)


class CardSearch(Protocol):
    """What :func:`search_card` asks of a partnership table's strategy
    (:class:`engine.ai.strategies.partnership.PartnershipStrategy`)."""

    @property
    def sit(self) -> Situation: ...

    def worlds(self, rng: random.Random) -> Iterator[tuple[list[int], float]]: ...

    def every_world(self, limit: int) -> list[tuple[list[int], float]] | None: ...

    def evaluate(self, world: list[int], cands: list[int], deadline: float) -> dict[int, float]: ...


def search_card(
    strategy: CardSearch,
    cands: list[int],
    rng: random.Random,
    budget: Budget,
    start: float | None = None,
) -> tuple[int, int] | None:
    """The candidate with the best mean value over ``strategy``'s worlds, and the world count.

    ``None`` if not a single world could be sampled and scored in time.
    """
    if start is None:
        start = clock.now()
    sit = strategy.sit
    soft = start + budget.soft
    cap = start + budget.cap
    totals = dict.fromkeys(cands, 0.0)

    def score(world: list[int], weight: float, limit: float) -> None:
        values = strategy.evaluate(world, cands, limit)
        for c in cands:
            totals[c] += weight * values[c]

    worlds = 0
    mass = 0.0  # total weight of the worlds scored
    every = (
        strategy.every_world(budget.exact_worlds)
        if budget.exact_worlds and sit.my_hand.bit_count() <= budget.exact_cards
        else None
    )
    sampler = strategy.worlds(rng)
    if every is not None:
        # the endgame: every world that can be, each weighed, within the cap only
        for world, weight in every:
            try:
                score(world, weight, cap)
            except (SolverTimeout, dds.DDSTimeout):
                break
            worlds += 1
            mass += weight
            if clock.now() > cap:
                break
    else:
        slowest = 0.0
        while worlds < budget.max_worlds:
            now = clock.now()
            if worlds >= budget.min_worlds and now + slowest > soft:
                break
            if now > cap:
                break
            sampled = next(sampler, None)
            if sampled is None:
                break
            # once a world is in hand, a slow one is abandoned soon after the soft budget
            limit = cap if worlds < budget.min_worlds else min(cap, soft + 0.5 * budget.soft)
            try:
                score(sampled[0], sampled[1], limit)
            except (SolverTimeout, dds.DDSTimeout):
                break
            worlds += 1
            mass += sampled[1]
            took = clock.now() - now
            slowest = max(slowest * 0.8, took)
    if not worlds:
        return None
    # best mean; among equals, last to play takes the trick if it can, and
    # otherwise the cheaper card goes (non-trump first, then the lower rank)
    trump = sit.trump
    last = len(sit.trick) == 3

    def key(c: int) -> tuple[float, int, int, int]:
        takes = 0
        if last:
            trick = [*sit.trick, c]
            takes = 0 if trick_winner_pos(trick, trump) % 2 == 1 else -1  # me or partner
        return (-totals[c], takes, 1 if c // 13 == trump else 0, c % 13)

    best = min(cands, key=key)
    if budget.margin > 0:
        floor = totals[best] - budget.margin * mass
        near = [c for c in cands if totals[c] >= floor]
        best = min(near, key=lambda c: (key(c)[1:], -totals[c]))
    return best, worlds
