"""The AI's budget clock: wall time by default, the process's CPU time in the arena."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

import pytest

from engine.actions import Play
from engine.ai import clock
from engine.ai.levels import NORMAL
from engine.ai.search.budget import Budget
from engine.ai.search.determinized import search_card
from engine.ai.strategies.partnership import PartnershipStrategy
from engine.rules import make_rules
from tools import arena

from .helpers import positions


@pytest.fixture(autouse=True)
def _wall_again() -> Iterator[None]:
    yield
    clock.use("wall")


def _frozen() -> float:
    return 100.0


def _jumping() -> Callable[[], float]:
    ticks = itertools.count()
    return lambda: 1000.0 * next(ticks)


def test_wall_is_the_default_and_cpu_is_process_time() -> None:
    assert clock.current() == "wall"
    assert clock.CLOCKS["wall"] is time.perf_counter
    clock.use("cpu")
    assert clock.current() == "cpu"
    # sleeping costs no CPU: the cpu clock stands still while wall time passes
    cpu, wall = clock.now(), time.perf_counter()
    time.sleep(0.2)
    assert time.perf_counter() - wall >= 0.2
    assert clock.now() - cpu < 0.05
    with pytest.raises(ValueError, match="unknown clock"):
        clock.use("sundial")
    assert clock.current() == "cpu"


def test_a_search_budget_is_measured_by_the_clock_in_use(monkeypatch: pytest.MonkeyPatch) -> None:
    _, view = next(
        positions(lambda g, v: len(v.hand) >= 8 and sum(isinstance(a, Play) for a in v.legal) >= 3)
    )
    strategy = PartnershipStrategy(view, NORMAL)  # greedy playouts with 8 cards or more
    mask = 0
    for a in view.legal:
        if isinstance(a, Play):
            mask |= a.card.bit
    cands = strategy.candidates(mask)
    assert len(cands) > 1
    budget = Budget(soft=0.001, cap=0.002, min_worlds=2, max_worlds=40)

    # a clock that never moves: the budget is never spent, every world is searched
    monkeypatch.setitem(clock.CLOCKS, "cpu", _frozen)
    clock.use("cpu")
    found = search_card(strategy, cands, random.Random(1), budget)
    assert found is not None and found[1] == 40

    # a clock that leaps past the cap at every reading: not a single world
    monkeypatch.setitem(clock.CLOCKS, "cpu", _jumping())
    clock.use("cpu")
    assert search_card(strategy, cands, random.Random(1), budget) is None


def test_waiting_for_a_helper_thread_counts_cpu_not_wall() -> None:
    with ThreadPoolExecutor(1) as pool:
        # wall clock: a 0.3 s sleep overruns a 0.05 s budget
        with pytest.raises(FutureTimeout):
            clock.wait(pool.submit(time.sleep, 0.3), 0.05)
        # cpu clock: the sleep spends no CPU, so the budget is not used up
        clock.use("cpu")
        assert clock.wait(pool.submit(lambda: (time.sleep(0.3), 7)[1]), 0.05) == 7

        # a busy helper thread does spend the process's CPU time
        def spin() -> int:
            end = time.process_time() + 2.0
            while time.process_time() < end:
                pass
            return 1

        started = time.perf_counter()
        with pytest.raises(FutureTimeout):
            clock.wait(pool.submit(spin), 0.05)
        assert time.perf_counter() - started < 1.5


def test_the_arena_workers_measure_budgets_on_the_chosen_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the workers are forked, so they inherit this stand-in for the CPU clock:
    # every reading is 1000 s after the last, so every decision's budget-clock
    # time is 1000 s or more while its wall time is tiny
    monkeypatch.setitem(clock.CLOCKS, "cpu", _jumping())
    rules = make_rules("ruff-honours-cotton", None, None)
    boards = arena._run(
        arena.play_board,
        [("normal", "easy", rules, 5)],
        "boards",
        1,
        ["easy", "normal"],
        {"normal": 0.01},
        True,
        "cpu",
    )
    (board,) = boards
    on_clock = board.clock_times["normal"]
    wall = board.times["normal"]
    assert on_clock and len(on_clock) == len(wall)
    assert min(on_clock) >= 1000.0
    assert max(wall) < 100.0
    assert clock.current() == "wall"  # only the workers switched


def test_the_arena_says_which_clock_and_defaults_to_cpu(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--a", "normal", "--b", "easy", "--deals", "1", "--games", "0", "--workers", "1"]
    assert arena.main([*argv, "--budget-a", "0.005", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "budgets on the cpu clock" in out
    assert "clock = cpu, process CPU time" in out
    assert arena.main([*argv, "--budget-a", "0.005", "--quiet", "--clock", "wall"]) == 0
    assert "budgets on the wall clock" in capsys.readouterr().out
