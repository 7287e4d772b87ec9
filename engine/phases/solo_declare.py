"""Between the Solo Whist auction and the play, and the play's own rules (RULES.md §6.2, §6.4).

:class:`SoloDeclarePhase` runs once the contract is fixed:

* Abundance, and Slam under ``slam_trump = declarer_choice``: the declarer
  names trumps (a :class:`NameTrump`, ``"trump:S"``) before the first lead;
* Spread Misère under ``spread_exposure = before_first_lead``: the declarer's
  hand is exposed (a public :class:`HandExposed`; every view then carries it
  in ``SeatView.exposed``, the remaining cards as they are played);
* the first lead: eldest, except Slam, where the declarer leads.

:class:`SoloPlayPhase` is the shared play phase with two additions:
``spread_exposure = after_first_trick`` exposes the hand when the first trick
is turned, and ``early_termination`` ends the deal as soon as its result
cannot change (Misère and Spread when the declarer takes a trick, Slam when
he loses one). The cards not played stay in their hands.

Decisions where RULES.md is silent:

* Slam under ``declarer_choice`` names one of the four suits (S4: "a trump suit
  of the bidder's selection"); playing it without trumps is ``slam_trump = none``.
* The Abundance declarer may name any suit, the turn-up suit included.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar, Final

from engine.actions import Action, ActionParseError, Play, register_action
from engine.cards import Card, CardParseError, Suit
from engine.errors import IllegalAction
from engine.events import Event
from engine.phases.base import NOTHING_PRIVATE, not_your_turn
from engine.phases.play import PlayPhase
from engine.phases.solo_auction import SoloState, state_of

if TYPE_CHECKING:
    from engine.game import Game

__all__ = [
    "TRUMPS",
    "HandExposed",
    "NameTrump",
    "PlayStopped",
    "SoloDeclarePhase",
    "SoloPlayPhase",
    "TrumpNamed",
    "name_trump",
    "settled_early",
]

TRUMPS: Final = "trumps"  # the phase's name while the declarer names trumps


@dataclass(frozen=True, slots=True)
class NameTrump(Action):
    """The declarer names the trump suit (Abundance; Slam under ``declarer_choice``)."""

    suit: Suit
    verb: ClassVar[str] = "trump"

    def encode(self) -> str:
        return f"trump:{self.suit.value}"


_NAMES: Final = {suit: NameTrump(suit) for suit in Suit}


def name_trump(suit: Suit | str) -> NameTrump:
    """The (interned) action of naming ``suit`` trumps."""
    return _NAMES[suit if isinstance(suit, Suit) else Suit.parse(suit)]


def _decode_trump(arg: str) -> Action:
    try:
        return _NAMES[Suit.parse(arg)]
    except CardParseError:
        raise ActionParseError(f"not a suit: {arg!r}") from None


register_action("trump", _decode_trump)


class TrumpNamed(Event):
    """The declarer named ``trump`` for the deal."""

    seat: int
    trump: Suit
    kind: ClassVar[str] = "trump_named"


class HandExposed(Event):
    """The Spread Misère declarer's hand, face up for the rest of the deal."""

    seat: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "hand_exposed"


class PlayStopped(Event):
    """``early_termination``: the deal stops after trick ``trick_no``, its result fixed."""

    trick_no: int
    made: bool
    kind: ClassVar[str] = "play_stopped"


def _expose(game: Game, events: list[Event]) -> None:
    seat = state_of(game).declarer
    events.append(HandExposed(seat, tuple(game.hand(seat))))


class SoloDeclarePhase:
    """Trumps named where the declarer chooses them; the hand exposed; the first leader fixed."""

    name = TRUMPS
    absent = "Only the declarer names trumps, once the auction is over."
    waiting = "Wait: the declarer is naming trumps."

    def handles(self, action: Action) -> bool:
        return isinstance(action, NameTrump)

    def enter(self, game: Game, events: list[Event]) -> None:
        if state_of(game).stage == "trumps":
            game.phase = self.name
            return
        self._to_play(game, events)

    def _to_play(self, game: Game, events: list[Event]) -> None:
        state = state_of(game)
        game.deal_state = replace(state, stage="play")
        lead = state.declarer if state.contract == "slam" else game.eldest
        game.leader = game.to_play = lead
        if state.contract == "spread" and game.rules.spread_exposure == "before_first_lead":
            _expose(game, events)
        game.enter_next(self, events)

    def to_act(self, game: Game) -> int | None:
        return state_of(game).declarer

    def legal(self, game: Game, seat: int) -> list[Action]:
        if seat != state_of(game).declarer:
            return []
        return list(_NAMES.values())

    def check(self, game: Game, seat: int, action: Action) -> None:
        if seat != state_of(game).declarer:
            raise not_your_turn("Only the declarer names trumps.")

    def apply(self, game: Game, seat: int, action: Action, events: list[Event]) -> None:
        assert isinstance(action, NameTrump)
        game.trump = action.suit
        events.append(TrumpNamed(seat, action.suit))
        self._to_play(game, events)

    def visible(self, game: Game, seat: int) -> Mapping[str, object]:
        return NOTHING_PRIVATE


def settled_early(game: Game) -> bool | None:
    """Whether the contract's result is already fixed: made (True), failed (False) or open (None).

    Only the contracts RULES.md §6.4 names: the misères fail at the declarer's
    first trick, Slam at his first lost trick. The declaring side is side 0.
    """
    state = game.deal_state
    if not isinstance(state, SoloState):
        return None
    tricks = game.tricks
    if state.contract in ("mis", "spread") and tricks[0] > 0:
        return False
    if state.contract == "slam" and tricks[1] > 0:
        return False
    return None


class SoloPlayPhase(PlayPhase):
    """Trick play with Spread Misère exposure after the first trick and early termination."""

    def end_trick(self, game: Game, events: list[Event]) -> None:
        deal_no, done = game.deals_total, len(game.completed)
        super().end_trick(game, events)
        if game.deals_total != deal_no or game.phase != self.name or len(game.completed) <= done:
            return  # the deal is over (scored, and maybe the next one dealt)
        if game.rules.early_termination:
            result = settled_early(game)
            if result is not None:
                events.append(PlayStopped(len(game.completed), result))
                game.trick = []
                game.enter_next(self, events)
                return
        state = state_of(game)
        if (
            len(game.completed) == 1
            and state.contract == "spread"
            and game.rules.spread_exposure == "after_first_trick"
        ):
            _expose(game, events)

    def check(self, game: Game, seat: int, action: Action) -> None:
        if not isinstance(action, Play):
            raise IllegalAction("Play a card.", "wrong_phase")
        super().check(game, seat, action)
