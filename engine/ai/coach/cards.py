"""The coach's view of a card decision (:mod:`engine.ai.coach.review`): the hard AI's own
strategy for the kind of table (:func:`engine.ai.strategies.tables.card_strategy`,
built with ``hard``'s profile), untimed. The coach keeps no model of its own: the
candidates, the worlds (with their weights), each world's value after each card and
the deal as it lay all come from the strategy the hard player searches with, so an
improvement to hard's search is the coach's at once.

What the coach adds is its budget: the flag threshold of the strategy's unit (points,
Solo Whist's own threshold, tricks in Bid Whist, where the coach counts the books a
side takes) and, at a partnership table in the last tricks, every world that can be.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.ai.levels import HARD
from engine.ai.strategies.tables import card_strategy
from engine.game import Game, SeatView

if TYPE_CHECKING:
    from engine.ai.coach.report import ReviewBudget

__all__ = ["CannotJudge", "Model", "model_for"]


@dataclass(slots=True)
class Model:
    """One card decision as the coach measures it (from the table's strategy)."""

    unit: str
    threshold: float  # the budget's threshold in this model's unit
    cands: list[int]  # one card per run of equivalent legal cards
    sample: Callable[[random.Random], tuple[Any, float] | None]  # a world and its weight
    evaluate: Callable[[Any, list[int]], dict[int, float]]
    true_world: Any  # the deal as it lies, in the strategy's own form
    every: list[tuple[Any, float]] | None = None  # every possible world, weighted (endgame)


def model_for(game: Game, seat: int, view: SeatView, legal: int, budget: ReviewBudget) -> Model:
    """The coach's measure of ``seat``'s card among ``legal`` (a mask) in ``game``."""
    try:
        strategy = card_strategy(view, HARD, books=True)
    except ValueError:
        raise CannotJudge from None
    every = None
    if strategy.kind == "partnership" and len(view.hand) <= budget.exact_cards:
        every = strategy.every_world(budget.exact_worlds)
    return Model(
        unit=strategy.unit,
        threshold=budget.solo_threshold if strategy.kind == "solo" else budget.threshold,
        cands=strategy.candidates(legal),
        sample=lambda rng: next(strategy.worlds(rng), None),
        evaluate=lambda world, cands: strategy.evaluate(world, cands, math.inf),
        true_world=strategy.true_world(game),
        every=every,
    )


class CannotJudge(Exception):
    """The position cannot be read by any of the models (the decision is left unjudged)."""
