"""The ruff as strategies (Cotton's stock, Ruffe and Trump's rub): **taking or
declining** — taking is worth, in each world, the best of the likely lay-outs of the
sixteen cards (the stock seen once taken), declining the twelve held; and **the
cards laid out**, judged as one decision (the lay-out, a choice being its cards'
codes): the likely sets of :func:`~engine.ai.strategies.discards.candidate_discards`.

At the four-handed tables each world is played out by the batched greedy playouts
the hard AI screens its lay-outs with, valued in the partnership unit
(:func:`~engine.ai.search.value.value_table`, honours held included); at the open
tables (two or three seats, each alone) in the open-table worlds, valued as hard
values a deal (:func:`~engine.ai.search.open_search.deal_value`, less the others'
mean)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action, Discard
from engine.ai.search import open_search as ops
from engine.ai.search.batch_playouts import batch_playout
from engine.ai.search.determinized import honour_counts
from engine.ai.search.value import value_table
from engine.ai.search.worlds import Situation, deck_mask, opening_leader, sample_world, situation
from engine.ai.strategies.calls.base import SampledCall
from engine.ai.strategies.discards import candidate_discards
from engine.cards import Card, mask_of
from engine.game import Game, SeatView

__all__ = [
    "LAY_OUT_CANDIDATES",
    "LayOutStrategy",
    "OpenLayOutStrategy",
    "RuffStrategy",
    "deal_values",
    "lay_out_cards",
    "lay_out_code",
    "lay_out_strategy",
    "open_lay_out_strategy",
]

LAY_OUT_CANDIDATES = 10  # likely lay-outs scored (the hard AI's screen)


def lay_out_code(cards: Sequence[int]) -> str:
    """A lay-out's code: its cards' codes, sorted, joined by spaces."""
    return " ".join(str(Card.from_index(c)) for c in sorted(cards))


def lay_out_cards(code: str) -> list[int]:
    """The cards (indices) of a lay-out's code."""
    return [Card.parse(c).index for c in code.split()]


def _allowed(legal: Sequence[Action]) -> int:
    allowed = 0
    for a in legal:
        if isinstance(a, Discard):
            allowed |= a.card.bit
    return allowed


def deal_values(
    sit: Situation, leader: int, hands_rows: list[list[int]], counts: list[tuple[int, int] | None]
) -> list[float]:
    """Each row of four hands played out from the first lead (the batched greedy
    playouts), valued for the seat's side in the partnership unit."""
    rules = sit.rules
    total = rules.tricks_per_deal
    side = sit.seat % 2
    if not hands_rows:
        return []
    side0 = batch_playout(hands_rows, leader, None, sit.trump, 0, total).tolist()
    out = []
    for ns, hon in zip(side0, counts, strict=True):
        mine = int(ns) if side == 0 else total - int(ns)
        out.append(value_table(rules, side, sit.start_scores, hon)[mine])
    return out


def _sets(hand: int, allowed: int, trump: int, count: int) -> list[str]:
    return [
        lay_out_code(combo)
        for combo in candidate_discards(hand, allowed, trump, count, LAY_OUT_CANDIDATES)
    ]


def _lay_out_values(
    sit: Situation, leader: int, hand: int, world: list[int], codes: list[str]
) -> list[float]:
    rows: list[list[int]] = []
    counts: list[tuple[int, int] | None] = []
    for code in codes:
        hands = list(world[:4])
        out = 0
        for c in lay_out_cards(code):
            out |= 1 << c
        hands[sit.seat] = hand & ~out
        rows.append(hands)
        counts.append(honour_counts(sit, hands))
    return deal_values(sit, leader, rows, counts)


