"""How this process's copy of a table keeps in step with the database: the one
interface the table layer sees, whatever the deployment.

:class:`TableSync` is asked at these points of a table's life — a click loads
the table (:meth:`~TableSync.current`), a commit asks which lease fences its
write (:meth:`~TableSync.fence`), what a lost lease means
(:meth:`~TableSync.lease_lost`) and what a lost version race means
(:meth:`~TableSync.conflict`), a click that lost such a race catches up
(:meth:`~TableSync.catch_up`), the AI and timers ask whether this process
runs them (:meth:`~TableSync.may_drive`), and hand DMs this process sent are
made known to the process that runs the table (:meth:`~TableSync.hands_sent`).
:class:`OneProcess` is the answer for one process on its own database (SQLite,
or PostgreSQL with one process): the table's ``asyncio.Lock`` is the whole
story. ``bot.cluster`` answers for several processes sharing PostgreSQL.

A sync calls back into the table layer only through :class:`TableLife`, which
the wiring (``bot/app``) hands it: it never holds the presenter or the drivers.
"""

from __future__ import annotations

from typing import Protocol

from bot.store import (
    ActionRow,
    Deadline,
    HandMessage,
    LeaseNotHeld,
    Snapshot,
    StoreError,
    TableRow,
    VersionConflict,
)
from bot.tables.table import Table
from engine import Event, Game

__all__ = ["CATCH_UP_TRIES", "OneProcess", "TableBehind", "TableLife", "TableSync"]

CATCH_UP_TRIES = 4  # a click re-checked this often when other processes keep winning the race


class TableBehind(StoreError):
    """Another process changed the table since this copy was read: nothing written."""

    def __init__(self, table_id: int, mine: int, stored: int) -> None:
        super().__init__(
            f"table {table_id}: this copy is at version {mine}, the database at {stored}"
        )
        self.table_id = table_id


class TableLife(Protocol):
    """What a sync may ask of the table layer (implemented by ``bot.tables.resume.Resume``)."""

    def publish(self, table: Table, events: list[Event]) -> None:
        """Show ``events`` (moves this process did not make) and arm the next turn."""

    def changed(self, table: Table) -> None:
        """The table's seats or settings changed elsewhere: redraw, re-arm."""

    def arm(self, table: Table, deadline: Deadline | None, last_action_at: float = 0.0) -> None:
        """Arm the table's stored lobby or turn timer (a table just taken over)."""

    def rearm(self, table: Table) -> None:
        """Start the table's AI or turn timer if its turn waits for one that is not running."""

    def follow_copies(self, table: Table) -> None:
        """Another process changed a table this one does not run: bring the "My hand"
        copies this process showed up to date (the rest is shown by the owner)."""

    async def resume_all(self) -> int:
        """Bring every unfinished table back (one process); how many."""

    async def bring_back(
        self,
        row: TableRow,
        actions: list[ActionRow],
        hand_msgs: list[HandMessage],
        deadline: Deadline | None,
        snapshot: Snapshot | None = None,
    ) -> bool:
        """Load one unfinished table and bring it to life; False if it was set aside."""

    async def taken_over(self, table: Table) -> None:
        """``table`` was just taken over from another process and armed here: what the
        features do with it (``Services.taken_over``)."""

    def load_table(
        self, row: TableRow, actions: list[ActionRow], snapshot: Snapshot | None = None
    ) -> Table:
        """A table in memory from its row and move log, from its snapshot on if it has
        one that matches the log (no timers, no messages)."""

    def load_game(
        self, row: TableRow, actions: list[ActionRow], snapshot: Snapshot | None = None
    ) -> Game | None:
        """The game of ``row`` from its move log (and snapshot, as :meth:`load_table`)."""

    async def speak(self, table: Table) -> None:
        """Set the table's public language and its players' languages."""

    async def rate_old_games_quietly(self) -> None:
        """Rate finished games that have no rating yet (best effort)."""


class TableSync(Protocol):
    """Keeps this process's copies of tables in step with the database."""

    async def start(self) -> int:
        """Bring back the unfinished tables this process runs; how many."""

    async def current(self, table_id: int, table: Table | None) -> Table | None:
        """The table a click is about: this process's copy, loaded or brought up to date."""

    async def in_channel(self, channel_id: int, here: Table | None) -> Table | None:
        """The open table of a channel, for a front that looks at the channel: ``here``
        (this process's copy of it, if any), else a copy of the one another process
        runs, loaded (None: the channel has no open table)."""

    def fence(self, table: Table, actor_id: int | None) -> str | None:
        """The lease holder a commit by ``actor_id`` (None: the AI or a timer) is written
        under: the store writes the move only while this holder has the table's lease,
        checked in the move's own write. None: no lease needed."""

    def lease_lost(self, table: Table, error: LeaseNotHeld) -> StoreError:
        """The error a commit raises when its fence found the lease gone."""

    def conflict(self, table: Table, error: VersionConflict) -> StoreError:
        """The error a commit raises when the stored version moved under it."""

    async def catch_up(self, table: Table) -> None:
        """Bring a copy that lost a race (:class:`TableBehind`) up to date."""

    def may_drive(self, table: Table) -> bool:
        """True if this process shows ``table``'s moves and runs its AI and timers."""

    async def hands_sent(self, table: Table) -> None:
        """This process sent ``table``'s hand DMs (kept in the store): the process that
        runs the table learns them now, to edit them as the game moves."""

    async def close(self) -> None:
        """Stop: hand what this process runs to the others."""


class OneProcess:
    """:class:`TableSync` for one process: every copy is the current one, and this
    process runs every table."""

    def __init__(self, life: TableLife) -> None:
        self.life = life

    async def start(self) -> int:
        return await self.life.resume_all()

    async def current(self, table_id: int, table: Table | None) -> Table | None:
        return table

    async def in_channel(self, channel_id: int, here: Table | None) -> Table | None:
        return here  # this process runs every table: none is anywhere else

    def fence(self, table: Table, actor_id: int | None) -> str | None:
        return None

    def lease_lost(self, table: Table, error: LeaseNotHeld) -> StoreError:
        return error  # never fenced: reported as it is

    def conflict(self, table: Table, error: VersionConflict) -> StoreError:
        return error  # nobody else writes: a conflict is a bug, reported as it is

    async def catch_up(self, table: Table) -> None:
        return None

    def may_drive(self, table: Table) -> bool:
        return True

    async def hands_sent(self, table: Table) -> None:
        return None  # this process runs the table: it knows the DMs it sent

    async def close(self) -> None:
        return None
