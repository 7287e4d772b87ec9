"""Events with no director (issue #39): an event, who registered, its rounds, the
tables of each round and every board each table plays. Read and written by the
director (``bot/tables/events/``); the rules they follow (seating, matchpoints,
the time rule) are ``bot/competition/events``: the store only stores.

One SQL for both backends. What must happen once is written with a condition: an
event changes state only from the state it was read in, a round is scored once, a
board gets its table once and its result once (only over a NULL), so a retry, a
restart or a second process never does it twice.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.store.db import IntegrityError, Row
from bot.store.rows import Repository

__all__ = [
    "EventBoard",
    "EventEntry",
    "EventRepo",
    "EventRound",
    "EventRow",
    "EventTable",
    "Format",
]

Format = Literal["individual", "pairs", "swiss", "async"]
EventState = Literal["registering", "running", "finished", "cancelled"]

_EVENT = (
    "id, guild_id, channel_id, creator_id, game_id, preset, format, boards_per_round, rounds,"
    " minutes_per_board, start_at, state, round, message_id, seed, created_at, deadline_at,"
    " rated"
)
_ENTRY = (
    "event_id, user_id, name, partner_id, checked_in, joined_round, left_round, created_at,"
    " checked_in_round"
)
_TABLE = "event_id, round, number, seats, ai_for, thread_id"
_BOARD = (
    "event_id, round, table_no, board, table_id, ns_result, skipped, substituted,"
    " ns_thinking, ew_thinking, finished_at"
)


@dataclass(frozen=True, slots=True)
class EventRow:
    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    game_id: str
    preset: str
    format: Format
    boards_per_round: int
    rounds: int
    minutes_per_board: float
    start_at: float
    state: EventState
    round: int  # the round in play (0 before the start)
    message_id: int | None  # the registration message
    seed: int
    created_at: float
    deadline_at: float | None = None  # an asynchronous event's close (None: a live format)
    rated: bool = False
    """The server chose to rate the event: its boards count for the ratings and the
    stats as ordinary games do (default: unrated)."""

    def boards_of(self, round_no: int) -> range:
        """The event's board numbers of round ``round_no`` (every table plays them)."""
        first = (round_no - 1) * self.boards_per_round + 1
        return range(first, first + self.boards_per_round)


@dataclass(frozen=True, slots=True)
class EventEntry:
    """A registration: a player, the partner they chose (pairs), checked in or not,
    the first round they play (a late joiner: the next round), the round from which
    they left (None: still in) and the first round their check-in counts for (a
    check-in during a round: the next; None: from the first)."""

    event_id: int
    user_id: int
    name: str
    partner_id: int | None
    checked_in: bool
    joined_round: int
    left_round: int | None
    created_at: float
    checked_in_round: int | None = None

    def plays(self, round_no: int) -> bool:
        return self.joined_round <= round_no and (
            self.left_round is None or round_no < self.left_round
        )

    def here(self, round_no: int) -> bool:
        """Checked in for round ``round_no``'s field: before it was seated (a check-in
        during round 2 puts a player in round 3's field, not back in round 2's)."""
        return self.checked_in and (
            self.checked_in_round is None or self.checked_in_round <= round_no
        )


@dataclass(frozen=True, slots=True)
class EventRound:
    event_id: int
    number: int
    started_at: float
    state: Literal["playing", "scored"]


@dataclass(frozen=True, slots=True)
class EventTable:
    """One table of a round: ``seats[s]`` the user at seat ``s``, None for an AI that
    fills the field; ``ai_for`` the seats the AI plays for their absent player."""

    event_id: int
    round: int
    number: int
    seats: tuple[int | None, ...]
    ai_for: frozenset[int]
    thread_id: int


@dataclass(frozen=True, slots=True)
class EventBoard:
    """One board at one table of a round: the table-layer table playing it (None until
    opened), its result for north-south (None until finished or skipped)."""

    event_id: int
    round: int
    table_no: int
    board: int
    table_id: int | None
    ns_result: int | None
    skipped: bool
    substituted: frozenset[int]
    ns_thinking: float
    ew_thinking: float
    finished_at: float | None

    @property
    def done(self) -> bool:
        return self.finished_at is not None


