"""What a world costs hard early in the deal, and how many worlds a decision gets.

    python -m tools.bench_solver [--deals 3] [--worlds 8] [--forms whist-5,cotton1674]
                                 [--scale 4] [--seed 1]

Positions: every decision with more than one candidate card in tricks 1 to 3 of
``--deals`` seeded deals of each form, the deals played by ``easy`` in all four
seats (no search, so the positions are the same on every run); at each, hard's own strategy
(:class:`engine.ai.strategies.partnership.PartnershipStrategy`, the ``hard`` profile).

Per world (``--worlds`` sampled worlds a position, seeded): the CPU time of sampling
it; of DDS scoring every card at once (DDS's ``solutions=3``, what hard's search asks
of a world); of one solve for the best card only (``solutions=1``, a lower bound for
any exact per-card figure); and of one solve a card after each card, the
alternative to every card at once. DDS's node counts are deterministic, so the node
columns repeat on a busy machine where the milliseconds do not. Each timed solve
starts from an empty transposition table (:func:`engine.ai.search.dds.measure_solve`).

Per decision: the worlds hard's search (:func:`engine.ai.search.determinized.search_card`)
scores within its production budget on the CPU clock, and within ``--scale`` times
that soft budget (what a solver that many times faster would buy).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine import DealScored, Play, SeatView, make_rules, new_game
from engine.ai import clock, get_player
from engine.ai.levels import HARD
from engine.ai.search import dds
from engine.ai.search.bitmasks import trick_winner_pos
from engine.ai.search.determinized import search_card, settled_follow
from engine.ai.strategies.partnership import PartnershipStrategy, budget_of
from engine.ai.strategies.tables import card_strategy

__all__ = ["FORMS", "Row", "decision_worlds", "main", "positions", "world_costs"]

FORMS: dict[str, str] = {"whist-5": "whist-5", "cotton1674": "ruff-honours-cotton"}
"""The forms measured: the arena's name -> the game id (its default variant)."""


def positions(game_id: str, deals: int, seed: int) -> list[tuple[int, SeatView]]:
    """(trick number, view) of every decision of tricks 1 to 3 where hard searches."""
    rules = make_rules(game_id, None, {})
    driver = get_player("easy")
    out: list[tuple[int, SeatView]] = []
    for k in range(deals):
        game, _ = new_game(rules=rules, seed=seed + k, first_dealer=k % rules.players)
        rng = random.Random(seed + k)
        while True:
            seat = game.to_act()
            if seat is None:
                break
            view = game.observe(seat)
            plays = [a for a in view.legal if isinstance(a, Play)]
            if len(plays) > 1:
                strategy = card_strategy(view, HARD)
                if isinstance(strategy, PartnershipStrategy):
                    sit = strategy.sit
                    trick = sit.tricks[0] + sit.tricks[1] + 1
                    legal = sum(1 << a.card.index for a in plays)
                    if (
                        trick <= 3
                        and len(strategy.candidates(legal)) > 1
                        and settled_follow(sit, legal) is None
                    ):
                        out.append((trick, view))
            action = driver.choose(view, view.legal, rng)
            if any(isinstance(e, DealScored) for e in game.apply(seat, action)):
                break
    return out


@dataclass(slots=True)
class Row:
    """The figures of one form and trick."""

    sample: list[float] = field(default_factory=list)  # seconds a world
    every: list[dds.SolveCost] = field(default_factory=list)
    best: list[dds.SolveCost] = field(default_factory=list)
    per_card: list[dds.SolveCost] = field(default_factory=list)  # summed over the cards
    worlds: list[int] = field(default_factory=list)  # a decision, production budget
    worlds_scaled: list[int] = field(default_factory=list)
    decided: float = 0.0  # CPU seconds of the production-budget decisions
    scoring: float = 0.0  # ... of which scoring worlds (DDS, the value table)


def _per_card(view: SeatView, strategy: PartnershipStrategy, world: list[int]) -> dds.SolveCost:
    """One solve after each candidate card, summed."""
    sit = strategy.sit
    legal = sum(1 << a.card.index for a in view.legal if isinstance(a, Play))
    seconds = 0.0
    nodes = 0
    for c in strategy.candidates(legal):
        hands = list(world)
        hands[sit.seat] ^= 1 << c
        trick = [*sit.trick, c]
        if len(trick) < 4:
            cost = dds.measure_solve(hands, sit.leader, trick, sit.trump, every_card=False)
        else:
            winner = (sit.leader + trick_winner_pos(trick, sit.trump)) % 4
            cost = dds.measure_solve(hands, winner, [], sit.trump, every_card=False)
        seconds += cost.seconds
        nodes += cost.nodes
    return dds.SolveCost(seconds, nodes)


