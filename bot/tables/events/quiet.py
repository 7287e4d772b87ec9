"""A director on its own: the store and the table layer, no Discord and no drivers.

:class:`QuietFront` is an :class:`~bot.tables.events.EventFront` that shows nothing
and keeps what a caller reads afterwards (the standings told, the boards skipped,
the reminders); :func:`standalone_director` builds a :class:`Director` on a database
with it. The events' benchmarks (``tools/bench_events.py``,
``tools/bench_event_tables.py``) and the director's store tests
(``tests/store/test_event_director.py``) run the director this way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.config import Settings
from bot.store import Database, EventRow, EventTable
from bot.tables.aipool import AIPool
from bot.tables.events.director import Director
from bot.tables.events.ports import BoardTables, EventTables
from bot.tables.events.views import StandingsView
from bot.tables.services import Services
from bot.tables.sync import OneProcess
from bot.tables.table import Table

__all__ = ["QuietFront", "standalone_director"]


class QuietFront:
    """The director's front with nothing to show; what it was told, kept."""

    def __init__(self) -> None:
        self.scored: list[StandingsView] = []
        self.skipped: list[tuple[int, tuple[int, ...]]] = []  # (table number, boards)
        self.reminded: list[tuple[int, tuple[int, ...]]] = []  # (event, users)

    async def table_channel(
        self, event: EventRow, table: EventTable, names: Mapping[int, str]
    ) -> int:
        # a channel of its own per round table (of every event: one open table a channel)
        return 10**9 * event.id + 1_000_000 * table.round + table.number

    async def board_opened(self, event: EventRow, table: Table) -> None:
        return None

    def seats_changed(self, table: Table) -> None:
        return None

    async def thread_members(
        self, event: EventRow, table: EventTable, players: frozenset[int]
    ) -> None:
        return None

    async def round_begun(
        self, event: EventRow, round_no: int, tables: Sequence[EventTable], names: Mapping[int, str]
    ) -> None:
        return None

    async def boards_skipped(
        self, event: EventRow, table: EventTable, boards: Sequence[int]
    ) -> None:
        self.skipped.append((table.number, tuple(boards)))

    async def round_scored(self, view: StandingsView) -> None:
        self.scored.append(view)

    async def registration_changed(self, event: EventRow) -> None:
        return None

    async def not_started(self, event: EventRow, registered: int) -> None:
        return None

    async def remind(self, event: EventRow, users: Sequence[int]) -> None:
        self.reminded.append((event.id, tuple(users)))


def standalone_director(
    db: Database,
    front: QuietFront,
    tables: Callable[[Services], EventTables] = BoardTables,
    settings: Settings | None = None,
) -> tuple[Director, Services]:
    """A director on ``db`` with ``front``, its boards opened by ``tables(svc)`` (the
    table layer's :class:`BoardTables` unless told), the AI inline and nothing
    resumed; no driver is kicked (whoever runs it plays the boards)."""
    svc = Services(db, settings or Settings(database="unused.db"), AIPool(1, mode="inline"))
    svc.sync = OneProcess(None)  # type: ignore[arg-type]  # no table is resumed here
    return Director(svc, tables(svc), front, lambda table: None), svc
