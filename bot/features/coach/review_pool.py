"""Deal reviews computed off the event loop: one worker process, one review at a time.

A review replays the game's record and searches a few thousand deals of the
unseen cards (:func:`engine.ai.review_deal`): seconds of CPU. It runs in a
worker process of its own at a lower CPU priority (like the AI pool's and the
painter's), one at a time bot-wide, so reviews never take more than one core
from the AI seats and never block a click. Requests for the same review while
it runs share it. A worker that crashes or overruns :data:`REVIEW_TIMEOUT` is
replaced and that review fails (the asker is told to try again).

:meth:`ReviewPool.wait_estimate` says how long a new request would wait, so the
caller can promise a DM instead of a reply when the interaction's token would
expire first.

Modes follow the AI pool's: ``"process"`` in production, ``"thread"`` in tests.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Mapping
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final

from bot.workers import shutdown_now, worker_context
from engine.ai import (
    REVIEW_BUDGET,
    DealReview,
    Decision,
    deal_count,
    played_seats,
    puzzle_position,
    review_deal,
)

log = logging.getLogger(__name__)

__all__ = ["REVIEW_TIMEOUT", "TYPICAL_SECONDS", "ReviewPool", "compute", "puzzle_of"]

REVIEW_TIMEOUT: Final = 120.0  # seconds of wall time; a review takes a few of CPU
TYPICAL_SECONDS: Final = 10.0  # what one review is budgeted (docs/coach.md: p95 well below)
WORKER_NICENESS: Final = 10


def _init_worker() -> None:
    try:
        os.nice(WORKER_NICENESS)
    except OSError:
        pass


def compute(record: Mapping[str, Any], deal: int, seat: int) -> dict[str, Any]:
    """The review of ``seat`` in the ``deal``-th deal and the puzzles made of it, as JSON;
    or ``{"error": "range" | "unfinished" | "no-cards"}``. Runs in the worker."""
    started = deal_count(record)
    if not 1 <= deal <= started:
        return {"error": "range", "deals": started}
    try:
        review = review_deal(record, deal, seat, REVIEW_BUDGET)
    except ValueError:
        return {"error": "unfinished", "deals": started}
    if seat not in played_seats(record, deal) or not review.decisions:
        return {"error": "no-cards", "deals": started}
    puzzles = [puzzle_of(record, review, d) for d in review.flagged]
    return {"review": review.to_json(), "puzzles": puzzles, "deals": started}


def puzzle_of(record: Mapping[str, Any], review: DealReview, d: Decision) -> dict[str, Any]:
    """The puzzle made of decision ``d`` of ``review``: the position as its seat saw it
    (:func:`engine.ai.puzzle_position`) with the verdict; a choice that is not a card
    (a call, trumps, a lay-out, a kitty card) is answered among the options judged."""
    position = puzzle_position(record, d.index)
    position.update(
        unit=d.unit or review.unit,
        threshold=d.threshold or review.threshold,
        best=d.best,
        played=d.played,
        decision_kind=d.kind,
        cost=d.cost,
        error=d.error,
        worlds=d.worlds,
        options=[[o.choice, o.value] for o in d.options],
        index=d.index,
    )
    if d.kind != "card":
        position["legal"] = [o.choice for o in d.options]
        position["stands_for"] = {o.choice: o.choice for o in d.options}
    return position


class ReviewPool:
    """Runs :func:`compute` in one worker, one review at a time, sharing duplicates."""

    def __init__(self, mode: str = "process") -> None:
        if mode not in ("process", "thread"):
            raise ValueError(f"unknown ReviewPool mode {mode!r} (process or thread)")
        self.mode = mode
        self.restarts = 0
        self._closed = False
        self._executor: Executor | None = None
        self._slot = asyncio.Lock()
        self._running: dict[tuple[int, int, int], asyncio.Future[dict[str, Any]]] = {}
        self._queued = 0

    def _start(self) -> Executor:
        if self.mode == "process":
            return ProcessPoolExecutor(1, mp_context=worker_context(), initializer=_init_worker)
        return ThreadPoolExecutor(1, thread_name_prefix="reviews")

    def wait_estimate(self) -> float:
        """Seconds a new request would wait for its answer, at most."""
        return (self._queued + 1) * TYPICAL_SECONDS

    async def review(
        self, key: tuple[int, int, int], record: Mapping[str, Any], deal: int, seat: int
    ) -> dict[str, Any]:
        """The review of ``key`` (table, deal, seat); a request for one already running
        waits for that one."""
        running = self._running.get(key)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._running[key] = future
        self._queued += 1
        try:
            result = await self._run(record, deal, seat)
        except BaseException as exc:
            if not future.done():
                future.set_exception(exc)
                future.exception()  # retrieved: the waiters, if any, re-raise it
            raise
        else:
            future.set_result(result)
            return result
        finally:
            self._queued -= 1
            self._running.pop(key, None)

    async def _run(self, record: Mapping[str, Any], deal: int, seat: int) -> dict[str, Any]:
        async with self._slot:
            if self._closed:
                raise RuntimeError("ReviewPool is closed")
            if self._executor is None:
                self._executor = self._start()
            executor = self._executor
            loop = asyncio.get_running_loop()
            try:
                future = loop.run_in_executor(executor, compute, dict(record), deal, seat)
                return await asyncio.wait_for(future, REVIEW_TIMEOUT)
            except (BrokenProcessPool, TimeoutError) as exc:
                log.error("the review worker failed (%s); it restarts", type(exc).__name__)
                self.restarts += 1
                shutdown_now(executor)
                self._executor = None
                raise

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._executor is not None:
            shutdown_now(self._executor)