def _event(row: Row) -> EventRow:
    message = row["message_id"]
    return EventRow(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        creator_id=int(row["creator_id"]),
        game_id=str(row["game_id"]),
        preset=str(row["preset"]),
        format=str(row["format"]),  # type: ignore[arg-type]  # the CHECK keeps it one of four
        boards_per_round=int(row["boards_per_round"]),
        rounds=int(row["rounds"]),
        minutes_per_board=float(row["minutes_per_board"]),
        start_at=float(row["start_at"]),
        state=str(row["state"]),  # type: ignore[arg-type]
        round=int(row["round"]),
        message_id=None if message is None else int(message),
        seed=int(row["seed"]),
        created_at=float(row["created_at"]),
        deadline_at=None if row["deadline_at"] is None else float(row["deadline_at"]),
        rated=bool(row["rated"]),
    )


def _entry(row: Row) -> EventEntry:
    partner, left = row["partner_id"], row["left_round"]
    return EventEntry(
        event_id=int(row["event_id"]),
        user_id=int(row["user_id"]),
        name=str(row["name"]),
        partner_id=None if partner is None else int(partner),
        checked_in=bool(row["checked_in"]),
        joined_round=int(row["joined_round"]),
        left_round=None if left is None else int(left),
        created_at=float(row["created_at"]),
        checked_in_round=None if row["checked_in_round"] is None else int(row["checked_in_round"]),
    )


def _table(row: Row) -> EventTable:
    return EventTable(
        int(row["event_id"]),
        int(row["round"]),
        int(row["number"]),
        tuple(None if s is None else int(s) for s in json.loads(str(row["seats"]))),
        frozenset(int(s) for s in json.loads(str(row["ai_for"]))),
        int(row["thread_id"]),
    )


def _board(row: Row) -> EventBoard:
    table_id, result, finished = row["table_id"], row["ns_result"], row["finished_at"]
    return EventBoard(
        event_id=int(row["event_id"]),
        round=int(row["round"]),
        table_no=int(row["table_no"]),
        board=int(row["board"]),
        table_id=None if table_id is None else int(table_id),
        ns_result=None if result is None else int(result),
        skipped=bool(row["skipped"]),
        substituted=frozenset(int(s) for s in json.loads(str(row["substituted"]))),
        ns_thinking=float(row["ns_thinking"]),
        ew_thinking=float(row["ew_thinking"]),
        finished_at=None if finished is None else float(finished),
    )


