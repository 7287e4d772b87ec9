"""Fast internal representation for search: one int bitmask per hand.

A card is its engine index ``suit.order * 13 + (rank - 2)`` (0..51), so the
engine's :attr:`engine.cards.Card.bit` masks are used unchanged. Suits are
0..3 in the order S, H, D, C (the same order DDS uses); ``NO_TRUMP`` (4) marks
a no-trump deal. Rank 0 is the two and 12 the ace, so within one suit a higher
bit is a higher card.

Everything here is plain functions over ints and lists: no engine objects in
the hot loops.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.actions import Action, Play
from engine.cards import Card

__all__ = [
    "NO_TRUMP",
    "SUIT_BITS",
    "card_indices",
    "card_of",
    "greedy_card",
    "high",
    "low",
    "play_mask",
    "playout",
    "trick_winner_pos",
]

NO_TRUMP: Final = 4
SUIT_BITS: Final = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)
# SUIT_MASK_OF[i]: the mask of the suit of card i
SUIT_MASK_OF: Final = tuple(SUIT_BITS[i // 13] for i in range(52))
_CARDS: Final = tuple(Card.from_index(i) for i in range(52))


def card_of(index: int) -> Card:
    """The engine card with this index."""
    return _CARDS[index]


def play_mask(legal: Iterable[Action]) -> int:
    """The cards of the plays among ``legal`` (other actions left out), as a mask."""
    mask = 0
    for action in legal:
        if isinstance(action, Play):
            mask |= action.card.bit
    return mask


def card_indices(mask: int) -> list[int]:
    """The card indices of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def high(mask: int) -> int:
    """Index of the highest card in a (non-empty) one-suit mask."""
    return mask.bit_length() - 1


def low(mask: int) -> int:
    """Index of the lowest card of a (non-empty) mask."""
    return (mask & -mask).bit_length() - 1


def trick_winner_pos(trick: list[int], trump: int) -> int:
    """Position (0-based, play order) of the winning card of a trick."""
    best = 0
    best_card = trick[0]
    best_suit = best_card // 13
    for i in range(1, len(trick)):
        card = trick[i]
        suit = card // 13
        if suit == best_suit:
            if card > best_card:
                best, best_card = i, card
        elif suit == trump:
            best, best_card, best_suit = i, card, suit
    return best


def greedy_card(hands: list[int], seat: int, trick: list[int], leader: int, trump: int) -> int:
    """A fast, decent card for ``seat`` with full sight of ``hands``.

    Leading: cash a side-suit master, else lead low from the longest side suit.
    Following: win as cheaply as the players still to come allow, else play
    low; when void, ruff as cheaply as is safe, else throw the cheapest card.
    """
    hand = hands[seat]
    n = len(trick)
    if n == 0:
        everyone = hands[0] | hands[1] | hands[2] | hands[3]
        best_len = -1
        lead = -1
        for s in range(4):
            if s == trump:
                continue
            mine = hand & SUIT_BITS[s]
            if not mine:
                continue
            top = mine.bit_length() - 1
            if top == (everyone & SUIT_BITS[s]).bit_length() - 1:
                return top  # a master: cash it
            length = mine.bit_count()
            if length > best_len:
                best_len = length
                lead = (mine & -mine).bit_length() - 1
        if lead >= 0:
            return lead
        # only trumps left
        return (hand & -hand).bit_length() - 1 if hand.bit_count() > 1 else hand.bit_length() - 1

    led = trick[0] // 13
    follow = hand & SUIT_BITS[led]
    win_pos = trick_winner_pos(trick, trump)
    win_card = trick[win_pos]
    partner_winning = (n - win_pos) == 2  # partner played two cards before me
    # players still to come after me, in order
    later = [(leader + k) % 4 for k in range(n + 1, 4)]
    if follow:
        if win_card // 13 != led:
            return (follow & -follow).bit_length() - 1  # trumped: cannot win by following
        # the best card an opponent still to play could beat us with
        threat = win_card
        opp_can_ruff = False
        for s in later:
            if (s - seat) % 2 == 0:
                continue
            theirs = hands[s] & SUIT_BITS[led]
            if theirs:
                t = theirs.bit_length() - 1
                if t > threat:
                    threat = t
            elif led != trump and trump != NO_TRUMP and hands[s] & SUIT_BITS[trump]:
                opp_can_ruff = True
        if partner_winning and threat == win_card and not opp_can_ruff:
            return (follow & -follow).bit_length() - 1
        if opp_can_ruff:
            return (follow & -follow).bit_length() - 1
        over = follow & ~((2 << threat) - 1)
        if over:
            return (over & -over).bit_length() - 1
        return (follow & -follow).bit_length() - 1

    # void in the suit led
    trumps = hand & SUIT_BITS[trump] if trump != NO_TRUMP else 0
    if trumps and not partner_winning:
        floor = win_card if win_card // 13 == trump else trump * 13 - 1
        for s in later:
            if (s - seat) % 2 == 0:
                continue
            if not hands[s] & SUIT_BITS[led]:
                theirs = hands[s] & SUIT_BITS[trump]
                if theirs:
                    t = theirs.bit_length() - 1
                    if t > floor:
                        floor = t
        over = trumps & ~((1 << (floor + 1)) - 1)
        if over:
            return (over & -over).bit_length() - 1
    # throw: the cheapest side card (lowest rank across side suits), keeping trumps
    rest = hand & ~trumps
    if not rest:
        rest = hand
    best = -1
    best_rank = 99
    for s in range(4):
        mine = rest & SUIT_BITS[s]
        if mine:
            c = (mine & -mine).bit_length() - 1
            r = c - 13 * s
            if r < best_rank:
                best_rank = r
                best = c
    return best


def playout(
    hands: list[int], leader: int, trick: list[int], trump: int, tricks_ns: int, tricks_left: int
) -> int:
    """Play the deal out greedily; returns the final trick count of side 0 (seats 0, 2).

    ``hands`` and ``trick`` are consumed (mutated). ``tricks_left`` counts the
    current trick if one is in progress.
    """
    while tricks_left:
        n = len(trick)
        seat = (leader + n) % 4
        while n < 4:
            c = greedy_card(hands, seat, trick, leader, trump)
            hands[seat] ^= 1 << c
            trick.append(c)
            n += 1
            seat = (seat + 1) % 4
        winner = (leader + trick_winner_pos(trick, trump)) % 4
        if not winner & 1:
            tricks_ns += 1
        leader = winner
        trick = []
        tricks_left -= 1
    return tricks_ns
