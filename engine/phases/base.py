"""The one protocol every phase of a deal speaks, and what phases share.

A phase is a small, stateless object: the state lives in the
:class:`~engine.game.Game` (hands, trick, scores ... the deal's state), and the
phase says, for the moment the game is in it,

* ``enter(game, events)``: begin (an automatic phase such as the deal or the
  scoring does its whole work here and hands over to the next one);
* ``to_act(game)``: who the game waits for (``None`` for nobody);
* ``legal(game, seat)``: every action ``seat`` may take now;
* ``check(game, seat, action)``: raise :class:`~engine.errors.IllegalAction`
  with a human reason unless the action is allowed (``legal`` is built on the
  same tests, so the two never disagree);
* ``apply(game, seat, action, events)``: perform a checked action, appending
  the events it causes;
* ``visible(game, seat)``: what ``seat`` may see of what this phase keeps
  private (merged into :class:`~engine.game.SeatView` by ``Game.observe``).

``handles(action)`` says which actions the phase judges itself; the game tells a
seat that tries another phase's action out of turn either that phase's
``absent`` message or, when that is empty, the running phase's ``waiting``
message. A game family (``engine/families/``) composes its phases, in order;
``Game.enter_next`` enters the next one. Later phases (an auction, Willughby's
contest, a kitty exchange) are further objects of this shape.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final, Protocol

from engine.actions import Action
from engine.errors import IllegalAction

if TYPE_CHECKING:
    from engine.events import Event
    from engine.game import Game

__all__ = ["NOTHING_PRIVATE", "DealState", "Phase", "PhaseLogic", "new_event", "not_your_turn"]


class Phase:
    """Names of the phases of a deal (plain strings, stable in snapshots).

    Only the phases that wait for a player (or the end) are ever seen in
    ``Game.phase``; the deal and the scoring run inside one action.
    """

    DEAL = "deal"  # shuffle, deal, fix trumps (automatic)
    RUFF = "ruff"  # the ruffer decides to take the stock or decline
    DISCARD = "discard"  # the ruffer lays out four cards
    CAN_YE = "can_ye"  # declarations before the first lead
    BIDDING = "bidding"  # Bid Whist: one round of bids (engine.phases.auction)
    NAME = "name"  # Bid Whist: the declarer names trumps or the direction
    KITTY = "kitty"  # Bid Whist: the declarer lays out as many cards as the kitty held
    PLAY = "play"
    SCORE = "score"  # the deal is scored (automatic)
    OVER = "over"  # the match is decided


NOTHING_PRIVATE: Final[Mapping[str, object]] = {}

# Events are tuples underneath (see engine.events); the hot paths build the
# commonest ones with tuple.__new__ directly, skipping the keyword-aware __new__.
new_event: Final[Callable[..., Any]] = tuple.__new__


def not_your_turn(message: str) -> IllegalAction:
    return IllegalAction(message, "not_your_turn")


class DealState(Protocol):
    """A family's own state of the deal in play (an auction, a contract): ``Game.deal_state``.

    An immutable value, replaced (never changed in place) by the phases that own
    it, so clones share it safely; ``to_data`` is its JSON-ready form for
    snapshots, read back by the family's ``deal_state_from_data(data)``.
    """

    def to_data(self) -> dict[str, Any]: ...


class PhaseLogic(Protocol):
    """What a phase of a deal must answer (see the module docstring)."""

    name: str
    absent: str
    waiting: str

    def handles(self, action: Action) -> bool: ...

    def enter(self, game: Game, events: list[Event]) -> None: ...

    def to_act(self, game: Game) -> int | None: ...

    def legal(self, game: Game, seat: int) -> list[Action]: ...

    def check(self, game: Game, seat: int, action: Action) -> None: ...

    def apply(self, game: Game, seat: int, action: Action, events: list[Event]) -> None: ...

    def visible(self, game: Game, seat: int) -> Mapping[str, object]: ...


class Automatic:
    """Base of the phases that run inside one action and wait for nobody."""

    name = ""
    absent = ""
    waiting = "You cannot do that now."

    def handles(self, action: Action) -> bool:
        return False

    def to_act(self, game: Game) -> int | None:
        return None

    def legal(self, game: Game, seat: int) -> list[Action]:
        return []

    def check(self, game: Game, seat: int, action: Action) -> None:
        raise IllegalAction(self.waiting, "wrong_phase")  # pragma: no cover - never current

    def apply(self, game: Game, seat: int, action: Action, events: list[Event]) -> None:
        raise IllegalAction(self.waiting, "wrong_phase")  # pragma: no cover - never current

    def visible(self, game: Game, seat: int) -> Mapping[str, object]:
        return NOTHING_PRIVATE
