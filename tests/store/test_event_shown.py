"""An event's board with the real table layer and the real drivers (the AI inline, a
turn timer), its front slow to show a table (Discord's round trips): an AI to lead
plays before the table is shown, and the human whose turn it then is gets the whole
turn from when their hand is shown, not from the AI's move."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping

from bot.config import Settings
from bot.store import Database, EventRow, EventTable
from bot.tables.drivers import Drivers, acting_seat
from bot.tables.events import Outcome
from bot.tables.events.quiet import QuietFront, event_with_entrants, standalone_director
from bot.tables.table import Table

from .event_process import DriverFront

SHOW = 0.5  # seconds the front takes to show a table
TIMEOUT = 90.0


class SlowFront(QuietFront):
    """Shows a table in :data:`SHOW` seconds; what the game was when it began to."""

    def __init__(self) -> None:
        super().__init__()
        self.version_at_show: dict[int, int] = {}
        self.shown_at: dict[int, float] = {}

    async def table_channel(
        self, event: EventRow, table: EventTable, names: Mapping[int, str], *, again: bool = False
    ) -> int:
        return 10**9 * event.id + 1_000_000 * table.round + table.number  # its own

    async def board_opened(self, event: EventRow, table: Table, *, again: bool = False) -> None:
        self.version_at_show[table.id] = table.version
        await asyncio.sleep(SHOW)
        self.shown_at[table.id] = time.time()


async def test_an_ai_leads_before_the_table_is_shown_and_the_human_s_clock_starts_at_the_show(
    location: str,
) -> None:
    db = await Database.open(location)  # the real clock: the turn timers run on it
    settings = Settings(
        database="unused.db", ai_delay=0.0, turn_timeout=TIMEOUT, turn_ping_delay=-1.0
    )
    front = SlowFront()
    director, svc = standalone_director(db, front, settings=settings)
    drivers = Drivers(svc, DriverFront())  # type: ignore[arg-type]
    svc.feed.subscribe(drivers.committed)
    director.kick = drivers.kick
    ai_led = 0
    try:
        # each event one table: one player checked in, the AI plays the three absent
        # seats; whoever sits where, an AI leads three times in four
        for n in range(12):
            users = [1000 * (n + 1) + k for k in range(4)]
            event = await event_with_entrants(director, users, checked_in=users[:1])
            before = set(front.shown_at)
            assert await director.start(event.id) is Outcome.DONE
            (table_id,) = set(front.shown_at) - before
            table = svc.tables[table_id]
            game = table.game
            assert game is not None
            if front.version_at_show[table_id] > 0:
                ai_led += 1  # the AI played before the table was shown
            for _ in range(200):  # the AI plays on to the human's turn
                seat = acting_seat(table, game)
                if seat is not None and not table.ai_plays(seat):
                    break
                await asyncio.sleep(0.01)
                game = table.game
                assert game is not None
            assert seat is not None and not table.ai_plays(seat)
            deadline = table.drive.deadline
            assert deadline is not None
            # the whole turn from when the hand was shown, however early the AI moved
            assert deadline >= front.shown_at[table_id] + TIMEOUT - 0.05
            for _ in range(200):  # and stored so (by the timer, as it starts)
                stored = [
                    d.due_at for d in await svc.deadline_repo.list() if d.table_id == table_id
                ]
                if stored == [deadline]:
                    break
                await asyncio.sleep(0.01)
            assert stored == [deadline]
            if ai_led >= 2:
                break
        assert ai_led >= 2
    finally:
        for table in list(svc.tables.values()):
            table.stop_tasks()
        await director.close()
        await db.close()
