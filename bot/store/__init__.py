"""Persistence: the :class:`Database` (SQLite, or PostgreSQL for a ``postgresql://``
``RH_DATABASE``), its migrations and the repositories."""

from bot.store.coach import CoachRepo, PuzzleRow
from bot.store.db import (
    Database,
    DatabaseError,
    IntegrityError,
    NestedTransactionError,
    Row,
    SchemaError,
    SQLiteDatabase,
    StoreError,
    TransactionRequired,
    is_postgresql_url,
)
from bot.store.deadlines import DeadlineRepo
from bot.store.hands import HandMessageRepo
from bot.store.moves import ActionRepo, Snapshot, SnapshotRepo
from bot.store.preferences import GuildSettingsRepo, UserLocaleRepo
from bot.store.rows import (
    ActionRow,
    AISeat,
    ChannelBusy,
    Deadline,
    HandMessage,
    HumanSeat,
    InvalidTransition,
    NewAction,
    PlayerResult,
    PlayerStats,
    ResultRow,
    Seat,
    Seats,
    Status,
    TableNotActive,
    TableNotFound,
    TableRow,
    VersionConflict,
)
from bot.store.standings import (
    RatingChange,
    RatingEventRow,
    RatingRepo,
    RatingRow,
    ResultRepo,
)
from bot.store.tables import TableRepo

__all__ = [
    "AISeat",
    "ActionRepo",
    "ActionRow",
    "ChannelBusy",
    "CoachRepo",
    "Database",
    "DatabaseError",
    "Deadline",
    "DeadlineRepo",
    "GuildSettingsRepo",
    "UserLocaleRepo",
    "Snapshot",
    "SnapshotRepo",
    "HandMessage",
    "HandMessageRepo",
    "HumanSeat",
    "IntegrityError",
    "InvalidTransition",
    "NestedTransactionError",
    "NewAction",
    "PlayerResult",
    "PlayerStats",
    "PuzzleRow",
    "RatingChange",
    "RatingEventRow",
    "RatingRepo",
    "RatingRow",
    "ResultRepo",
    "ResultRow",
    "Row",
    "SQLiteDatabase",
    "SchemaError",
    "Seat",
    "Seats",
    "Status",
    "StoreError",
    "TableNotActive",
    "TableNotFound",
    "TableRepo",
    "TableRow",
    "TransactionRequired",
    "VersionConflict",
    "is_postgresql_url",
]
