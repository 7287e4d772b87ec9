"""PostgreSQL through asyncpg: the second backend of :class:`~bot.store.db.Database`.

Chosen by ``RH_DATABASE=postgresql://user:password@host:port/dbname``. Where
SQLite has one connection shared by every task, here a pool of connections
(``min_size``..``max_size``) serves them:

* a statement outside a transaction borrows a connection for that statement;
* :meth:`PostgresDatabase.transaction` holds one connection for the task from
  ``BEGIN`` to ``COMMIT``; the task's statements run on it, other tasks' never do
  (they run concurrently on other connections, and do not see its writes until it
  commits: READ COMMITTED);
* concurrent writers to the same table row are serialized by row locks: the
  repositories read the row they are about to change with ``SELECT ... FOR UPDATE``
  (``Database.for_update``), so a second writer (task or process) waits for the
  first to commit and then sees the new version;
* a lock wait is bounded by ``lock_timeout`` (5 s, like SQLite's ``busy_timeout``)
  and then fails with :class:`~bot.store.db.DatabaseError`; so is any statement
  (30 s, for a server that stops answering: the table's commit fails and is
  retried instead of hanging);
* every asyncpg, server or connection failure surfaces as
  :class:`~bot.store.db.DatabaseError` (a constraint violation as
  :class:`~bot.store.db.IntegrityError`), which the bot catches as a ``StoreError``.

The schema version is kept in the one-row table ``schema_version``; migrations
run under a session advisory lock, so processes started together migrate once.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.store.db import (
    Database,
    DatabaseError,
    IntegrityError,
    NestedTransactionError,
    Params,
    Row,
    numbered_placeholders,
    see_through,
)
from bot.store.migrations import MIGRATIONS, MigrationLike

log = logging.getLogger(__name__)

MIGRATION_LOCK = 0x5255_4646  # "RUFF": the advisory lock held while migrating
LOCK_TIMEOUT_MS = 5000
COMMAND_TIMEOUT_S = 30.0

_KINDS = {
    "23505": "unique",
    "23503": "foreign_key",
    "23514": "check",
    "23502": "not_null",
    "23P01": "exclusion",
}
_KEY_COLUMNS = re.compile(r"Key \(([^)]*)\)=")

# What asyncpg raises: server errors, client/protocol errors, and socket errors.
_DRIVER_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    OSError,
)


def redact(url: str) -> str:
    """The URL without its password, for logs and ``Database.path``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{parts.username or ''}:***@{host}"
    if parts.port is not None:
        netloc += f":{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc))


def translate(exc: BaseException) -> DatabaseError:
    """The store error for an asyncpg / connection error."""
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        sqlstate = getattr(exc, "sqlstate", None)
        detail = getattr(exc, "detail", None) or ""
        columns: tuple[str, ...] = ()
        match = _KEY_COLUMNS.search(detail)
        if match:
            columns = tuple(c.strip() for c in match.group(1).split(","))
        elif getattr(exc, "column_name", None):
            columns = (str(exc.column_name),)
        message = str(exc) if not detail else f"{exc} ({detail})"
        return IntegrityError(
            message,
            kind=_KINDS.get(str(sqlstate)),
            table=getattr(exc, "table_name", None),
            columns=columns,
            constraint=getattr(exc, "constraint_name", None),
        )
    return DatabaseError(f"{type(exc).__name__}: {exc}")


@contextmanager
def _driver_errors() -> Iterator[None]:
    try:
        yield
    except DatabaseError:
        raise
    except _DRIVER_ERRORS as exc:
        raise translate(exc) from exc


async def _keep_session(conn: asyncpg.Connection) -> None:
    """What a connection going back to the pool needs beyond asyncpg's own clean-up
    (which rolls back an open transaction): nothing. The default would send
    ``RESET ALL; UNLISTEN *; CLOSE ALL; SELECT pg_advisory_unlock_all()`` on every
    release — one more round trip per statement or transaction — to undo session
    state the bot never leaves on a pooled connection (it sets no session settings,
    listens on a connection of its own, opens no cursors, and releases the
    migration's advisory lock itself)."""


@lru_cache(maxsize=512)
def _sql(sql: str) -> str:
    return numbered_placeholders(sql)


def _args(params: Params) -> Sequence[Any]:
    if isinstance(params, dict):
        raise TypeError("PostgreSQL statements take positional ? parameters, not a dict")
    return params


