"""What every part of the bot shares: the database and its repositories, the
AI pool, the painter, the feed, the registry of tables in memory and the owner
of background tasks. Nothing here speaks Discord: the Discord front's own
(client, notifier) are added by ``bot.discord_ui.services.DiscordServices``.

``GameManager`` builds one and hands it to each part (lobby, play, drivers,
presenter, resume); none of them builds its own.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import TYPE_CHECKING, Any

from bot.config import Settings
from bot.present.painter import Painter
from bot.store import (
    ActionRepo,
    ChallengeRepo,
    DailyRepo,
    Database,
    DeadlineRepo,
    EventRepo,
    GuildSettingsRepo,
    HandMessageRepo,
    PlayerOptionsRepo,
    RatingRepo,
    ResultRepo,
    SnapshotRepo,
    TableRepo,
    UserLocaleRepo,
)
from bot.tables.aipool import AIPool
from bot.tables.feed import Feed
from bot.tables.kinds import TableKind
from bot.tables.player_options import PlayerOptions
from bot.tables.server_settings import ServerSettings
from bot.tables.table import ACK_SAMPLES, Table
from bot.tables.user_locales import UserLocales
from engine import Game

if TYPE_CHECKING:
    from bot.tables.sync import TableSync

log = logging.getLogger(__name__)

__all__ = ["Services", "TableRegistry", "TaskOwner"]


class TaskOwner:
    """Background tasks the bot starts and must not lose: each is kept until it
    ends (a bare ``create_task`` may be garbage-collected mid-flight), a failure
    is logged, and :meth:`close` cancels them all and waits for them."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def own(self, coro: Coroutine[Any, Any, None], name: str | None = None) -> asyncio.Task[None]:
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task %s failed", task.get_name(), exc_info=task.exception())

    def cancel_all(self) -> list[asyncio.Task[None]]:
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        return tasks

    def __len__(self) -> int:
        return len(self._tasks)


class TableRegistry:
    """The tables in memory, by id. The database row is the durable truth: an ended
    table leaves memory ``ended_kept`` seconds after it ends (``Settings.ended_kept``),
    and a late click on its buttons is answered from the database."""

    def __init__(self, tasks: TaskOwner, ended_kept: float) -> None:
        self._tables: dict[int, Table] = {}
        self._tasks = tasks
        self._ended_kept = ended_kept
        self._retiring: deque[tuple[float, int]] = (
            deque()
        )  # (loop time due, table id), oldest first
        self._sweeper: asyncio.Task[None] | None = None
        self.on_add: Callable[[Table], None] | None = None

    # mapping-like access (tests and benchmarks read ``manager.tables``)
    def __getitem__(self, table_id: int) -> Table:
        return self._tables[table_id]

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._tables

    def __len__(self) -> int:
        return len(self._tables)

    def __iter__(self) -> Iterator[int]:
        return iter(self._tables)

    def get(self, table_id: int) -> Table | None:
        return self._tables.get(table_id)

    def values(self) -> list[Table]:
        return list(self._tables.values())

    def items(self) -> list[tuple[int, Table]]:
        return list(self._tables.items())

    def add(self, table: Table) -> None:
        self._tables[table.id] = table
        if self.on_add is not None:
            self.on_add(table)  # the feed's changes: a page on its channel shows it

    def open_in_channel(self, channel_id: int | None) -> Table | None:
        """The lobby or game running in ``channel_id``, if any."""
        return next(
            (
                t
                for t in self._tables.values()
                if t.channel_id == channel_id and t.status in ("lobby", "active")
            ),
            None,
        )

    def playing(self, user_id: int, guild_id: int | None = None) -> Table | None:
        """A running game where ``user_id`` sits (in ``guild_id``, if given)."""
        return next(
            (
                t
                for t in self._tables.values()
                if t.status == "active"
                and t.seat_of(user_id) is not None
                and (guild_id is None or t.guild_id == guild_id)
            ),
            None,
        )

    def retire(self, table: Table) -> None:
        """``table`` has ended: let it go from memory ``settings.ended_kept`` seconds later.

        One sweeper task serves every retiring table (a deque of due times, in the
        order they ended), so a busy bot keeps one task, not one per ended game.
        """
        self._retiring.append((asyncio.get_running_loop().time() + self._ended_kept, table.id))
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = self._tasks.own(self._sweep(), name="retire-tables")

    async def _sweep(self) -> None:
        while self._retiring:
            due, table_id = self._retiring[0]
            wait = due - asyncio.get_running_loop().time()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            self._retiring.popleft()
            # holds only the id: the game itself must not outlive its table in memory
            table = self._tables.get(table_id)
            if table is not None and table.status in ("finished", "cancelled"):
                del self._tables[table_id]

    def forget_ended(self) -> None:
        """Drop every finished and cancelled table now."""
        for table_id in [
            t.id for t in self._tables.values() if t.status in ("finished", "cancelled")
        ]:
            del self._tables[table_id]


