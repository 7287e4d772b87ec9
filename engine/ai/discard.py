"""The ruff: which four of sixteen cards to lay out.

The engine takes the four discards one :class:`engine.actions.Discard` at a
time, so a player plans all four once and then returns them one by one. The
plan is cached per (seat, sixteen cards); if the cache is cold (another
process, a restart) it is recomputed deterministically from the same cards,
and if what was already laid out disagrees with the plan the remaining cards
are re-planned around it, so the four discards are always consistent.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

from engine.actions import Action, Discard, discard
from engine.ai.core import NO_TRUMP, SUIT_BITS
from engine.ai.knowledge import rules_for
from engine.cards import Card
from engine.game import SeatView

__all__ = ["DiscardPlanner", "candidate_discards", "greedy_discards", "keep_score"]


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
