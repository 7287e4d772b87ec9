"""Database: migrations, transactions, durability, on both backends; SQLite's pragmas."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.store import (
    Database,
    DatabaseError,
    NestedTransactionError,
    SchemaError,
    SQLiteDatabase,
    StoreError,
)
from bot.store.migrations import LATEST_VERSION, MIGRATIONS
from bot.store.postgres import PostgresDatabase

REPO_ROOT = Path(__file__).resolve().parents[2]


async def table_names(db: Database) -> set[str]:
    if db.dialect == "postgresql":
        rows = await db.fetchall(
            "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()"
        )
    else:
        rows = await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {r["name"] for r in rows}


async def schema(db: Database) -> list[tuple[object, ...]]:
    """Every table, column, index and constraint, as the database describes them."""
    if db.dialect == "postgresql":
        rows = await db.fetchall(
            "SELECT 'column', table_name, column_name, data_type, is_nullable, column_default"
            " FROM information_schema.columns WHERE table_schema = current_schema()"
            " UNION ALL SELECT 'index', tablename, indexname, indexdef, '', ''"
            " FROM pg_indexes WHERE schemaname = current_schema()"
            " UNION ALL SELECT 'constraint', conrelid::regclass::text, conname,"
            " pg_get_constraintdef(oid), '', '' FROM pg_constraint"
            " WHERE connamespace = current_schema()::regnamespace"
            " ORDER BY 1, 2, 3"
        )
    else:
        rows = await db.fetchall("SELECT type, name, sql FROM sqlite_master ORDER BY name")
    return [tuple(r) for r in rows]


async def force_version(db: Database, version: int) -> None:
    if db.dialect == "postgresql":
        await db.execute("UPDATE schema_version SET version = ?", (version,))
    else:
        await db.execute(f"PRAGMA user_version = {version}")


async def test_the_location_picks_the_backend(location: str, backend: str) -> None:
    db = await Database.open(location)
    try:
        expected = PostgresDatabase if backend == "postgresql" else SQLiteDatabase
        assert type(db) is expected
        assert db.dialect == backend
        assert await db.user_version() == LATEST_VERSION
        assert {"tables", "actions", "hand_messages", "results", "deadlines"} <= (
            await table_names(db)
        )
    finally:
        await db.close()
    assert db.closed
    await db.close()  # idempotent


async def test_open_creates_parent_dir_and_schema(db_path: Path) -> None:
    assert not db_path.parent.exists()
    db = await Database.open(db_path)
    try:
        assert db_path.exists()
        assert await db.user_version() == LATEST_VERSION
        assert {"tables", "actions", "hand_messages", "results", "deadlines"} <= (
            await table_names(db)
        )
    finally:
        await db.close()


async def test_pragmas(db_path: Path) -> None:
    db = await Database.open(db_path)
    try:
        assert await db.fetchval("PRAGMA journal_mode") == "wal"
        assert await db.fetchval("PRAGMA foreign_keys") == 1
        assert await db.fetchval("PRAGMA synchronous") == 2  # FULL
        assert await db.fetchval("PRAGMA busy_timeout") == 5000
        assert Path(f"{db_path}-wal").exists()  # the migration was written through the WAL
    finally:
        await db.close()


async def test_wal_persists_in_file(db_path: Path) -> None:
    db = await Database.open(db_path)
    await db.close()
    # journal_mode=WAL is a property of the file: a plain connection sees it too.
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_migrations_are_idempotent(location: str) -> None:
    db = await Database.open(location)
    await db.execute(
        "INSERT INTO tables (guild_id, channel_id, creator_id, game_id, preset, seed, seats,"
        " created_at, updated_at) VALUES (1, 2, 3, 'ruff', 'cotton', 7, '[null,null,null,null]',"
        " 0, 0)"
    )
    before = await schema(db)
    assert len(before) > 10
    await db.close()

    for _ in range(2):
        db = await Database.open(location)
        try:
            assert await db.user_version() == LATEST_VERSION
            assert await schema(db) == before
            assert await db.fetchval("SELECT COUNT(*) FROM tables") == 1
        finally:
            await db.close()


async def test_memory_database_is_migrated() -> None:
    db = await Database.open(":memory:")
    try:
        assert await db.user_version() == LATEST_VERSION
        assert "actions" in await table_names(db)
    finally:
        await db.close()


async def test_newer_database_is_refused(location: str) -> None:
    db = await Database.open(location)
    await force_version(db, 99)
    await db.close()
    with pytest.raises(SchemaError, match="newer"):
        await Database.open(location)


async def test_failed_migration_rolls_back_entirely(location: str) -> None:
    broken = [
        *MIGRATIONS,
        (LATEST_VERSION + 1, "CREATE TABLE half_done (x INTEGER); SELECT * FROM no_such_table;"),
    ]
    with pytest.raises(Exception, match="no_such_table"):
        await Database.open(location, migrations=broken)
    db = await Database.open(location)
    try:
        assert await db.user_version() == LATEST_VERSION
        assert "half_done" not in await table_names(db)
    finally:
        await db.close()


async def test_migrations_must_be_numbered_in_order(location: str) -> None:
    with pytest.raises(SchemaError):
        await Database.open(location, migrations=[(2, "SELECT 1"), (1, "SELECT 1")])


async def test_every_backend_failure_is_caught_by_the_bots_handlers(db: Database) -> None:
    """The bot catches ``StoreError`` around every write: one error type, both backends."""
    with pytest.raises(StoreError) as err:
        await db.execute("INSERT INTO no_such_table VALUES (1)")
    assert isinstance(err.value, DatabaseError)
    if db.dialect == "sqlite":
        assert isinstance(err.value, sqlite3.Error)  # still the error it was, same message
        assert "no_such_table" in str(err.value)
    # the database is still usable afterwards, in and out of transactions
    async with db.transaction():
        assert await db.fetchval("SELECT COUNT(*) FROM tables") == 0
    with pytest.raises(StoreError):
        async with db.transaction():
            await db.execute("INSERT INTO no_such_table VALUES (1)")
    assert await db.fetchval("SELECT 1 + 1") == 2


async def test_transaction_commits_and_rolls_back(db: Database) -> None:
    await db.execute("CREATE TABLE t (x INTEGER)")
    async with db.transaction():
        await db.execute("INSERT INTO t VALUES (1)")
    with pytest.raises(RuntimeError):
        async with db.transaction():
            await db.execute("INSERT INTO t VALUES (2)")
            raise RuntimeError("boom")
    assert [r["x"] for r in await db.fetchall("SELECT x FROM t")] == [1]


async def test_nested_transaction_raises(db: Database) -> None:
    await db.execute("CREATE TABLE t (x INTEGER)")
    with pytest.raises(NestedTransactionError):
        async with db.transaction():
            await db.execute("INSERT INTO t VALUES (1)")
            async with db.transaction():
                pass
    # The outer transaction was rolled back by the error escaping it.
    assert await db.fetchval("SELECT COUNT(*) FROM t") == 0


async def test_atomic_joins_an_open_transaction(db: Database) -> None:
    await db.execute("CREATE TABLE t (x INTEGER)")
    with pytest.raises(RuntimeError):
        async with db.transaction():
            async with db.atomic():
                await db.execute("INSERT INTO t VALUES (1)")
            raise RuntimeError("outer fails after the inner block")
    assert await db.fetchval("SELECT COUNT(*) FROM t") == 0


async def test_other_tasks_stay_out_of_a_transaction(db: Database) -> None:
    """A statement from another task must not land inside someone else's transaction.

    SQLite (one shared connection) makes it wait for the transaction; PostgreSQL
    runs it at once on another connection of the pool.
    """
    await db.execute("CREATE TABLE t (x INTEGER)")
    inside = asyncio.Event()
    release = asyncio.Event()

    async def failing_transaction() -> None:
        with pytest.raises(RuntimeError):
            async with db.transaction():
                await db.execute("INSERT INTO t VALUES (1)")
                inside.set()
                await release.wait()
                raise RuntimeError("roll back")

    async def bystander() -> None:
        await inside.wait()
        await db.execute("INSERT INTO t VALUES (2)")

    a = asyncio.create_task(failing_transaction())
    b = asyncio.create_task(bystander())
    await inside.wait()
    if db.dialect == "sqlite":
        await asyncio.sleep(0.05)
        assert not b.done()  # blocked until the transaction ends
    else:
        # its own connection: it commits while ours is still open
        await asyncio.wait_for(asyncio.shield(b), timeout=10)
        assert not a.done()
    release.set()
    await asyncio.gather(a, b)
    assert [r["x"] for r in await db.fetchall("SELECT x FROM t")] == [2]


async def test_a_task_started_inside_a_transaction_does_not_join_it(db: Database) -> None:
    await db.execute("CREATE TABLE t (x INTEGER)")

    async def child() -> bool:
        return db.in_transaction

    async with db.transaction():
        assert db.in_transaction
        assert await child() is True  # same task
        # another task: not in our transaction (it would wait for it on SQLite)
        task = asyncio.create_task(child())
        assert await task is False
    assert not db.in_transaction


CRASHING_WRITER = textwrap.dedent(
    """
    import asyncio, os, sys
    from bot.store import Database, TableRepo, ActionRepo, NewAction

    async def main(path):
        db = await Database.open(path)
        tables, actions = TableRepo(db), ActionRepo(db)
        t = await tables.create_lobby(guild_id=1, channel_id=2, creator_id=3,
                                      game_id="ruff_and_honours", preset="cotton", seed=42)
        v = await tables.set_status(t.id, "active", t.version)
        v = await actions.append(t.id, v, [NewAction(1, "play:10H", 3),
                                           NewAction(2, "play:QH", None)])
        # An acknowledged move is committed; this one is still in flight:
        async with db.transaction():
            await db.execute(
                "INSERT INTO actions VALUES (?, 2, 3, 'play:2H', NULL, 0)", (t.id,))
            print(t.id, v, flush=True)
            os._exit(0)  # die without COMMIT, close or checkpoint

    asyncio.run(main(sys.argv[1]))
    """
)


async def test_committed_actions_survive_a_crash(location: str, backend: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", CRASHING_WRITER, location],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    table_id, version = map(int, proc.stdout.split())
    if backend == "sqlite":
        assert Path(f"{location}-wal").exists()  # the commits were never checkpointed

    db = await Database.open(location)
    try:
        rows = await db.fetchall(
            "SELECT seq, action FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
        )
        assert [(r["seq"], r["action"]) for r in rows] == [(0, "play:10H"), (1, "play:QH")]
        assert await db.fetchval("SELECT version FROM tables WHERE id = ?", (table_id,)) == (
            version
        )
        if backend == "sqlite":
            assert await db.fetchval("PRAGMA integrity_check") == "ok"
            assert await db.fetchall("PRAGMA foreign_key_check") == []
    finally:
        await db.close()


async def test_a_table_stored_before_record_version_2_replays_as_it_was_played(
    location: str,
) -> None:
    # Bid Whist's first dealer changed with record version 2: a game stored
    # before must keep its first dealer, or its log no longer replays
    from bot.store.moves import ActionRepo
    from bot.store.tables import TableRepo
    from engine import RECORD_VERSION, Game, new_game

    seed = next(s for s in range(100) if _first_dealers(s)[0] != _first_dealers(s)[1])
    old, _ = new_game("bid-whist", seed=seed, record_version=1)
    rng = random.Random(seed)
    for _ in range(6):
        seat = old.to_act()
        assert seat is not None
        old.apply(seat, rng.choice(old.legal_actions(seat)))
    before = [m for m in MIGRATIONS if m.version < 6]
    db = await Database.open(location, migrations=before)
    try:
        await db.execute(
            "INSERT INTO tables (guild_id, channel_id, creator_id, game_id, preset, seed, status,"
            " seats, created_at, updated_at) VALUES (1, 2, 3, 'bid-whist', ?, ?, 'active',"
            " '[null,null,null,null]', 0, 0)",
            (old.rules.preset, seed),
        )
        for seq, (seat, action) in enumerate(old.log):
            await db.execute(
                "INSERT INTO actions (table_id, seq, seat, action, created_at)"
                " VALUES (1, ?, ?, ?, 0)",
                (seq, seat, action.encode()),
            )
    finally:
        await db.close()
    db = await Database.open(location)
    try:
        row = await TableRepo(db).require(1)
        assert row.record_version == 1
        game = Game.from_record(row.record(await ActionRepo(db).list(1)))
        assert game.state_key() == old.state_key()
        new = await TableRepo(db).create_lobby(
            guild_id=1, channel_id=9, creator_id=3, game_id="bid-whist", preset="default", seed=1
        )
        assert new.record_version == RECORD_VERSION == 2
    finally:
        await db.close()


def _first_dealers(seed: int) -> tuple[int, int]:
    from engine import new_game

    return tuple(  # type: ignore[return-value]
        new_game("bid-whist", seed=seed, record_version=v)[0].dealer for v in (1, 2)
    )