def _rowcount(status: str) -> int:
    """The count in a command tag: ``INSERT 0 3`` -> 3, ``UPDATE 1`` -> 1, ``CREATE TABLE`` -> 0."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresDatabase(Database):
    """PostgreSQL through an asyncpg pool (see the module docstring)."""

    dialect = "postgresql"
    for_update = " FOR UPDATE"

    def __init__(self, pool: asyncpg.Pool, url: str, clock: Callable[[], float]) -> None:
        super().__init__(redact(url), clock)
        self._pool = pool
        self._url = url
        self._held: dict[asyncio.Task[Any], asyncpg.Connection] = {}

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        migrations: Sequence[MigrationLike] = MIGRATIONS,
        clock: Callable[[], float] = time.time,
        min_size: int = 1,
        max_size: int = 10,
    ) -> PostgresDatabase:
        """Connect a pool to the database at ``url`` and migrate it.

        The database itself must exist (``createdb``); its schema is created here.
        """
        with _driver_errors():
            pool = await asyncpg.create_pool(
                url,
                min_size=min_size,
                max_size=max_size,
                command_timeout=COMMAND_TIMEOUT_S,
                server_settings={
                    "application_name": "ruff-and-honours",
                    "lock_timeout": str(LOCK_TIMEOUT_MS),
                },
                reset=_keep_session,
            )
        db = cls(pool, url, clock)
        try:
            await db._migrate(migrations)
        except BaseException:
            await pool.close()
            raise
        return db

    async def close(self) -> None:
        """Close the pool (idempotent), waiting for borrowed connections to return."""
        if self._closed:
            return
        self._closed = True
        try:
            await asyncio.wait_for(self._pool.close(), timeout=10)
        except _DRIVER_ERRORS:  # TimeoutError is an OSError
            log.warning("PostgreSQL pool did not close cleanly; terminating", exc_info=True)
            self._pool.terminate()

    async def _migrate(self, migrations: Sequence[MigrationLike]) -> None:
        steps = self._checked(migrations)
        with _driver_errors():
            async with self._pool.acquire() as conn:
                await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
                try:
                    await conn.execute(
                        "CREATE TABLE IF NOT EXISTS schema_version ("
                        " one boolean PRIMARY KEY DEFAULT true CHECK (one),"
                        " version integer NOT NULL CHECK (version >= 0));"
                        " INSERT INTO schema_version (one, version) VALUES (true, 0)"
                        " ON CONFLICT (one) DO NOTHING;"
                    )
                    current = int(await conn.fetchval("SELECT version FROM schema_version"))
                    if current > len(steps):
                        raise self._too_new(current, steps)
                    for step in steps[current:]:
                        log.info("migrating %s to schema version %d", self.path, step.version)
                        async with conn.transaction():
                            await conn.execute(step.sql("postgresql"))
                            await conn.execute(
                                "UPDATE schema_version SET version = $1", step.version
                            )
                finally:
                    await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

    async def listener(self) -> asyncpg.Connection:
        """A connection of its own (not from the pool) for ``LISTEN`` (bot/cluster/sync.py):
        notifications arrive on the connection that listens, so it is held for good."""
        with _driver_errors():
            conn: asyncpg.Connection = await asyncpg.connect(
                self._url,
                command_timeout=COMMAND_TIMEOUT_S,
                server_settings={"application_name": "ruff-and-honours-listener"},
            )
        return conn

    async def user_version(self) -> int:
        """The schema version (``schema_version.version``)."""
        return int(await self.fetchval("SELECT version FROM schema_version"))

    # -- transactions -------------------------------------------------------------

    @property
    def in_transaction(self) -> bool:
        task = asyncio.current_task()
        return task is not None and task in self._held

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """``BEGIN`` ... ``COMMIT`` on a connection held by this task, or ``ROLLBACK``.

        Other tasks keep running their statements on other connections. The
        transaction waits only where it touches a row another transaction has
        locked (at most ``lock_timeout``).
        """
        task = asyncio.current_task()
        assert task is not None, "transaction() needs a running task"
        if task in self._held:
            raise NestedTransactionError("transaction() is already open in this task")
        with _driver_errors():
            conn = await self._pool.acquire()
        try:
            with _driver_errors():
                await conn.execute("BEGIN")
            self._held[task] = conn
            try:
                yield
            except BaseException:
                try:
                    await conn.execute("ROLLBACK")
                except BaseException:  # a broken connection: the pool discards it
                    log.debug("ROLLBACK failed", exc_info=True)
                raise
            else:
                with _driver_errors():
                    await see_through(conn.execute("COMMIT"))
            finally:
                del self._held[task]
        finally:
            await self._pool.release(conn)

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        with _driver_errors():
            task = asyncio.current_task()
            held = self._held.get(task) if task is not None else None
            if held is not None:
                yield held
            else:
                async with self._pool.acquire() as conn:
                    yield conn

    # -- statements -----------------------------------------------------------------

    async def execute(self, sql: str, params: Params = ()) -> int:
        async with self._connection() as conn:
            status = await conn.execute(_sql(sql), *_args(params))
        return _rowcount(str(status))

    async def execute_insert(self, sql: str, params: Params = ()) -> int:
        async with self._connection() as conn:
            new_id = await conn.fetchval(
                f"{_sql(sql).rstrip().rstrip(';')} RETURNING id", *_args(params)
            )
        return int(new_id)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> int:
        batch = [_args(r) for r in rows]
        if not batch:
            return 0
        async with self._connection() as conn:
            # asyncpg runs the whole batch atomically (one implicit transaction
            # outside ours).
            await conn.executemany(_sql(sql), batch)
        return len(batch)

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        async with self._connection() as conn:
            row: Row | None = await conn.fetchrow(_sql(sql), *_args(params))
        return row

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._connection() as conn:
            rows: list[Row] = await conn.fetch(_sql(sql), *_args(params))
        return rows
