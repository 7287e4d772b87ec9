"""What the repositories share: the store's errors, the seats, the frozen rows they
return, JSON helpers and the :class:`Repository` base.

The repositories are small typed classes over :class:`~bot.store.db.Database`,
one module per job (:mod:`~bot.store.tables`, :mod:`~bot.store.moves`,
:mod:`~bot.store.hands`, :mod:`~bot.store.deadlines`, :mod:`~bot.store.preferences`,
:mod:`~bot.store.standings`). Each owns the SQL for its tables and returns frozen
dataclasses. Every method is atomic on its own and can also be called inside a
caller's ``async with db.transaction():`` to group several writes, e.g. the last
move, the status change and the results of a game.

The SQL is written once for both backends (SQLite and PostgreSQL): ``?``
placeholders, ``ON CONFLICT ... DO UPDATE``, standard window functions; the
:class:`~bot.store.db.Database` hides the rest. Every read of a table row that a
write depends on (the version check, the status check) locks that row until the
transaction ends (``Database.for_update``), so two processes sharing one
PostgreSQL database cannot both pass the same check: the second waits, then
sees the first one's write and gets :class:`VersionConflict`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, TypeAlias, cast, get_args

from bot.store.db import Database, Row, StoreError
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


class LeaseNotHeld(StoreError):
    """A write fenced by a lease (an AI or timer move of several processes) found the
    table's lease held by another process, or by none: nothing was written."""

    def __init__(self, table_id: int, owner: str | None) -> None:
        super().__init__(f"table {table_id}: the lease is held by {owner!r}")
        self.table_id = table_id
        self.owner = owner


# -- values -------------------------------------------------------------------------

Status: TypeAlias = Literal["lobby", "active", "finished", "cancelled"]
AILevel: TypeAlias = Literal["easy", "normal", "hard", "fixed"]  # fixed: a board's AI

OPEN_STATUSES: tuple[Status, ...] = ("lobby", "active")
TRANSITIONS: dict[str, frozenset[str]] = {  # the statuses a table may move to from each
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


def dump_seats(seats: Sequence[Seat | None]) -> str:
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


class ActionRow(NamedTuple):
    """One logged action (a named tuple: a start builds one per action of every
    unfinished game, and a tuple is built in a third of a frozen dataclass's time)."""

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


CHUNK = 1000  # ids per IN (...) list: well under both backends' limits on parameters
