"""The time rule of a round with no director: which boards may still start, when the
round is over, and how a board the clock left unplayed is scored.

A round of ``boards`` boards at ``minutes_per_board`` has ``boards x minutes_per_board``
minutes from its start. A board may start only while at least ``start_share`` (80%,
StepBridge's rule) of one board's time is left in the round; a board that started is
played to its end (the turn timers bound it). A board that may no longer start is
*skipped*: the side that thought less in the round at that table scores
``skipped_fast`` (60%), the other ``skipped_slow`` (40%); equal thinking, 50% each.

Times are seconds on any one clock (the store's ``clock()``, epoch seconds).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "STEPBRIDGE",
    "RoundClock",
    "TableProgress",
    "TimeRule",
    "round_over",
    "skipped_boards",
    "skipped_split",
]


@dataclass(frozen=True, slots=True)
class TimeRule:
    """The rule's numbers (defaults: StepBridge's 80% and 60/40)."""

    start_share: Fraction = Fraction(4, 5)  # of one board's time, left in the round
    skipped_fast: Fraction = Fraction(60)  # percent, the side that thought less
    skipped_slow: Fraction = Fraction(40)  # percent, the side that thought more

    def __post_init__(self) -> None:
        if not 0 <= self.start_share <= 1:
            raise ValueError(f"start_share must be within 0..1, not {self.start_share}")
        if self.skipped_fast + self.skipped_slow != 100:
            raise ValueError("a skipped board's two scores must add up to 100")


STEPBRIDGE = TimeRule()


@dataclass(frozen=True, slots=True)
class RoundClock:
    """A round's clock: when it started, how long a board has, how many boards."""

    start: float  # seconds
    minutes_per_board: float
    boards: int
    rule: TimeRule = STEPBRIDGE

    def __post_init__(self) -> None:
        if self.minutes_per_board <= 0:
            raise ValueError("minutes_per_board must be positive")
        if self.boards < 1:
            raise ValueError("a round has at least one board")

    @property
    def board_seconds(self) -> float:
        return self.minutes_per_board * 60.0

    @property
    def end(self) -> float:
        """When the round's time is up."""
        return self.start + self.boards * self.board_seconds

    @property
    def last_start(self) -> float:
        """The last moment a board may start: ``start_share`` of a board's time before the end."""
        return self.end - float(self.rule.start_share) * self.board_seconds

    def may_start(self, now: float) -> bool:
        """Whether a board may start at ``now``."""
        return now <= self.last_start


@dataclass(frozen=True, slots=True)
class TableProgress:
    """Where one table stands in the round."""

    finished: int  # boards played to the end
    playing: bool  # a board is under way


def skipped_boards(clock: RoundClock, now: float, progress: TableProgress) -> tuple[int, ...]:
    """The boards (0-based, in the round's order) that the table can no longer start at
    ``now``: none while a board may start or one is under way, else every board after
    those started."""
    if progress.playing or clock.may_start(now):
        return ()
    return tuple(range(progress.finished, clock.boards))


def round_over(clock: RoundClock, now: float, tables: Sequence[TableProgress]) -> bool:
    """Whether the round is over at ``now``: every table has played all its boards, or
    has no board under way and may start no other (the rest are skipped)."""
    return all(
        t.finished >= clock.boards or (not t.playing and not clock.may_start(now)) for t in tables
    )


def skipped_split(
    ns_thinking: float, ew_thinking: float, rule: TimeRule = STEPBRIDGE
) -> tuple[Fraction, Fraction]:
    """A skipped board's (north-south, east-west) percentages from the two sides' thinking
    time in the round at that table: the quicker side ``skipped_fast``, the slower
    ``skipped_slow``, 50 each when equal."""
    if ns_thinking < ew_thinking:
        return rule.skipped_fast, rule.skipped_slow
    if ew_thinking < ns_thinking:
        return rule.skipped_slow, rule.skipped_fast
    return Fraction(50), Fraction(50)