class Services:
    """The shared parts, built once per bot."""

    def __init__(self, db: Database, settings: Settings, ai: AIPool) -> None:
        self.db = db
        self.settings = settings
        self.ai = ai
        # pictures are drawn in a process of their own (threads when the AI runs
        # in-process: tests)
        self.painter = Painter(
            "process" if ai.mode == "process" and settings.painter_mode == "process" else "thread"
        )
        self.table_repo = TableRepo(db)
        self.action_repo = ActionRepo(db)
        self.hand_repo = HandMessageRepo(db)
        self.snapshot_repo = SnapshotRepo(db)
        self.result_repo = ResultRepo(db)
        self.rating_repo = RatingRepo(db)
        self.deadline_repo = DeadlineRepo(db)
        self.daily_repo = DailyRepo(db)
        self.challenge_repo = ChallengeRepo(db)
        self.event_repo = EventRepo(db)  # events (bot/tables/events/)
        self.guild_settings = GuildSettingsRepo(db)
        self.server_settings = ServerSettings(self.guild_settings, settings)
        self.user_locales = UserLocales(UserLocaleRepo(db))
        self.player_options = PlayerOptions(PlayerOptionsRepo(db))
        self.tasks = TaskOwner()
        self.feed = Feed()
        self.tables = TableRegistry(self.tasks, settings.ended_kept)
        self.tables.on_add = self.feed.changed
        self.seed_rng: random.Random = (
            random.SystemRandom() if settings.seed is None else random.Random(settings.seed)
        )
        self.ack_latencies: deque[float] = deque(maxlen=ACK_SAMPLES)
        self.closing = False
        # how copies of tables keep in step with the database (bot/tables/sync.py): set
        # by the wiring (bot/app) before the first table, one process or several
        self.sync: TableSync
        # the clock the turn and lobby timers run by (epoch seconds): the front's, set
        # by the wiring (a simulated Discord drives its own), else the system's
        self.now: Callable[[], float] = time.time
        # a kind's own end, written in the finishing move's transaction after the game's
        # result (bot.tables.commit): registered by the feature that owns the kind
        self.ends: dict[TableKind, Callable[[Table, Game], Awaitable[None]]] = {}
        # what a feature does with a table this process just took over from another
        # (its lease ran out: several processes, bot/cluster), once the table is loaded
        # and armed: each is called with every such table, in the background (the
        # events' director shows a board dealt and never shown; an asynchronous event's
        # board of an event closed meanwhile is stopped)
        self.taken_over: list[Callable[[Table], Awaitable[None]]] = []

    def own(self, coro: Coroutine[Any, Any, None], name: str | None = None) -> asyncio.Task[None]:
        return self.tasks.own(coro, name)

    def note_ack(self, started: float) -> None:
        """Record a click-to-answer latency (``started`` from ``time.perf_counter()``)."""
        self.ack_latencies.append(time.perf_counter() - started)

    def new_seed(self) -> int:
        return self.seed_rng.randrange(1, 2**53)

    async def table_in_channel(self, channel_id: int) -> Table | None:
        """The channel's open table for a front looking at the channel: this process's
        copy, else (several processes) a copy of the one another process runs, loaded
        and followed from then on while something watches it."""
        return await self.sync.in_channel(channel_id, self.tables.open_in_channel(channel_id))

    async def current_table(self, table_id: int) -> Table | None:
        """The table a click is about: this process's copy, as :attr:`sync` brings it
        (loaded if another process runs it, caught up if it is known to be behind)."""
        return await self.sync.current(table_id, self.tables.get(table_id))
