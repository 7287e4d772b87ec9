"""A small exact double-dummy solver in pure Python.

Alpha-beta over card plays with a transposition table at trick boundaries and
touching-card merging (cards of one hand with no outstanding card between
them are interchangeable, so only one of them is searched). Fast enough for
endgames (about 6 cards a hand and below); the full hand goes to DDS when the
``endplay`` package is installed (see :mod:`engine.ai.search.dds`).

Values are tricks for side 0 (seats 0 and 2) from the current trick on.
"""

from __future__ import annotations

from engine.ai.search import clock
from engine.ai.search.bitmasks import NO_TRUMP, SUIT_BITS, trick_winner_pos

__all__ = ["SolverTimeout", "solve_cards"]


class SolverTimeout(Exception):
    """The solver passed its deadline."""


def _moves(hand: int, trick: list[int], everyone: int) -> list[int]:
    """Representative legal cards of ``hand`` (touching cards merged), low first."""
    if trick:
        led = SUIT_BITS[trick[0] // 13]
        follow = hand & led
        if follow:
            hand = follow
    out: list[int] = []
    for bits in SUIT_BITS:
        mine = hand & bits
        if not mine:
            continue
        rest = everyone & bits & ~mine
        # walk my cards low to high; keep the highest of each run of touching cards
        prev = -1
        m = mine
        while m:
            c = (m & -m).bit_length() - 1
            m &= m - 1
            if prev >= 0 and rest & ((1 << c) - (1 << (prev + 1))):
                out.append(prev)
            prev = c
        out.append(prev)
    return out


class _Search:
    __slots__ = ("trump", "tt", "nodes", "deadline")

    def __init__(self, trump: int, deadline: float) -> None:
        self.trump = trump
        self.tt: dict[tuple[int, int, int, int, int], tuple[int, int]] = {}
        self.nodes = 0
        self.deadline = deadline

    def value(self, hands: list[int], leader: int, trick: list[int], alpha: int, beta: int) -> int:
        """Tricks for side 0 from here (the current trick included), within alpha/beta."""
        n = len(trick)
        if n == 4:
            win = (leader + trick_winner_pos(trick, self.trump)) % 4
            got = 1 if win % 2 == 0 else 0
            if not hands[win]:
                return got
            return got + self.value(hands, win, [], alpha - got, beta - got)
        left = hands[(leader + n) % 4].bit_count()  # tricks left after this one... (incl.)
        if n == 0:
            if left == 0:
                return 0
            key = (hands[0], hands[1], hands[2], hands[3], leader)
            lo, hi = self.tt.get(key, (0, left))
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha = max(alpha, lo)
            beta = min(beta, hi)
            a0, b0 = alpha, beta
            self.nodes += 1
            if self.nodes & 1023 == 0 and clock.now() > self.deadline:
                raise SolverTimeout
        seat = (leader + n) % 4
        maximise = seat % 2 == 0
        hand = hands[seat]
        everyone = hands[0] | hands[1] | hands[2] | hands[3]
        for c in trick:
            everyone |= 1 << c
        moves = _moves(hand, trick, everyone)
        if n and len(moves) > 1:
            # try cards that win the trick so far first, cheapest first
            moves = self._order(moves, trick)
        best = -1 if maximise else 99
        for c in moves:
            hands[seat] = hand ^ (1 << c)
            trick.append(c)
            v = self.value(hands, leader, trick, alpha, beta)
            trick.pop()
            hands[seat] = hand
            if maximise:
                if v > best:
                    best = v
                    if best > alpha:
                        alpha = best
            else:
                if v < best:
                    best = v
                    if best < beta:
                        beta = best
            if alpha >= beta:
                break
        if n == 0:
            lo, hi = self.tt.get(key, (0, left))
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.tt[key] = (lo, hi)
        return best

    def _order(self, moves: list[int], trick: list[int]) -> list[int]:
        trump = self.trump
        win = trick[trick_winner_pos(trick, trump)]
        wsuit = win // 13
        beating: list[int] = []
        rest: list[int] = []
        for c in moves:
            s = c // 13
            if (s == wsuit and c > win) or (s == trump and wsuit != trump):
                beating.append(c)
            else:
                rest.append(c)
        return beating + rest


def solve_cards(
    hands: list[int],
    leader: int,
    trick: list[int],
    trump: int,
    deadline: float = float("inf"),
) -> dict[int, int]:
    """For every legal card of the seat to play: tricks its side takes from here.

    ``hands`` are the current hands (cards in ``trick`` already removed). Every
    card of a run of touching cards gets the run's value. Raises
    :class:`SolverTimeout` after ``deadline`` (a :func:`engine.ai.search.clock.now` value).
    """
    search = _Search(trump if trump != NO_TRUMP else NO_TRUMP, deadline)
    hands = list(hands)
    trick = list(trick)
    n = len(trick)
    seat = (leader + n) % 4
    hand = hands[seat]
    everyone = hands[0] | hands[1] | hands[2] | hands[3]
    for c in trick:
        everyone |= 1 << c
    total = hand.bit_count()
    result: dict[int, int] = {}
    for rep in _moves(hand, trick, everyone):
        hands[seat] = hand ^ (1 << rep)
        trick.append(rep)
        v = search.value(hands, leader, trick, -1, total + 1)
        trick.pop()
        hands[seat] = hand
        mine = v if seat % 2 == 0 else total - v
        result[rep] = mine
    # spread each representative's value to the touching cards it stands for
    legal = hand
    if trick:
        follow = hand & SUIT_BITS[trick[0] // 13]
        if follow:
            legal = follow
    reps = sorted(result)
    m = legal
    while m:
        c = (m & -m).bit_length() - 1
        m &= m - 1
        if c not in result:
            # the representative is the lowest rep above c in the same suit
            for r in reps:
                if r > c and r // 13 == c // 13:
                    result[c] = result[r]
                    break
    return result
