"""Double-dummy solving with Bo Haglund's DDS, through the optional ``endplay`` package.

``endplay`` is imported lazily, on first use; when it is missing (it is the
``ai`` extra) :func:`available` is false and callers use the pure-Python
solver instead. DDS keeps per-thread scratch memory addressed by a thread
index, so each call borrows an index from a small pool: any number of Python
threads may call these functions at once.

Engine card indices map straight onto DDS: suits are 0..3 in the order S, H,
D, C in both, and DDS holds a suit as a 15-bit mask with bit ``r`` for rank
``r`` (2..14), so a suit's 13 engine bits shifted left by two.
"""

from __future__ import annotations

import importlib.util
import os
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from types import ModuleType
from typing import Any, NamedTuple, TypeVar

from engine.ai.search import clock
from engine.ai.search.bitmasks import NO_TRUMP

__all__ = [
    "DDSTimeout",
    "SolveCost",
    "available",
    "max_tricks",
    "measure_solve",
    "side_tricks",
    "solve_cards",
]

T = TypeVar("T")

_lock = threading.Lock()
_mod: ModuleType | None = None
_failed = False
_slots: queue.Queue[int] = queue.Queue()
_executor: ThreadPoolExecutor | None = None


class DDSTimeout(Exception):
    """A DDS solve did not finish in the time allowed (it is abandoned, not stopped)."""


def _load() -> ModuleType | None:
    global _mod, _failed
    if _mod is not None or _failed:
        return _mod
    with _lock:
        if _mod is not None or _failed:
            return _mod
        try:
            dds = _import_dds()
        except Exception:  # ImportError, or the shared library failed to load
            _failed = True
            return None
        # how many thread indices DDS accepts (it sized itself to the machine)
        probe = _deal(dds, [1 << 12, 1 << 11, 1 << 10, 1 << 9], 0, [], NO_TRUMP)
        fut = dds.futureTricks()
        count = 0
        for index in range(max(1, os.cpu_count() or 1)):
            try:
                dds.SolveBoard(probe, -1, 1, 1, fut, index)
            except Exception:
                break
            count += 1
        if count == 0:
            _failed = True
            return None
        for index in range(count):
            _slots.put(index)
        global _executor
        _executor = ThreadPoolExecutor(max_workers=count, thread_name_prefix="dds")
        _mod = dds
        return _mod


def _import_dds() -> ModuleType:
    """``endplay._dds`` (the ctypes binding) without the rest of ``endplay``.

    Importing the ``endplay`` package pulls in its parsers and dealer and takes
    about a second; the binding alone is a few milliseconds.
    """
    spec = importlib.util.find_spec("endplay")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("endplay is not installed")
    for location in spec.submodule_search_locations:
        path = os.path.join(location, "_dds", "__init__.py")
        if os.path.exists(path):
            sub = importlib.util.spec_from_file_location("_engine_ai_endplay_dds", path)
            if sub is None or sub.loader is None:
                break
            module = importlib.util.module_from_spec(sub)
            sub.loader.exec_module(module)
            return module
    import endplay._dds as dds  # noqa: PLC0415 - fallback: the normal (slower) import

    return dds


def available() -> bool:
    """Whether DDS can be used (``endplay`` installed and its library loads)."""
    return _load() is not None


def _deal(dds: Any, hands: list[int], leader: int, trick: list[int], trump: int) -> Any:
    dl = dds.deal()
    dl.trump = trump if trump != NO_TRUMP else 4
    dl.first = leader
    for i in range(3):
        if i < len(trick):
            c = trick[i]
            dl.currentTrickSuit[i] = c // 13
            dl.currentTrickRank[i] = c % 13 + 2
        else:
            dl.currentTrickSuit[i] = 0
            dl.currentTrickRank[i] = 0
    for seat in range(4):
        h = hands[seat]
        row = dl.remainCards[seat]
        row[0] = (h & 0x1FFF) << 2
        row[1] = ((h >> 13) & 0x1FFF) << 2
        row[2] = ((h >> 26) & 0x1FFF) << 2
        row[3] = ((h >> 39) & 0x1FFF) << 2
    return dl


