"""Fixtures: the real bot on a real SQLite file, driven by the simcord simulator."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app.client import RuffBot, create_bot
from bot.config import Settings

AI_WORLDS = 16  # the searching AI levels look at this many deals a decision in tests
HOUSEKEEPING = 3600.0  # seconds: retiring ended tables, sweeping challenges (> any settle_timeout)


def make_settings(db_path: Path, **overrides: Any) -> Settings:
    base: dict[str, Any] = {
        "database": str(db_path),
        "ai_delay": 0.0,
        "turn_timeout": 0.0,
        "turn_ping_delay": 0.0,  # pinged at once (the delay has tests of its own)
        "lobby_timeout": 0.0,
        "table_edit_interval": 0.0,
        "ai_mode": "inline",  # decisions in the test's loop, bounded by worlds: reproducible
        "ai_worlds": AI_WORLDS,
        # the card buttons' text labels (A♠︎); the suit emojis have tests of their own
        "card_emojis": False,
        # housekeeping sleeps past any settle's deadline: a settle waits, in real time, for
        # every sleep that ends before its deadline (tests/test_idle_settles.py)
        "ended_kept": HOUSEKEEPING,
        "challenge_check_every": HOUSEKEEPING,
        "event_sweep_every": HOUSEKEEPING,
    }
    base.update(overrides)
    return Settings(**base)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "ruff.db"


@pytest.fixture
def bot_settings() -> dict[str, Any]:
    """Override per test (e.g. via indirect parametrisation) to change settings."""
    return {}


@pytest.fixture
async def more_bots() -> AsyncIterator[list[RuffBot]]:
    """Bots a test builds itself (restarts). Closed after the simulator shut down,
    also when the test fails: an open database thread would hang pytest at exit."""
    bots: list[RuffBot] = []
    yield bots
    for bot in bots:
        await bot.close()


@pytest.fixture
async def simcord_bot(
    db_path: Path, bot_settings: dict[str, Any], more_bots: list[RuffBot]
) -> AsyncIterator[RuffBot]:
    bot = create_bot(make_settings(db_path, **bot_settings))
    yield bot
    await bot.close()  # simcord never closes the bot; this also closes the database


async def restart(env: Any, more_bots: list[RuffBot], settings: Settings) -> RuffBot:
    """Restart on a new bot instance (same world, same database); close the old one."""
    old = env.bot
    new = create_bot(settings)
    more_bots.append(new)
    await env.restart_bot(new)
    await old.close()
    return new
