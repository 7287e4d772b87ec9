"""AI decisions off the event loop: a process pool with an anytime budget.

The searching AI levels (``normal``, ``hard``) are CPU-bound Python. In a
thread they hold the GIL for most of a decision and the event loop waits
behind them, so clicks are answered late. :class:`AIPool` runs them in worker
processes instead; the loop only pickles a :class:`~engine.game.SeatView`
(about 600 bytes) and waits on a future.

The search budget is anytime: when more decisions are in flight than there
are workers, each one gets a smaller budget (halved for every doubling of the
queue, down to :data:`BUDGET_STEPS`' floor). Under load AI moves become
shallower and, past the floor, slower; clicks stay fast because the loop does
no searching at all.

Never stalls: a crashed worker (``BrokenProcessPool``), a worker that does not
answer within :data:`ANSWER_TIMEOUT` seconds, or any other failure of the pool
restarts the pool and answers that one move with the ``easy`` player in the
loop (logged). ``easy`` is cheap and always runs in the loop.

A decision is ``random.Random(seed)`` in the worker, so it is reproducible given
the budget (exactly so with ``worlds=``, which bounds the search by worlds
instead of time: tests).

The level :data:`FIXED` (the AI of the boards played alone, ``bot.features.daily.boards``)
never depends on time or load: ``normal``'s search bounded by ``fixed_worlds``
sampled deals a decision whatever the queue, so the same view and seed give the
same move in any process on any machine (a pool failure's easy answer aside).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import random
import time
from collections import deque
from collections.abc import Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Final

from bot.workers import shutdown_now, worker_context
from engine import Action, SeatView
from engine.ai import CLAIM_TIME_LIMIT as CLAIM_TIME
from engine.ai import LEVELS, Reason, profile
from engine.ai import decide_claim as claims_decide

__all__ = [
    "ANSWER_TIMEOUT",
    "BUDGET_STEPS",
    "FIXED",
    "FIXED_WORLDS",
    "HINT_BUDGET",
    "MODES",
    "SEARCHING",
    "WORKER_NICENESS",
    "AIPool",
    "Decision",
    "level_budget",
]

log = logging.getLogger(__name__)

MODES: Final = ("process", "thread", "inline")

BUDGET_STEPS: Final = (1.0, 0.5, 0.25, 0.125)
"""Fractions of a level's search budget: full while a worker is free, then
halved for every doubling of the decisions per worker; the last is the floor."""

WORKER_NICENESS: Final = 10
"""How much lower the AI workers' CPU priority is than the bot's. The searches
are paced anyway (an AI moves a second after the turn reaches it); on a machine
with few cores the event loop must get the CPU first, or clicks wait behind a
search's time slice."""

ANSWER_TIMEOUT: Final = 10.0
"""Seconds past which a worker is presumed hung (the searches cap themselves at 1.5 s)."""

SEARCHING: Final = tuple(level for level in LEVELS if profile(level).searches)
"""The levels whose decisions go to the workers (``easy`` is answered in the loop)."""


def level_budget(level: str) -> tuple[float, float]:
    """``level``'s full search budget, ``(soft, cap)`` seconds, as its profile in
    :mod:`engine.ai` sets it (``(0, 0)`` for a level that does not search)."""
    try:
        found = profile(level)
    except ValueError:
        return (0.0, 0.0)
    return (found.soft, found.cap) if found.searches else (0.0, 0.0)


HINT_BUDGET: Final = (0.05, 0.15)
"""(soft, cap) seconds of the hard AI behind a hint. Hard's own (0.2 s soft, and 2.5
times that for the ruff's lay-out) cannot answer within 300 ms; at this budget a
hint's p95 stays under it, and the choice is hard's own in about nine of ten
decisions (``python -m tools.bench_hints``, docs/coach-hints-and-lessons.md)."""


FIXED: Final = "fixed"
"""The level whose search is a fixed size (worlds, never seconds): the boards' AI."""

FIXED_ANSWER_TIMEOUT: Final = 120.0
"""Seconds a :data:`FIXED` decision may wait, queue included: it never shrinks under
load (the same search for everyone), so a long queue is waited out, not replaced by
the easy player's answer; only a worker hung this long is."""

FIXED_WORLDS: Final = 48
"""Sampled deals a :data:`FIXED` decision searches (``RH_DAILY_WORLDS``)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One answered move (kept for benchmarks and logs)."""

    level: str
    step: int  # index into BUDGET_STEPS
    seconds: float  # from the call to the answer, queueing included
    fallback: bool  # answered by the easy player after a pool failure


# ---------------------------------------------------------------- worker side

_players: dict[tuple[str, int, int | None], object] = {}


