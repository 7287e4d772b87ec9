"""``normal``: determinized sampling with greedy playouts.

Each decision samples deals of the unseen cards consistent with the seat's
knowledge (:mod:`engine.ai.knowledge`), plays every candidate card out in
each with the fast greedy policy of :mod:`engine.ai.core` (or solves the last
few tricks exactly), and plays the card with the best mean deal value. In the
last two tricks the worlds are few, so it plays against every one of them
(:func:`engine.ai.knowledge.enumerate_worlds`) rather than a sample: its
endgame is then exact and does not depend on how busy the machine is. The
ruff's four discards are chosen the same way among the most promising sets.
Aims at a median well under 60 ms a decision.

Tables of two or three seats, everyone for himself, or face-up layouts (Ruffe
and Trump for three or two or single-handed, Turnover Bridge) are searched by
:mod:`engine.ai.open_search`: sampled worlds consistent with the view, greedy
playouts for every seat, each world solved exactly once a seat holds five cards
or fewer (two seats) or three (more).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action, Discard, Play, play
from engine.ai import clock, contract
from engine.ai.base import obvious_choice
from engine.ai.bid_whist import ContractPlayer, applies
from engine.ai.contract import is_contract_decision
from engine.ai.discard import DiscardPlanner
from engine.ai.easy import EasyPlayer
from engine.ai.generic import wants_generic
from engine.ai.knowledge import Situation, situation
from engine.ai.open_search import choose_card as open_choose_card
from engine.ai.search import (
    Budget,
    candidate_cards,
    plan_discards,
    playout_evaluator,
    search_card,
    settled_follow,
    solver_evaluator,
)
from engine.cards import Card
from engine.game import SeatView

__all__ = ["NormalPlayer"]

OPEN_EXACT = (5, 3)  # 2-3 seats or layouts: cards a seat (two seats, more) at which worlds are solved
ENDGAME_CARDS = 3  # cards in hand at or below which the exact solver replaces playouts
EXACT_WORLDS = 1000  # last two tricks: every possible world when there are at most this many


def _evaluate(
    sit: Situation, world: list[int], cands: list[int], deadline: float
) -> dict[int, int]:
    if world[sit.seat].bit_count() <= ENDGAME_CARDS:
        return solver_evaluator(sit, world, cands, deadline)
    return playout_evaluator(sit, world, cands, deadline)


def _normal_plan(view: SeatView, hand: int, allowed: int, count: int) -> list[int]:
    return plan_discards(view, hand, allowed, count, screen_worlds=24, limit=8)


class NormalPlayer:
    """Sampling plus greedy playouts within ``budget`` seconds a decision."""

    BUDGET = 0.04  # seconds: stop starting new worlds after this
    CAP = 1.0  # seconds: never search past this

    def __init__(self, budget: float = BUDGET, cap: float = CAP, max_worlds: int = 300) -> None:
        self.name = "normal"
        self.budget = Budget(
            soft=budget,
            cap=cap,
            min_worlds=2,
            max_worlds=max_worlds,
            margin=0.1,
            exact_worlds=EXACT_WORLDS,
        )
        self._easy = EasyPlayer(noise=0.0)
        self._discards = DiscardPlanner("normal", _normal_plan)
        self._bid_whist = ContractPlayer(search=True, budget=budget, cap=cap, max_worlds=max_worlds)
        # 2-3 seats, everyone alone, layouts: the sampled-worlds search of engine.ai.open_search
        self._open_budget = Budget(soft=budget, cap=cap, min_worlds=2, max_worlds=max_worlds)

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        if applies(view):  # Bid Whist: sampled deals over the general card model
            return self._bid_whist.choose(view, legal, rng)
        start = clock.now()
        obvious = obvious_choice(legal)
        if obvious is not None:
            return obvious
        if any(isinstance(a, Discard) for a in legal):
            if wants_generic(view):  # the planners search four-handed deals only
                return self._easy.choose(view, legal, rng)
            return self._discards.choose(view, legal)
        if is_contract_decision(view, legal):
            return self._contract(view, legal, rng)
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return self._easy.choose(view, legal, rng)
        mask = 0
        for a in plays:
            mask |= a.card.bit
        if wants_generic(view):  # 2-3 seats, everyone alone, layouts: engine.ai.open_search
            return self._open(view, legal, mask, rng, start)
        sit = situation(view)
        settled = settled_follow(sit, mask)
        if settled is not None:
            return play(Card.from_index(settled))
        cands = candidate_cards(sit, mask)
        if len(cands) == 1:
            return play(Card.from_index(cands[0]))
        found = search_card(sit, cands, rng, _evaluate, self.budget, start)
        if found is None:
            return self._easy.choose(view, legal, rng)
        return play(Card.from_index(found[0]))

    def _contract(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """A contract deal (an auction, trumps, its play): sampled deals, greedy playouts."""
        return contract.search_decision(
            view, legal, rng, self.budget.soft, 24, lambda: self._easy.choose(view, legal, rng)
        )

    def _open(
        self, view: SeatView, legal: Sequence[Action], mask: int, rng: random.Random, start: float
    ) -> Action:
        """A table of 2-3 seats, everyone alone, or layouts: sampled worlds, greedy playouts."""
        return open_choose_card(view, legal, mask, rng, self._open_budget, start, OPEN_EXACT)

    def __repr__(self) -> str:
        return f"NormalPlayer(budget={self.budget.soft})"
