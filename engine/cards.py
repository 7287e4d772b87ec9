"""Cards, suits and ranks: small immutable values shared by every game.

Every distinct card is a singleton (``Card.parse("10H") is Card.parse("10h")``),
so cards compare by identity, hash cheaply and fit in a 52-bit mask via
:attr:`Card.index`.

Jokers (RULES §7.1) are cards too: the Little Joker ``LJ`` (index 52) and the
Big Joker ``BJ`` (index 53), so a 54-card hand is a 54-bit mask and index order
is still today's (uptown) rank order. A joker has no natural rank or suit
(``joker.rank``/``joker.suit`` raise AttributeError); ``Card.is_joker``,
:func:`effective_suit` and :class:`RankOrder` say how it plays.

:class:`RankOrder` is the rank order chosen per deal or contract (RULES §7.5):
``uptown`` (A high; :data:`HIGH`), ``downtown`` with ``downtown_ace`` ``high``
(A, 2, 3 ... K) or ``low`` (2, 3 ... K, A). The trump is passed beside it:
``None`` is no trump, where the jokers are powerless (``nt_jokers``: they belong
to no suit and never win; a led joker fixes no suit, the first non-joker does).
In a trump contract the jokers are the two highest trumps, Big above Little.

Decisions where RULES.md is silent: with ``jokers = 1`` the joker is the Big
Joker; a trick of jokers only (no-trump, no natural card) is won by its first
card; ``nt_jokers = bidder_discards`` changes the discard (see
:func:`declarer_must_discard_jokers`), never the trick winner.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import Final

__all__ = [
    "BIG_JOKER",
    "DOWNTOWN",
    "DOWNTOWN_ACE_LOW",
    "HIGH",
    "JOKERS_MASK",
    "LITTLE_JOKER",
    "NATURAL_MASK",
    "Card",
    "CardParseError",
    "Rank",
    "RankOrder",
    "Suit",
    "cards_from_mask",
    "deck_with_jokers",
    "declarer_must_discard_jokers",
    "effective_suit",
    "follow_mask",
    "full_deck",
    "led_suit",
    "mask_of",
    "parse_cards",
    "sort_hand",
    "suit_mask_for",
    "trick_winner",
    "winner_of",
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

    __slots__ = (
        "index",
        "rank",
        "suit",
        "code",
        "pretty",
        "bit",
        "suit_mask",
        "suit_shift",
        "is_joker",
    )

    index: int
    rank: Rank
    suit: Suit
    code: str
    pretty: str
    bit: int
    suit_mask: int
    suit_shift: int  # 13 * suit.order: ``mask >> suit_shift & 0x1FFF`` is one suit's 13 bits
    is_joker: bool  # True only for the Big and Little Joker (indices 53 and 52)

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
        object.__setattr__(self, "is_joker", False)

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
        """The card with this 0..51 index (52 and 53 are the Little and Big Joker)."""
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
    # The jokers (RULES §7.1) follow the 52 natural cards, Little below Big, so
    # index order stays rank order. They have no natural rank or suit: reading
    # ``joker.rank`` or ``joker.suit`` raises AttributeError (loudly, rather than
    # letting code that predates jokers treat one as, say, a spade); use
    # ``is_joker``, ``effective_suit`` and a ``RankOrder`` instead.
    for index, code in ((LITTLE_JOKER_INDEX, "LJ"), (BIG_JOKER_INDEX, "BJ")):
        joker = object.__new__(Card)
        for name, value in (
            ("index", index),
            ("bit", 1 << index),
            ("suit_mask", JOKERS_MASK),
            ("suit_shift", 52),
            ("code", code),
            ("pretty", code),
            ("is_joker", True),
        ):
            object.__setattr__(joker, name, value)
        Card._by_index.append(joker)
        Card._by_code[code] = joker


LITTLE_JOKER_INDEX: Final = 52
BIG_JOKER_INDEX: Final = 53
JOKERS_MASK: Final = (1 << LITTLE_JOKER_INDEX) | (1 << BIG_JOKER_INDEX)
NATURAL_MASK: Final = (1 << 52) - 1  # the 52 cards of the standard pack

_build()

LITTLE_JOKER: Final = Card._by_index[LITTLE_JOKER_INDEX]
BIG_JOKER: Final = Card._by_index[BIG_JOKER_INDEX]


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
        deck = _DECKS[removed] = tuple(c for c in Card._by_index[:52] if c.rank not in removed)
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
    keys = _SORT_KEYS[trump] = {c: pos[c.suit] * 16 - int(c.rank) for c in Card._by_index[:52]}
    keys[BIG_JOKER] = -100  # jokers first: they are the top trumps when there are any
    keys[LITTLE_JOKER] = -99
    return keys


def sort_hand(cards: Iterable[Card], trump: Suit | None = None) -> list[Card]:
    """Sort for display: trumps first, then alternating colours, high to low."""
    keys = _SORT_KEYS.get(trump)
    if keys is None:
        keys = _sort_keys(trump)
    return sorted(cards, key=keys.__getitem__)


# --------------------------------------------------------------------------
# Jokers and rank orders (RULES §7.5): the order is a value chosen per deal or
# contract; the trump is passed beside it (``None`` = no trump).
# --------------------------------------------------------------------------

_JOKER_STRENGTH: Final = {LITTLE_JOKER_INDEX: 14, BIG_JOKER_INDEX: 15}
_TRUMP_BONUS: Final = 100


def deck_with_jokers(jokers: int = 2, removed_ranks: Iterable[Rank] = ()) -> list[Card]:
    """A fresh deck in index order with ``jokers`` jokers (RULES §7.1: 2, 1 or 0).

    Two jokers give the 54-card Bid Whist pack. With one joker it is the Big
    Joker (RULES is silent; a lone joker is the top trump, so it is the Big one).
    """
    if jokers not in (0, 1, 2):
        raise ValueError(f"jokers must be 0, 1 or 2, not {jokers!r}")
    deck = full_deck(removed_ranks)
    if jokers >= 2:
        deck.append(LITTLE_JOKER)
    if jokers >= 1:
        deck.append(BIG_JOKER)
    return deck


def effective_suit(card: Card, trump: Suit | None) -> Suit | None:
    """The suit a card belongs to for following and winning (RULES §7.5).

    A natural card keeps its suit. A joker belongs to the trump suit in a trump
    contract, and to no suit (``None``) in no-trump.
    """
    if card.is_joker:
        return trump
    return card.suit


def suit_mask_for(suit: Suit, trump: Suit | None) -> int:
    """The mask of every card that counts as ``suit``: the trump suit includes the jokers."""
    if suit is trump:
        return suit.mask | JOKERS_MASK
    return suit.mask


def led_suit(cards: Sequence[Card], trump: Suit | None) -> Suit | None:
    """The suit the rest of the trick must follow, or ``None`` if none is fixed yet.

    Normally the first card's suit. In no-trump a led joker fixes nothing: the
    first non-joker card played fixes the suit (RULES §7.5, ``nt_jokers``).
    """
    for card in cards:
        if card.is_joker:
            if trump is not None:
                return trump
            continue
        return card.suit
    return None


def follow_mask(available: int, trick: Sequence[Card], trump: Suit | None) -> int:
    """The cards of ``available`` (a mask) that may be played to ``trick`` (RULES §0.1).

    The leader (empty trick) may play anything; a later player must follow the
    led suit (``led_suit``) if he can, else may play anything. ``available`` is
    whatever the seat may play from: the hand, or hand plus face-up layout cards.
    """
    if not trick:
        return available
    suit = led_suit(trick, trump)
    if suit is None:
        return available
    follow = available & (suit.mask | JOKERS_MASK if suit is trump else suit.mask)
    return follow or available


def declarer_must_discard_jokers(nt_jokers: str, trump: Suit | None) -> bool:
    """True if a joker in the declarer's hand must go into his discard (RULES §7.5).

    Only under ``nt_jokers = bidder_discards`` in a no-trump contract; jokers
    held by the other players stay powerless either way.
    """
    if nt_jokers not in NT_JOKERS:
        raise ValueError(f"nt_jokers must be one of {NT_JOKERS}, not {nt_jokers!r}")
    return trump is None and nt_jokers == "bidder_discards"


DIRECTIONS: Final = ("uptown", "downtown")
DOWNTOWN_ACES: Final = ("high", "low")
NT_JOKERS: Final = ("powerless", "bidder_discards")


def _natural_strength(direction: str, downtown_ace: str, rank: int) -> int:
    if direction == "uptown":
        return rank - 1  # 2 -> 1 ... A -> 13
    if rank == 14:
        return 13 if downtown_ace == "high" else 1
    # downtown: 2 is best after the ace (ace high: 2 -> 12 ... K -> 1);
    # with the ace low: 2 -> 13 ... K -> 2, A -> 1
    return 14 - rank if downtown_ace == "high" else 15 - rank


@dataclass(frozen=True, slots=True)
class RankOrder:
    """The rank order of a deal or contract (RULES §7.5), a small frozen value.

    ``direction`` is ``uptown`` (today's order, A high) or ``downtown`` (low cards
    win); ``downtown_ace`` (``high``/``low``) says where the ace stands downtown
    and is kept as ``high`` for uptown, so equal orders compare equal. The trump
    (``None`` for no trump) is passed to each method: in a trump contract the
    jokers are the two highest trumps (Big above Little); in no-trump they
    belong to no suit and never win.
    """

    direction: str = "uptown"
    downtown_ace: str = "high"
    # per trump (index = suit.order, 4 = no trump): the trick key of each card index
    _keys: tuple[tuple[int, ...], ...] = field(
        default=(), init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        if self.direction not in DIRECTIONS:
            raise ValueError(f"direction must be one of {DIRECTIONS}, not {self.direction!r}")
        if self.downtown_ace not in DOWNTOWN_ACES:
            raise ValueError(
                f"downtown_ace must be one of {DOWNTOWN_ACES}, not {self.downtown_ace!r}"
            )
        if self.direction == "uptown":
            object.__setattr__(self, "downtown_ace", "high")
        strength = [0] * 54
        for card in Card._by_index[:52]:
            strength[card.index] = _natural_strength(
                self.direction, self.downtown_ace, int(card.rank)
            )
        tables: list[tuple[int, ...]] = []
        for trump in (*SUITS, None):
            keys = list(strength)
            if trump is None:
                keys[LITTLE_JOKER_INDEX] = keys[BIG_JOKER_INDEX] = 0  # powerless
            else:
                for index in range(trump.order * 13, trump.order * 13 + 13):
                    keys[index] += _TRUMP_BONUS
                for index, value in _JOKER_STRENGTH.items():
                    keys[index] = _TRUMP_BONUS + value
            tables.append(tuple(keys))
        object.__setattr__(self, "_keys", tuple(tables))

    # -- constructors and names ---------------------------------------------

    @classmethod
    def high(cls) -> RankOrder:
        """Today's order, A K Q ... 2 (``uptown``)."""
        return HIGH

    @classmethod
    def for_mode(cls, mode: str, downtown_ace: str = "high") -> RankOrder:
        """The order of a Bid Whist mode or no-trump direction: ``uptown`` or ``downtown``.

        Returns the shared constant (``HIGH``, ``DOWNTOWN``, ``DOWNTOWN_ACE_LOW``),
        so ``order is HIGH`` holds for the uptown order.
        """
        known = _BY_NAME.get((mode, downtown_ace))  # building an order fills its tables: slow
        if known is not None:
            return known
        order = cls(mode, downtown_ace)
        return _CANONICAL.get(order, order)

    @property
    def name(self) -> str:
        """``uptown``, ``downtown`` (ace high) or ``downtown_ace_low``."""
        if self.direction == "downtown" and self.downtown_ace == "low":
            return "downtown_ace_low"
        return self.direction

    def to_data(self) -> dict[str, str]:
        """JSON-friendly form; :meth:`from_data` reverses it."""
        return {"direction": self.direction, "downtown_ace": self.downtown_ace}

    @classmethod
    def from_data(cls, data: Mapping[str, str]) -> RankOrder:
        """Rebuild an order from :meth:`to_data` (the shared constant, as :meth:`for_mode`)."""
        return cls.for_mode(data["direction"], data.get("downtown_ace", "high"))

    # -- ranking ---------------------------------------------------------------

    def strength(self, card: Card) -> int:
        """Strength of a card within its suit, higher is better.

        Natural cards score 1..13 (13 = best of the suit in this order); the
        Little Joker 14 and the Big Joker 15 (their strength as trumps).
        """
        if card.is_joker:
            return _JOKER_STRENGTH[card.index]
        return self._keys[4][card.index]

    def key(self, card: Card, trump: Suit | None) -> int:
        """Trick key: trumps (jokers included) 100 + strength, other cards their
        strength, a joker in no-trump 0. Higher wins among cards that can win."""
        return self._keys[4 if trump is None else trump.order][card.index]

    def beats(self, card: Card, best: Card, led: Suit | None, trump: Suit | None) -> bool:
        """True if ``card`` takes the trick from ``best`` (the card winning so far).

        ``led`` is the suit led (:func:`led_suit`). A card neither trump nor of
        the led suit never wins; nor does a joker in no-trump.
        """
        keys = self._keys[4 if trump is None else trump.order]
        k = keys[card.index]
        if k < _TRUMP_BONUS and (card.is_joker or card.suit is not led):
            return False
        b = keys[best.index]
        if b < _TRUMP_BONUS and (best.is_joker or best.suit is not led):
            return True
        return k > b

    def trick_winner(self, cards: Sequence[Card], trump: Suit | None) -> int:
        """Index (into ``cards``, play order) of the card that wins the trick.

        The highest trump wins if any was played (jokers are the top trumps),
        else the best card of the led suit in this order. In no-trump, jokers
        never win; a trick of jokers only is won by its first card.
        """
        keys = self._keys[4 if trump is None else trump.order]
        led = led_suit(cards, trump)
        win = 0
        best = -1
        for i, card in enumerate(cards):
            k = keys[card.index]
            if k < _TRUMP_BONUS and (card.is_joker or card.suit is not led):
                continue
            if k > best:
                best, win = k, i
        return win

    def ranked(self, cards: Iterable[Card], trump: Suit | None) -> list[Card]:
        """Cards from strongest to weakest for this order and trump (by :meth:`key`)."""
        keys = self._keys[4 if trump is None else trump.order]
        return sorted(cards, key=lambda c: -keys[c.index])


HIGH: Final = RankOrder("uptown")
DOWNTOWN: Final = RankOrder("downtown", "high")
DOWNTOWN_ACE_LOW: Final = RankOrder("downtown", "low")
_CANONICAL: Final = {order: order for order in (HIGH, DOWNTOWN, DOWNTOWN_ACE_LOW)}
_BY_NAME: Final[dict[tuple[str, str], RankOrder]] = {}
_BY_NAME.update(
    ((direction, ace), RankOrder.for_mode(direction, ace))
    for direction in DIRECTIONS
    for ace in DOWNTOWN_ACES
)


def trick_winner(cards: Sequence[Card], trump: Suit | None, order: RankOrder = HIGH) -> int:
    """Index (play order) of the card that wins the trick, under ``order`` and ``trump``.

    With the default ``HIGH`` order and no jokers this agrees with the high-order
    ``engine.phases.play.trick_winner`` (kept there for its fast path).
    """
    return order.trick_winner(cards, trump)


winner_of = trick_winner
