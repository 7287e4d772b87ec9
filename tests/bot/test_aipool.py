"""bot.tables.aipool: AI decisions in real worker processes, an anytime budget, crash recovery."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
from collections.abc import AsyncIterator

import pytest

from bot.tables.aipool import BUDGET_STEPS, WORKER_NICENESS, AIPool
from engine import Game, SeatView, new_game
from engine.actions import Action
from engine.ai import get_player


def positions(count: int, seed: int = 7) -> list[tuple[SeatView, list[Action]]]:
    """Real decisions with a choice to make (several legal actions), from easy-played games."""
    easy = get_player("easy")
    rng = random.Random(seed)
    found: list[tuple[SeatView, list[Action]]] = []
    game_seed = seed
    while len(found) < count:
        game, _ = new_game(seed=game_seed)
        game_seed += 1
        while not game.is_over and len(found) < count:
            seat = game.to_act()
            assert seat is not None
            view = game.observe(seat)
            legal = list(view.legal)
            if len(legal) > 1 and view.phase == "play":
                found.append((view, legal))
            game.apply(seat, easy.choose(view, legal, rng))
    return found


@pytest.fixture
async def process_pool() -> AsyncIterator[AIPool]:
    pool = AIPool(2, mode="process")
    await pool.ready()
    yield pool
    await pool.close()


async def test_a_whole_deal_played_by_the_process_pool_is_legal(process_pool: AIPool) -> None:
    game: Game
    game, _ = new_game(seed=11)
    deal = game.observe(0).deal_no
    moves = 0
    claimed = False
    while not game.is_over and game.observe(0).deal_no == deal:
        seat = game.to_act()
        assert seat is not None
        view = game.observe(seat)
        action = await process_pool.choose("normal", view, view.legal, f"11:{game.version}")
        # a legal action, or a claim of tricks it surely takes (answered by the others)
        assert action in view.legal or action in view.claims
        events = game.apply(seat, action)  # the engine accepts it
        moves += 1
        claimed = claimed or any(type(e).__name__ == "ClaimSettled" for e in events)
    assert moves >= 48 or claimed  # every card of the deal was played, or the rest claimed
    assert process_pool.fallbacks == 0
    assert all(not d.fallback for d in process_pool.decisions)


async def test_the_workers_are_separate_processes_and_warm(process_pool: AIPool) -> None:
    pids = await process_pool.ready()
    assert len(pids) >= 1 and os.getpid() not in pids
    assert set(pids) <= set(process_pool.worker_pids())


async def test_the_workers_yield_the_cpu_to_the_bot(process_pool: AIPool) -> None:
    """On a small machine a search must not take the event loop's time slice."""
    await process_pool.ready()
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    want = min(19, mine + WORKER_NICENESS)
    # a worker the pool started but that has not run its initializer yet (both warm-up
    # tasks may go to the first worker) gets a moment to do so
    for _ in range(100):
        if all(os.getpriority(os.PRIO_PROCESS, pid) == want for pid in process_pool.worker_pids()):
            break
        await asyncio.sleep(0.05)
    assert process_pool.worker_pids()
    for pid in process_pool.worker_pids():
        assert os.getpriority(os.PRIO_PROCESS, pid) == want


async def test_a_decision_is_reproducible_from_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    inline = AIPool(mode="inline", worlds=24)
    again = AIPool(mode="inline", worlds=24)
    cases = positions(12)
    first = [
        await inline.choose(level, v, legal, f"g:{i}")
        for i, (v, legal) in enumerate(cases)
        for level in ("normal", "hard")
    ]
    second = [
        await again.choose(level, v, legal, f"g:{i}")
        for i, (v, legal) in enumerate(cases)
        for level in ("normal", "hard")
    ]
    assert first == second
    # the same seed gives the same move in a worker process: the seed, not the process, decides
    # (the niced worker may wait long for a busy machine's CPU: no easy fallback for that here)
    monkeypatch.setattr("bot.tables.aipool.ANSWER_TIMEOUT", 300.0)
    pool = AIPool(1, mode="process", worlds=24)
    try:
        remote = [
            await pool.choose(level, v, legal, f"g:{i}")
            for i, (v, legal) in enumerate(cases)
            for level in ("normal", "hard")
        ]
    finally:
        await pool.close()
    assert remote == first


