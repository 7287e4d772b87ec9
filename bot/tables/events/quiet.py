"""A director on its own: the store and the table layer, no Discord and no drivers.

:class:`QuietFront` is an :class:`~bot.tables.events.EventFront` that shows nothing
and keeps what a caller reads afterwards (the standings told, the boards skipped,
the reminders); :func:`standalone_director` builds a :class:`Director` on a database
with it, and :func:`event_with_entrants` makes an event and registers its players. The
events' benchmarks (``tools/bench_events.py``,
``tools/bench_event_tables.py``) and the director's store tests
(``tests/store/test_event_director.py``) run the director this way.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from bot.config import Settings
from bot.store import Database, EventRow, EventTable
from bot.store.events import Format
from bot.tables.aipool import AIPool
from bot.tables.events.director import Director
from bot.tables.events.ports import BoardTables, EventTables
from bot.tables.events.views import Outcome, StandingsView
from bot.tables.services import Services
from bot.tables.sync import OneProcess
from bot.tables.table import Table

__all__ = ["QuietFront", "event_with_entrants", "standalone_director"]


class QuietFront:
    """The director's front with nothing to show; what it was told, kept."""

    def __init__(self) -> None:
        self.scored: list[StandingsView] = []
        self.skipped: list[tuple[int, tuple[int, ...]]] = []  # (table number, boards)
        self.reminded: list[tuple[int, tuple[int, ...]]] = []  # (event, users)

    async def table_channel(
        self, event: EventRow, table: EventTable, names: Mapping[int, str], *, again: bool = False
    ) -> int:
        # a channel of its own per round table (of every event: one open table a channel)
        return 10**9 * event.id + 1_000_000 * table.round + table.number

    async def board_opened(self, event: EventRow, table: Table, *, again: bool = False) -> None:
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


async def event_with_entrants(
    director: Director,
    users: Sequence[int],
    *,
    format: Format = "individual",
    rounds: int = 1,
    boards: int = 1,
    minutes: float = 30.0,
    starts_in: float = 3600.0,
    checked_in: Collection[int] | None = None,
    guild_id: int = 1,
    channel_id: int = 2,
    game_id: str = "whist-5",
) -> EventRow:
    """An event of ``director`` registering (its start ``starts_in`` seconds away) with
    ``users`` joined (named ``u<id>``) and those of ``checked_in`` checked in (None:
    every one). Raises ``RuntimeError`` if a join or a check-in is refused."""
    event = await director.create(
        guild_id=guild_id,
        channel_id=channel_id,
        creator_id=3,
        game_id=game_id,
        preset=None,
        format=format,
        boards_per_round=boards,
        rounds=rounds,
        minutes_per_board=minutes,
        start_at=director.clock() + starts_in,
    )
    here = set(users) if checked_in is None else set(checked_in)
    for user in users:
        if (joined := await director.join(event.id, user, f"u{user}")) is not Outcome.DONE:
            raise RuntimeError(f"event {event.id}: {user} could not join ({joined})")
        if user in here and (came := await director.check_in(event.id, user)) is not Outcome.DONE:
            raise RuntimeError(f"event {event.id}: {user} could not check in ({came})")
    return event
