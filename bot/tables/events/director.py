"""The director: an event's registration, rounds, boards, scoring and timers (see the
package's doc, ``bot/tables/events/__init__.py``)."""

from __future__ import annotations

import asyncio
import logging
import random
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
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
    IntegrityError,
    StoreError,
)
from bot.store.events import Format
from bot.tables import commit
from bot.tables.drivers import acting_seat
from bot.tables.events.ports import EventFront, EventTables
from bot.tables.events.scoring import EventScoring
from bot.tables.events.seating import (
    confirmed_pairs,
    entrant_seats,
    partners_of,
    playing,
    swiss_seeding,
    user_seats,
)
from bot.tables.events.timers import EventTimers
from bot.tables.events.views import (
    MIN_ENTRANTS,
    REMIND_BEFORE,
    SWEEP_SLACK,
    Outcome,
    StandingsView,
    parse_event_key,
    thread_to_come,
)
from bot.tables.kinds import TableKind
from bot.tables.services import Services
from bot.tables.table import Table, TableSettings
from engine import Event, Game, MatchOver, RulesError, board_result, make_rules

log = logging.getLogger(__name__)

POSTS_AT_ONCE = 8
"""A round's tables whose threads (and then first boards) are posted at once: Discord's
global limit is 50 requests a second, and a table's private thread is six of them."""


async def _few_at_a_time(calls: Iterable[Awaitable[object]]) -> None:
    """Await ``calls``, :data:`POSTS_AT_ONCE` at a time."""
    gate = asyncio.Semaphore(POSTS_AT_ONCE)

    async def one(call: Awaitable[object]) -> None:
        async with gate:
            await call

    await asyncio.gather(*(one(c) for c in calls))


