"""Ruffe and Trump's declared ruff as a strategy (``ruffval:…``, under ``ruff_announce =
declared``): the claims made so far are public, the seats still to claim state their
true ruff (as every AI level does); the claimed winners show after the rub, a false
claim passing the bonus to the true winner. A claim is worth the ruff points of the
seat's side less the others' (their mean, each playing alone)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action
from engine.ai.search.worlds import deck_mask
from engine.ai.strategies.calls.base import SampledCall
from engine.cards import mask_of
from engine.game import Game, SeatView
from engine.phases.contest import RuffClaim, contest_winners, ruff_value

__all__ = ["RuffClaimStrategy"]


class RuffClaimStrategy(SampledCall[list[int]]):
    """A declared ruff (see the module docstring). The choices: no claim, the seat's
    true ruff and one over it, the best claim so far and one over it, and ``claimed``
    (the claim judged, when there is one)."""

    table = "ruffe"

    def __init__(self, view: SeatView, legal: Sequence[Action], claimed: int | None) -> None:
        rules = view.rules
        assert rules is not None
        self.view = view
        self.rules = rules
        self.seat = view.seat
        self.n = view.n_seats
        self.sides = view.seat_sides
        self.hand = hand = mask_of(view.hand)
        self.turn_up = turn_up = view.turn_up
        self.trump = view.trump
        self.measure = rules.ruff_measure
        mine = ruff_value(hand, turn_up, self.trump, self.measure)
        said = view.note("ruff_claims", ())
        self.earlier: dict[int, int] = {}
        if isinstance(said, tuple):
            for s, v in said:
                self.earlier[int(s)] = int(v)
        top = max(self.earlier.values(), default=-1)
        most = max(a.value for a in legal if isinstance(a, RuffClaim))
        values = {0, mine, min(most, top + 1), min(most, mine + 1)}
        if claimed is not None:
            values.add(claimed)
        if top >= 0:
            values.add(top)
        self.cands = [f"ruffval:{v}" for v in sorted(values)]
        deck = deck_mask(rules.removed_ranks)
        self.pool = [
            i
            for i in range(52)
            if (deck & ~hand) >> i & 1 and (turn_up is None or i != turn_up.index)
        ]
        self.sizes = list(view.hand_sizes)

    def candidates(self) -> list[str]:
        return list(self.cands)

    def sample(self, rng: random.Random) -> list[int] | None:
        cards = self.pool[:]
        rng.shuffle(cards)
        world = [0] * self.n
        world[self.seat] = self.hand
        k = 0
        for s in range(self.n):
            if s == self.seat:
                continue
            for c in cards[k : k + self.sizes[s]]:
                world[s] |= 1 << c
            k += self.sizes[s]
        return world

    def evaluate(self, world: list[int], cands: list[str], deadline: float) -> dict[str, float]:
        n, seat, sides, view, rules = self.n, self.seat, self.sides, self.view, self.rules
        n_sides = max(sides) + 1
        true = [ruff_value(world[s], self.turn_up, self.trump, self.measure) for s in range(n)]
        out: dict[str, float] = {}
        for code in cands:
            claims: list[int | None] = [self.earlier.get(s, true[s]) for s in range(n)]
            claims[seat] = int(code.partition(":")[2])
            awards, _ = contest_winners(
                claims, view.eldest, sides, rules.ruff_tie, rules.ruff_bonus
            )
            false = {s for s, _p in awards if (claims[s] or 0) > true[s]}
            points = [0.0] * n_sides
            for s, p in awards:
                if s not in false:
                    points[sides[s]] += p
            lost = sum(p for s, p in awards if s in false)
            if lost:
                others: list[int | None] = [None if s in false else true[s] for s in range(n)]
                passed, _ = contest_winners(others, view.eldest, sides, rules.ruff_tie, lost)
                for s, p in passed:
                    points[sides[s]] += p
            own = points[sides[seat]]
            rest = [p for i, p in enumerate(points) if i != sides[seat]]
            out[code] = own - (sum(rest) / len(rest) if rest else 0.0)
        return out

    def true_world(self, game: Game) -> list[int]:
        return [game.hands[s] for s in range(self.n)]
