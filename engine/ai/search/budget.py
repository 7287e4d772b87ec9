"""How long a search may run, and how many worlds it samples.

A level's :class:`~engine.ai.levels.Profile` becomes one :class:`Budget` per
kind of search; the searches read the time from :mod:`engine.ai.search.clock`.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Budget"]


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a decision may search."""

    soft: float  # stop starting new worlds after this many seconds
    cap: float = 1.5  # never run past this (seconds)
    min_worlds: int = 1
    max_worlds: int = 400
    margin: float = 0.0  # a cheaper card within this mean value of the best is preferred
    exact_worlds: int = 0  # play against every possible world when there are at most this many
    exact_cards: int = 2  # ... and the seat holds at most this many cards
