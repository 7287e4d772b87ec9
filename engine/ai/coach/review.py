"""The coach's review of a finished deal: what each of one seat's decisions cost, fairly judged.

:func:`review_deal` replays a game's record to one deal and, before each card
the seat played there, asks two questions of every card it could have played:

* **single-dummy value**: the mean, over deals of the unseen cards consistent
  with everything the seat could see at that moment (the hard AI's samplers:
  :mod:`engine.ai.search.worlds`, :mod:`engine.ai.search.open_search`,
  :mod:`engine.ai.strategies.bid_whist`), of what the seat's side ends the deal
  with after that card, each world solved as the hard AI solves it (DDS at
  the four-handed partnership tables, greedy playouts or the exact solve
  elsewhere). The same worlds score every card, so the **cost** of the card
  played, ``value(best) - value(played)``, is a mean of paired differences and
  its standard error is small. In the last tricks, when the possible worlds
  are few, every one of them is scored (weighted as the hard AI weighs them):
  the figure is exact and its error zero;
* **double-dummy value**: the same evaluation in the deal as it really lay.

A decision is **flagged** when its single-dummy cost is at least
``threshold`` plus ``above`` standard errors, and ``sigmas`` standard errors above
zero (:meth:`ReviewBudget.flags`): a cost the sampling error of its own evaluation,
on the same worlds, could bring down to the threshold is not flagged. The unit is what the
hard AI itself plays for, so that a card is not blamed for a trick that could
change nothing: **points** — at the partnership tables the deal's points for the
seat's side less the other side's, a game won or lost counting
:data:`~engine.ai.search.value.WIN_BONUS` more (:func:`~engine.ai.search.value.value_table`);
at the open tables card points over par (Ruffe and Trump) or the deal won
(Turnover Bridge, :func:`~engine.ai.search.open_search.deal_value`); in Solo
Whist the seat's points for the contract (threshold ``solo_threshold``) — and
**tricks** (books) in Bid Whist.

**The lie of the cards** (:attr:`DealReview.cards`): at the seat's first card
of the deal, the double-dummy value of the real deal (the best any card could
get with every hand known, everyone playing perfectly) less the mean of that
value over the deals the seat could not tell from it. Positive: the cards lay
well for the seat's side. The deal's result then reads as "the decisions cost
this much; the cards gave or took that much".

Pure and deterministic: no clock, no I/O. The budget is counted in worlds; each
decision's sample is seeded from the game's seed and the decision's index in
the log, so a review of the same record is the same review.

The seat's other decisions (bids, calls, trumps, the ruff and its lay-out, the
kitty) are judged by the same rule (:func:`measure`, :func:`judge_call`) with
the strategies of :mod:`engine.ai.strategies.calls` (:mod:`engine.ai.coach.calls`):
see ``docs/coach.md``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.actions import Action, Play, decode_action
from engine.ai.coach.calls import call_model
from engine.ai.coach.cards import CannotJudge, model_for
from engine.ai.coach.records import decision_seed, record_entries, start_of
from engine.ai.coach.report import DEFAULT_BUDGET, DealReview, Decision, Option, ReviewBudget
from engine.ai.search.bitmasks import play_mask
from engine.cards import Card
from engine.events import DealStarted
from engine.game import Game

__all__ = [
    "Judged",
    "judge_call",
    "measure",
    "rank_options",
    "representative",
    "review_deal",
    "review_position",
]


# --------------------------------------------------------------------------- one decision


def representative(card: int, cands: Sequence[int]) -> int:
    """The candidate standing for ``card``: itself, or the highest candidate of its
    suit below it (candidates are the lowest card of each run of equivalent cards)."""
    if card in cands:
        return card
    below = [c for c in cands if c // 13 == card // 13 and c < card]
    return max(below) if below else card


def _weighted_stats(diffs: Sequence[float], weights: Sequence[float]) -> tuple[float, float]:
    """Weighted mean and its standard error (Kish's effective sample size)."""
    total = sum(weights)
    if total <= 0:
        return 0.0, 0.0
    mean = sum(d * w for d, w in zip(diffs, weights, strict=True)) / total
    if len(diffs) < 2:
        return mean, 0.0
    var = sum(w * (d - mean) ** 2 for d, w in zip(diffs, weights, strict=True)) / total
    n_eff = total * total / sum(w * w for w in weights)
    if n_eff <= 1:
        return mean, math.sqrt(var)
    return mean, math.sqrt(var * n_eff / (n_eff - 1) / n_eff)


def _unseen(samples: Sequence[tuple[Mapping[Any, float], float]]) -> float:
    """What one world not yet drawn could move a cost by: the largest gap between two
    choices seen in one world (a game won or lost by a trick: 9 points near a target)
    over the worlds' effective number (Kish's, for weighted worlds).

    A swing that comes in one world of 25 is missed by 24 worlds more often than not
    (37 % of the time at a rate of one in 24); the error of the worlds that missed it
    says nothing of it. A cost's error is never taken below this, so a cost that such a
    swing could still lift to the threshold is in doubt, and the worlds are doubled."""
    total = sum(w for _, w in samples)
    squares = sum(w * w for _, w in samples)
    if total <= 0 or squares <= 0:
        return 0.0
    spread = max((max(v.values()) - min(v.values()) for v, _ in samples if v), default=0.0)
    return spread * squares / (total * total)


@dataclass(frozen=True, slots=True)
class Judged:
    """One decision judged (:func:`review_position`), with what the deal's summary needs."""

    decision: Decision
    unit: str  # "tricks" or "points"
    threshold: float  # the flag's threshold in that unit
    best_dd: float | None  # the real deal's double-dummy value from here (the best card's)
    best_mean_dd: float  # the mean over worlds of each world's best card value


@dataclass(slots=True)
class Measured:
    """The figures of one decision's choices over the same worlds (:func:`measure`)."""

    means: dict[Any, float]  # each choice's mean value
    best: Any  # the choice of the best mean
    cost: float  # the choice made: the best's mean less its own
    error: float  # the cost's standard error (0 when every world was scored)
    worlds: int
    exact: bool
    mean_best: float  # the mean over worlds of each world's best choice
    ranked: list[Any] = field(default_factory=list)  # every choice, best first (``best`` first)


def measure(
    sample: Callable[[random.Random], Any],
    evaluate: Callable[[Any, list[Any]], Mapping[Any, float]],
    cands: list[Any],
    chosen: Any,
    threshold: float,
    rng: random.Random,
    budget: ReviewBudget,
    every: list[tuple[Any, float]] | None = None,
    tie: Callable[[Any], Any] | None = None,
    weighted: bool = False,
) -> Measured | None:
    """Score every choice of ``cands`` (``chosen`` among them) on the same worlds.

    ``budget.worlds`` worlds first; while the verdict on ``chosen`` is in doubt (its
    cost less ``budget.above`` errors within ``budget.doubt`` errors of ``threshold``:
    :meth:`ReviewBudget.flags`; or above it but not yet ``budget.sigmas`` errors from
    zero), twice as many, up to ``budget.more_worlds``;
    no more once the verdict is plain, or once the error is already small enough
    (``budget.settled`` of the threshold) that more worlds could only move a cost
    that sits on the threshold itself; a cost at or above the threshold is confirmed
    on at least ``budget.confirm`` worlds. A positive cost's error is never taken below
    :func:`_unseen` (what one world not yet drawn could move it by), so a swing the first
    worlds happened to miss keeps the verdict in doubt. The worlds added while in doubt score only
    the contenders (``budget.contenders`` best choices so far, and ``chosen``): the
    others are figured on the first worlds, and any of them whose mean there comes
    out above the best contender's (over all the worlds) is scored on the added
    worlds too, so the best choice named is the one of the best mean and every
    choice ranked above another is so on the worlds that scored both. ``every``
    (weighted worlds): score exactly those instead. ``weighted``: ``sample`` gives a
    world with its weight (as the strategies' worlds come:
    :class:`engine.ai.search.strategy.TableStrategy`), else a world alone (weight 1).
    ``None`` without a world.
    """
    worlds: list[Any] = []  # the worlds scored, for a choice scored on all of them later
    samples: list[tuple[dict[Any, float], float]] = []
    first = 0  # samples scoring every choice
    key = tie or (lambda c: 0)

    def rank(c: Any, means: Mapping[Any, float]) -> tuple[float, bool, Any]:
        return (means[c], c == chosen, key(c))

    def promote(contenders: list[Any]) -> list[Any]:
        """The contenders, with every choice scored on the first worlds only whose mean
        there beats the best contender's, scored on every world (until none does)."""
        while True:
            means = _means(samples, cands)
            top = max(contenders, key=lambda c: rank(c, means))
            over = [c for c in cands if c not in contenders and rank(c, means) > rank(top, means)]
            if not over:
                return contenders
            c = max(over, key=lambda c: rank(c, means))
            for world, (values, _w) in zip(worlds, samples, strict=True):
                if c not in values:
                    values[c] = evaluate(world, [c])[c]
            contenders = [*contenders, c]

    if every is not None:
        for world, weight in every:
            samples.append((dict(evaluate(world, cands)), weight))
        first = len(samples)
        contenders = cands
    else:

        def draw(n: int, among: list[Any]) -> None:
            for _ in range(n):
                got = sample(rng)
                if got is None:
                    return
                world, weight = got if weighted else (got, 1.0)
                worlds.append(world)
                samples.append((dict(evaluate(world, among)), weight))

        draw(budget.worlds, cands)
        first = len(samples)
        contenders = cands
        while samples and len(samples) < budget.more_worlds:
            if contenders is not cands:
                contenders = promote(contenders)
            cost, err = _cost(samples, contenders, chosen)
            err = max(err, _unseen(samples)) if cost > 0 else err
            # the verdict's boundary: the cost less ``above`` errors at the threshold
            doubtful = cost > 0 and abs(cost - budget.above * err - threshold) < (
                budget.doubt * err + budget.doubt_margin * threshold
            )
            doubtful = doubtful or (cost >= threshold and cost <= budget.sigmas * err)
            unconfirmed = cost >= threshold and len(samples) < budget.confirm
            if not unconfirmed and (not doubtful or err <= budget.settled * threshold):
                break
            if contenders is cands and len(cands) > budget.contenders + 1:
                ranked = _means(samples, cands)
                top = sorted(cands, key=lambda c: -ranked[c])[: budget.contenders]
                contenders = [*top, *([chosen] if chosen not in top else [])]
            before = len(samples)
            draw(min(len(samples), budget.more_worlds - len(samples)), contenders)
            if len(samples) == before:
                break
        if contenders is not cands:
            contenders = promote(contenders)
    if not samples:
        return None
    means = _means(samples, cands)
    whole = [c for c in cands if all(c in v for v, _ in samples)]  # scored on every world
    best = max(whole, key=lambda c: rank(c, means))
    cost, err = _cost(samples, whole, chosen)
    if every is None and cost > 0:
        err = max(err, _unseen(samples))
    head = samples[:first] or samples
    total_head = sum(w for _, w in head)
    mean_best = sum(max(v[c] for c in cands) * w for v, w in head) / total_head
    exact = every is not None
    order = sorted(cands, key=lambda c: rank(c, means), reverse=True)
    return Measured(means, best, cost, 0.0 if exact else err, len(samples), exact, mean_best, order)


def _means(
    samples: Sequence[tuple[Mapping[Any, float], float]], cands: Sequence[Any]
) -> dict[Any, float]:
    """Each choice's weighted mean over the worlds that scored it."""
    out: dict[Any, float] = {}
    for c in cands:
        num = den = 0.0
        for v, w in samples:
            if c in v:
                num += v[c] * w
                den += w
        out[c] = num / den if den else -math.inf
    return out


def review_position(
    game: Game,
    seat: int,
    played: int,
    rng: random.Random,
    budget: ReviewBudget = DEFAULT_BUDGET,
    index: int = -1,
    double_dummy: bool = True,
) -> Judged | None:
    """Judge ``played`` (a card index) for ``seat`` in ``game`` as it stands (the card not yet
    played); ``None`` when only one card could be played or no model reads the position.

    ``double_dummy`` false: the real deal is not looked at (every ``dd`` figure is
    ``None``): for a deal still in play, where nobody may learn from it."""
    view = game.observe(seat)
    legal = play_mask(game.legal_actions(seat))
    if not legal >> played & 1:
        return None
    try:
        model = model_for(game, seat, view, legal, budget)
    except CannotJudge:
        return None
    cands = model.cands
    chosen = representative(played, cands)
    if chosen not in cands:
        cands = [*cands, chosen]
    if len(cands) < 2:
        return None
    threshold = model.threshold
    found = measure(
        model.sample,
        model.evaluate,
        cands,
        chosen,
        threshold,
        rng,
        budget,
        model.every,
        tie=lambda c: -(c % 13),
        weighted=True,
    )
    if found is None:
        return None
    truth = model.evaluate(model.true_world, cands) if double_dummy else {}
    dd_best = max(truth.values()) if truth else None
    flagged = budget.flags(found.cost, found.error, threshold)
    options = tuple(
        Option(str(Card.from_index(c)), round(found.means[c], 3), truth.get(c))
        for c in found.ranked
    )
    decision = Decision(
        index=index,
        trick=game.trick_no,
        played=str(Card.from_index(played)),
        best=str(Card.from_index(found.best)),
        cost=round(max(0.0, found.cost), 3),
        error=round(found.error, 3),
        dd_cost=None if dd_best is None else dd_best - truth[chosen],
        worlds=found.worlds,
        exact=found.exact,
        flagged=flagged,
        options=options,
    )
    return Judged(decision, model.unit, threshold, dd_best, found.mean_best)


def rank_options(
    game: Game, seat: int, rng: random.Random, budget: ReviewBudget = DEFAULT_BUDGET
) -> tuple[str, tuple[Option, ...], int] | None:
    """What hard would play here and how good each option is, by what ``seat`` can see:
    ``(unit, options best first, worlds)``, each legal card (one per run of equivalent
    cards) with its single-dummy value; ``None`` when there is no real choice of card.

    Never looks at the hidden hands (every ``dd`` is ``None``): safe in a deal in play."""
    first = next((a for a in game.legal_actions(seat) if isinstance(a, Play)), None)
    if first is None:
        return None
    judged = review_position(game, seat, first.card.index, rng, budget, double_dummy=False)
    if judged is None:
        return None
    return judged.unit, judged.decision.options, judged.decision.worlds


def _cost(
    samples: Sequence[tuple[Mapping[Any, float], float]], cands: Sequence[Any], chosen: Any
) -> tuple[float, float]:
    """The single-dummy cost of ``chosen`` against the best mean candidate, with its error."""
    weights = [w for _, w in samples]
    means = _means(samples, cands)
    best = max(cands, key=lambda c: (means[c], c == chosen))
    if best == chosen:
        return 0.0, 0.0
    diffs = [v[best] - v[chosen] for v, _ in samples]
    return _weighted_stats(diffs, weights)


# --------------------------------------------------------------------------- a deal


def judge_call(
    game: Game,
    seat: int,
    action: Action,
    after: Sequence[Action],
    rng: random.Random,
    budget: ReviewBudget = DEFAULT_BUDGET,
    index: int = -1,
    double_dummy: bool = True,
) -> tuple[Judged, int] | None:
    """Judge ``action`` (a decision that is not a card: :mod:`engine.ai.coach.calls`) of
    ``seat`` in ``game`` as it stands; with how many of the seat's actions it stands for
    (a lay-out's cards). ``None``: not judged (one choice, or a decision not reviewed)."""
    model = call_model(game, seat, action, after, budget.threshold, budget.solo_threshold)
    if model is None or len(model.cands) < 2 or model.chosen not in model.cands:
        return None
    if model.playouts:
        budget = replace(budget, more_worlds=max(budget.more_worlds, budget.playout_worlds))
    found = measure(
        model.sample, model.evaluate, model.cands, model.chosen, model.threshold, rng, budget
    )
    if found is None:
        return None
    truth = model.evaluate(model.true_world, model.cands) if double_dummy else {}
    dd_best = max(truth.values()) if truth else None
    flagged = budget.flags(found.cost, found.error, model.threshold)
    options = tuple(
        Option(c, round(found.means[c], 3), None if c not in truth else round(truth[c], 3))
        for c in found.ranked
    )
    decision = Decision(
        index=index,
        trick=game.trick_no if game.phase == "play" else 0,
        played=model.chosen,
        best=str(found.best),
        cost=round(max(0.0, found.cost), 3),
        error=round(found.error, 3),
        dd_cost=None if dd_best is None else round(dd_best - truth[model.chosen], 3),
        worlds=found.worlds,
        exact=found.exact,
        flagged=flagged,
        options=options,
        kind=model.kind,
        unit=model.unit,
    )
    return Judged(decision, model.unit, model.threshold, dd_best, found.mean_best), model.consumed


def review_deal(
    record: Mapping[str, Any],
    deal: int,
    seat: int,
    budget: ReviewBudget = DEFAULT_BUDGET,
) -> DealReview:
    """Review every decision of ``seat`` (its cards, bids, calls, trumps and lay-outs) in
    the ``deal``-th deal (1-based) of ``record``.

    Raises ``ValueError`` for a deal the record does not hold or has not finished.
    """
    game = start_of(record)
    entries = record_entries(record)
    judged: list[Judged] = []
    first: Judged | None = None
    side_result: float | None = None
    complete = True
    finished = False
    sides = tuple(game.side_of)
    unit = "tricks"
    result_unit = "tricks"
    skip_to = 0  # a lay-out's later cards are part of the decision judged at its first
    for i, (s, text) in enumerate(entries):
        if game.deals_total > deal:
            break
        action = decode_action(text)
        in_deal = game.deals_total == deal and game.phase not in ("over",)
        if in_deal and s == seat and isinstance(action, Play):
            one = review_position(
                game, seat, action.card.index, random.Random(decision_seed(record, i)), budget, i
            )
            if one is not None:
                if first is None:
                    first = one
                judged.append(one)
                unit = one.unit
        elif in_deal and s == seat and i >= skip_to:
            after = [decode_action(t) for s2, t in entries[i + 1 : i + 8] if s2 == seat]
            call = judge_call(
                game, seat, action, after, random.Random(decision_seed(record, i)), budget, i
            )
            if call is not None:
                judged.append(call[0])
                skip_to = i + call[1]
        if in_deal:
            sides = tuple(game.side_of)
        events = game.apply(s, action)
        if in_deal:
            for e in events:
                kind = getattr(e, "kind", "")
                if kind in ("deal_scored", "contract_settled", "all_passed", "solo_all_passed"):
                    finished = True
                if kind in ("claim_settled", "conceded"):
                    complete = False
            if finished and side_result is None:
                side_result, result_unit = _result(game, seat, sides, events)
        if any(isinstance(e, DealStarted) for e in events) and game.deals_total > deal:
            break
    if not finished:
        raise ValueError(f"deal {deal} has not finished in this record")
    return DealReview(
        game_id=str(record["game_id"]),
        deal=deal,
        seat=seat,
        unit=unit if judged else "tricks",
        decisions=tuple(
            j.decision
            if j.decision.kind == "card"
            else replace(j.decision, unit=j.unit, threshold=j.threshold)
            for j in judged
        ),
        result=side_result if side_result is not None else 0.0,
        result_unit=result_unit,
        threshold=budget.threshold if first is None else first.threshold,
        expected=None if first is None else max(o.value for o in first.decision.options),
        par=None if first is None else first.best_dd,
        average=None if first is None else round(first.best_mean_dd, 3),
        complete=complete,
    )


def _result(game: Game, seat: int, sides: tuple[int, ...], events: list[Any]) -> tuple[float, str]:
    """What the seat's side ended the deal with: its tricks, or (a settled contract of
    Solo Whist) the seat's points; and which of the two."""
    for e in events:
        if getattr(e, "kind", "") == "contract_settled":
            points = getattr(e, "points", None)
            if isinstance(points, tuple) and seat < len(points):
                return float(points[seat]), "points"
    for e in events:
        if getattr(e, "kind", "") == "deal_scored":
            tricks = e.tricks
            side = sides[seat] if seat < len(sides) else seat % 2
            if side < len(tricks):
                return float(tricks[side]), "tricks"
    won = 0
    side = sides[seat] if seat < len(sides) else seat % 2
    for _leader, _cards, winner in game.completed:
        if sides[winner] == side:
            won += 1
    return float(won), "tricks"
