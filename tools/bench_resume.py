"""Benchmark: restart with many unfinished games (the target: 1,000 games ready in <= 1 s).

``python -m tools.bench_resume`` first plays ``--games`` tables part-way through
the real ``GameManager`` into a real SQLite file (half 1 human + 3 AI, half
4 humans; each stopped after a random number of human moves, so the logs
replay different lengths), closes that bot, and then times a restart the way
the bot starts: open the database, build a ``GameManager`` with production
settings (AI pacing 1 s, 90 s turn timers, 1 s edit throttle, Discord
answering after 50-150 ms) and ``resume()``. It prints:

* ``resume()`` returned: every table loaded (its game restored from its stored
  snapshot and the tail of its log replayed, or the whole log where it has no
  snapshot) and its timer or AI driver armed;
* ready to take a click: as soon as ``resume()`` returned, ``--probes``
  players on random tables click, one every 10 ms (click-to-ack, and when
  the last was acknowledged); then every other table waiting for a human
  clicks at once (a stress figure: the burst of a server whose players all
  click in the same instant). Tables waiting for an AI take no click: their AI
  is due 1 s later.

Setting up 1,000 games takes about a minute on 2 cores; ``--games`` scales it.
``--database`` keeps the file (and reuses it if it exists, skipping the setup).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import logging
import os
import random
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.tables.aipool import AIPool
from tools.bench import StubDiscord, _quantile, click, open_table, priority


class _EasyForAll(AIPool):
    """During the setup only: every AI seat plays as easy, inline (the setup is not timed)."""

    def __init__(self) -> None:
        super().__init__(mode="inline")

    async def choose(self, level: str, view: Any, legal: Any, seed: str) -> Any:
        return await super().choose("easy", view, legal, seed)


async def setup(path: Path, games: int, seed: int) -> int:
    """Play ``games`` tables part-way into the database at ``path``; the number of moves clicked."""
    from bot.app.manager import GameManager
    from bot.store import Database

    settings = Settings(
        database=str(path),
        ai_delay=0.0,
        turn_timeout=90.0,
        lobby_timeout=300.0,
        table_edit_interval=1.0,
        ai_mode="inline",
        seed=seed,
    )
    db = await Database.open(settings.database)
    discord_ = StubDiscord((0.0, 0.0), seed)
    manager = GameManager(discord_, db, settings, ai=_EasyForAll())  # type: ignore[arg-type]
    rng = random.Random(seed)
    clicks = 0
    try:
        semaphore = asyncio.Semaphore(50)

        async def one(index: int) -> None:
            nonlocal clicks
            async with semaphore:
                humans = 1 if index % 2 == 0 else 4
                table_id, users = await open_table(manager, discord_, index, humans, "normal", 9)
                table = manager.tables[table_id]
                left = rng.randrange(0, 30)
                idle = 0
                while left > 0 and table.status == "active" and table.game is not None:
                    seat = table.game.to_act()
                    if seat is None or seat >= len(users) or table.ai_plays(seat):
                        idle += 1
                        if idle > 5_000:
                            raise RuntimeError(f"table {table_id}: the AI did not move for 10 s")
                        await asyncio.sleep(0.002)  # the AI driver's turn
                        continue
                    idle = 0
                    await click(manager, discord_, table_id, seat, users[seat])
                    clicks += 1
                    left -= 1

        await asyncio.gather(*(one(i) for i in range(games)))
        index = games
        while (short := games - sum(t.status != "finished" for t in manager.tables.values())) > 0:
            await asyncio.gather(*(one(i) for i in range(index, index + short)))  # some games ended
            index += short
        for _ in range(1000):  # let the AI drivers finish the moves they started
            if all(
                t.drive.ai_task is None or t.drive.ai_task.done() for t in manager.tables.values()
            ):
                break
            await asyncio.sleep(0.01)
    finally:
        await manager.close()
        await db.close()
    return clicks


async def restart(path: Path, args: argparse.Namespace) -> dict[str, Any]:
    from bot.app.manager import GameManager
    from bot.store import Database
    from bot.tables.aipool import AIPool

    settings = Settings(
        database=str(path),
        ai_delay=1.0,
        turn_timeout=90.0,
        lobby_timeout=300.0,
        table_edit_interval=1.0,
        seed=args.seed + 1,
    )
    pool = AIPool(args.workers, mode="process")  # started with the bot, in parallel with the resume
    await pool.ready()
    discord_ = StubDiscord((args.latency_min / 1000, args.latency_max / 1000), args.seed)
    profiler = cProfile.Profile(time.thread_time) if args.profile else None
    started = time.perf_counter()
    cpu_started = time.process_time()
    loop_cpu_started = time.thread_time()
    if profiler is not None:
        profiler.enable()
    db = await Database.open(settings.database)
    manager = GameManager(discord_, db, settings, ai=pool)  # type: ignore[arg-type]
    try:
        count = await manager.resume()
        resumed = time.perf_counter() - started
        resumed_cpu = time.process_time() - cpu_started
        resumed_loop_cpu = time.thread_time() - loop_cpu_started
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile)
        waiting = []
        for table in manager.tables.values():
            game = table.game
            seat = game.to_act() if table.status == "active" and game is not None else None
            human = table.human(seat) if seat is not None else None
            if seat is not None and human is not None and not table.ai_plays(seat):
                waiting.append((table.id, seat, human.user_id))
        random.Random(args.seed).shuffle(waiting)

        # probes: players on tables across the server click right away, one every 10 ms
        async def probe(n: int, tid: int, seat: int, uid: int) -> Any:
            await asyncio.sleep(0.01 * n)
            return await click(manager, discord_, tid, seat, uid)

        probes = await asyncio.gather(*(probe(n, *w) for n, w in enumerate(waiting[: args.probes])))
        probed = (
            max((i.acked_at for i in probes if i.acked_at is not None), default=started) - started
        )
        # then everyone else at once: the burst of a server whose players all click
        burst = await asyncio.gather(
            *(click(manager, discord_, tid, seat, uid) for tid, seat, uid in waiting[args.probes :])
        )
        acked = [i.acked_at for i in (*probes, *burst) if i.acked_at is not None]
        ready = (max(acked) - started) if acked else resumed
        active = sum(1 for t in manager.tables.values() if t.status == "active")
        logging.getLogger("bot").setLevel(
            logging.CRITICAL
        )  # shutdown noise (see NOTES-B2-to-B1.md)
    finally:
        await manager.close()
        await db.close()
        await pool.close()

    def acks(interactions: Any) -> list[float]:
        return [i.acked_at - i.clicked_at for i in interactions if i.acked_at is not None]

    return {
        "resumed": count,
        "active": active,
        "resume_s": resumed,
        "resume_cpu_s": resumed_cpu,
        "resume_loop_cpu_s": resumed_loop_cpu,
        "probes": acks(probes),
        "probed_s": probed,
        "burst": acks(burst),
        "acked": len(acked),
        "ready_all_s": ready,
    }


def as_if_stopped_now(path: Path) -> float:
    """Move the stored clock of the database at ``path`` (moves, deadlines) forward so
    it restarts as if its bot had stopped just now: a database kept from an earlier
    run would otherwise restart with every turn timer long expired. Returns the
    seconds moved."""
    conn = sqlite3.connect(path)
    try:
        last = conn.execute("SELECT MAX(created_at) FROM actions").fetchone()[0] or time.time()
        shift = max(0.0, time.time() - float(last))
        with conn:
            conn.execute("UPDATE actions SET created_at = created_at + ?", (shift,))
            conn.execute("UPDATE deadlines SET due_at = due_at + ?", (shift,))
    finally:
        conn.close()
    return shift


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.database) if args.database else Path(tmp) / "resume.db"
        if not path.exists():
            began = time.perf_counter()
            clicks = await setup(path, args.games, args.seed)
            print(
                f"setup: {args.games} games played part-way ({clicks} human moves) into {path.name} "
                f"({path.stat().st_size / 2**20:.1f} MiB) in {time.perf_counter() - began:.0f} s"
            )
        # the restart works on a copy: a kept database stays as the setup left it
        copy = Path(tmp) / "restart.db"
        for suffix in ("", "-wal", "-shm"):
            if Path(f"{path}{suffix}").exists():
                shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
        stopped_ago = as_if_stopped_now(copy)
        r = await restart(copy, args)
        r["stopped_ago"] = stopped_ago
    print(
        f"resume: {r['resumed']} unfinished tables ({r['active']} in play) loaded and armed by resume() "
        f"{r['resume_s']:.2f} s after start (database opened, games restored)   [target <= 1 s]; "
        f"the bot's process used {r['resume_cpu_s']:.2f} s of CPU meanwhile, its event loop's "
        f"thread {r['resume_loop_cpu_s']:.2f} s; load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} CPUs, this benchmark at {priority()}"
    )
    p, b = r["probes"], r["burst"]
    print(
        f"ready: {len(p)} players on random tables clicked as resume() returned, one every 10 ms: "
        f"click-to-ack p50 {_quantile(p, 0.5) * 1000:.1f} ms, max {max(p, default=0.0) * 1000:.1f} ms; "
        f"the last acknowledged {r['probed_s']:.2f} s after start"
    )
    print(
        f"burst: then {len(b)} other tables waiting for a human clicked all at once: click-to-ack "
        f"p50 {_quantile(b, 0.5) * 1000:.0f} ms, p99 {_quantile(b, 0.99) * 1000:.0f} ms; all "
        f"{r['acked']} clicks acknowledged {r['ready_all_s']:.2f} s after start"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_resume", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--games", type=int, default=1000, help="unfinished games in the database (default 1000)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--probes", type=int, default=50, help="tables clicked one by one first (default 50)"
    )
    parser.add_argument(
        "--profile", metavar="FILE", help="cProfile resume() (the loop thread's CPU) into FILE"
    )
    parser.add_argument("--database", help="keep the database here (reused if it exists)")
    parser.add_argument(
        "--workers", type=int, default=None, help="AI worker processes (default CPUs - 1)"
    )
    parser.add_argument(
        "--latency-min", type=float, default=50.0, help="Discord answers after at least (ms)"
    )
    parser.add_argument("--latency-max", type=float, default=150.0, help="... and at most (ms)")
    asyncio.run(run(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
