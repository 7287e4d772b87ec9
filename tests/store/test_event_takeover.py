"""Several bot processes on one real PostgreSQL (the real cluster sync and its leases,
the real store, table layer, drivers and events' director; no Discord): a process
killed (``SIGKILL``, a real OS process: ``event_process_main.py``) between dealing an
event's board and showing it leaves a board nobody has seen;
the process that takes the table over once the lease runs out shows it as a start-up
would (its thread made, the table moved there, its table message and hands posted) and
starts the turn's clock then, rather than letting the AI play the unseen turns when the
time runs out."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import pytest

from bot.config import Settings
from bot.store import EventRow
from bot.tables import commit
from bot.tables.events.quiet import QuietFront
from bot.tables.services import Services
from bot.tables.table import Table

from .event_process import ClusterProcess, cluster_process, spawn

pytestmark = pytest.mark.slow  # left out by `make test-fast`

LEASE = 1.0  # seconds: a dead process's tables are taken over this soon
TIMEOUT = 120.0  # a turn's time


async def _holder(process: ClusterProcess, table_id: int) -> str | None:
    """The stable name of the process holding the table's lease (run out or not)."""
    owner = await process.db.fetchval(
        "SELECT owner FROM table_leases WHERE table_id = ?", (table_id,)
    )
    return None if owner is None else str(owner).split("#", 1)[0]


class ShowingFront(QuietFront):
    """What a process showed: each board's table, where and when. With ``svc``, its
    table message posted as Discord's front does (a round trip, then its id kept)."""

    def __init__(self, svc: Services | None = None) -> None:
        super().__init__()
        self.svc = svc
        self.shown: list[tuple[int, int, float]] = []  # table id, channel, time
        self.again: list[bool] = []  # each show: "again" (the front looks in Discord first)

    async def board_opened(self, event: EventRow, table: Table, *, again: bool = False) -> None:
        self.shown.append((table.id, table.channel_id, time.time()))
        self.again.append(again)
        if self.svc is not None:
            await asyncio.sleep(0.2)
            await commit.set_message(self.svc, table, 10**6 + table.id)


async def test_a_board_dealt_by_a_process_killed_before_showing_it_is_shown_by_its_taker(
    pg_url: str, tmp_path: Path
) -> None:
    settings = Settings(
        database=pg_url, lease_seconds=LEASE, turn_timeout=TIMEOUT, turn_ping_delay=-1.0
    )
    taker = ShowingFront()
    b = await cluster_process(pg_url, 1, taker, settings)
    # a, the event's server's shard (p0), in an OS process of its own: four humans, all
    # here (a human's turn first), the board dealt and its thread being made, a holding
    # the board's lease
    a = await spawn(pg_url, "unshown", LEASE, TIMEOUT, log=tmp_path / "a.log")
    try:
        event_id, table_id = a.said["event"], a.said["table"]
        assert await _holder(b, table_id) == "p0"
        assert (
            await a.kill() == -signal.SIGKILL
        )  # dies before showing the board: no thread, no table message, no hand
        assert (await b.svc.table_repo.require(table_id)).message_id is None

        for _ in range(200):  # b takes the table over once the lease runs out
            if taker.shown:
                break
            await asyncio.sleep(0.05)
        assert b.cluster.owns(table_id)  # taken over ...
        assert taker.shown, "the board taken over was never shown"  # ... and shown
        # shown once, in the round table's own thread (not the channel to come)
        (shown_id, channel, shown_at), *again = taker.shown
        assert shown_id == table_id and again == []
        event = await b.svc.event_repo.get(event_id)
        assert event is not None
        # shown "again": what the dead process may have posted is looked for first
        # (tests/bot/test_shown_once.py: found and kept, not posted twice)
        assert taker.again == [True]
        thread = await taker.table_channel(
            event, (await b.svc.event_repo.tables(event_id, 1))[0], {}
        )
        assert channel == thread
        assert (await b.svc.table_repo.require(table_id)).channel_id == thread
        table = b.svc.tables[table_id]
        assert table.channel_id == thread
        # the human to act has the whole turn from when the board was shown, in memory
        # and stored; nobody's turn was played meanwhile
        for _ in range(200):
            deadline = table.drive.deadline
            stored = [d.due_at for d in await b.svc.deadline_repo.list() if d.table_id == table_id]
            if deadline is not None and stored == [deadline]:
                break
            await asyncio.sleep(0.01)
        assert deadline is not None and stored == [deadline]
        assert deadline >= shown_at + TIMEOUT - 0.05
        assert await b.svc.action_repo.list(table_id) == []
        await asyncio.sleep(0.5)  # and shown once only, whatever else b does
        assert len(taker.shown) == 1
    finally:
        await a.kill()
        await b.stop()


async def test_a_process_restarted_shows_its_unshown_board_once_by_either_path(
    pg_url: str, tmp_path: Path
) -> None:
    """A process killed between dealing a board and showing it, started again
    under its name, claims its leases back at once: its takeover (the director's hook)
    and its events' resume both find the board unshown, at the same moment; it is shown
    once."""
    settings = Settings(
        database=pg_url, lease_seconds=30.0, turn_timeout=TIMEOUT, turn_ping_delay=-1.0
    )
    a = await spawn(pg_url, "unshown", 30.0, TIMEOUT, log=tmp_path / "a.log")
    again: ClusterProcess | None = None
    try:
        table_id = a.said["table"]
        assert (
            await a.kill() == -signal.SIGKILL
        )  # its lease still held: only a process of its name takes it back now
        back = ShowingFront()
        again = await cluster_process(pg_url, 0, back, settings, start=False)
        assert await _holder(again, table_id) == "p0"  # the killed run's lease, not run out
        back.svc = again.svc  # its table message kept, as Discord's front keeps it
        await again.start()
        assert again.cluster.owns(table_id)  # claimed back at once, at start-up
        for _ in range(100):
            if again.svc.tables[table_id].message_id is not None:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
        assert [t for t, _channel, _at in back.shown] == [table_id]  # once
        row = await again.svc.table_repo.require(table_id)
        assert row.message_id == 10**6 + table_id and row.channel_id > 0
        assert back.again == [True]  # looked for what the stopped process posted first
    finally:
        await a.kill()
        if again is not None:
            await again.stop()
