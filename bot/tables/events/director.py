"""The director: runs every event of this bot (see the package's doc,
``bot/tables/events/__init__.py``), by four parts it owns and delegates to, one a job:
:class:`~bot.tables.events.registration.Registration` (create, join, leave, partners,
check-in, start, cancel), :class:`~bot.tables.events.rounds.Rounds` (a round's tables
seated, dealt, moved on and scored), :class:`~bot.tables.events.showing.Showing` (a
board dealt, then shown) and :class:`~bot.tables.events.lifecycle.Lifecycle` (timers
and restarts), sharing one :class:`~bot.tables.events.shared.Shared`."""

from __future__ import annotations

from collections.abc import Callable

from bot.store import EventRow
from bot.tables.events.lifecycle import Lifecycle
from bot.tables.events.ports import EventFront, EventTables
from bot.tables.events.registration import Registration
from bot.tables.events.rounds import Rounds
from bot.tables.events.scoring import EventScoring
from bot.tables.events.shared import Shared
from bot.tables.events.showing import Showing
from bot.tables.events.views import Outcome, StandingsView
from bot.tables.services import Services
from bot.tables.table import Table
from engine import Event

__all__ = ["Director"]


class Director:
    """Runs every event of this bot (see the module's doc)."""

    def __init__(
        self,
        svc: Services,
        tables: EventTables,
        front: EventFront,
        kick: Callable[[Table], None],
    ) -> None:
        self.shared = Shared(svc, tables, front, kick)
        self.svc = svc
        self.repo = svc.event_repo
        self.scoring: EventScoring = self.shared.scoring
        self.showing = Showing(self.shared)
        self.rounds = Rounds(self.shared, self.showing, self._arm_sweep)
        self.lifecycle = Lifecycle(self.shared, self.rounds, self.showing, self.start)
        self.registration = Registration(self.shared, self.rounds, self.lifecycle.arm_start)
        # a new event, registering, its start armed: Registration.create's own signature
        self.create = self.registration.create

    # what the parts share, as the callers see it
    @property
    def tables(self) -> EventTables:
        """Where a board is dealt (a test or a benchmark may put another in)."""
        return self.shared.tables

    @tables.setter
    def tables(self, tables: EventTables) -> None:
        self.shared.tables = tables

    @property
    def front(self) -> EventFront:
        return self.shared.front

    @property
    def kick(self) -> Callable[[Table], None]:
        """The drivers: a board's turn (AI or timer) armed."""
        return self.shared.kick

    @kick.setter
    def kick(self, kick: Callable[[Table], None]) -> None:
        self.shared.kick = kick

    @property
    def clock(self) -> Callable[[], float]:
        return self.shared.clock

    # ================================================================ registration

    async def join(self, event_id: int, user_id: int, name: str) -> Outcome:
        return await self.registration.join(event_id, user_id, name)

    async def leave(self, event_id: int, user_id: int) -> Outcome:
        return await self.registration.leave(event_id, user_id)

    async def choose_partner(self, event_id: int, user_id: int, partner_id: int) -> Outcome:
        return await self.registration.choose_partner(event_id, user_id, partner_id)

    async def check_in(self, event_id: int, user_id: int) -> Outcome:
        return await self.registration.check_in(event_id, user_id)

    async def start(self, event_id: int) -> Outcome:
        return await self.registration.start(event_id)

    async def cancel(self, event_id: int) -> Outcome:
        return await self.registration.cancel(event_id)

    # ================================================================ rounds

    async def advance(self, event_id: int, round_no: int, table_no: int) -> None:
        await self.rounds.advance(event_id, round_no, table_no)

    def committed(self, table: Table, events: list[Event]) -> None:
        """The feed's listener (the wiring subscribes it): an event's board that just
        ended moves its table on."""
        self.rounds.committed(table, events)

    def changed(self, table: Table) -> None:
        self.rounds.changed(table)

    async def standings(self, event_id: int) -> StandingsView:
        """The standings after the last scored round (the final results once finished)."""
        return await self.rounds.standings(event_id)

    # ================================================================ timers, restarts

    async def resume(self) -> None:
        await self.lifecycle.resume()

    async def close(self) -> None:
        await self.lifecycle.close()

    def _arm_sweep(self, event: EventRow, round_no: int) -> None:
        self.lifecycle.arm_sweep(event, round_no)
