"""What the director needs from the rest of the bot, as ports: :class:`EventTables`
(open a board's table: :class:`BoardTables`, the table layer's ``open_table`` with the
``event`` kind) and :class:`EventFront` (what a front shows of an event)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Protocol

from bot.store import (
    AISeat,
    EventRow,
    EventTable,
    HumanSeat,
    IntegrityError,
)
from bot.tables import commit
from bot.tables.aipool import FIXED
from bot.tables.events.views import (
    StandingsView,
    event_key,
)
from bot.tables.kinds import TableKind, TableSpec
from bot.tables.services import Services
from bot.tables.table import AI_NAMES, Table
from engine import board

log = logging.getLogger(__name__)


class EventTables(Protocol):
    """The table layer's side of an event: deal one board at one table of a round."""

    async def open(
        self,
        event: EventRow,
        table: EventTable,
        board_no: int,
        channel_id: int,
        away: frozenset[int],
        names: Mapping[int, str],
    ) -> Table | None:
        """The board dealt at a new table in ``channel_id`` (the seats of ``table``, the
        AI playing ``away``); None if it was dealt already (a retry, another process)."""
        ...


class EventFront(Protocol):
    """What the director tells a front (Discord: bot/features/events)."""

    async def table_channel(
        self, event: EventRow, table: EventTable, names: Mapping[int, str], *, again: bool = False
    ) -> int:
        """Where a round's table plays (its thread, made once: ``thread_id`` kept).
        ``again``: asked at a start-up or a takeover, where a process that stopped
        may have made the thread and not kept its id: the front looks for it first."""
        ...

    async def thread_members(
        self, event: EventRow, table: EventTable, players: frozenset[int]
    ) -> None:
        """The table's thread holds exactly ``players``: who plays at the table now
        (:func:`~bot.tables.events.seating.playing`; none once its round is over and
        the next one seated)."""
        ...

    async def board_opened(self, event: EventRow, table: Table, *, again: bool = False) -> None:
        """A board was dealt: show its table and the hands. ``again``: at a start-up
        or a takeover, where a process that stopped may have posted its table
        message and not kept its id: the front looks for it before posting one."""
        ...

    def seats_changed(self, table: Table) -> None:
        """A board in play changed hands without a move (the AI took a leaver's seat,
        a no-show checked in): show its table and the hands as they are now."""
        ...

    async def round_begun(
        self, event: EventRow, round_no: int, tables: Sequence[EventTable], names: Mapping[int, str]
    ) -> None: ...

    async def boards_skipped(
        self, event: EventRow, table: EventTable, boards: Sequence[int]
    ) -> None: ...

    async def round_scored(self, view: StandingsView) -> None: ...

    async def registration_changed(self, event: EventRow) -> None: ...

    async def not_started(self, event: EventRow, registered: int) -> None:
        """The start time came with too few entrants (the event waits)."""
        ...

    async def remind(self, event: EventRow, users: Sequence[int]) -> None:
        """The start is :data:`REMIND_BEFORE` away: ``users`` registered and have not
        checked in."""
        ...


class BoardTables:
    """:class:`EventTables` by the table layer's one opening (``commit.open_table``, an
    ``event`` kind): the table, its start and the board's row in one transaction."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc

    async def open(
        self,
        event: EventRow,
        table: EventTable,
        board_no: int,
        channel_id: int,
        away: frozenset[int],
        names: Mapping[int, str],
    ) -> Table | None:
        svc = self.svc
        the_board = board(event.game_id, event.preset, f"event-{event.id}", board_no)
        ai_names = iter(AI_NAMES)
        seats: list[HumanSeat | AISeat | None] = [
            HumanSeat(user, names.get(user, str(user)))
            if user is not None
            else AISeat(FIXED, next(ai_names))
            for user in table.seats
        ]

        async def row(table_id: int) -> None:
            await svc.event_repo.set_board_table(
                event.id, table.round, table.number, board_no, table_id
            )

        try:
            opened = await commit.open_table(
                svc,
                TableSpec(
                    kind=TableKind.EVENT,  # the table's thread is its channel already
                    rules=the_board.rules,
                    guild_id=event.guild_id,
                    channel_id=channel_id,
                    creator_id=event.creator_id,
                    seats=seats,
                    guild_name=names.get(0, ""),
                    seed=the_board.seed,
                    first_dealer=the_board.first_dealer,
                    event=event_key(event.id, table.round, table.number, board_no),
                    away=frozenset(away),
                    rated=event.rated,  # the server's choice for the event
                    then=row,
                ),
            )
        except IntegrityError:
            return None
        svc.tables.add(opened)
        return opened
