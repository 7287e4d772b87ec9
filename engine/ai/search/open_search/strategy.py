"""The open-table search as the strategy interface asks it (:class:`OpenStrategy`):
the candidate cards, each card's value in a world, and the timed choice of the
levels (:func:`search_play`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Final

from engine.ai.search import clock
from engine.ai.search.bitmasks import (
    SUIT_BITS,
    card_indices,
)
from engine.ai.search.budget import Budget
from engine.ai.search.open_search.exact import solve
from engine.ai.search.open_search.knowledge import Known, knowledge_of
from engine.ai.search.open_search.playouts import playout
from engine.ai.search.open_search.value import deal_value
from engine.ai.search.open_search.worlds import World, after_card, remaining_cards, sample_world
from engine.game import Game, SeatView

__all__ = ["CAP_RESERVE", "OpenStrategy", "candidate_cards", "card_values", "search_play"]

CAP_RESERVE: Final = 0.02  # a search stops this many seconds (at most a tenth of
# its cap) before the cap, so that the answer is in by the cap (see exact.SOLVE_CHECK)


def candidate_cards(k: Known, legal: int) -> list[int]:
    """The legal cards worth trying: one of each run of equivalent hand cards, every layout card.

    Two hand cards are equivalent when every card ranked between them is the
    seat's own (hand or layout) or already played.
    """
    own = k.hand | k.ups[k.seat]
    trick = 0
    for c in k.trick:
        trick |= 1 << c
    gone = k.played & ~trick  # cards of earlier tricks never separate two cards
    out: list[int] = []
    hand_legal = legal & k.hand
    for bits in SUIT_BITS:
        mine = hand_legal & bits
        if not mine:
            continue
        others = bits & ~gone & ~own
        prev = -1
        for c in card_indices(mine):
            if prev < 0 or others & ((1 << c) - (1 << (prev + 1))):
                out.append(c)
            prev = c
    out.extend(card_indices(legal & ~k.hand))
    return out


def card_values(
    k: Known,
    world: World,
    cands: list[int],
    exact: tuple[int, int],
    relative: bool,
    deadline: float,
) -> dict[int, float]:
    """The deal's value to the seat (:func:`deal_value`) after each card of ``cands`` in
    ``world``: solved exactly (:func:`solve`) when at most ``exact`` cards a seat (two
    seats, more) are left, else played out greedily (valued against the others' mean
    when ``relative``). Past ``deadline`` an exact solve stops: the cards valued so far."""
    seat = k.seat
    side = k.sides[seat]
    per_seat = exact[0] if k.n == 2 else exact[1]
    exactly = remaining_cards(world) + len(k.trick) <= per_seat * k.n
    values: dict[int, float] = {}
    for c in cands:
        after = after_card(world, seat, c)
        trick = [*k.trick, c]
        if exactly:
            try:
                final = solve(
                    after, k.leader, trick, k.trump, k.sides, k.tricks, k.stop, side, deadline
                )
            except TimeoutError:
                break  # only whole worlds count
            values[c] = deal_value(k.rules, k.sides, side, final)
        else:
            final = playout(after, k.leader, trick, k.trump, k.sides, k.tricks, k.stop)
            values[c] = deal_value(k.rules, k.sides, side, final, relative)
    return values


class OpenStrategy:
    """A seat's card at an open table (:class:`engine.ai.search.strategy.TableStrategy`).

    Worlds: :func:`sample_world`, each weighed by
    :class:`engine.ai.search.open_inference.Sharp` with ``sharp``. Value:
    :func:`card_values`, exact from ``exact`` cards a seat, played out before that
    (valued against the others' mean with ``relative``). :meth:`choose` is the timed
    search of the levels (:func:`search_play`).
    """

    kind = "open"
    unit = "points"

    def __init__(
        self, view: SeatView, k: Known, exact: tuple[int, int], sharp: bool, relative: bool
    ) -> None:
        self.k = k
        self.exact = exact
        self.relative = relative
        self._sharp = None
        if sharp:
            from engine.ai.search.open_inference import Sharp

            self._sharp = Sharp.of(view, k)

    @classmethod
    def of(
        cls, view: SeatView, exact: tuple[int, int], sharp: bool, relative: bool
    ) -> OpenStrategy | None:
        """The strategy of ``view``'s card, ``None`` when the view cannot be read."""
        k = knowledge_of(view)
        return None if k is None else cls(view, k, exact, sharp, relative)

    def candidates(self, legal: int) -> list[int]:
        return candidate_cards(self.k, legal)

    def worlds(self, rng: random.Random) -> Iterator[tuple[World, float]]:
        while True:
            world = sample_world(self.k, rng)
            if world is None:
                return
            yield world, self._sharp.weight(world) if self._sharp is not None else 1.0

    def every_world(self, limit: int) -> list[tuple[World, float]] | None:
        return None

    def evaluate(self, world: World, cands: list[int], deadline: float) -> dict[int, float]:
        return card_values(self.k, world, cands, self.exact, self.relative, deadline)

    def true_world(self, game: Game) -> World:
        n = self.k.n
        layout = game.layout
        if layout is None:
            return World(list(game.hands[:n]), [0] * n, [0] * n, [{} for _ in range(n)])
        under = [
            {pile[-1]: tuple(pile[:-1]) for pile in piles if pile} for piles in layout.piles[:n]
        ]
        return World(list(game.hands[:n]), list(layout.up[:n]), list(layout.fresh[:n]), under)

    def choose(self, legal: int, rng: random.Random, budget: Budget, start: float) -> int | None:
        """The card (index) of ``legal`` with the best (weighted) mean value over the worlds
        there is time for; ``None`` when not one world could be scored."""
        k = self.k
        cands = self.candidates(legal)
        if len(cands) == 1:
            return cands[0]
        soft = start + budget.soft
        cap = start + budget.cap - min(CAP_RESERVE, budget.cap / 10)
        totals = dict.fromkeys(cands, 0.0)
        worlds = 0
        mass = 0.0  # the worlds' total weight (their number, without ``sharp``)
        slowest = 0.0
        sampler = self.worlds(rng)
        while worlds < budget.max_worlds:
            now = clock.now()
            if (worlds >= budget.min_worlds and now + slowest > soft) or now > cap:
                break
            sampled = next(sampler, None)
            if sampled is None:
                break
            world, weight = sampled
            values = self.evaluate(world, cands, cap)
            if len(values) < len(cands):
                break
            for c, v in values.items():
                totals[c] += weight * v
            worlds += 1
            mass += weight
            slowest = max(slowest * 0.8, clock.now() - now)
        if not worlds:
            return None
        trump = k.trump

        def key(c: int) -> tuple[float, int, int, int]:
            # best mean; among equals the cheaper card: a hand card before a layout
            # card (which would show a new card), non-trump, then the lower rank
            return (-totals[c], 0 if k.hand >> c & 1 else 1, 1 if c // 13 == trump else 0, c % 13)

        best = min(cands, key=key)
        if budget.margin > 0:
            floor = totals[best] - budget.margin * mass
            near = [c for c in cands if totals[c] >= floor]
            best = min(near, key=lambda c: (key(c)[1:], -totals[c]))
        return best


def search_play(
    view: SeatView,
    legal: int,
    rng: random.Random,
    budget: Budget,
    start: float | None = None,
    exact: tuple[int, int] = (0, 0),
    sharp: bool = False,
    relative: bool = False,
) -> int | None:
    """The card (index) with the best mean deal value over sampled worlds
    (:meth:`OpenStrategy.choose`).

    With ``sharp`` (``hard`` only), :class:`engine.ai.search.open_inference.Sharp` weighs
    each world by how well it explains the others' plays (a weighted mean).

    ``exact`` is (cards a seat of a two-seat table, cards a seat of a bigger
    one) at or below which every world is solved exactly (:func:`solve`)
    rather than played out greedily. ``None`` when the view cannot be read or
    not one world could be scored (the caller then plays by the maxims).
    """
    if start is None:
        start = clock.now()
    strategy = OpenStrategy.of(view, exact, sharp, relative)
    return None if strategy is None else strategy.choose(legal, rng, budget, start)
