"""Determinized search shared by ``normal`` and ``hard``.

Sample a world (a full deal consistent with the seat's knowledge), score every
candidate card in it (by greedy playout or exact double-dummy solving), and
repeat until the time budget is spent; play the card with the best mean
value. Touching cards are merged first, so equivalent cards are evaluated
once. The same machinery plans the four discards of the ruff.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.ai import clock, dds
from engine.ai.batch import batch_playout
from engine.ai.core import SUIT_BITS, playout, trick_winner_pos
from engine.ai.discard import candidate_discards
from engine.ai.knowledge import Situation, enumerate_worlds, opening_leader, sample_world, situation
from engine.ai.solver import SolverTimeout, solve_cards
from engine.ai.utility import value_table
from engine.game import SeatView

__all__ = [
    "Budget",
    "Evaluator",
    "candidate_cards",
    "dds_evaluator",
    "playout_evaluator",
    "plan_discards",
    "search_card",
    "settled_follow",
    "solver_evaluator",
]

# evaluator(sit, world hands, candidate cards, deadline) -> {card: my side's tricks from now}
Evaluator = Callable[[Situation, list[int], list[int], float], dict[int, int]]


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a decision may search."""

    soft: float  # stop starting new worlds after this many seconds
    cap: float = 1.5  # never run past this (seconds)
    min_worlds: int = 1
    max_worlds: int = 400
    margin: float = 0.0  # a cheaper card within this mean value of the best is preferred
    inference: bool = False  # weight sampled worlds by how well they explain the play
    exact_worlds: int = 0  # play against every possible world when there are at most this many
    exact_cards: int = 2  # ... and the seat holds at most this many cards


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


def _honour_counts(sit: Situation, world: list[int]) -> tuple[int, int] | None:
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


def search_card(
    sit: Situation,
    cands: list[int],
    rng: random.Random,
    evaluate: Evaluator,
    budget: Budget,
    start: float | None = None,
) -> tuple[int, int] | None:
    """The candidate with the best mean value over sampled worlds, and the world count.

    ``None`` if not a single world could be sampled and scored in time.
    """
    if start is None:
        start = clock.now()
    soft = start + budget.soft
    cap = start + budget.cap
    side = sit.seat % 2
    totals = dict.fromkeys(cands, 0.0)
    tables: dict[tuple[int, int] | None, list[float]] = {}
    mine_now = sit.tricks[side]

    def score(world: list[int], weight: float, limit: float) -> None:
        scores = evaluate(sit, world, cands, limit)
        counts = _honour_counts(sit, world)
        table = tables.get(counts)
        if table is None:
            table = tables[counts] = value_table(sit.rules, side, sit.start_scores, counts)
        for c in cands:
            totals[c] += weight * table[mine_now + scores[c]]

    worlds = 0
    mass = 0.0  # total weight of the worlds scored
    every = (
        enumerate_worlds(sit, budget.exact_worlds, budget.inference)
        if budget.exact_worlds and sit.my_hand.bit_count() <= budget.exact_cards
        else None
    )
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
            sampled = sample_world(sit, rng, inference=budget.inference)
            if sampled is None:
                break
            # once a world is in hand, a slow one is abandoned soon after the soft budget
            limit = cap if worlds < budget.min_worlds else min(cap, soft + 0.5 * budget.soft)
            try:
                score(sampled, 1.0, limit)
            except (SolverTimeout, dds.DDSTimeout):
                break
            worlds += 1
            mass += 1.0
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


def plan_discards(
    view: SeatView,
    hand: int,
    allowed: int,
    count: int,
    screen_worlds: int,
    limit: int,
    final: Callable[[list[int], int, int, float], int] | None = None,
    final_worlds: int = 0,
    final_keep: int = 3,
    budget: float = 0.5,
) -> list[int]:
    """Choose ``count`` discards: screen candidate sets by greedy playouts, then
    (optionally) re-score the best few with ``final(hands, leader, trump, timeout)``
    (tricks for the leader's side from the first lead) within ``budget`` seconds.

    Deterministic for a given hand: its own RNG is seeded from the cards.
    """
    start = clock.now()
    sit = situation(view)
    rules = sit.rules
    trump = sit.trump
    seat = sit.seat
    side = seat % 2
    rng = random.Random(hand * 7 + seat)
    cands = candidate_discards(hand, allowed, trump, count, limit)
    if len(cands) <= 1:
        return list(cands[0]) if cands else []
    leader = opening_leader(view)
    total = rules.tricks_per_deal
    hon = sit.honours
    score_honours = rules.honours and bool(hon) and rules.honours_basis != "captured"
    worlds: list[list[int]] = []
    for _ in range(max(screen_worlds, final_worlds)):
        w = sample_world(sit, rng)
        if w is not None:
            worlds.append(w)
    if not worlds:
        return list(cands[0])

    def value(world: list[int], combo: tuple[int, ...], tricks_for_leader: int) -> float:
        out = 0
        for c in combo:
            out |= 1 << c
        keep = hand & ~out
        counts: tuple[int, int] | None = None
        if score_honours:
            c0 = c1 = 0
            for s in range(4):
                h = keep if s == seat else world[s]
                if s % 2 == 0:
                    c0 += (h & hon).bit_count()
                else:
                    c1 += (h & hon).bit_count()
            counts = (c0, c1)
        table = value_table(rules, side, sit.start_scores, counts)
        mine = tricks_for_leader if leader % 2 == side else total - tricks_for_leader
        return table[mine]

    # every (world, set) pair played out greedily in one vectorized batch
    # (engine.ai.batch plays exactly the cards engine.ai.core.playout would)
    screened = worlds[:screen_worlds]
    rows: list[list[int]] = []
    for world in screened:
        for combo in cands:
            hands = list(world)
            out = 0
            for c in combo:
                out |= 1 << c
            hands[seat] = hand & ~out
            rows.append(hands)
    side0 = batch_playout(rows, leader, None, trump, 0, total).tolist()
    scores = dict.fromkeys(cands, 0.0)
    k = 0
    for world in screened:
        for combo in cands:
            ns = side0[k]
            k += 1
            lead_side = ns if leader % 2 == 0 else total - ns
            scores[combo] += value(world, combo, lead_side)
    ranked = sorted(cands, key=lambda k: -scores[k])
    if final is None or final_worlds <= 0:
        return list(ranked[0])
    top = ranked[:final_keep]
    finals = dict.fromkeys(top, 0.0)
    stop = start + budget
    for world in worlds[:final_worlds]:
        row: dict[tuple[int, ...], float] = {}
        try:
            for combo in top:
                hands = list(world)
                out = 0
                for c in combo:
                    out |= 1 << c
                hands[seat] = hand & ~out
                timeout = stop - clock.now()
                if timeout <= 0:
                    raise dds.DDSTimeout
                row[combo] = value(world, combo, final(hands, leader, trump, timeout))
        except (SolverTimeout, dds.DDSTimeout):
            break  # only whole worlds count, so every set is scored on the same deals
        for done, v in row.items():
            finals[done] += v
    best: tuple[int, ...] = max(top, key=lambda k: (finals[k], scores[k]))
    return list(best)
