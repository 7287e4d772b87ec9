"""``hard``'s sharper evaluation for the open tables of :mod:`engine.ai.open_search`.

``normal`` and ``hard`` search Ruffe and Trump for three or two, single-handed
Ruffe and Trump and Turnover Bridge with the same sampled worlds and greedy
playouts; more worlds of the same evaluation changed few of hard's decisions
(docs/arena/PROBES.md). :class:`Sharp` is what ``hard`` adds (``normal``
never uses it):

* **Inference from the play** (:meth:`Sharp.weight`). Every sampled world is
  weighted by how well it explains the cards the other seats have played: the
  completed tricks and the current one are replayed backwards in the world (a
  seat's hand at an earlier trick is its hand now plus the cards it has played
  since) and, for each card another seat played with a choice (two legal cards
  or more), the world's weight is multiplied by ``(1 - eps) * [the playout
  policy would have played it] + eps / (its legal cards)``. A card counts as
  the policy's when it is equivalent to it (same suit, every card still out
  between them in the same hand). The search then takes the weighted mean.
  Turnover Bridge is not inferred from: a layout card's history (which card
  lay beneath which, when it turned up) would have to be replayed too, and its
  layouts leave little hidden anyway; its worlds all weigh one.
* **The value of a deal relative to the others** (:func:`relative_value`).
  With three or four players each for himself (Ruffe and Trump for three,
  single-handed), a deal is worth the seat's points over par *minus the mean
  of the others' points*, as the arena and the race to the set judge it:
  ``deal_value`` counts only the seat's own points, so once the seat cannot
  reach par every card looks alike to it, though its tricks may still be taken
  from the player running away with the deal. With two sides the two agree.
* **An exact end that keeps everyone's tricks** (:func:`solve_maxn`). With
  more than two sides the exact solve of :func:`engine.ai.open_search.solve`
  (the others as one coalition, their tricks not told apart) cannot feed
  :func:`relative_value`; here every seat plays for itself (max^n): the
  searching seat to its relative value, each other seat to its own
  :func:`~engine.ai.open_search.deal_value` (its points over par and its
  tricks, which is what ``normal``'s own search maximises), ties broken
  against the searching seat. Two sides keep that solve, exact for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..game import SeatView
from ..rules import Rules
from . import clock, open_search
from .core import SUIT_BITS, trick_winner_pos
from .open_search import TRICK_WEIGHT, Known, World, deal_value, greedy_card

__all__ = ["INFER_EPS", "Observed", "Sharp", "observations", "relative_value", "solve_maxn"]

INFER_EPS: Final = 0.4  # share of a seat's plays taken as not the playout policy's


@dataclass(frozen=True, slots=True)
class Observed:
    """One card played this deal: by ``seat`` to the trick led by ``leader`` after ``before``."""

    seat: int
    card: int
    leader: int
    before: tuple[int, ...]


def observations(view: SeatView) -> list[Observed]:
    """Every card played this deal, in the order played (the current trick included)."""
    n = view.n_seats
    out: list[Observed] = []
    tricks: list[tuple[int, list[int]]] = [
        (leader, [c.index for c in cards]) for leader, cards, _ in view.completed_tricks
    ]
    if view.trick:
        tricks.append((view.trick_leader, [c.index for _, c in view.trick]))
    for leader, cards in tricks:
        for i, c in enumerate(cards):
            out.append(Observed((leader + i) % n, c, leader, tuple(cards[:i])))
    return out


def relative_value(rules: Rules, sides: Sequence[int], side: int, tricks: Sequence[int]) -> float:
    """What a deal ending with ``tricks`` (per side) is worth to ``side`` against the others.

    Ruffe and Trump with three or four sides: the side's points over par minus
    the mean of the other sides' points, plus :data:`TRICK_WEIGHT` a trick.
    Otherwise :func:`~engine.ai.open_search.deal_value` (with two sides it
    already subtracts the opponent's points).
    """
    n_sides = len(tricks)
    if rules.family != "ruffe_trump" or n_sides <= 2:
        return deal_value(rules, sides, side, tricks)
    from ..families.ruffe_trump import par

    n = len(sides)
    over = par(rules, n_sides)
    points = [max(0, t * n - over) for t in tricks]
    others = sum(points) - points[side]
    return points[side] - others / (n_sides - 1) + TRICK_WEIGHT * tricks[side]


def solve_maxn(
    world: World,
    leader: int,
    trick: list[int],
    trump: int,
    sides: Sequence[int],
    tricks: list[int],
    stop: int,
    side: int,
    rules: Rules,
    deadline: float,
) -> list[int]:
    """Play ``world`` out exactly, every seat for itself (max^n): ``side`` maximising its
    :func:`relative_value`, every other seat its own ``deal_value`` (among equal
    choices, the one worst for ``side``); the final tricks per side.

    Handles face-up layouts as :func:`~engine.ai.open_search.solve` does.
    Raises :class:`TimeoutError` past ``deadline``.
    """
    n = len(sides)
    n_sides = len(tricks)
    hands = list(world.hands)
    ups = list(world.ups)
    fresh = list(world.fresh)
    under = [dict(u) for u in world.under]
    memo: dict[tuple[object, ...], tuple[int, ...]] = {}
    values: dict[tuple[int, tuple[int, ...]], float] = {}
    visits = 0

    def value(s: int, final: tuple[int, ...]) -> float:
        key = (s, final)
        got = values.get(key)
        if got is None:
            if s == side:
                got = values[key] = relative_value(rules, sides, s, final)
            else:
                got = values[key] = deal_value(rules, sides, s, final)
        return got

    def rec(leader: int, trick: tuple[int, ...], won: tuple[int, ...]) -> tuple[int, ...]:
        nonlocal visits, fresh
        if len(trick) == n:
            winner = (leader + trick_winner_pos(list(trick), trump)) % n
            after = list(won)
            after[sides[winner]] += 1
            if after[sides[winner]] >= stop:
                return tuple(after)
            saved = fresh
            fresh = [0] * n
            try:
                return rec(winner, (), tuple(after))
            finally:
                fresh = saved
        key = (*hands, *ups, *fresh, leader, trick, won)
        got = memo.get(key)
        if got is not None:
            return got
        visits += 1
        if not visits & 1023 and clock.now() > deadline:
            raise TimeoutError
        seat = (leader + len(trick)) % n
        avail = hands[seat] | (ups[seat] & ~fresh[seat])
        if not avail:
            return won
        legal = avail & SUIT_BITS[trick[0] // 13] if trick else 0
        legal = legal or avail
        mover = sides[seat]
        best: tuple[int, ...] | None = None
        best_key = (0.0, 0.0)
        m = legal
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            if hands[seat] & low:
                hands[seat] ^= low
                final = rec(leader, (*trick, c), won)
                hands[seat] ^= low
            else:
                old_ups, old_fresh, old_under = ups[seat], fresh[seat], under[seat]
                mine = dict(old_under)
                stack = mine.pop(c, ())
                ups[seat] ^= low
                if stack:
                    top = stack[-1]
                    mine[top] = stack[:-1]
                    ups[seat] |= 1 << top
                    fresh[seat] |= 1 << top
                under[seat] = mine
                final = rec(leader, (*trick, c), won)
                ups[seat], fresh[seat], under[seat] = old_ups, old_fresh, old_under
            mine_value = value(mover, final)
            key2 = (mine_value, -value(side, final)) if mover != side else (mine_value, 0.0)
            if best is None or key2 > best_key:
                best, best_key = final, key2
        assert best is not None
        memo[key] = best
        return best

    final = rec(leader, tuple(trick), tuple(tricks))
    if len(final) != n_sides:  # never: every path keeps one count per side
        raise ValueError("solve_maxn lost a side")
    return list(final)


class Sharp:
    """hard's evaluation of one decision's sampled worlds (see the module docstring)."""

    def __init__(self, k: Known, observed: Sequence[Observed], eps: float = INFER_EPS) -> None:
        self.k = k
        self.observed = list(observed)  # the plays inferred from, in the order played
        self.eps = eps
        self.side = k.sides[k.seat]

    @classmethod
    def of(cls, view: SeatView, k: Known, eps: float = INFER_EPS) -> Sharp:
        """The evaluation of ``view``'s decision (no inference under layouts)."""
        layouts = any(pile.up is not None for piles in view.layouts for pile in piles)
        return cls(k, [] if layouts else observations(view), eps)

    def weight(self, world: World) -> float:
        """How well ``world`` explains the other seats' plays (1.0 when nothing is inferred)."""
        k = self.k
        if not self.observed:
            return 1.0
        hands = list(world.hands)
        alive = 0
        for h in hands:
            alive |= h
        eps = self.eps
        w = 1.0
        for o in reversed(self.observed):
            bit = 1 << o.card
            hands[o.seat] |= bit
            alive |= bit
            if o.seat == k.seat:
                continue
            mine = hands[o.seat]
            legal = mine & SUIT_BITS[o.before[0] // 13] if o.before else 0
            legal = legal or mine
            count = legal.bit_count()
            if count <= 1:
                continue
            g = greedy_card(hands, o.seat, o.before, o.leader, k.trump, k.sides, alive)
            same = g == o.card
            if not same and g // 13 == o.card // 13:
                lo, hi = min(g, o.card), max(g, o.card)
                between = ((1 << hi) - (2 << lo)) & alive
                same = not between & ~mine
            w *= (1.0 - eps) * same + eps / count
        return w

    def value(self, final: Sequence[int]) -> float:
        """The deal's worth to the searching seat's side (:func:`relative_value`)."""
        return relative_value(self.k.rules, self.k.sides, self.side, final)

    def solve(self, after: World, trick: list[int], deadline: float) -> list[int]:
        """The exact end of ``after`` from ``trick``: :func:`~engine.ai.open_search.solve` with two sides,
        :func:`solve_maxn` with more."""
        k = self.k
        if len(k.tricks) <= 2:
            return open_search.solve(
                after, k.leader, trick, k.trump, k.sides, k.tricks, k.stop, self.side, deadline
            )
        return solve_maxn(
            after, k.leader, trick, k.trump, k.sides, k.tricks, k.stop, self.side, k.rules, deadline
        )
