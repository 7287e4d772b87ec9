"""``python -m tools.bench_scale``: the bot in 1, 2 and 4 processes on PostgreSQL, and in
1 process on SQLite — the same workload — and the failover time.

Each bot process is a real OS process (:mod:`tools.scale_worker`: the real manager,
its own event loop and asyncpg pool, Discord stubbed). This driver plays the
humans: every table has four human seats, and each click goes to a *random*
process (as a DM click reaches shard 0's process and a table button the server's
shard's process), with no thinking time, so the figure is the bot's own. It
prints clicks per second and the click-to-ack latency (inside the bot process,
from the click to the interaction's answer) side by side, with sample sizes, and
the CPU milliseconds per click: the CPU time the bot processes themselves used
during the run (``time.process_time()`` in each, so neither PostgreSQL's nor this
driver's) over the clicks applied — what a click costs a core, so a core's
capacity is ``1000 / (CPU ms per click)`` clicks/s; the PostgreSQL server's CPU per
click (when the benchmark started the server: its processes' times in ``/proc``);
and the round trips to the
database per click (:mod:`tools.round_trips`: statements sent and answered,
``BEGIN``/``COMMIT`` included, and how many of them were a statement's first
preparation on its connection). Both hold under load, where clicks/s does not.

Failover: two processes; a table whose humans never click (turn timers and AI
play it, on its owner); the owner is killed with SIGKILL and the time until the
next move lands in the log (made by the survivor once the lease ran out) is
printed.

The machine's core count is printed too: the bot processes, PostgreSQL and this
driver share them.

This module is also the driver of ``tests/cluster/test_multiprocess.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from engine import AcceptClaim, AgreeConcession, Game, answering, decode_action
from tools.bench import policy as play_policy


def policy(view: Any) -> list[Any]:
    """The scripted human of ``tools.bench``, who also accepts a claim or a concession."""
    agree = [a for a in view.legal if isinstance(a, (AcceptClaim, AgreeConcession))]
    if agree:
        return agree[:1]
    try:
        return play_policy(view)
    except StopIteration:  # nothing it knows: the first legal action
        return [view.legal[0]]


class WorkerProc:
    """A :mod:`tools.scale_worker` process and its JSON-lines channel."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.proc: asyncio.subprocess.Process | None = None
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = 0
        self._reader: asyncio.Task[None] | None = None
        self.ready = asyncio.get_running_loop().create_future()
        self.dead = False

    async def start(self, database: str, shards: str, shard_count: int, *extra: str) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tools.scale_worker",
            "--database",
            database,
            "--name",
            self.name,
            "--shards",
            shards,
            "--shard-count",
            str(shard_count),
            *extra,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
            limit=2**24,
        )
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while True:
            line = await self.proc.stdout.readline()
            if not line:
                break
            msg = json.loads(line)
            if "ready" in msg and not self.ready.done():
                self.ready.set_result(msg["ready"])
                continue
            fut = self._pending.pop(msg.get("id"), None)
            if fut is not None and not fut.done():
                fut.set_result(msg)
        self.dead = True
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(ConnectionError(f"{self.name} has gone"))
        if not self.ready.done():
            self.ready.set_exception(ConnectionError(f"{self.name} exited before it was ready"))

    async def request(self, op: str, **fields: Any) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdin is not None
        if self.dead:
            raise ConnectionError(f"{self.name} has gone")
        self._ids += 1
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[self._ids] = fut
        self.proc.stdin.write((json.dumps({"id": self._ids, "op": op, **fields}) + "\n").encode())
        await self.proc.stdin.drain()
        reply = await fut
        if "error" in reply:
            raise RuntimeError(f"{self.name}: {reply['error']}")
        return reply

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.dead = True

    async def stop(self) -> None:
        if self.proc is None or self.proc.returncode is not None:
            return
        if not self.dead and self.proc.stdin is not None:
            with contextlib.suppress(ConnectionError, BrokenPipeError):
                self.proc.stdin.write(b'{"op": "quit"}\n')
                await self.proc.stdin.drain()
        try:
            await asyncio.wait_for(self.proc.wait(), 15)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()


async def start_workers(
    database: str, count: int, *extra: str, shard_count: int | None = None, prefix: str = "w"
) -> list[WorkerProc]:
    """``count`` worker processes, shard ``i`` for process ``i`` (of ``shard_count``)."""
    shards = shard_count or count
    workers = [WorkerProc(f"{prefix}{i}") for i in range(count)]
    for i, w in enumerate(workers):
        await w.start(database, str(i % shards), shards, *extra)
    await asyncio.wait_for(asyncio.gather(*(w.ready for w in workers)), 120)
    return workers


