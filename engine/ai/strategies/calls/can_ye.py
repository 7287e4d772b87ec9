"""Can-ye and showing honours as a strategy (``canye``, ``show``, ``pass``): showing wins
the game; a call wins it where partner holds an honour; otherwise (and passing) the
deal is played: its value by DDS (double dummy from the first lead, or the greedy
playout without DDS), in the partnership unit."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action, CallCanYe, Pass, ShowHonours
from engine.ai.search import dds
from engine.ai.search.determinized import honour_counts
from engine.ai.search.value import WIN_BONUS, value_table
from engine.ai.search.worlds import opening_leader, sample_world, situation
from engine.ai.strategies.calls.base import SampledCall
from engine.ai.strategies.calls.ruff import deal_values
from engine.game import Game, SeatView

__all__ = ["CanYeStrategy"]


class CanYeStrategy(SampledCall[list[int]]):
    """Can-ye, showing honours or passing (see the module docstring)."""

    table = "partnership"

    def __init__(self, view: SeatView, legal: Sequence[Action]) -> None:
        self.sit = sit = situation(view)
        rules = sit.rules
        self.side = view.seat % 2
        self.partner = (view.seat + 2) % 4
        self.leader = opening_leader(view)
        self.win = float(rules.target_score - sit.start_scores[self.side]) + WIN_BONUS
        self.use_dds = dds.available()
        self.codes = [a.encode() for a in legal if isinstance(a, (CallCanYe, ShowHonours, Pass))]

    def candidates(self) -> list[str]:
        return list(self.codes)

    def sample(self, rng: random.Random) -> list[int] | None:
        return sample_world(self.sit, rng, inference=False)

    def _played(self, world: list[int]) -> float:
        sit, side, leader = self.sit, self.side, self.leader
        hands = list(world[:4])
        counts = honour_counts(sit, hands)
        if self.use_dds:
            lead_side = dds.max_tricks(hands, leader, sit.trump)
            total = sit.rules.tricks_per_deal
            mine = lead_side if leader % 2 == side else total - lead_side
            return value_table(sit.rules, side, sit.start_scores, counts)[mine]
        return deal_values(sit, leader, [hands], [counts])[0]

    def evaluate(self, world: list[int], cands: list[str], deadline: float) -> dict[str, float]:
        play_on = self._played(world)
        partner_holds = bool(world[self.partner] & self.sit.honours)
        out: dict[str, float] = {}
        for c in cands:
            if c == "show" or (c == "canye" and partner_holds):
                out[c] = self.win
            else:
                out[c] = play_on
        return out

    def true_world(self, game: Game) -> list[int]:
        return [game.hands[s] for s in range(4)]
