"""The SQLite connection: pragmas, migrations and transactions.

One :class:`Database` wraps one aiosqlite connection in autocommit mode
(``isolation_level=None``), so every statement outside a transaction commits on
its own, and :meth:`Database.transaction` is the only way to group statements.

Because the connection is shared by every task, a transaction holds an
``asyncio.Lock`` from ``BEGIN IMMEDIATE`` to ``COMMIT``: statements issued by
other tasks meanwhile wait for it instead of landing inside someone else's
transaction. The task that owns the transaction runs its statements directly.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.migrations import MIGRATIONS

log = logging.getLogger(__name__)

Params = Sequence[Any] | dict[str, Any]


class StoreError(Exception):
    """Base class of the errors raised by the store."""


class SchemaError(StoreError):
    """The database file is newer than this code, or the migration list is malformed."""


class NestedTransactionError(StoreError):
    """``Database.transaction()`` was entered while the same task already held one."""


class Database:
    """An open SQLite database with the bot's schema applied.

    Open with ``await Database.open(path)`` and close with ``await db.close()``
    (or ``async with await Database.open(path) as db``).
    """

    def __init__(self, conn: aiosqlite.Connection, path: str, clock: Callable[[], float]) -> None:
        self._conn = conn
        self.path = path
        self.clock = clock
        """Source of the ``created_at``/``updated_at`` timestamps (epoch seconds)."""
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._closed = False

    # -- lifecycle --------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        migrations: Sequence[tuple[int, str]] = MIGRATIONS,
        clock: Callable[[], float] = time.time,
    ) -> Database:
        """Open (creating if needed) the database at ``path`` and migrate it.

        The parent directory is created. ``":memory:"`` gives a private
        in-memory database (useful in tests; it has no WAL).
        """
        location = str(path)
        if location != ":memory:":
            Path(location).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(location, isolation_level=None)
        db = cls(conn, location, clock)
        try:
            conn.row_factory = sqlite3.Row
            # WAL: readers never block the writer. FULL: a commit is on disk
            # before we acknowledge the move to the player.
            # Cursors are always closed (db.fetchval/execute): a pragma's unread
            # result row would leave a statement "in progress" and block COMMIT.
            await db.fetchval("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = FULL")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.fetchval("PRAGMA busy_timeout = 5000")
            await db._migrate(migrations)
        except BaseException:
            await conn.close()
            raise
        return db

    async def close(self) -> None:
        """Close the connection (idempotent). Stops aiosqlite's worker thread."""
        if self._closed:
            return
        self._closed = True
        await self._conn.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called."""
        return self._closed

    async def _migrate(self, migrations: Sequence[tuple[int, str]]) -> None:
        versions = [v for v, _ in migrations]
        if versions != list(range(1, len(versions) + 1)):
            raise SchemaError(f"migrations must be numbered 1, 2, 3...; got {versions}")
        current = await self.user_version()
        if current > len(migrations):
            raise SchemaError(
                f"database {self.path!r} is at schema version {current}, "
                f"newer than this code ({len(migrations)})"
            )
        for version, sql in migrations[current:]:
            log.info("migrating %s to schema version %d", self.path, version)
            # executescript() would COMMIT any open transaction first, so the
            # BEGIN/COMMIT live inside the script; on error we roll back here.
            script = f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {version};\nCOMMIT;"
            try:
                await (await self._conn.executescript(script)).close()
            except BaseException:
                if self._conn.in_transaction:
                    await self._conn.rollback()
                raise

    async def user_version(self) -> int:
        """The schema version recorded in the file (``PRAGMA user_version``)."""
        row = await self.fetchone("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    # -- transactions -------------------------------------------------------------

    def _in_own_transaction(self) -> bool:
        return self._owner is not None and self._owner is asyncio.current_task()

    @property
    def in_transaction(self) -> bool:
        """True if the current task is inside :meth:`transaction`."""
        return self._in_own_transaction()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` if the block raises.

        IMMEDIATE takes the write lock at the start, so a transaction never fails
        half-way with SQLITE_BUSY on its first write. Nesting raises
        :class:`NestedTransactionError`; repositories that must be atomic but can
        also run inside a caller's transaction use :meth:`atomic` instead. Other
        tasks' statements wait for the transaction, so inside it never await a
        task that itself uses the database (that would deadlock).
        """
        if self._in_own_transaction():
            raise NestedTransactionError("transaction() is already open in this task")
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                await (await self._conn.execute("BEGIN IMMEDIATE")).close()
                try:
                    yield
                    # Statements run in queue order on aiosqlite's thread, so a
                    # commit already queued completes even if we are cancelled.
                    await self._conn.commit()
                except BaseException:
                    if self._conn.in_transaction:
                        await self._conn.rollback()
                    raise
            finally:
                self._owner = None

    @asynccontextmanager
    async def atomic(self) -> AsyncIterator[None]:
        """Join the current task's transaction if there is one, else open one."""
        if self._in_own_transaction():
            yield
        else:
            async with self.transaction():
                yield

    @asynccontextmanager
    async def _statement(self) -> AsyncIterator[None]:
        # Outside a transaction, wait for any other task's transaction to finish.
        if self._in_own_transaction():
            yield
        else:
            async with self._lock:
                yield

    # -- statements -----------------------------------------------------------------

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        async with self._statement():
            cursor = await self._conn.execute(sql, params)
            try:
                return cursor.rowcount
            finally:
                await cursor.close()

    async def execute_insert(self, sql: str, params: Params = ()) -> int:
        """Run one INSERT; return the new row's rowid."""
        async with self._statement():
            cursor = await self._conn.execute(sql, params)
            try:
                rowid = cursor.lastrowid
            finally:
                await cursor.close()
        assert rowid is not None
        return rowid

    async def executemany(self, sql: str, rows: Iterable[Params]) -> int:
        """Run one statement once per parameter set; return the rows changed."""
        async with self._statement():
            cursor = await self._conn.executemany(sql, rows)
            try:
                return cursor.rowcount
            finally:
                await cursor.close()

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """Run a query and return its first row, or None."""
        async with self._statement():
            cursor = await self._conn.execute(sql, params)
            try:
                return await cursor.fetchone()
            finally:
                await cursor.close()

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """Run a query and return every row."""
        async with self._statement():
            cursor = await self._conn.execute(sql, params)
            try:
                return list(await cursor.fetchall())
            finally:
                await cursor.close()

    async def fetchval(self, sql: str, params: Params = ()) -> Any:
        """Run a query and return the first column of its first row, or None."""
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]
