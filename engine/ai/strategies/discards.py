"""Laying cards out before the play: the ruff's four discards and the rub's lay-out.

The engine takes the discards one :class:`engine.actions.Discard` at a time, so
a player plans them all once and then returns them one by one
(:class:`DiscardPlanner`). The plan is cached per (seat, cards in hand); if the
cache is cold (another process, a restart) it is recomputed deterministically
from the same cards, and if what was already laid out disagrees with the plan
the remaining cards are re-planned around it, so the discards are always
consistent.

Three ways to plan, by level and table:

* the maxims (:func:`greedy_discards`, every level's fallback and ``easy``'s
  plan): low cards of short side suits first, trumps and honours kept;
* a four-handed partnership (:func:`plan_discards`, ``normal`` and ``hard``):
  the most promising sets by a hand-strength estimate (:func:`candidate_discards`)
  are played out greedily in sampled worlds, and with DDS the best few are
  re-scored double-dummy;
* the rub at the open tables (:func:`plan_open_discards`, ``hard``: Ruffe and
  Trump for three or two, or single-handed, where the holder of the trump ace
  who takes the head's top four in lays out as many cards): the same
  candidates played out greedily for every seat in worlds sampled by
  :mod:`engine.ai.search.open_search`, every candidate against the same
  worlds, so their difference is not sampling noise; the set with the best
  mean deal value (:func:`engine.ai.search.open_search.deal_value`) is laid
  out, a tie keeping the estimate's order.

The searched plans are deterministic for a given hand (their RNG is seeded from
the cards) and keep to a time budget (:mod:`engine.ai.search.clock`).
"""

from __future__ import annotations

import itertools
import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Final

from engine.actions import Action, Discard, discard
from engine.ai.levels import Profile
from engine.ai.search import clock, dds
from engine.ai.search.batch_playouts import batch_playout
from engine.ai.search.bitmasks import NO_TRUMP, SUIT_BITS
from engine.ai.search.open_search import (
    World,
    applies,
    deal_value,
    knowledge_of,
    playout,
    sample_world,
)
from engine.ai.search.solver import SolverTimeout
from engine.ai.search.value import value_table
from engine.ai.search.worlds import opening_leader, rules_for, situation
from engine.ai.search.worlds import sample_world as sample_hidden_world
from engine.cards import Card
from engine.game import SeatView

__all__ = [
    "DiscardPlanner",
    "OPEN_CANDIDATES",
    "OPEN_MIN_WORLDS",
    "candidate_discards",
    "greedy_discards",
    "open_planner",
    "plan_discards",
    "plan_open_discards",
    "planner",
]

OPEN_CANDIDATES: Final = (
    10  # sets of discards played out at the open tables (the maxims' set added)
)
OPEN_MIN_WORLDS: Final = 8  # worlds played out at least, whatever the budget
OPEN_MAX_WORLDS: Final = 400  # ... and at most


def _card_value(card: int, hand: int, trump: int) -> float:
    """How much a card is worth keeping (rough trick-taking value)."""
    suit, rank = divmod(card, 13)
    if suit == trump:
        return 100.0 + rank + (20.0 if rank >= 9 else 0.0)
    length = (hand & SUIT_BITS[suit]).bit_count()
    if rank == 12:
        return 50.0
    if rank == 11:
        return 35.0 if length >= 2 else 12.0
    if rank == 10:
        return 22.0 if length >= 3 else 8.0
    if rank == 9:
        return 12.0 if length >= 4 else 5.0
    return float(rank) * 0.5


def greedy_discards(hand: int, allowed: int, trump: int, count: int) -> list[int]:
    """Lay out ``count`` cards of ``allowed`` one at a time, cheapest first.

    Low cards of short side suits go first (a void lets the trumps ruff);
    trumps, and above all honours, are kept. Deterministic.
    """
    chosen: list[int] = []
    trumps = (hand & SUIT_BITS[trump]).bit_count() if trump != NO_TRUMP else 0
    for _ in range(count):
        best = -1
        best_v = 1e9
        m = allowed & hand
        while m:
            c = (m & -m).bit_length() - 1
            m &= m - 1
            v = _card_value(c, hand, trump)
            suit = c // 13
            if suit != trump and trumps >= 2:
                length = (hand & SUIT_BITS[suit]).bit_count()
                if length <= count - len(chosen):
                    v -= 4.0 / length  # finishing a void is worth a little
            if v < best_v:
                best, best_v = c, v
        if best < 0:
            break
        chosen.append(best)
        hand &= ~(1 << best)
    return chosen


