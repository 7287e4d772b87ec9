"""A running event's rounds (docs/events.md): each round seated by the format's
movement or pairing, its tables' first boards all dealt before any Discord call and
then shown (:mod:`bot.tables.events.showing`), each table moved on board by board as
its boards end or the time rule skips them, a no-show who takes a seat back checked in,
and the round scored and the next one begun once every board is done."""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from bot.competition.events import (
    Round,
    RoundClock,
    pair_round,
    seat_individual,
    seat_pairs,
)
from bot.competition.events import Table as Seating
from bot.store import (
    EventBoard,
    EventEntry,
    EventRow,
    EventTable,
    HumanSeat,
    StoreError,
)
from bot.tables.events.seating import (
    entrant_seats,
    partners_of,
    playing,
    round_field,
    swiss_seeding,
    user_seats,
)
from bot.tables.events.shared import Shared
from bot.tables.events.showing import Showing, few_at_a_time
from bot.tables.events.views import (
    MIN_ENTRANTS,
    StandingsView,
    parse_event_key,
    thread_to_come,
)
from bot.tables.kinds import TableKind
from bot.tables.table import Table, TableSettings
from engine import Event, Game, MatchOver, RulesError, board_result

__all__ = ["Rounds"]

log = logging.getLogger(__name__)


