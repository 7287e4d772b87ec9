"""What the parts of the events' director share (``bot.tables.events.director``): the
services and the event store, the two ports (:class:`EventTables`, :class:`EventFront`),
the drivers' kick, the clock, one lock an event, the event timers, the scoring and
the seats the AI plays on each open board."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable, Collection

from bot.store import EventRow
from bot.tables.events.ports import EventFront, EventTables
from bot.tables.events.scoring import EventScoring
from bot.tables.events.timers import EventTimers
from bot.tables.services import Services
from bot.tables.table import Table

__all__ = ["Shared"]


class Shared:
    """One director's state, read by each of its parts at the time of use (a caller
    may set :attr:`kick` after the director is built: the drivers, in a test)."""

    def __init__(
        self,
        svc: Services,
        tables: EventTables,
        front: EventFront,
        kick: Callable[[Table], None],
    ) -> None:
        self.svc = svc
        self.repo = svc.event_repo
        self.tables = tables
        self.front = front
        self.kick = kick  # the drivers: the board's first turn (AI or timer)
        self.clock: Callable[[], float] = svc.db.clock
        self.locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)  # one an event
        self.timers = EventTimers(svc, "event")
        self.scoring = EventScoring(svc)
        # each open event board's seats the AI played for when last seen: one leaving
        # it is a no-show who took their seat back (``Rounds.changed``)
        self.away: dict[int, frozenset[int]] = {}

    async def names(
        self, event: EventRow, users: Collection[int | None] | None = None
    ) -> dict[int, str]:
        """Each entrant's name, by user id (of ``users`` only, when given: one table's)."""
        return {e.user_id: e.name for e in await self.repo.entries(event.id, users)}
