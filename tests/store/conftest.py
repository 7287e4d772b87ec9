"""Fixtures for the store tests: every contract test runs against both backends.

``db`` (and ``location``) are parametrized: ``[sqlite]`` is a real SQLite file under
tmp_path, ``[postgresql]`` a fresh database on a throwaway PostgreSQL server
started once per session from the machine's binaries (see ``pgserver.py``). A
server that cannot start fails those tests loudly; they are never skipped.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

from bot.store import Database

from .pgserver import PostgresServer

BACKENDS = ["sqlite", "postgresql"]


class FakeClock:
    """A clock that only moves when told (``tick``) so timestamps are predictable."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def tick(self, seconds: float = 1.0) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "ruff.db"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server (started on first use, stopped at the end)."""
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


_names = itertools.count(1)


@pytest.fixture
async def pg_url(pg_server: PostgresServer) -> AsyncIterator[str]:
    """A new empty database on the test server, dropped after the test."""
    name = f"rh_test_{next(_names)}"
    admin = await asyncpg.connect(pg_server.url())
    try:
        # FILE_COPY: a plain copy of the small template, far quicker than WAL_LOG here
        await admin.execute(f"CREATE DATABASE {name} STRATEGY FILE_COPY")
    finally:
        await admin.close()
    try:
        yield pg_server.url(name)
    finally:
        admin = await asyncpg.connect(pg_server.url())
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await admin.close()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def location(backend: str, request: pytest.FixtureRequest) -> str:
    """Where the test's database is: a SQLite path or a PostgreSQL URL."""
    if backend == "postgresql":
        return str(request.getfixturevalue("pg_url"))
    return str(request.getfixturevalue("db_path"))


@pytest.fixture
async def db(location: str, clock: FakeClock) -> AsyncIterator[Database]:
    database = await Database.open(location, clock=clock)
    try:
        yield database
    finally:
        await database.close()
