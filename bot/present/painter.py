"""Where pictures are drawn: a worker process of their own, never the event loop.

Drawing a table picture with Pillow and encoding its PNG costs 10-30 ms of
CPU. In a thread (``asyncio.to_thread``) most of that holds the GIL, so at a
busy bot every picture is event-loop lag and slower answers to clicks
(measured with ``python -m tools.bench``: click-to-ack p99 several times higher
with pictures in threads than without). The :class:`Painter` sends the *scene* (a small immutable
description of what to draw) to one worker process and gets the finished
:class:`~bot.present.picture.Picture` (its PNG bytes) back; the loop only pickles
both, well under a millisecond.

One worker: pictures are a nicety and must never take the AI's cores. The
presenter draws at most one picture at a time bot-wide and skips the
intermediate states of a busy table (it draws its latest state when the
worker is free), so the queue never grows. The worker runs at a lower CPU
priority, like the AI workers.

Never stalls: a crashed worker (``BrokenProcessPool``) or one that does not
answer in :data:`ANSWER_TIMEOUT` is replaced, and that drawing raises (the
presenter keeps the old picture; the text of the table is complete anyway).

Modes follow the AI pool's: ``"process"`` in production, ``"thread"`` (a
worker thread: tests, where a process per test would cost more than it shows).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, TypeVar

from bot.present.chart import DealPoint, deal_history, draw_chart, worth_a_chart
from bot.present.picture import Picture, Scene, draw_table
from bot.present.render.common import TableInfo
from bot.present.standings_picture import StandingsScene, draw_standings
from bot.workers import shutdown_now, worker_context

log = logging.getLogger(__name__)

__all__ = ["ANSWER_TIMEOUT", "Painter"]

ANSWER_TIMEOUT: Final = 10.0  # seconds; a drawing takes tens of milliseconds
WORKER_NICENESS: Final = 5

T = TypeVar("T")


def _init_worker() -> None:
    try:
        os.nice(WORKER_NICENESS)
    except OSError:  # not permitted here: the worker runs at the bot's priority
        pass


def _warm() -> int:
    """Load the fonts and card sprites once, so the first real picture is fast."""
    from bot.present.drawing import font

    font(14)
    font(14, bold=True)
    return os.getpid()


def _chart(
    record: Mapping[str, Any], info: TableInfo, n_seats: int, draw: bool
) -> tuple[tuple[DealPoint, ...], Picture | None]:
    """Replay a finished game's record for its deal-by-deal points, and draw its chart
    where it says something (:func:`~bot.present.chart.worth_a_chart`: two deals or
    more, a point scored)."""
    points = deal_history(record)
    return points, (draw_chart(info, points, n_seats) if draw and worth_a_chart(points) else None)


class Painter:
    """Draws table pictures and score charts off the event loop."""

    def __init__(self, mode: str = "process") -> None:
        if mode not in ("process", "thread"):
            raise ValueError(f"unknown Painter mode {mode!r} (process or thread)")
        self.mode = mode
        self.restarts = 0
        self.drawn = 0
        self._closed = False
        self._executor: Executor = self._start()

    def _start(self) -> Executor:
        executor: Executor
        if self.mode == "process":
            executor = ProcessPoolExecutor(1, mp_context=worker_context(), initializer=_init_worker)
        else:
            executor = ThreadPoolExecutor(1, thread_name_prefix="painter")
        executor.submit(_warm)  # starts the worker now, not at the first picture
        return executor

    async def _run(self, fn: Callable[..., T], *args: object) -> T:
        if self._closed:
            raise RuntimeError("Painter is closed")
        executor = self._executor
        try:
            future = asyncio.get_running_loop().run_in_executor(executor, fn, *args)
            result = await asyncio.wait_for(future, ANSWER_TIMEOUT)
        except (BrokenProcessPool, TimeoutError) as exc:
            log.error("the picture worker failed (%s); it restarts", type(exc).__name__)
            self._restart(executor)
            raise
        self.drawn += 1
        return result

    async def table(self, scene: Scene) -> Picture:
        """The table picture of ``scene``."""
        return await self._run(draw_table, scene)

    async def standings(self, scene: StandingsScene) -> Picture:
        """An event's standings picture (:mod:`bot.present.standings_picture`)."""
        return await self._run(draw_standings, scene)

    async def summary(
        self, record: Mapping[str, Any], info: TableInfo, n_seats: int, chart: bool
    ) -> tuple[Sequence[DealPoint], Picture | None]:
        """A finished game's deal-by-deal points (replayed from its record) and, if
        ``chart``, its score chart."""
        return await self._run(_chart, record, info, n_seats, chart)

    def _restart(self, broken: Executor) -> None:
        if self._closed or self._executor is not broken:
            return
        self.restarts += 1
        shutdown_now(broken)
        self._executor = self._start()

    def worker_pids(self) -> list[int]:
        """Process ids of the live worker (process mode)."""
        return sorted(getattr(self._executor, "_processes", None) or {})

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await asyncio.to_thread(self._executor.shutdown, True, cancel_futures=True)