def guild_on_shard(shard: int, n: int = 0) -> int:
    """A guild id whose events arrive on ``shard`` (``(id >> 22) % count``, for every
    count up to 8), the nth such."""
    return ((n * 840 + shard) << 22) | 1


@dataclass
class Click:
    table: int
    version: int
    seat: int
    user: int
    actions: list[str]
    worker: str
    applied: bool
    text: str
    ms: float


@dataclass
class Tracker:
    """The driver's view of the tables: replayed from the database's logs."""

    pool: asyncpg.Pool
    games: dict[int, Game] = field(default_factory=dict)

    async def sync(self, table_id: int) -> tuple[Game, str]:
        async with self.pool.acquire() as conn:
            row = await conn.fetchrow(
                "SELECT game_id, preset, overrides, seed, first_dealer, status, record_version"
                " FROM tables WHERE id = $1",
                table_id,
            )
            game = self.games.get(table_id)
            if game is None:
                game = Game.from_record(
                    {
                        "format": "ruff-honours-game",
                        "version": row["record_version"],
                        "game_id": row["game_id"],
                        "preset": row["preset"],
                        "overrides": json.loads(row["overrides"]),
                        "seed": row["seed"],
                        "first_dealer": row["first_dealer"],
                        "actions": [],
                    }
                )
                self.games[table_id] = game
            for a in await conn.fetch(
                "SELECT seat, action FROM actions WHERE table_id = $1 AND seq >= $2 ORDER BY seq",
                table_id,
                game.version,
            ):
                game.apply(a["seat"], decode_action(a["action"]))
        return game, str(row["status"])


async def _click(
    w: WorkerProc, table_id: int, seat: int, user: int, version: int, actions: list[str]
) -> Click | None:
    try:
        r = await w.request(
            "click", table=table_id, seat=seat, user=user, version=version, actions=actions
        )
    except ConnectionError:
        return None  # the process was killed
    return Click(table_id, version, seat, user, actions, w.name, r["applied"], r["text"], r["ms"])


async def play_humans(
    workers: Sequence[WorkerProc],
    tracker: Tracker,
    table_id: int,
    humans: dict[int, int],
    rng: random.Random,
    *,
    duplicate: float = 0.0,
    stop_at: float | None = None,
) -> list[Click]:
    """Play ``humans`` (seat -> user) of a table to its end (or ``stop_at``): each click
    to a random live process; with probability ``duplicate`` the same click goes to a
    second process at the same moment (a double click racing itself)."""
    clicks: list[Click] = []
    idle = 0
    while stop_at is None or time.perf_counter() < stop_at:
        game, status = await tracker.sync(table_id)
        if status != "active" or game.is_over:
            break
        waiting = [s for s in answering(game) if s in humans]  # a claim or concession to answer
        seat = waiting[0] if waiting else game.to_act()
        if seat is None or seat not in humans:
            idle += 1
            await asyncio.sleep(min(0.05, 0.002 * idle))  # the AI's turn: wait for its move
            continue
        idle = 0
        live = [w for w in workers if not w.dead]
        chosen = rng.sample(live, 2 if len(live) > 1 and rng.random() < duplicate else 1)
        actions = [a.encode() for a in policy(game.observe(seat))]
        version = game.version

        done = [
            c
            for c in await asyncio.gather(
                *(_click(w, table_id, seat, humans[seat], version, actions) for w in chosen)
            )
            if c is not None
        ]
        clicks.extend(done)
        if not any(c.applied for c in done):
            await asyncio.sleep(0.01)  # e.g. a timer played the turn first: look again
    return clicks


async def open_tables(
    workers: Sequence[WorkerProc],
    count: int,
    humans: int,
    first_user: int,
    *,
    shard_count: int | None = None,
    target: int = 1,
) -> list[tuple[int, dict[int, int]]]:
    """``count`` tables spread over the shards, each opened by the process holding its
    server's shard; ``humans`` human seats each (the rest easy AI)."""
    shards = shard_count or len(workers)
    opened = []
    for k in range(count):
        shard = k % shards
        users = [first_user + 10 * k + s for s in range(humans)]
        owner = workers[shard % len(workers)]
        r = await owner.request(
            "open",
            guild=guild_on_shard(shard, k),
            channel=5_000 + first_user + k,
            users=users,
            ai="easy",
            target=target,
        )
        opened.append((int(r["table"]), dict(enumerate(users))))
    return opened


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# ================================================================ the benchmark


