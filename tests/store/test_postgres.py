"""What only the PostgreSQL backend has: placeholders, the pool, errors, migrating
from several processes at once, cancellation."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Database, DatabaseError, StoreError, TableRepo, is_postgresql_url
from bot.store.db import numbered_placeholders
from bot.store.migrations import LATEST_VERSION
from bot.store.postgres import PostgresDatabase, redact

from .pgserver import PostgresServer, free_port


def test_placeholders_are_numbered_outside_quotes_and_comments() -> None:
    sql = "SELECT '?', \"odd?name\", ? -- why?\n , ?, 'it''s ?', $$ ? $$, /* ? */ ?"
    assert numbered_placeholders(sql) == (
        "SELECT '?', \"odd?name\", $1 -- why?\n , $2, 'it''s ?', $$ ? $$, /* ? */ $3"
    )


def test_which_locations_are_postgresql() -> None:
    assert is_postgresql_url("postgresql://u@h/db")
    assert is_postgresql_url("postgres://u@h/db")
    assert is_postgresql_url(" PostgreSQL://u@h/db")
    for sqlite in ("data/ruff.db", ":memory:", "/var/postgresql/ruff.db", "postgresql.db"):
        assert not is_postgresql_url(sqlite)


def test_the_password_never_shows() -> None:
    assert redact("postgresql://bot:s3cret@db.example:5432/ruff") == (
        "postgresql://bot:***@db.example:5432/ruff"
    )
    assert redact("postgresql://bot@db.example/ruff") == "postgresql://bot@db.example/ruff"


async def test_path_is_the_url_without_password(pg_server: PostgresServer, pg_url: str) -> None:
    with_password = pg_url.replace("postgres@", "postgres:hunter2@")  # trust auth ignores it
    db = await Database.open(with_password)
    try:
        assert isinstance(db, PostgresDatabase)
        assert "hunter2" not in db.path and "***" in db.path
    finally:
        await db.close()


async def test_an_unreachable_server_is_a_store_error() -> None:
    with pytest.raises(DatabaseError) as err:
        await Database.open(f"postgresql://postgres@127.0.0.1:{free_port()}/nothing")
    assert isinstance(err.value, StoreError)


async def test_processes_starting_together_migrate_once(pg_url: str) -> None:
    dbs = await asyncio.gather(*(Database.open(pg_url) for _ in range(4)))
    try:
        assert [await db.user_version() for db in dbs] == [LATEST_VERSION] * 4
        assert await dbs[0].fetchval("SELECT COUNT(*) FROM schema_version") == 1
    finally:
        for db in dbs:
            await db.close()


async def test_a_cancelled_transaction_rolls_back_and_frees_its_connection(pg_url: str) -> None:
    db = await Database.open(pg_url)
    try:
        inside = asyncio.Event()

        async def writer() -> None:
            async with db.transaction():
                await TableRepo(db).create_lobby(
                    guild_id=1, channel_id=2, creator_id=3, game_id="g", preset="p", seed=4
                )
                inside.set()
                await asyncio.sleep(60)

        task = asyncio.create_task(writer())
        await inside.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await TableRepo(db).list_unfinished() == []
        # every connection is back in the pool and usable
        assert await asyncio.gather(*(db.fetchval("SELECT 1") for _ in range(20))) == [1] * 20
    finally:
        await db.close()


async def test_transactions_of_different_tasks_run_side_by_side(pg_url: str) -> None:
    """Unlike SQLite's one connection, two tables' commits do not queue behind each other."""
    db = await Database.open(pg_url)
    try:
        both = asyncio.Barrier(2)

        async def one(channel: int) -> int:
            async with db.transaction():
                table = await TableRepo(db).create_lobby(
                    guild_id=1, channel_id=channel, creator_id=3, game_id="g", preset="p", seed=4
                )
                await asyncio.wait_for(both.wait(), timeout=5)  # both are inside at once
                return table.id

        ids = await asyncio.gather(one(10), one(11))
        assert len({*ids}) == 2
        assert len(await TableRepo(db).list_unfinished()) == 2
    finally:
        await db.close()
