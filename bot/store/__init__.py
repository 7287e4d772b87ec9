"""Persistence: the :class:`Database` (SQLite, or PostgreSQL for a ``postgresql://``
``RH_DATABASE``), its migrations and the repositories."""

from bot.store.coach import CoachRepo, PuzzleRow
from bot.store.daily import BoardEntry, Challenge, ChallengeRepo, DailyRepo
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
from bot.store.events import EventBoard, EventEntry, EventRepo, EventRound, EventRow, EventTable
from bot.store.hands import HandMessageRepo
from bot.store.lessons import LessonRepo, LessonRow
from bot.store.moves import ActionRepo, Snapshot, SnapshotRepo
from bot.store.player_options import PlayerOptionsRepo
from bot.store.preferences import GuildSettingsRepo, UserLocaleRepo
from bot.store.rows import (
    ActionRow,
    AISeat,
    ChannelBusy,
    Deadline,
    HandMessage,
    HumanSeat,
    InvalidTransition,
    LeaseNotHeld,
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
    "BoardEntry",
    "Challenge",
    "ChallengeRepo",
    "DailyRepo",
    "EventBoard",
    "EventEntry",
    "EventRepo",
    "EventRound",
    "EventRow",
    "EventTable",
    "ActionRepo",
    "ActionRow",
    "ChannelBusy",
    "CoachRepo",
    "Database",
    "DatabaseError",
    "Deadline",
    "DeadlineRepo",
    "GuildSettingsRepo",
    "PlayerOptionsRepo",
    "UserLocaleRepo",
    "Snapshot",
    "SnapshotRepo",
    "HandMessage",
    "HandMessageRepo",
    "LessonRepo",
    "LessonRow",
    "HumanSeat",
    "IntegrityError",
    "InvalidTransition",
    "LeaseNotHeld",
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
