"""Actions a seat can take. Frozen, hashable, and encodable as short strings.

The string form (``"play:10H"``, ``"take"``, ``"discard:AS"``) is what the
action log stores and what a Discord ``custom_id`` can carry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from engine.cards import Card, CardParseError

__all__ = [
    "Action",
    "ActionParseError",
    "CallCanYe",
    "DeclineRuff",
    "Discard",
    "Pass",
    "Play",
    "ShowHonours",
    "TakeRuff",
    "decode_action",
    "play",
    "register_action",
]


class ActionParseError(ValueError):
    """A string that does not encode an action."""


@dataclass(frozen=True, slots=True)
class Action:
    """Base class of every action."""

    verb: ClassVar[str] = ""

    def encode(self) -> str:
        """The compact string form, e.g. ``"play:10H"``."""
        return self.verb

    def __str__(self) -> str:
        return self.encode()


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card to the current trick."""

    card: Card
    verb: ClassVar[str] = "play"

    def encode(self) -> str:
        return f"play:{self.card.code}"


@dataclass(frozen=True, slots=True)
class TakeRuff(Action):
    """The ruffer takes the four stock cards into hand (then discards four)."""

    verb: ClassVar[str] = "take"


@dataclass(frozen=True, slots=True)
class DeclineRuff(Action):
    """The ruffer declines the optional ruff; the stock stays out unseen."""

    verb: ClassVar[str] = "decline"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """After taking the stock, lay one card out face down (four in all)."""

    card: Card
    verb: ClassVar[str] = "discard"

    def encode(self) -> str:
        return f"discard:{self.card.code}"


@dataclass(frozen=True, slots=True)
class CallCanYe(Action):
    """Holding exactly two honours at the call point: ask partner "Can-ye?"."""

    verb: ClassVar[str] = "canye"


@dataclass(frozen=True, slots=True)
class ShowHonours(Action):
    """Holding three or four honours at the call point: show them and win."""

    verb: ClassVar[str] = "show"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Let the Can-ye opportunity go (the honours still score at the end)."""

    verb: ClassVar[str] = "pass"


_PLAYS: dict[Card, Play] = {}
_DISCARDS: dict[Card, Discard] = {}
for _i in range(54):  # 52 cards and the two jokers (LJ, BJ)
    _c = Card.from_index(_i)
    _PLAYS[_c] = Play(_c)
    _DISCARDS[_c] = Discard(_c)

_SIMPLE: dict[str, Action] = {
    "take": TakeRuff(),
    "decline": DeclineRuff(),
    "canye": CallCanYe(),
    "show": ShowHonours(),
    "pass": Pass(),
}


def play(card: Card | str) -> Play:
    """The (interned) action of playing ``card``."""
    return _PLAYS[card if isinstance(card, Card) else Card.parse(card)]


def discard(card: Card | str) -> Discard:
    """The (interned) action of discarding ``card`` after the ruff."""
    return _DISCARDS[card if isinstance(card, Card) else Card.parse(card)]


_DECODERS: dict[str, Callable[[str], Action]] = {}


def register_action(verb: str, decode: Callable[[str], Action]) -> None:
    """Let a family add its own action kinds (a bid, naming trumps, a kitty card).

    ``decode`` gets the text after ``"verb:"`` (empty for an argument-less action)
    and returns the action or raises :class:`ActionParseError`. The verbs of this
    module cannot be replaced. A verb two families share (``bid``: Solo's calls
    and Bid Whist's ``4u``) tries each family's decoder in the order registered,
    so the families' arguments must never overlap.
    """
    if verb in _SIMPLE or verb in ("play", "discard"):
        raise ValueError(f"action verb {verb!r} is already taken")
    first = _DECODERS.get(verb)
    if first is None:
        _DECODERS[verb] = decode
        return

    def either(arg: str) -> Action:
        try:
            return first(arg)
        except ActionParseError:
            return decode(arg)

    _DECODERS[verb] = either


def decode_action(text: str) -> Action:
    """Parse an encoded action; raises :class:`ActionParseError` if malformed."""
    known = _DECODED.get(text)  # actions are immutable values: a log repeats few of them
    if known is not None:
        return known
    action = _decode(text)
    if len(_DECODED) < _DECODED_KEPT:
        _DECODED[text] = action
    return action


_DECODED: dict[str, Action] = {}
_DECODED_KEPT = 4096  # texts kept (every card's play and discard, the bids: a few hundred)


def _decode(text: str) -> Action:
    verb, sep, arg = text.strip().partition(":")
    verb = verb.lower()
    if verb in _SIMPLE and not sep:
        return _SIMPLE[verb]
    if verb in _DECODERS:
        return _DECODERS[verb](arg)
    if verb in ("play", "discard") and arg:
        try:
            card = Card.parse(arg)
        except CardParseError as exc:
            raise ActionParseError(str(exc)) from None
        return _PLAYS[card] if verb == "play" else _DISCARDS[card]
    raise ActionParseError(f"not an action: {text!r}")
