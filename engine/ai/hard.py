"""``hard``: determinized sampling with exact double-dummy evaluation.

Each sampled world is solved exactly for every candidate card: by DDS
(through ``endplay``, imported lazily) for the full hand, by the pure-Python
solver of :mod:`engine.ai.solver` for the last couple of tricks, or, without
``endplay``, by the Python solver from six cards a hand down and greedy
playouts before that. In the last two tricks, when the possible worlds are
few, it plays against every one of them instead of a sample (see
:func:`engine.ai.knowledge.enumerate_worlds`). The search is anytime: it stops starting new worlds at
the soft budget and never runs past the cap, so no decision takes long.

The ruff's discards are screened by playouts and the best few re-scored
double-dummy on a handful of worlds.

Tables of two or three seats, everyone for himself, or face-up layouts are
searched by :mod:`engine.ai.open_search` as ``normal`` does, with the larger
budget, up to 1000 worlds, and exact solving from seven cards a seat (two
seats) or four (more), plus what :mod:`engine.ai.open_sharp` adds there (hard
only, tables of two or three): each sampled world weighted by how well it
explains the others' plays. There the rub's lay-out (Ruffe and Trump for three
or two, or single-handed) is searched too, by playouts of the likely sets
(:mod:`engine.ai.open_discards`), where ``normal`` and ``easy`` lay out by the
maxims. At tables of three or more, each alone, hard values a deal as its own
card points less the mean of the others' (``relative`` in
:func:`engine.ai.open_search.deal_value`; normal counts its own only): points
come only over par, so a player who cannot reach par himself keeps the others
at it, or spreads the tricks he must give so that fewer cross it. Three-handed,
over 200 boards against normal, hard scored +0.152 points a deal so and -0.050
valuing its own points alone: +0.203 a deal on the same boards (95% CI -0.05 ..
+0.46, not settled; docs/arena/PROBES.md), so it was kept. Single-handed it is
used on the same reasoning, not probed apart. (The arena-only
levels of :data:`engine.ai.TRIAL_LEVELS` are hard without one or more of these.)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action, Discard, Play, play
from engine.ai import clock, contract, dds
from engine.ai.base import obvious_choice
from engine.ai.bid_whist import ContractPlayer, applies
from engine.ai.contract import is_contract_decision
from engine.ai.discard import DiscardPlanner
from engine.ai.easy import EasyPlayer
from engine.ai.generic import wants_generic
from engine.ai.knowledge import Situation, situation
from engine.ai.open_discards import plan_open_discards
from engine.ai.open_search import choose_card as open_choose_card
from engine.ai.search import (
    Budget,
    candidate_cards,
    dds_evaluator,
    plan_discards,
    playout_evaluator,
    search_card,
    solver_evaluator,
)
from engine.cards import Card
from engine.game import SeatView

__all__ = ["HardPlayer"]

OPEN_EXACT = (7, 4)  # 2-3 seats or layouts: cards a seat (two seats, more) at which worlds are solved
# Without layouts two seats are solved from five cards a seat, as normal does: in
# Ruffe and Trump for two, 28 cards lie out of play and the other hand is drawn
# from 40, so a world solved exactly from seven cards plays as if it knew them
# (hard lost to normal, -0.225 points a deal over 40 boards; from five, +0.075 on
# the same boards). Turnover Bridge's layouts leave little hidden: seven there.
OPEN_EXACT_HIDDEN = (5, 4)
OPEN_MAX_WORLDS = 1000  # 2-3 seats or layouts: sampled worlds a decision at most
EXACT_WORLDS = 2000  # last two tricks: every possible world when there are at most this many
PY_SOLVER_CARDS = 6  # without DDS: cards in hand at or below which the Python solver is used
CONTRACT_MAX_WORLDS = 400  # Solo Whist: sampled deals a decision at most (the budget decides first)


def _evaluate_without_dds(
    sit: Situation, world: list[int], cands: list[int], deadline: float
) -> dict[int, int]:
    if world[sit.seat].bit_count() <= PY_SOLVER_CARDS:
        return solver_evaluator(sit, world, cands, deadline)
    return playout_evaluator(sit, world, cands, deadline)


class HardPlayer:
    """Sampling plus double-dummy solving within ``budget`` seconds (soft), ``cap`` (hard)."""

    BUDGET = 0.2  # seconds: stop starting new worlds after this
    CAP = 1.5  # seconds: never search past this

    def __init__(
        self,
        budget: float = BUDGET,
        cap: float = CAP,
        max_worlds: int = 64,
        use_dds: bool | None = None,
        inference: bool = True,
        sharp: bool = True,
        open_discards: bool = True,
        relative: bool = True,
    ) -> None:
        self.name = "hard"
        self.sharp = sharp  # open tables: engine.ai.open_sharp's inference from the play
        self.open_discards = open_discards  # open tables: the rub's lay-out by engine.ai.open_discards
        # open tables of three or more, each alone: a deal's value less the others' mean points
        # (engine.ai.open_search.deal_value)
        self.relative = relative
        self.budget = Budget(
            soft=budget,
            cap=cap,
            min_worlds=1,
            max_worlds=max_worlds,
            inference=inference,
            exact_worlds=EXACT_WORLDS,
        )
        self.use_dds = use_dds
        self._easy = EasyPlayer(noise=0.0)
        self._discards = DiscardPlanner("hard", self._plan)
        self._open_discards = DiscardPlanner("hard-open", self._plan_open)
        # Bid Whist: the same sampling as normal over the general card model, with
        # hard's larger budget (the double-dummy solvers assume 52 cards, HIGH)
        self._bid_whist = ContractPlayer(search=True, budget=budget, cap=cap, max_worlds=400)
        # 2-3 seats, everyone alone, layouts: the sampled-worlds search of engine.ai.open_search
        self._open_budget = Budget(soft=budget, cap=cap, min_worlds=2, max_worlds=OPEN_MAX_WORLDS, margin=0.0)

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        if applies(view):
            return self._bid_whist.choose(view, legal, rng)
        start = clock.now()
        obvious = obvious_choice(legal)
        if obvious is not None:
            return obvious
        if any(isinstance(a, Discard) for a in legal):
            if not wants_generic(view):
                return self._discards.choose(view, legal)
            if self.open_discards:  # 2-3 seats or everyone alone: engine.ai.open_discards
                return self._open_discards.choose(view, legal)
            return self._easy.choose(view, legal, rng)
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
        cands = candidate_cards(sit, mask)
        if len(cands) == 1:
            return play(Card.from_index(cands[0]))
        use_dds = dds.available() if self.use_dds is None else self.use_dds and dds.available()
        evaluate = dds_evaluator if use_dds else _evaluate_without_dds
        found = search_card(sit, cands, rng, evaluate, self.budget, start)
        if found is None:
            return self._easy.choose(view, legal, rng)
        return play(Card.from_index(found[0]))

    def _plan(self, view: SeatView, hand: int, allowed: int, count: int) -> list[int]:
        """The four discards: playouts screen the likely sets, DDS settles the best three."""
        if dds.available() and self.use_dds is not False:
            return plan_discards(
                view,
                hand,
                allowed,
                count,
                screen_worlds=32,
                limit=10,
                final=dds.max_tricks,
                final_worlds=8,
                final_keep=3,
                budget=2.5 * self.budget.soft,
            )
        return plan_discards(view, hand, allowed, count, screen_worlds=48, limit=10)

    def _plan_open(self, view: SeatView, hand: int, allowed: int, count: int) -> list[int]:
        """The rub's lay-out at a table of 2-3 seats or everyone alone: playouts."""
        return plan_open_discards(view, hand, allowed, count, self.budget.soft, self.relative)

    def _contract(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """A contract deal (an auction, trumps, its play): sampled deals, greedy playouts,
        as many as the budget allows (at 64, hard stopped at a tenth of its budget, with
        not three times normal's deals, and played Solo Whist no better than normal)."""
        return contract.search_decision(
            view,
            legal,
            rng,
            self.budget.soft,
            CONTRACT_MAX_WORLDS,
            lambda: self._easy.choose(view, legal, rng),
        )

    def _open(
        self, view: SeatView, legal: Sequence[Action], mask: int, rng: random.Random, start: float
    ) -> Action:
        """A table of 2-3 seats, everyone alone, or layouts: sampled worlds, greedy playouts."""
        exact = OPEN_EXACT if view.layouts else OPEN_EXACT_HIDDEN
        # the inference of engine.ai.open_sharp at tables of two or three: single-handed
        # (four seats) it showed no gain (-0.042 a deal over 40 boards, +0.158 without)
        sharp = self.sharp and view.n_seats <= 3
        return open_choose_card(view, legal, mask, rng, self._open_budget, start, exact, sharp, self.relative)

    def __repr__(self) -> str:
        return f"HardPlayer(budget={self.budget.soft})"
