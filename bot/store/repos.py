"""Repositories: small typed classes over :class:`~bot.store.db.Database`.

Each repository owns the SQL for one table and returns frozen dataclasses. Every
method is atomic on its own and can also be called inside a caller's
``async with db.transaction():`` to group several writes, e.g. the last move,
the status change and the results of a game.

The SQL is written once for both backends (SQLite and PostgreSQL): ``?``
placeholders, ``ON CONFLICT ... DO UPDATE``, standard window functions; the
:class:`~bot.store.db.Database` hides the rest. Every read of a table row that a
write depends on (the version check, the status check) locks that row until the
transaction ends (``Database.for_update``), so two processes sharing one
PostgreSQL database cannot both pass the same check: the second waits, then
sees the first one's write and gets :class:`VersionConflict`.
"""

from __future__ import annotations

import builtins
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, cast, get_args

from bot.store.db import Database, IntegrityError, Row, StoreError, TransactionRequired
from engine import RECORD_VERSION

# -- errors -----------------------------------------------------------------------


class TableNotFound(StoreError):
    """No table has this id."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} does not exist")
        self.table_id = table_id


class ChannelBusy(StoreError):
    """The channel already has a table in the lobby or in play."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(f"channel {channel_id} already has an open table")
        self.channel_id = channel_id


class VersionConflict(StoreError):
    """The table moved on since the caller read it (optimistic check failed).

    Nothing was written. ``actual`` is the version now stored.
    """

    def __init__(self, table_id: int, expected: int, actual: int) -> None:
        super().__init__(f"table {table_id} is at version {actual}, not the expected {expected}")
        self.table_id = table_id
        self.expected = expected
        self.actual = actual


class InvalidTransition(StoreError):
    """A status change the table's life cycle does not allow (e.g. finished -> active)."""

    def __init__(self, table_id: int, current: str, target: str) -> None:
        super().__init__(f"table {table_id} cannot go from {current!r} to {target!r}")
        self.table_id = table_id
        self.current = current
        self.target = target


class TableNotActive(StoreError):
    """Actions can only be appended to a table whose status is 'active'."""

    def __init__(self, table_id: int, status: str) -> None:
        super().__init__(f"table {table_id} is {status!r}, not 'active'")
        self.table_id = table_id
        self.status = status


# -- values -------------------------------------------------------------------------

Status: TypeAlias = Literal["lobby", "active", "finished", "cancelled"]
AILevel: TypeAlias = Literal["easy", "normal", "hard"]

OPEN_STATUSES: tuple[Status, ...] = ("lobby", "active")
_TRANSITIONS: dict[str, frozenset[str]] = {
    "lobby": frozenset({"active", "cancelled"}),
    "active": frozenset({"finished", "cancelled"}),
    "finished": frozenset(),
    "cancelled": frozenset(),
}


@dataclass(frozen=True, slots=True)
class HumanSeat:
    """A seat taken by a Discord user. Stored as ``{"user_id": int, "name": str}``."""

    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class AISeat:
    """A seat played by the AI. Stored as ``{"ai": "easy"|"normal"|"hard", "name": str}``."""

    ai: AILevel
    name: str


Seat: TypeAlias = HumanSeat | AISeat
Seats: TypeAlias = tuple[Seat | None, ...]


def seat_to_json(seat: Seat | None) -> dict[str, Any] | None:
    """The JSON form of one seat entry."""
    if seat is None:
        return None
    if isinstance(seat, HumanSeat):
        return {"user_id": seat.user_id, "name": seat.name}
    return {"ai": seat.ai, "name": seat.name}


def seat_from_json(data: Mapping[str, Any] | None) -> Seat | None:
    """Parse one seat entry; raises ValueError on an unknown shape."""
    if data is None:
        return None
    if "user_id" in data:
        return HumanSeat(user_id=int(data["user_id"]), name=str(data["name"]))
    if "ai" in data and data["ai"] in get_args(AILevel):
        return AISeat(ai=cast(AILevel, data["ai"]), name=str(data["name"]))
    raise ValueError(f"not a seat: {data!r}")


