"""The value of a finished deal to a seat (:func:`deal_value`): card points over
par, the deal won, or the side's tricks, with a tie-break per trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.rules import Rules

__all__ = ["TRICK_WEIGHT", "deal_value"]

TRICK_WEIGHT: Final = 0.01  # value of one trick beside the deal's points (a tie-break)


def deal_value(
    rules: Rules, sides: Sequence[int], side: int, tricks: Sequence[int], relative: bool = False
) -> float:
    """What a deal ending with ``tricks`` (per side) is worth to ``side`` (module docstring).

    ``relative`` (Ruffe and Trump with three or more sides): less the mean of
    the others' card points too, as at a table of two.
    """
    mine = tricks[side]
    n_sides = len(tricks)
    if rules.family == "ruffe_trump":
        from engine.families.ruffe_trump import par

        n = len(sides)
        over = par(rules, n_sides)
        value = max(0, mine * n - over) + TRICK_WEIGHT * mine
        if n_sides == 2:  # one opponent: his points are my loss
            value -= max(0, tricks[1 - side] * n - over)
        elif relative:
            value -= sum(max(0, t * n - over) for s, t in enumerate(tricks) if s != side) / (
                n_sides - 1
            )
        return value
    if rules.scoring in ("deal_win", "odd_tricks"):
        half = rules.tricks_per_deal // 2
        other = max(t for s, t in enumerate(tricks) if s != side)
        if rules.scoring == "odd_tricks":
            return max(0, mine - half) - max(0, other - half) + TRICK_WEIGHT * mine
        return (mine > half) - (other > half) + TRICK_WEIGHT * mine
    return float(mine)
