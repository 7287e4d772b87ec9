"""The arena's outside baselines, kept apart from the players (who never import them).

* ``rules`` (:class:`~engine.ai.baselines.rules.ConventionalPlayer`): the
  classic maxims, no search;
* ``pimc`` (:mod:`~engine.ai.baselines.pimc`): plain PIMC, uniform worlds solved
  double dummy at ``hard``'s budget, no inference;
* ``ismcts`` (:class:`~engine.ai.baselines.search.IsmctsPlayer`): generic
  single-observer ISMCTS at ``hard``'s CPU a decision;
* ``oracle`` (:class:`~engine.ai.baselines.search.OraclePlayer`): double-dummy
  play that sees every hand (the arena alone gives it the game).

:func:`arena_player` makes any level, a player's or a baseline's.
"""

from __future__ import annotations

from engine.ai.baselines.pimc import PIMC, pimc_player
from engine.ai.baselines.rules import ConventionalPlayer
from engine.ai.baselines.search import EXACT_CARDS, IsmctsPlayer, OraclePlayer, exact_card
from engine.ai.levels import BASELINE_LEVELS, HARD
from engine.ai.players import GuardedPlayer, Player, get_player

__all__ = [
    "EXACT_CARDS",
    "PIMC",
    "IsmctsPlayer",
    "OraclePlayer",
    "arena_player",
    "baseline_player",
    "exact_card",
    "pimc_player",
]


def baseline_player(level: str, budget: float | None = None) -> Player:
    """The baseline ``level`` (one of :data:`~engine.ai.levels.BASELINE_LEVELS`);
    ``budget``: the CPU seconds a decision of ``pimc``, ``ismcts`` and the oracle's
    searches (``hard``'s when not given)."""
    if level == "rules":
        return ConventionalPlayer()
    if level == "pimc":
        return pimc_player(budget)
    soft = HARD.soft if budget is None else budget
    if level == "ismcts":
        return GuardedPlayer(IsmctsPlayer(soft), ConventionalPlayer(), cap=HARD.cap)
    if level == "oracle":
        return OraclePlayer(get_player("hard", budget=budget), soft)
    raise ValueError(f"unknown baseline {level!r} (known: {', '.join(BASELINE_LEVELS)})")


def arena_player(level: str, *, budget: float | None = None) -> Player:
    """A player of any level the arena knows: a baseline, else :func:`get_player`'s."""
    if level in BASELINE_LEVELS:
        return baseline_player(level, budget)
    return get_player(level, budget=budget)
