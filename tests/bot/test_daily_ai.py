"""The boards' AI (``AIPool``'s fixed level) answers the same whatever the load and
wherever it runs: its search is a number of deals, never a number of seconds."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.tables.aipool import FIXED, AIPool
from engine import SeatView, boards_of, start_board


def _positions() -> list[tuple[SeatView, str]]:
    """Views met on two boards of three games, played by random legal moves."""
    out: list[tuple[SeatView, str]] = []
    for game_id in ("ruff-honours-cotton", "solo-whist", "turnover-bridge"):
        for one in boards_of(game_id, None, "2026-11-28", 2):
            game, _ = start_board(one)
            rng = random.Random(one.seed)
            while not game.is_over:
                seat = game.to_act()
                assert seat is not None
                view = game.observe(seat)
                if len(view.legal) > 1 and rng.random() < 0.3:
                    out.append((view, f"{one.seed}:ai:{game.version}"))
                plain = [a for a in view.legal if type(a).__name__ not in ("Claim", "Concede")]
                game.apply(seat, rng.choice(plain or list(view.legal)))
    return out


@pytest.mark.slow
async def test_fixed_decisions_do_not_depend_on_load_or_process() -> None:
    positions = _positions()
    inline = AIPool(mode="inline", fixed_worlds=12)
    alone = [await inline.choose(FIXED, v, v.legal, seed) for v, seed in positions]
    pool = AIPool(1, mode="process", fixed_worlds=12)
    try:
        await pool.ready()
        # every decision at once: the queue is long, the normal levels would search less
        crowded = await asyncio.gather(
            *(pool.choose(FIXED, v, v.legal, seed) for v, seed in positions)
        )
        assert pool.step() == 0 and max(d.step for d in pool.decisions) == 0
        assert not pool.fallbacks
    finally:
        await pool.close()
    assert crowded == alone
    assert len(positions) > 20