async def _pg_database(admin_url: str, name: str) -> str:
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await conn.execute(f"CREATE DATABASE {name} STRATEGY FILE_COPY")
    finally:
        await conn.close()
    base, _, _ = admin_url.rpartition("/")
    return f"{base}/{name}"


def server_cpu(data_dir: Path) -> float:
    """CPU seconds the PostgreSQL server at ``data_dir`` has used so far: the postmaster
    and its live backends (``/proc``), and the backends that have ended (reaped into
    the postmaster's children's times)."""
    tick = os.sysconf("SC_CLK_TCK")

    def times(pid: int) -> tuple[int, list[int]]:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[1]), [int(x) for x in fields[11:15]]  # ppid; utime stime cutime cstime

    master = int((data_dir / "postmaster.pid").read_text().split()[0])
    total = sum(times(master)[1])
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != master:
            with contextlib.suppress(OSError, ValueError, IndexError):
                ppid, used = times(int(entry.name))
                if ppid == master:
                    total += used[0] + used[1]
    return total / tick


async def throughput(
    database: str,
    processes: int,
    tables: int,
    seconds: float,
    latency_ms: float,
    seed: int,
    pg_data: Path | None = None,
) -> dict[str, Any]:
    workers = await start_workers(
        database, processes, "--latency", str(latency_ms), prefix=f"p{processes}-"
    )
    try:
        if database.startswith("postgresql"):
            pool = await asyncpg.create_pool(database, min_size=1, max_size=4)
        else:
            pool = None
        opened = await open_tables(
            workers, tables, 4, 100_000 * processes, target=9
        )  # games outlast the run
        rng = random.Random(seed)
        before = [await w.request("stats") for w in workers]
        pg_before = server_cpu(pg_data) if pg_data is not None else float("nan")
        stop_at = time.perf_counter() + seconds
        started = time.perf_counter()
        if pool is not None:
            tracker = Tracker(pool)
            results = await asyncio.gather(
                *(
                    play_humans(workers, tracker, tid, humans, rng, stop_at=stop_at)
                    for tid, humans in opened
                )
            )
        else:
            results = await asyncio.gather(
                *(
                    _play_sqlite(workers, database, tid, humans, rng, stop_at)
                    for tid, humans in opened
                )
            )
        wall = time.perf_counter() - started
        after = [await w.request("stats") for w in workers]
        pg_after = server_cpu(pg_data) if pg_data is not None else float("nan")
        clicks = [c for r in results for c in r]
        if pool is not None:
            await pool.close()
    finally:
        for w in workers:
            await w.stop()
    applied = [c for c in clicks if c.applied]

    def used(key: str) -> float:
        return sum(
            float(b.get(key, 0)) - float(a.get(key, 0)) for a, b in zip(before, after, strict=True)
        )

    return {
        "processes": processes,
        "clicks": len(applied),
        "per_s": len(applied) / wall,
        "p50": quantile([c.ms for c in applied], 0.5),
        "p99": quantile([c.ms for c in applied], 0.99),
        "wall": wall,
        "cpu_ms": 1000 * used("cpu_s") / max(1, len(applied)),
        "trips": used("trips") / max(1, len(applied)),
        "pg_ms": 1000 * (pg_after - pg_before) / max(1, len(applied)),
        "prepares": used("prepares") / max(1, len(applied)),
    }


async def _play_sqlite(
    workers: Sequence[WorkerProc],
    path: str,
    table_id: int,
    humans: dict[int, int],
    rng: random.Random,
    stop_at: float,
) -> list[Click]:
    """The SQLite run's driver: the same players, the log read with aiosqlite."""
    import aiosqlite

    async with aiosqlite.connect(path) as conn:
        conn.row_factory = aiosqlite.Row

        class SQLiteTracker(Tracker):
            async def sync(self, table_id: int) -> tuple[Game, str]:
                async with conn.execute(
                    "SELECT game_id, preset, overrides, seed, first_dealer, status, record_version"
                    " FROM tables WHERE id = ?",
                    (table_id,),
                ) as cur:
                    row = await cur.fetchone()
                assert row is not None
                game = self.games.get(table_id)
                if game is None:
                    game = Game.from_record(
                        {
                            "format": "ruff-honours-game",
                            "version": row["record_version"],
                            "game_id": row["game_id"],
                            "preset": row["preset"],
                            "overrides": json.loads(row["overrides"]),
                            "seed": row["seed"],
                            "first_dealer": row["first_dealer"],
                            "actions": [],
                        }
                    )
                    self.games[table_id] = game
                async with conn.execute(
                    "SELECT seat, action FROM actions WHERE table_id = ? AND seq >= ? ORDER BY seq",
                    (table_id, game.version),
                ) as cur:
                    for a in await cur.fetchall():
                        game.apply(a["seat"], decode_action(a["action"]))
                return game, str(row["status"])

        return await play_humans(
            workers, SQLiteTracker(None), table_id, humans, rng, stop_at=stop_at
        )