async def test_the_budget_shrinks_when_the_pool_is_busy() -> None:
    pool = AIPool(1, mode="process")
    try:
        await pool.ready()
        assert pool.load() == 0.0
        assert pool.budget("normal") == pytest.approx(0.04)  # idle: the level's full budget
        cases = positions(16)
        calls = [
            asyncio.ensure_future(pool.choose("normal", v, legal, f"b:{i}"))
            for i, (v, legal) in enumerate(cases)
        ]
        await asyncio.sleep(0)
        assert pool.load() == 16.0  # 16 decisions waiting on one worker
        assert pool.budget("normal") == pytest.approx(0.04 * BUDGET_STEPS[-1])  # the floor
        answers = await asyncio.gather(*calls)
        assert all(a in legal for a, (_, legal) in zip(answers, cases, strict=True))
        steps = [d.step for d in pool.decisions]
        assert steps[0] == 0  # the first found the worker free
        assert steps[-1] == len(BUDGET_STEPS) - 1  # the queue got the floor
        assert steps == sorted(steps)  # never more budget while the queue grew
        # and the full budget again once idle
        assert pool.load() == 0.0 and pool.budget("normal") == pytest.approx(0.04)
    finally:
        await pool.close()


async def test_a_killed_worker_is_survived(caplog: pytest.LogCaptureFixture) -> None:
    pool = AIPool(1, mode="process")
    try:
        [pid] = await pool.ready()
        (view, legal), *rest = positions(3)
        os.kill(pid, signal.SIGKILL)
        with caplog.at_level(logging.ERROR, logger="bot.tables.aipool"):
            action = await asyncio.wait_for(pool.choose("normal", view, legal, "k:0"), 15)
        assert action in legal  # the move was still answered (by the easy player)
        assert pool.fallbacks == 1 and pool.restarts == 1
        assert "the easy player answers it and the pool restarts" in caplog.text
        # the next moves are searched again, by a new worker
        for i, (v, lg) in enumerate(rest):
            assert await asyncio.wait_for(pool.choose("normal", v, lg, f"k:{i + 1}"), 15) in lg
        assert pool.fallbacks == 1
        assert pid not in pool.worker_pids() and pool.worker_pids()
    finally:
        await pool.close()


async def test_a_worker_killed_mid_decision_is_survived() -> None:
    pool = AIPool(1, mode="process", worlds=100_000)  # a long search: still running when killed
    try:
        [pid] = await pool.ready()
        (view, legal), (view2, legal2) = positions(2)
        call = asyncio.ensure_future(pool.choose("hard", view, legal, "m:0"))
        await asyncio.sleep(0.3)
        assert not call.done()
        os.kill(pid, signal.SIGKILL)
        assert await asyncio.wait_for(call, 15) in legal
        assert pool.fallbacks == 1
    finally:
        await pool.close()


async def test_easy_is_answered_in_the_loop_and_a_closed_pool_refuses() -> None:
    pool = AIPool(1, mode="thread")
    ((view, legal),) = positions(1)
    assert await pool.choose("easy", view, legal, "e") in legal
    assert await pool.choose("normal", view, legal, "n") in legal
    await pool.close()
    with pytest.raises(RuntimeError):
        await pool.choose("normal", view, legal, "n")


async def test_each_level_gets_the_budget_its_engine_profile_sets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from dataclasses import replace

    from engine.ai import levels

    pool = AIPool(1, mode="inline")
    try:
        for level in ("normal", "hard"):
            assert pool.budget(level) == pytest.approx(levels.PROFILES[level].soft)
        assert pool.budget("easy") == 0.0  # easy does not search
        # a level retuned in the engine is retuned in the pool, with nothing to change here
        monkeypatch.setitem(levels.PROFILES, "hard", replace(levels.HARD, soft=0.7, cap=2.0))
        assert pool.budget("hard") == pytest.approx(0.7)
    finally:
        await pool.close()
