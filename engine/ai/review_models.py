"""The coach's models of the card decisions (:mod:`engine.ai.review`): for each kind of
table, how the worlds the seat could not rule out are sampled (the hard AI's own
samplers) and how a world is scored after each candidate card (DDS at the four-handed
partnership tables, the open tables' and Solo's playouts or exact solves, Bid Whist's
contract play). Pure and deterministic, like the review that uses them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from engine.actions import Play
from engine.ai.search import dds
from engine.ai.search import open_search as ops
from engine.ai.search.bitmasks import card_indices, trick_winner_pos
from engine.ai.search.determinized import candidate_cards as partnership_candidates
from engine.ai.search.determinized import honour_counts
from engine.ai.search.solver import solve_cards
from engine.ai.search.value import value_table
from engine.ai.search.worlds import enumerate_worlds, sample_world, situation
from engine.ai.strategies import bid_whist as bw
from engine.ai.strategies import solo_whist as solo
from engine.ai.strategies.open_tables import wants_generic
from engine.game import Game, SeatView

if TYPE_CHECKING:
    from engine.ai.review import ReviewBudget

FEW_CARDS: Final = 3  # at most this many cards wanted: one DDS solve each (engine.ai.search.dds)
FEW_CARDS_FROM: Final = 6  # ... from this many cards in hand (below, every card at once is cheap)

# evaluate(world, cards) -> {card: the deal's value for the seat after that card}
_Evaluate = Callable[[Any, list[int]], dict[int, float]]


@dataclass(slots=True)
class Model:
    """How one kind of table is sampled and scored (the hard AI's own machinery)."""

    unit: str
    threshold: float  # the budget's threshold in this model's unit
    cands: list[int]  # one card per run of equivalent legal cards
    sample: Callable[[random.Random], Any]  # a world, or None
    evaluate: _Evaluate
    true_world: Any  # the deal as it lies, in the model's own form
    every: list[tuple[Any, float]] | None = None  # every possible world, weighted (endgame)


def model_for(game: Game, seat: int, view: SeatView, legal: int, budget: ReviewBudget) -> Model:
    if bw.applies(view):
        return _bid_whist_model(game, view, legal, budget)
    plays = [a for a in game.legal_actions(seat) if isinstance(a, Play)]
    if view.contract and solo.is_contract_decision(view, plays):
        return _solo_model(game, view, legal, budget)
    if wants_generic(view) and ops.applies(view):
        return _open_model(game, view, legal, budget)
    return _partnership_model(game, view, legal, budget)


def _partnership_model(game: Game, view: SeatView, legal: int, budget: ReviewBudget) -> Model:
    sit = situation(view)
    side = sit.seat % 2
    side_now = sit.tricks[side]
    use_dds = dds.available()
    tables: dict[tuple[int, int] | None, list[float]] = {}

    seat = sit.seat
    left = sit.my_hand.bit_count()  # tricks left, the current one included

    def one_card(world: list[int], c: int) -> int:
        """The side's tricks from here after ``c``: one DDS solve of the position after it."""
        hands = list(world)
        hands[seat] ^= 1 << c
        trick = [*sit.trick, c]
        if len(trick) < 4:
            theirs = dds.side_tricks(hands, sit.leader, trick, sit.trump)
            return theirs if (sit.leader + len(trick)) % 2 == side else left - theirs
        winner = (sit.leader + trick_winner_pos(trick, sit.trump)) % 4
        won = int(winner % 2 == side)
        if left == 1:
            return won
        rest = dds.max_tricks(hands, winner, sit.trump)
        return won + (rest if winner % 2 == side else left - 1 - rest)

    def evaluate(world: list[int], cands: list[int]) -> dict[int, float]:
        if use_dds and left >= FEW_CARDS_FROM and len(cands) <= FEW_CARDS:
            # a few cards wanted (the contenders while the verdict is in doubt): a
            # solve of each, cheaper than every card's figure at once
            raw = {c: one_card(world, c) for c in cands}
        elif use_dds and left > 2:
            raw = dds.solve_cards(world, sit.leader, sit.trick, sit.trump)
        else:
            raw = solve_cards(world, sit.leader, sit.trick, sit.trump)
        # the hard AI's objective: the deal's points for the side less the other
        # side's, a game won or lost counting WIN_BONUS more (engine.ai.search.value)
        counts = honour_counts(sit, world)
        table = tables.get(counts)
        if table is None:
            table = tables[counts] = value_table(sit.rules, side, sit.start_scores, counts)
        return {c: table[side_now + raw[c]] for c in cands}

    every = None
    if sit.my_hand.bit_count() <= budget.exact_cards:
        found = enumerate_worlds(sit, budget.exact_worlds, True)
        if found is not None:
            every = [(w, float(wt)) for w, wt in found]
    return Model(
        unit="points",
        threshold=budget.threshold,
        cands=partnership_candidates(sit, legal),
        sample=lambda rng: sample_world(sit, rng, inference=True),
        evaluate=evaluate,
        true_world=list(game.hands),
        every=every,
    )


def _solo_model(game: Game, view: SeatView, legal: int, budget: ReviewBudget) -> Model:
    sit = situation(view)
    roles = solo.contract_roles(view.contract, view.declarer)
    declarer = view.declarer if view.declarer is not None else 0
    base = solo.tricks_won_by_seat(view)
    contract = view.contract

    def evaluate(world: list[int], cands: list[int]) -> dict[int, float]:
        out: dict[int, float] = {}
        for c in cands:
            hands = list(world)
            hands[sit.seat] ^= 1 << c
            won = solo.playout(
                hands,
                sit.leader,
                [*sit.trick, c],
                sit.trump,
                sit.sides,
                roles,
                declarer,
                list(base),
            )
            out[c] = float(solo.seat_points(view, contract, sit.sides, won))
        return out

    return Model(
        unit="points",
        threshold=budget.solo_threshold,
        cands=partnership_candidates(sit, legal),
        sample=lambda rng: sample_world(sit, rng),
        evaluate=evaluate,
        true_world=list(game.hands),
    )


def _open_model(game: Game, view: SeatView, legal: int, budget: ReviewBudget) -> Model:
    k = ops.knowledge_of(view)
    if k is None:
        raise CannotJudge
    side = k.sides[k.seat]
    seat = k.seat
    per_seat = 7 if k.n == 2 else 4  # the hard AI's exact solve (engine.ai.levels.HARD)

    def evaluate(world: ops.World, cands: list[int]) -> dict[int, float]:
        out: dict[int, float] = {}
        exactly = ops.remaining_cards(world) + len(k.trick) <= per_seat * k.n
        for c in cands:
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
                    ups[seat] |= 1 << stack[-1]
                    mine[stack[-1]] = stack[:-1]
                    fresh = list(fresh)
                    fresh[seat] |= 1 << stack[-1]
                under[seat] = mine
            after = ops.World(hands, ups, fresh, under)
            trick = [*k.trick, c]
            if exactly:
                final = ops.solve(
                    after, k.leader, trick, k.trump, k.sides, k.tricks, k.stop, side, math.inf
                )
            else:
                final = ops.playout(after, k.leader, trick, k.trump, k.sides, k.tricks, k.stop)
            # the hard AI's objective (engine.ai.search.open_search.deal_value): card
            # points over par in Ruffe and Trump, the deal won in Turnover Bridge
            # (with three or more, played out: less the others' mean, as hard values it)
            out[c] = ops.deal_value(k.rules, k.sides, side, final, not exactly)
        return out

    layout = game.layout
    n = k.n
    if layout is None:
        truth = ops.World(list(game.hands[:n]), [0] * n, [0] * n, [{} for _ in range(n)])
    else:
        under = [
            {pile[-1]: tuple(pile[:-1]) for pile in piles if pile} for piles in layout.piles[:n]
        ]
        truth = ops.World(list(game.hands[:n]), list(layout.up[:n]), list(layout.fresh[:n]), under)
    return Model(
        unit="points",
        threshold=budget.threshold,
        cands=ops.candidate_cards(k, legal),
        sample=lambda rng: ops.sample_world(k, rng),
        evaluate=evaluate,
        true_world=truth,
    )


def _bid_whist_model(game: Game, view: SeatView, legal: int, budget: ReviewBudget) -> Model:
    m = bw.model_of(view.trump, view.rank_order)
    k = bw.knowledge_of(view, m)
    sides = view.sides or (0, 1, 0, 1)
    mine = sides[view.seat]
    base = list(view.tricks) if view.tricks else [0] * (max(sides) + 1)
    trick = [c.index for _, c in view.trick]
    leader = view.trick_leader

    def evaluate(world: list[int], cands: list[int]) -> dict[int, float]:
        out: dict[int, float] = {}
        for c in cands:
            hands = list(world[:4])
            hands[view.seat] &= ~(1 << c)
            tricks = bw.playout(m, hands, [*trick, c], leader, sides, base)
            out[c] = float(tricks[mine])
        return out

    return Model(
        unit="tricks",
        threshold=budget.threshold,
        cands=card_indices(legal),
        sample=lambda rng: bw.sample_world(k, rng),
        evaluate=evaluate,
        true_world=list(game.hands[:4]),
    )


class CannotJudge(Exception):
    """The position cannot be read by any of the models (the decision is left unjudged)."""