class RuffStrategy(SampledCall[list[int]]):
    """Taking the ruff or declining it at a four-handed table (the module docstring);
    a world holds the stock at index 4."""

    table = "partnership"

    def __init__(self, view: SeatView) -> None:
        self.sit = situation(view)
        self.seat = view.seat
        rules = self.sit.rules
        self.stock_size = rules.stock_size
        self.deck = deck_mask(rules.removed_ranks)
        self.leader = opening_leader(view)

    def candidates(self) -> list[str]:
        return ["take", "decline"]

    def sample(self, rng: random.Random) -> list[int] | None:
        world = sample_world(self.sit, rng, inference=False)
        if world is None:
            return None
        held = world[0] | world[1] | world[2] | world[3]
        return [*world[:4], self.deck & ~held]

    def evaluate(self, world: list[int], cands: list[str], deadline: float) -> dict[str, float]:
        sit = self.sit
        stock = world[4]
        sixteen = sit.my_hand | stock
        sets = _sets(sixteen, sixteen, sit.trump, self.stock_size)
        keep_all = lay_out_code([i for i in range(52) if stock >> i & 1])
        if keep_all not in sets:
            sets.append(keep_all)
        base = list(world[:4])
        base[self.seat] = sixteen
        values = _lay_out_values(sit, self.leader, sixteen, base, sets)
        return {
            "take": max(values),
            "decline": values[sets.index(keep_all)],
        }

    def true_world(self, game: Game) -> list[int]:
        return [*(game.hands[s] for s in range(4)), mask_of(game.stock)]


class LayOutStrategy(SampledCall[list[int]]):
    """The lay-out of the ruff at a four-handed table (the module docstring)."""

    kind = "lay-out"
    table = "partnership"

    def __init__(self, view: SeatView, legal: Sequence[Action]) -> None:
        self.sit = sit = situation(view)
        self.count = len(view.hand) - sit.rules.hand_size
        self.hand = sit.my_hand
        self.leader = opening_leader(view)
        self.sets = _sets(self.hand, _allowed(legal), sit.trump, self.count)

    def candidates(self) -> list[str]:
        return list(self.sets)

    def sample(self, rng: random.Random) -> list[int] | None:
        return sample_world(self.sit, rng, inference=False)

    def evaluate(self, world: list[int], cands: list[str], deadline: float) -> dict[str, float]:
        values = _lay_out_values(self.sit, self.leader, self.hand, world, cands)
        return dict(zip(cands, values, strict=True))

    def true_world(self, game: Game) -> list[int]:
        return [game.hands[s] for s in range(4)]


def lay_out_strategy(view: SeatView, legal: Sequence[Action]) -> LayOutStrategy | None:
    """The lay-out's strategy at its first card (``None`` at the others: one decision)."""
    return None if view.my_discards else LayOutStrategy(view, legal)


class OpenLayOutStrategy(SampledCall[ops.World]):
    """The rub's lay-out at the open tables (two or three, each alone), as the hard AI
    plans it (:func:`~engine.ai.strategies.discards.plan_open_discards`): the likely
    sets played out from the first lead in the open-table worlds."""

    kind = "lay-out"
    table = "open"

    def __init__(self, view: SeatView, legal: Sequence[Action], k: ops.Known) -> None:
        self.k = k
        self.count = len(view.hand) - k.rules.hand_size
        self.hand = mask_of(view.hand)
        self.sets = [
            lay_out_code(combo)
            for combo in candidate_discards(
                self.hand, _allowed(legal), k.trump, self.count, LAY_OUT_CANDIDATES
            )
        ]
        self.leader = opening_leader(view)

    def candidates(self) -> list[str]:
        return list(self.sets)

    def sample(self, rng: random.Random) -> ops.World | None:
        return ops.sample_world(self.k, rng)

    def evaluate(self, world: ops.World, cands: list[str], deadline: float) -> dict[str, float]:
        k = self.k
        side = k.sides[k.seat]
        start = [0] * len(k.tricks)
        out: dict[str, float] = {}
        for code in cands:
            gone = 0
            for c in lay_out_cards(code):
                gone |= 1 << c
            hands = list(world.hands)
            hands[k.seat] = self.hand & ~gone
            after_world = ops.World(hands, world.ups, world.fresh, world.under)
            final = ops.playout(after_world, self.leader, [], k.trump, k.sides, start, k.stop)
            out[code] = ops.deal_value(k.rules, k.sides, side, final, True)
        return out

    def true_world(self, game: Game) -> ops.World:
        n = self.k.n
        return ops.World(
            [game.hands[s] for s in range(n)], [0] * n, [0] * n, [{} for _ in range(n)]
        )


def open_lay_out_strategy(view: SeatView, legal: Sequence[Action]) -> OpenLayOutStrategy | None:
    """The open-table lay-out's strategy at its first card; ``None`` at the others, or
    when the open search cannot read the view."""
    if view.my_discards:
        return None
    k = ops.knowledge_of(view) if ops.applies(view) else None
    return None if k is None else OpenLayOutStrategy(view, legal, k)
