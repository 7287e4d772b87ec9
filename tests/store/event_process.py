"""A bot process's table layer for the events' store tests, with no Discord: the
drivers' front that shows nothing (:class:`DriverFront`, the web benchmark's) and, on
PostgreSQL, one
process among several (:func:`cluster_process`: its services, its real cluster sync
with a lease name of its own, the drivers and the events' director on a front the test
gives), and its death (:meth:`ClusterProcess.die`: gone without giving its leases up,
so another process takes its tables over once the leases run out)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.cluster.sync import Cluster
from bot.config import Settings
from bot.store import Database
from bot.tables.aipool import AIPool
from bot.tables.drivers import Drivers
from bot.tables.events import BoardTables, Director, EventFront
from bot.tables.resume import Resume
from bot.tables.services import Services
from tools.bench_web import QuietFront as DriverFront

__all__ = ["ClusterProcess", "DriverFront", "cluster_process"]


@dataclass
class ClusterProcess:
    """One bot process on a shared PostgreSQL database, without Discord."""

    db: Database
    svc: Services
    cluster: Cluster
    drivers: Drivers
    director: Director
    gone: bool = False

    async def start(self) -> None:
        """Start as a bot does: its tables claimed (its own name's at once, another's
        whose lease ran out) and brought back, its events resumed."""
        await self.cluster.start()
        await self.director.resume()

    async def die(self) -> None:
        """The process is gone at once: no lease given up, no renewal, nothing more
        written (its tasks cancelled, its connections closed)."""
        self.gone = True
        if self.cluster._keeper is not None:
            self.cluster._keeper.cancel()
        self.cluster._closed = True
        for table in self.svc.tables.values():
            table.stop_tasks()
        for task in self.svc.tasks.cancel_all():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.director.close()
        if self.cluster._listener is not None:
            with contextlib.suppress(Exception):
                await self.cluster._listener.close()
        await self.db.close()
        await self.svc.ai.close()

    async def stop(self) -> None:
        """The process stops as a bot does (its leases given up), unless it is gone."""
        if self.gone:
            return
        self.gone = True
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
