"""The time rule: a board starts only with 80% of one board's time left in the round;
the round is over when every table is done or may start nothing more; a skipped board
scores 60/40 by thinking time."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from bot.competition.events.timing import (
    RoundClock,
    TableProgress,
    TimeRule,
    round_over,
    skipped_boards,
    skipped_split,
)

# 4 boards at 5 minutes from t=1000: the round ends at 2200; the last start is 2200 - 240
CLOCK = RoundClock(start=1000.0, minutes_per_board=5, boards=4)


def test_the_round_end_and_the_last_start() -> None:
    assert CLOCK.end == 2200.0
    assert CLOCK.last_start == 1960.0
    assert CLOCK.may_start(1000.0)
    assert CLOCK.may_start(1960.0)
    assert not CLOCK.may_start(1960.5)


def test_a_board_starts_only_with_80_percent_of_its_time_left() -> None:
    rng = random.Random(7)
    for _ in range(500):
        clock = RoundClock(
            start=rng.uniform(0, 1e6),
            minutes_per_board=rng.choice([3, 4.5, 7, 10]),
            boards=rng.randint(1, 8),
        )
        now = rng.uniform(clock.start, clock.end + 600)
        left, needed = clock.end - now, 0.8 * clock.board_seconds
        if abs(left - needed) > 1e-6:  # away from the edge, where rounding could go either way
            assert clock.may_start(now) == (left > needed)


def test_which_boards_a_late_table_can_no_longer_start() -> None:
    # two boards played, none under way, after the last start: the last two are skipped
    assert skipped_boards(CLOCK, 1970.0, TableProgress(finished=2, playing=False)) == (2, 3)
    # a board under way is played to its end; nothing is skipped yet
    assert skipped_boards(CLOCK, 1970.0, TableProgress(finished=2, playing=True)) == ()
    # in time: nothing skipped
    assert skipped_boards(CLOCK, 1900.0, TableProgress(finished=2, playing=False)) == ()
    # all played: nothing left to skip
    assert skipped_boards(CLOCK, 2500.0, TableProgress(finished=4, playing=False)) == ()


def test_the_round_is_over_when_every_table_is_done_or_stopped_by_the_clock() -> None:
    done = TableProgress(4, False)
    waiting = TableProgress(3, False)
    playing = TableProgress(3, True)
    assert round_over(CLOCK, 1500.0, [done, done])
    assert not round_over(CLOCK, 1500.0, [done, waiting])  # may still start its last board
    assert round_over(CLOCK, 1970.0, [done, waiting])  # too late: its last board is skipped
    assert not round_over(CLOCK, 1970.0, [done, playing])  # a board under way finishes
    assert not round_over(CLOCK, 9999.0, [playing])


def test_a_skipped_board_goes_60_40_to_the_side_that_thought_less() -> None:
    assert skipped_split(100.0, 250.0) == (Fraction(60), Fraction(40))
    assert skipped_split(250.0, 100.0) == (Fraction(40), Fraction(60))
    assert skipped_split(90.0, 90.0) == (Fraction(50), Fraction(50))
    rule = TimeRule(skipped_fast=Fraction(70), skipped_slow=Fraction(30))
    assert skipped_split(1.0, 2.0, rule) == (Fraction(70), Fraction(30))


def test_the_rule_and_the_clock_refuse_nonsense() -> None:
    with pytest.raises(ValueError):
        TimeRule(skipped_fast=Fraction(60), skipped_slow=Fraction(50))
    with pytest.raises(ValueError):
        TimeRule(start_share=Fraction(3, 2))
    with pytest.raises(ValueError):
        RoundClock(0.0, 0, 4)
    with pytest.raises(ValueError):
        RoundClock(0.0, 5, 0)
