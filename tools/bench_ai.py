"""Speed of the AI: greedy playouts per second and decision latency per level.

    python -m tools.bench_ai [--playouts 20000] [--batch-playouts 65536] [--deals 6]
                              [--levels easy,normal,hard]

Playouts run on one core from random full deals (12 cards a hand, a random
trump), the greedy policy of :mod:`engine.ai.search.bitmasks` playing every card: one
deal at a time in Python, then many deals at once with the NumPy version in
:mod:`engine.ai.search.batch_playouts` (the same cards, vectorized). The latency part plays
whole Ruff and Honours deals with one level in all four seats and times every
decision that had a real choice.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Final

import numpy as np

from engine import DealScored, make_rules, new_game
from engine.ai import LEVELS, clock, get_player
from engine.ai.search.batch_playouts import batch_playout, hands_array
from engine.ai.search.bitmasks import playout
from engine.ai.search.dds import available as dds_available
from engine.ai.search.solver import solve_cards
from tools.arena import parse_overrides

__all__ = ["bench_batch_playouts", "bench_latency", "bench_playouts", "main"]


def _random_deals(count: int, cards: int, seed: int) -> list[tuple[list[int], int, int]]:
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [0, 0, 0, 0]
        for i in range(4 * cards):
            hands[i % 4] |= 1 << deck[i]
        deals.append((hands, rng.randrange(4), rng.randrange(4)))
    return deals


def bench_playouts(count: int = 20000, seed: int = 1) -> tuple[float, float]:
    """Greedy full-deal playouts per second, and cards played per second (one core)."""
    deals = _random_deals(count, 12, seed)
    start = time.perf_counter()
    for hands, trump, leader in deals:
        playout(list(hands), leader, [], trump, 0, 12)
    took = time.perf_counter() - start
    return count / took, 48 * count / took


BATCH: Final = 16384  # deals per batch_playout call: large enough to amortise Python


def bench_batch_playouts(
    count: int = 65536, seed: int = 1, batch: int = BATCH
) -> tuple[float, float]:
    """Like :func:`bench_playouts`, with :func:`engine.ai.search.batch_playouts.batch_playout`.

    The deals are played ``batch`` at a time. The timed part includes turning
    the Python int masks into arrays, so it is what a caller holding
    :mod:`engine.ai.search.bitmasks` hands would see.
    """
    deals = _random_deals(count, 12, seed)
    start = time.perf_counter()
    for first in range(0, count, batch):
        chunk = deals[first : first + batch]
        batch_playout(
            hands_array([hands for hands, _, _ in chunk]),
            np.array([leader for _, _, leader in chunk]),
            None,
            np.array([trump for _, trump, _ in chunk]),
            0,
            12,
        )
    took = time.perf_counter() - start
    return count / took, 48 * count / took


def bench_solver(cards: int, count: int = 20, seed: int = 2) -> float:
    """Median seconds for the Python solver to score every card of a random deal."""
    times = []
    for hands, trump, leader in _random_deals(count, cards, seed):
        start = time.perf_counter()
        solve_cards(hands, leader, [], trump)
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def bench_latency(
    level: str,
    deals: int,
    seed: int = 1,
    game_id: str = "ruff-honours-cotton",
    overrides: Mapping[str, object] | None = None,
    cap: float | None = None,
) -> list[float]:
    """Seconds per decision (with a real choice) over ``deals`` deals of ``game_id``
    (with ``overrides``), all seats ``level`` (its search cap ``cap`` when given)."""
    player = get_player(level, cap=cap)
    times: list[float] = []
    rules = make_rules(game_id, None, dict(overrides or {}))
    for k in range(deals):
        game, _ = new_game(rules=rules, seed=seed + k, first_dealer=k % rules.players)
        rng = random.Random(seed + k)
        finished = False
        while not finished:
            seat = game.to_act()
            if seat is None:
                break
            view = game.observe(seat)
            start = time.perf_counter()
            action = player.choose(view, view.legal, rng)
            took = time.perf_counter() - start
            if len(view.legal) > 1:
                times.append(took)
            finished = any(isinstance(e, DealScored) for e in game.apply(seat, action))
    return times


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_ai", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--playouts", type=int, default=20000)
    parser.add_argument(
        "--batch-playouts", type=int, default=65536, help="playouts for the batched NumPy line"
    )
    parser.add_argument("--deals", type=int, default=6, help="deals per level for latency")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument(
        "--game",
        default="ruff-honours-cotton",
        help="game id of the latency deals (default ruff-honours-cotton)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rules parameter (repeatable)",
    )
    parser.add_argument(
        "--latency-only", action="store_true", help="skip the playout and solver lines"
    )
    parser.add_argument(
        "--cap",
        type=float,
        default=None,
        help="lower the levels' search cap to this many seconds, so that many decisions reach it,"
        " and count how many end past it (the cap is a promise: never past it)",
    )
    args = parser.parse_args(argv)
    overrides = parse_overrides(args.set)

    if not args.latency_only:
        per_s, cards_s = bench_playouts(args.playouts)
        print(f"greedy playouts (one core): {per_s:,.0f} full deals/s = {cards_s:,.0f} cards/s")
        per_s, cards_s = bench_batch_playouts(args.batch_playouts, batch=BATCH)
        print(
            f"greedy playouts, batched NumPy (one core, {BATCH} deals a call, int-mask conversion"
            f" included): {per_s:,.0f} full deals/s = {cards_s:,.0f} cards/s"
        )
        for cards in (4, 5, 6):
            print(
                f"python solver, every card of a {cards}-card deal: median {1e3 * bench_solver(cards):.1f} ms"
            )
        print(f"DDS (endplay) available: {dds_available()}")
    shown = args.game + "".join(f" {o}" for o in args.set)
    print(
        f"decision latency, {args.deals} deals of {shown} a level, every seat the level; search budgets"
        f" on the {clock.current()} clock (engine.ai.search.clock); latency in wall time"
    )
    for level in args.levels.split(","):
        level = level.strip()
        times = bench_latency(
            level, args.deals, game_id=args.game, overrides=overrides, cap=args.cap
        )
        print(
            f"{level:<7} {len(times):4d} decisions: p50 {1e3 * _pct(times, 0.5):7.2f} ms"
            f"  p95 {1e3 * _pct(times, 0.95):7.2f} ms  max {1e3 * max(times):7.2f} ms"
        )
        if args.cap is not None:
            near = [t for t in times if t > args.cap - 0.05]
            past = [t for t in near if t > args.cap]
            print(
                f"        cap {1e3 * args.cap:.0f} ms: {len(near)} decisions ended within 50 ms of it,"
                f" {len(past)} past it; the latest {1e3 * (max(times) - args.cap):+.1f} ms from it"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
