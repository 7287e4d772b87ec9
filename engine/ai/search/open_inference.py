"""``hard``'s sharper evaluation for the open tables of :mod:`engine.ai.search.open_search`.

``normal`` and ``hard`` search Ruffe and Trump for three or two, single-handed
Ruffe and Trump and Turnover Bridge with the same sampled worlds and greedy
playouts; the inference of :class:`Sharp` is what ``hard`` adds (``normal``
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

What was tried beside it and not kept is in docs/arena/PROBES.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.ai.search.bitmasks import SUIT_BITS
from engine.ai.search.open_search import Known, World, greedy_card
from engine.game import SeatView

__all__ = ["INFER_EPS", "Observed", "Sharp", "observations"]

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


class Sharp:
    """hard's evaluation of one decision's sampled worlds (see the module docstring)."""

    def __init__(self, k: Known, observed: Sequence[Observed], eps: float = INFER_EPS) -> None:
        self.k = k
        self.observed = list(observed)  # the plays inferred from, in the order played
        self.eps = eps

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
