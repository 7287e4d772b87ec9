"""``easy``: a rule-based player, well under a millisecond a decision.

The table maxims, applied to what the seat can see: cash a master, otherwise
lead low from the longest side suit; second hand low; third hand high (but no
higher than needed); win as cheaply as possible; trump when partner is losing
and don't when partner is winning; throw from short weak suits; keep trumps
and honours. A little randomness keeps it from being fully predictable.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action, Discard, Play, play
from engine.ai.base import obvious_choice
from engine.ai.bid_whist import ContractPlayer, applies
from engine.ai.contract import easy_bid, easy_card, easy_trump, is_contract_decision
from engine.ai.core import NO_TRUMP, SUIT_BITS, trick_winner_pos
from engine.ai.discard import DiscardPlanner, greedy_discards
from engine.ai.generic import claim_for, generic_play, wants_generic
from engine.ai.knowledge import situation
from engine.cards import Card
from engine.game import SeatView
from engine.phases.solo_auction import SoloBid as Bid
from engine.phases.solo_declare import NameTrump

__all__ = ["EasyPlayer"]


def _easy_plan(view: SeatView, hand: int, allowed: int, count: int) -> list[int]:
    trump = view.trump.order if view.trump is not None else NO_TRUMP
    return greedy_discards(hand, allowed, trump, count)


class EasyPlayer:
    """Rule-based play with a pinch of randomness (``noise``: chance of a second-best card)."""

    def __init__(self, noise: float = 0.08) -> None:
        self.name = "easy"
        self.noise = noise
        self._discards = DiscardPlanner("easy", _easy_plan)
        self._bid_whist = ContractPlayer(search=False)

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        if applies(view):  # Bid Whist: jokers, an auction, a chosen rank order
            return self._bid_whist.choose(view, legal, rng)
        obvious = obvious_choice(legal)
        if obvious is not None:
            return obvious
        if any(isinstance(a, Discard) for a in legal):
            return self._discards.choose(view, legal)
        contract = is_contract_decision(view, legal)
        if contract and any(isinstance(a, Bid) for a in legal):
            return easy_bid(view, legal)
        if contract and any(isinstance(a, NameTrump) for a in legal):
            return easy_trump(view, legal)
        claim = claim_for(view, legal)  # Ruffe and Trump, declared: the true ruff
        if claim is not None:
            return claim
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return legal[0]
        if not contract and wants_generic(view):  # 2-3 seats, everyone alone, layouts (engine.ai.generic)
            return generic_play(view, legal)
        legal_mask = 0
        for a in plays:
            legal_mask |= a.card.bit
        misere = easy_card(view, legal_mask) if contract else None
        if misere is not None:
            return play(Card.from_index(misere))
        card = rule_card(view, legal_mask)
        if self.noise and len(plays) > 1 and rng.random() < self.noise:
            # an occasional slip: the next-lowest card of the same suit, if any
            same = legal_mask & SUIT_BITS[card // 13] & ~(1 << card)
            if same:
                above = same & ~((1 << card) - 1)
                alt = (above & -above).bit_length() - 1 if above else same.bit_length() - 1
                card = alt
        return play(Card.from_index(card))

    def __repr__(self) -> str:
        return "EasyPlayer()"


def rule_card(view: SeatView, legal: int) -> int:
    """The maxims' card for the seat to play, among the ``legal`` mask."""
    sit = situation(view)
    trump = sit.trump
    hand = sit.my_hand & legal
    # cards another seat may still hold
    unseen = sit.unknown
    for s in range(4):
        if s != sit.seat:
            unseen |= sit.fixed[s]
    trick = sit.trick
    n = len(trick)
    tsuit = SUIT_BITS[trump] if trump != NO_TRUMP else 0

    if n == 0:
        # cash a master side card
        for s in range(4):
            if s == trump:
                continue
            mine = hand & SUIT_BITS[s]
            if mine and (mine.bit_length() - 1) > (unseen & SUIT_BITS[s]).bit_length() - 1:
                return mine.bit_length() - 1
        # draw trumps with the master trump when long in them
        trumps = hand & tsuit
        if (
            trumps.bit_count() >= 4
            and (trumps.bit_length() - 1) > (unseen & tsuit).bit_length() - 1
        ):
            return trumps.bit_length() - 1
        # low from the longest side suit
        best = -1
        best_len = 0
        for s in range(4):
            if s == trump:
                continue
            mine = hand & SUIT_BITS[s]
            length = mine.bit_count()
            if length > best_len:
                best_len, best = length, (mine & -mine).bit_length() - 1
        if best >= 0:
            return best
        return (hand & -hand).bit_length() - 1

    led = trick[0] // 13
    follow = hand & SUIT_BITS[led]
    win_pos = trick_winner_pos(trick, trump)
    win_card = trick[win_pos]
    # my side (the view's seating: partners opposite, or the sides of a contract) is winning
    sides = sit.sides
    win_seat = (sit.leader + win_pos) % 4
    partner_winning = win_seat != sit.seat and sides[win_seat] == sides[sit.seat]
    last = n == 3
    lowest_follow = (follow & -follow).bit_length() - 1 if follow else -1

    if follow:
        if win_card // 13 != led:
            return lowest_follow  # already trumped
        top_unseen = (unseen & SUIT_BITS[led]).bit_length() - 1
        if partner_winning and (last or win_card > top_unseen):
            return lowest_follow
        over = follow & ~((1 << (win_card + 1)) - 1)
        if not over:
            return lowest_follow
        if last:
            return (over & -over).bit_length() - 1  # win cheaply
        if n == 1:
            # second hand low, unless holding a sure winner
            sure = over & ~((1 << (top_unseen + 1)) - 1) if top_unseen >= 0 else over
            if sure and (win_card % 13) >= 9:
                return (sure & -sure).bit_length() - 1
            return lowest_follow
        # third hand high, but only as high as needed to beat what is out
        sure = over & ~((1 << (top_unseen + 1)) - 1) if top_unseen >= 0 else over
        if sure:
            return (sure & -sure).bit_length() - 1
        return over.bit_length() - 1

    # void in the suit led
    trumps = hand & tsuit
    if trumps and not partner_winning:
        floor = win_card if win_card // 13 == trump else -1
        over = trumps & ~((1 << (floor + 1)) - 1) if floor >= 0 else trumps
        if over and (last or n == 2 or win_card % 13 >= 6 or win_card // 13 == trump):
            # prefer a trump below the honours when one will do
            plain = over & ~(0b1111 << (trump * 13 + 9))
            pick = plain if plain else over
            return (pick & -pick).bit_length() - 1
    # throw the cheapest card from a short side suit without a master
    rest = hand & ~trumps or hand
    best = -1
    best_key = (99.0, 99)
    for s in range(4):
        mine = rest & SUIT_BITS[s]
        if not mine:
            continue
        c = (mine & -mine).bit_length() - 1
        rank = c % 13
        is_master = (mine.bit_length() - 1) > (unseen & SUIT_BITS[s]).bit_length() - 1
        key = (
            rank + (4.0 if is_master and mine.bit_count() == 1 else 0.0) + 0.3 * mine.bit_count(),
            rank,
        )
        if key < best_key:
            best_key, best = key, c
    return best
