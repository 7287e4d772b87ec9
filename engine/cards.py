"""Cards, suits and ranks: small immutable values shared by every game.

Every distinct card is a singleton (``Card.parse("10H") is Card.parse("10h")``),
so cards compare by identity, hash cheaply and fit in a 52-bit mask via
:attr:`Card.index`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import Enum, IntEnum
from typing import Final

__all__ = [
    "Card",
    "CardParseError",
    "Rank",
    "Suit",
    "cards_from_mask",
    "full_deck",
    "mask_of",
    "parse_cards",
    "sort_hand",
]


class CardParseError(ValueError):
    """Raised when a string does not name a card."""


class Suit(Enum):
    """The four suits. No suit outranks another except the trump suit."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        """The suit's symbol, e.g. ``♠``."""
        return _SUIT_SYMBOL[self]

    @property
    def letter(self) -> str:
        """The suit's letter, e.g. ``S``."""
        return self.value

    @property
    def order(self) -> int:
        """Position 0..3 in the fixed order S, H, D, C (used for masks and sorting)."""
        return self._order  # type: ignore[attr-defined,no-any-return]

    @property
    def mask(self) -> int:
        """Bitmask of the 13 cards of this suit."""
        return self._mask  # type: ignore[attr-defined,no-any-return]

    @property
    def honours_mask(self) -> int:
        """Bitmask of the A, K, Q and J of this suit (the honours when it is trumps)."""
        return self._honours  # type: ignore[attr-defined,no-any-return]

    def __hash__(self) -> int:
        return self._order  # type: ignore[attr-defined,no-any-return]

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``"S"``, ``"s"``, ``"♠"`` or ``"spades"`` into a suit."""
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.value, suit.symbol, suit.name, suit.name[:-1]):
                return suit
        raise CardParseError(f"not a suit: {text!r}")

    def __str__(self) -> str:
        return self.symbol


for _order, _suit in enumerate(Suit):
    # plain attributes: Enum's own __hash__ is slow and suits are hot in search
    _suit._order = _order  # type: ignore[attr-defined]
    _suit._mask = ((1 << 13) - 1) << (_order * 13)  # type: ignore[attr-defined]
    _suit._honours = 0b1111 << (_order * 13 + 9)  # type: ignore[attr-defined]

_SUIT_SYMBOL: Final = {
    Suit.SPADES: "♠",
    Suit.HEARTS: "♥",
    Suit.DIAMONDS: "♦",
    Suit.CLUBS: "♣",
}
_SUIT_ORDER: Final = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.DIAMONDS: 2, Suit.CLUBS: 3}
SUITS: Final = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)

class Rank(IntEnum):
    """Card ranks, valued so that the standard order (ace high) is numeric order."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def label(self) -> str:
        """Short label: ``2``..``10``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_LABEL[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``"10"``, ``"T"``, ``"q"``, ``"A"`` ... into a rank."""
        key = text.strip().upper()
        if key == "T":
            key = "10"
        for rank in cls:
            if key == rank.label:
                return rank
        raise CardParseError(f"not a rank: {text!r}")


_RANK_LABEL: Final = {
    **{Rank(v): str(v) for v in range(2, 11)},
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}


class Card:
    """A playing card. Instances are interned: use :meth:`of` or :meth:`parse`.

    ``str(card)`` is the compact code (``"10H"``); :attr:`pretty` is ``"10♥"``.
    :attr:`index` is ``suit.order * 13 + (rank - 2)``, a stable 0..51 id.
    """

    __slots__ = ("index", "rank", "suit", "code", "pretty", "bit", "suit_mask", "suit_shift")

    index: int
    rank: Rank
    suit: Suit
    code: str
    pretty: str
    bit: int
    suit_mask: int
    suit_shift: int  # 13 * suit.order: ``mask >> suit_shift & 0x1FFF`` is one suit's 13 bits

    _by_index: list[Card] = []
    _by_code: dict[str, Card] = {}

    def __init__(self, rank: Rank, suit: Suit) -> None:  # pragma: no cover - via _build
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        index = suit.order * 13 + (int(rank) - 2)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "bit", 1 << index)
        object.__setattr__(self, "suit_mask", ((1 << 13) - 1) << (suit.order * 13))
        object.__setattr__(self, "suit_shift", suit.order * 13)
        object.__setattr__(self, "code", f"{rank.label}{suit.value}")
        object.__setattr__(self, "pretty", f"{rank.label}{suit.symbol}")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.code

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        """The interned card of this rank and suit."""
        return cls._by_index[suit.order * 13 + (int(rank) - 2)]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with this 0..51 index."""
        return cls._by_index[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a card code such as ``"10H"``, ``"qs"``, ``"TD"``, ``"A♣"``."""
        key = text.strip()
        found = cls._by_code.get(key.upper())
        if found is not None:
            return found
        if len(key) < 2:
            raise CardParseError(f"not a card: {text!r}")
        try:
            return cls.of(Rank.parse(key[:-1]), Suit.parse(key[-1]))
        except CardParseError:
            raise CardParseError(f"not a card: {text!r}") from None


def _build() -> None:
    for suit in SUITS:
        for rank in Rank:
            card = object.__new__(Card)
            Card.__init__(card, rank, suit)
            Card._by_index.append(card)
            Card._by_code[card.code] = card
            if rank == Rank.TEN:
                Card._by_code["T" + suit.value] = card


_build()


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse ``"AS KS 10H"`` (or an iterable of codes) into cards."""
    parts = text.split() if isinstance(text, str) else list(text)
    return [Card.parse(p) for p in parts]


_DECKS: dict[frozenset[Rank], tuple[Card, ...]] = {}


def full_deck(removed_ranks: Iterable[Rank] = ()) -> list[Card]:
    """A fresh deck in index order, minus any removed ranks (e.g. twos)."""
    removed = frozenset(removed_ranks)
    deck = _DECKS.get(removed)
    if deck is None:
        deck = _DECKS[removed] = tuple(c for c in Card._by_index if c.rank not in removed)
    return list(deck)


def mask_of(cards: Iterable[Card]) -> int:
    """The bitmask with each card's :attr:`Card.bit` set."""
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


def cards_from_mask(mask: int) -> Iterator[Card]:
    """The cards of a bitmask, in index order."""
    by_index = Card._by_index
    while mask:
        low = mask & -mask
        yield by_index[low.bit_length() - 1]
        mask ^= low


SUIT_MASKS: Final = {suit: suit.mask for suit in SUITS}


_SORT_KEYS: dict[Suit | None, dict[Card, int]] = {}


def _sort_keys(trump: Suit | None) -> dict[Card, int]:
    order = list(SUITS)
    if trump is not None:
        order.remove(trump)
        # keep colours alternating where possible after the trump suit
        reds = [s for s in order if s.is_red]
        blacks = [s for s in order if not s.is_red]
        rest: list[Suit] = []
        first_red = not trump.is_red
        while reds or blacks:
            pool = reds if (first_red and reds) or not blacks else blacks
            rest.append(pool.pop(0))
            first_red = not first_red
        order = [trump, *rest]
    pos = {s: i for i, s in enumerate(order)}
    keys = _SORT_KEYS[trump] = {c: pos[c.suit] * 16 - int(c.rank) for c in Card._by_index}
    return keys


def sort_hand(cards: Iterable[Card], trump: Suit | None = None) -> list[Card]:
    """Sort for display: trumps first, then alternating colours, high to low."""
    keys = _SORT_KEYS.get(trump)
    if keys is None:
        keys = _sort_keys(trump)
    return sorted(cards, key=keys.__getitem__)
