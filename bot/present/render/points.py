"""One deal of a finished game as the score chart and the end-of-game summary see
it (:class:`DealPoint`, collected by :func:`bot.present.chart.deal_history`). Here,
in the text package, so the summary's text (:mod:`.summary`) and the chart
(:mod:`bot.present.chart`, which draws with this package's names) share it
without importing each other."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["HOW_MARKS", "DealPoint"]

HOW_MARKS: Final = ("tricks", "honours", "call", "ruff", "contract")
"""How a side scored in a deal, in the order a marker shows it (the last that applies wins):
``tricks``, ``honours`` (held), ``call`` (Can-ye answered or honours shown at the
call point), ``ruff`` (Ruffe and Trump's ruff), ``contract`` (a contract settled)."""


@dataclass(frozen=True, slots=True)
class DealPoint:
    """One deal of a finished game: where each side stood after it and how it scored."""

    game_no: int
    deal_no: int
    scores: tuple[int, ...]
    how: tuple[str, ...]  # per side: one of HOW_MARKS, or "" when it gained nothing
    game_winner: int | None = None  # the side that won the game with this deal
    game_how: str = ""  # how that game ended (GameOver.how: tricks, set, concession ...)
    tied: tuple[int, ...] = ()  # the sides sharing first place when the game ended tied
