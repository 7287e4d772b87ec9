"""The greedy card of every seat (:func:`greedy_card`) and the rest of a deal played
by it (:func:`playout`).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.search.bitmasks import (
    NO_TRUMP,
    SUIT_BITS,
    high,
    low,
    trick_winner_pos,
)
from engine.ai.search.open_search.worlds import World

__all__ = ["greedy_card", "playout"]


def greedy_card(
    avail: Sequence[int],
    seat: int,
    trick: Sequence[int],
    leader: int,
    trump: int,
    sides: Sequence[int],
    alive: int,
) -> int:
    """The playout policy's card for ``seat`` (full sight of everyone's available cards).

    ``avail`` holds each seat's available cards, ``alive`` every card not yet
    played (face-down ones included: a master is judged against them too).
    """
    mine = avail[seat]
    k = len(trick)
    n = len(sides)
    if not k:
        best_len, lead = -1, -1
        for s in range(4):
            if s == trump:
                continue
            cards = mine & SUIT_BITS[s]
            if not cards:
                continue
            top = high(cards)
            if top == high(alive & SUIT_BITS[s]):
                return top  # a master: cash it
            length = cards.bit_count()
            if length > best_len:
                best_len, lead = length, low(cards)
        if lead >= 0:
            return lead
        top = high(mine)  # only trumps left
        return top if top == high(alive & SUIT_BITS[top // 13]) else low(mine)
    led = trick[0] // 13
    follow = mine & SUIT_BITS[led]
    win_pos = trick_winner_pos(list(trick), trump)
    win = trick[win_pos]
    side = sides[seat]
    ours = sides[(leader + win_pos) % n] == side
    opps = [s for s in ((leader + j) % n for j in range(k + 1, n)) if sides[s] != side]
    if follow:
        if win // 13 != led:
            return low(follow)  # trumped: following cannot win
        threat = -1 if ours else win
        ruff = False
        for s in opps:
            theirs = avail[s] & SUIT_BITS[led]
            if theirs:
                threat = max(threat, high(theirs))
            elif trump != NO_TRUMP and led != trump and avail[s] & SUIT_BITS[trump]:
                ruff = True
        if ruff or (ours and threat < win):
            return low(follow)
        over = follow & ~((2 << max(threat, win)) - 1)
        return low(over) if over else low(follow)
    trumps = mine & SUIT_BITS[trump] if trump != NO_TRUMP else 0
    if trumps and not ours:
        floor = win if win // 13 == trump else trump * 13 - 1
        for s in opps:
            theirs = avail[s] & SUIT_BITS[trump]
            if theirs and not avail[s] & SUIT_BITS[led]:
                floor = max(floor, high(theirs))
        over = trumps & ~((1 << (floor + 1)) - 1)
        if over:
            return low(over)
    rest = mine & ~trumps or mine
    best, best_rank = -1, 99
    for s in range(4):
        cards = rest & SUIT_BITS[s]
        if cards:
            c = low(cards)
            if c - 13 * s < best_rank:
                best, best_rank = c, c - 13 * s
    return best


def playout(
    world: World,
    leader: int,
    trick: list[int],
    trump: int,
    sides: Sequence[int],
    tricks: list[int],
    stop: int,
) -> list[int]:
    """Play ``world`` out greedily from the current trick; the final tricks per side.

    ``world`` is not changed (its masks are copied; its pile stacks are tuples).
    The deal ends when every card is played or a side reaches ``stop`` tricks.
    """
    n = len(sides)
    hands = list(world.hands)
    ups = list(world.ups)
    fresh = list(world.fresh)
    layouts = any(ups)
    under = [dict(u) for u in world.under] if layouts else world.under
    tricks = list(tricks)
    trick = list(trick)
    alive = 0
    for s in range(n):
        alive |= hands[s] | ups[s]
        for stack in under[s].values():
            for c in stack:
                alive |= 1 << c
    while True:
        if len(trick) == n:
            winner = (leader + trick_winner_pos(trick, trump)) % n
            tricks[sides[winner]] += 1
            if tricks[sides[winner]] >= stop:
                return tricks
            leader = winner
            trick = []
            if layouts:
                fresh = [0] * n
        seat = (leader + len(trick)) % n
        avail = [hands[s] | ups[s] & ~fresh[s] for s in range(n)] if layouts else hands
        if not avail[seat]:
            return tricks
        c = greedy_card(avail, seat, trick, leader, trump, sides, alive)
        bit = 1 << c
        alive ^= bit
        if hands[seat] & bit:
            hands[seat] ^= bit
        else:  # a face-up layout card: the card beneath turns up
            ups[seat] ^= bit
            stack = under[seat].pop(c, ())
            if stack:
                top = stack[-1]
                under[seat][top] = stack[:-1]
                ups[seat] |= 1 << top
                fresh[seat] |= 1 << top
        trick.append(c)
