"""After the auction: the declarer names trumps and direction, takes the kitty, lays out as many.

Three phases (RULES.md §7.4), in the order ``declare_before_kitty`` gives:

* :class:`NamePhase` (``name``): a suit bid (uptown/downtown) names the trump
  suit (Solo's :class:`~engine.phases.solo_declare.NameTrump`, ``"trump:S"``);
  a no-trump bid names the direction
  (:class:`NameDirection`, ``"dir:up"`` / ``"dir:down"``). This fixes
  ``game.trump`` and ``game.rank_order`` (with ``downtown_ace``).
* :class:`TakeKittyPhase` (automatic): the kitty goes into the declarer's hand;
  he alone sees it, or every seat when ``kitty_exposed``.
* :class:`KittyDiscardPhase` (``kitty``): the declarer lays out as many cards as
  he took in, one :class:`~engine.actions.Discard` (``"discard:AS"``) at a time,
  face down; they count as his side's first book. Then the first leader
  (``first_leader``: the declarer or eldest) leads.

Decisions where RULES.md is silent:

* ``declare_before_kitty = false``: the declarer takes the kitty, then names,
  then lays out (naming before laying out lets ``nt_jokers = bidder_discards``
  and a player's plan for the discard follow the named contract; he has seen
  all his cards either way).
* ``kitty_exposed = true`` shows the kitty to every seat when the declarer
  takes it up (after the auction), never the cards he lays out.
* ``nt_jokers = bidder_discards``: while the declarer of a no-trump contract
  holds a joker, the jokers are the only cards he may lay out (so they are laid
  out first; he never holds more than two, and lays out four to six cards).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final

from engine.actions import Action, ActionParseError, Discard, register_action
from engine.cards import (
    JOKERS_MASK,
    SUITS,
    RankOrder,
    Suit,
    declarer_must_discard_jokers,
    mask_of,
    sort_hand,
)
from engine.errors import IllegalAction
from engine.events import (
    ContractDeclared,
    Discarded,
    DiscardsDone,
    KittyTaken,
    StockTaken,
    TrumpFixed,
)
from engine.phases.auction import state_of
from engine.phases.base import NOTHING_PRIVATE, Automatic, Phase, new_event, not_your_turn
from engine.phases.exchange import discards_of
from engine.phases.solo_declare import NameTrump, name_trump

if TYPE_CHECKING:
    from engine.events import Event
    from engine.game import Game

__all__ = [
    "KittyDiscardPhase",
    "NameDirection",
    "NamePhase",
    "NameTrump",
    "TakeKittyPhase",
    "kitty_discardable",
]


@dataclass(frozen=True, slots=True)
class NameDirection(Action):
    """The declarer of a no-trump bid names the direction: ``uptown`` or ``downtown``."""

    direction: str
    verb: ClassVar[str] = "dir"

    def encode(self) -> str:
        return "dir:up" if self.direction == "uptown" else "dir:down"


NAME_TRUMPS: Final = {suit: name_trump(suit) for suit in SUITS}
NAME_DIRECTIONS: Final = {d: NameDirection(d) for d in ("uptown", "downtown")}


def _decode_direction(arg: str) -> Action:
    text = arg.strip().lower()
    for key, direction in (("up", "uptown"), ("down", "downtown")):
        if text in (key, direction):
            return NAME_DIRECTIONS[direction]
    raise ActionParseError(f"not a direction: {arg!r}")


register_action("dir", _decode_direction)


class NamePhase:
    """The declarer names trumps (suit bid) or the direction (no-trump bid)."""

    name = Phase.NAME
    absent = "There is nothing to name now."
    waiting = "Wait: the declarer is naming the contract."

    def handles(self, action: Action) -> bool:
        return isinstance(action, (NameTrump, NameDirection))

    def enter(self, game: Game, events: list[Event]) -> None:
        game.phase = self.name

    def to_act(self, game: Game) -> int | None:
        return state_of(game).declarer

    def legal(self, game: Game, seat: int) -> list[Action]:
        if seat != state_of(game).declarer:
            return []
        if state_of(game).contract.endswith("n"):
            return list(NAME_DIRECTIONS.values())
        return list(NAME_TRUMPS.values())

    def check(self, game: Game, seat: int, action: Action) -> None:
        if seat != state_of(game).declarer:
            raise not_your_turn("Only the declarer names the contract.")
        no_trump = state_of(game).contract.endswith("n")
        if isinstance(action, NameTrump) and no_trump:
            raise IllegalAction("A no-trump bid names uptown or downtown, not trumps.", "bad_name")
        if isinstance(action, NameDirection) and not no_trump:
            raise IllegalAction("A suit bid names the trump suit.", "bad_name")

    def apply(self, game: Game, seat: int, action: Action, events: list[Event]) -> None:
        if isinstance(action, NameTrump):
            trump: Suit | None = action.suit
            direction = "uptown" if state_of(game).contract.endswith("u") else "downtown"
        else:
            assert isinstance(action, NameDirection)
            trump, direction = None, action.direction
        game.trump = trump
        game.rank_order = RankOrder.for_mode(direction, game.rules.downtown_ace)
        events.append(ContractDeclared(seat, state_of(game).contract, trump, direction))
        events.append(new_event(TrumpFixed, (trump, None, None)))
        game.enter_next(self, events)

    def visible(self, game: Game, seat: int) -> Mapping[str, object]:
        return NOTHING_PRIVATE


class TakeKittyPhase(Automatic):
    """The kitty goes into the declarer's hand (automatic)."""

    name = "take_kitty"

    def enter(self, game: Game, events: list[Event]) -> None:
        seat = state_of(game).declarer
        assert seat is not None
        kitty = tuple(game.stock)
        game.stock_taken = kitty
        game.hands[seat] |= mask_of(kitty)
        game.stock = []
        game.discards = []
        game.discards_left = len(kitty)
        shown = tuple(sort_hand(kitty)) if game.rules.kitty_exposed else ()
        events.append(KittyTaken(seat, len(kitty), shown))
        events.append(StockTaken(seat, tuple(sort_hand(kitty, game.trump))))
        game.enter_next(self, events)

    def visible(self, game: Game, seat: int) -> Mapping[str, object]:
        """The kitty, once taken: to the declarer, or to every seat when exposed."""
        if game.stock_taken and (seat == state_of(game).declarer or game.rules.kitty_exposed):
            return {"stock_taken": game.stock_taken}
        return NOTHING_PRIVATE


