"""A seat's card in Bid Whist as the one strategy interface asks it
(:class:`BidWhistStrategy`, :mod:`engine.ai.search.strategy`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.ai.search.bitmasks import card_indices
from engine.ai.strategies.bid_whist.contracts import contract_points
from engine.ai.strategies.bid_whist.maxims import playout
from engine.ai.strategies.bid_whist.model import model_of
from engine.ai.strategies.bid_whist.worlds import knowledge_of, sample_world
from engine.game import Game, SeatView

__all__ = ["BidWhistStrategy"]


class BidWhistStrategy:
    """A seat's card in Bid Whist (:class:`engine.ai.search.strategy.TableStrategy`), over
    the contract's own card model (:func:`model_of`: jokers, the rank order named).

    Worlds: :func:`sample_world`. Value, by ``objective``: ``"points"`` (the players'):
    the contract's points for the seat's side, signed (the declarer's side scores, the
    defenders count it against them; books before a contract); ``"books"`` (the coach's
    unit, which counts every trick the seat's side takes, ``unit`` ``"tricks"``).
    """

    kind = "bid-whist"

    def __init__(self, view: SeatView, objective: str = "points") -> None:
        if objective not in ("points", "books"):
            raise ValueError(f"unknown objective {objective!r}")
        self.view = view
        self.objective = objective
        self.unit = "points" if objective == "points" else "tricks"
        self.m = model_of(view.trump, view.rank_order)
        self.k = knowledge_of(view, self.m)
        self.trick = [c.index for _, c in view.trick]
        sides = view.sides or (0, 1, 0, 1)
        self._sides = sides
        self._mine = sides[view.seat]
        self._declarer_side = sides[view.declarer] if view.declarer is not None else self._mine
        self._base = list(view.tricks) if view.tricks else [0] * (max(sides) + 1)
        rules = view.rules
        assert rules is not None
        self._multiplier = rules.nt_multiplier
        self._made_rule = rules.made_score
        self._number = int(view.contract[:-1]) if view.contract else 0
        self._no_trump = view.contract.endswith("n")

    def candidates(self, legal: int) -> list[int]:
        return card_indices(legal)

    def worlds(self, rng: random.Random) -> Iterator[tuple[list[int], float]]:
        while True:
            world = sample_world(self.k, rng)
            if world is None:
                return
            yield world, 1.0

    def every_world(self, limit: int) -> list[tuple[list[int], float]] | None:
        return None

    def evaluate(self, world: list[int], cands: list[int], deadline: float) -> dict[int, float]:
        seat = self.view.seat
        leader = self.view.trick_leader
        out: dict[int, float] = {}
        for c in cands:
            hands = world[:4]
            hands[seat] &= ~(1 << c)
            tricks = playout(self.m, hands, [*self.trick, c], leader, self._sides, self._base)
            if self.objective == "books":
                out[c] = float(tricks[self._mine])
                continue
            books = 1 + tricks[self._declarer_side]
            value = (
                contract_points(
                    self._made_rule, self._multiplier, self._number, self._no_trump, books
                )
                if self._number
                else books
            )
            out[c] = value if self._declarer_side == self._mine else -value
        return out

    def true_world(self, game: Game) -> list[int]:
        return list(game.hands[:4])
