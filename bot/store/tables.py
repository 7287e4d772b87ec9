"""The ``tables`` rows: a table's life (lobby, active, finished, cancelled), its
seats, settings and public message, each write bumping the row's version."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.store.db import IntegrityError, TransactionRequired
from bot.store.rows import (
    TRANSITIONS,
    ChannelBusy,
    InvalidTransition,
    Repository,
    Seat,
    Status,
    TableNotFound,
    TableRow,
    VersionConflict,
    dump_json,
    dump_seats,
)
from engine import RECORD_VERSION


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
                    dump_seats(seats),
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
        return await self._bump(table_id, expected_version, "seats = ?", (dump_seats(seats),))

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
            if status not in TRANSITIONS[table.status]:
                raise InvalidTransition(table_id, table.status, status)
            if first_dealer is None:
                return await self._bump(table_id, expected_version, "status = ?", (status,))
            return await self._bump(
                table_id,
                expected_version,
                "status = ?, first_dealer = ?",
                (status, first_dealer),
            )

    async def set_channel(self, table_id: int, channel_id: int) -> None:
        """Move the table to another channel (does not bump the version)."""
        changed = await self.db.execute(
            "UPDATE tables SET channel_id = ?, updated_at = ? WHERE id = ?",
            (channel_id, self.db.clock(), table_id),
        )
        if not changed:
            raise TableNotFound(table_id)

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """Record the public table message (does not bump the version)."""
        changed = await self.db.execute(
            "UPDATE tables SET message_id = ?, updated_at = ? WHERE id = ?",
            (message_id, self.db.clock(), table_id),
        )
        if not changed:
            raise TableNotFound(table_id)