def keep_score(keep: int, trump: int) -> float:
    """A quick estimate of the playing strength of a twelve-card hand."""
    score = 0.0
    trumps = (keep & SUIT_BITS[trump]).bit_count() if trump != NO_TRUMP else 0
    for suit in range(4):
        mine = keep & SUIT_BITS[suit]
        length = mine.bit_count()
        if suit == trump:
            score += 1.2 * length
            m = mine
            while m:
                c = (m & -m).bit_length() - 1
                m &= m - 1
                if c % 13 >= 9:
                    score += 1.5  # an honour (and a likely trick)
            continue
        if length == 0:
            score += 0.9 * min(trumps, 3)
            continue
        if length == 1:
            score += 0.5 * min(trumps, 2)
        elif length == 2:
            score += 0.2 * min(trumps, 1)
        m = mine
        while m:
            c = (m & -m).bit_length() - 1
            m &= m - 1
            rank = c % 13
            if rank == 12:
                score += 1.0
            elif rank == 11:
                score += 0.7 if length >= 2 else 0.3
            elif rank == 10:
                score += 0.4 if length >= 3 else 0.15
        if length >= 4:
            score += 0.25 * (length - 3)
    return score


def candidate_discards(
    hand: int, allowed: int, trump: int, count: int, limit: int
) -> list[tuple[int, ...]]:
    """The ``limit`` most promising sets of ``count`` discards (by :func:`keep_score`)."""
    both = allowed & hand
    if trump != NO_TRUMP:
        # never lay out an honour (they score while held) when other cards will do
        honours = 0b1111 << (trump * 13 + 9)
        if (both & ~honours).bit_count() >= count:
            both &= ~honours
    cards = [i for i in range(52) if both >> i & 1]
    scored: list[tuple[float, tuple[int, ...]]] = []
    for combo in itertools.combinations(cards, count):
        out = 0
        for c in combo:
            out |= 1 << c
        scored.append((-keep_score(hand & ~out, trump), combo))
    scored.sort()
    result = [combo for _, combo in scored[:limit]]
    greedy = tuple(sorted(greedy_discards(hand, allowed, trump, count)))
    if len(greedy) == count and greedy not in result:
        result.append(greedy)
    return result


# plan(view, sixteen-card hand mask, discardable mask, how many) -> cards to lay out
PlanFn = Callable[[SeatView, int, int, int], list[int]]


_PLANS: OrderedDict[tuple[object, ...], list[int]] = OrderedDict()
_PLANS_LOCK = threading.Lock()
_PLANS_SIZE = 512