class Rounds:
    """Seats, deals, moves on and scores an event's rounds. ``arm_sweep``: the round's
    sweep at its last start (the director's timers)."""

    def __init__(
        self,
        shared: Shared,
        showing: Showing,
        arm_sweep: Callable[[EventRow, int], None],
    ) -> None:
        self.shared = shared
        self.svc = shared.svc
        self.repo = shared.repo
        self.showing = showing
        self.arm_sweep = arm_sweep
        # an event table's end: its board's result, written with its last move
        self.svc.ends[TableKind.EVENT] = self._board_ended
        self._stop_changes: Callable[[], None] | None = self.svc.feed.on_change(self.changed)

    def close(self) -> None:
        """Stop hearing the tables' changes."""
        if self._stop_changes is not None:
            self._stop_changes()
            self._stop_changes = None

    async def _history(self, event: EventRow, before: int) -> list[Round]:
        by_round: dict[int, list[EventTable]] = defaultdict(list)
        for t in await self.repo.tables(event.id):
            if t.round < before:
                by_round[t.round].append(t)
        return [
            Round(n, tuple(Seating(t.number, entrant_seats(event, t)) for t in ts))
            for n, ts in sorted(by_round.items())
        ]

    async def begin_round(self, event: EventRow, round_no: int, entries: list[EventEntry]) -> bool:
        """Seat round ``round_no`` and keep it (its tables and boards); False if it was
        begun already. Called under the event's lock."""
        field = round_field(event, entries, round_no)
        history = await self._history(event, round_no)
        seed = event.seed
        # the matchings are pure and take a large field a few hundred ms: in a thread,
        # so the loop keeps answering clicks meanwhile
        if event.format == "individual":
            seating = await asyncio.to_thread(seat_individual, field, history, seed)
        elif event.format == "pairs":
            seating = await asyncio.to_thread(seat_pairs, field, history, seed)
        else:
            matches, percent = await self.shared.scoring.swiss_record(event, entries, round_no)
            order = swiss_seeding(event, field)
            pairing = await asyncio.to_thread(pair_round, order, matches, percent)
            seating = Round(
                round_no,
                tuple(
                    Seating(i, (ns, ew, ns, ew))
                    for i, (ns, ew) in enumerate(pairing.tables, start=1)
                ),
            )
        partner = partners_of(entries)
        here = {e.user_id for e in entries if e.checked_in}
        tables: list[tuple[list[int | None], frozenset[int]]] = []
        for t in seating.tables:
            seats = user_seats(t.seats, partner) if event.format != "individual" else list(t.seats)
            ai_for = frozenset(s for s, u in enumerate(seats) if u is not None and u not in here)
            tables.append((seats, ai_for))
        return await self.repo.start_round(
            event.id, round_no, tables, list(event.boards_of(round_no))
        )

    async def after_round_begun(
        self, event_id: int, round_no: int, after: asyncio.Task[None] | None = None
    ) -> None:
        """Deal the round's first boards, then show them and post the round's seating
        (once ``after``, the last round's standings, is posted)."""
        event = await self.repo.get(event_id)
        if event is None:
            return
        self.arm_sweep(event, round_no)
        # Every table's first board dealt before any Discord call: durable and playable
        # (an AI to lead starts at once) whatever Discord takes to show it. Its thread
        # and its posts follow, table by table (:meth:`_show`), outside the event's
        # lock: a join or a check-in waits for none of them.
        opened: list[tuple[Table, EventTable]] = []
        try:
            opened = await self._deal_first_boards(event_id, round_no)
        except (StoreError, RulesError):
            log.exception("event %s: round %s's first boards not all dealt", event_id, round_no)
        for table, _seating in opened:
            self.showing.play(table)
        tables = await self.repo.tables(event_id, round_no)
        names = await self.shared.names(event)
        await asyncio.gather(
            self._seating(event, round_no, tables, names, after),
            few_at_a_time(self.showing.show(event, table, t, names) for table, t in opened),
        )
        for t in tables:  # any table the batch could not deal (the sweep is the last net)
            await self.advance_quietly(event_id, round_no, t.number)

    async def _seating(
        self,
        event: EventRow,
        round_no: int,
        tables: Sequence[EventTable],
        names: Mapping[int, str],
        after: asyncio.Task[None] | None,
    ) -> None:
        if after is not None:
            await asyncio.wait([after])
        await self.shared.front.round_begun(event, round_no, tables, names)

    async def _deal_first_boards(
        self, event_id: int, round_no: int
    ) -> list[tuple[Table, EventTable]]:
        """Deal the first board at every table of a round just begun, reading the
        round once (not once per table: a round change stays short at 50 tables); the
        tables opened (each with its round table), to be shown once the lock is
        released."""
        opened: list[tuple[Table, EventTable]] = []
        async with self.shared.locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None or event.state != "running" or event.round != round_no:
                return opened
            boards = await self.repo.boards(event_id, round_no)
            entries = await self.repo.entries(event_id)
            for t in await self.repo.tables(event_id, round_no):
                mine = [b for b in boards if b.table_no == t.number]
                if mine and all(b.table_id is None and not b.done for b in mine):
                    table = await self._deal(event, t, mine[0].board, mine, entries)
                    if table is not None:
                        opened.append((table, t))
        return opened

    # ================================================================ boards

    async def _board_ended(self, table: Table, game: Game) -> None:
        """The kind's end (``bot.tables.commit``, in the finishing transaction): the
        board's result for north-south, kept by the event."""
        await self.svc.event_repo.finish_board(table.id, board_result(game, 0))

    def committed(self, table: Table, events: list[Event]) -> None:
        """The feed's listener: an event's board that just ended moves its table on."""
        if (
            table.kind is TableKind.EVENT
            and table.status == "finished"
            and any(isinstance(e, MatchOver) for e in events)
            and self.svc.sync.may_drive(table)
        ):
            self.shared.away.pop(table.id, None)
            event_id, round_no, table_no, _board = parse_event_key(table.settings.event)
            self.svc.own(
                self.advance_quietly(event_id, round_no, table_no, ended=table),
                name=f"event-{event_id}-table-{table_no}",
            )

    def changed(self, table: Table) -> None:
        """The feed's listener of changes without a move: an event board's seat that
        the AI played for a no-show is theirs again (**Take my seat back**, here or in
        another process), so they are checked in and back in their table's thread at
        once (not at the next board)."""
        if table.kind is not TableKind.EVENT:
            return
        if table.status != "active":  # over, or cancelled
            self.shared.away.pop(table.id, None)
            return
        before = self.shared.away.get(table.id)
        self.shared.away[table.id] = table.away
        if before is None or not before - table.away:
            return
        event_id, round_no, table_no, _board = parse_event_key(table.settings.event)
        self.svc.own(
            self._seat_taken_back(event_id, round_no, table_no, before - table.away),
            name=f"event-{event_id}-back-{table_no}",
        )

    async def _seat_taken_back(
        self, event_id: int, round_no: int, table_no: int, seats: frozenset[int]
    ) -> None:
        try:
            async with self.shared.locks[event_id]:
                event = await self.repo.get(event_id)
                if event is None or event.state != "running" or event.round != round_no:
                    return
                tables = {t.number: t for t in await self.repo.tables(event_id, round_no)}
                t = tables.get(table_no)
                if t is None:
                    return
                back = seats & t.ai_for  # none: back from missed turns, or kept already
                for seat in sorted(back):
                    user = t.seats[seat]
                    if user is not None:
                        await self.repo.check_in(event_id, user, round_no + 1)
                    await self.repo.take_back(event_id, round_no, table_no, seat)
                t = replace(t, ai_for=t.ai_for - seats)
        except StoreError:
            log.exception("event %s: a seat taken back at table %s not kept", event_id, table_no)
            return
        # in the thread (the front changes only what differs: a player back from missed
        # turns never left it; one whose next board was dealt first is added now)
        await self.shared.front.thread_members(event, t, playing(t))
        if back:
            await self.shared.front.registration_changed(event)

    async def advance_quietly(
        self, event_id: int, round_no: int, table_no: int, ended: Table | None = None
    ) -> None:
        try:
            await self.advance(event_id, round_no, table_no, ended)
        except (StoreError, RulesError):
            log.exception(
                "event %s: table %s of round %s did not move on", event_id, table_no, round_no
            )

    async def advance(
        self, event_id: int, round_no: int, table_no: int, ended: Table | None = None
    ) -> None:
        """Move a round's table on: deal its next board if the clock allows, else skip
        what is left; then, if the round is over, score it and begin the next.
        ``ended``: the board that just ended there, as this process holds it (who took
        a seat back on it is read from it, not from the store)."""
        async with self.shared.locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None or event.state != "running" or event.round != round_no:
                return
            opened, skipped = await self._advance_table(event, round_no, table_no, ended)
            # a board just dealt here: the round goes on (no read of the round's boards)
            over = opened is None and await self._round_over(event, round_no)
        # the Discord posts after the lock: a join or a check-in waits for none of them
        if skipped is not None:
            await self.shared.front.boards_skipped(event, *skipped)
        if opened is not None:
            table, seating = opened
            self.showing.play(table)
            # the table's own players, as its seats name them (from the entries, at the deal)
            names = {s.user_id: s.name for s in table.seats if isinstance(s, HumanSeat)}
            await self.showing.show(event, table, seating, names)
        if over:
            await self._close_round(event_id, round_no)

    async def _advance_table(
        self, event: EventRow, round_no: int, table_no: int, ended: Table | None = None
    ) -> tuple[tuple[Table, EventTable] | None, tuple[EventTable, list[int]] | None]:
        """The table's next board dealt, or its remaining boards skipped by the clock:
        the table dealt (and its round table) and the boards skipped, to be shown after
        the lock."""
        boards = await self.repo.boards(event.id, round_no, table_no)
        voided = False  # a board ruled here: read the boards again
        for b in boards:
            if b.table_id is not None and not b.done:
                row = await self.svc.table_repo.get(b.table_id)
                if row is not None and row.is_open:
                    return None, None  # a board under way: played to its end
                # the board's table was cancelled: the board is ruled as skipped
                ns, ew = await self._thinking(boards)
                await self.repo.void_board(b.table_id, ns, ew)
                voided = True
        if voided:
            boards = await self.repo.boards(event.id, round_no, table_no)
        pending = [b for b in boards if not b.done]
        if not pending:
            return None, None
        rounds = {r.number: r for r in await self.repo.rounds(event.id)}
        clock = RoundClock(rounds[round_no].started_at, event.minutes_per_board, len(boards))
        table = await self.repo.table(event.id, round_no, table_no)
        if table is None:
            return None, None
        if clock.may_start(self.shared.clock()):
            dealt = await self._deal(event, table, pending[0].board, boards, ended=ended)
            return (None if dealt is None else (dealt, table)), None
        ns, ew = await self._thinking(boards)
        skipped = [
            b.board
            for b in pending
            if await self.repo.skip_board(event.id, round_no, table_no, b.board, ns, ew)
        ]
        return None, ((table, skipped) if skipped else None)

    async def _deal(
        self,
        event: EventRow,
        table: EventTable,
        board_no: int,
        boards: Sequence[EventBoard],
        known: Sequence[EventEntry] | None = None,
        ended: Table | None = None,
    ) -> Table | None:
        """Open the board's table (durable), in its round table's thread, or, until the
        thread is made, in :func:`thread_to_come` (the caller makes the thread and
        moves the table there before showing it, once the event's lock is released:
        no Discord call under it)."""
        if known is None or any(b.done for b in boards):
            await self._came_back(event, table, boards, ended)
            known = await self.repo.entries(event.id, table.seats)  # the table's players
        entries = {e.user_id: e for e in known}
        away = frozenset(
            s
            for s, user in enumerate(table.seats)
            if user is not None and not entries[user].checked_in
        )
        names = {u: e.name for u, e in entries.items()}
        channel = table.thread_id or thread_to_come(event.id, table.round, table.number)
        return await self.shared.tables.open(event, table, board_no, channel, away, names)

    async def _came_back(
        self,
        event: EventRow,
        table: EventTable,
        boards: Sequence[EventBoard],
        ended: Table | None = None,
    ) -> None:
        """Whoever took their seat back from the AI (the table's **Take my seat back**)
        on the table's last board is here: checked in. ``ended``: that board's table as
        this process holds it (its seats as they ended), else its row is read."""
        if not table.ai_for:
            return
        before = [b for b in boards if b.done and b.table_id is not None]
        if not before:
            return
        if ended is not None and ended.id == before[-1].table_id:
            away = ended.away
        else:
            row = await self.svc.table_repo.get(before[-1].table_id or 0)
            if row is None:
                return
            away = TableSettings.from_json(row.settings).away
        for seat in sorted(table.ai_for - away):
            user = table.seats[seat]
            if user is not None and await self.repo.check_in(event.id, user, table.round + 1):
                await self.repo.take_back(event.id, table.round, table.number, seat)

    async def _thinking(self, boards: Sequence[EventBoard]) -> tuple[float, float]:
        """Each side's thinking time at a table in the round so far: the time before
        each of its moves, over the boards played there."""
        time = [0.0, 0.0]
        for b in boards:
            if b.table_id is None:
                continue
            previous: float | None = None
            for action in await self.svc.action_repo.list(b.table_id):
                if previous is not None:
                    time[action.seat % 2] += max(0.0, action.created_at - previous)
                previous = action.created_at
        return time[0], time[1]

    async def _round_over(self, event: EventRow, round_no: int) -> bool:
        return await self.repo.round_done(event.id, round_no)

    async def _close_round(self, event_id: int, round_no: int) -> None:
        async with self.shared.locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None or event.state != "running" or event.round != round_no:
                return
            last = round_no >= event.rounds
            # who the AI played for on each board, from the move logs, kept with the
            # board once (the standings then read no log)
            tables = {t.number: t for t in await self.repo.tables(event_id, round_no)}
            for b in await self.repo.boards(event_id, round_no):
                if b.table_id is not None and not b.skipped:
                    seats = await self.shared.scoring.substituted(b, tables[b.table_no])
                    if seats != b.substituted:
                        await self.repo.set_substituted(b.table_id, seats)
            if last:
                if not await self.repo.finish(event_id, round_no):
                    return
            elif not await self.repo.score_round(event_id, round_no):
                return
            self.shared.timers.disarm(event_id)
            boards = await self.repo.boards(event_id, round_no)
            for t in await self.repo.tables(event_id, round_no):
                await self._came_back(event, t, [b for b in boards if b.table_no == t.number])
            view = await self.standings(event_id)
        # the standings are posted beside the next round's deal, not before it (a
        # picture drawn and Discord calls): the round's seating follows them
        told = self.svc.own(
            self.shared.front.round_scored(view), name=f"event-{event_id}-scored-{round_no}"
        )
        if last:
            await asyncio.wait([told])
            await self.shared.front.registration_changed(view.event)
            return
        async with self.shared.locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None or event.state != "running":
                return
            entries = await self.repo.entries(event_id)
            field = round_field(event, entries, round_no + 1)
            if len(field) < MIN_ENTRANTS:  # everyone left: the event ends here
                await self.repo.set_state(event_id, "running", "finished")
                finished = await self.standings(event_id)
                begun = False
            else:
                begun = await self.begin_round(event, round_no + 1, entries)
        if len(field) < MIN_ENTRANTS:
            await asyncio.wait([told])
            await self.shared.front.round_scored(finished)
            await self.shared.front.registration_changed(finished.event)
        elif begun:
            await self.after_round_begun(event_id, round_no + 1, after=told)
            # everyone plays at a new table (in a new thread) or not at all: the round's
            # threads lose their players (the last round's keep them: nothing follows)
            for t in await self.repo.tables(event_id, round_no):
                await self.shared.front.thread_members(event, t, frozenset())

    # ================================================================ scoring

    async def standings(self, event_id: int) -> StandingsView:
        """The standings after the last scored round (the final results once finished)."""
        return await self.shared.scoring.standings(event_id)
