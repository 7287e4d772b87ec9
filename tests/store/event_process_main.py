"""A bot process for the takeover tests, run as an OS process of its own, that the test
kills (``SIGKILL``) at the moment its scenario reached:

    python -m tests.store.event_process_main <postgresql url> <scenario> <args>

It is process ``p0`` of two (the shard of guild 1 and of ``guild_on_shard(0)``) on the
test's PostgreSQL, built as :func:`tests.store.event_process.cluster_process` builds one
in the test's own process (the real cluster sync and its leases, the drivers, the
events' director), does its scenario's part, prints one JSON line on stdout when it is
there, and then waits to be killed:

``unshown <lease seconds> <turn timeout>``
    An event of four humans started: its board dealt, this process holding the board's
    lease, its thread asked for and never made (the front hangs), so nobody has seen
    the board. Says ``{"event": id, "table": id}``.
``async-board <lease seconds>``
    An asynchronous event open for an hour, ann's board dealt and in play (a ``board``
    table), this process holding its lease. Says ``{"event": id, "table": id}``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Awaitable, Callable, Mapping

from bot.config import Settings
from bot.store import EventRow, EventTable
from bot.tables.events import AsyncDirector, Step
from bot.tables.events.quiet import QuietFront, event_with_entrants
from tests.store.event_process import BareBoards, KeptAsyncFront, cluster_process
from tools.bench_scale import guild_on_shard


class HangingFront(QuietFront):
    """A round table's thread is asked for and never made (the process dies meanwhile)."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = asyncio.Event()

    async def table_channel(
        self, event: EventRow, table: EventTable, names: Mapping[int, str], *, again: bool = False
    ) -> int:
        self.asked.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


async def _until(what: Callable[[], bool], seconds: float = 20.0) -> None:
    async with asyncio.timeout(seconds):
        while not what():
            await asyncio.sleep(0.01)


async def unshown(url: str, lease: str, timeout: str) -> dict[str, int]:
    settings = Settings(
        database=url,
        lease_seconds=float(lease),
        turn_timeout=float(timeout),
        turn_ping_delay=-1.0,
    )
    front = HangingFront()
    process = await cluster_process(url, 0, front, settings)
    event = await event_with_entrants(
        process.director, [11, 12, 13, 14], guild_id=guild_on_shard(0)
    )
    process.svc.own(process.director.start(event.id), name="event-start")
    await asyncio.wait_for(front.asked.wait(), 20)  # dealt; its thread being made
    (board,) = await process.svc.event_repo.boards(event.id, 1)
    assert board.table_id is not None
    table = process.svc.tables[board.table_id]
    # the board's lease, as any table of its server (claimed as the drivers run it)
    await _until(lambda: process.cluster.may_drive(table))
    return {"event": event.id, "table": table.id}


async def async_board(url: str, lease: str) -> dict[str, int]:
    settings = Settings(database=url, lease_seconds=float(lease))
    process = await cluster_process(url, 0, QuietFront(), settings)
    boards = BareBoards(process.svc)
    director = AsyncDirector(process.svc, boards, KeptAsyncFront())  # type: ignore[arg-type]
    event = await director.create(
        guild_id=1,
        channel_id=2,
        creator_id=3,
        game_id="whist-5",
        preset=None,
        boards=2,
        start_at=time.time(),
        deadline=3600,
    )
    await director.start(event.id)  # open now (unless its start timer was first)
    dealt = await director.play(event.id, 10, "ann", 1, enter=True)
    assert dealt.step is Step.DEALT, dealt
    ((_, _, table_id),) = boards.dealt
    await process.svc.table_repo.set_status(table_id, "active")  # in play
    async with process.db.transaction():  # a daily board's table
        await process.db.execute(
            "UPDATE tables SET settings = ? WHERE id = ?", ('{"kind": "board"}', table_id)
        )
    # its lease, as any table of its server: the next lease round claims it
    await _until(lambda: process.cluster.owns(table_id))
    return {"event": event.id, "table": table_id}


SCENARIOS: dict[str, Callable[..., Awaitable[dict[str, int]]]] = {
    "unshown": unshown,
    "async-board": async_board,
}


async def main(url: str, scenario: str, *args: str) -> None:
    said = await SCENARIOS[scenario](url, *args)
    print(json.dumps(said), flush=True)
    await asyncio.Event().wait()  # until killed


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
