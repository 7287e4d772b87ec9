"""The exact solve of a world's endgame (:func:`solve`): every card of every seat,
with a transposition table, stopped at a deadline.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.ai.search import clock
from engine.ai.search.bitmasks import (
    SUIT_BITS,
    card_indices,
    trick_winner_pos,
)
from engine.ai.search.open_search.worlds import World, remaining_cards

__all__ = ["SOLVE_CHECK", "solve"]

# The exact solve reads the clock every SOLVE_CHECK positions, and a search stops
# CAP_RESERVE seconds (at most a tenth of the cap) before its cap, so that the
# answer is in by the cap: with layouts a position costs tens of microseconds and
# the solver's table grows large, and checking every 1024 positions let a
# decision of Turnover Bridge run 10 ms past the 1.5 s cap (once in about 2,500
# of hard's). Only a decision that reaches its cap is changed by either.
SOLVE_CHECK: Final = 128


def solve(
    world: World,
    leader: int,
    trick: list[int],
    trump: int,
    sides: Sequence[int],
    tricks: list[int],
    stop: int,
    side: int,
    deadline: float,
) -> list[int]:
    """Play ``world`` out exactly: ``side`` takes the most tricks it can against every
    other seat playing to hold it to the fewest (a "paranoid" search, exact in a
    two-seat game). Returns the final tricks per side as :func:`playout` does.

    Raises :class:`TimeoutError` past ``deadline``.
    """
    n = len(sides)
    hands = list(world.hands)
    ups = list(world.ups)
    fresh = list(world.fresh)
    under = [dict(u) for u in world.under]
    memo: dict[tuple[object, ...], int] = {}
    base = list(tricks)
    visits = 0

    def rec(leader: int, trick: tuple[int, ...], tricks: tuple[int, ...]) -> int:
        nonlocal visits, fresh
        if len(trick) == n:
            winner = (leader + trick_winner_pos(list(trick), trump)) % n
            won = list(tricks)
            won[sides[winner]] += 1
            gain = 1 if sides[winner] == side else 0
            if won[sides[winner]] >= stop:
                return gain
            saved = fresh
            fresh = [0] * n
            try:
                return gain + rec(winner, (), tuple(won))
            finally:
                fresh = saved
        key = (*hands, *ups, *fresh, leader, trick, tricks)
        got = memo.get(key)
        if got is not None:
            return got
        visits += 1
        if not visits % SOLVE_CHECK and clock.now() > deadline:
            raise TimeoutError
        seat = (leader + len(trick)) % n
        avail = hands[seat] | (ups[seat] & ~fresh[seat])
        if not avail:
            return 0
        legal = avail & SUIT_BITS[trick[0] // 13] if trick else 0
        legal = legal or avail
        maximise = sides[seat] == side
        best = -1 if maximise else 10**6
        for c in card_indices(legal):
            bit = 1 << c
            if hands[seat] & bit:
                hands[seat] ^= bit
                value = rec(leader, (*trick, c), tricks)
                hands[seat] ^= bit
            else:
                old_ups, old_fresh, old_under = ups[seat], fresh[seat], under[seat]
                mine = dict(old_under)
                stack = mine.pop(c, ())
                ups[seat] ^= bit
                if stack:
                    top = stack[-1]
                    mine[top] = stack[:-1]
                    ups[seat] |= 1 << top
                    fresh[seat] |= 1 << top
                under[seat] = mine
                value = rec(leader, (*trick, c), tricks)
                ups[seat], fresh[seat], under[seat] = old_ups, old_fresh, old_under
            if maximise and value > best or not maximise and value < best:
                best = value
        memo[key] = best
        return best

    gained = rec(leader, tuple(trick), tuple(base))
    # the others' share is not tracked trick by trick: it all goes to the first
    # other side (exact with two sides; the values of more sides read only their own)
    total_left = (remaining_cards(world) + len(trick)) // n
    final = list(base)
    final[side] += gained
    others = [s for s in range(len(final)) if s != side]
    if others:
        final[others[0]] += max(0, total_left - gained)
    return final
