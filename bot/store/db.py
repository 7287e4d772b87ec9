"""The database: one interface, two backends (SQLite and PostgreSQL).

:meth:`Database.open` takes ``RH_DATABASE``: a ``postgresql://`` (or
``postgres://``) URL opens :class:`~bot.store.postgres.PostgresDatabase` (asyncpg,
a pool of connections); anything else is a SQLite file path (or ``":memory:"``)
and opens :class:`SQLiteDatabase`, the embedded default with nothing to install.

Both speak the same small API the repositories use, and hide the differences
between the dialects:

* placeholders are written ``?`` everywhere; PostgreSQL gets ``$1, $2, ...``;
* rows are read by column name or position (``sqlite3.Row`` / ``asyncpg.Record``,
  both satisfy :class:`Row`), and ``dict(row)`` works on both;
* :meth:`Database.execute_insert` returns the new row's ``id`` (``lastrowid`` /
  ``RETURNING id``);
* :meth:`Database.transaction` groups statements (``BEGIN IMMEDIATE`` on SQLite's one
  connection, which is already exclusive; ``BEGIN`` on a pooled connection held by
  the task on PostgreSQL), and :attr:`Database.for_update` is the row-locking
  clause (``FOR UPDATE`` on PostgreSQL, nothing on SQLite);
* a violated constraint raises :class:`IntegrityError` on both (on SQLite it is also
  a ``sqlite3.IntegrityError``, as it always was); any other failure raises
  :class:`DatabaseError` (on SQLite also the ``sqlite3.Error`` it was). Both are
  :class:`StoreError`, so the bot's ``except StoreError`` catches every failure of
  either backend, and nothing above the store names a backend's errors.

``INSERT ... ON CONFLICT (...) DO UPDATE SET x = excluded.x`` is the same in both
dialects and is written as is. The schema history (``migrations/``, a module a step)
carries each step in both dialects.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

import aiosqlite

from bot.store.migrations import MIGRATIONS, Dialect, Migration, MigrationLike, as_migration

log = logging.getLogger(__name__)

T = TypeVar("T")

Params = Sequence[Any] | dict[str, Any]

POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")

GROUP_WINDOW = 0.05
"""Seconds a SQLite group commit stays open to more members while others wait. Without
it a steady stream of writers (a restart of 1,000 tables: every AI's move and every
click at once) kept one group open for seconds, and every member of it, a click's
move too, waited for its end: clicks answered only when deferred, 2 s late
(``python -m tools.bench_resume``)."""


def is_postgresql_url(location: str | Path) -> bool:
    """True if ``location`` (``RH_DATABASE``) names a PostgreSQL server, not a SQLite file."""
    return isinstance(location, str) and location.strip().lower().startswith(POSTGRESQL_SCHEMES)


# -- errors -----------------------------------------------------------------------------


class StoreError(Exception):
    """Base class of the errors raised by the store."""


class SchemaError(StoreError):
    """The database is newer than this code, or the migration list is malformed."""


class NestedTransactionError(StoreError):
    """``Database.transaction()`` was entered while the same task already held one."""


class TransactionRequired(StoreError):
    """A row lock was asked for outside a transaction (it would be released at once)."""


class DatabaseError(StoreError):
    """The database refused or failed a statement (PostgreSQL: any server, connection
    or protocol error, with the driver's exception as ``__cause__``)."""


class IntegrityError(DatabaseError):
    """A constraint was violated: nothing of the statement was written.

    ``kind`` is ``"unique"``, ``"foreign_key"``, ``"check"``, ``"not_null"`` or None
    (unknown); ``table`` and ``columns`` name what was violated when the database
    says (a unique or not-null violation names its columns on both backends);
    ``constraint`` is the constraint's name (PostgreSQL) or SQLite's description.
    """

    def __init__(
        self,
        message: str,
        *,
        kind: str | None = None,
        table: str | None = None,
        columns: tuple[str, ...] = (),
        constraint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.table = table
        self.columns = columns
        self.constraint = constraint


class _SQLiteIntegrityError(IntegrityError, sqlite3.IntegrityError):
    """SQLite's constraint failure: a store :class:`IntegrityError` that is still the
    ``sqlite3.IntegrityError`` it always was, with the same message."""


_SQLITE_KINDS = {
    "UNIQUE": "unique",
    "PRIMARY KEY": "unique",
    "FOREIGN KEY": "foreign_key",
    "CHECK": "check",
    "NOT NULL": "not_null",
}


def _sqlite_integrity(exc: sqlite3.IntegrityError) -> _SQLiteIntegrityError:
    """Describe SQLite's message, e.g. ``UNIQUE constraint failed: tables.channel_id``."""
    message = str(exc)
    kind = table = constraint = None
    columns: tuple[str, ...] = ()
    head, _, tail = message.partition(" constraint failed")
    if head in _SQLITE_KINDS:
        kind = _SQLITE_KINDS[head]
        detail = tail.removeprefix(":").strip()
        constraint = detail or None
        if kind in ("unique", "not_null") and detail:
            qualified = [part.strip() for part in detail.split(",")]
            if all("." in q for q in qualified):
                table = qualified[0].split(".", 1)[0]
                columns = tuple(q.split(".", 1)[1] for q in qualified)
    err = _SQLiteIntegrityError(
        message, kind=kind, table=table, columns=columns, constraint=constraint
    )
    for attr in ("sqlite_errorcode", "sqlite_errorname"):
        if hasattr(exc, attr):
            setattr(err, attr, getattr(exc, attr))
    return err


class _SQLiteError(DatabaseError, sqlite3.Error):
    """Any other failure of SQLite (a locked or full database, a disk error): a store
    :class:`DatabaseError` that is still the ``sqlite3.Error`` it was, same message."""


def _sqlite_error(exc: sqlite3.Error) -> _SQLiteError:
    err = _SQLiteError(str(exc))
    for attr in ("sqlite_errorcode", "sqlite_errorname"):
        if hasattr(exc, attr):
            setattr(err, attr, getattr(exc, attr))
    return err


@contextmanager
def _sqlite_errors() -> Iterator[None]:
    """SQLite's errors as the store's: one error type above the store for both backends."""
    try:
        yield
    except StoreError:
        raise
    except sqlite3.IntegrityError as exc:
        raise _sqlite_integrity(exc) from exc
    except sqlite3.Error as exc:
        raise _sqlite_error(exc) from exc


# -- rows ---------------------------------------------------------------------------------


class Row(Protocol):
    """A result row: ``row["column"]``, ``row[0]``, ``row.keys()``, ``dict(row)``.

    ``sqlite3.Row`` and ``asyncpg.Record`` both are one.
    """

    def __getitem__(self, key: int | str, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


# -- the interface ------------------------------------------------------------------------


class Database(ABC):
    """An open database with the bot's schema applied, SQLite or PostgreSQL.

    Open with ``await Database.open(location)`` and close with ``await db.close()``
    (or ``async with await Database.open(location) as db``).
    """

    dialect: ClassVar[Dialect]
    """``"sqlite"`` or ``"postgresql"``."""
    for_update: ClassVar[str]
    """Appended to a ``SELECT`` inside a transaction to lock the rows it reads until
    the transaction ends: ``" FOR UPDATE"`` on PostgreSQL, ``""`` on SQLite (whose
    write transaction already excludes every other writer)."""

    def __init__(self, location: str, clock: Callable[[], float]) -> None:
        self.path = location
        """Where the database is: the SQLite path, or the URL without its password."""
        self.clock = clock
        """Source of the ``created_at``/``updated_at`` timestamps (epoch seconds)."""
        self._closed = False

    # -- lifecycle --------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        location: str | Path,
        *,
        migrations: Sequence[MigrationLike] = MIGRATIONS,
        clock: Callable[[], float] = time.time,
    ) -> Database:
        """Open the database at ``location`` and migrate it to the latest schema.

        A ``postgresql://user:password@host:port/dbname`` URL connects to that
        PostgreSQL database (which must exist; the schema is created in it).
        Anything else is a SQLite file, created with its parent directory if
        needed; ``":memory:"`` gives a private in-memory database (tests).
        """
        if is_postgresql_url(location):
            from bot.store.postgres import PostgresDatabase

            return await PostgresDatabase.connect(
                str(location).strip(), migrations=migrations, clock=clock
            )
        return await SQLiteDatabase.connect(location, migrations=migrations, clock=clock)

    @abstractmethod
    async def close(self) -> None:
        """Close the connection(s) (idempotent)."""

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called."""
        return self._closed

    @staticmethod
    def _checked(migrations: Sequence[MigrationLike]) -> list[Migration]:
        steps = [as_migration(m) for m in migrations]
        versions = [m.version for m in steps]
        if versions != list(range(1, len(versions) + 1)):
            raise SchemaError(f"migrations must be numbered 1, 2, 3...; got {versions}")
        return steps

    def _too_new(self, current: int, steps: Sequence[Migration]) -> SchemaError:
        return SchemaError(
            f"database {self.path!r} is at schema version {current}, "
            f"newer than this code ({len(steps)})"
        )

    @abstractmethod
    async def user_version(self) -> int:
        """The schema version the database is at (the last migration applied)."""

    # -- transactions -------------------------------------------------------------

    @property
    @abstractmethod
    def in_transaction(self) -> bool:
        """True if the current task is inside :meth:`transaction`."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[None]:
        """``BEGIN`` ... ``COMMIT``, or ``ROLLBACK`` if the block raises.

        The transaction belongs to the task that opened it: its statements run in
        it, other tasks' statements never do (a task created inside the block does
        not join it). Nesting raises :class:`NestedTransactionError`; repositories
        that must be atomic but can also run inside a caller's transaction use
        :meth:`atomic`. A statement that fails inside a transaction ends it (the
        error escapes the block, which rolls back): never catch a store error
        inside the block and carry on.
        """

    @asynccontextmanager
    async def atomic(self) -> AsyncIterator[None]:
        """Join the current task's transaction if there is one, else open one."""
        if self.in_transaction:
            yield
        else:
            async with self.transaction():
                yield

    # -- statements -----------------------------------------------------------------

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return the number of rows it changed."""

    @abstractmethod
    async def execute_insert(self, sql: str, params: Params = ()) -> int:
        """Run one ``INSERT`` of one row into a table keyed by ``id``; return its id."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Params]) -> int:
        """Run one statement once per parameter set; return the rows changed
        (on PostgreSQL, which does not report it, the number of parameter sets)."""

    @abstractmethod
    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """Run a query and return its first row, or None."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query and return every row."""

    async def fetchval(self, sql: str, params: Params = ()) -> Any:
        """Run a query and return the first column of its first row, or None."""
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]


# -- SQLite -----------------------------------------------------------------------------------


class SQLiteDatabase(Database):
    """SQLite through one aiosqlite connection in autocommit mode.

    ``isolation_level=None``: every statement outside a transaction commits on its
    own, and :meth:`transaction` is the only way to group statements. Because the
    connection is shared by every task, a transaction holds an ``asyncio.Lock``
    while it runs: statements issued by other tasks meanwhile wait for it instead
    of landing inside someone else's transaction. The task that owns the
    transaction runs its statements directly. Transactions that queue up commit
    together (group commit, see :meth:`transaction`).
    """

    dialect = "sqlite"
    for_update = ""

    def __init__(self, conn: aiosqlite.Connection, path: str, clock: Callable[[], float]) -> None:
        super().__init__(path, clock)
        self._conn = conn
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._batch: asyncio.Future[None] | None = (
            None  # the open group's COMMIT, if a group is open
        )
        self._queued = 0  # transaction() callers waiting for the lock
        self._opened = 0.0  # loop time the open group began
        self._orphans: set[asyncio.Task[None]] = set()

    @classmethod
    async def connect(
        cls,
        path: str | Path,
        *,
        migrations: Sequence[MigrationLike] = MIGRATIONS,
        clock: Callable[[], float] = time.time,
    ) -> SQLiteDatabase:
        """Open (creating if needed) the SQLite file at ``path`` and migrate it.

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

    async def _migrate(self, migrations: Sequence[MigrationLike]) -> None:
        steps = self._checked(migrations)
        current = await self.user_version()
        if current > len(steps):
            raise self._too_new(current, steps)
        for step in steps[current:]:
            log.info("migrating %s to schema version %d", self.path, step.version)
            # executescript() would COMMIT any open transaction first, so the
            # BEGIN/COMMIT live inside the script; on error we roll back here.
            script = (
                f"BEGIN IMMEDIATE;\n{step.sql('sqlite')}\n"
                f"PRAGMA user_version = {step.version};\nCOMMIT;"
            )
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
        """A unit of work that lands whole or not at all, durable when the block exits.

        Group commit: transactions that arrive while another is running join one
        SQLite transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``), each inside its own
        ``SAVEPOINT``, and the group commits when no further transaction waits, or
        once it has been open :data:`GROUP_WINDOW` (the next waiting one begins the
        next group): a steady stream of writers never holds a member back for long.
        With ``synchronous = FULL`` each COMMIT waits for the disk; under load one
        fsync then serves many moves instead of one each. Each member still:

        * runs alone (other tasks' statements wait for it), and sees only what
          committed before it plus what earlier members of its group wrote;
        * is undone alone if its block raises (``ROLLBACK TO`` its savepoint);
        * returns only once its group's COMMIT is on disk, and raises if that
          COMMIT fails (then no member of the group was written).

        IMMEDIATE takes the write lock at the start, so a transaction never fails
        half-way with SQLITE_BUSY on its first write, and no other writer (task or
        process) runs until the group ends. Inside a transaction never await a task
        that itself uses the database (that would deadlock).
        """
        if self._in_own_transaction():
            raise NestedTransactionError("transaction() is already open in this task")
        self._queued += 1
        try:
            await self._lock.acquire()
        except BaseException:
            self._queued -= 1
            self._commit_if_abandoned()
            raise
        self._queued -= 1
        batch: asyncio.Future[None] | None = None
        ok = False
        try:
            with _sqlite_errors():
                if self._batch is None:
                    await self._run("BEGIN IMMEDIATE", ())
                    self._batch = asyncio.get_running_loop().create_future()
                    self._opened = asyncio.get_running_loop().time()
                batch = self._batch
                await self._run("SAVEPOINT member", ())
            self._owner = asyncio.current_task()
            try:
                yield
            except BaseException:
                await self._undo_member()
                raise
            with _sqlite_errors():
                await self._run("RELEASE member", ())
            ok = True
        finally:
            self._owner = None
            try:
                if self._batch is not None and (
                    self._queued == 0
                    or asyncio.get_running_loop().time() - self._opened >= GROUP_WINDOW
                ):
                    # nobody waits to join, or the group is old enough: it ends here
                    await self._commit_batch()
            finally:
                self._lock.release()
        if ok and batch is not None:
            await asyncio.shield(batch)  # durable (or failed) with the whole group

    async def _undo_member(self) -> None:
        """Take back what the current member wrote; if SQLite already abandoned the
        whole transaction (a disk error), the group has failed."""
        try:
            if self._conn.in_transaction:
                await self._run("ROLLBACK TO member", ())
                await self._run("RELEASE member", ())
                return
        except sqlite3.Error:
            log.warning(
                "could not roll back to the savepoint; the group is abandoned", exc_info=True
            )
        await self._fail_batch(StoreError("the transaction was abandoned by SQLite"))

    async def _commit_batch(self) -> None:
        """COMMIT the open group and settle its future. Shielded: a member cancelled
        here must not leave the group's other members without an answer (aiosqlite
        runs statements in queue order, so the COMMIT already queued lands first)."""
        batch, self._batch = self._batch, None
        assert batch is not None
        task = asyncio.get_running_loop().create_task(self._end_group(batch))
        self._orphans.add(task)
        task.add_done_callback(self._orphans.discard)
        await asyncio.shield(task)

    async def _end_group(self, batch: asyncio.Future[None]) -> None:
        try:
            with _sqlite_errors():
                await self._conn.commit()
        except Exception as exc:
            self._batch = batch
            await self._fail_batch(exc)
        else:
            if not batch.done():
                batch.set_result(None)

    async def _fail_batch(self, exc: BaseException) -> None:
        batch, self._batch = self._batch, None
        if self._conn.in_transaction:
            try:
                await self._conn.rollback()
            except sqlite3.Error:
                log.warning("rollback after a failed group commit failed", exc_info=True)
        if batch is not None and not batch.done():
            failure = (
                exc if isinstance(exc, Exception) else StoreError("the transaction was interrupted")
            )
            batch.set_exception(failure)
            batch.exception()  # a member that raised itself never awaits it: mark it seen

    def _commit_if_abandoned(self) -> None:
        """A queued member gave up waiting (cancelled): if the group it was to join
        now has nobody left to end it, end it from a task of its own."""
        if self._batch is not None and self._queued == 0:

            async def finish() -> None:
                async with self._lock:
                    if self._batch is not None and self._queued == 0:
                        await self._commit_batch()

            task = asyncio.get_running_loop().create_task(finish())
            self._orphans.add(task)
            task.add_done_callback(self._orphans.discard)

    @asynccontextmanager
    async def _statement(self) -> AsyncIterator[None]:
        # Outside a transaction, wait for any other task's transaction to finish.
        # If a group is still open (a member is queued behind us), the statement
        # joins it and returns once the group is durable, like a member.
        with _sqlite_errors():
            if self._in_own_transaction():
                yield
                return
            async with self._lock:
                batch = self._batch
                yield
            if batch is not None:
                await asyncio.shield(batch)

    # -- statements -----------------------------------------------------------------

    # Each statement is one trip to aiosqlite's thread, its cursor closed there (as
    # aiosqlite's own execute_fetchall and execute_insert do). A second trip to close
    # it would double the thread hand-offs, and each costs the event loop a wait for
    # the GIL (the 200-game benchmark makes about 2,000 a second).

    async def _run(self, sql: str, params: Any, many: bool = False) -> int:
        """Run a statement on aiosqlite's thread and close its cursor there: one trip.

        The cursor must never reach this thread: a sqlite3 cursor freed here, while
        the database thread runs the same cached statement for someone else, resets
        it under that statement ("bad parameter or other API misuse")."""
        run: Any = self._conn._execute  # aiosqlite's own "call this on the database thread"
        rowcount: int = await run(_run_and_close, self._conn._conn, sql, params, many)
        return rowcount

    async def execute(self, sql: str, params: Params = ()) -> int:
        async with self._statement():
            return await self._run(sql, params)

    async def execute_insert(self, sql: str, params: Params = ()) -> int:
        async with self._statement():
            row = await self._conn.execute_insert(sql, params)
        assert row is not None
        return int(row[0])

    async def executemany(self, sql: str, rows: Iterable[Params]) -> int:
        async with self._statement():
            return await self._run(sql, list(rows), many=True)

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        async with self._statement():
            rows = await self._conn.execute_fetchall(sql, params)
        for row in rows:
            found: sqlite3.Row = row
            return found
        return None

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._statement():
            return list(await self._conn.execute_fetchall(sql, params))


def _run_and_close(conn: sqlite3.Connection, sql: str, params: Any, many: bool) -> int:
    """On the database thread: run one statement, close its cursor, return its rowcount."""
    cursor = conn.executemany(sql, params) if many else conn.execute(sql, params)
    try:
        return cursor.rowcount
    finally:
        cursor.close()


async def see_through(aw: Awaitable[T]) -> T:
    """Await ``aw`` even if we are cancelled meanwhile (then re-raise the cancel).

    A COMMIT that was sent (or a statement that is its own transaction) must be seen
    through: leaving it half-way would hand the connection back to the pool
    mid-command and leave the caller unsure whether the write landed.
    """
    task = asyncio.ensure_future(aw)
    cancelled = False
    while True:
        try:
            result = await asyncio.shield(task)
            break
        except asyncio.CancelledError:
            if task.done():
                raise
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    return result


# -- placeholders ------------------------------------------------------------------------------

# A quoted string, a quoted identifier, a dollar-quoted body or a comment (kept as
# they are), or a ``?`` placeholder (numbered).
_TOKENS = re.compile(
    r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|\$\$.*?\$\$|--[^\n]*|/\*.*?\*/|\?""",
    re.DOTALL,
)


def numbered_placeholders(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...``, outside quotes and comments."""
    counter = 0

    def number(match: re.Match[str]) -> str:
        nonlocal counter
        if match.group(0) != "?":
            return match.group(0)
        counter += 1
        return f"${counter}"

    return _TOKENS.sub(number, sql)