def dump_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _dump_seats(seats: Sequence[Seat | None]) -> str:
    if not 2 <= len(seats) <= 4:
        raise ValueError(f"a table has 2 to 4 seats, got {len(seats)}")
    return dump_json([seat_to_json(s) for s in seats])


@dataclass(frozen=True, slots=True)
class TableRow:
    """One game table, as stored."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    creator_id: int
    game_id: str
    preset: str
    overrides: dict[str, Any]
    seed: int
    first_dealer: int | None
    status: Status
    seats: Seats
    settings: dict[str, Any]
    version: int
    created_at: float
    updated_at: float
    record_version: int = RECORD_VERSION
    """The engine record version its game replays under (1: created before version 2)."""

    @property
    def is_open(self) -> bool:
        """True while the table is in the lobby or in play."""
        return self.status in OPEN_STATUSES

    def record(self, actions: Iterable[ActionRow]) -> dict[str, Any]:
        """The engine record of this table's game with ``actions`` as its log."""
        return {
            "format": "ruff-honours-game",
            "version": self.record_version,
            "game_id": self.game_id,
            "preset": self.preset,
            "overrides": self.overrides,
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "actions": [f"{a.seat} {a.action}" for a in actions],
        }

    @classmethod
    def from_row(cls, row: Row) -> TableRow:
        """Build from a ``SELECT * FROM tables`` row."""
        return cls(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            message_id=row["message_id"],
            creator_id=row["creator_id"],
            game_id=row["game_id"],
            preset=row["preset"],
            overrides=json.loads(row["overrides"]),
            seed=row["seed"],
            first_dealer=row["first_dealer"],
            status=row["status"],
            seats=tuple(seat_from_json(s) for s in json.loads(row["seats"])),
            settings=json.loads(row["settings"]),
            version=row["version"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            record_version=row["record_version"],
        )


@dataclass(frozen=True, slots=True)
class NewAction:
    """An action to append to a table's log."""

    seat: int
    action: str
    """The engine's encoding, e.g. ``"play:10H"``."""
    actor_id: int | None = None
    """The Discord user who acted; None for an AI seat or a timer."""


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One logged action."""

    table_id: int
    seq: int
    seat: int
    action: str
    actor_id: int | None
    created_at: float


@dataclass(frozen=True, slots=True)
class HandMessage:
    """Where a seat's DM hand message lives."""

    table_id: int
    seat: int
    channel_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One human player's outcome in a finished game (input to ``record_game``)."""

    user_id: int
    name: str
    side: int
    won: bool
    points: int
    """The player's side's final score."""
    opp_points: int
    """The best opposing side's final score."""


@dataclass(frozen=True, slots=True)
class ResultRow:
    """A stored result row."""

    table_id: int
    guild_id: int
    user_id: int
    name: str
    side: int
    won: bool
    points: int
    opp_points: int
    finished_at: float


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's totals in one guild. ``rank`` is 1-based, in leaderboard order."""

    rank: int
    user_id: int
    name: str
    games: int
    wins: int
    win_pct: float
    """Percentage of games won, 0.0 to 100.0."""
    points: int
    """Sum of the player's side's final scores over all games."""


@dataclass(frozen=True, slots=True)
class Deadline:
    """A timer that must survive a restart: one per table."""

    table_id: int
    kind: str
    """What fires: e.g. ``"turn"`` (the seat's turn timer) or ``"lobby"`` (lobby expiry)."""
    seat: int | None
    due_at: float
    """Epoch seconds."""


# -- repositories -----------------------------------------------------------------------


class Repository:
    def __init__(self, db: Database) -> None:
        self.db = db


class TableRepo(Repository):
    """Game tables: lobby creation, seats, status and the version counter."""

    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        game_id: str,
        preset: str,
        seed: int,
        seats: Sequence[Seat | None] = (None, None, None, None),
        overrides: Mapping[str, Any] | None = None,
        settings: Mapping[str, Any] | None = None,
        first_dealer: int | None = None,
    ) -> TableRow:
        """Create a table in status ``lobby`` at version 0.

        Raises :class:`ChannelBusy` if the channel already has an open table.
        """
        now = self.db.clock()
        try:
            table_id = await self.db.execute_insert(
                """
                INSERT INTO tables (guild_id, channel_id, creator_id, game_id, preset,
                                    overrides, seed, first_dealer, status, seats, settings,
                                    version, created_at, updated_at, record_version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?, 0, ?, ?, ?)
                """,
                (
                    guild_id,
                    channel_id,
                    creator_id,
                    game_id,
                    preset,
                    dump_json(dict(overrides or {})),
                    seed,
                    first_dealer,
                    _dump_seats(seats),
                    dump_json(dict(settings or {})),
                    now,
                    now,
                    RECORD_VERSION,
                ),
            )
        except IntegrityError as exc:
            if exc.kind == "unique" and exc.columns == ("channel_id",):
                raise ChannelBusy(channel_id) from exc
            raise
        return await self.require(table_id)

    async def get(self, table_id: int) -> TableRow | None:
        """The table with this id, or None."""
        row = await self.db.fetchone("SELECT * FROM tables WHERE id = ?", (table_id,))
        return None if row is None else TableRow.from_row(row)

    async def require(self, table_id: int) -> TableRow:
        """The table with this id; raises :class:`TableNotFound`."""
        table = await self.get(table_id)
        if table is None:
            raise TableNotFound(table_id)
        return table

    async def lock(self, table_id: int) -> TableRow:
        """Lock the table's row until the current transaction ends; return it as stored.

        Call it first in a transaction that reads a table and then writes what
        depends on it (the way to serialize the writers of one table across
        processes). On PostgreSQL this is ``SELECT ... FOR UPDATE``: another
        transaction locking or changing the same table waits until this one ends
        (at most the lock timeout, then :class:`~bot.store.DatabaseError`). On
        SQLite the write transaction already excludes every other writer, so it
        is a plain read. Raises :class:`~bot.store.TransactionRequired` outside a
        transaction and :class:`TableNotFound`.
        """
        if not self.db.in_transaction:
            raise TransactionRequired("lock() needs a transaction: the lock ends with it")
        row = await self.db.fetchone(
            f"SELECT * FROM tables WHERE id = ?{self.db.for_update}", (table_id,)
        )
        if row is None:
            raise TableNotFound(table_id)
        return TableRow.from_row(row)

    async def get_open_by_channel(self, channel_id: int) -> TableRow | None:
        """The channel's table in status lobby or active, if any."""
        row = await self.db.fetchone(
            "SELECT * FROM tables WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        return None if row is None else TableRow.from_row(row)

    async def list_unfinished(self) -> list[TableRow]:
        """Every table in status lobby or active (to resume at start-up), oldest first."""
        rows = await self.db.fetchall(
            "SELECT * FROM tables WHERE status IN ('lobby', 'active') ORDER BY id"
        )
        return [TableRow.from_row(r) for r in rows]

    async def _bump(
        self,
        table_id: int,
        expected_version: int | None,
        assignments: str = "",
        params: Sequence[Any] = (),
        by: int = 1,
    ) -> int:
        """Bump the version (optionally checking it) and apply SET ``assignments``."""
        async with self.db.atomic():
            current = await self.db.fetchval(
                f"SELECT version FROM tables WHERE id = ?{self.db.for_update}", (table_id,)
            )
            if current is None:
                raise TableNotFound(table_id)
            if expected_version is not None and current != expected_version:
                raise VersionConflict(table_id, expected_version, current)
            extra = f", {assignments}" if assignments else ""
            await self.db.execute(
                f"UPDATE tables SET version = version + ?, updated_at = ?{extra} WHERE id = ?",
                (by, self.db.clock(), *params, table_id),
            )
            return int(current) + by

    async def bump_version(self, table_id: int, expected_version: int | None = None) -> int:
        """Increase the version by one and return the new version.

        With ``expected_version``, raises :class:`VersionConflict` (writing nothing)
        if the stored version differs.
        """
        return await self._bump(table_id, expected_version)

    async def update_seats(
        self,
        table_id: int,
        seats: Sequence[Seat | None],
        expected_version: int | None = None,
    ) -> int:
        """Replace the seat list and bump the version; returns the new version."""
        return await self._bump(table_id, expected_version, "seats = ?", (_dump_seats(seats),))

    async def update_settings(
        self,
        table_id: int,
        settings: Mapping[str, Any],
        expected_version: int | None = None,
    ) -> int:
        """Replace the settings object and bump the version; returns the new version."""
        return await self._bump(
            table_id, expected_version, "settings = ?", (dump_json(dict(settings)),)
        )

    async def set_status(
        self,
        table_id: int,
        status: Status,
        expected_version: int | None = None,
        *,
        first_dealer: int | None = None,
    ) -> int:
        """Move the table along its life cycle and bump the version.

        Allowed: lobby -> active | cancelled, active -> finished | cancelled.
        ``first_dealer`` (if given) is stored at the same time, e.g. when the game
        starts. Raises :class:`InvalidTransition` otherwise. Returns the new version.
        """
        async with self.db.atomic():
            table = await self.lock(table_id)
            if status not in _TRANSITIONS[table.status]:
                raise InvalidTransition(table_id, table.status, status)
            if first_dealer is None:
                return await self._bump(table_id, expected_version, "status = ?", (status,))
            return await self._bump(
                table_id,
                expected_version,
                "status = ?, first_dealer = ?",
                (status, first_dealer),
            )

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """Record the public table message (does not bump the version)."""
        changed = await self.db.execute(
            "UPDATE tables SET message_id = ?, updated_at = ? WHERE id = ?",
            (message_id, self.db.clock(), table_id),
        )
        if not changed:
            raise TableNotFound(table_id)


def _action_row(r: Row) -> ActionRow:
    return ActionRow(
        table_id=r["table_id"],
        seq=r["seq"],
        seat=r["seat"],
        action=r["action"],
        actor_id=r["actor_id"],
        created_at=r["created_at"],
    )


class ActionRepo(Repository):
    """The per-table move log."""

    async def append(
        self, table_id: int, expected_version: int, entries: Iterable[NewAction]
    ) -> int:
        """Append ``entries`` to the log and bump the version by one per entry.

        In one transaction (or the caller's): checks the table is ``active`` and at
        ``expected_version``, inserts the actions with consecutive ``seq`` numbers
        and bumps the version. Raises :class:`VersionConflict`,
        :class:`TableNotActive` or :class:`TableNotFound` having written nothing.
        Returns the new version.
        """
        batch = list(entries)
        if not batch:
            raise ValueError("append() needs at least one action")
        if self.db.dialect == "postgresql":
            return await self._append_in_one_statement(table_id, expected_version, batch)
        async with self.db.atomic():
            # one query (locking the table row): its version, status and next seq
            row = await self.db.fetchone(
                "SELECT version, status,"
                " (SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE table_id = ?) AS next_seq"
                f" FROM tables WHERE id = ?{self.db.for_update}",
                (table_id, table_id),
            )
            if row is None:
                raise TableNotFound(table_id)
            if row["version"] != expected_version:
                raise VersionConflict(table_id, expected_version, row["version"])
            if row["status"] != "active":
                raise TableNotActive(table_id, row["status"])
            next_seq = int(row["next_seq"])
            now = self.db.clock()
            await self.db.executemany(
                "INSERT INTO actions (table_id, seq, seat, action, actor_id, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (table_id, next_seq + i, e.seat, e.action, e.actor_id, now)
                    for i, e in enumerate(batch)
                ],
            )
            await self.db.execute(
                "UPDATE tables SET version = version + ?, updated_at = ? WHERE id = ?",
                (len(batch), now, table_id),
            )
            return expected_version + len(batch)

    async def _append_in_one_statement(
        self, table_id: int, expected_version: int, batch: builtins.list[NewAction]
    ) -> int:
        """:meth:`append` on PostgreSQL in one round trip: the version is bumped only if
        the row is ``active`` at ``expected_version`` (the UPDATE locks it, and a
        concurrent append waits, then finds the version moved), and the actions are
        inserted only if it was. A refusal reads the row once more to say why."""
        now = self.db.clock()
        row = await self.db.fetchone(
            "WITH bumped AS ("
            " UPDATE tables SET version = version + ?, updated_at = ?"
            " WHERE id = ? AND version = ? AND status = 'active' RETURNING version),"
            " added AS ("
            " INSERT INTO actions (table_id, seq, seat, action, actor_id, created_at)"
            " SELECT ?, n.next_seq + u.i - 1, u.seat, u.action, u.actor_id, ?"
            " FROM bumped,"
            " (SELECT COALESCE(MAX(seq) + 1, 0) AS next_seq FROM actions WHERE table_id = ?) n,"
            " unnest(?::integer[], ?::text[], ?::bigint[])"
            " WITH ORDINALITY AS u(seat, action, actor_id, i)"
            " RETURNING 1)"
            " SELECT (SELECT version FROM bumped) AS version, (SELECT COUNT(*) FROM added) AS n",
            (
                len(batch),
                now,
                table_id,
                expected_version,
                table_id,
                now,
                table_id,
                [e.seat for e in batch],
                [e.action for e in batch],
                [e.actor_id for e in batch],
            ),
        )
        if row is not None and row["version"] is not None:
            assert row["n"] == len(batch)
            return int(row["version"])
        found = await self.db.fetchone(
            "SELECT version, status FROM tables WHERE id = ?", (table_id,)
        )
        if found is None:
            raise TableNotFound(table_id)
        if found["version"] != expected_version:
            raise VersionConflict(table_id, expected_version, found["version"])
        raise TableNotActive(table_id, found["status"])

    async def list(self, table_id: int) -> builtins.list[ActionRow]:
        """Every action of the table, in ``seq`` order."""
        rows = await self.db.fetchall(
            "SELECT * FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
        )
        return [_action_row(r) for r in rows]

    async def list_active(self) -> dict[int, builtins.list[ActionRow]]:
        """The logs of every active table, by table id, in one query (for resume)."""
        rows = await self.db.fetchall(
            "SELECT a.* FROM actions a JOIN tables t ON t.id = a.table_id"
            " WHERE t.status = 'active' ORDER BY a.table_id, a.seq"
        )
        logs: dict[int, builtins.list[ActionRow]] = {}
        for r in rows:
            logs.setdefault(r["table_id"], []).append(_action_row(r))
        return logs

    async def count(self, table_id: int) -> int:
        """How many actions the table has logged."""
        return int(
            await self.db.fetchval("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table_id,))
        )


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A stored snapshot of a table's game: it covers the first ``seq`` actions."""

    table_id: int
    seq: int
    body: str
    """The engine snapshot as JSON (``engine.records.snapshot``)."""
    digest: str
    """The sha256 of ``body``, hex."""

    @classmethod
    def of(cls, table_id: int, seq: int, body: str) -> Snapshot:
        """A snapshot to store: its digest computed."""
        return cls(table_id, seq, body, hashlib.sha256(body.encode()).hexdigest())

    @property
    def intact(self) -> bool:
        """True if the body is the one its digest was computed from."""
        return hashlib.sha256(self.body.encode()).hexdigest() == self.digest


def _snapshot(r: Row) -> Snapshot:
    return Snapshot(r["table_id"], r["seq"], r["body"], r["digest"])


class SnapshotRepo(Repository):
    """One snapshot per game in play, so a load replays only the tail of its log."""

    async def put(self, snapshot: Snapshot) -> None:
        """Store ``snapshot`` in place of the table's previous one."""
        await self.db.execute(
            "INSERT INTO table_snapshots (table_id, seq, body, digest, created_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq,"
            " body = excluded.body, digest = excluded.digest, created_at = excluded.created_at",
            (snapshot.table_id, snapshot.seq, snapshot.body, snapshot.digest, self.db.clock()),
        )

    async def delete(self, table_id: int) -> None:
        """Forget the table's snapshot (its game is over)."""
        await self.db.execute("DELETE FROM table_snapshots WHERE table_id = ?", (table_id,))

    async def get(self, table_id: int) -> Snapshot | None:
        """The table's snapshot, or None."""
        row = await self.db.fetchone(
            "SELECT * FROM table_snapshots WHERE table_id = ?", (table_id,)
        )
        return None if row is None else _snapshot(row)

    async def get_many(self, table_ids: Iterable[int]) -> dict[int, Snapshot]:
        """The snapshots of ``table_ids`` that have one, by table id."""
        ids = sorted(set(table_ids))
        found: dict[int, Snapshot] = {}
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            marks = ", ".join("?" for _ in chunk)
            for r in await self.db.fetchall(
                f"SELECT * FROM table_snapshots WHERE table_id IN ({marks})", tuple(chunk)
            ):
                found[r["table_id"]] = _snapshot(r)
        return found

    async def list_active(self) -> dict[int, Snapshot]:
        """The snapshots of every active table, by table id, in one query (for resume)."""
        rows = await self.db.fetchall(
            "SELECT s.* FROM table_snapshots s JOIN tables t ON t.id = s.table_id"
            " WHERE t.status = 'active'"
        )
        return {r["table_id"]: _snapshot(r) for r in rows}


_CHUNK = 1000  # ids per IN (...) list: well under both backends' limits on parameters


class HandMessageRepo(Repository):
    """The DM hand message of each seat."""

    async def set(self, table_id: int, seat: int, channel_id: int, message_id: int) -> None:
        """Record (or replace) the seat's hand message."""
        await self.db.execute(
            """
            INSERT INTO hand_messages (table_id, seat, channel_id, message_id)
            VALUES (?, ?, ?, ?)
            ON CONFLICT (table_id, seat)
            DO UPDATE SET channel_id = excluded.channel_id, message_id = excluded.message_id
            """,
            (table_id, seat, channel_id, message_id),
        )

    async def get(self, table_id: int, seat: int) -> HandMessage | None:
        """The seat's hand message, or None."""
        row = await self.db.fetchone(
            "SELECT * FROM hand_messages WHERE table_id = ? AND seat = ?", (table_id, seat)
        )
        return None if row is None else HandMessage(**dict(row))

    async def list(self, table_id: int) -> builtins.list[HandMessage]:
        """Every recorded hand message of the table, by seat."""
        rows = await self.db.fetchall(
            "SELECT * FROM hand_messages WHERE table_id = ? ORDER BY seat", (table_id,)
        )
        return [HandMessage(**dict(r)) for r in rows]

    async def list_active(self) -> dict[int, builtins.list[HandMessage]]:
        """The hand messages of every active table, by table id, in one query (for resume)."""
        rows = await self.db.fetchall(
            "SELECT h.* FROM hand_messages h JOIN tables t ON t.id = h.table_id"
            " WHERE t.status = 'active' ORDER BY h.table_id, h.seat"
        )
        found: dict[int, builtins.list[HandMessage]] = {}
        for r in rows:
            found.setdefault(r["table_id"], []).append(HandMessage(**dict(r)))
        return found

    async def delete(self, table_id: int, seat: int | None = None) -> int:
        """Forget one seat's hand message, or all of the table's; returns rows removed."""
        if seat is None:
            return await self.db.execute(
                "DELETE FROM hand_messages WHERE table_id = ?", (table_id,)
            )
        return await self.db.execute(
            "DELETE FROM hand_messages WHERE table_id = ? AND seat = ?", (table_id, seat)
        )


class DeadlineRepo(Repository):
    """Turn and lobby timers that survive a restart (one per table)."""

    async def set(self, table_id: int, kind: str, due_at: float, seat: int | None = None) -> None:
        """Set (or replace) the table's deadline."""
        await self.db.execute(
            """
            INSERT INTO deadlines (table_id, kind, seat, due_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (table_id)
            DO UPDATE SET kind = excluded.kind, seat = excluded.seat, due_at = excluded.due_at
            """,
            (table_id, kind, seat, due_at),
        )

    async def get(self, table_id: int) -> Deadline | None:
        """The table's deadline, or None."""
        row = await self.db.fetchone("SELECT * FROM deadlines WHERE table_id = ?", (table_id,))
        return None if row is None else Deadline(**dict(row))

    async def clear(self, table_id: int) -> bool:
        """Remove the table's deadline; True if there was one."""
        return bool(await self.db.execute("DELETE FROM deadlines WHERE table_id = ?", (table_id,)))

    async def list(self) -> builtins.list[Deadline]:
        """Every pending deadline, soonest first (to re-arm timers at start-up)."""
        rows = await self.db.fetchall("SELECT * FROM deadlines ORDER BY due_at, table_id")
        return [Deadline(**dict(r)) for r in rows]

    async def list_due(self, now: float) -> builtins.list[Deadline]:
        """Deadlines with ``due_at <= now``, soonest first."""
        rows = await self.db.fetchall(
            "SELECT * FROM deadlines WHERE due_at <= ? ORDER BY due_at, table_id", (now,)
        )
        return [Deadline(**dict(r)) for r in rows]


class GuildSettingsRepo(Repository):
    """Per-server settings (``/ruff settings``): one JSON object per server."""

    async def get(self, guild_id: int) -> dict[str, Any]:
        """The server's settings; ``{}`` (every default) for a server that set none."""
        row = await self.db.fetchone(
            "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return {} if row is None else dict(json.loads(row["settings"]))

    async def get_many(self, guild_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """The settings of each of ``guild_ids`` (``{}`` for a server that set none)."""
        ids = sorted(set(guild_ids))
        found: dict[int, dict[str, Any]] = dict.fromkeys(ids, {})
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            marks = ", ".join("?" for _ in chunk)
            for row in await self.db.fetchall(
                f"SELECT guild_id, settings FROM guild_settings WHERE guild_id IN ({marks})",
                tuple(chunk),
            ):
                found[int(row["guild_id"])] = dict(json.loads(row["settings"]))
        return {k: dict(v) for k, v in found.items()}

    async def update(self, guild_id: int, changes: Mapping[str, Any]) -> dict[str, Any]:
        """Merge ``changes`` into the server's settings (a ``None`` value removes the
        key: back to the default); returns the settings now stored."""
        async with self.db.atomic():
            settings = await self.get(guild_id)
            for key, value in changes.items():
                if value is None:
                    settings.pop(key, None)
                else:
                    settings[key] = value
            await self.db.execute(
                """
                INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?)
                ON CONFLICT (guild_id)
                DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at
                """,
                (guild_id, dump_json(settings), self.db.clock()),
            )
        return settings


class UserLocaleRepo(Repository):
    """Each player's Discord locale, from their latest interaction (``bot.present.locales``)."""

    async def get_many(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The stored locale of each of ``user_ids`` that has one."""
        ids = sorted(set(user_ids))
        found: dict[int, str] = {}
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            marks = ", ".join("?" for _ in chunk)
            rows = await self.db.fetchall(
                f"SELECT user_id, locale FROM user_locales WHERE user_id IN ({marks})",
                tuple(chunk),
            )
            found.update((int(row["user_id"]), str(row["locale"])) for row in rows)
        return found

    async def set(self, user_id: int, locale: str) -> None:
        """Store ``locale`` as ``user_id``'s (replacing the one before)."""
        await self.db.execute(
            """
            INSERT INTO user_locales (user_id, locale, updated_at) VALUES (?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at
            """,
            (user_id, locale[:16], self.db.clock()),
        )
