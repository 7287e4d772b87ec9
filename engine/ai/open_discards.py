"""``hard``'s rub at the open tables: which cards to lay out, by playouts.

In Ruffe and Trump for three or two, and single-handed, the holder of the trump
ace who takes the head's top four in lays out as many cards (his *lay-out*) before
the play. The four-handed partnership planner (:func:`engine.ai.search.plan_discards`)
knows only partners opposite, and ``easy`` and ``normal`` lay out by the maxims
(:func:`engine.ai.discard.greedy_discards` and its kin). ``hard`` searches it:

* the candidates are the most promising sets by the hand-strength estimate
  (:func:`engine.ai.discard.candidate_discards`: never an honour of trumps while
  other cards will do; the maxims' own set among them);
* the unseen cards are dealt again and again consistently with what the rubber
  knows (:func:`engine.ai.open_search.sample_world`: the other hands, the head's
  rest out of play), and in every such world each candidate hand is played out
  greedily from the first lead (:func:`engine.ai.open_search.playout`), every
  candidate against the same worlds, so their difference is not sampling noise;
* the set with the best mean deal value for the rubber
  (:func:`engine.ai.open_search.deal_value`: his card points over par, less the
  opponent's at a table of two) is laid out; a tie keeps the estimate's order.

It is deterministic for a given deal (its RNG is seeded from the cards) and keeps
to a CPU-time budget (:mod:`engine.ai.clock`), at least ``MIN_WORLDS`` worlds.
"""

from __future__ import annotations

import random
from typing import Final

from engine.ai import clock
from engine.ai.core import NO_TRUMP
from engine.ai.discard import candidate_discards, greedy_discards
from engine.ai.knowledge import opening_leader
from engine.ai.open_search import World, applies, deal_value, knowledge_of, playout, sample_world
from engine.game import SeatView

__all__ = ["CANDIDATES", "MIN_WORLDS", "plan_open_discards"]

CANDIDATES: Final = 10  # sets of discards played out (the estimate's best, plus the maxims' set)
MIN_WORLDS: Final = 8  # worlds played out at least, whatever the budget
MAX_WORLDS: Final = 400  # ... and at most


def plan_open_discards(
    view: SeatView, hand: int, allowed: int, count: int, budget: float, relative: bool = False
) -> list[int]:
    """The ``count`` cards (indices) of ``allowed`` for the rubber to lay out
    (see the module docstring); ``budget`` seconds of search at most, beyond
    ``MIN_WORLDS`` worlds; ``relative`` as in
    :func:`engine.ai.open_search.deal_value`."""
    k = knowledge_of(view) if applies(view) else None
    trump = k.trump if k is not None else (view.trump.order if view.trump is not None else NO_TRUMP)
    cands = candidate_discards(hand, allowed, trump, count, CANDIDATES)
    if k is None or len(cands) <= 1:
        return list(cands[0]) if cands else greedy_discards(hand, allowed, trump, count)
    start = clock.now()
    rng = random.Random(hand * 7 + k.seat)
    leader = opening_leader(view)
    side = k.sides[k.seat]
    start_tricks = [0] * len(k.tricks)
    keeps = []
    for combo in cands:
        out = 0
        for c in combo:
            out |= 1 << c
        keeps.append(hand & ~out)
    totals = [0.0] * len(cands)
    worlds = 0
    while worlds < MAX_WORLDS and (worlds < MIN_WORLDS or clock.now() - start < budget):
        world = sample_world(k, rng)
        if world is None:
            break
        for i, keep in enumerate(keeps):
            hands = list(world.hands)
            hands[k.seat] = keep
            final = playout(World(hands, world.ups, world.fresh, world.under), leader, [], k.trump, k.sides, start_tricks, k.stop)
            totals[i] += deal_value(k.rules, k.sides, side, final, relative)
        worlds += 1
    if not worlds:
        return list(cands[0])
    best = max(range(len(cands)), key=lambda i: (totals[i], -i))
    return list(cands[best])