def _player(level: str, step: int, worlds: int | None) -> object:
    """The cached player of ``level`` at budget ``step`` (one per worker process)."""
    key = (level, step, worlds)
    player = _players.get(key)
    if player is None:
        from engine.ai import EasyPlayer, GuardedPlayer, HardPlayer, NormalPlayer, get_player

        if level == "easy":
            player = get_player("easy")
        elif level == FIXED:  # a fixed search: ``worlds`` deals, no clock decides
            assert worlds is not None
            player = GuardedPlayer(
                NormalPlayer(budget=3600.0, cap=3600.0, max_worlds=worlds),
                EasyPlayer(noise=0.0),
                cap=3600.0,
            )
        elif worlds is not None:  # bounded by worlds, not time: reproducible
            inner: NormalPlayer | HardPlayer
            if level == "normal":
                inner = NormalPlayer(budget=60.0, cap=60.0, max_worlds=worlds)
            elif level == "hard":
                inner = HardPlayer(budget=60.0, cap=60.0, max_worlds=worlds)
            else:
                raise ValueError(f"unknown AI level {level!r}")
            player = GuardedPlayer(inner, EasyPlayer(noise=0.0), cap=60.0)
        else:
            soft, cap = level_budget(level)
            fraction = BUDGET_STEPS[step]
            player = get_player(
                level, budget=soft * fraction, cap=max(cap * fraction, 4 * soft * fraction)
            )
        _players[key] = player
    return player


EASY_CLAIM_TIME = 0.3  # easy answers claims in the event loop: a short search, else it rejects


def _decide(
    level: str, step: int, worlds: int | None, view: SeatView, legal: Sequence[Action], seed: str
) -> Action:
    special = claims_decide(
        view, legal, time_limit=EASY_CLAIM_TIME if level == "easy" else CLAIM_TIME
    )
    if special is not None:  # a claim's or concession's answer, or a certain claim
        return special
    player = _player(level, step, worlds)
    action: Action = player.choose(view, legal, random.Random(seed))  # type: ignore[attr-defined]
    return action


def _hint(
    view: SeatView, legal: Sequence[Action], seed: str, worlds: int | None
) -> tuple[Action, Reason]:
    """A hint: the hard AI's choice at :data:`HINT_BUDGET` and its reason in words."""
    from engine.ai import EasyPlayer, GuardedPlayer, HardPlayer, explain, get_player

    key = ("hint", 0, worlds)
    player = _players.get(key)
    if player is None:
        soft, cap = HINT_BUDGET
        if worlds is not None:  # bounded by worlds, not time: reproducible
            player = GuardedPlayer(
                HardPlayer(budget=60.0, cap=60.0, max_worlds=worlds), EasyPlayer(noise=0.0), 60.0
            )
        else:
            player = get_player("hard", budget=soft, cap=cap)
        _players[key] = player
    action: Action = player.choose(view, legal, random.Random(seed))  # type: ignore[attr-defined]
    return action, explain(view, action)


def _init_worker() -> None:
    """Runs first in every worker process: give the CPU to the event loop first."""
    try:
        os.nice(WORKER_NICENESS)
    except OSError:  # not permitted here: the worker runs at the bot's priority
        log.info("could not lower the AI worker's priority")


def _warm() -> int:
    """Import the search code and build the players, so the first real move is fast."""
    for level in SEARCHING:
        for step in range(len(BUDGET_STEPS)):
            _player(level, step, None)
    return os.getpid()


# ---------------------------------------------------------------- loop side


