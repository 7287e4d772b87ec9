"""The README's `make demo` without a token: the offline demo plays a whole game."""

from __future__ import annotations

import re

import pytest

from bot.config import Settings
from tools.demo import run_demo

pytestmark = pytest.mark.slow  # left out by `make test-fast`


async def test_the_offline_demo_plays_a_game_to_its_end(capsys: pytest.CaptureFixture[str]) -> None:
    # production settings, as `make demo` runs it (AI worker processes and all)
    assert await run_demo(Settings(), 2026, "ruff-honours-cotton", False) == 0
    out = capsys.readouterr().out
    assert "DM to you — your hand" in out and "🟢 **Your turn" in out
    # the scripted player never dawdles, so the printout has no turn pings in it
    # (each one had also held the demo up for its 10 s delay)
    assert "🔔" not in out and "your turn at table" not in out
    assert "finished" in out.split("the table message at the end", 1)[1], (
        "the game was played to its end"
    )
    board = out.split("/ruff leaderboard", 1)[1]
    assert re.search(r"· you \*\*[−\d.]+\*\* · 1 game · (0|100)%", board), board
