"""Bid Whist (RULES.md §7): one game id, ``bid-whist``, with jokers and a kitty.

Every deal runs::

    deal -> bidding -> name -> take_kitty -> kitty -> play -> score
    deal -> bidding -> take_kitty -> name -> kitty -> play -> score

(the first with ``declare_before_kitty = true``, the default). The pack has
``jokers`` jokers (54 cards with two); twelve cards each, one at a time, and the
rest (6, 5 or 4 cards) is the kitty. Four seats in fixed partnerships. The
bidding is :mod:`engine.phases.auction`; naming the contract and the kitty are
:mod:`engine.phases.contract`; the play is the shared play phase, which follows
suit with jokers by :func:`engine.cards.follow_mask` and decides tricks by the
contract's :class:`~engine.cards.RankOrder`.

Scoring (RULES.md §7.7): the declaring side's books are 1 (the kitty) plus its
tricks; the contract is 6 + bid. Made: ``made_score = books_over_six`` scores
books − 6, ``bid_only`` the bid. Set: minus the bid. No-trump contracts score
``nt_multiplier`` times either way. Defenders score nothing. A side at
``target_score`` or more wins; a side at minus ``target_score`` or less loses.

Parameters are RULES.md §7.9's, by name, each a field of
:class:`~engine.rules.Rules` (``all_pass`` and ``first_leader`` shared with
other families, with Bid Whist's values).

Decisions where RULES.md is silent:

* ``target_score`` takes any value 1..99 like the other games' targets (RULES.md
  lists 5, 7, 9 and 11 as the usual ones).
* ``boston`` (all 13 books): ``double`` doubles the points of a made contract
  (after the no-trump multiplier); ``wins_game`` wins the game at once, the
  score standing as scored.
* ``jokers = 1`` deals the Big Joker (see :mod:`engine.cards`).
* ``kitty_positions = interleaved`` is the deal pattern ``singles_kitty`` (see
  :mod:`engine.phases.deal`); under a fair shuffle it changes nothing.
* The kitty counts as the first book in scoring only: ``game.tricks`` (and the
  views) count the tricks won in play.
* A game is one game to the target (no match format); the deal passes to the
  left after every deal, a thrown-in one included.

The decisions about the first dealer and the interleaved kitty are in
:mod:`engine.phases.deal`, the auction's in :mod:`engine.phases.auction`, the
naming's and the kitty's in :mod:`engine.phases.contract`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from engine.events import ContractScored
from engine.phases.auction import AuctionPhase, BidWhistState, bid, state_of
from engine.phases.base import PhaseLogic
from engine.phases.contract import KittyDiscardPhase, NamePhase, TakeKittyPhase
from engine.phases.deal import DealPhase
from engine.phases.play import PlayPhase
from engine.phases.score import DealScore, ScorePhase
from engine.rules import (
    GameDef,
    ParamSpec,
    Rules,
    _bool,
    _choice,
    _int,
    register_game,
)
from engine.seating import Seating

if TYPE_CHECKING:
    from engine.events import Event
    from engine.game import Game

__all__ = ["FAMILY", "GAME_DEFS", "BidWhistFamily", "contract_points"]

_PARAMS: Final = (
    _int("jokers", 2, 0, 2),
    _choice("first_dealer", "first_diamond", "first_diamond", "random"),
    _choice("kitty_positions", "remainder", "remainder", "interleaved"),
    _int("min_bid", 3, 3, 4),
    _choice("same_number_order", "u<d<nt", "u<d<nt", "no_equal"),
    _choice("all_pass", "dealer_must_bid", "dealer_must_bid", "redeal"),
    _bool("dealer_can_match", False),
    _bool("declare_before_kitty", True),
    _bool("kitty_exposed", False),
    _choice("downtown_ace", "high", "high", "low"),
    _choice("nt_jokers", "powerless", "powerless", "bidder_discards"),
    _choice("first_leader", "declarer", "declarer", "eldest"),
    _choice("made_score", "books_over_six", "books_over_six", "bid_only"),
    _int("nt_multiplier", 2, 1, 2),
    _choice("boston", "normal", "normal", "wins_game", "double"),
    _int("target_score", 7, 1, 99),
)

PARAMETERS: Final[tuple[ParamSpec, ...]] = _PARAMS

GAME_DEFS: Final[tuple[GameDef, ...]] = (
    GameDef(
        "bid-whist",
        "Bid Whist",
        {
            "family": "bid_whist",
            "hand_size": 12,
            "deal_pattern": "singles",
            "trump_mode": "contract",
            "honours": False,
            "call_point": "none",
        },
        _PARAMS,
        {"default": {}},
        "default",
        "54 cards with two jokers, one round of bids (uptown, downtown, no trump), "
        "a six-card kitty to the declarer. Game 7, or lose at minus 7.",
        bundles={
            "kitty_positions": {
                "remainder": {"deal_pattern": "singles"},
                "interleaved": {"deal_pattern": "singles_kitty"},
            }
        },
    ),
)


def contract_points(rules: Rules, code: str, books: int) -> tuple[bool, int]:
    """Whether a contract (bid code) with ``books`` books (kitty included) is made, and its points."""
    b = bid(code)
    made = books >= 6 + b.number
    if made:
        points = books - 6 if rules.made_score == "books_over_six" else b.number
    else:
        points = -b.number
    if b.no_trump:
        points *= rules.nt_multiplier
    if made and books == 13 and rules.boston == "double":
        points *= 2
    return made, points


def describe(rules: Rules) -> list[str]:
    """The table's rules in a few lines (``Rules.describe``)."""
    kitty = rules.deck_size - rules.players * rules.hand_size
    jokers = {
        2: "with the Big and Little Joker",
        1: "with one joker (the Big)",
        0: "without jokers",
    }
    lines = [
        f"{rules.title} — preset `{rules.preset}`",
        f"{rules.deck_size}-card pack {jokers[rules.jokers]}, {rules.hand_size} cards each, "
        f"{kitty}-card kitty.",
    ]
    order = (
        "at equal numbers downtown beats uptown and no trump beats both"
        if rules.same_number_order == "u<d<nt"
        else "each bid a higher number"
    )
    lines.append(
        f"One round of bids from eldest to the dealer: {rules.min_bid} to 7 books over six, "
        f"uptown, downtown or no trump; {order}."
    )
    if rules.all_pass == "dealer_must_bid":
        lines.append("If the first three pass, the dealer must bid.")
    else:
        lines.append("If all four pass, the deal is thrown in and the next dealer deals.")
    if rules.dealer_can_match:
        lines.append("The dealer may take the contract at the number bid so far.")
    when = "before" if rules.declare_before_kitty else "after"
    lines.append(
        f"The declarer names trumps (in no trump: uptown or downtown) {when} taking the kitty, "
        "then lays out as many cards: they count as his side's first book."
        + (" The kitty is shown to everyone." if rules.kitty_exposed else "")
    )
    if rules.jokers:
        nt = (
            "the declarer must lay his out"
            if rules.nt_jokers == "bidder_discards"
            else "they never win a trick"
        )
        lines.append(f"Jokers are the top trumps (Big above Little); in no trump {nt}.")
    ace = "high (A, 2, 3 … K)" if rules.downtown_ace == "high" else "low (2, 3 … K, A)"
    lines.append(f"Downtown, low cards win and the ace is {ace}.")
    made = "books over six" if rules.made_score == "books_over_six" else "the bid"
    doubled = "; no trump counts double." if rules.nt_multiplier == 2 else "."
    lines.append(f"Made: {made}; set: minus the bid{doubled}")
    if rules.boston == "wins_game":
        lines.append("All 13 books (a Boston) win the game.")
    elif rules.boston == "double":
        lines.append("All 13 books (a Boston) score double.")
    target = rules.target_score
    lines.append(f"Game is {target}; a side at minus {target} loses.")
    return lines