class EventRepo(Repository):
    """Events, registrations, rounds, tables and boards."""

    # ------------------------------------------------------------ the event

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        game_id: str,
        preset: str,
        format: Format,
        boards_per_round: int,
        rounds: int,
        minutes_per_board: float,
        start_at: float,
        seed: int,
        deadline_at: float | None = None,
        rated: bool = False,
    ) -> EventRow:
        """A new event, registering (``deadline_at``: an asynchronous event's close)."""
        event_id = await self.db.execute_insert(
            "INSERT INTO events (guild_id, channel_id, creator_id, game_id, preset, format,"
            " boards_per_round, rounds, minutes_per_board, start_at, state, round, seed,"
            " created_at, deadline_at, rated)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'registering', 0, ?, ?, ?, ?)",
            (
                guild_id,
                channel_id,
                creator_id,
                game_id,
                preset,
                format,
                boards_per_round,
                rounds,
                minutes_per_board,
                start_at,
                seed,
                self.db.clock(),
                deadline_at,
                int(rated),
            ),
        )
        event = await self.get(event_id)
        assert event is not None
        return event

    async def get(self, event_id: int) -> EventRow | None:
        row = await self.db.fetchone(f"SELECT {_EVENT} FROM events WHERE id = ?", (event_id,))
        return None if row is None else _event(row)

    async def of_guild(self, guild_id: int, open_only: bool = False) -> list[EventRow]:
        """The server's events, newest first (``open_only``: registering or running)."""
        where = " AND state IN ('registering', 'running')" if open_only else ""
        rows = await self.db.fetchall(
            f"SELECT {_EVENT} FROM events WHERE guild_id = ?{where} ORDER BY id DESC", (guild_id,)
        )
        return [_event(r) for r in rows]

    async def unfinished(self) -> list[EventRow]:
        """Every event registering or running (a start re-arms them)."""
        rows = await self.db.fetchall(
            f"SELECT {_EVENT} FROM events WHERE state IN ('registering', 'running') ORDER BY id"
        )
        return [_event(r) for r in rows]

    async def set_message(self, event_id: int, message_id: int) -> bool:
        """Keep the event's registration message; kept once: False (nothing changes)
        if one is kept already (another process, or a start-up, kept its own)."""
        changed = await self.db.execute(
            "UPDATE events SET message_id = ? WHERE id = ? AND message_id IS NULL",
            (message_id, event_id),
        )
        return changed > 0

    async def set_state(self, event_id: int, old: EventState, new: EventState) -> bool:
        """``old`` -> ``new``; False if the event was not in ``old`` (someone else moved it)."""
        changed = await self.db.execute(
            "UPDATE events SET state = ? WHERE id = ? AND state = ?", (new, event_id, old)
        )
        return changed > 0

    # ------------------------------------------------------------ registrations

    async def register(
        self, event_id: int, user_id: int, name: str, joined_round: int, checked_in: bool
    ) -> bool:
        """Register ``user_id``; False if registered already (nothing changes)."""
        try:
            await self.db.execute(
                f"INSERT INTO event_entries ({_ENTRY}) VALUES (?, ?, ?, NULL, ?, ?, NULL, ?, ?)",
                (
                    event_id,
                    user_id,
                    name,
                    int(checked_in),
                    joined_round,
                    self.db.clock(),
                    joined_round if checked_in else None,
                ),
            )
        except IntegrityError as exc:
            if exc.kind == "unique":
                return False
            raise
        return True

    async def unregister(self, event_id: int, user_id: int) -> bool:
        """Remove a registration before the start (a partner's choice of them goes too)."""
        async with self.db.transaction():
            changed = await self.db.execute(
                "DELETE FROM event_entries WHERE event_id = ? AND user_id = ?", (event_id, user_id)
            )
            await self.db.execute(
                "UPDATE event_entries SET partner_id = NULL WHERE event_id = ? AND partner_id = ?",
                (event_id, user_id),
            )
        return changed > 0

    async def leave(self, event_id: int, user_id: int, from_round: int) -> bool:
        """A player leaves a running event: not seated from ``from_round`` on."""
        changed = await self.db.execute(
            "UPDATE event_entries SET left_round = ?"
            " WHERE event_id = ? AND user_id = ? AND left_round IS NULL",
            (from_round, event_id, user_id),
        )
        return changed > 0

    async def choose_partner(self, event_id: int, user_id: int, partner_id: int | None) -> bool:
        changed = await self.db.execute(
            "UPDATE event_entries SET partner_id = ? WHERE event_id = ? AND user_id = ?",
            (partner_id, event_id, user_id),
        )
        return changed > 0

    async def check_in(self, event_id: int, user_id: int, from_round: int) -> bool:
        """Checked in, for the fields of rounds ``from_round`` on; False if not
        registered or checked in already."""
        changed = await self.db.execute(
            "UPDATE event_entries SET checked_in = 1, checked_in_round = ?"
            " WHERE event_id = ? AND user_id = ? AND checked_in = 0",
            (from_round, event_id, user_id),
        )
        return changed > 0

    async def entries(
        self, event_id: int, users: Collection[int | None] | None = None
    ) -> list[EventEntry]:
        """The event's entries in registration order; of ``users`` only when given (a
        table's seats: a board dealt reads its four players, not the whole field)."""
        where, params = "event_id = ?", [event_id]
        if users is not None:
            wanted = sorted({u for u in users if u is not None})
            if not wanted:
                return []
            where += f" AND user_id IN ({', '.join('?' * len(wanted))})"
            params.extend(wanted)
        rows = await self.db.fetchall(
            f"SELECT {_ENTRY} FROM event_entries WHERE {where} ORDER BY created_at, user_id",
            tuple(params),
        )
        return [_entry(r) for r in rows]

    async def entry(self, event_id: int, user_id: int) -> EventEntry | None:
        row = await self.db.fetchone(
            f"SELECT {_ENTRY} FROM event_entries WHERE event_id = ? AND user_id = ?",
            (event_id, user_id),
        )
        return None if row is None else _entry(row)

    # ------------------------------------------------------------ rounds and tables

    async def start_round(
        self,
        event_id: int,
        number: int,
        tables: Sequence[tuple[Sequence[int | None], frozenset[int]]],
        boards: Sequence[int],
    ) -> bool:
        """Round ``number`` begins with ``tables`` (seats, seats the AI plays for an
        absent player), each to play ``boards``: the round, its tables, their boards
        and the event's round in one transaction. False if it began already."""
        now = self.db.clock()
        async with self.db.transaction():
            changed = await self.db.execute(
                "UPDATE events SET round = ?, state = 'running'"
                " WHERE id = ? AND round = ? AND state IN ('registering', 'running')",
                (number, event_id, number - 1),
            )
            if not changed:
                return False
            await self.db.execute(
                "INSERT INTO event_rounds (event_id, number, started_at, state)"
                " VALUES (?, ?, ?, 'playing')",
                (event_id, number, now),
            )
            for table_no, (seats, ai_for) in enumerate(tables, start=1):
                await self.db.execute(
                    "INSERT INTO event_tables (event_id, round, number, seats, ai_for)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (
                        event_id,
                        number,
                        table_no,
                        json.dumps(list(seats)),
                        json.dumps(sorted(ai_for)),
                    ),
                )
            await self.db.executemany(
                "INSERT INTO event_boards (event_id, round, table_no, board) VALUES (?, ?, ?, ?)",
                [
                    (event_id, number, table_no, b)
                    for table_no in range(1, len(tables) + 1)
                    for b in boards
                ],
            )
        return True

    async def rounds(self, event_id: int) -> list[EventRound]:
        rows = await self.db.fetchall(
            "SELECT event_id, number, started_at, state FROM event_rounds WHERE event_id = ?"
            " ORDER BY number",
            (event_id,),
        )
        return [
            EventRound(int(r["event_id"]), int(r["number"]), float(r["started_at"]), r["state"])
            for r in rows
        ]

    async def score_round(self, event_id: int, number: int) -> bool:
        """Round ``number`` is over and scored: True once, for whoever gets there first."""
        changed = await self.db.execute(
            "UPDATE event_rounds SET state = 'scored'"
            " WHERE event_id = ? AND number = ? AND state = 'playing'",
            (event_id, number),
        )
        return changed > 0

    async def finish(self, event_id: int, last_round: int) -> bool:
        """The last round scored: the event is finished, once."""
        async with self.db.transaction():
            scored = await self.score_round(event_id, last_round)
            done = await self.set_state(event_id, "running", "finished")
        return scored and done

    async def tables(self, event_id: int, round_no: int | None = None) -> list[EventTable]:
        where, params = "event_id = ?", [event_id]
        if round_no is not None:
            where += " AND round = ?"
            params.append(round_no)
        rows = await self.db.fetchall(
            f"SELECT {_TABLE} FROM event_tables WHERE {where} ORDER BY round, number",
            tuple(params),
        )
        return [_table(r) for r in rows]

    async def table(self, event_id: int, round_no: int, number: int) -> EventTable | None:
        """One table of a round (a table moving on reads its own, not the round's)."""
        row = await self.db.fetchone(
            f"SELECT {_TABLE} FROM event_tables WHERE event_id = ? AND round = ? AND number = ?",
            (event_id, round_no, number),
        )
        return None if row is None else _table(row)

    async def set_thread(self, event_id: int, round_no: int, table_no: int, thread_id: int) -> None:
        await self.db.execute(
            "UPDATE event_tables SET thread_id = ? WHERE event_id = ? AND round = ? AND number = ?",
            (thread_id, event_id, round_no, table_no),
        )

    async def stand_in(self, event_id: int, round_no: int, table_no: int, seat: int) -> bool:
        """The AI plays ``seat`` on the boards of the round's table not yet begun (its
        player left); False if it did already."""
        row = await self.db.fetchone(
            "SELECT ai_for FROM event_tables WHERE event_id = ? AND round = ? AND number = ?",
            (event_id, round_no, table_no),
        )
        if row is None:
            return False
        ai_for = set(json.loads(str(row["ai_for"])))
        if seat in ai_for:
            return False
        await self.db.execute(
            "UPDATE event_tables SET ai_for = ? WHERE event_id = ? AND round = ? AND number = ?",
            (json.dumps(sorted(ai_for | {seat})), event_id, round_no, table_no),
        )
        return True

    async def take_back(self, event_id: int, round_no: int, table_no: int, seat: int) -> None:
        """The absent player of ``seat`` came back: the AI no longer plays for them on
        the boards not yet begun (the boards it played stay marked)."""
        row = await self.db.fetchone(
            "SELECT ai_for FROM event_tables WHERE event_id = ? AND round = ? AND number = ?",
            (event_id, round_no, table_no),
        )
        if row is None:
            return
        ai_for = sorted(set(json.loads(str(row["ai_for"]))) - {seat})
        await self.db.execute(
            "UPDATE event_tables SET ai_for = ? WHERE event_id = ? AND round = ? AND number = ?",
            (json.dumps(ai_for), event_id, round_no, table_no),
        )

    # ------------------------------------------------------------ boards

    async def boards(
        self, event_id: int, round_no: int | None = None, table_no: int | None = None
    ) -> list[EventBoard]:
        """The event's boards, of one round and one of its tables when given, in order."""
        where, params = "event_id = ?", [event_id]
        if round_no is not None:
            where += " AND round = ?"
            params.append(round_no)
        if table_no is not None:
            where += " AND table_no = ?"
            params.append(table_no)
        rows = await self.db.fetchall(
            f"SELECT {_BOARD} FROM event_boards WHERE {where} ORDER BY round, table_no, board",
            tuple(params),
        )
        return [_board(r) for r in rows]

    async def round_done(self, event_id: int, round_no: int) -> bool:
        """Whether the round has boards and every one is done (played, skipped or
        voided): counted by the database, not read board by board."""
        row = await self.db.fetchone(
            "SELECT COUNT(*) AS boards, COUNT(finished_at) AS done FROM event_boards"
            " WHERE event_id = ? AND round = ?",
            (event_id, round_no),
        )
        return row is not None and 0 < int(row["boards"]) == int(row["done"])

    async def board_of_table(self, table_id: int) -> EventBoard | None:
        row = await self.db.fetchone(
            f"SELECT {_BOARD} FROM event_boards WHERE table_id = ?", (table_id,)
        )
        return None if row is None else _board(row)

    async def set_board_table(
        self, event_id: int, round_no: int, table_no: int, board: int, table_id: int
    ) -> None:
        """The board is dealt at ``table_id``; raises :class:`~bot.store.IntegrityError`
        if it was dealt already (call it inside the table's own transaction)."""
        changed = await self.db.execute(
            "UPDATE event_boards SET table_id = ? WHERE event_id = ? AND round = ?"
            " AND table_no = ? AND board = ? AND table_id IS NULL AND finished_at IS NULL",
            (table_id, event_id, round_no, table_no, board),
        )
        if not changed:
            raise IntegrityError(
                "the board was dealt already", kind="unique", columns=("table_id",)
            )

    async def finish_board(
        self, table_id: int, ns_result: int, substituted: frozenset[int] = frozenset()
    ) -> bool:
        """The board played at ``table_id`` ended; False if it had a result already."""
        changed = await self.db.execute(
            "UPDATE event_boards SET ns_result = ?, substituted = ?, finished_at = ?"
            " WHERE table_id = ? AND finished_at IS NULL",
            (ns_result, json.dumps(sorted(substituted)), self.db.clock(), table_id),
        )
        return changed > 0

    async def skip_board(
        self,
        event_id: int,
        round_no: int,
        table_no: int,
        board: int,
        ns_thinking: float,
        ew_thinking: float,
    ) -> bool:
        """The time rule skipped the board (never dealt); False if it was dealt or settled."""
        changed = await self.db.execute(
            "UPDATE event_boards SET skipped = 1, ns_thinking = ?, ew_thinking = ?,"
            " finished_at = ? WHERE event_id = ? AND round = ? AND table_no = ? AND board = ?"
            " AND table_id IS NULL AND finished_at IS NULL",
            (ns_thinking, ew_thinking, self.db.clock(), event_id, round_no, table_no, board),
        )
        return changed > 0

    async def void_board(self, table_id: int, ns_thinking: float, ew_thinking: float) -> bool:
        """The board's table ended with no result (cancelled): the board is ruled as
        skipped; False if it had a result already."""
        changed = await self.db.execute(
            "UPDATE event_boards SET skipped = 1, ns_thinking = ?, ew_thinking = ?,"
            " finished_at = ? WHERE table_id = ? AND finished_at IS NULL",
            (ns_thinking, ew_thinking, self.db.clock(), table_id),
        )
        return changed > 0

    async def set_substituted(self, table_id: int, seats: frozenset[int]) -> None:
        """The seats the AI played for their absent player on the board at ``table_id``."""
        await self.db.execute(
            "UPDATE event_boards SET substituted = ? WHERE table_id = ?",
            (json.dumps(sorted(seats)), table_id),
        )
