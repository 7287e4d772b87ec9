"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS) for the card play.

The published algorithm (Cowling, Powley and Whitehouse, "Information Set Monte
Carlo Tree Search", IEEE TCIAIG 4(2), 2012), written here over the engine's
card model (card indices, a trump suit, the high rank order), as an outside
baseline for the arena:

* one tree for the observer; its nodes are the *moves* (cards) from the
  observer's information set, shared by every determinization;
* each iteration samples a determinization (``sample``: the four hands of a
  world consistent with what the seat has seen, :mod:`engine.ai.search.worlds`),
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
from engine.ai.search.bitmasks import SUIT_BITS, trick_winner_pos

__all__ = ["Deal", "search"]

EXPLORATION = 0.7  # UCB1's constant (rewards lie in 0..1)


@dataclass(slots=True)
class Deal:
    """The public state of the deal at the observer's decision (card indices)."""

    seat: int  # the observer, to play now
    leader: int  # who led the trick in progress
    trick: list[int]  # cards played to it, in order
    trump: int  # 0..3, or 4 for no trump
    tricks: tuple[int, int]  # tricks taken so far by side 0 and side 1
    sides: tuple[int, ...]  # the side each seat plays for
    misere_side: int | None = None  # the side of a misère declarer, if any


@dataclass(slots=True)
class _Node:
    move: int = -1
    seat: int = -1  # who made ``move``
    visits: int = 0
    reward: float = 0.0
    available: int = 0
    children: dict[int, _Node] = field(default_factory=dict)


def _legal(hand: int, trick: list[int]) -> int:
    if not trick:
        return hand
    follow = hand & SUIT_BITS[trick[0] // 13]
    return follow or hand


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def search(
    deal: Deal,
    sample: Callable[[random.Random], list[int] | None],
    rng: random.Random,
    *,
    iterations: int = 1_000_000,
    deadline: float = math.inf,
) -> int | None:
    """The card (index) the observer should play, or ``None`` if no world could be sampled."""
    root = _Node()
    n = len(deal.sides)
    done = 0
    while done < iterations and (done == 0 or clock.now() < deadline):
        world = sample(rng)
        if world is None:
            if done == 0:
                return None
            break
        done += 1
        hands = list(world[:n])
        trick = list(deal.trick)
        leader = deal.leader
        seat = deal.seat
        won = list(deal.tricks)
        node = root
        path = [root]
        # selection and expansion
        while True:
            if hands[seat] == 0:
                break
            legal = _legal(hands[seat], trick)
            moves = _bits(legal)
            untried = [m for m in moves if m not in node.children]
            if untried:
                move = rng.choice(untried)
                child = _Node(move=move, seat=seat)
                node.children[move] = child
                for m in moves:
                    if m in node.children:
                        node.children[m].available += 1
                node = child
                path.append(node)
                seat, leader = _step(hands, trick, won, deal, seat, leader, move)
                break
            best: _Node | None = None
            best_score = -math.inf
            for m in moves:
                c = node.children[m]
                c.available += 1
            for m in moves:
                c = node.children[m]
                log_term = math.log(c.available)
                score = c.reward / c.visits + EXPLORATION * math.sqrt(log_term / c.visits)
                if score > best_score:
                    best, best_score = c, score
            assert best is not None
            node = best
            path.append(node)
            seat, leader = _step(hands, trick, won, deal, seat, leader, node.move)
        # playout at random
        while hands[seat]:
            move = rng.choice(_bits(_legal(hands[seat], trick)))
            seat, leader = _step(hands, trick, won, deal, seat, leader, move)
        total = won[0] + won[1] or 1
        for visited in path[1:]:
            visited.visits += 1
            visited.reward += _reward(deal, deal.sides[visited.seat], won, total)
    if not root.children:
        return None
    return max(root.children.values(), key=lambda c: (c.visits, c.reward, -c.move)).move


def _step(
    hands: list[int],
    trick: list[int],
    won: list[int],
    deal: Deal,
    seat: int,
    leader: int,
    move: int,
) -> tuple[int, int]:
    """Play ``move`` for ``seat``; returns who plays next and the trick's leader."""
    n = len(hands)
    hands[seat] &= ~(1 << move)
    trick.append(move)
    if len(trick) < n:
        return (seat + 1) % n, leader
    winner = (leader + trick_winner_pos(trick, deal.trump)) % n
    won[deal.sides[winner]] += 1
    trick.clear()
    return winner, winner


def _reward(deal: Deal, side: int, won: list[int], total: int) -> float:
    share = won[side] / total
    if deal.misere_side is None:
        return share
    if side == deal.misere_side:
        return 1.0 - share
    return won[deal.misere_side] / total
