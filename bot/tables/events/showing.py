"""A board dealt, then shown (docs/events.md, "Dealt before shown"): an AI to act plays
at once (:meth:`Showing.play`); the board's round table gets its thread, the table
moves there, its table message and hands are posted and a human's turn clock starts
then (:meth:`Showing.show`), outside the event's lock, :data:`POSTS_AT_ONCE` tables at
a time; boards dealt and never shown (the bot stopped between the two) are shown at
start-up (:meth:`Showing.show_unshown`), and, with several processes, by the process
that takes such a board over from a dead one (:meth:`Showing.taken_over`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Iterable, Mapping

from bot.store import EventRow, EventTable, IntegrityError, StoreError
from bot.tables import commit
from bot.tables.drivers import acting_seat
from bot.tables.events.shared import Shared
from bot.tables.events.views import parse_event_key
from bot.tables.kinds import TableKind
from bot.tables.table import Table

__all__ = ["POSTS_AT_ONCE", "Showing", "few_at_a_time"]

log = logging.getLogger(__name__)

POSTS_AT_ONCE = 8
"""A round's tables whose threads (and then first boards) are posted at once: Discord's
global limit is 50 requests a second, and a table's private thread is six of them."""


async def few_at_a_time(calls: Iterable[Awaitable[object]]) -> None:
    """Await ``calls``, :data:`POSTS_AT_ONCE` at a time."""
    gate = asyncio.Semaphore(POSTS_AT_ONCE)

    async def one(call: Awaitable[object]) -> None:
        async with gate:
            await call

    await asyncio.gather(*(one(c) for c in calls))


class Showing:
    """Plays and shows the boards the director deals."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.svc = shared.svc
        self.repo = shared.repo
        self._showing: set[int] = set()  # tables being shown (each shown once at a time)
        # a board taken over from a process gone (several processes): shown, if that
        # process dealt it and died before showing it (:meth:`taken_over`)
        self.svc.taken_over.append(self.taken_over)

    def close(self) -> None:
        """Stop hearing the tables taken over."""
        if self.taken_over in self.svc.taken_over:
            self.svc.taken_over.remove(self.taken_over)

    def play(self, table: Table) -> None:
        """A board just dealt (durable): if an AI is to act it plays now, before the
        table is shown; a human's turn waits for their hand (:meth:`show`)."""
        self.shared.away[table.id] = table.away
        game = table.game
        seat = acting_seat(table, game) if game is not None else None
        if seat is not None and table.ai_plays(seat):
            self.shared.kick(table)

    async def show(
        self,
        event: EventRow,
        table: Table,
        seating: EventTable,
        names: Mapping[int, str],
        *,
        again: bool = False,
    ) -> None:
        """A board just dealt (durable, playable already): its round table's thread
        made if it has none yet and the table moved there from its channel to come
        (:func:`~bot.tables.events.views.thread_to_come`), then its table message and
        hands, then the turn clock of a human to act, which starts now, when they can
        see their hand. Outside the event's lock. A table being shown or shown already
        (its table message kept) is left alone: at a start-up with several processes,
        :meth:`show_unshown` and :meth:`taken_over` both find the same board unshown.
        ``again`` (those two): a process that stopped may have made the thread or
        posted the table message and not kept its id; the front looks for them
        before making or posting another (docs/events.md, "Survives a restart")."""
        if table.id in self._showing or table.message_id is not None:
            return
        self._showing.add(table.id)
        try:
            self.shared.away[table.id] = table.away
            if table.channel_id < 0:  # thread_to_come
                channel = seating.thread_id or await self.shared.front.table_channel(
                    event, seating, names, again=again
                )
                try:
                    await commit.move_table(self.svc, table, channel)
                except IntegrityError:
                    # no thread to be had and the event's channel holds another table
                    # (one open table a channel): the board cannot be shown; cancelled,
                    # it is ruled as skipped when its table moves on (at the latest the
                    # sweep)
                    log.warning(
                        "event %s: table %s has no channel to play in; cancelled",
                        event.id,
                        table.id,
                    )
                    async with table.lock:
                        if table.status == "active":
                            await commit.mark_cancelled(self.svc, table)
                    return
                except StoreError:
                    log.exception("event %s: table %s not moved to its thread", event.id, table.id)
                    return  # shown at the next start-up (resume)
            await self.shared.front.board_opened(event, table, again=again)
            game = table.game
            seat = acting_seat(table, game) if game is not None else None
            if seat is not None and not table.ai_plays(seat):
                # a turn begun by an AI's move before the hands were shown: its clock
                # starts over, from now
                table.drive.turn_due = None
            self.shared.kick(table)
        finally:
            self._showing.discard(table.id)

    async def show_unshown(self, event: EventRow) -> None:
        """Show the boards of the event's round that were dealt and never shown (the
        bot stopped between the two): their thread, table message and hands."""
        seating = {t.number: t for t in await self.repo.tables(event.id, event.round)}
        unshown = [
            (table, seating[b.table_no])
            for b in await self.repo.boards(event.id, event.round)
            if b.table_id is not None
            and not b.done
            and (table := self.svc.tables.get(b.table_id)) is not None
            and table.status == "active"
            and table.message_id is None
            and self.svc.sync.may_drive(table)
        ]
        if unshown:
            names = await self.shared.names(event)
            await few_at_a_time(
                self.show(event, table, t, names, again=True) for table, t in unshown
            )

    async def taken_over(self, table: Table) -> None:
        """A table this process just took over from a process gone (several processes,
        its lease ran out): an event's board that process dealt and never showed (it
        died between the two, as a bot may stop) is shown here as at a start-up: its
        thread made, the table moved there, its table message and hands posted, the
        turn clock of a human to act started then."""
        if (
            table.kind is not TableKind.EVENT
            or table.status != "active"
            or table.message_id is not None
            or not self.svc.sync.may_drive(table)
        ):
            return
        event_id, round_no, table_no, _board = parse_event_key(table.settings.event)
        event = await self.repo.get(event_id)
        if event is None or event.state != "running" or event.round != round_no:
            return
        seating = {t.number: t for t in await self.repo.tables(event_id, round_no)}
        if table_no in seating:
            await self.show(
                event, table, seating[table_no], await self.shared.names(event), again=True
            )
