"""Fixtures for the store tests: a real SQLite file under tmp_path."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Database


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


@pytest.fixture
async def db(db_path: Path, clock: FakeClock) -> AsyncIterator[Database]:
    database = await Database.open(db_path, clock=clock)
    try:
        yield database
    finally:
        await database.close()
