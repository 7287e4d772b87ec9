"""Benchmark: 1,000 games played in one process; resident memory should stay flat.

``python -m tools.bench_soak`` keeps ``--concurrent`` tables in play (half
1 human + 3 AI, half 4 humans) through the real ``GameManager``, a real SQLite
file and the real engine, opening a new table in a channel as soon as its game
ends, until ``--games`` games have finished. Discord is a stub answering at
once, humans click at once and the AI has no pacing (``--ai-delay``), so the
games go by fast; turn timers (90 s) are armed and cancelled as in
production. Every ``--every`` finished games it prints the resident memory
(after a garbage collection) beside what the manager holds: tables in memory,
ack latencies kept, pending notifier state. Flat means those stay bounded and
the RSS stops rising after the first few hundred games (allocator warm-up).

Games are short by default (``--target 2``, the smallest the rules allow) so
1,000 take a few minutes on 2 cores; ``--target 9`` plays the full game.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.config import Settings
from tools.bench import StubDiscord, click, open_table, rss_mib


def _held(manager: Any) -> str:
    """What the manager keeps in memory (by today's attribute names; missing ones are skipped)."""
    parts = [f"tables {len(manager.tables)}"]
    acks = getattr(manager, "ack_latencies", None)
    if acks is not None:
        parts.append(f"ack_latencies {len(acks)}")
    notifier = getattr(manager, "notifier", None)
    for name in ("_recent", "_pending", "_editors", "_dm_channels"):
        held = getattr(notifier, name, None)
        if held is not None:
            parts.append(f"notifier.{name.lstrip('_')} {len(held)}")
    stats = getattr(notifier, "stats", None)
    edits = getattr(stats, "by_channel_edits", None)
    if edits is not None:
        parts.append(f"edit times {sum(len(v) for v in edits.values())}")
    parts.append(f"asyncio tasks {len(asyncio.all_tasks())}")
    return ", ".join(parts)


async def run(args: argparse.Namespace) -> None:
    from bot.app.manager import GameManager
    from bot.store import Database
    from bot.tables.aipool import AIPool

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database=str(Path(tmp) / "soak.db"),
            ai_delay=args.ai_delay,
            turn_timeout=90.0,
            lobby_timeout=300.0,
            table_edit_interval=1.0,
            seed=args.seed,
        )
        pool = AIPool(args.workers, mode="process")
        await pool.ready()
        db = await Database.open(settings.database)
        discord_ = StubDiscord((0.0, 0.0), args.seed)
        manager = GameManager(discord_, db, settings, ai=pool)  # type: ignore[arg-type]
        await manager.resume()  # start-up as the bot's (nothing to resume: the heap is settled)
        rng = random.Random(args.seed)
        opened = finished = 0
        next_report = args.every
        started = time.perf_counter()
        gc.collect()
        print(f"start: RSS {rss_mib():.1f} MiB; {_held(manager)}", flush=True)
        try:

            async def channel(slot: int) -> None:
                nonlocal opened, finished, next_report
                while opened < args.games:
                    opened += 1
                    humans = 1 if slot % 2 == 0 else 4
                    table_id, users = await open_table(  # new players each game, same channel
                        manager,
                        discord_,
                        opened,
                        humans,
                        args.ai,
                        args.target,
                        channel_index=slot,
                    )
                    table = manager.tables[table_id]
                    last = time.perf_counter()
                    while table.status == "active" and table.game is not None:
                        seat = table.game.to_act()
                        if seat is None or seat >= len(users) or table.ai_plays(seat):
                            if time.perf_counter() - last > 30:
                                raise RuntimeError(f"table {table_id}: no move for 30 s")
                            await asyncio.sleep(0.002)  # the AI driver's turn
                            continue
                        await click(manager, discord_, table_id, seat, users[seat])
                        last = time.perf_counter()
                        if rng.random() < 0.02:
                            await asyncio.sleep(0)  # let the edit loops run now and then
                    finished += 1
                    if finished >= next_report:
                        next_report += args.every
                        gc.collect()
                        print(
                            f"{finished:5d} games: RSS {rss_mib():.1f} MiB; {_held(manager)}; "
                            f"{time.perf_counter() - started:.0f} s",
                            flush=True,
                        )

            await asyncio.gather(*(channel(s) for s in range(args.concurrent)))
            await manager.services.notifier.flush()
            gc.collect()
            print(f"end: RSS {rss_mib():.1f} MiB; {_held(manager)}", flush=True)
        finally:
            await manager.close()
            await db.close()
            await pool.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_soak", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=1000, help="games played (default 1000)")
    parser.add_argument(
        "--every", type=int, default=100, help="print memory every N games (default 100)"
    )
    parser.add_argument(
        "--concurrent", type=int, default=20, help="tables in play at once (default 20)"
    )
    parser.add_argument(
        "--target", type=int, default=2, help="points to win a game (default 2: short games)"
    )
    parser.add_argument(
        "--ai",
        choices=("easy", "normal", "hard"),
        default="easy",
        help="AI level (default easy: fast; normal goes through the process pool)",
    )
    parser.add_argument("--ai-delay", type=float, default=0.0, help="AI pacing, s (production 1.0)")
    parser.add_argument(
        "--workers", type=int, default=None, help="AI worker processes (default CPUs - 1)"
    )
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(run(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