class AIPool:
    """Chooses AI moves off the event loop.

    ``mode``: ``"process"`` (production: worker processes), ``"thread"`` (a
    thread pool: shares the GIL, for comparison) or ``"inline"`` (in the loop,
    synchronously: tests).
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        mode: str = "process",
        worlds: int | None = None,
        fixed_worlds: int = FIXED_WORLDS,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown AIPool mode {mode!r} (known: {', '.join(MODES)})")
        self.mode = mode
        self.workers = max(1, workers if workers is not None else (os.cpu_count() or 2) - 1)
        self.worlds = worlds
        self.fixed_worlds = fixed_worlds
        self.restarts = 0
        self.fallbacks = 0
        self.decisions: deque[Decision] = deque(maxlen=4096)
        self._in_flight = 0
        self._closed = False
        self._executor: Executor | None = None
        self._warm_futures: list[Future[int]] = []
        if mode != "inline":
            self._executor = self._start()

    def _start(self) -> Executor:
        executor: Executor
        if self.mode == "process":
            executor = ProcessPoolExecutor(
                self.workers, mp_context=worker_context(), initializer=_init_worker
            )
            # one warm-up task per worker: each submission with no idle worker spawns one
            self._warm_futures = [executor.submit(_warm) for _ in range(self.workers)]
        else:
            executor = ThreadPoolExecutor(self.workers, thread_name_prefix="ai")
            self._warm_futures = [executor.submit(_warm)]
        return executor

    async def ready(self) -> list[int]:
        """Wait until every worker has started and warmed up; their process ids."""
        if self._executor is None:
            return []
        return [await asyncio.wrap_future(f) for f in self._warm_futures]

    def worker_pids(self) -> list[int]:
        """Process ids of the live workers (process mode)."""
        processes = getattr(self._executor, "_processes", None) or {}
        return sorted(processes)

    def load(self) -> float:
        """Decisions in flight per worker: 0 idle, 1 every worker busy, above 1 queued."""
        return self._in_flight / self.workers

    def step(self) -> int:
        """The budget step a decision asked for now would get (see :data:`BUDGET_STEPS`)."""
        per_worker = (self._in_flight + 1) / self.workers
        if per_worker <= 1.0:
            return 0
        return min(len(BUDGET_STEPS) - 1, math.ceil(math.log2(per_worker)))

    def budget(self, level: str) -> float:
        """The soft search budget (seconds) a ``level`` decision asked for now would get."""
        soft, _ = level_budget(level)
        return soft * BUDGET_STEPS[self.step()]

    async def choose(
        self, level: str, view: SeatView, legal: Sequence[Action], seed: str
    ) -> Action:
        """``level``'s choice among ``legal`` for the seat of ``view``; never raises for pool failures."""
        if self._closed:
            raise RuntimeError("AIPool is closed")
        legal = list(legal)
        started = time.perf_counter()
        worlds = self.fixed_worlds if level == FIXED else self.worlds
        if level == "easy" or self._executor is None:
            action = _decide(level, 0, worlds, view, legal, seed)
            self.decisions.append(Decision(level, 0, time.perf_counter() - started, False))
            return action
        step = 0 if level == FIXED else self.step()
        executor = self._executor
        self._in_flight += 1
        try:
            future = asyncio.get_running_loop().run_in_executor(
                executor, _decide, level, step, worlds, view, legal, seed
            )
            action = await asyncio.wait_for(
                future, FIXED_ANSWER_TIMEOUT if level == FIXED else ANSWER_TIMEOUT
            )
            if action not in legal and action not in view.claims:
                raise ValueError(f"worker answered {action!r}, not a legal action")
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            broken = isinstance(exc, (BrokenProcessPool, TimeoutError, RuntimeError))
            log.error(
                "AI pool failed on a %s move (%s: %s); the easy player answers it%s",
                level,
                type(exc).__name__,
                exc,
                " and the pool restarts" if broken else "",
            )
            if broken:
                self._restart(executor)
            self.fallbacks += 1
            action = _decide("easy", 0, None, view, legal, seed)
            self.decisions.append(Decision(level, step, time.perf_counter() - started, True))
            return action
        finally:
            self._in_flight -= 1
        self.decisions.append(Decision(level, step, time.perf_counter() - started, False))
        return action

    async def hint(
        self, view: SeatView, legal: Sequence[Action], seed: str
    ) -> tuple[Action, Reason]:
        """A hint for the seat of ``view``: the hard AI's choice among ``legal`` at
        :data:`HINT_BUDGET` and its reason (``engine.ai.explain``), off the event loop;
        on a pool failure the easy player's choice and its reason."""
        if self._closed:
            raise RuntimeError("AIPool is closed")
        legal = list(legal)
        executor = self._executor
        if executor is None:
            return _hint(view, legal, seed, self.worlds)
        self._in_flight += 1
        try:
            future = asyncio.get_running_loop().run_in_executor(
                executor, _hint, view, legal, seed, self.worlds
            )
            action, reason = await asyncio.wait_for(future, ANSWER_TIMEOUT)
            if action not in legal:
                raise ValueError(f"worker answered {action!r}, not a legal action")
            return action, reason
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.error("AI pool failed on a hint (%s: %s); easy answers it", type(exc).__name__, exc)
            if isinstance(exc, (BrokenProcessPool, TimeoutError, RuntimeError)):
                self._restart(executor)
            from engine.ai import explain

            action = _decide("easy", 0, None, view, legal, seed)
            return action, explain(view, action)
        finally:
            self._in_flight -= 1

    def _restart(self, broken: Executor) -> None:
        """Replace ``broken`` by a fresh pool (once, however many calls saw it fail)."""
        if self._closed or self._executor is not broken:
            return
        self.restarts += 1
        shutdown_now(broken)
        self._executor = self._start()

    async def close(self) -> None:
        """Stop the workers (pending decisions are cancelled)."""
        if self._closed:
            return
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, True, cancel_futures=True)
