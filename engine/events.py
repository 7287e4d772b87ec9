"""Events: what happened, as immutable values, in the order it happened.

Every action returns a list of events. Most are public; an event whose
:attr:`Event.audience` is a seat number is private to that seat (a dealt hand,
the stock cards taken in by the ruffer, his discards) and must only ever be
shown to that seat. Renderers and the move log consume these.

Each event class declares its fields as annotations, like a frozen dataclass,
and behaves like one: keyword or positional construction, read-only fields,
``==`` and ``hash`` by class and field values, a dataclass-style ``repr``,
``__match_args__`` for ``match`` statements, :meth:`Event.to_dict`. Underneath,
an event is a ``tuple`` subclass built by :class:`_EventMeta`, because the
engine creates tens of events per deal and a frozen slotted dataclass costs two
to three times as much to build. (So ``dataclasses.fields``/``replace`` do not
apply; use :meth:`Event.field_names` and the constructor.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, cast, dataclass_transform

from engine.cards import Card, Suit

__all__ = [
    "AllPassed",
    "BidMade",
    "CanYeCalled",
    "ContractDeclared",
    "ContractScored",
    "ContractWon",
    "KittyTaken",
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
    "LayoutCardPlayed",
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


_tuple_new = tuple.__new__
_tuple_eq = tuple.__eq__
_tuple_hash = tuple.__hash__


def _field_getter(index: int, name: str) -> property:
    def get(self: tuple[Any, ...]) -> Any:
        return self[index]

    get.__name__ = name
    return property(get, doc=f"Field {name!r} of the event.")


@dataclass_transform(frozen_default=True, eq_default=True)
class _EventMeta(type):
    """Builds an event class from its annotations (see the module docstring).

    Fields are the annotations of the class and its event bases, except
    ``ClassVar`` ones; a class attribute with the field's name is its default.
    The class gets ``__slots__ = ()``, a ``__new__`` taking the fields by
    position or keyword, one read-only property per field, ``__match_args__``
    and ``_fields``.
    """

    def __new__(
        mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any
    ) -> _EventMeta:
        inherited: tuple[str, ...] = ()
        defaults: dict[str, object] = {}
        for base in bases:
            inherited = getattr(base, "_fields", inherited)
            defaults.update(getattr(base, "_defaults", {}))
        own = [
            field
            for field, annotation in namespace.get("__annotations__", {}).items()
            if not str(annotation).startswith(("ClassVar", "typing.ClassVar"))
        ]
        names = (*inherited, *(f for f in own if f not in inherited))
        for field in own:
            if field in namespace:
                defaults[field] = namespace.pop(field)
        namespace["__slots__"] = ()
        namespace["_fields"] = names
        namespace["_defaults"] = defaults
        namespace["__match_args__"] = names
        for index, field in enumerate(names):
            namespace[field] = _field_getter(index, field)
        if names:
            namespace["__new__"] = _make_new(name, names, defaults)
        return super().__new__(mcls, name, bases, namespace, **kwargs)


def _make_new(name: str, names: tuple[str, ...], defaults: dict[str, object]) -> Callable[..., Any]:
    seen_default = False
    params = []
    env: dict[str, object] = {"_tuple_new": _tuple_new}
    for field in names:
        if field in defaults:
            env[f"_d_{field}"] = defaults[field]
            params.append(f"{field}=_d_{field}")
            seen_default = True
        elif seen_default:
            raise TypeError(f"{name}: field {field!r} without a default follows one with a default")
        else:
            params.append(field)
    values = ", ".join(names) + ("," if len(names) == 1 else "")
    source = f"def __new__(cls, {', '.join(params)}):\n    return _tuple_new(cls, ({values}))\n"
    exec(source, env)  # noqa: S102 - generated from identifiers only
    new = env["__new__"]
    new.__qualname__ = f"{name}.__new__"  # type: ignore[attr-defined]
    return new  # type: ignore[return-value]


if TYPE_CHECKING:
    _EventBase = object
else:
    _EventBase = tuple


class Event(_EventBase, metaclass=_EventMeta):
    """Base class. ``audience`` is ``None`` for public events, else the one seat."""

    kind: ClassVar[str] = "event"
    _fields: ClassVar[tuple[str, ...]]

    @property
    def audience(self) -> int | None:
        """The one seat allowed to see this event, or ``None`` if it is public."""
        return None

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The event's field names, in order."""
        return cls._fields

    def field_values(self) -> tuple[Any, ...]:
        """The field values, in :meth:`field_names` order."""
        return tuple(cast("tuple[Any, ...]", self))

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict, used by golden transcripts and logs."""
        out: dict[str, object] = {"kind": self.kind}
        for name, value in zip(self._fields, cast("tuple[Any, ...]", self), strict=True):
            out[name] = _plain(value)
        return out

    def __repr__(self) -> str:
        inner = ", ".join(
            f"{name}={value!r}"
            for name, value in zip(self._fields, cast("tuple[Any, ...]", self), strict=True)
        )
        return f"{type(self).__name__}({inner})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return _tuple_eq(cast("tuple[Any, ...]", self), other)
        # never equal to a plain tuple or an event of another kind
        return False if isinstance(other, tuple) else NotImplemented

    def __ne__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return not _tuple_eq(cast("tuple[Any, ...]", self), other)
        return True if isinstance(other, tuple) else NotImplemented

    def __hash__(self) -> int:
        return hash((self.__class__.__name__, _tuple_hash(cast("tuple[Any, ...]", self))))

    def __lt__(self, other: object) -> bool:
        return NotImplemented

    __le__ = __gt__ = __ge__ = __lt__

    def __bool__(self) -> bool:
        return True

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (self.__class__, self.field_values())

    def __copy__(self) -> Event:
        return self

    def __deepcopy__(self, memo: object) -> Event:
        return self


class DealerChosen(Event):
    """The first dealer of a game; ``draws`` lists (seat, card) when drawn for high."""

    dealer: int
    method: str
    draws: tuple[tuple[int, Card], ...] = ()
    kind: ClassVar[str] = "dealer_chosen"


class GameStarted(Event):
    """A new game (of a match) begins; scores are back to zero."""

    game_no: int
    kind: ClassVar[str] = "game_started"


class DealStarted(Event):
    """A deal begins. ``deal_no`` counts from 1 within the game."""

    game_no: int
    deal_no: int
    dealer: int
    eldest: int
    kind: ClassVar[str] = "deal_started"


class HandDealt(Event):
    """Private: the cards dealt to ``seat``."""

    seat: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "hand_dealt"

    @property
    def audience(self) -> int | None:
        return self.seat


class TrumpFixed(Event):
    """Trumps for the deal: ``turn_up`` is the public card that fixed them, if any.

    ``holder`` is the seat whose hand the turn-up belongs to (``None`` when it is
    the top of the stock). ``trump`` is ``None`` for a no-trump deal.
    """

    trump: Suit | None
    turn_up: Card | None
    holder: int | None
    kind: ClassVar[str] = "trump_fixed"


class RuffTaken(Event):
    """Public: ``seat`` took the four stock cards in and will lay out four."""

    seat: int
    reason: str  # holds_ace | turned_ace | ace_in_stock
    kind: ClassVar[str] = "ruff_taken"


class StockTaken(Event):
    """Private to the ruffer: the stock cards that came into his hand."""

    seat: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "stock_taken"

    @property
    def audience(self) -> int | None:
        return self.seat


class RuffDeclined(Event):
    """Public: the ruffer declined; the stock stays out of play unseen."""

    seat: int
    kind: ClassVar[str] = "ruff_declined"


class Discarded(Event):
    """Private to the ruffer: one card laid out face down."""

    seat: int
    card: Card
    remaining: int
    kind: ClassVar[str] = "discarded"

    @property
    def audience(self) -> int | None:
        return self.seat


class DiscardsDone(Event):
    """Public: the ruffer has laid out his four cards (never shown)."""

    seat: int
    kind: ClassVar[str] = "discards_done"


class CanYeCalled(Event):
    """``seat`` asked "Can-ye?"; ``answered`` says whether ``partner`` held an honour.

    When answered, ``shown`` lists the honours both partners showed.
    """

    seat: int
    partner: int
    answered: bool
    shown: tuple[Card, ...]
    kind: ClassVar[str] = "can_ye_called"


class HonoursShown(Event):
    """``seat`` showed three or four honours at the call point and wins."""

    seat: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "honours_shown"


class Passed(Event):
    """``seat`` let its Can-ye opportunity go."""

    seat: int
    kind: ClassVar[str] = "passed"


class CardPlayed(Event):
    """``seat`` played ``card`` to trick ``trick_no`` (1-based)."""

    seat: int
    card: Card
    trick_no: int
    kind: ClassVar[str] = "card_played"


class LayoutCardPlayed(Event):
    """Public, after its CardPlayed: ``card`` came from position ``position`` of
    ``seat``'s layout; ``turned_up`` is the card beneath, now face up (playable from
    the next trick), or ``None`` when the position is empty."""

    seat: int
    position: int
    card: Card
    turned_up: Card | None
    kind: ClassVar[str] = "layout_card_played"


class TrickWon(Event):
    """``winner`` won trick ``trick_no``; ``cards`` in play order from ``leader``."""

    trick_no: int
    leader: int
    cards: tuple[Card, ...]
    winner: int
    side: int
    tricks: tuple[int, ...]
    kind: ClassVar[str] = "trick_won"


class Revoked(Event):
    """``revoke_mode = penalty`` only: ``seat`` failed to follow suit holding it."""

    seat: int
    trick_no: int
    kind: ClassVar[str] = "revoked"


class HonoursScored(Event):
    """Honours for the deal: ``counts`` per side, ``points`` awarded per side.

    ``note`` explains a reduced or void award (cap, split, not at target - 1).
    """

    counts: tuple[int, ...]
    points: tuple[int, ...]
    note: str
    kind: ClassVar[str] = "honours_scored"


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


class GameOver(Event):
    """A side reached the target. ``how`` is tricks | honours | can_ye | show."""

    game_no: int
    winner: int
    scores: tuple[int, ...]
    how: str
    games_won: tuple[int, ...]
    kind: ClassVar[str] = "game_over"


class MatchOver(Event):
    """The match is decided (for a single game, right after :class:`GameOver`).

    ``rubber_points`` is filled for rubbers scored by the classic laws.
    """

    winner: int
    games_won: tuple[int, ...]
    rubber_points: tuple[int, ...]
    kind: ClassVar[str] = "match_over"


# --------------------------------------------------------------------------- auctions and kitties


class BidMade(Event):
    """Public: ``seat`` bid ``bid`` (a bid code such as ``"4u"``) or passed (``"pass"``)."""

    seat: int
    bid: str
    kind: ClassVar[str] = "bid_made"


class AllPassed(Event):
    """Public: every seat passed; the deal is thrown in and the next dealer deals."""

    dealer: int
    kind: ClassVar[str] = "all_passed"


class ContractWon(Event):
    """Public: the auction is over; ``declarer`` plays ``bid`` (a bid code)."""

    declarer: int
    bid: str
    kind: ClassVar[str] = "contract_won"


class ContractDeclared(Event):
    """Public: the declarer named the trump suit (``None`` in no-trump) and the rank
    order's ``direction`` (``uptown``/``downtown``)."""

    declarer: int
    bid: str
    trump: Suit | None
    direction: str
    kind: ClassVar[str] = "contract_declared"


class KittyTaken(Event):
    """Public: ``seat`` took the kitty's ``count`` cards into hand; ``cards`` lists
    them when the kitty is exposed to every seat (empty otherwise)."""

    seat: int
    count: int
    cards: tuple[Card, ...] = ()
    kind: ClassVar[str] = "kitty_taken"


class ContractScored(Event):
    """Public: the contract's result. ``books`` counts the kitty as the first book;
    ``points`` is what the declaring ``side`` gains (negative when set)."""

    declarer: int
    side: int
    bid: str
    books: int
    made: bool
    points: int
    kind: ClassVar[str] = "contract_scored"
