"""Exchanges with the stock before play: Cotton's ruff (RULES.md §1.3).

The holder of the trump ace (or the dealer, when the ace is turned up or lies in
the stock and ``ruff_if_ace_in_stock = dealer``) may take the four stock cards
and then lays out four cards. Two phases: :class:`RuffPhase` (take or decline)
and :class:`DiscardPhase` (lay out, one card per action). Willughby's rub and a
kitty are further exchanges of the same shape, for their own families.

Decisions where RULES.md is silent:

* ``ruff_mandatory = true`` takes the stock in automatically: the ruffer's only
  decision is his four discards.
* ``ruff_discard_restriction``: a restricted card may be laid out only when the
  ruffer has too few unrestricted cards left to complete four discards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from engine.actions import Action, DeclineRuff, Discard, TakeRuff, discard
from engine.cards import (
    JOKERS_MASK,
    SUIT_MASKS,
    SUITS,
    Card,
    Rank,
    cards_from_mask,
    mask_of,
    sort_hand,
)
from engine.errors import IllegalAction
from engine.events import Discarded, DiscardsDone, RuffDeclined, RuffTaken, StockTaken
from engine.phases.base import NOTHING_PRIVATE, Phase, new_event, not_your_turn

if TYPE_CHECKING:
    from engine.events import Event
    from engine.game import Game

__all__ = ["DiscardPhase", "RuffPhase"]

_TAKE: Final = TakeRuff()
_DECLINE: Final = DeclineRuff()
_ACE_OF: Final = {suit: Card.of(Rank.ACE, suit) for suit in SUITS}
_DISCARD_BY_INDEX: Final = [discard(Card.from_index(i)) for i in range(54)]  # jokers too
_SUIT_MASK_LIST: Final = (*(suit.mask for suit in SUITS), JOKERS_MASK)
_DISCARDS_CACHE: Final[dict[int, tuple[Action, ...]]] = {}


def _cache_discards(mask: int) -> tuple[Action, ...]:
    result = _DISCARDS_CACHE[mask] = tuple(
        _DISCARD_BY_INDEX[c.index] for c in cards_from_mask(mask)
    )
    return result


def discards_of(mask: int) -> list[Action]:
    """The Discard actions for every card in ``mask``, in card-index order."""
    acts: list[Action] = []
    cache = _DISCARDS_CACHE
    for suit_mask in _SUIT_MASK_LIST:
        sub = mask & suit_mask
        if sub:
            found = cache.get(sub)
            acts += found if found is not None else _cache_discards(sub)
    return acts


class RuffPhase:
    """The ruffer takes the stock in, or declines (skipped when nobody may ruff).

    ``take`` is how many cards of the stock (from the top) he takes: all of them
    (``None``, Cotton's ruff) or a fixed number (Willughby's rub takes the top four
    of a head that may be longer; the rest stays out of play, unseen).
    """

    name = Phase.RUFF
    absent = "There is no ruff to decide now."
    waiting = "Wait: the ruff is being decided."

    def __init__(self, take: int | None = None) -> None:
        self.take = take

    def handles(self, action: Action) -> bool:
        return isinstance(action, (TakeRuff, DeclineRuff))

    def enter(self, game: Game, events: list[Event]) -> None:
        assert game.trump is not None
        ace = _ACE_OF[game.trump]
        ruffer: int | None = None
        reason = ""
        for seat in range(game.n_players):
            if game.hands[seat] & ace.bit:
                ruffer, reason = seat, "holds_ace"
        if ruffer is None:
            if game.turn_up is ace:
                ruffer, reason = game.dealer, "turned_ace"
            elif game.rules.ruff_if_ace_in_stock == "dealer":
                ruffer, reason = game.dealer, "ace_in_stock"
        if ruffer is None:
            game.enter_next(self, events)
            return
        game.ruffer = ruffer
        game.ruff_reason = reason
        game.ruff_state = "pending"
        if game.rules.ruff_mandatory:
            self._take_stock(game, events)
        else:
            game.phase = self.name

    def to_act(self, game: Game) -> int | None:
        return game.ruffer

    def legal(self, game: Game, seat: int) -> list[Action]:
        if seat != game.ruffer:
            return []
        return [_TAKE] if game.rules.ruff_mandatory else [_TAKE, _DECLINE]

    def check(self, game: Game, seat: int, action: Action) -> None:
        if seat != game.ruffer:
            raise not_your_turn("Only the holder of the trump ace may ruff.")
        if isinstance(action, DeclineRuff) and game.rules.ruff_mandatory:
            raise IllegalAction("The ruff is compulsory in this game.", "mandatory")

    def apply(self, game: Game, seat: int, action: Action, events: list[Event]) -> None:
        if isinstance(action, TakeRuff):
            self._take_stock(game, events)
            return
        game.ruff_state = "declined"
        events.append(RuffDeclined(seat))
        game.enter_next(self, events)

    def _take_stock(self, game: Game, events: list[Event]) -> None:
        assert game.ruffer is not None
        seat = game.ruffer
        take = len(game.stock) if self.take is None else self.take
        game.stock_taken = tuple(game.stock[:take])
        game.hands[seat] |= mask_of(game.stock_taken)
        game.stock = game.stock[take:]
        game.ruff_state = "taken"
        game.discards_left = len(game.stock_taken)
        events.append(RuffTaken(seat, game.ruff_reason))
        events.append(StockTaken(seat, tuple(sort_hand(game.stock_taken, game.trump))))
        game.enter_next(self, events)

    def visible(self, game: Game, seat: int) -> Mapping[str, object]:
        return NOTHING_PRIVATE


class DiscardPhase:
    """The ruffer lays out as many cards as he took in (skipped unless he took them)."""

    name = Phase.DISCARD
    absent = "There is nothing to lay out now."
    waiting = "Wait: the ruffer is laying out four cards."

    def handles(self, action: Action) -> bool:
        return isinstance(action, Discard)

    def enter(self, game: Game, events: list[Event]) -> None:
        if game.ruff_state == "taken" and game.discards_left:
            game.phase = self.name
        else:
            game.enter_next(self, events)

    def to_act(self, game: Game) -> int | None:
        return game.ruffer

    def discardable(self, game: Game, seat: int) -> int:
        """The cards ``seat`` may lay out now, as a mask."""
        hand = game.hands[seat]
        restriction = game.rules.ruff_discard_restriction
        if restriction == "none" or game.trump is None:
            return hand
        trump = game.trump
        banned = trump.honours_mask if restriction == "no_honours" else SUIT_MASKS[trump]
        free = hand & ~banned
        return free if (free.bit_count()) >= game.discards_left else hand

    def legal(self, game: Game, seat: int) -> list[Action]:
        if seat != game.ruffer:
            return []
        return discards_of(self.discardable(game, seat))

    def check(self, game: Game, seat: int, action: Action) -> None:
        assert isinstance(action, Discard)
        if seat != game.ruffer:
            raise not_your_turn("Only the ruffer lays out cards.")
        card = action.card
        if not game.hands[seat] & card.bit:
            raise IllegalAction(f"{card.pretty} is not in your hand.", "not_in_hand")
        if not self.discardable(game, seat) & card.bit:
            what = "an honour" if game.rules.ruff_discard_restriction == "no_honours" else "a trump"
            raise IllegalAction(f"You may not lay out {what} in this game.", "restricted")

    def apply(self, game: Game, seat: int, action: Action, events: list[Event]) -> None:
        assert isinstance(action, Discard)
        card = action.card
        game.hands[seat] &= ~card.bit
        game.discards.append(card)
        game.discards_left = left = game.discards_left - 1
        events.append(new_event(Discarded, (seat, card, left)))
        if left == 0:
            events.append(DiscardsDone(seat))
            game.enter_next(self, events)

    def visible(self, game: Game, seat: int) -> Mapping[str, object]:
        """The ruffer alone sees the cards he took in and laid out."""
        if seat != game.ruffer:
            return NOTHING_PRIVATE
        return {"stock_taken": game.stock_taken, "my_discards": tuple(game.discards)}
