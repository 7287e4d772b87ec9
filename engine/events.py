"""Events: what happened, as frozen values, in the order it happened.

Every action returns a list of events. Most are public; an event whose
:attr:`Event.audience` is a seat number is private to that seat (a dealt hand,
the stock cards taken in by the ruffer, his discards) and must only ever be
shown to that seat. Renderers and the move log consume these.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

from .cards import Card, Suit

__all__ = [
    "CanYeCalled",
    "CardPlayed",
    "DealScored",
    "DealStarted",
    "DealerChosen",
    "Discarded",
    "DiscardsDone",
    "Event",
    "GameOver",
    "GameStarted",
    "HandDealt",
    "HonoursScored",
    "HonoursShown",
    "MatchOver",
    "Passed",
    "Revoked",
    "RuffDeclined",
    "RuffTaken",
    "StockTaken",
    "TrickWon",
    "TrumpFixed",
]


def _plain(value: object) -> object:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Suit):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Event:
    """Base class. ``audience`` is ``None`` for public events, else the one seat."""

    kind: ClassVar[str] = "event"

    @property
    def audience(self) -> int | None:
        return None

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict, used by golden transcripts and logs."""
        out: dict[str, object] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


@dataclass(frozen=True, slots=True)
class DealerChosen(Event):
    """The first dealer of a game; ``draws`` lists (seat, card) when drawn for high."""

    dealer: int
    method: str
    draws: tuple[tuple[int, Card], ...] = ()
    kind: ClassVar[str] = "dealer_chosen"


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """A new game (of a match) begins; scores are back to zero."""

    game_no: int
    kind: ClassVar[str] = "game_started"


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    """A deal begins. ``deal_no`` counts from 1 within the game."""

    game_no: int
    deal_no: int
    dealer: int
    eldest: int
    kind: ClassVar[str] = "deal_started"


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """Private: the cards dealt to ``seat``."""

    seat: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "hand_dealt"

    @property
    def audience(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class TrumpFixed(Event):
    """Trumps for the deal: ``turn_up`` is the public card that fixed them, if any.

    ``holder`` is the seat whose hand the turn-up belongs to (``None`` when it is
    the top of the stock). ``trump`` is ``None`` for a no-trump deal.
    """

    trump: Suit | None
    turn_up: Card | None
    holder: int | None
    kind: ClassVar[str] = "trump_fixed"


@dataclass(frozen=True, slots=True)
class RuffTaken(Event):
    """Public: ``seat`` took the four stock cards in and will lay out four."""

    seat: int
    reason: str  # holds_ace | turned_ace | ace_in_stock
    kind: ClassVar[str] = "ruff_taken"


@dataclass(frozen=True, slots=True)
class StockTaken(Event):
    """Private to the ruffer: the stock cards that came into his hand."""

    seat: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "stock_taken"

    @property
    def audience(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class RuffDeclined(Event):
    """Public: the ruffer declined; the stock stays out of play unseen."""

    seat: int
    kind: ClassVar[str] = "ruff_declined"


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """Private to the ruffer: one card laid out face down."""

    seat: int
    card: Card
    remaining: int
    kind: ClassVar[str] = "discarded"

    @property
    def audience(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class DiscardsDone(Event):
    """Public: the ruffer has laid out his four cards (never shown)."""

    seat: int
    kind: ClassVar[str] = "discards_done"


@dataclass(frozen=True, slots=True)
class CanYeCalled(Event):
    """``seat`` asked "Can-ye?"; ``answered`` says whether ``partner`` held an honour.

    When answered, ``shown`` lists the honours both partners showed.
    """

    seat: int
    partner: int
    answered: bool
    shown: tuple[Card, ...]
    kind: ClassVar[str] = "can_ye_called"


@dataclass(frozen=True, slots=True)
class HonoursShown(Event):
    """``seat`` showed three or four honours at the call point and wins."""

    seat: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "honours_shown"


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """``seat`` let its Can-ye opportunity go."""

    seat: int
    kind: ClassVar[str] = "passed"


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``seat`` played ``card`` to trick ``trick_no`` (1-based)."""

    seat: int
    card: Card
    trick_no: int
    kind: ClassVar[str] = "card_played"


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """``winner`` won trick ``trick_no``; ``cards`` in play order from ``leader``."""

    trick_no: int
    leader: int
    cards: tuple[Card, ...]
    winner: int
    side: int
    tricks: tuple[int, ...]
    kind: ClassVar[str] = "trick_won"


@dataclass(frozen=True, slots=True)
class Revoked(Event):
    """``revoke_mode = penalty`` only: ``seat`` failed to follow suit holding it."""

    seat: int
    trick_no: int
    kind: ClassVar[str] = "revoked"


@dataclass(frozen=True, slots=True)
class HonoursScored(Event):
    """Honours for the deal: ``counts`` per side, ``points`` awarded per side.

    ``note`` explains a reduced or void award (cap, split, not at target - 1).
    """

    counts: tuple[int, ...]
    points: tuple[int, ...]
    note: str
    kind: ClassVar[str] = "honours_scored"


@dataclass(frozen=True, slots=True)
class DealScored(Event):
    """End of a deal: tricks per side, trick points, honour points, new scores."""

    game_no: int
    deal_no: int
    tricks: tuple[int, ...]
    trick_points: tuple[int, ...]
    honour_points: tuple[int, ...]
    penalty_points: tuple[int, ...]
    scores: tuple[int, ...]
    kind: ClassVar[str] = "deal_scored"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """A side reached the target. ``how`` is tricks | honours | can_ye | show."""

    game_no: int
    winner: int
    scores: tuple[int, ...]
    how: str
    games_won: tuple[int, ...]
    kind: ClassVar[str] = "game_over"


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    """The match is decided (for a single game, right after :class:`GameOver`).

    ``rubber_points`` is filled for rubbers scored by the classic laws.
    """

    winner: int
    games_won: tuple[int, ...]
    rubber_points: tuple[int, ...]
    kind: ClassVar[str] = "match_over"
