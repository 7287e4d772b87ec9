"""The table maxims of Bid Whist for any trump and rank order (:func:`rule_card`), and
the rest of a deal played by them at every seat (:func:`playout`).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.search.bitmasks import card_indices
from engine.ai.strategies.bid_whist.model import (
    NONE,
    DealModel,
    beats,
    highest_card,
    is_master,
    led_suit,
    legal_mask,
    lowest_card,
    winner_pos,
)

__all__ = ["playout", "rule_card"]


def rule_card(m: DealModel, hand: int, legal: int, trick: Sequence[int], unseen: int) -> int:
    """The maxims' card among ``legal`` (a mask) for a seat holding ``hand``.

    ``trick`` is the cards played so far, in order; ``unseen`` the cards other
    seats may still hold (masters are judged against it).
    """
    n = len(trick)
    led = led_suit(m, trick) if trick else NONE
    if n == 0 or led == NONE:
        return _lead(m, hand, legal, unseen)
    tmask = m.masks[m.trump] if m.trump != NONE else 0
    win_at = winner_pos(m, trick)
    win_card = trick[win_at]
    partner_winning = n - win_at == 2
    last = n == 3
    follow = legal & m.masks[led]
    if follow:
        lowest = lowest_card(m, follow)
        beaters = [c for c in card_indices(follow) if beats(m, c, win_card, led)]
        if partner_winning and (last or is_master(m, win_card, unseen)):
            return lowest
        if not beaters:
            return lowest
        cheapest = min(beaters, key=m.key.__getitem__)
        if last:
            return cheapest
        sure = [c for c in beaters if is_master(m, c, unseen & ~hand)]
        if sure:
            return min(sure, key=m.key.__getitem__)
        if n == 1:
            return lowest  # second hand low
        return max(beaters, key=m.key.__getitem__)  # third hand high
    trumps = legal & tmask
    if trumps and not partner_winning:
        over = [c for c in card_indices(trumps) if beats(m, c, win_card, led)]
        if over:
            return min(over, key=m.key.__getitem__)
    return _throw(m, hand, legal & ~tmask or legal, unseen)


def _lead(m: DealModel, hand: int, legal: int, unseen: int) -> int:
    tmask = m.masks[m.trump] if m.trump != NONE else 0
    trumps = legal & tmask
    if trumps and (unseen & tmask) and trumps.bit_count() >= 3:
        top = highest_card(m, trumps)
        if is_master(m, top, unseen):
            return top  # draw trumps with the master
    for s in range(4):
        if s == m.trump:
            continue
        mine = legal & m.masks[s]
        if mine:
            top = highest_card(m, mine)
            if is_master(m, top, unseen) and (unseen & m.masks[s]):
                return top  # cash a master
    best, best_len = -1, 0
    for s in range(4):
        if s == m.trump:
            continue
        mine = legal & m.masks[s]
        if mine.bit_count() > best_len:
            best_len, best = mine.bit_count(), lowest_card(m, mine)
    if best >= 0:
        return best  # low from the longest side suit
    natural = legal & ~m.masks[NONE]
    return lowest_card(m, natural or legal)


def _throw(m: DealModel, hand: int, pool: int, unseen: int) -> int:
    """The cheapest discard: a powerless joker, else low from a short suit without a master."""
    jokers = pool & m.masks[NONE]
    if jokers:
        return card_indices(jokers)[0]
    best, best_key = -1, (1e9, 0)
    for s in range(4):
        mine = pool & m.masks[s]
        if not mine:
            continue
        c = lowest_card(m, mine)
        strength = m.key[c] % 100
        master = is_master(m, highest_card(m, mine), unseen)
        key = (
            strength + (6.0 if master and mine.bit_count() == 1 else 0.0) + 0.3 * mine.bit_count(),
            c,
        )
        if key < best_key:
            best_key, best = key, c
    return best if best >= 0 else card_indices(pool)[0]


# --------------------------------------------------------------------------- playouts


def playout(
    m: DealModel,
    hands: list[int],
    trick: list[int],
    leader: int,
    sides: Sequence[int],
    tricks: list[int],
) -> list[int]:
    """Play the deal to its end with the maxims at every seat; the tricks per side.

    ``hands`` (changed in place) are the four hands, ``trick`` the cards of the
    trick in progress from ``leader``, ``tricks`` the tricks each side has won.
    """
    n = len(hands)
    tricks = list(tricks)
    trick = list(trick)
    while True:
        if len(trick) == n:
            winner = (leader + winner_pos(m, trick)) % n
            tricks[sides[winner]] += 1
            trick = []
            leader = winner
        remaining = 0
        for h in hands:
            remaining |= h
        if not remaining:
            return tricks
        seat = (leader + len(trick)) % n
        hand = hands[seat]
        legal = legal_mask(m, hand, trick)
        card = rule_card(m, hand, legal, trick, remaining & ~hand)
        hands[seat] = hand & ~(1 << card)
        trick.append(card)
