"""The one interface a card search speaks, per kind of table: players, hints and the coach.

A :class:`TableStrategy` is built for one seat's decision (from its
:class:`~engine.game.SeatView`, with a level's profile) and answers three questions:

* :meth:`~TableStrategy.candidates`: the cards worth telling apart (one for each run
  of equivalent cards, where the table's card model knows them);
* :meth:`~TableStrategy.worlds`: deals of the cards the seat cannot see, consistent
  with everything it has seen, each with its weight (how well it explains the play,
  where the level infers; else 1); :meth:`~TableStrategy.every_world` all of them
  with their weights when they are few (the endgame), else ``None``;
* :meth:`~TableStrategy.evaluate`: the value of the deal to the seat after each
  candidate card, in one world, in the strategy's :attr:`~TableStrategy.unit`.

A player's ``choose`` is the candidate of the best weighted mean over the worlds it
has time for; the coach (:mod:`engine.ai.coach`) asks the same strategy, built with
``hard``'s profile, over more worlds and in the deal as it lay
(:meth:`~TableStrategy.true_world`), so it judges by the AI that plays, not a copy.

The decisions that are not cards (bids, calls, trumps, lay-outs) speak the same three
questions as a :class:`CallStrategy`, whose choices are codes (``"bid:4u"``, ``"take"``,
a lay-out's cards): :func:`engine.ai.strategies.calls.call_strategy` picks one for a
decision; the coach (:mod:`engine.ai.coach.calls`) judges by it, and the Bid Whist
player bids and lays out its kitty by it.

The card implementations: :class:`engine.ai.strategies.partnership.PartnershipStrategy`,
:class:`engine.ai.search.open_search.OpenStrategy`,
:class:`engine.ai.strategies.solo_whist.SoloStrategy` and
:class:`engine.ai.strategies.bid_whist.BidWhistStrategy`;
:func:`engine.ai.strategies.tables.card_strategy` picks one for a view.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Protocol, TypeVar

from engine.game import Game

__all__ = ["CallStrategy", "TableStrategy", "Weighted"]

W = TypeVar("W")

Weighted = tuple[W, float]
"""A world and its weight."""


class TableStrategy(Protocol[W]):
    """One seat's card decision at one kind of table (see the module docstring)."""

    kind: str  # "partnership", "open", "solo", "bid-whist"
    unit: str  # what evaluate's values count: "points" or "tricks"

    def candidates(self, legal: int) -> list[int]:
        """The cards of the ``legal`` mask worth telling apart."""
        ...

    def worlds(self, rng: random.Random) -> Iterator[tuple[W, float]]:
        """Sampled worlds with their weights, until no consistent world can be found."""
        ...

    def every_world(self, limit: int) -> list[tuple[W, float]] | None:
        """Every world that can be, weighted, when there are at most ``limit``; else ``None``."""
        ...

    def evaluate(self, world: W, cands: list[int], deadline: float) -> dict[int, float]:
        """The deal's value to the seat after each card of ``cands`` in ``world``
        (``deadline`` on the AI's clock for a timed search; ``math.inf``: untimed)."""
        ...

    def true_world(self, game: Game) -> W:
        """The deal as it lies in ``game``, in this strategy's form of a world."""
        ...


class CallStrategy(Protocol[W]):
    """One seat's decision that is not a card (see the module docstring): its choices are
    codes, its worlds unweighted deals of what the seat cannot see."""

    kind: str  # "call", "trump", "lay-out", "kitty"
    unit: str  # what evaluate's values count: "points" or "tricks"
    table: str  # "solo" (Solo Whist's contracts, valued on their own scale), or the table's kind
    count: int  # the seat's actions one choice stands for (a lay-out's cards; else 1)

    def candidates(self) -> list[str]:
        """The choices worth telling apart, as codes."""
        ...

    def worlds(self, rng: random.Random) -> Iterator[tuple[W, float]]:
        """Sampled worlds with their weights, until no consistent world can be found."""
        ...

    def evaluate(self, world: W, cands: list[str], deadline: float) -> dict[str, float]:
        """The value to the seat of each choice of ``cands`` in ``world`` (untimed:
        ``deadline`` is read by none of them yet)."""
        ...

    def true_world(self, game: Game) -> W:
        """The deal as it lies in ``game``, in this strategy's form of a world."""
        ...
