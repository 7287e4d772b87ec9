"""The asynchronous event (issue #39's third format): each entrant plays the event's
boards alone against the AI, like the daily boards, until a deadline; the results
stay hidden until it closes, then every entrant is ranked (docs/events.md,
"Asynchronous events").

* **Entry** is open from the event's opening to its deadline: **▶ Play** on the event's
  message enters a member of its server and deals their next board; **Join** before
  the opening registers them (they are told when it opens). Who entered and played
  nothing is ranked at 25% a board, as anyone is on a board they did not finish.
* **A board** is an engine board of the series ``event-<id>-<seed>``
  (``bot.store.daily.event_series``): the same deal, dealer, seat and start scores for
  every entrant, played at a ``board`` table in the player's DM against the fixed AI
  (:class:`AsyncBoards`, the daily boards' dealing); one attempt each (the daily
  results' key), its result written with its last move. Its cards are its player's
  only (``bot.tables.privacy``).
* **The close** (:meth:`AsyncDirector.close`) at the deadline, once (a conditional
  write of the event's state): a board still in play is stopped (its table cancelled:
  unfinished, 25%); the boards finished by the deadline are scored by
  ``bot.competition.events.async_results`` and the final standings and every board's
  traveller told (:class:`AsyncFront`). The deadline's timer is re-armed from the store
  at start-up (:meth:`AsyncDirector.resume`), and every ``event_sweep_every`` each
  process arms the timers it lacks (:meth:`AsyncDirector.sweep`: an event another
  process made, a close that failed here): with several processes every live one
  closes the event at its deadline, the conditional write lets exactly one of them
  (the claim) tell the results, and each stops the boards it runs. A board whose
  process died before the close, taken over after it, is stopped by the process that
  takes it over, as it does (:meth:`AsyncDirector.taken_over`).

This module imports no discord: the Discord front is ``bot/features/events``.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, Final, Protocol

from bot.competition.events import AsyncEntry, async_results, matchpoints
from bot.store import BoardEntry, EventRow, StoreError
from bot.store.daily import event_of_series, event_series
from bot.tables import commit
from bot.tables.events.timers import EventTimers
from bot.tables.events.views import Outcome
from bot.tables.kinds import TableKind
from bot.tables.services import Services
from bot.tables.table import Table
from engine import Board, RulesError, board, make_rules

log = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_DEADLINE",
    "MAX_DEADLINE",
    "MIN_DEADLINE",
    "AsyncBoards",
    "AsyncDirector",
    "AsyncFront",
    "AsyncLine",
    "AsyncRow",
    "AsyncStandings",
    "AsyncTraveller",
    "Dealt",
    "Step",
    "parse_deadline",
]

MIN_DEADLINE: Final = 3600.0  # an hour
MAX_DEADLINE: Final = 14 * 86400.0  # two weeks
DEFAULT_DEADLINE: Final = 86400.0  # a day, as Funbridge's tournaments

_PART = re.compile(r"(\d+(?:[.,]\d+)?)\s*(days?|d|hours?|hrs?|h|minutes?|mins?|m)", re.I)
_UNIT = {"d": 86400.0, "h": 3600.0, "m": 60.0}


def parse_deadline(text: str) -> float | None:
    """Seconds from ``text``: ``24h``, ``3d``, ``1d 12h``, ``90m``, ``36`` (hours);
    None if it cannot be read. The range (:data:`MIN_DEADLINE` to :data:`MAX_DEADLINE`)
    is the caller's to check, so it can say which way it is wrong."""
    s = text.strip().lower()
    if not s:
        return None
    if re.fullmatch(r"\d+(?:[.,]\d+)?", s):
        return float(s.replace(",", ".")) * 3600.0
    total, end = 0.0, 0
    for m in _PART.finditer(s):
        if s[end : m.start()].strip():
            return None
        total += float(m[1].replace(",", ".")) * _UNIT[m[2][0].lower()]
        end = m.end()
    if end == 0 or s[end:].strip():
        return None
    return total


class Step(StrEnum):
    """What a request to play came to (the front words it)."""

    DEALT = "dealt"  # the next board is dealt
    IN_PLAY = "in_play"  # a board of the event is in play already: resumed
    ALL_PLAYED = "all_played"  # every board played (or begun): nothing left
    CLOSED = "closed"  # the deadline has passed, or the event is over
    NOT_YET = "not_yet"  # it has not opened yet
    NO_EVENT = "no_event"
    NOT_IN = "not_in"  # not an entrant (and may not enter from there)