def kitty_discardable(game: Game, seat: int) -> int:
    """The cards the declarer may lay out now, as a mask (see ``nt_jokers``)."""
    hand = game.hands[seat]
    jokers = hand & JOKERS_MASK
    if jokers and declarer_must_discard_jokers(game.rules.nt_jokers, game.trump):
        return jokers
    return hand


class KittyDiscardPhase:
    """The declarer lays out as many cards as the kitty held, then play begins."""

    name = Phase.KITTY
    absent = "There is nothing to lay out now."
    waiting = "Wait: the declarer is laying out the kitty."

    def handles(self, action: Action) -> bool:
        return isinstance(action, Discard)

    def enter(self, game: Game, events: list[Event]) -> None:
        if game.discards_left:
            game.phase = self.name
        else:  # pragma: no cover - a kitty always holds four to six cards
            self._done(game, events)

    def to_act(self, game: Game) -> int | None:
        return state_of(game).declarer

    def legal(self, game: Game, seat: int) -> list[Action]:
        if seat != state_of(game).declarer:
            return []
        return discards_of(kitty_discardable(game, seat))

    def check(self, game: Game, seat: int, action: Action) -> None:
        assert isinstance(action, Discard)
        if seat != state_of(game).declarer:
            raise not_your_turn("Only the declarer lays out the kitty.")
        card = action.card
        if not game.hands[seat] & card.bit:
            raise IllegalAction(f"{card.pretty} is not in your hand.", "not_in_hand")
        if not kitty_discardable(game, seat) & card.bit:
            raise IllegalAction("In no trump your jokers must be laid out first.", "restricted")

    def apply(self, game: Game, seat: int, action: Action, events: list[Event]) -> None:
        assert isinstance(action, Discard)
        card = action.card
        game.hands[seat] &= ~card.bit
        game.discards.append(card)
        game.discards_left = left = game.discards_left - 1
        events.append(new_event(Discarded, (seat, card, left)))
        if left == 0:
            events.append(DiscardsDone(seat))
            self._done(game, events)

    def _done(self, game: Game, events: list[Event]) -> None:
        declarer = state_of(game).declarer
        assert declarer is not None
        first = declarer if game.rules.first_leader == "declarer" else game.eldest
        game.leader = game.to_play = first
        game.enter_next(self, events)

    def visible(self, game: Game, seat: int) -> Mapping[str, object]:
        """The declarer alone sees the cards he laid out."""
        if seat != state_of(game).declarer or not game.stock_taken:
            return NOTHING_PRIVATE
        return {"my_discards": tuple(game.discards)}
