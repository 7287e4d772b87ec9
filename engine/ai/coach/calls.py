"""The coach's review of the decisions that are not cards: bids, calls, trumps, lay-outs.

:func:`engine.ai.coach.review.judge_call` judges one such decision as
:func:`engine.ai.coach.review.review_position` judges a card: every choice the seat
had is scored on the same worlds, the cost of the choice made is the best mean less
its own, with its standard error, flagged under the same rule as a card
(:func:`engine.ai.coach.review.measure`); the double-dummy figure is the same
evaluation in the deal as it lay.

The coach keeps no model of its own: the choices, the worlds and each world's value
after each choice come from the hard AI's strategy for the decision
(:func:`engine.ai.strategies.calls.call_strategy`, a
:class:`~engine.ai.search.strategy.CallStrategy`; its modules say what each choice is
worth: Solo Whist's auction and trumps, Bid Whist's bids, trump or direction and
kitty, the ruff taken or declined and its lay-out, Can-ye, Ruffe and Trump's declared
ruff). What the coach adds is the choice made (a lay-out's cards read from the
seat's next actions, judged as one decision at its first card, and scored beside the
strategy's likely ones) and its flag threshold (Solo Whist's own for its contracts).

Not judged: claims and concessions, and taking or declining the rub at the open
tables: see ``docs/coach.md``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, Discard
from engine.ai.search.strategy import CallStrategy
from engine.ai.strategies.calls import call_strategy, lay_out_code
from engine.game import Game, SeatView

__all__ = ["CallModel", "call_model"]


@dataclass(slots=True)
class CallModel:
    """How one decision's choices are sampled and scored."""

    kind: str  # call, trump, lay-out, kitty
    unit: str  # points or tricks
    threshold: float
    cands: list[str]  # the choices' codes
    chosen: str  # the choice made
    sample: Callable[[random.Random], Any]
    evaluate: Callable[[Any, list[str]], Mapping[str, float]]
    true_world: Any  # the deal as it lay (None: no double-dummy figure)
    consumed: int = 1  # the seat's actions this decision stands for (a lay-out's four)
    playouts: bool = False  # valued by playing a contract out (cheap; wide swings): more worlds


def _laid(view: SeatView, action: Discard, after: Sequence[Action], count: int) -> list[int]:
    """The cards of the lay-out that begins with ``action`` (``after``: the seat's next actions)."""
    laid = [action.card.index]
    for a in after:
        if not isinstance(a, Discard) or len(laid) == count:
            break
        laid.append(a.card.index)
    return laid


def _first_world(strategy: CallStrategy[Any], rng: random.Random) -> Any:
    sampled = next(strategy.worlds(rng), None)
    return None if sampled is None else sampled[0]


def call_model(
    game: Game,
    seat: int,
    action: Action,
    after: Sequence[Action],
    threshold: float,
    solo_threshold: float,
) -> CallModel | None:
    """The model judging ``action`` (not a card) of ``seat`` in ``game`` as it stands;
    ``after``: the seat's next actions in the log (a lay-out's other cards).
    ``None``: not a decision the review judges, or only one choice."""
    view = game.observe(seat)
    legal = list(game.legal_actions(seat))
    if len(legal) < 2 or action not in legal:
        return None
    strategy = call_strategy(view, legal, action)
    if strategy is None:
        return None
    cands = strategy.candidates()
    if strategy.kind == "lay-out":
        assert isinstance(action, Discard)
        laid = _laid(view, action, after, strategy.count)
        if len(laid) != strategy.count:
            return None
        chosen = lay_out_code(laid)
    elif strategy.kind == "kitty":
        assert isinstance(action, Discard)
        chosen = str(action.card)
    else:
        chosen = action.encode()
    if strategy.kind in ("lay-out", "kitty") and chosen not in cands:
        cands.append(chosen)
    if strategy.kind == "lay-out" and strategy.table == "partnership" and len(cands) < 2:
        return None
    return CallModel(
        kind=strategy.kind,
        unit=strategy.unit,
        threshold=solo_threshold if strategy.table == "solo" else threshold,
        cands=cands,
        chosen=chosen,
        sample=lambda rng: _first_world(strategy, rng),
        evaluate=lambda world, choices: strategy.evaluate(world, choices, math.inf),
        true_world=strategy.true_world(game),
        consumed=strategy.count,
        playouts=strategy.table in ("bid-whist", "solo"),
    )
