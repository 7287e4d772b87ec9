"""Bid Whist's decisions that are not cards as strategies
(:class:`~engine.ai.search.strategy.CallStrategy`), each world evaluated as the
searching player (:class:`~engine.ai.strategies.bid_whist.player.ContractPlayer`)
evaluates it when it makes that decision:

* **the bids** (``bid:4u``, ``pass``): each bid played out as declarer with the trump
  or direction the quick count picks, in points of the bid (made or set, no trump
  doubled); passing 0, or 1 when partner has bid (the player's own threshold);
* **naming trumps or the direction**: each choice played out, in points, with the
  player's tie-break by the quick count;
* **the kitty lay-out**, card by card: the lowest keep values, each laid out and the
  rest of the lay-out by keep value, in the books the side takes.

The searching player bids and lays out by :class:`BidStrategy` and
:class:`KittyStrategy` themselves (the mean over the worlds it has time for), so the
coach's measure of those decisions is the player's; it names trumps by the mean books
(the coach by the contract's points, with the same tie-break).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action, Discard, Pass
from engine.ai.strategies.bid_whist.contracts import (
    contract_candidates,
    contract_model,
    contract_points,
    estimate_tricks,
    keep_value,
)
from engine.ai.strategies.bid_whist.maxims import playout
from engine.ai.strategies.bid_whist.model import DealModel, model_of
from engine.ai.strategies.bid_whist.player import DISCARD_CANDIDATES, ContractPlayer
from engine.ai.strategies.bid_whist.worlds import Knowledge, pack_mask, sample_world
from engine.ai.strategies.bid_whist.worlds import knowledge_of as knowledge
from engine.ai.strategies.calls.base import SampledCall
from engine.cards import Card, Suit, mask_of
from engine.game import Game, SeatView
from engine.phases.auction import Bid
from engine.phases.contract import NameDirection, NameTrump

__all__ = ["BidStrategy", "KittyStrategy", "NameStrategy", "name_strategy"]


class _BidWhistCall(SampledCall[list[int]]):
    table = "bid-whist"

    def __init__(self, view: SeatView, k: Knowledge) -> None:
        self.view = view
        self.k = k
        self.player = ContractPlayer(search=True)
        rules = view.rules
        assert rules is not None
        self.rules = rules
        self.leads = rules.first_leader == "declarer"

    def sample(self, rng: random.Random) -> list[int] | None:
        return sample_world(self.k, rng)

    def true_world(self, game: Game) -> list[int]:
        return [*(game.hands[s] for s in range(4)), mask_of(game.stock)]


class BidStrategy(_BidWhistCall):
    """A bid or a pass (see the module docstring)."""

    def __init__(self, view: SeatView, legal: Sequence[Action]) -> None:
        hand = mask_of(view.hand)
        cands = contract_candidates(view, hand)
        self.models = {mode: contract_model(view, mode, choice) for mode, choice, _ in cands}
        super().__init__(view, knowledge(view, self.models["u"]))
        self.bids = {a.encode(): a for a in legal if isinstance(a, Bid)}
        self.has_pass = any(isinstance(a, Pass) for a in legal)
        partner_bid = any(s == view.partner and code != "pass" for s, code in view.auction)
        self.pass_value = 1.0 if partner_bid else 0.0

    def candidates(self) -> list[str]:
        return [*self.bids, *(["pass"] if self.has_pass else [])]

    def evaluate(self, world: list[int], cands: list[str], deadline: float) -> dict[str, float]:
        rules = self.rules
        wanted = {self.bids[code].mode for code in cands if code != "pass"}
        books = {
            mode: self.player.declare_books(self.view, m, list(world), self.leads)
            for mode, m in self.models.items()
            if mode in wanted  # a playout only for the modes of the bids asked about
        }
        out: dict[str, float] = {}
        for code in cands:
            if code == "pass":
                out[code] = self.pass_value
                continue
            b = self.bids[code]
            out[code] = float(
                contract_points(
                    rules.made_score, rules.nt_multiplier, b.number, b.no_trump, books[b.mode]
                )
            )
        return out


class NameStrategy(_BidWhistCall):
    """Naming the trump suit or the direction (see the module docstring)."""

    kind = "trump"

    def __init__(self, view: SeatView, choices: dict[str, DealModel]) -> None:
        first = next(iter(choices.values()))
        super().__init__(view, knowledge(view, first))
        self.choices = choices
        code = view.contract
        self.number = int(code[:-1]) if code[:-1].isdigit() else 0
        self.no_trump = code.endswith("n")
        hand = mask_of(view.hand)
        self.quick = {c: estimate_tricks(m, hand) for c, m in choices.items()}

    def candidates(self) -> list[str]:
        return list(self.choices)

    def evaluate(self, world: list[int], cands: list[str], deadline: float) -> dict[str, float]:
        rules = self.rules
        out: dict[str, float] = {}
        for c in cands:
            books = self.player.declare_books(self.view, self.choices[c], list(world), self.leads)
            points = contract_points(
                rules.made_score, rules.nt_multiplier, self.number, self.no_trump, books
            )
            out[c] = float(points) + 0.01 * self.quick[c]  # the player's own tie-break
        return out


def name_strategy(view: SeatView, legal: Sequence[Action]) -> NameStrategy | None:
    """The strategy naming the trump or direction, ``None`` with fewer than two choices."""
    choices: dict[str, DealModel] = {}
    for a in legal:
        choice: Suit | str
        if isinstance(a, NameTrump):
            choice = a.suit
        elif isinstance(a, NameDirection):
            choice = a.direction
        else:
            continue
        choices[a.encode()] = contract_model(view, view.contract, choice)
    return NameStrategy(view, choices) if len(choices) >= 2 else None


class KittyStrategy(_BidWhistCall):
    """The next card of the kitty lay-out (see the module docstring); its choices are
    cards' codes."""

    kind = "kitty"
    unit = "tricks"

    def __init__(self, view: SeatView, legal: Sequence[Action]) -> None:
        m = model_of(view.trump, view.rank_order)
        super().__init__(view, knowledge(view, m))
        self.m = m
        hand = mask_of(view.hand)
        self.hand = hand
        unseen = pack_mask(self.rules.jokers) & ~hand
        options = sorted(
            (a for a in legal if isinstance(a, Discard)),
            key=lambda a: (keep_value(m, hand, a.card.index, unseen), a.card.index),
        )
        self.cards = [str(a.card) for a in options[:DISCARD_CANDIDATES]]
        self.sides = view.sides or (0, 1, 0, 1)
        self.leader = view.seat if self.leads else view.eldest

    def candidates(self) -> list[str]:
        return list(self.cards)

    def evaluate(self, world: list[int], cands: list[str], deadline: float) -> dict[str, float]:
        seat, sides = self.view.seat, self.sides
        out: dict[str, float] = {}
        for code in cands:
            card = Card.parse(code)
            hands = list(world[:4])
            hands[seat] = self.hand & ~card.bit
            extra = hands[seat].bit_count() - self.rules.hand_size
            hands[seat] = self.player.lay_out(self.m, hands[seat], extra, self.view)
            tricks = playout(self.m, hands, [], self.leader, sides, [0] * (max(sides) + 1))
            out[code] = float(tricks[sides[seat]])
        return out

    def true_world(self, game: Game) -> list[int]:
        truth = super().true_world(game)
        truth[self.view.seat] = self.hand
        return truth