class BidWhistFamily:
    """The phases, seating and scorer of Bid Whist."""

    name = "bid_whist"
    games: Sequence[GameDef] = GAME_DEFS
    has_layouts = False

    def __init__(self) -> None:
        self.deal = DealPhase()
        self.bidding = AuctionPhase()
        self.name_contract = NamePhase()
        self.take_kitty = TakeKittyPhase()
        self.kitty = KittyDiscardPhase()
        self.play = PlayPhase()
        self.score = ScorePhase()

    def sequence(self, rules: Rules) -> tuple[PhaseLogic, ...]:
        """The phases of one deal, in order (naming before or after the kitty)."""
        if rules.declare_before_kitty:
            middle: tuple[PhaseLogic, ...] = (self.name_contract, self.take_kitty)
        else:
            middle = (self.take_kitty, self.name_contract)
        return (self.deal, self.bidding, *middle, self.kitty, self.play, self.score)

    def catalogue(self) -> tuple[PhaseLogic, ...]:
        """Every phase that owns actions."""
        return (self.bidding, self.name_contract, self.kitty, self.play)

    def seating(self, rules: Rules) -> Seating:
        """Fixed partnerships ``s`` and ``s + 2``."""
        return Seating.fixed(rules.players, rules.partnerships)

    def describe(self, rules: Rules) -> list[str]:
        """The table's rules in a few lines (``Rules.describe``)."""
        return describe(rules)

    def deal_state_from_data(self, data: Mapping[str, Any]) -> BidWhistState:
        """A snapshot's deal state (:meth:`BidWhistState.to_data`) read back."""
        return BidWhistState.from_data(data)

    def honour_counts(self, game: Game) -> list[int]:
        """Bid Whist scores no honours."""
        return [0] * game.facts.sides

    def score_deal(self, game: Game, events: list[Event]) -> DealScore:
        """Score the contract (RULES.md §7.7) and check both ends of the game (§7.8)."""
        sides = game.facts.sides
        state = state_of(game)
        declarer = state.declarer
        assert declarer is not None
        side = game.side_of[declarer]
        books = 1 + game.tricks[side]
        made, points = contract_points(game.rules, state.contract, books)
        game.scores[side] += points
        trick_points = [0] * sides
        trick_points[side] = points
        events.append(ContractScored(declarer, side, state.contract, books, made, points))
        score = DealScore(trick_points, [0] * sides, [0] * sides)
        target = game.facts.target
        if made and books == 13 and game.rules.boston == "wins_game":
            score.reached, score.winner = "boston", side
        elif game.scores[side] >= target:
            score.reached, score.winner = "contract", side
        elif game.scores[side] <= -target:
            score.reached = "set"
            score.winner = next(s for s in range(sides) if s != side)
        return score


FAMILY: Final = BidWhistFamily()
for _game in GAME_DEFS:
    register_game(_game)
