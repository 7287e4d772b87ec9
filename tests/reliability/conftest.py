"""Fixtures for the reliability suite: the real bot on a real SQLite file, in simcord.

Adapted from ``tests/bot/conftest.py``. Timers are on by default here (the suite is
about them); tests that do not want them pass ``bot_settings``.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import AsyncIterator, Iterator
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
        "turn_ping_delay": -1.0,  # no turn pings: a post and a delete per turn of 100 racing tables
        "pictures": False,  # clicks, crashes and the store are tested here; pictures in tests/bot
        "lobby_timeout": 0.0,
        "table_edit_interval": 0.0,
        "ai_mode": "inline",  # decisions in the test's loop, bounded by worlds: reproducible
        "ai_worlds": AI_WORLDS,
        "seed": 7,
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
def bot_settings(request: pytest.FixtureRequest) -> dict[str, Any]:
    """Per test: ``@pytest.mark.parametrize("bot_settings", [{...}], indirect=True)``."""
    return dict(getattr(request, "param", {}))


@pytest.fixture(autouse=True)
def no_error_logs(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Errors discord.py only logs (e.g. in dynamic item creation) fail the test too."""
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, "logged errors: " + "; ".join(f"{r.name}: {r.getMessage()}" for r in errors)


@pytest.fixture
async def simcord_bot(db_path: Path, bot_settings: dict[str, Any]) -> AsyncIterator[RuffBot]:
    bot = create_bot(make_settings(db_path, **bot_settings))
    yield bot
    await bot.close()  # simcord never closes the bot; this also closes the database


@pytest.fixture
async def more_bots() -> AsyncIterator[list[RuffBot]]:
    """Bots a test starts itself (restarts), closed at the end even when the test fails:
    an open database thread would keep Python from exiting."""
    bots: list[RuffBot] = []
    yield bots
    for bot in bots:
        await bot.close()


@pytest.fixture
def env(simcord_env: Any) -> Any:
    """``simcord_env`` polling every 2 ms instead of 50 ms while it settles.

    Each verb otherwise sleeps 50 ms whenever only callbacks are queued, which is
    most of the time of a click; what counts as "settled" does not change.
    """
    simcord_env._settle_internal = functools.partial(simcord_env._settle_internal, idle=0.002)
    return simcord_env
