"""A bot process's table layer for the events' store tests, with no Discord: the
drivers' front that shows nothing (:class:`DriverFront`, the web benchmark's); on
PostgreSQL, one process among several (:func:`cluster_process`: its services, its real
cluster sync with a lease name of its own, the drivers and the events' director on a
front the test gives); and such a process run as a real OS process that the test kills
(:func:`spawn`, :class:`OsProcess`: ``tests/store/event_process_main.py`` does a
scenario's part, says on stdout when it got there, and is killed with ``SIGKILL``, gone
without giving its leases up, so another process takes its tables over once the leases
run out). :class:`BareBoards` and :class:`KeptAsyncFront` are an asynchronous event's
boards (bare table rows the test finishes) and front (what it was told, kept)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.cluster.sync import Cluster
from bot.config import Settings
from bot.store import Database, HumanSeat
from bot.tables.aipool import AIPool
from bot.tables.drivers import Drivers
from bot.tables.events import AsyncStandings, BoardTables, Director, EventFront
from bot.tables.resume import Resume
from bot.tables.services import Services
from bot.tables.table import Table
from engine import Board
from tools.bench_web import QuietFront as DriverFront

__all__ = [
    "BareBoards",
    "ClusterProcess",
    "DriverFront",
    "KeptAsyncFront",
    "OsProcess",
    "cluster_process",
    "spawn",
]

ROOT = Path(__file__).resolve().parents[2]  # the checkout whose code the OS process runs
READY_WITHIN = 60.0  # seconds for an OS process to start and reach its scenario's state


@dataclass
class ClusterProcess:
    """One bot process on a shared PostgreSQL database, without Discord."""

    db: Database
    svc: Services
    cluster: Cluster
    drivers: Drivers
    director: Director
    stopped: bool = False

    async def start(self) -> None:
        """Start as a bot does: its tables claimed (its own name's at once, another's
        whose lease ran out) and brought back, its events resumed."""
        await self.cluster.start()
        await self.director.resume()

    async def stop(self) -> None:
        """The process stops as a bot does (its leases given up); once."""
        if self.stopped:
            return
        self.stopped = True
        for table in self.svc.tables.values():
            table.stop_tasks()
        await self.director.close()
        await self.cluster.close()
        for task in self.svc.tasks.cancel_all():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.db.close()
        await self.svc.ai.close()


async def cluster_process(
    url: str,
    shard: int,
    front: EventFront,
    settings: Settings,
    clock: Callable[[], float] = time.time,
    *,
    start: bool = True,
) -> ClusterProcess:
    """Process ``p<shard>`` of two (``shard_count=2``) on the PostgreSQL ``url``: its
    services with the real cluster sync, the drivers (the AI inline) and the events'
    director on ``front``, started (its tables claimed, its events resumed).
    ``settings``: the rest of the bot's settings (the lease, the turn timeout);
    ``clock``: the store's (the leases run by the database server's). ``start=False``:
    built only (the caller starts it, :meth:`ClusterProcess.start`)."""
    settings = settings.model_copy(
        update={
            "database": url,
            "shard_count": 2,
            "shard_ids": (shard,),
            "process_name": f"p{shard}",
            "ai_mode": "inline",
            "pictures": False,
        }
    )
    db = await Database.open(url, clock=clock)
    svc = Services(db, settings, AIPool(1, mode="inline"))
    drivers = Drivers(svc, DriverFront())  # type: ignore[arg-type]
    cluster = Cluster(svc, Resume(svc, DriverFront(), drivers))  # type: ignore[arg-type]
    svc.sync = cluster
    svc.feed.subscribe(drivers.committed)
    director = Director(svc, BoardTables(svc), front, drivers.kick)
    svc.feed.subscribe(director.committed)
    process = ClusterProcess(db, svc, cluster, drivers, director)
    if start:
        await process.start()
    return process


@dataclass
class OsProcess:
    """A bot process running as an OS process of its own (``event_process_main``),
    at the state its scenario reached; ``said``: what it reported there."""

    proc: asyncio.subprocess.Process
    said: dict[str, Any]
    log: Path  # its stderr

    async def kill(self) -> int:
        """``SIGKILL``: gone at once, as a crashed or killed bot: no lease given up, no
        renewal, nothing more written (the database ends its connections). Its exit
        status (``-SIGKILL`` if it was running until then)."""
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGKILL)
        return await self.proc.wait()


async def spawn(url: str, scenario: str, *args: object, log: Path) -> OsProcess:
    """Run ``python -m tests.store.event_process_main <url> <scenario> <args>`` (this
    interpreter, this checkout's code) and wait until it says it reached the scenario's
    state (one JSON line on stdout); its stderr goes to ``log``. Raises if it exits
    first or takes longer than :data:`READY_WITHIN`."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with log.open("wb") as err:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.store.event_process_main",
            url,
            scenario,
            *map(str, args),
            cwd=ROOT,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=err,
        )
    assert proc.stdout is not None
    try:
        line = await asyncio.wait_for(proc.stdout.readline(), READY_WITHIN)
    except TimeoutError:
        line = b""
    if not line:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        code = await proc.wait()
        raise RuntimeError(
            f"{scenario}: the process never got there (exit {code}):\n{log.read_text()[-4000:]}"
        )
    return OsProcess(proc, json.loads(line), log)


_CHANNELS = itertools.count(70_000)


class BareBoards:
    """An asynchronous event's boards dealt as a bare table row and its daily_results
    row (no game): the test finishes each with a result of its choosing."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.dealt: list[tuple[int, int, int]] = []  # user, board number, table id

    async def deal(
        self, event: object, the_board: Board, user_id: int, name: str, where: int
    ) -> Table | None:
        async with self.svc.db.transaction():
            row = await self.svc.table_repo.create_lobby(
                guild_id=1,
                channel_id=next(_CHANNELS),
                creator_id=user_id,
                game_id="whist-5",
                preset="default",
                seed=the_board.seed,
                seats=[HumanSeat(user_id, name), None, None, None],
            )
            await self.svc.daily_repo.start(
                board=the_board.key,
                user_id=user_id,
                game_id=the_board.game_id,
                series=the_board.series,
                number=the_board.number,
                guild_id=1,
                channel_id=2,
                name=name,
                table_id=row.id,
            )
        self.dealt.append((user_id, the_board.number, row.id))
        return Table.from_row(row)


class KeptAsyncFront:
    """An asynchronous event's front that shows nothing and keeps what it was told."""

    def __init__(self) -> None:
        self.closes: list[AsyncStandings] = []
        self.opens: list[tuple[int, ...]] = []
        self.stopped: list[int] = []  # tables whose board was stopped at the close

    async def registration_changed(self, event: object) -> None:
        return None

    async def opened(self, event: object, users: Sequence[int]) -> None:
        self.opens.append(tuple(users))

    async def board_stopped(self, event: object, table: Table) -> None:
        self.stopped.append(table.id)

    async def closed(self, view: AsyncStandings) -> None:
        self.closes.append(view)