async def failover(database: str, lease: float) -> dict[str, Any]:
    """Kill the owner of a table that timers and the AI are playing; the time until the
    survivor's next move."""
    workers = await start_workers(
        database,
        2,
        "--lease",
        str(lease),
        "--turn-timeout",
        "0.3",
        "--ai-delay",
        "0.05",
        prefix="f",
    )
    pool = await asyncpg.create_pool(database, min_size=1, max_size=2)
    try:
        opened = await open_tables(workers, 1, 2, 900_000)
        table_id = opened[0][0]
        while (
            int(await pool.fetchval("SELECT COUNT(*) FROM actions WHERE table_id = $1", table_id))
            < 12
        ):
            await asyncio.sleep(0.05)
        owner = str(
            await pool.fetchval("SELECT owner FROM table_leases WHERE table_id = $1", table_id)
        ).split("#")[0]
        victim = next(w for w in workers if w.name == owner)
        before = int(
            await pool.fetchval("SELECT COUNT(*) FROM actions WHERE table_id = $1", table_id)
        )
        victim.kill()
        killed_at = time.time()
        deadline = time.perf_counter() + 10 * lease + 30
        while time.perf_counter() < deadline:
            at = await pool.fetchval(
                "SELECT created_at FROM actions WHERE table_id = $1 AND seq >= $2 ORDER BY seq LIMIT 1",
                table_id,
                before,
            )
            if at is not None and at > killed_at:
                return {"lease": lease, "seconds": float(at) - killed_at}
            await asyncio.sleep(0.02)
        return {"lease": lease, "seconds": float("nan")}
    finally:
        await pool.close()
        for w in workers:
            await w.stop()


async def run(args: argparse.Namespace) -> int:
    server: Any = None
    admin = args.postgresql
    if admin is None:
        from tests.store.pgserver import (
            PostgresServer,  # the store tests' throwaway server (a checkout)
        )

        server = PostgresServer()
        server.start()
        admin = server.url()
    pg_data = Path(server.data) if server is not None else None  # its CPU is measured
    rows = []
    try:
        for n in args.processes:
            url = await _pg_database(admin, f"rh_bench_{n}")
            rows.append(
                (
                    "PostgreSQL",
                    await throughput(
                        url, n, args.tables, args.seconds, args.latency, args.seed, pg_data
                    ),
                )
            )
        with tempfile.TemporaryDirectory() as tmp:
            path = str(Path(tmp) / "bench.db")
            rows.append(
                (
                    "SQLite",
                    await throughput(path, 1, args.tables, args.seconds, args.latency, args.seed),
                )
            )
        url = await _pg_database(admin, "rh_bench_failover")
        fo = await failover(url, args.lease)
    finally:
        if server is not None:
            server.stop()
    cores = os.cpu_count()
    print(
        f"\nbench_scale: {args.tables} tables x 4 humans, {args.seconds:.0f} s each, Discord latency "
        f"{args.latency:.0f} ms, on {cores} CPU core(s) shared by the bot processes, PostgreSQL and this driver"
    )
    print(
        f"{'store':<11} {'processes':>9} {'clicks (n)':>10} {'clicks/s':>9} {'CPU ms/click':>12}"
        f" {'ack p50 ms':>11} {'ack p99 ms':>11} {'trips/click':>11} {'prepares/click':>14}"
        f" {'server CPU ms/click':>19}"
    )
    for store, r in rows:
        print(
            f"{store:<11} {r['processes']:>9} {r['clicks']:>10} {r['per_s']:>9.1f} {r['cpu_ms']:>12.2f}"
            f" {r['p50']:>11.1f} {r['p99']:>11.1f} {r['trips']:>11.2f} {r['prepares']:>14.3f}"
            f" {r['pg_ms']:>19.2f}"
        )
    print(
        f"failover: kill -9 of the owner -> next move {fo['seconds']:.2f} s (lease {fo['lease']:g} s, "
        f"renewed every {fo['lease'] / 3:.2f} s)"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_scale", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--latency", type=float, default=0.0, help="simulated Discord REST latency (ms)"
    )
    parser.add_argument("--lease", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--postgresql",
        metavar="URL",
        help="a server where the bench may create and drop databases (default: start a throwaway one)",
    )
    args = parser.parse_args(argv)
    return asyncio.run(run(args))


if __name__ == "__main__":
    raise SystemExit(main())