class DiscardPlanner:
    """Plans a ruffer's discards once and hands them out one by one.

    Plans live in one process-wide cache (guarded by a lock) keyed by the
    planner's name, the seat and its sixteen cards, so a fresh player object
    for the same level carries on the same plan.
    """

    def __init__(self, name: str, plan: PlanFn) -> None:
        self.name = name
        self._plan = plan

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The next discard of the plan (planning it on the first call)."""
        discards = [a for a in legal if isinstance(a, Discard)]
        allowed = 0
        for a in discards:
            allowed |= a.card.bit
        hand = 0
        for card in view.hand:
            hand |= card.bit
        done = [card.index for card in view.my_discards]
        full = hand
        for i in done:
            full |= 1 << i
        left = len(view.hand) - rules_for(view).hand_size
        key = (self.name, view.seat, view.game_id, view.deal_no, full, view.trump)
        with _PLANS_LOCK:
            plan = _PLANS.get(key)
        if plan is None or not set(done) <= set(plan):
            # first call, or a cold cache part-way through: plan what is left
            plan = done + self._plan(view, hand, allowed, left)
            with _PLANS_LOCK:
                _PLANS[key] = plan
                while len(_PLANS) > _PLANS_SIZE:
                    _PLANS.popitem(last=False)
        for i in plan:
            if i not in done and allowed >> i & 1:
                return discard(Card.from_index(i))
        return discards[0]


# --------------------------------------------------------------------------- searched plans


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
        w = sample_hidden_world(sit, rng)
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
    # (engine.ai.search.batch_playouts plays exactly the cards engine.ai.search.bitmasks.playout would)
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


def plan_open_discards(
    view: SeatView, hand: int, allowed: int, count: int, budget: float, relative: bool = False
) -> list[int]:
    """The ``count`` cards (indices) of ``allowed`` for the rubber to lay out
    (see the module docstring); ``budget`` seconds of search at most, beyond
    ``OPEN_MIN_WORLDS`` worlds; ``relative`` as in
    :func:`engine.ai.search.open_search.deal_value`."""
    k = knowledge_of(view) if applies(view) else None
    trump = k.trump if k is not None else (view.trump.order if view.trump is not None else NO_TRUMP)
    cands = candidate_discards(hand, allowed, trump, count, OPEN_CANDIDATES)
    if k is None or len(cands) <= 1:
        return list(cands[0]) if cands else greedy_discards(hand, allowed, trump, count)
    start = clock.now()
    rng = random.Random(hand * 7 + k.seat)
    leader = opening_leader(view)
    side = k.sides[k.seat]
    start_tricks = [0] * len(k.tricks)
    keeps = []
    for combo in cands:
        out = 0
        for c in combo:
            out |= 1 << c
        keeps.append(hand & ~out)
    totals = [0.0] * len(cands)
    worlds = 0
    while worlds < OPEN_MAX_WORLDS and (worlds < OPEN_MIN_WORLDS or clock.now() - start < budget):
        world = sample_world(k, rng)
        if world is None:
            break
        for i, keep in enumerate(keeps):
            hands = list(world.hands)
            hands[k.seat] = keep
            final = playout(
                World(hands, world.ups, world.fresh, world.under),
                leader,
                [],
                k.trump,
                k.sides,
                start_tricks,
                k.stop,
            )
            totals[i] += deal_value(k.rules, k.sides, side, final, relative)
        worlds += 1
    if not worlds:
        return list(cands[0])
    best = max(range(len(cands)), key=lambda i: (totals[i], -i))
    return list(cands[best])


# --------------------------------------------------------------------------- a level's planners


def _maxims_plan(view: SeatView, hand: int, allowed: int, count: int) -> list[int]:
    trump = view.trump.order if view.trump is not None else NO_TRUMP
    return greedy_discards(hand, allowed, trump, count)


def planner(profile: Profile) -> DiscardPlanner:
    """``profile``'s planner of the ruff's discards at a four-handed partnership table."""
    if not profile.searches:
        return DiscardPlanner("easy", _maxims_plan)

    def plan(view: SeatView, hand: int, allowed: int, count: int) -> list[int]:
        if profile.discard_dds_worlds and dds.available() and profile.double_dummy:
            return plan_discards(
                view,
                hand,
                allowed,
                count,
                screen_worlds=profile.discard_worlds_dds,
                limit=profile.discard_candidates,
                final=dds.max_tricks,
                final_worlds=profile.discard_dds_worlds,
                final_keep=3,
                budget=2.5 * profile.soft,
            )
        return plan_discards(
            view,
            hand,
            allowed,
            count,
            screen_worlds=profile.discard_worlds,
            limit=profile.discard_candidates,
        )

    return DiscardPlanner(profile.name, plan)


def open_planner(profile: Profile) -> DiscardPlanner:
    """``profile``'s planner of the rub's lay-out at the open tables (the maxims unless it searches them)."""
    if not profile.open_discards:
        return DiscardPlanner("easy", _maxims_plan)

    def plan(view: SeatView, hand: int, allowed: int, count: int) -> list[int]:
        return plan_open_discards(view, hand, allowed, count, profile.soft, profile.relative)

    return DiscardPlanner(f"{profile.name}-open", plan)