def _run(fn: Callable[[Any, int], T], timeout: float | None) -> T:
    """Run ``fn(dds, slot)`` on a DDS thread; give up waiting after ``timeout`` seconds
    of the AI's clock (:mod:`engine.ai.search.clock`: wall time, or the process's CPU time).

    A ctypes call cannot be interrupted, so a solve that overruns keeps its
    thread until it finishes; the caller just stops waiting for it.
    """
    dds = _load()
    if dds is None or _executor is None:
        raise RuntimeError("DDS (endplay) is not available")

    def task() -> T:
        slot = _slots.get()
        try:
            return fn(dds, slot)
        finally:
            _slots.put(slot)

    future = _executor.submit(task)
    try:
        return clock.wait(future, timeout)
    except FutureTimeout:
        future.cancel()
        raise DDSTimeout from None


def solve_cards(
    hands: list[int], leader: int, trick: list[int], trump: int, timeout: float | None = None
) -> dict[int, int]:
    """For every legal card of the seat to play: tricks its side takes from here.

    Same contract as :func:`engine.ai.search.solver.solve_cards` (the current trick
    counts). Raises :class:`DDSTimeout` after ``timeout`` seconds (of the AI's
    clock, :mod:`engine.ai.search.clock`) and
    ``RuntimeError`` if DDS is unavailable.
    """

    def solve(dds: Any, slot: int) -> Any:
        fut = dds.futureTricks()
        dds.SolveBoard(_deal(dds, hands, leader, trick, trump), -1, 3, 1, fut, slot)
        return fut

    fut = _run(solve, timeout)
    out: dict[int, int] = {}
    for i in range(fut.cards):
        score = fut.score[i]
        ranks = ((1 << fut.rank[i]) | fut.equals[i]) >> 2
        base = fut.suit[i] * 13
        r = 0
        while ranks:
            if ranks & 1:
                out[base + r] = score
            ranks >>= 1
            r += 1
    return out


def max_tricks(hands: list[int], leader: int, trump: int, timeout: float | None = None) -> int:
    """Tricks the leader's side takes with best play from a trick boundary."""

    def solve(dds: Any, slot: int) -> int:
        fut = dds.futureTricks()
        dds.SolveBoard(_deal(dds, hands, leader, [], trump), -1, 1, 1, fut, slot)
        return int(fut.score[0])

    return _run(solve, timeout)


def side_tricks(hands: list[int], leader: int, trick: list[int], trump: int) -> int:
    """Tricks the side of the seat to play takes from here with best play (the current
    trick of at most three cards counts): one solve for one position, cheaper than
    :func:`solve_cards`' figure for every card when only a few cards are wanted."""

    def solve(dds: Any, slot: int) -> int:
        fut = dds.futureTricks()
        dds.SolveBoard(_deal(dds, hands, leader, trick, trump), -1, 1, 1, fut, slot)
        return int(fut.score[0])

    return _run(solve, None)


class SolveCost(NamedTuple):
    """What one DDS solve cost (:func:`measure_solve`)."""

    seconds: float  # CPU time of the thread that solved
    nodes: int  # DDS's count of the positions it searched


def measure_solve(
    hands: list[int], leader: int, trick: list[int], trump: int, every_card: bool = True
) -> SolveCost:
    """The cost of solving one position from scratch, for benchmarks: every card's
    figure (:func:`solve_cards`, what the search asks of a world) or, with
    ``every_card`` false, the best card's only (:func:`side_tricks`).

    DDS keeps its transposition table when it is handed the deal it solved last on the
    same thread index (whatever else changed); a one-card position is solved first so
    the timed solve starts from an empty table, as a new world's does.
    """

    def solve(dds: Any, slot: int) -> SolveCost:
        fut = dds.futureTricks()
        dds.SolveBoard(
            _deal(dds, [1 << 12, 1 << 11, 1 << 10, 1 << 9], 0, [], NO_TRUMP), -1, 1, 1, fut, slot
        )
        fut = dds.futureTricks()
        start = time.thread_time()
        deal = _deal(dds, hands, leader, trick, trump)
        dds.SolveBoard(deal, -1, 3 if every_card else 1, 1, fut, slot)
        return SolveCost(time.thread_time() - start, int(fut.nodes))

    return _run(solve, None)