def world_costs(view: SeatView, worlds: int, seed: int, row: Row) -> None:
    """Add ``worlds`` sampled worlds' costs at ``view`` to ``row``."""
    strategy = PartnershipStrategy(view, HARD)
    sit = strategy.sit
    sampler = strategy.worlds(random.Random(seed))
    for _ in range(worlds):
        start = time.process_time()
        sampled = next(sampler, None)
        took = time.process_time() - start
        if sampled is None:
            break
        world = sampled[0]
        row.sample.append(took)
        row.every.append(dds.measure_solve(world, sit.leader, sit.trick, sit.trump))
        row.best.append(
            dds.measure_solve(world, sit.leader, sit.trick, sit.trump, every_card=False)
        )
        row.per_card.append(_per_card(view, strategy, world))


class _Timed(PartnershipStrategy):
    """Hard's strategy, counting the CPU time its worlds' scoring takes."""

    scoring = 0.0

    def evaluate(self, world: list[int], cands: list[int], deadline: float) -> dict[int, float]:
        start = time.process_time()
        try:
            return super().evaluate(world, cands, deadline)
        finally:
            self.scoring += time.process_time() - start


def decision_worlds(view: SeatView, seed: int, scale: float = 1.0) -> tuple[int, float, float]:
    """The worlds hard's search scores at ``view`` within its budget (soft times ``scale``)
    on the CPU clock; the decision's CPU seconds, and those spent scoring worlds."""
    strategy = _Timed(view, HARD)
    legal = sum(1 << a.card.index for a in view.legal if isinstance(a, Play))
    budget = budget_of(HARD)
    budget = replace(budget, soft=budget.soft * scale)
    start = time.process_time()
    found = search_card(strategy, strategy.candidates(legal), random.Random(seed), budget)
    took = time.process_time() - start
    return (0 if found is None else found[1]), took, strategy.scoring


def _ms(costs: Sequence[float]) -> str:
    ordered = sorted(costs)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (
        f"{1e3 * statistics.fmean(costs):6.1f} {1e3 * statistics.median(costs):6.1f}"
        f" {1e3 * p90:6.1f}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_solver", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--deals", type=int, default=3, help="deals a form")
    parser.add_argument("--worlds", type=int, default=8, help="worlds a position")
    parser.add_argument("--forms", default=",".join(FORMS))
    parser.add_argument("--scale", type=float, default=4.0, help="the larger budget's factor")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not dds.available():
        print("DDS (endplay) is not available: hard would not solve full deals")
        return 1
    clock.use("cpu")
    soft = budget_of(HARD).soft
    print(
        f"hard: soft budget {1e3 * soft:.0f} ms, at most {HARD.max_worlds} worlds a decision;"
        f" {args.deals} deals a form (easy in every seat), {args.worlds} worlds a position;"
        " CPU ms (mean, median, p90) and DDS nodes (mean) a world"
    )
    for form in args.forms.split(","):
        rows: dict[int, Row] = {}
        found = positions(FORMS[form.strip()], args.deals, args.seed)
        for i, (trick, view) in enumerate(found):
            row = rows.setdefault(trick, Row())
            world_costs(view, args.worlds, args.seed * 7919 + i, row)
            worlds, took, scoring = decision_worlds(view, args.seed * 7919 + i)
            row.worlds.append(worlds)
            row.decided += took
            row.scoring += scoring
            row.worlds_scaled.append(decision_worlds(view, args.seed * 7919 + i, args.scale)[0])
        for trick in sorted(rows):
            row = rows[trick]
            n = len(row.every)
            every_s = sum(c.seconds for c in row.every)
            every_nodes = sum(c.nodes for c in row.every)
            print(
                f"{form} trick {trick}: {len(row.worlds)} decisions, {n} worlds\n"
                f"  sampling a world          {_ms(row.sample)}\n"
                f"  DDS, every card at once   {_ms([c.seconds for c in row.every])}"
                f"  {every_nodes / n:8.0f} nodes  {every_nodes / every_s / 1e3:6.0f} knodes/s\n"
                f"  DDS, best card only       {_ms([c.seconds for c in row.best])}"
                f"  {statistics.fmean(c.nodes for c in row.best):8.0f} nodes\n"
                f"  DDS, one solve a card     {_ms([c.seconds for c in row.per_card])}"
                f"  {statistics.fmean(c.nodes for c in row.per_card):8.0f} nodes\n"
                f"  worlds a decision: median {statistics.median(row.worlds):.0f}"
                f" (mean {statistics.fmean(row.worlds):.1f}) at {1e3 * soft:.0f} ms,"
                f" median {statistics.median(row.worlds_scaled):.0f}"
                f" (mean {statistics.fmean(row.worlds_scaled):.1f}) at"
                f" {1e3 * soft * args.scale:.0f} ms\n"
                f"  a decision at {1e3 * soft:.0f} ms: {1e3 * row.decided / len(row.worlds):.0f}"
                f" ms CPU, {100 * row.scoring / row.decided:.0f}% of it scoring worlds;"
                f" {sum(w <= 2 for w in row.worlds)} of {len(row.worlds)} decisions on 1 or 2"
                f" worlds (at {1e3 * soft * args.scale:.0f} ms:"
                f" {sum(w <= 2 for w in row.worlds_scaled)})"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
