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

import math
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Final

from engine.ai.levels import Profile
from engine.ai.search import dds
from engine.ai.search.bitmasks import NO_TRUMP, SUIT_BITS, trick_winner_pos
from engine.ai.search.budget import Budget
from engine.ai.search.determinized import (
    Evaluator,
    candidate_cards,
    dds_evaluator,
    honour_counts,
    playout_evaluator,
    search_card,
    settled_follow,
    solver_evaluator,
)
from engine.ai.search.policy import log_likelihood, play_history
from engine.ai.search.solver import solve_cards
from engine.ai.search.value import value_table
from engine.ai.search.worlds import (
    Situation,
    enumerate_worlds,
    sample_world,
    sample_world_by_hints,
    situation,
)
from engine.game import Game, SeatView

__all__ = [
    "FEW_CARDS",
    "FEW_CARDS_FROM",
    "PartnershipStrategy",
    "budget_of",
    "evaluator",
    "rule_card",
    "search_play",
]

FEW_CARDS: Final = 3  # untimed, at most this many cards wanted: one DDS solve each
FEW_CARDS_FROM: Final = 6  # ... from this many cards in hand (below, every card at once is cheap)


def budget_of(profile: Profile) -> Budget:
    """The budget of ``profile``'s card search at a four-handed partnership table."""
    return Budget(
        soft=profile.soft,
        cap=profile.cap,
        min_worlds=profile.min_worlds,
        max_worlds=profile.max_worlds,
        margin=profile.margin,
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


class PartnershipStrategy:
    """A seat's card at a four-handed partnership table with the deal hidden, as
    ``profile`` plays it (:class:`engine.ai.search.strategy.TableStrategy`).

    Worlds: :func:`~engine.ai.search.worlds.sample_world`, weighed by the play where
    the profile infers (``inference``; the hints' weights its ``hint_weights``, and
    with ``hint_rules`` dealt keeping every hint where a deal can), the ruffer's
    lay-out biased to low cards unless the profile is ``uniform`` (plain PIMC). Value: the deal's points for the
    seat's side less the other side's, a game won counting more
    (:func:`~engine.ai.search.value.value_table`), from the tricks the profile's
    :func:`evaluator` gives. :meth:`evaluate` with an infinite ``deadline`` (the
    coach) solves exactly, double dummy, whatever the profile: a few cards by one
    DDS solve each, else every card at once.
    """

    kind = "partnership"
    unit = "points"

    def __init__(self, view: SeatView, profile: Profile) -> None:
        sit = (
            situation(view)
            if profile.hint_weights is None
            else situation(view, profile.hint_weights)
        )
        if profile.uniform and sit.out_is_discard:
            sit = replace(sit, out_is_discard=False)
        self.sit = sit
        self.inference = profile.inference
        self.hint_rules = profile.hint_rules and profile.inference
        self.policy = profile.policy
        self.temper = profile.policy_temper
        self.draws = profile.policy_draws
        self._history = play_history(view) if profile.policy else None
        self._reference: float | None = None  # the first world's log-likelihood
        self._raw = evaluator(profile)
        self._side = sit.seat % 2
        self._tables: dict[tuple[int, int] | None, list[float]] = {}

    def candidates(self, legal: int) -> list[int]:
        return candidate_cards(self.sit, legal)

    def worlds(self, rng: random.Random) -> Iterator[tuple[list[int], float]]:
        while True:
            world = sample_world_by_hints(self.sit, rng) if self.hint_rules else None
            if world is None:
                world = sample_world(self.sit, rng, inference=self.inference)
            if world is None:
                return
            if self.draws > 1 and self._history is not None:
                # sampling-importance-resampling: one of ``draws`` worlds, picked by weight
                pool = [(world, self.policy_weight(world))]
                while len(pool) < self.draws:
                    more = sample_world(self.sit, rng, inference=self.inference)
                    if more is None:
                        break
                    pool.append((more, self.policy_weight(more)))
                x = rng.random() * sum(w for _, w in pool)
                picked = pool[-1][0]
                for candidate, w in pool:
                    x -= w
                    if x < 0:
                        picked = candidate
                        break
                yield picked, 1.0
                continue
            yield world, self.policy_weight(world)

    def every_world(self, limit: int) -> list[tuple[list[int], float]] | None:
        found = enumerate_worlds(self.sit, limit, self.inference)
        if found is None or self._history is None:
            return found
        return [(world, weight * self.policy_weight(world)) for world, weight in found]

    def policy_weight(self, world: list[int]) -> float:
        """How well ``world`` explains the others' cards by the profile's card-choice
        model (:mod:`engine.ai.search.policy`), relative to the first world weighed; 1
        without a model."""
        if self._history is None or self.policy is None:
            return 1.0
        seats, cards, decisions = self._history
        if not decisions:
            return 1.0
        ll = self.temper * log_likelihood(
            self.policy, world, seats, cards, decisions, self.sit.trump, self.sit.sides
        )
        if self._reference is None:
            self._reference = ll
        return math.exp(min(700.0, ll - self._reference))

    def evaluate(self, world: list[int], cands: list[int], deadline: float) -> dict[int, float]:
        sit = self.sit
        if deadline == math.inf:
            raw = self._exact(world, cands)
        else:
            raw = self._raw(sit, world, cands, deadline)
        counts = honour_counts(sit, world)
        table = self._tables.get(counts)
        if table is None:
            table = self._tables[counts] = value_table(
                sit.rules, self._side, sit.start_scores, counts
            )
        now = sit.tricks[self._side]
        return {c: table[now + raw[c]] for c in cands}

    def true_world(self, game: Game) -> list[int]:
        return list(game.hands)

    def choose(
        self, legal: int, rng: random.Random, profile: Profile, budget: Budget, start: float
    ) -> int | None:
        """The card (index) of ``legal`` with the best mean value over the worlds there
        is time for (see the module docstring); ``None`` if not one could be scored."""
        if profile.settle_follow:
            settled = settled_follow(self.sit, legal)
            if settled is not None:
                return settled
        cands = self.candidates(legal)
        if len(cands) == 1:
            return cands[0]
        found = search_card(self, cands, rng, budget, start)
        return None if found is None else found[0]

    def _exact(self, world: list[int], cands: list[int]) -> dict[int, int]:
        """The side's tricks from here after each card, double dummy, untimed."""
        sit = self.sit
        left = sit.my_hand.bit_count()  # tricks left, the current one included
        if dds.available() and left >= FEW_CARDS_FROM and len(cands) <= FEW_CARDS:
            # a few cards wanted (the coach's contenders): a solve of each, cheaper
            # than every card's figure at once
            return {c: self._one_card(world, c, left) for c in cands}
        if dds.available() and left > 2:
            return dds.solve_cards(world, sit.leader, sit.trick, sit.trump)
        return solve_cards(world, sit.leader, sit.trick, sit.trump)

    def _one_card(self, world: list[int], c: int, left: int) -> int:
        """The side's tricks from here after ``c``: one DDS solve of the position after it."""
        sit = self.sit
        side = self._side
        hands = list(world)
        hands[sit.seat] ^= 1 << c
        trick = [*sit.trick, c]
        if len(trick) < 4:
            theirs = dds.side_tricks(hands, sit.leader, trick, sit.trump)
            return theirs if (sit.leader + len(trick)) % 2 == side else left - theirs
        winner = (sit.leader + trick_winner_pos(trick, sit.trump)) % 4
        won = int(winner % 2 == side)
        if left == 1:
            return won
        rest = dds.max_tricks(hands, winner, sit.trump)
        return won + (rest if winner % 2 == side else left - 1 - rest)


def search_play(
    view: SeatView, legal: int, rng: random.Random, profile: Profile, budget: Budget, start: float
) -> int | None:
    """The card (index) of ``legal`` with the best mean value over sampled worlds
    (see the module docstring); ``None`` if not one world could be scored in time."""
    return PartnershipStrategy(view, profile).choose(legal, rng, profile, budget, start)


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
