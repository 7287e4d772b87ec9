"""What hard's worlds cost early in the deal (tools.bench_solver), and choice_regret's
look at a level against itself at two budgets in chosen tricks (issue 36)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.ai import clock
from engine.ai.search import dds
from engine.ai.search.bitmasks import NO_TRUMP
from tools import bench_solver, choice_regret

pytestmark = pytest.mark.slow  # left out by `make test-fast`

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _the_clock_as_it_was() -> Iterator[None]:
    """The tools' ``main`` sets the process's AI clock to the CPU's, as a run of its own
    would: put back the one the other tests of this process expect."""
    was = clock.current()
    yield
    clock.use(was)


PLAYS = str(ROOT / "docs/arena/plays/whist-5-hard-vs-pimc.jsonl.gz")


def _deal(cards: int) -> list[int]:
    # seat s holds the cards s, s + 4, s + 8, ... of the first 4 * cards
    hands = [0, 0, 0, 0]
    for c in range(4 * cards):
        hands[c % 4] |= 1 << c
    return hands


@pytest.mark.skipif(not dds.available(), reason="DDS (endplay) is not installed")
def test_a_measured_solve_starts_from_an_empty_table_every_time() -> None:
    hands = _deal(8)
    first = dds.measure_solve(hands, 0, [], NO_TRUMP)
    again = dds.measure_solve(hands, 0, [], NO_TRUMP)
    # DDS reuses its table for the deal it solved last: without the reset in between
    # the second solve would be a handful of nodes
    assert again.nodes == first.nodes > 50
    best = dds.measure_solve(hands, 0, [], NO_TRUMP, every_card=False)
    assert 0 < best.nodes <= first.nodes


@pytest.mark.skipif(not dds.available(), reason="DDS (endplay) is not installed")
def test_the_bench_prints_every_early_trick_with_its_worlds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--forms", "whist-5", "--deals", "1", "--worlds", "1", "--scale", "1.5"]
    assert bench_solver.main(argv) == 0
    out = capsys.readouterr().out
    for trick in (1, 2, 3):
        assert f"whist-5 trick {trick}:" in out
    lines = [x for x in out.splitlines() if x.strip().startswith("worlds a decision")]
    assert len(lines) == 3
    for line in lines:
        # at least one world a decision at either budget, never past hard's cap of 64
        words = line.split()
        assert 1 <= int(words[4]) <= 64 and "at 300 ms" in line
    assert "% of it scoring worlds;" in out and "decisions on 1 or 2 worlds" in out


def test_positions_can_be_drawn_from_the_first_tricks_only() -> None:
    early = choice_regret.positions([PLAYS], 30, 1, (1, 3))
    late = choice_regret.positions([PLAYS], 30, 1, (4, 13))
    assert len(early) == len(late) == 30
    # cards already gone from the four hands: fewer than 12 before trick 4
    assert all(52 - sum(h.bit_count() for h in g.hands[:4]) < 12 for g in early)
    assert all(52 - sum(h.bit_count() for h in g.hands[:4]) >= 12 for g in late)


def test_the_same_level_at_two_budgets_is_compared(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [PLAYS, "--a", "normal", "--b", "normal", "--budget-a", "0.01", "--positions", "3"]
    argv += ["--tricks", "2-2"]
    assert choice_regret.main(argv) == 0
    out = capsys.readouterr().out
    assert "3 positions" in out and "tricks 2-2" in out
    assert "normal@0.01s - normal:" in out
    with pytest.raises(SystemExit):
        choice_regret.main([PLAYS, "--a", "normal", "--b", "normal", "--positions", "3"])
