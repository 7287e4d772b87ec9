"""The clock the AI's search budgets are measured by.

Every search budget, cap and deadline in :mod:`engine.ai` is read from
:func:`now` (never from :mod:`time` directly), so one switch decides what a
"second" of search is:

* ``wall`` (the default): :func:`time.perf_counter`. Production keeps it: a
  player at the table waits in wall time, and a budget is a promise about how
  long they wait.
* ``cpu``: :func:`time.process_time`, the CPU time of the whole process. The
  arena switches its worker processes to it (``--clock cpu``, its default), so a
  budget buys the same search however busy the machine is, and a result does
  not depend on what else ran beside it. The process's time and not the
  thread's: DDS solves on helper threads of the same process while the
  searching thread waits for them (see :mod:`engine.ai.search.dds`), and that work is
  part of the budget. An arena worker runs one search at a time, so its
  process time is that search's time.

The switch is per process (:func:`use`); the bot never calls it. Timing
reports (the arena's and bench's decision times) are measured on their own and
are not affected.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Final, TypeVar

__all__ = ["CLOCKS", "current", "now", "use", "wait"]

T = TypeVar("T")

CLOCKS: Final[dict[str, Callable[[], float]]] = {
    "wall": time.perf_counter,
    "cpu": time.process_time,
}

_name = "wall"
_now: Callable[[], float] = time.perf_counter

WAIT_SLICE: Final = 0.05
"""Seconds of wall time :func:`wait` sleeps at most before reading the clock again
(on a CPU clock a busy machine stretches a budget's wall time; the slice bounds
how far a wait can overrun when more than one thread of the process runs)."""


def now() -> float:
    """The current time on the AI's clock, in seconds (only differences mean anything)."""
    return _now()


def current() -> str:
    """The name of the clock in use in this process: ``"wall"`` or ``"cpu"``."""
    return _name


def use(name: str) -> None:
    """Measure this process's AI budgets by the clock ``name`` (one of :data:`CLOCKS`)."""
    global _name, _now
    try:
        clock = CLOCKS[name]
    except KeyError:
        raise ValueError(f"unknown clock {name!r} (known: {', '.join(CLOCKS)})") from None
    _name, _now = name, clock


def wait(future: Future[T], timeout: float | None) -> T:
    """``future.result()`` within ``timeout`` seconds of the AI's clock.

    Raises :class:`concurrent.futures.TimeoutError` when the time is up. On the
    wall clock this is ``future.result(timeout)``; on the CPU clock the wait
    goes on in slices until the process has spent ``timeout`` CPU seconds, so
    a solve on another thread of the process gets its whole budget even when
    the machine is busy.
    """
    if timeout is None:
        return future.result()
    if _name == "wall":
        return future.result(timeout=timeout)
    deadline = _now() + timeout
    while True:
        left = deadline - _now()
        if left <= 0:
            raise FutureTimeout
        try:
            return future.result(timeout=min(left, WAIT_SLICE))
        except FutureTimeout:
            continue