@dataclass(frozen=True, slots=True)
class Dealt:
    step: Step
    event: EventRow | None = None
    number: int = 0  # the board dealt (or in play)
    table: Table | None = None


class AsyncBoards(Protocol):
    """Deals one board to one player, alone against the AI, in their DM (the daily
    boards' dealing: ``bot.features.daily``)."""

    async def deal(
        self, event: EventRow, the_board: Board, user_id: int, name: str, where: int
    ) -> Table | None:
        """The board dealt at a new table in channel ``where`` (the player's DM); None if
        it was dealt already (a double click, another process)."""
        ...


class AsyncFront(Protocol):
    """What the director tells a front of an asynchronous event."""

    async def registration_changed(self, event: EventRow) -> None: ...

    async def opened(self, event: EventRow, users: Sequence[int]) -> None:
        """The event is open for play (``users``: who registered before)."""
        ...

    async def board_stopped(self, event: EventRow, table: Table) -> None:
        """A board in play at the close was stopped (unfinished: 25%)."""
        ...

    async def closed(self, view: AsyncStandings) -> None:
        """The final standings and travellers, to be posted."""
        ...


@dataclass(frozen=True, slots=True)
class AsyncLine:
    """An entrant's line: before the close only ``done`` (boards finished); after it
    the rank label and the score too."""

    user_id: int
    name: str
    done: int
    label: str = ""
    percent: Fraction | None = None


@dataclass(frozen=True, slots=True)
class AsyncRow:
    name: str
    result: int
    percent: Fraction


@dataclass(frozen=True, slots=True)
class AsyncTraveller:
    board: int
    rows: tuple[AsyncRow, ...]  # who finished it, best result first
    unplayed: int  # entrants who did not finish it (25% each)


@dataclass(frozen=True, slots=True)
class AsyncStandings:
    event: EventRow
    boards: int
    closed: bool
    lines: tuple[AsyncLine, ...]  # closed: by rank; open: by boards done, then name
    travellers: tuple[AsyncTraveller, ...] = ()

    @property
    def entrants(self) -> int:
        return len(self.lines)

    @property
    def finished(self) -> int:
        """Entrants who finished every board."""
        return sum(1 for line in self.lines if line.done == self.boards)

    @property
    def started(self) -> int:
        """Entrants who finished at least one board."""
        return sum(1 for line in self.lines if line.done)


