"""How long a hint takes: p50 and p95 per game, at production settings.

    python -m tools.bench_hints [--positions 12] [--seed 1] [--games whist-5,solo-whist]

For each game id, positions from seeded games (every decision of a deal in turn,
played by the easy AI) get a hint through the bot's AI pool in process mode with
one worker (``AIPool.hint``: pickling, the worker's search at
:data:`bot.tables.aipool.HINT_BUDGET`, the reason), one at a time; the wall time
from the call to the answer is the hint's latency as a player sees it, less
Discord. Beside it, the same hints in this process timed in CPU time (holds under
load), and hard's own decision through the pool at its production budget (wall), to
show why hints have a budget of their own, and how often the hint's choice is the
one hard makes with its own budget.
The machine's load is printed with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time

from bot.tables.aipool import HINT_BUDGET, AIPool, level_budget
from engine import SeatView, game_ids, new_game
from engine.ai import get_player, hint


def positions(game_id: str, count: int, seed: int) -> list[SeatView]:
    """``count`` decisions of seeded games of ``game_id``, spread over the deal."""
    easy = get_player("easy")
    rng = random.Random(seed)
    found: list[SeatView] = []
    game_seed = seed
    while len(found) < count:
        game, _ = new_game(game_id, seed=game_seed)
        game_seed += 1
        step = 0
        while not game.is_over and len(found) < count and game.deal_no == 1:
            seat = game.to_act()
            if seat is None:
                break
            view = game.observe(seat)
            legal = game.legal_actions(seat)
            if len(legal) > 1 and step % 3 == 0:
                found.append(view)
            game.apply(seat, easy.choose(view, legal, rng))
            step += 1
    return found


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(games: list[str], count: int, seed: int) -> None:
    pool = AIPool(1, mode="process")
    await pool.ready()
    hard_soft, hard_cap = level_budget("hard")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"hint budget {HINT_BUDGET[0]:.2f} s soft / {HINT_BUDGET[1]:.2f} s cap;"
        f" hard's production budget {hard_soft:.2f} / {hard_cap:.2f}"
    )
    print(
        f"{'game':24} {'n':>3}  {'pool wall p50':>13} {'p95':>6}  {'hint CPU p50':>12} {'p95':>6}"
        f"  {'hard pool p50':>13} {'p95':>6}  same as hard   (ms)"
    )
    everything: list[float] = []
    agreed = 0
    named = 0  # hints whose reason is a maxim or a count, not "the search found it best"
    try:
        for game_id in games:
            views = positions(game_id, count, seed)
            wall: list[float] = []
            cpu: list[float] = []
            hard_wall: list[float] = []
            agree = 0
            for i, view in enumerate(views):
                legal = list(view.legal)
                start = time.perf_counter()
                chosen, reason = await pool.hint(view, legal, f"{seed}:{i}")
                named += reason.code != "search"
                wall.append(time.perf_counter() - start)
                start = time.process_time()
                hint(view, legal, random.Random(i), *HINT_BUDGET)
                cpu.append(time.process_time() - start)
                start = time.perf_counter()
                hard_choice = await pool.choose("hard", view, legal, f"{seed}:{i}")
                hard_wall.append(time.perf_counter() - start)
                agree += hard_choice == chosen
            everything.extend(wall)
            print(
                f"{game_id:24} {len(views):3}  {1000 * statistics.median(wall):13.0f}"
                f" {1000 * pct(wall, 0.95):6.0f}  {1000 * statistics.median(cpu):12.0f}"
                f" {1000 * pct(cpu, 0.95):6.0f}  {1000 * statistics.median(hard_wall):13.0f}"
                f" {1000 * pct(hard_wall, 0.95):6.0f}  {agree:3}/{len(views)}"
            )
            agreed += agree
        print(
            f"{'all games':24} {len(everything):3}  {1000 * statistics.median(everything):13.0f}"
            f" {1000 * pct(everything, 0.95):6.0f}"
            f"  the hint's choice is hard's own in {agreed} of {len(everything)};"
            f" a maxim or a count names the reason in {named}"
        )
        print(f"load average at end:   {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        await pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=12, help="hints per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g] or list(game_ids())
    asyncio.run(run(games, args.positions, args.seed))


if __name__ == "__main__":
    main()