class Director:
    """Runs every event of this bot (see the module's doc)."""

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
        # an event table's end: its board's result, written with its last move
        svc.ends[TableKind.EVENT] = self._board_ended
        self.clock: Callable[[], float] = svc.db.clock
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._timers = EventTimers(svc, "event")
        self.scoring = EventScoring(svc)
        # each open event board's seats the AI played for when last seen: one leaving
        # it is a no-show who took their seat back (``changed``)
        self._away: dict[int, frozenset[int]] = {}
        self._stop_changes: Callable[[], None] | None = svc.feed.on_change(self.changed)

    # ================================================================ registration

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        game_id: str,
        preset: str | None,
        format: Format,
        boards_per_round: int,
        rounds: int,
        minutes_per_board: float,
        start_at: float,
        rated: bool = False,
    ) -> EventRow:
        """A new event, registering; its start armed. ``rated``: its boards count for
        the server's ratings and stats as ordinary games do (else they leave them as
        they are). Raises ``RulesError`` for a game an event cannot be played in (four
        seats in two partnerships)."""
        rules = make_rules(game_id, preset)
        if rules.players != 4 or rules.sides != 2:
            raise RulesError("an event needs a game of four in two partnerships")
        event = await self.repo.create(
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=creator_id,
            game_id=rules.game_id,
            preset=rules.preset,
            format=format,
            boards_per_round=boards_per_round,
            rounds=rounds,
            minutes_per_board=minutes_per_board,
            start_at=start_at,
            seed=random.SystemRandom().randrange(1 << 53),
            rated=rated,
        )
        self._arm_start(event)
        return event

    async def join(self, event_id: int, user_id: int, name: str) -> Outcome:
        """Register; after the start a late joiner plays from the next round (checked in:
        they are here)."""
        async with self._locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None:
                return Outcome.NO_EVENT
            if event.state not in ("registering", "running"):
                return Outcome.NOT_OPEN
            running = event.state == "running"
            if running and event.round >= event.rounds:
                return Outcome.NOT_OPEN  # the last round is under way
            first = event.round + 1 if running else 1
            if not await self.repo.register(event_id, user_id, name, first, running):
                entry = await self.repo.entry(event_id, user_id)
                if entry is not None and entry.left_round is not None and running:
                    return Outcome.NOT_OPEN  # who left stays out
                return Outcome.ALREADY
        await self.front.registration_changed(event)
        return Outcome.LATE if running else Outcome.DONE

    async def leave(self, event_id: int, user_id: int) -> Outcome:
        """Before the start: unregister. After: out from the next round, and the AI
        plays their seat in the current round from now on (marked, scored as an absent
        player's), so they leave its table's thread at once."""
        gone: list[EventTable] = []
        async with self._locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None:
                return Outcome.NO_EVENT
            if event.state == "registering":
                done = await self.repo.unregister(event_id, user_id)
            elif event.state == "running":
                done = await self.repo.leave(event_id, user_id, event.round + 1)
                if done:
                    gone = await self._stand_in(event, user_id)
            else:
                return Outcome.NOT_OPEN
        if not done:
            return Outcome.NOT_IN
        for t in gone:  # out of their table's thread (a Discord call: after the lock)
            await self.front.thread_members(event, t, playing(t))
        await self.front.registration_changed(event)
        return Outcome.DONE

    async def _stand_in(self, event: EventRow, user_id: int) -> list[EventTable]:
        """``user_id`` left: the AI plays their seat in the current round, on the board
        in play from their next turn and on the boards to come; the tables (as they are
        now) whose players changed."""
        out: list[EventTable] = []
        for t in await self.repo.tables(event.id, event.round):
            if user_id not in t.seats:
                continue
            seat = t.seats.index(user_id)
            if await self.repo.stand_in(event.id, t.round, t.number, seat):
                out.append(replace(t, ai_for=t.ai_for | {seat}))
            for b in await self.repo.boards(event.id, event.round):
                if b.table_no != t.number or b.table_id is None or b.done:
                    continue
                table = await self.svc.current_table(b.table_id)
                if table is None:
                    continue
                async with table.lock:
                    if table.status == "active" and await commit.stand_in(self.svc, table, seat):
                        self.front.seats_changed(table)
                self.kick(table)
        return out

    async def choose_partner(self, event_id: int, user_id: int, partner_id: int) -> Outcome:
        """A pairs or Swiss event: ``user_id`` names their partner (both must be
        registered); the pair stands once the partner names them back."""
        async with self._locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None:
                return Outcome.NO_EVENT
            if event.format == "individual":
                return Outcome.NOT_PAIRS
            if event.state == "running":
                mine = await self.repo.entry(event_id, user_id)
                if mine is not None and mine.joined_round <= event.round:
                    return Outcome.NOT_OPEN  # a pair that played stays together
            elif event.state != "registering":
                return Outcome.NOT_OPEN
            if partner_id == user_id:
                return Outcome.SELF
            mine = await self.repo.entry(event_id, user_id)
            theirs = await self.repo.entry(event_id, partner_id)
            if mine is None or theirs is None:
                return Outcome.NOT_IN
            await self.repo.choose_partner(event_id, user_id, partner_id)
        await self.front.registration_changed(event)
        return Outcome.DONE if theirs.partner_id == user_id else Outcome.PARTNER_WAITING

    async def check_in(self, event_id: int, user_id: int) -> Outcome:
        """The player is here: seated from now on; a seat the AI plays for them in the
        current round is theirs again."""
        async with self._locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None:
                return Outcome.NO_EVENT
            if event.state not in ("registering", "running"):
                return Outcome.NOT_OPEN
            entry = await self.repo.entry(event_id, user_id)
            if entry is None:
                return Outcome.NOT_IN
            if not await self.repo.check_in(event_id, user_id):
                return Outcome.ALREADY
            back = await self._take_back(event, user_id) if event.state == "running" else []
        for t in back:  # back in their table's thread (a Discord call: after the lock)
            await self.front.thread_members(event, t, playing(t))
        await self.front.registration_changed(event)
        return Outcome.DONE

    async def _take_back(self, event: EventRow, user_id: int) -> list[EventTable]:
        """The seat the AI plays for ``user_id`` in the current round is theirs again:
        the table (as it is now), or none."""
        back: list[EventTable] = []
        for t in await self.repo.tables(event.id, event.round):
            if user_id not in t.seats:
                continue
            seat = t.seats.index(user_id)
            await self.repo.take_back(event.id, t.round, t.number, seat)
            back.append(replace(t, ai_for=t.ai_for - {seat}))
            for b in await self.repo.boards(event.id, event.round):
                if b.table_no != t.number or b.table_id is None or b.done:
                    continue
                table = await self.svc.current_table(b.table_id)
                if table is None:
                    continue
                self._away[table.id] = table.away - {seat}  # known here: no second look
                async with table.lock:
                    if table.status == "active" and await commit.reclaim(self.svc, table, seat):
                        self.front.seats_changed(table)  # their live hand at once
                self.kick(table)
        return back

    # ================================================================ start, cancel

    async def start(self, event_id: int) -> Outcome:
        """Round 1 begins now (the start time, or an admin's ``/ruff event start``)."""
        async with self._locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None:
                return Outcome.NO_EVENT
            if event.state != "registering":
                return Outcome.NOT_OPEN
            entries = await self.repo.entries(event_id)
            if len(self._field(event, entries, 1)) < MIN_ENTRANTS:
                return Outcome.TOO_FEW
            begun = await self._begin_round(event, 1, entries)
        if begun:
            await self._after_round_begun(event.id, 1)
        return Outcome.DONE

    async def cancel(self, event_id: int) -> Outcome:
        """The event stops; boards in play are played out but count for nothing."""
        async with self._locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None:
                return Outcome.NO_EVENT
            for state in ("registering", "running"):
                if event.state == state and await self.repo.set_state(event_id, state, "cancelled"):
                    break
            else:
                return Outcome.NOT_OPEN
        self._timers.disarm(event_id)
        await self.front.registration_changed(event)
        return Outcome.DONE

    # ================================================================ rounds

    def _field(self, event: EventRow, entries: Sequence[EventEntry], round_no: int) -> list[int]:
        """Who is seated in round ``round_no``: players (individual) or pairs (their
        lower id), in registration order. Round 1 seats every registered player (the AI
        plays for who has not checked in); later rounds the checked-in only."""
        playing = [e for e in entries if e.plays(round_no) and (round_no == 1 or e.checked_in)]
        if event.format == "individual":
            return [e.user_id for e in playing]
        return [min(a, b) for a, b in confirmed_pairs(playing)]

    async def _history(self, event: EventRow, before: int) -> list[Round]:
        by_round: dict[int, list[EventTable]] = defaultdict(list)
        for t in await self.repo.tables(event.id):
            if t.round < before:
                by_round[t.round].append(t)
        return [
            Round(n, tuple(Seating(t.number, entrant_seats(event, t)) for t in ts))
            for n, ts in sorted(by_round.items())
        ]

    async def _begin_round(self, event: EventRow, round_no: int, entries: list[EventEntry]) -> bool:
        """Seat round ``round_no`` and keep it (its tables and boards); False if it was
        begun already. Called under the event's lock."""
        field = self._field(event, entries, round_no)
        history = await self._history(event, round_no)
        seed = event.seed
        # the matchings are pure and take a large field a few hundred ms: in a thread,
        # so the loop keeps answering clicks meanwhile
        if event.format == "individual":
            seating = await asyncio.to_thread(seat_individual, field, history, seed)
        elif event.format == "pairs":
            seating = await asyncio.to_thread(seat_pairs, field, history, seed)
        else:
            matches, percent = await self.scoring.swiss_record(event, entries, round_no)
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

    async def _after_round_begun(
        self, event_id: int, round_no: int, after: asyncio.Task[None] | None = None
    ) -> None:
        """Deal the round's first boards, then show them and post the round's seating
        (once ``after``, the last round's standings, is posted)."""
        event = await self.repo.get(event_id)
        if event is None:
            return
        self._arm_sweep(event, round_no)
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
            self._play(table)
        tables = await self.repo.tables(event_id, round_no)
        names = await self._names(event)
        await asyncio.gather(
            self._seating(event, round_no, tables, names, after),
            _few_at_a_time(self._show(event, table, t, names) for table, t in opened),
        )
        for t in tables:  # any table the batch could not deal (the sweep is the last net)
            await self._advance_quietly(event_id, round_no, t.number)

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
        await self.front.round_begun(event, round_no, tables, names)

    async def _deal_first_boards(
        self, event_id: int, round_no: int
    ) -> list[tuple[Table, EventTable]]:
        """Deal the first board at every table of a round just begun, reading the
        round once (not once per table: a round change stays short at 50 tables); the
        tables opened (each with its round table), to be shown once the lock is
        released."""
        opened: list[tuple[Table, EventTable]] = []
        async with self._locks[event_id]:
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

    def _play(self, table: Table) -> None:
        """A board just dealt (durable): if an AI is to act it plays now, before the
        table is shown; a human's turn waits for their hand (:meth:`_show`)."""
        self._away[table.id] = table.away
        game = table.game
        seat = acting_seat(table, game) if game is not None else None
        if seat is not None and table.ai_plays(seat):
            self.kick(table)

    async def _show(
        self,
        event: EventRow,
        table: Table,
        seating: EventTable,
        names: Mapping[int, str],
    ) -> None:
        """A board just dealt (durable, playable already): its round table's thread
        made if it has none yet and the table moved there from its channel to come
        (:func:`thread_to_come`), then its table message and hands, then the turn clock of a human to act, which
        starts now, when they can see their hand. Outside the event's lock."""
        self._away[table.id] = table.away
        if table.channel_id < 0:  # thread_to_come
            channel = seating.thread_id or await self.front.table_channel(event, seating, names)
            try:
                await commit.move_table(self.svc, table, channel)
            except IntegrityError:
                # no thread to be had and the event's channel holds another table (one
                # open table a channel): the board cannot be shown; cancelled, it is
                # ruled as skipped when its table moves on (at the latest the sweep)
                log.warning(
                    "event %s: table %s has no channel to play in; cancelled", event.id, table.id
                )
                async with table.lock:
                    if table.status == "active":
                        await commit.mark_cancelled(self.svc, table)
                return
            except StoreError:
                log.exception("event %s: table %s not moved to its thread", event.id, table.id)
                return  # shown at the next start-up (resume)
        await self.front.board_opened(event, table)
        game = table.game
        seat = acting_seat(table, game) if game is not None else None
        if seat is not None and not table.ai_plays(seat):
            # a turn begun by an AI's move before the hands were shown: its clock
            # starts over, from now
            table.drive.turn_due = None
        self.kick(table)

    async def _names(self, event: EventRow) -> dict[int, str]:
        return {e.user_id: e.name for e in await self.repo.entries(event.id)}

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
            self._away.pop(table.id, None)
            event_id, round_no, table_no, _board = parse_event_key(table.settings.event)
            self.svc.own(
                self._advance_quietly(event_id, round_no, table_no),
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
            self._away.pop(table.id, None)
            return
        before = self._away.get(table.id)
        self._away[table.id] = table.away
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
            async with self._locks[event_id]:
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
                        await self.repo.check_in(event_id, user)
                    await self.repo.take_back(event_id, round_no, table_no, seat)
                t = replace(t, ai_for=t.ai_for - seats)
        except StoreError:
            log.exception("event %s: a seat taken back at table %s not kept", event_id, table_no)
            return
        # in the thread (the front changes only what differs: a player back from missed
        # turns never left it; one whose next board was dealt first is added now)
        await self.front.thread_members(event, t, playing(t))
        if back:
            await self.front.registration_changed(event)

    async def _advance_quietly(self, event_id: int, round_no: int, table_no: int) -> None:
        try:
            await self.advance(event_id, round_no, table_no)
        except (StoreError, RulesError):
            log.exception(
                "event %s: table %s of round %s did not move on", event_id, table_no, round_no
            )

    async def advance(self, event_id: int, round_no: int, table_no: int) -> None:
        """Move a round's table on: deal its next board if the clock allows, else skip
        what is left; then, if the round is over, score it and begin the next."""
        async with self._locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None or event.state != "running" or event.round != round_no:
                return
            opened, skipped = await self._advance_table(event, round_no, table_no)
            over = await self._round_over(event, round_no)
        # the Discord posts after the lock: a join or a check-in waits for none of them
        if skipped is not None:
            await self.front.boards_skipped(event, *skipped)
        if opened is not None:
            table, seating = opened
            self._play(table)
            await self._show(event, table, seating, await self._names(event))
        if over:
            await self._close_round(event_id, round_no)

    async def _advance_table(
        self, event: EventRow, round_no: int, table_no: int
    ) -> tuple[tuple[Table, EventTable] | None, tuple[EventTable, list[int]] | None]:
        """The table's next board dealt, or its remaining boards skipped by the clock:
        the table dealt (and its round table) and the boards skipped, to be shown after
        the lock."""
        boards = [b for b in await self.repo.boards(event.id, round_no) if b.table_no == table_no]
        for b in boards:
            if b.table_id is not None and not b.done:
                row = await self.svc.table_repo.get(b.table_id)
                if row is not None and row.is_open:
                    return None, None  # a board under way: played to its end
                # the board's table was cancelled: the board is ruled as skipped
                ns, ew = await self._thinking(boards)
                await self.repo.void_board(b.table_id, ns, ew)
        boards = [b for b in await self.repo.boards(event.id, round_no) if b.table_no == table_no]
        pending = [b for b in boards if not b.done]
        if not pending:
            return None, None
        rounds = {r.number: r for r in await self.repo.rounds(event.id)}
        clock = RoundClock(rounds[round_no].started_at, event.minutes_per_board, len(boards))
        tables = {t.number: t for t in await self.repo.tables(event.id, round_no)}
        table = tables[table_no]
        if clock.may_start(self.clock()):
            dealt = await self._deal(event, table, pending[0].board, boards)
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
    ) -> Table | None:
        """Open the board's table (durable), in its round table's thread, or, until the
        thread is made, in :func:`thread_to_come` (the caller makes the thread and
        moves the table there before showing it, once the event's lock is released:
        no Discord call under it)."""
        if known is None or any(b.done for b in boards):
            await self._came_back(event, table, boards)
            known = await self.repo.entries(event.id)
        entries = {e.user_id: e for e in known}
        away = frozenset(
            s
            for s, user in enumerate(table.seats)
            if user is not None and not entries[user].checked_in
        )
        names = {u: e.name for u, e in entries.items()}
        channel = table.thread_id or thread_to_come(event.id, table.round, table.number)
        return await self.tables.open(event, table, board_no, channel, away, names)

    async def _came_back(
        self, event: EventRow, table: EventTable, boards: Sequence[EventBoard]
    ) -> None:
        """Whoever took their seat back from the AI (the table's **Take my seat back**)
        on the table's last board is here: checked in."""
        if not table.ai_for:
            return
        before = [b for b in boards if b.done and b.table_id is not None]
        if not before:
            return
        row = await self.svc.table_repo.get(before[-1].table_id or 0)
        if row is None:
            return
        away = TableSettings.from_json(row.settings).away
        for seat in sorted(table.ai_for - away):
            user = table.seats[seat]
            if user is not None and await self.repo.check_in(event.id, user):
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
        boards = await self.repo.boards(event.id, round_no)
        return bool(boards) and all(b.done for b in boards)

    async def _close_round(self, event_id: int, round_no: int) -> None:
        async with self._locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None or event.state != "running" or event.round != round_no:
                return
            last = round_no >= event.rounds
            # who the AI played for on each board, from the move logs, kept with the
            # board once (the standings then read no log)
            tables = {t.number: t for t in await self.repo.tables(event_id, round_no)}
            for b in await self.repo.boards(event_id, round_no):
                if b.table_id is not None and not b.skipped:
                    seats = await self.scoring.substituted(b, tables[b.table_no])
                    if seats != b.substituted:
                        await self.repo.set_substituted(b.table_id, seats)
            if last:
                if not await self.repo.finish(event_id, round_no):
                    return
            elif not await self.repo.score_round(event_id, round_no):
                return
            self._timers.disarm(event_id)
            boards = await self.repo.boards(event_id, round_no)
            for t in await self.repo.tables(event_id, round_no):
                await self._came_back(event, t, [b for b in boards if b.table_no == t.number])
            view = await self.standings(event_id)
        # the standings are posted beside the next round's deal, not before it (a
        # picture drawn and Discord calls): the round's seating follows them
        told = self.svc.own(
            self.front.round_scored(view), name=f"event-{event_id}-scored-{round_no}"
        )
        if last:
            await asyncio.wait([told])
            await self.front.registration_changed(view.event)
            return
        async with self._locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None or event.state != "running":
                return
            entries = await self.repo.entries(event_id)
            field = self._field(event, entries, round_no + 1)
            if len(field) < MIN_ENTRANTS:  # everyone left: the event ends here
                await self.repo.set_state(event_id, "running", "finished")
                finished = await self.standings(event_id)
                begun = False
            else:
                begun = await self._begin_round(event, round_no + 1, entries)
        if len(field) < MIN_ENTRANTS:
            await asyncio.wait([told])
            await self.front.round_scored(finished)
            await self.front.registration_changed(finished.event)
        elif begun:
            await self._after_round_begun(event_id, round_no + 1, after=told)
            # everyone plays at a new table (in a new thread) or not at all: the round's
            # threads lose their players (the last round's keep them: nothing follows)
            for t in await self.repo.tables(event_id, round_no):
                await self.front.thread_members(event, t, frozenset())

    # ================================================================ scoring

    async def standings(self, event_id: int) -> StandingsView:
        """The standings after the last scored round (the final results once finished)."""
        return await self.scoring.standings(event_id)

    # ================================================================ timers, restarts

    async def resume(self) -> None:
        """At start-up: arm every registering event's start; move every running event's
        tables on (a board that ended while the bot was down, a board not yet dealt) and
        arm its round's sweep."""
        for event in await self.repo.unfinished():
            if event.format == "async":  # AsyncDirector's (asynchronous.py)
                continue
            if event.state == "registering":
                self._arm_start(event)
                continue
            rounds = {r.number: r for r in await self.repo.rounds(event.id)}
            current = rounds.get(event.round)
            if current is None:
                continue
            if current.state == "scored":  # the bot stopped between two rounds
                async with self._locks[event.id]:
                    entries = await self.repo.entries(event.id)
                    begun = await self._begin_round(event, event.round + 1, entries)
                if begun:
                    await self._after_round_begun(event.id, event.round + 1)
                continue
            self._arm_sweep(event, event.round)
            for t in await self.repo.tables(event.id, event.round):
                await self._advance_quietly(event.id, event.round, t.number)
            # an open board whose table resumed: its end moves it on; one dealt and not
            # yet shown when the bot stopped (no table message): shown now
            await self._show_unshown(event)

    async def _show_unshown(self, event: EventRow) -> None:
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
            names = await self._names(event)
            await _few_at_a_time(self._show(event, table, t, names) for table, t in unshown)

    async def close(self) -> None:
        if self._stop_changes is not None:
            self._stop_changes()
            self._stop_changes = None
        self._timers.cancel_all()

    def _arm_start(self, event: EventRow) -> None:
        async def at_start() -> None:
            await asyncio.sleep(max(0.0, event.start_at - self.clock()))
            outcome = await self.start(event.id)
            if outcome is Outcome.TOO_FEW:
                registered = len(await self.repo.entries(event.id))
                await self.front.not_started(event, registered)

        self._timers.arm(event.id, "start", at_start())
        if self.clock() < event.start_at:
            self._timers.arm(event.id, "remind", self._remind_later(event))

    async def _remind_later(self, event: EventRow) -> None:
        """Remind who registered and has not checked in, :data:`REMIND_BEFORE` before
        the start (at once when the start is nearer; never after it)."""
        await asyncio.sleep(max(0.0, event.start_at - REMIND_BEFORE - self.clock()))
        current = await self.repo.get(event.id)
        if current is None or current.state != "registering":
            return
        absent = [e.user_id for e in await self.repo.entries(event.id) if not e.checked_in]
        if absent:
            await self.front.remind(current, absent)

    def _arm_sweep(self, event: EventRow, round_no: int) -> None:
        """At the round's last start: every table that may start no board has what is
        left skipped (a table between boards, one whose dealing failed)."""

        async def sweep() -> None:
            rounds = {r.number: r for r in await self.repo.rounds(event.id)}
            if round_no not in rounds:
                return
            clock = RoundClock(
                rounds[round_no].started_at, event.minutes_per_board, event.boards_per_round
            )
            await asyncio.sleep(max(0.0, clock.last_start - self.clock()) + SWEEP_SLACK)
            for t in await self.repo.tables(event.id, round_no):
                await self._advance_quietly(event.id, round_no, t.number)

        self._timers.arm(event.id, f"sweep-{round_no}", sweep())
