"""Declarations once the hands are final: Can-ye and showing honours (RULES.md §1.5).

When the exchange is over the hands are final for the deal: the declarations
phase notes them (``held_at_play``, what "honours held after the ruff" means),
fixes the first leader, and opens Can-ye for every seat entitled to call (its
side at the call point, holding two or more honours). Under
``can_ye_window = before_first_lead`` the entitled seats are asked in turn; under
``before_own_first_card`` the window stays open in the play phase, which uses
:func:`claim_options`, :func:`check_claim` and :func:`apply_claim` from here.

Decisions where RULES.md is silent:

* The Can-ye window ``before_first_lead`` is a short declaration phase: each seat
  entitled to call is asked in turn from eldest and answers Call / Show / Pass
  before the first lead. Only entitled seats are asked. The partner's answer is
  automatic and truthful.
* Under ``can_ye_window = before_own_first_card`` an entitled seat may call or
  show when it is its turn in the first trick, before it plays (whether leading
  or following). The partner "holds" the honours he held when play began, so an
  honour he has already played to the first trick still answers the call.
* ``first_leader = ruffer`` falls back to eldest when nobody ruffed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from engine.actions import Action, CallCanYe, Pass, ShowHonours
from engine.cards import Card, cards_from_mask
from engine.errors import IllegalAction
from engine.events import CanYeCalled, HonoursShown, Passed
from engine.phases.base import NOTHING_PRIVATE, Phase, not_your_turn
from engine.phases.score import win_by_call

if TYPE_CHECKING:
    from engine.events import Event
    from engine.game import Game

__all__ = ["DeclarePhase", "apply_claim", "check_claim", "claim_options", "honours_held"]

_CALL: Final = CallCanYe()
_SHOW: Final = ShowHonours()
_PASS: Final = Pass()


def honours_held(game: Game, seat: int) -> list[Card]:
    """The honours (A K Q J of trumps) now in ``seat``'s hand."""
    hon = 0 if game.trump is None else game.trump.honours_mask
    return list(cards_from_mask(game.hands[seat] & hon))


def _held_count(game: Game, seat: int) -> int:
    hon = 0 if game.trump is None else game.trump.honours_mask
    return (game.hands[seat] & hon).bit_count()


def claim_options(game: Game, seat: int) -> list[Action]:
    """Call (two honours) or Show (three or four), for a seat entitled to declare."""
    held = _held_count(game, seat)
    if held == 2:
        return [_CALL]
    if held >= 3:
        return [_SHOW]
    return []


def check_claim(game: Game, seat: int, action: Action) -> None:
    """The hand's part of a Call or Show (whose turn it is is the caller's check)."""
    held = _held_count(game, seat)
    if isinstance(action, CallCanYe) and held != 2:
        raise IllegalAction("Can-ye needs exactly two honours in your hand.", "bad_call")
    if isinstance(action, ShowHonours) and held < 3:
        raise IllegalAction("Showing needs three or four honours.", "bad_call")


def apply_claim(game: Game, seat: int, action: Action, events: list[Event]) -> bool:
    """Perform a checked Call or Show; True when it won the game."""
    side = game.side_of[seat]
    if isinstance(action, ShowHonours):
        cards = tuple(honours_held(game, seat))
        game.shown.extend((seat, c) for c in cards)
        game.calls.append((seat, "show"))
        events.append(HonoursShown(seat, cards))
        win_by_call(game, side, "show", events)
        return True
    partner = game.partner_of(seat)
    hon = 0 if game.trump is None else game.trump.honours_mask
    # honours as held when play began (see the module docstring)
    held = game.held_at_play
    partner_honours = held[partner] & hon
    game.can_ye_open.discard(seat)
    if partner_honours:
        shown = tuple(cards_from_mask((held[seat] | partner_honours) & hon))
        for c in shown:
            owner = seat if held[seat] & c.bit else partner
            game.shown.append((owner, c))
        game.calls.append((seat, "can_ye_answered"))
        events.append(CanYeCalled(seat, partner, True, shown))
        win_by_call(game, side, "can_ye", events)
        return True
    game.calls.append((seat, "can_ye_unanswered"))
    events.append(CanYeCalled(seat, partner, False, ()))
    return False


class DeclarePhase:
    """Hands final, first leader fixed, Can-ye opened; asks entitled seats in turn."""

    name = Phase.CAN_YE
    absent = "You cannot call honours now."
    waiting = "Wait: honours are being declared."

    def handles(self, action: Action) -> bool:
        return isinstance(action, (CallCanYe, ShowHonours, Pass))

    def enter(self, game: Game, events: list[Event]) -> None:
        game.held_at_play = list(game.hands)
        rules = game.rules
        if (
            rules.first_leader == "ruffer"
            and game.ruff_state == "taken"
            and game.ruffer is not None
        ):
            game.leader = game.to_play = game.ruffer
        facts = game.facts
        if facts.can_ye and (facts.call_any or facts.call_point in game.start_scores):
            hon = 0 if game.trump is None else game.trump.honours_mask
            n = game.n_players
            side_of = game.side_of
            eligible = []
            for k in range(n):
                seat = (game.eldest + k) % n
                if (
                    rules.can_call_at(game.start_scores[side_of[seat]])
                    and (game.hands[seat] & hon).bit_count() >= 2
                ):
                    eligible.append(seat)
            if eligible and rules.can_ye_window == "before_first_lead":
                game.can_ye_queue = eligible
                game.phase = self.name
                return
            game.can_ye_open = set(eligible)
        game.enter_next(self, events)

    def to_act(self, game: Game) -> int | None:
        return game.can_ye_queue[0]

    def legal(self, game: Game, seat: int) -> list[Action]:
        if seat != game.can_ye_queue[0]:
            return []
        return [*claim_options(game, seat), _PASS]

    def check(self, game: Game, seat: int, action: Action) -> None:
        if seat != game.can_ye_queue[0]:
            raise not_your_turn("It is not your turn to declare.")
        if not isinstance(action, Pass):
            check_claim(game, seat, action)

    def apply(self, game: Game, seat: int, action: Action, events: list[Event]) -> None:
        if isinstance(action, Pass):
            game.calls.append((seat, "pass"))
            events.append(Passed(seat))
        elif apply_claim(game, seat, action, events):
            return
        game.can_ye_queue.pop(0)
        if not game.can_ye_queue:
            game.enter_next(self, events)

    def visible(self, game: Game, seat: int) -> Mapping[str, object]:
        return NOTHING_PRIVATE
