"""Several bot processes on one real PostgreSQL (the real cluster sync and its leases,
the real store, table layer, drivers and events' director; no Discord): a process that
dies between dealing an event's board and showing it leaves a board nobody has seen;
the process that takes the table over once the lease runs out shows it as a start-up
would (its thread made, the table moved there, its table message and hands posted) and
starts the turn's clock then, rather than letting the AI play the unseen turns when the
time runs out."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping

import pytest

from bot.config import Settings
from bot.store import EventRow, EventTable
from bot.tables import commit
from bot.tables.events.quiet import QuietFront, event_with_entrants
from bot.tables.services import Services
from bot.tables.table import Table
from tools.bench_scale import guild_on_shard

from .event_process import ClusterProcess, cluster_process

pytestmark = pytest.mark.slow  # left out by `make test-fast`

LEASE = 1.0  # seconds: a dead process's tables are taken over this soon
TIMEOUT = 120.0  # a turn's time


class HangingFront(QuietFront):
    """The dying process's front: its thread is asked for and never made."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = asyncio.Event()

    async def table_channel(
        self, event: EventRow, table: EventTable, names: Mapping[int, str], *, again: bool = False
    ) -> int:
        self.asked.set()
        await asyncio.Event().wait()  # the process dies meanwhile
        raise AssertionError("unreachable")


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


async def test_a_board_dealt_by_a_process_that_died_before_showing_it_is_shown_by_its_taker(
    pg_url: str,
) -> None:
    settings = Settings(
        database=pg_url, lease_seconds=LEASE, turn_timeout=TIMEOUT, turn_ping_delay=-1.0
    )
    dying, taker = HangingFront(), ShowingFront()
    a = await cluster_process(pg_url, 0, dying, settings)  # the event's server's shard
    b = await cluster_process(pg_url, 1, taker, settings)
    try:
        players = [11, 12, 13, 14]  # four humans, all here: a human's turn first
        event = await event_with_entrants(a.director, players, guild_id=guild_on_shard(0))
        start = asyncio.create_task(a.director.start(event.id))
        await asyncio.wait_for(dying.asked.wait(), 10)  # dealt; its thread being made
        (board,) = await a.svc.event_repo.boards(event.id, 1)
        assert board.table_id is not None
        table_id = board.table_id
        for _ in range(200):  # a's lease on the board's table, as any table of its server
            if a.cluster.owns(table_id) or a.svc.sync.may_drive(a.svc.tables[table_id]):
                break
            await asyncio.sleep(0.01)
        assert a.cluster.owns(table_id)
        start.cancel()
        await a.die()  # dies before showing the board: no thread, no table message, no hand

        for _ in range(200):  # b takes the table over once the lease runs out
            if taker.shown:
                break
            await asyncio.sleep(0.05)
        assert b.cluster.owns(table_id)  # taken over ...
        assert taker.shown, "the board taken over was never shown"  # ... and shown
        # shown once, in the round table's own thread (not the channel to come)
        (shown_id, channel, shown_at), *again = taker.shown
        assert shown_id == table_id and again == []
        # shown "again": what the dead process may have posted is looked for first
        # (tests/bot/test_shown_once.py: found and kept, not posted twice)
        assert taker.again == [True]
        thread = await taker.table_channel(
            event, (await b.svc.event_repo.tables(event.id, 1))[0], {}
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
        await b.stop()
        await a.stop()


async def test_a_process_restarted_shows_its_unshown_board_once_by_either_path(
    pg_url: str,
) -> None:
    """A process that stopped between dealing a board and showing it, started again
    under its name, claims its leases back at once: its takeover (the director's hook)
    and its events' resume both find the board unshown, at the same moment; it is shown
    once."""
    settings = Settings(
        database=pg_url, lease_seconds=30.0, turn_timeout=TIMEOUT, turn_ping_delay=-1.0
    )
    dying = HangingFront()
    a = await cluster_process(pg_url, 0, dying, settings)
    again: ClusterProcess | None = None
    try:
        event = await event_with_entrants(a.director, [11, 12, 13, 14], guild_id=guild_on_shard(0))
        start = asyncio.create_task(a.director.start(event.id))
        await asyncio.wait_for(dying.asked.wait(), 10)
        (board,) = await a.svc.event_repo.boards(event.id, 1)
        assert board.table_id is not None
        for _ in range(200):
            if a.cluster.owns(board.table_id) or a.svc.sync.may_drive(a.svc.tables[board.table_id]):
                break
            await asyncio.sleep(0.01)
        assert a.cluster.owns(board.table_id)
        start.cancel()
        await a.die()  # its lease still held: only a process of its name takes it back now
        back = ShowingFront()
        again = await cluster_process(pg_url, 0, back, settings, start=False)
        back.svc = again.svc  # its table message kept, as Discord's front keeps it
        await again.start()
        assert again.cluster.owns(board.table_id)  # claimed back at once, at start-up
        for _ in range(100):
            if again.svc.tables[board.table_id].message_id is not None:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
        assert [t for t, _channel, _at in back.shown] == [board.table_id]  # once
        assert back.again == [True]  # looked for what the stopped process posted first
        row = await again.svc.table_repo.require(board.table_id)
        assert row.message_id == 10**6 + board.table_id and row.channel_id > 0
    finally:
        if again is not None:
            await again.stop()
        await a.stop()
