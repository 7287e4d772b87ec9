"""The coach's verdicts as data: how hard a review looks (:class:`ReviewBudget`), each
option and decision judged, and a deal's review (:class:`DealReview`) with its JSON
form, as stored and shown. The judging itself is :mod:`engine.ai.coach.review`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from engine.cards import Card

__all__ = ["DEFAULT_BUDGET", "DealReview", "Decision", "Option", "ReviewBudget"]


@dataclass(frozen=True, slots=True)
class ReviewBudget:
    """How hard a review looks: worlds per decision, and when a cost is significant."""

    worlds: int = 24  # sampled worlds per decision (doubled while in doubt)
    more_worlds: int = 256  # at most, doubling while the first ones leave the verdict in doubt
    # ... for a decision valued by playing a contract out (Bid Whist's and Solo Whist's
    # bids and trumps: a few ms a world, a value that swings by the contract made or set)
    playout_worlds: int = 1024
    doubt: float = 2.0  # in doubt: the cost within this many standard errors of the threshold
    doubt_margin: float = 0.0  # ... or within this share of the threshold
    settled: float = 0.25  # never in doubt once the error is at most this share of the threshold
    contenders: int = 1  # worlds added while in doubt score the best so far and the one made
    confirm: int = 48  # a flag stands on at least this many worlds (doubled until it does)
    exact_worlds: int = 400  # every possible world is scored when there are at most this many
    exact_cards: int = 3  # ... and the seat holds at most this many cards
    threshold: float = 0.3  # a flagged decision costs at least this (tricks, or points)
    sigmas: float = 3.0  # ... and this many standard errors above zero
    above: float = 1.0  # ... and this many standard errors above the threshold
    solo_threshold: float = 3.0  # the threshold in points (Solo Whist)

    def flags(self, cost: float, error: float, threshold: float) -> bool:
        """Whether a decision of this ``cost`` (with its standard ``error``) is flagged: a
        cost that the sampling error of its own evaluation cannot bring below
        ``threshold`` (``above`` errors) nor to zero (``sigmas`` errors)."""
        return cost - self.above * error >= threshold and cost > self.sigmas * error


DEFAULT_BUDGET: Final = ReviewBudget()


@dataclass(frozen=True, slots=True)
class Option:
    """One choice the seat had: a card (standing for the cards equivalent to it), a call,
    a lay-out. ``choice`` is its code: a card's (``"AH"``), an action's (``"bid:solo"``,
    ``"take"``), or a lay-out's cards joined by spaces (``"2C 3C 4D 7H"``)."""

    choice: str
    value: float  # single-dummy: mean value of the deal for the seat after this choice
    dd: float | None  # double-dummy: its value in the deal as it lay

    @property
    def card(self) -> Card:
        """The card of a card choice."""
        return Card.parse(self.choice)


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the seat (a card, a call, a lay-out), judged."""

    index: int  # the action's index in the game's log
    trick: int  # 1-based trick of the deal (0: before the first lead)
    played: str  # the choice's code (see :class:`Option`)
    best: str  # the choice of the best single-dummy value
    cost: float  # single-dummy cost of the card played (0 when it was the best)
    error: float  # its standard error (0 when every world was scored)
    dd_cost: float | None  # double-dummy cost (all hands known)
    worlds: int  # worlds scored
    exact: bool  # every possible world was scored
    flagged: bool
    options: tuple[Option, ...]  # best first
    kind: str = "card"  # card, call (a bid, Can-ye, taking the ruff), trump, lay-out, kitty
    unit: str = ""  # this decision's unit, when it is not the review's
    threshold: float = 0.0  # this decision's flag threshold, when it is not the review's

    @property
    def played_card(self) -> Card:
        """The card played (a card decision)."""
        return Card.parse(self.played)


@dataclass(frozen=True, slots=True)
class DealReview:
    """The review of one seat's cards in one deal."""

    game_id: str
    deal: int  # 1-based ordinal of the deal at the table
    seat: int
    unit: str  # "tricks" or "points"
    decisions: tuple[Decision, ...]
    result: float  # what the seat's side ended the deal with (in ``result_unit``)
    expected: float | None  # single-dummy value of the best card at the seat's first card
    par: float | None  # double-dummy value of the real deal at the seat's first card
    average: float | None  # mean double-dummy value over the worlds the seat could not rule out
    complete: bool = True  # every trick was played (no claim or concession cut the deal short)
    result_unit: str = "tricks"  # the result's unit: the side's tricks, or a contract's points
    threshold: float = DEFAULT_BUDGET.threshold  # a flag's threshold in ``unit``
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def flagged(self) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if d.flagged)

    @property
    def decisions_cost(self) -> float:
        """What the flagged decisions cost (single-dummy)."""
        return sum(d.cost for d in self.flagged)

    @property
    def cards(self) -> float | None:
        """The lie of the cards (module docstring): ``par - average``."""
        if self.par is None or self.average is None:
            return None
        return self.par - self.average

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (cards as their short text); :meth:`from_json` reads it back."""
        return {
            "game_id": self.game_id,
            "deal": self.deal,
            "seat": self.seat,
            "unit": self.unit,
            "result": self.result,
            "result_unit": self.result_unit,
            "threshold": self.threshold,
            "expected": self.expected,
            "par": self.par,
            "average": self.average,
            "complete": self.complete,
            "decisions": [
                {
                    "index": d.index,
                    "trick": d.trick,
                    "played": d.played,
                    "best": d.best,
                    "kind": d.kind,
                    "unit": d.unit,
                    "threshold": d.threshold,
                    "cost": d.cost,
                    "error": d.error,
                    "dd_cost": d.dd_cost,
                    "worlds": d.worlds,
                    "exact": d.exact,
                    "flagged": d.flagged,
                    "options": [[o.choice, o.value, o.dd] for o in d.options],
                }
                for d in self.decisions
            ],
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> DealReview:
        decisions = tuple(
            Decision(
                index=int(d["index"]),
                trick=int(d["trick"]),
                played=str(d["played"]),
                best=str(d["best"]),
                cost=float(d["cost"]),
                error=float(d["error"]),
                dd_cost=None if d["dd_cost"] is None else float(d["dd_cost"]),
                worlds=int(d["worlds"]),
                exact=bool(d["exact"]),
                flagged=bool(d["flagged"]),
                options=tuple(
                    Option(str(c), float(v), None if dd is None else float(dd))
                    for c, v, dd in d["options"]
                ),
                kind=str(d.get("kind", "card")),
                unit=str(d.get("unit", "")),
                threshold=float(d.get("threshold", 0.0)),
            )
            for d in data["decisions"]
        )

        def opt(key: str) -> float | None:
            v = data.get(key)
            return None if v is None else float(v)

        return DealReview(
            game_id=str(data["game_id"]),
            deal=int(data["deal"]),
            seat=int(data["seat"]),
            unit=str(data["unit"]),
            decisions=decisions,
            result=float(data["result"]),
            expected=opt("expected"),
            par=opt("par"),
            average=opt("average"),
            complete=bool(data.get("complete", True)),
            result_unit=str(data.get("result_unit", "tricks")),
            threshold=float(data.get("threshold", DEFAULT_BUDGET.threshold)),
        )
