"""Every decision of a Bid Whist deal at each level (:class:`ContractPlayer`): the bid,
the trump or direction, the kitty lay-out and the cards.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from engine.actions import Action, Discard, Pass, Play, play
from engine.ai.search import clock
from engine.ai.search.bitmasks import card_indices
from engine.ai.search.strategy import CallStrategy
from engine.ai.strategies.bid_whist.contracts import (
    contract_candidates,
    contract_model,
    contract_points,
    estimate_tricks,
    keep_value,
)
from engine.ai.strategies.bid_whist.maxims import playout, rule_card
from engine.ai.strategies.bid_whist.model import CARDS, NONE, DealModel, model_of
from engine.ai.strategies.bid_whist.strategy import BidWhistStrategy
from engine.ai.strategies.bid_whist.worlds import knowledge_of, pack_mask, sample_world
from engine.cards import JOKERS_MASK, Suit, mask_of
from engine.game import SeatView

__all__ = [
    "BID_SLACK",
    "ContractPlayer",
    "DISCARD_CANDIDATES",
    "KITTY_BOOKS",
    "MIN_WORLDS",
    "PARTNER_BOOKS",
]

PARTNER_BOOKS: Final = 1.0  # what the quick count expects of partner
MIN_WORLDS: Final = 2  # sampled deals a searching decision uses unless past its cap
DISCARD_CANDIDATES: Final = 5  # the lowest keep values a searching player compares
BID_SLACK: Final = 0.25  # expected points a higher bid may give up over the best one
KITTY_BOOKS: Final = 1.5  # the kitty's own book, and some from its cards


class ContractPlayer:
    """Every decision of a Bid Whist deal (see the module docstring).

    ``search`` false is the easy level; true samples deals within ``budget``
    seconds (never past ``cap``), at most ``max_worlds`` of them.
    """

    def __init__(
        self, search: bool, budget: float = 0.04, cap: float = 1.0, max_worlds: int = 200
    ) -> None:
        self.search = search
        self.budget = budget
        self.cap = cap
        self.max_worlds = max_worlds

    # -- dispatch

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        start = clock.now()
        kinds = {type(a).__name__ for a in legal}
        if "Bid" in kinds:
            return self._bid(view, legal, rng, start)
        if "NameTrump" in kinds or "NameDirection" in kinds:
            return self._name(view, legal, rng, start)
        if any(isinstance(a, Discard) for a in legal):
            return self._discard(view, legal, rng, start)
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return self._play(view, plays, rng, start)
        return legal[0]

    def _deadline(self, start: float) -> float:
        return start + min(self.budget, self.cap)

    def _stop(self, start: float, deadline: float, worlds: int) -> bool:
        """Stop sampling: past the budget with two worlds at least, or past the cap."""
        now = clock.now()
        return now > deadline and (worlds >= MIN_WORLDS or now > start + self.cap)

    # -- the auction

    def _bid(
        self, view: SeatView, legal: Sequence[Action], rng: random.Random, start: float
    ) -> Action:
        from engine.ai.strategies.calls.bid_whist import BidStrategy
        from engine.phases.auction import Bid

        rules = view.rules
        assert rules is not None
        bids = [a for a in legal if isinstance(a, Bid)]
        hand = mask_of(view.hand)
        cands = contract_candidates(view, hand)
        multiplier = rules.nt_multiplier
        made_rule = rules.made_score
        values: dict[str, float] = {}
        # with search: each bid's mean points over sampled deals, as the coach measures a
        # bid (the same strategy: each mode played out as declarer in each world)
        means = self._means(BidStrategy(view, legal), rng, start) if self.search else None
        for b in bids:
            cand = next(c for c in cands if c[0] == b.mode)
            if means is not None:
                values[b.code] = means[b.encode()]
            else:
                est = round(cand[2] + PARTNER_BOOKS + KITTY_BOOKS)
                values[b.code] = contract_points(made_rule, multiplier, b.number, b.no_trump, est)
        # one round of bidding: among bids worth about the best, the highest (it
        # keeps the opponents out; with books over six it scores the same)
        top = max(values.values())
        best = max(
            (b for b in bids if values[b.code] >= top - BID_SLACK),
            key=lambda b: (b.number, values[b.code]),
        )
        pass_legal = any(isinstance(a, Pass) for a in legal)
        partner_high = any(seat == view.partner and code != "pass" for seat, code in view.auction)
        threshold = 1.0 if partner_high else 0.0
        if pass_legal and values[best.code] <= threshold:
            return next(a for a in legal if isinstance(a, Pass))
        return best

    def _means(
        self, strategy: CallStrategy[list[int]], rng: random.Random, start: float
    ) -> dict[str, float] | None:
        """Each of ``strategy``'s choices' mean value over the sampled worlds there is time
        for; ``None`` when not one world could be sampled."""
        codes = strategy.candidates()
        totals = dict.fromkeys(codes, 0.0)
        worlds = 0
        deadline = self._deadline(start)
        sampler = strategy.worlds(rng)
        for _ in range(self.max_worlds):
            sampled = next(sampler, None)
            if sampled is None:
                break
            for code, value in strategy.evaluate(sampled[0], codes, math.inf).items():
                totals[code] += value
            worlds += 1
            if self._stop(start, deadline, worlds):
                break
        return {code: total / worlds for code, total in totals.items()} if worlds else None

    def declare_books(self, view: SeatView, m: DealModel, world: list[int], leads: bool) -> int:
        """Books (kitty included) I take as declarer in ``world``: take the kitty, lay out, play."""
        seat = view.seat
        hands = world[:4]
        kitty = world[4]
        hands[seat] |= kitty
        assert view.rules is not None
        extra = hands[seat].bit_count() - view.rules.hand_size  # the kitty's cards, to lay out
        hands[seat] = self.lay_out(m, hands[seat], extra, view)
        leader = seat if leads else view.eldest
        sides = view.sides or (0, 1, 0, 1)
        tricks = playout(m, hands, [], leader, sides, [0] * (max(sides) + 1))
        return 1 + tricks[sides[seat]]

    def lay_out(self, m: DealModel, hand: int, count: int, view: SeatView) -> int:
        assert view.rules is not None
        jokers_out = m.trump == NONE and view.rules.nt_jokers == "bidder_discards"
        for _ in range(count):
            if jokers_out and hand & JOKERS_MASK:
                c = card_indices(hand & JOKERS_MASK)[0]
            else:
                unseen = pack_mask(view.rules.jokers) & ~hand
                c = min(card_indices(hand), key=lambda x: keep_value(m, hand, x, unseen))
            hand &= ~(1 << c)
        return hand

    # -- naming trumps or direction

    def _name(
        self, view: SeatView, legal: Sequence[Action], rng: random.Random, start: float
    ) -> Action:
        from engine.phases.contract import NameDirection, NameTrump

        hand = mask_of(view.hand)
        code = view.contract

        def model(a: Action) -> DealModel:
            choice: Suit | str = (
                a.suit
                if isinstance(a, NameTrump)
                else (a.direction if isinstance(a, NameDirection) else "uptown")
            )
            return contract_model(view, code, choice)

        scores = {a: estimate_tricks(model(a), hand) for a in legal}
        if self.search:
            sampled: dict[Action, list[int]] = {a: [] for a in legal}
            deadline = self._deadline(start)
            k = knowledge_of(view, model(legal[0]))
            assert view.rules is not None
            leads = view.rules.first_leader == "declarer"
            for _ in range(self.max_worlds):
                world = sample_world(k, rng)
                if world is None:
                    break
                for a in legal:
                    sampled[a].append(self.declare_books(view, model(a), world, leads))
                if self._stop(start, deadline, len(sampled[legal[0]])):
                    break
            if sampled[legal[0]]:
                scores = {a: sum(v) / len(v) + 0.01 * scores[a] for a, v in sampled.items()}
        return max(legal, key=lambda a: scores[a])

    # -- the kitty lay-out

    def _discard(
        self, view: SeatView, legal: Sequence[Action], rng: random.Random, start: float
    ) -> Action:
        """The next card to lay out: the lowest keep value (easy); with search, the
        best of the few lowest by books over sampled deals, the rest of the
        lay-out by keep value (the kitty's strategy, as the coach measures it)."""
        from engine.ai.strategies.calls.bid_whist import KittyStrategy

        assert view.rules is not None
        m = model_of(view.trump, view.rank_order)
        hand = mask_of(view.hand)
        unseen = pack_mask(view.rules.jokers) & ~hand
        options = sorted(
            (a for a in legal if isinstance(a, Discard)),
            key=lambda a: (keep_value(m, hand, a.card.index, unseen), a.card.index),
        )
        if not self.search or len(options) == 1:
            return options[0]
        strategy = KittyStrategy(view, legal)
        means = self._means(strategy, rng, start)
        if means is None:
            return options[0]
        cands = options[:DISCARD_CANDIDATES]
        return max(cands, key=lambda a: (means[str(a.card)], -cands.index(a)))

    # -- card play

    def _play(self, view: SeatView, plays: list[Play], rng: random.Random, start: float) -> Action:
        strategy = BidWhistStrategy(view)
        m, k = strategy.m, strategy.k
        hand = mask_of(view.hand)
        legal = mask_of(a.card for a in plays)
        if not self.search:
            return play(CARDS[rule_card(m, hand, legal, strategy.trick, k.pool)])
        cands = strategy.candidates(legal)
        totals = dict.fromkeys(cands, 0.0)
        worlds = 0
        deadline = self._deadline(start)
        sampler = strategy.worlds(rng)
        for _ in range(self.max_worlds):
            sampled = next(sampler, None)
            if sampled is None:
                break
            for c, value in strategy.evaluate(sampled[0], cands, math.inf).items():
                totals[c] += value
            worlds += 1
            if self._stop(start, deadline, worlds):
                break
        if not worlds:
            return play(CARDS[rule_card(m, hand, legal, strategy.trick, k.pool)])
        best = max(cands, key=lambda c: (totals[c], -m.key[c]))
        return play(CARDS[best])

    def __repr__(self) -> str:
        return f"ContractPlayer(search={self.search}, budget={self.budget})"
