"""Benchmark of ``/ruff daily`` at production defaults: the AI's think time per
decision, and how many boards a minute one bot process serves.

    python -m tools.bench_daily [--boards 2] [--players 200] [--duration 30]

1. **Think time**: ``--boards`` boards of every game id played by the boards' AI
   (``AIPool``'s ``fixed`` level at ``RH_DAILY_WORLDS``' default, claims decided
   as in the pool) in every seat; each decision's CPU time (``time.process_time``,
   which holds under load), p50 and p95, overall and per game.
2. **Boards a minute**: the real ``GameManager`` on a SQLite file, Discord a stub
   answering after 50-150 ms (``tools.bench.StubDiscord``), the AI in worker
   processes, production timings (1 s AI pacing; ``--ai-delay 0`` for the capacity
   behind it). ``--players`` people each play
   today's Ruff and Honours boards from their DMs, one after the other, clicking
   at once when it is their turn; after ``--warmup`` s the boards finished in
   ``--duration`` s are counted, with the bot process's CPU share.

Prints ``uptime``'s load with the figures: the machine may be shared.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bot.config import Settings
from tools.bench import StubDiscord, click

__all__ = ["main", "think_times"]


def _load() -> str:
    return "load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _q(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def think_times(boards: int) -> dict[str, list[float]]:
    """CPU seconds of each fixed-AI decision on ``boards`` boards of every game id."""
    from bot.tables.aipool import FIXED, FIXED_WORLDS, _decide
    from engine import boards_of, game_ids, start_board

    out: dict[str, list[float]] = defaultdict(list)
    for game_id in game_ids():
        for one in boards_of(game_id, None, "bench", boards):
            game, _ = start_board(one)
            while not game.is_over:
                seat = game.to_act()
                assert seat is not None
                view = game.observe(seat)
                began = time.process_time()
                action = _decide(
                    FIXED, 0, FIXED_WORLDS, view, view.legal, f"{one.seed}:ai:{game.version}"
                )
                out[game_id].append(time.process_time() - began)
                game.apply(seat, action)
    return out


async def boards_a_minute(args: argparse.Namespace) -> dict[str, Any]:
    from bot.app.manager import GameManager
    from bot.store import Database
    from bot.tables.aipool import AIPool
    from engine import board

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(  # production defaults, but for the AI's pacing when asked
            database=str(Path(tmp) / "daily.db"), seed=1, ai_delay=args.ai_delay
        )
        pool = AIPool(settings.ai_workers, mode="process", fixed_worlds=settings.daily_worlds)
        await pool.ready()
        db = await Database.open(settings.database)
        discord_ = StubDiscord((0.05, 0.15), 1)
        manager = GameManager(discord_, db, settings, ai=pool)  # type: ignore[arg-type]
        await manager.resume()
        daily = manager.daily
        day = daily.today()
        finished: list[float] = []
        finished_ids: list[int] = []
        lengths: list[int] = []  # actions in each finished board (the AI's included)
        changed: dict[int, asyncio.Event] = defaultdict(asyncio.Event)

        def watch(table: Any, events: Any) -> None:
            changed.pop(table.id, asyncio.Event()).set()
            if table.settings.board and table.status == "finished":
                finished.append(time.perf_counter())
                finished_ids.append(table.id)
                lengths.append(table.game.version if table.game is not None else 0)

        manager.services.feed.subscribe(watch)
        stop_at = time.perf_counter() + args.warmup + args.duration
        rng = random.Random(1)

        async def player(index: int) -> None:
            """One player: today's boards one after the other, each dealt when the one
            before is over (``/ruff daily`` again), clicking at once on their turn."""
            user_id = 50_000 + index
            await asyncio.sleep(rng.uniform(0, 2))  # they arrive over two seconds
            for number in range(1, 7):
                if time.perf_counter() >= stop_at:
                    return
                table = await daily.open(
                    board("ruff-honours-cotton", None, day, number),
                    user_id,
                    f"p{index}",
                    1,
                    1000,
                    900_000 + index,
                )
                assert table is not None
                while table.status == "active" and time.perf_counter() < stop_at:
                    seat = table.seat_of(user_id)
                    game = table.game
                    if game is None or game.to_act() != seat:
                        try:
                            await asyncio.wait_for(changed[table.id].wait(), 1.0)
                        except TimeoutError:
                            pass
                        continue
                    await click(manager, discord_, table.id, seat, user_id)

        try:
            cpu0 = time.process_time()
            began = time.perf_counter()
            await asyncio.gather(*(player(i) for i in range(args.players)))
            wall = time.perf_counter() - began
            busy = (time.process_time() - cpu0) / wall
            decisions = [d.seconds for d in pool.decisions if d.level == "fixed"]
        finally:
            await manager.close()
            await db.close()
            await pool.close()
    window_from = began + args.warmup
    counted = [t for t in finished if t >= window_from]
    return {
        "counted": len(counted),
        "total": len(finished),
        "busy": busy,
        "workers": pool.workers,
        "decision_wall": decisions,
        "actions": statistics.mean(lengths) if lengths else 0.0,
        "distinct": len(set(finished_ids)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--boards", type=int, default=2, help="boards per game id (think time)")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument(
        "--ai-delay",
        type=float,
        default=1.0,
        help="the AI's pacing (s); production's 1 s makes a board last a minute, 0 finds the capacity",
    )
    parser.add_argument("--skip-serve", action="store_true", help="think time only")
    args = parser.parse_args(argv)
    print(f"before: {_load()}")
    times = think_times(args.boards)
    every = [t for v in times.values() for t in v]
    print(
        f"fixed AI think time, CPU per decision: p50 {_q(every, 0.5) * 1000:.1f} ms, "
        f"p95 {_q(every, 0.95) * 1000:.1f} ms, mean {statistics.mean(every) * 1000:.1f} ms "
        f"({len(every)} decisions, {args.boards} boards of each of {len(times)} game ids)"
    )
    for game_id, values in times.items():
        print(
            f"  {game_id:22} p50 {_q(values, 0.5) * 1000:6.1f} ms  p95 {_q(values, 0.95) * 1000:6.1f} ms"
            f"  ({len(values)})"
        )
    if not args.skip_serve:
        r = asyncio.run(boards_a_minute(args))
        rate = r["counted"] / args.duration * 60
        walls = r["decision_wall"]
        print(
            f"boards served: {rate:.0f} boards/minute ({r['counted']} finished in {args.duration:.0f} s "
            f"after {args.warmup:.0f} s warm-up; {args.players} players, {args.ai_delay:g} s AI pacing, "
            f"{r['workers']} AI worker(s)); bot process {r['busy'] * 100:.0f}% of a core; "
            f"{r['actions']:.1f} actions a board (claims and Can-ye end some early); "
            f"{r['distinct']} distinct of {r['total']}"
        )
        if walls:
            print(
                f"  AI decision wall time in the pool: p50 {_q(walls, 0.5) * 1000:.0f} ms, "
                f"p95 {_q(walls, 0.95) * 1000:.0f} ms ({len(walls)})"
            )
    print(f"after: {_load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
