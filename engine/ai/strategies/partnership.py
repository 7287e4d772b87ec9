"""Four-handed partnership play, the deal hidden: partners opposite, each seat its own hand.

* ``easy``: the table maxims, applied to what the seat can see
  (:func:`rule_card`): cash a master, otherwise lead low from the longest side
  suit; second hand low; third hand high (but no higher than needed); win as
  cheaply as possible; trump when partner is losing and don't when partner is
  winning; throw from short weak suits; keep trumps and honours.
* ``normal`` and ``hard`` (:func:`search_play`): determinized search
  (:mod:`engine.ai.search.determinized`). Each decision samples deals of the
  unseen cards consistent with the seat's knowledge
  (:mod:`engine.ai.search.worlds`), scores every candidate card in each, and
  plays the card with the best mean deal value. In the last two tricks, when
  the possible worlds are few, it plays against every one of them instead of a
  sample, so its endgame is exact. The level's profile decides how a world is
  scored: greedy playouts with the Python solver for the last few cards
  (``normal``), or DDS for the full hand (``hard``, when ``endplay`` is
  installed; else the Python solver from six cards a hand down and playouts
  before that).
"""

from __future__ import annotations

import random

from engine.ai.levels import Profile
from engine.ai.search import dds
from engine.ai.search.bitmasks import NO_TRUMP, SUIT_BITS, trick_winner_pos
from engine.ai.search.budget import Budget
from engine.ai.search.determinized import (
    Evaluator,
    candidate_cards,
    dds_evaluator,
    playout_evaluator,
    search_card,
    settled_follow,
    solver_evaluator,
)
from engine.ai.search.worlds import Situation, situation
from engine.game import SeatView

__all__ = ["budget_of", "evaluator", "rule_card", "search_play"]


def budget_of(profile: Profile) -> Budget:
    """The budget of ``profile``'s card search at a four-handed partnership table."""
    return Budget(
        soft=profile.soft,
        cap=profile.cap,
        min_worlds=profile.min_worlds,
        max_worlds=profile.max_worlds,
        margin=profile.margin,
        inference=profile.inference,
        uniform=profile.uniform,
        exact_worlds=profile.exact_worlds,
    )


def evaluator(profile: Profile) -> Evaluator:
    """How ``profile`` scores one world: DDS, or the Python solver near the end and playouts before."""
    if profile.double_dummy and dds.available():
        return dds_evaluator
    exact_from = profile.solver_cards

    def evaluate(
        sit: Situation, world: list[int], cands: list[int], deadline: float
    ) -> dict[int, int]:
        if world[sit.seat].bit_count() <= exact_from:
            return solver_evaluator(sit, world, cands, deadline)
        return playout_evaluator(sit, world, cands, deadline)

    return evaluate


def search_play(
    view: SeatView, legal: int, rng: random.Random, profile: Profile, budget: Budget, start: float
) -> int | None:
    """The card (index) of ``legal`` with the best mean value over sampled worlds
    (see the module docstring); ``None`` if not one world could be scored in time."""
    sit = situation(view)
    if profile.settle_follow:
        settled = settled_follow(sit, legal)
        if settled is not None:
            return settled
    cands = candidate_cards(sit, legal)
    if len(cands) == 1:
        return cands[0]
    found = search_card(sit, cands, rng, evaluator(profile), budget, start)
    return None if found is None else found[0]


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
