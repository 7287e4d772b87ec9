"""SQLite group commit: transactions that queue up share one COMMIT (one fsync),
yet each lands whole or not at all and is on disk when its block exits."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.store import Database, StoreError
from bot.store.db import SQLiteDatabase

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS t_parent (id INTEGER PRIMARY KEY);"
    "CREATE TABLE IF NOT EXISTS t_child (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES t_parent (id))"
)


@pytest.fixture
async def sqlite_db(db_path: Path) -> Any:
    db = await Database.open(db_path)
    assert isinstance(db, SQLiteDatabase)
    for statement in SCHEMA.split(";"):
        await db.execute(statement)
    yield db
    await db.close()


def committed_rows(path: Path) -> set[int]:
    """What another connection (another process, after a crash) sees on disk."""
    conn = sqlite3.connect(path)
    try:
        return {r[0] for r in conn.execute("SELECT id FROM t_parent")}
    finally:
        conn.close()


def count_commits(db: SQLiteDatabase) -> list[int]:
    """Counts the COMMITs the database issues (the connection's own commit, wrapped)."""
    commits = [0]
    real = db._conn.commit

    async def commit() -> None:
        commits[0] += 1
        await real()

    db._conn.commit = commit  # type: ignore[method-assign]
    return commits


async def test_queued_transactions_share_commits_and_each_is_on_disk_when_it_returns(
    sqlite_db: SQLiteDatabase, db_path: Path
) -> None:
    commits = count_commits(sqlite_db)
    seen_on_return: dict[int, bool] = {}

    async def move(i: int) -> None:
        async with sqlite_db.transaction():
            await sqlite_db.execute("INSERT INTO t_parent (id) VALUES (?)", (i,))
            await asyncio.sleep(0)  # let the others queue up behind this one
        seen_on_return[i] = i in committed_rows(db_path)

    await asyncio.gather(*(move(i) for i in range(40)))
    assert all(seen_on_return.values()) and len(seen_on_return) == 40
    assert committed_rows(db_path) == set(range(40))
    assert 1 <= commits[0] < 40, f"{commits[0]} commits for 40 queued transactions"


async def test_a_member_that_raises_is_undone_alone(
    sqlite_db: SQLiteDatabase, db_path: Path
) -> None:
    async def good(i: int) -> None:
        async with sqlite_db.transaction():
            await sqlite_db.execute("INSERT INTO t_parent (id) VALUES (?)", (i,))
            await asyncio.sleep(0)

    async def bad() -> None:
        async with sqlite_db.transaction():
            await sqlite_db.execute("INSERT INTO t_parent (id) VALUES (100)")
            await asyncio.sleep(0)
            raise ValueError("the engine refused the move")

    results = await asyncio.gather(good(1), bad(), good(2), good(3), return_exceptions=True)
    assert [type(r) for r in results] == [type(None), ValueError, type(None), type(None)]
    assert committed_rows(db_path) == {1, 2, 3}


async def test_a_failed_commit_fails_every_member_and_writes_none(
    sqlite_db: SQLiteDatabase, db_path: Path
) -> None:
    """A deferred foreign key is checked at COMMIT: the group's commit really fails."""

    async def good(i: int) -> None:
        async with sqlite_db.transaction():
            await sqlite_db.execute("INSERT INTO t_parent (id) VALUES (?)", (i,))
            await asyncio.sleep(0)

    async def dangling() -> None:
        async with sqlite_db.transaction():
            await sqlite_db.execute("PRAGMA defer_foreign_keys = ON")
            await sqlite_db.execute("INSERT INTO t_child (id, parent) VALUES (1, 999)")
            await asyncio.sleep(0)

    results = await asyncio.gather(good(1), dangling(), good(2), return_exceptions=True)
    assert all(isinstance(r, StoreError) for r in results), results
    assert committed_rows(db_path) == set()
    async with sqlite_db.transaction():  # the database is usable again
        await sqlite_db.execute("INSERT INTO t_parent (id) VALUES (7)")
    assert committed_rows(db_path) == {7}


async def test_a_plain_statement_between_members_is_durable_when_it_returns(
    sqlite_db: SQLiteDatabase, db_path: Path
) -> None:
    on_return: list[bool] = []

    async def member(i: int) -> None:
        async with sqlite_db.transaction():
            await sqlite_db.execute("INSERT INTO t_parent (id) VALUES (?)", (i,))
            await asyncio.sleep(0)

    async def plain() -> None:
        await sqlite_db.execute("INSERT INTO t_parent (id) VALUES (50)")
        on_return.append(50 in committed_rows(db_path))

    await asyncio.gather(member(1), plain(), member(2), member(3))
    assert on_return == [True]
    assert committed_rows(db_path) == {1, 2, 3, 50}


async def test_a_steady_stream_of_writers_does_not_hold_back_the_first(
    sqlite_db: SQLiteDatabase, db_path: Path
) -> None:
    """A click's move is on disk (and answered) soon, even while other writers keep
    queueing behind it: a group commits once it has been open GROUP_WINDOW."""
    from bot.store.db import GROUP_WINDOW

    loop = asyncio.get_running_loop()
    started = loop.time()
    returned: dict[int, float] = {}

    async def move(i: int) -> None:
        async with sqlite_db.transaction():
            await sqlite_db.execute("INSERT INTO t_parent (id) VALUES (?)", (i,))
            await asyncio.sleep(0.01)  # each writer takes a while: the queue stays long
        returned[i] = loop.time() - started
        assert i in committed_rows(db_path)  # durable when it returns

    await asyncio.gather(*(move(i) for i in range(60)))
    assert committed_rows(db_path) == set(range(60))
    last = max(returned.values())
    assert last >= 0.5  # the stream lasted 60 x 10 ms
    assert returned[0] < GROUP_WINDOW + 0.2 < last / 2, returned