class AsyncDirector:
    """Runs every asynchronous event of this bot (see the module's doc)."""

    def __init__(self, svc: Services, boards: AsyncBoards, front: AsyncFront) -> None:
        self.svc = svc
        self.repo = svc.event_repo
        self.boards = boards
        self.front = front
        self._locks: dict[tuple[int, int], asyncio.Lock] = defaultdict(asyncio.Lock)
        self._timers = EventTimers(svc, "async-event")
        # seconds between two looks for events this process has no timer for: the most
        # a close waits for a live process after the one that made the event stopped
        self.sweep_every = svc.settings.event_sweep_every
        self._sweeper: asyncio.Task[None] | None = None
        # the boards this process runs found to be of no closed event (looked up once)
        self._live_boards: set[int] = set()
        # a board taken over from a process gone (several processes): stopped at once
        # if its event closed meanwhile (:meth:`taken_over`)
        svc.taken_over.append(self.taken_over)

    def now(self) -> float:
        return self.svc.db.clock()

    @staticmethod
    def board_of(event: EventRow, number: int) -> Board:
        return board(event.game_id, event.preset, event_series(event.id, event.seed), number)

    @staticmethod
    def boards_count(event: EventRow) -> int:
        return event.boards_per_round

    # ================================================================ registration

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        game_id: str,
        preset: str | None,
        boards: int,
        start_at: float,
        deadline: float,
    ) -> EventRow:
        """A new asynchronous event of ``boards`` boards, open from ``start_at`` for
        ``deadline`` seconds; its timers armed. Raises ``RulesError`` for a game an
        event cannot be played in, ``ValueError`` for a deadline out of range."""
        rules = make_rules(game_id, preset)
        if rules.players != 4 or rules.sides != 2:
            raise RulesError("an event needs a game of four in two partnerships")
        if not MIN_DEADLINE <= deadline <= MAX_DEADLINE:
            raise ValueError(f"a deadline of {deadline} s is out of range")
        event = await self.repo.create(
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=creator_id,
            game_id=rules.game_id,
            preset=rules.preset,
            format="async",
            boards_per_round=boards,
            rounds=1,
            minutes_per_board=deadline / 60.0,
            start_at=start_at,
            seed=random.SystemRandom().randrange(1 << 53),
            deadline_at=start_at + deadline,
        )
        self._arm_all(event)
        return event

    async def _event(self, event_id: int) -> EventRow | None:
        event = await self.repo.get(event_id)
        return event if event is not None and event.format == "async" else None

    def _open_for_play(self, event: EventRow) -> bool:
        return (
            event.state == "running"
            and event.deadline_at is not None
            and self.now() < event.deadline_at
        )

    async def join(self, event_id: int, user_id: int, name: str) -> Outcome:
        """Enter the event (before the opening, or while it is open)."""
        event = await self._event(event_id)
        if event is None:
            return Outcome.NO_EVENT
        if event.state == "registering" or self._open_for_play(event):
            if not await self.repo.register(event_id, user_id, name, 1, True):
                return Outcome.ALREADY
            await self.front.registration_changed(event)
            return Outcome.DONE
        return Outcome.NOT_OPEN

    async def leave(self, event_id: int, user_id: int) -> Outcome:
        """Leave before playing: once a board of it is begun, the entrant stays (their
        boards count; ``ALREADY``)."""
        event = await self._event(event_id)
        if event is None:
            return Outcome.NO_EVENT
        if event.state not in ("registering", "running"):
            return Outcome.NOT_OPEN
        async with self._locks[(event_id, user_id)]:
            if await self._started(event, user_id):
                return Outcome.ALREADY
            if not await self.repo.unregister(event_id, user_id):
                return Outcome.NOT_IN
        await self.front.registration_changed(event)
        return Outcome.DONE

    async def _started(self, event: EventRow, user_id: int) -> list[BoardEntry]:
        return await self.svc.daily_repo.of_player(
            user_id, event.game_id, event_series(event.id, event.seed)
        )

    async def start(self, event_id: int) -> Outcome:
        """The event opens for play now (its start time, or ``/ruff event start``)."""
        event = await self._event(event_id)
        if event is None:
            return Outcome.NO_EVENT
        if event.state != "registering":
            return Outcome.NOT_OPEN
        if not await self.repo.set_state(event_id, "registering", "running"):
            return Outcome.NOT_OPEN
        self._timers.disarm(event_id, "start")
        current = await self.repo.get(event_id) or event
        users = [e.user_id for e in await self.repo.entries(event_id)]
        await self.front.opened(current, users)
        await self.front.registration_changed(current)
        return Outcome.DONE

    async def cancel(self, event_id: int) -> Outcome:
        """The event stops: nothing is ranked; a board in play is played out for nothing."""
        event = await self._event(event_id)
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

    # ================================================================ playing

    async def play(
        self, event_id: int, user_id: int, name: str, where: int, *, enter: bool
    ) -> Dealt:
        """Deal the player's next board of the event in channel ``where`` (their DM;
        ``enter``: a member of the event's server, who is entered if not yet). One board
        at a time: a board of the event in play is resumed, never a second dealt; a
        board is dealt once."""
        event = await self._event(event_id)
        if event is None:
            return Dealt(Step.NO_EVENT)
        if event.state == "registering":
            return Dealt(Step.NOT_YET, event)
        if not self._open_for_play(event):
            return Dealt(Step.CLOSED, event)
        async with self._locks[(event_id, user_id)]:
            entry = await self.repo.entry(event_id, user_id)
            if entry is None:
                if not enter:
                    return Dealt(Step.NOT_IN, event)
                await self.repo.register(event_id, user_id, name, 1, True)
                await self.front.registration_changed(event)
            started = await self._started(event, user_id)
            in_play = next((e for e in started if e.result is None), None)
            if in_play is not None:
                table = None
                if in_play.table_id is not None:
                    table = await self.svc.current_table(in_play.table_id)
                if table is not None and table.status == "active":
                    return Dealt(Step.IN_PLAY, event, in_play.number, table)
            numbers = {e.number for e in started}
            number = next(
                (n for n in range(1, self.boards_count(event) + 1) if n not in numbers), None
            )
            if number is None:
                return Dealt(Step.ALL_PLAYED, event)
            table = await self.boards.deal(
                event, self.board_of(event, number), user_id, name, where
            )
        return Dealt(Step.DEALT, event, number, table)

    async def progress(self, event: EventRow, user_id: int) -> tuple[int, int | None]:
        """The player's boards finished, and the next board they may play (None: none)."""
        started = await self._started(event, user_id)
        done = sum(1 for e in started if e.result is not None)
        numbers = {e.number for e in started}
        nxt = next((n for n in range(1, self.boards_count(event) + 1) if n not in numbers), None)
        return done, nxt

    # ================================================================ the close

    async def close(self, event_id: int) -> bool:
        """At the deadline: the event finishes, once (True for the caller that closed
        it: the conditional write is the claim, whichever process makes it first); the
        boards in play this process runs are stopped (in the other processes too: each
        closes at the deadline); the final standings are told, by the closer only."""
        event = await self._event(event_id)
        if event is None or event.deadline_at is None or self.now() < event.deadline_at:
            return False
        if event.state == "registering":  # never opened (the bot was down): open, close
            await self.repo.set_state(event_id, "registering", "running")
        closed = await self.repo.set_state(event_id, "running", "finished")
        if not closed:
            event = await self._event(event_id)
            if event is None or event.state != "finished":
                return False  # cancelled meanwhile
        self._timers.disarm(event_id)
        for entry in await self.svc.daily_repo.of_series(
            event.game_id, [event_series(event.id, event.seed)]
        ):
            if entry.result is None and entry.table_id is not None:
                await self._stop(event, entry.table_id)
        if not closed:
            return False  # another process closed it and tells the results
        view = await self.standings(event_id)
        await self.front.closed(view)
        await self.front.registration_changed(view.event)
        return True

    async def _stop(self, event: EventRow, table_id: int) -> None:
        """A board in play at the close: its table cancelled (the player is told). One
        no process runs (this one has no copy: the process that dealt it stopped before
        the deadline) is cancelled in the store, so no start-up brings it back to be
        played after the close; one another process runs, that process stops at its
        own close."""
        table = await self.svc.current_table(table_id)
        if table is None:
            row = await self.svc.table_repo.get(table_id)
            if row is None or row.status != "active":
                return
            table = Table.from_row(row)
            for hand in await self.svc.hand_repo.list(table_id):  # to tell the player
                table.hand_messages[hand.seat] = (hand.channel_id, hand.message_id)
        elif not self.svc.sync.may_drive(table):
            return
        async with table.lock:
            if table.status != "active":
                return
            if not await commit.mark_cancelled(self.svc, table):
                return
        await self.front.board_stopped(event, table)

    async def standings(self, event_id: int) -> AsyncStandings:
        """Before the close each entrant's boards finished (no score); after it the
        ranking and every board's traveller."""
        event = await self.repo.get(event_id)
        assert event is not None and event.deadline_at is not None
        entries = await self.repo.entries(event_id)
        names = {e.user_id: e.name for e in entries}
        count = self.boards_count(event)
        deadline = event.deadline_at
        played = [
            e
            for e in await self.svc.daily_repo.of_series(
                event.game_id, [event_series(event.id, event.seed)]
            )
            # what counts: finished by the deadline, by the player (never by the AI)
            if e.result is not None
            and not e.by_ai
            and e.finished_at is not None
            and e.finished_at < deadline
            and e.user_id in names
        ]
        closed = event.state == "finished"
        results = async_results(
            [e.user_id for e in entries],
            list(range(1, count + 1)),
            [AsyncEntry(e.user_id, e.number, e.result) for e in played],
            closed,
        )
        if results.standings is None:
            lines = sorted(
                (AsyncLine(u, names[u], results.progress[u]) for u in names),
                key=lambda line: (-line.done, line.name.lower(), line.user_id),
            )
            return AsyncStandings(event, count, False, tuple(lines))
        lines = [
            AsyncLine(s.entrant, names[s.entrant], results.progress[s.entrant], s.label, s.percent)
            for s in results.standings
        ]
        travellers = []
        for number in range(1, count + 1):
            mine = sorted(
                (e for e in played if e.number == number),
                key=lambda e: (-(e.result or 0), names[e.user_id].lower()),
            )
            points = matchpoints([e.result or 0 for e in mine])
            travellers.append(
                AsyncTraveller(
                    number,
                    tuple(
                        AsyncRow(names[e.user_id], e.result or 0, p)
                        for e, p in zip(mine, points, strict=True)
                    ),
                    len(names) - len(mine),
                )
            )
        return AsyncStandings(event, count, True, tuple(lines), tuple(travellers))

    # ================================================================ timers, restarts

    async def resume(self) -> None:
        """At start-up: every asynchronous event not over gets its opening and its close
        armed again (a deadline passed while the bot was down closes it at once); from
        then on :meth:`sweep` every :attr:`sweep_every` seconds."""
        for event in await self.repo.unfinished():
            if event.format == "async":
                self._arm_all(event)
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = self.svc.own(self._sweep_forever(), name="async-event-sweep")

    async def sweep(self) -> None:
        """Arm the timers this process lacks: of an asynchronous event another process
        made or opened (so it closes here too if that one is gone), or whose opening or
        close failed here (a store error: tried again); stop the boards this process
        runs of an event already closed (:meth:`_stop_taken_over`)."""
        await self._stop_taken_over()
        for event in await self.repo.unfinished():
            if event.format != "async":
                continue
            if event.state == "registering" and self._timers.task(event.id, "start") is None:
                self._timers.arm(
                    event.id, "start", self._at(event.start_at, self._start_quietly, event.id)
                )
            if event.deadline_at is not None and self._timers.task(event.id, "close") is None:
                self._timers.arm(
                    event.id, "close", self._at(event.deadline_at, self._close_quietly, event.id)
                )

    async def _stop_taken_over(self) -> None:
        """Stop the boards in play this process runs whose event has closed: with
        several processes, a board whose process died shortly before the deadline was
        still under that process's lease at the close, so the closer left it to its
        owner; the process that took it over once the lease ran out stops it here, at
        its next sweep, as the close would have (its player told). Each board this
        process runs is looked up once."""
        tables = self.svc.tables.values()
        self._live_boards &= {t.id for t in tables}  # the tables gone from memory forgotten
        for table in tables:
            if table.id not in self._live_boards:
                await self._stop_if_closed(table)

    async def taken_over(self, table: Table) -> None:
        """A table this process just took over from a process gone (its lease ran out):
        a board of an asynchronous event that closed meanwhile is stopped now, as the
        close would have (its player told), not at the next sweep."""
        await self._stop_if_closed(table)

    async def _stop_if_closed(self, table: Table) -> None:
        """Stop ``table`` if this process runs it and it is a board in play of an
        asynchronous event that has closed; else, if it is a board, remember it is of
        none (looked up once)."""
        if (
            table.kind is not TableKind.BOARD
            or table.status not in ("lobby", "active")
            or not self.svc.sync.may_drive(table)
        ):
            return
        entry = await self.svc.daily_repo.of_table(table.id)
        event_id = None if entry is None else event_of_series(entry.series)
        event = None if event_id is None else await self._event(event_id)
        if event is None or event.format != "async" or event.state != "finished":
            self._live_boards.add(table.id)  # an event still open closes it itself
            return
        if (
            entry is not None
            and entry.series == event_series(event.id, event.seed)
            and entry.result is None
        ):
            await self._stop(event, table.id)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_every)
            try:
                await self.sweep()
            except StoreError:
                log.warning("async events: could not look for timers to arm", exc_info=True)

    def armed(self, event_id: int) -> frozenset[str]:
        """What this process will do by itself for the event, at its time: ``start``
        (its opening) and ``close`` (its deadline) while armed here; empty once it is
        over or cancelled, or before this process found it (:meth:`sweep`)."""
        return self._timers.jobs(event_id)

    @property
    def sweeping(self) -> bool:
        """True while this process looks for asynchronous events every
        :attr:`sweep_every` seconds (:meth:`sweep`: from :meth:`resume` until
        :meth:`close_timers`)."""
        return self._sweeper is not None and not self._sweeper.done()

    async def close_timers(self) -> None:
        if self.taken_over in self.svc.taken_over:
            self.svc.taken_over.remove(self.taken_over)
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        self._timers.cancel_all()

    def _arm_all(self, event: EventRow) -> None:
        if event.state == "registering":
            self._timers.arm(
                event.id, "start", self._at(event.start_at, self._start_quietly, event.id)
            )
        if event.deadline_at is not None:
            self._timers.arm(
                event.id, "close", self._at(event.deadline_at, self._close_quietly, event.id)
            )

    async def _at(self, when: float, what: Any, event_id: int) -> None:
        await asyncio.sleep(max(0.0, when - self.now()))
        while self.now() < when:  # a clock behind the loop's: wait out the rest
            await asyncio.sleep(max(0.01, when - self.now()))
        await what(event_id)

    async def _start_quietly(self, event_id: int) -> None:
        try:
            await self.start(event_id)
        except StoreError:
            log.exception("async event %s: could not open", event_id)

    async def _close_quietly(self, event_id: int) -> None:
        try:
            await self.close(event_id)
        except StoreError:
            log.exception("async event %s: could not close", event_id)
