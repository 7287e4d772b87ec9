"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS) for the card play.

The published algorithm (Cowling, Powley and Whitehouse, "Information Set Monte
Carlo Tree Search", IEEE TCIAIG 4(2), 2012), written here over the engine's
card model (card indices, a trump suit, the high rank order; two to four seats,
any sides, face-up layouts whose face-down cards turn up as in the game, a deal
that stops when a side reaches a number of tricks), as an outside baseline for
the arena:

* one tree for the observer; its nodes are the *moves* (cards) from the
  observer's information set, shared by every determinization;
* each iteration samples a determinization (``sample``: a world consistent with
  what the seat has seen, :mod:`engine.ai.search.worlds` or
  :mod:`engine.ai.search.open_search`),
  then descends the tree among the children whose move is legal in that world,
  by UCB1 with *availability* counts (a child's exploration term counts the
  visits to its parent in which it was available), expands one untried legal
  move, plays the rest of the deal out at random, and backs up the result;
* the reward of a node is for the side of the seat that made its move: the
  share of the deal's tricks that side takes (for a misère declarer, the share
  it loses; for his opponents, the share he takes).

The move played is the root's most visited child. :func:`search` runs a given
number of iterations or until the deadline of the AI's clock
(:mod:`engine.ai.search.clock`), whichever comes first.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.ai.search import clock
from engine.ai.search.bitmasks import SUIT_BITS, card_indices, trick_winner_pos
from engine.ai.search.open_search import World

__all__ = [
    "Deal",
    "State",
    "World",
    "search",
    "world_of_hands",
]

EXPLORATION = 0.7  # UCB1's constant (rewards lie in 0..1)


@dataclass(slots=True)
class Deal:
    """The public state of the deal at the observer's decision (card indices)."""

    seat: int  # the observer, to play now
    leader: int  # who led the trick in progress
    trick: list[int]  # cards played to it, in order
    trump: int  # 0..3, or 4 for no trump
    tricks: tuple[int, ...]  # tricks taken so far, per side
    sides: tuple[int, ...]  # the side each seat plays for
    misere_side: int | None = None  # the side of a misère declarer, if any
    stop: int = 10**6  # the deal ends when a side has this many tricks


@dataclass(slots=True)
class _Node:
    move: int = -1
    seat: int = -1  # who made ``move``
    visits: int = 0
    reward: float = 0.0
    available: int = 0
    children: dict[int, _Node] = field(default_factory=dict)


def world_of_hands(hands: list[int]) -> World:
    """A world of hands alone (no layouts)."""
    n = len(hands)
    return World(list(hands), [0] * n, [0] * n, [{} for _ in range(n)])


class State:
    """One determinization being played: the world's cards and the deal's progress."""

    __slots__ = ("deal", "n", "hands", "ups", "fresh", "under", "trick", "leader", "won", "over")

    def __init__(self, deal: Deal, world: World) -> None:
        self.deal = deal
        self.n = len(deal.sides)
        self.hands = list(world.hands[: self.n])
        self.ups = list(world.ups[: self.n])
        self.fresh = list(world.fresh[: self.n])
        self.under = [dict(u) for u in world.under[: self.n]]
        self.trick = list(deal.trick)
        self.leader = deal.leader
        self.won = list(deal.tricks)
        self.over = False

    @property
    def seat(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    def legal(self) -> int:
        """The cards the seat to play may play (0: the deal is over)."""
        if self.over:
            return 0
        seat = self.seat
        avail = self.hands[seat] | self.ups[seat] & ~self.fresh[seat]
        if not self.trick:
            return avail
        return avail & SUIT_BITS[self.trick[0] // 13] or avail

    def step(self, move: int) -> None:
        seat = self.seat
        bit = 1 << move
        if self.hands[seat] & bit:
            self.hands[seat] ^= bit
        else:  # a face-up layout card: the card beneath turns up
            self.ups[seat] ^= bit
            stack = self.under[seat].pop(move, ())
            if stack:
                top = stack[-1]
                self.under[seat][top] = stack[:-1]
                self.ups[seat] |= 1 << top
                self.fresh[seat] |= 1 << top
        self.trick.append(move)
        if len(self.trick) < self.n:
            return
        deal = self.deal
        winner = (self.leader + trick_winner_pos(self.trick, deal.trump)) % self.n
        side = deal.sides[winner]
        self.won[side] += 1
        self.trick = []
        self.leader = winner
        self.fresh = [0] * self.n
        if self.won[side] >= deal.stop:
            self.over = True

    def reward(self, side: int) -> float:
        """The deal's result for ``side``, in 0..1 (see the module docstring)."""
        total = sum(self.won) or 1
        misere = self.deal.misere_side
        if misere is None:
            return self.won[side] / total
        if side == misere:
            return 1.0 - self.won[side] / total
        return self.won[misere] / total


def search(
    deal: Deal,
    sample: Callable[[random.Random], World | None],
    rng: random.Random,
    *,
    root: int = 0,
    iterations: int = 1_000_000,
    deadline: float = math.inf,
) -> int | None:
    """The card (index) the observer should play, or ``None`` if no world could be sampled.

    ``root`` (a mask), when given, is the observer's legal cards (else the world's).
    """
    top = _Node()
    done = 0
    while done < iterations and (done == 0 or clock.now() < deadline):
        world = sample(rng)
        if world is None:
            if done == 0:
                return None
            break
        done += 1
        state = State(deal, world)
        node = top
        path = [top]
        # selection, then the expansion of one untried move
        while True:
            legal = root if node is top and root else state.legal()
            if not legal:
                break
            moves = card_indices(legal)
            for m in moves:
                child = node.children.get(m)
                if child is not None:
                    child.available += 1
            untried = [m for m in moves if m not in node.children]
            if untried:
                move = rng.choice(untried)
                node.children[move] = node = _Node(move=move, seat=state.seat, available=1)
                path.append(node)
                state.step(move)
                break
            best: _Node | None = None
            best_score = -math.inf
            for m in moves:
                c = node.children[m]
                score = c.reward / c.visits + EXPLORATION * math.sqrt(
                    math.log(c.available) / c.visits
                )
                if score > best_score:
                    best, best_score = c, score
            assert best is not None
            node = best
            path.append(node)
            state.step(node.move)
        # the rest of the deal at random
        while legal := state.legal():
            state.step(rng.choice(card_indices(legal)))
        for visited in path[1:]:
            visited.visits += 1
            visited.reward += state.reward(deal.sides[visited.seat])
    if not top.children:
        return None
    return max(top.children.values(), key=lambda c: (c.visits, c.reward, -c.move)).move
