"""Turnover Bridge's face-up layouts (RULES §8.2, §8.4, §8.6, §11.12).

Each of the two players has a layout of piles in front of him: face-down card(s)
covered by one face-up card. A player's **available** cards are his hand (the
hole cards under ``pagat``) plus the face-up cards on top of his piles; face-down
cards are not available and do not count for following suit. Playing a face-up
card turns up the card beneath at once: it is public immediately and available
from the **next** trick, so :class:`Layout` remembers the cards exposed during
the current trick (``fresh``) until :meth:`Layout.end_trick`.

Shapes (parameter ``layout``, RULES §8.6):

* ``seed004`` (default, S4): 9 piles each, an upper row of 5 (positions 0-4) and
  a lower row of 4 (5-8), and an 8-card hand. Dealt one card at a time,
  alternately, starting with the non-dealer: ``deck[0..17]`` face down by
  position, ``deck[18..35]`` face up on them in the same order, ``deck[36..51]``
  the hands.
* ``pagat`` (P-TB): 12 piles each and 2 hole cards (12 + 12 + 2 = 26).

Decisions where RULES.md is silent: the ``pagat`` deal follows the ``seed004``
mapping (``deck[0..23]`` face down, ``deck[24..47]`` face up, ``deck[48..51]``
hole cards, each alternating from the non-dealer); its 12 piles are shown as
two rows of 6 (cosmetic). Nobody, the owner included, sees a face-down card;
everyone sees every face-up card. Piles may hold more than one face-down card
(the state is a stack), though both shapes use one.

Hot data are masks (``Card.bit``): :meth:`Layout.playable` is one ``&``. The
state is small and mutable; :meth:`Layout.clone` copies it and
:meth:`Layout.to_data` / :meth:`Layout.from_data` round-trip through JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from engine.cards import Card, Suit, follow_mask

__all__ = [
    "LAYOUTS",
    "SHAPES",
    "TRICKS_PER_DEAL",
    "Layout",
    "LayoutShape",
    "PileView",
    "deal_targets",
]

TRICKS_PER_DEAL: Final = 26  # every card of both players, hand and layout (RULES §8.5)


@dataclass(frozen=True, slots=True)
class LayoutShape:
    """The shape of one player's layout: ``rows`` of pile positions and the hand size."""

    name: str
    rows: tuple[int, ...]
    hand_size: int
    down_per_pile: int = 1

    @property
    def piles(self) -> int:
        """Number of piles per player."""
        return sum(self.rows)

    @property
    def cards_per_player(self) -> int:
        """Cards each player receives (26 for both shapes)."""
        return self.piles * (self.down_per_pile + 1) + self.hand_size

    def row_positions(self) -> tuple[tuple[int, ...], ...]:
        """Positions row by row, e.g. ``((0, 1, 2, 3, 4), (5, 6, 7, 8))`` for ``seed004``."""
        out: list[tuple[int, ...]] = []
        start = 0
        for length in self.rows:
            out.append(tuple(range(start, start + length)))
            start += length
        return tuple(out)


SHAPES: Final = {
    "seed004": LayoutShape("seed004", rows=(5, 4), hand_size=8),
    "pagat": LayoutShape("pagat", rows=(6, 6), hand_size=2),
}
LAYOUTS: Final = tuple(SHAPES)


@dataclass(frozen=True, slots=True)
class PileView:
    """One layout position as every seat sees it (:attr:`SeatView.layouts`).

    ``up`` is the face-up card on top (``None`` once the position is empty),
    ``down`` how many face-down cards lie beneath it (never which), ``fresh``
    whether ``up`` was turned up during the current trick (so its owner may
    play it only from the next trick).
    """

    up: Card | None
    down: int
    fresh: bool = False


def deal_targets(layout: str, dealer: int) -> tuple[tuple[int, int | None], ...]:
    """Where each card of a layout deal goes, in deck order (RULES §8.2).

    ``result[i]`` is ``(seat, position)`` when ``deck[i]`` goes to ``seat``'s
    layout at ``position`` (the piles fill bottom to top: the face-down layers,
    then the face-up covers), ``(seat, None)`` when it goes to the hand. Cards go
    one at a time, alternately, starting with the non-dealer.
    """
    if layout not in SHAPES:
        raise ValueError(f"layout must be one of {LAYOUTS}, not {layout!r}")
    if dealer not in (0, 1):
        raise ValueError(f"dealer must be seat 0 or 1, not {dealer!r}")
    shape = SHAPES[layout]
    order = (1 - dealer, dealer)  # the non-dealer receives deck[0]
    targets: list[tuple[int, int | None]] = [
        (seat, position)
        for _layer in range(shape.down_per_pile + 1)
        for position in range(shape.piles)
        for seat in order
    ]
    targets.extend((order[j % 2], None) for j in range(2 * shape.hand_size))
    return tuple(targets)


class Layout:
    """Both players' layouts during a deal: piles, face-up tops and fresh exposures.

    ``piles[seat][position]`` lists card indices bottom to top; the top card is
    face up, the rest face down; an empty list is an emptied position.
    """

    __slots__ = ("shape", "piles", "up", "down", "fresh", "_top_position")

    shape: LayoutShape
    piles: list[list[list[int]]]
    up: list[int]  # per seat: mask of face-up tops (fresh ones included)
    down: list[int]  # per seat: mask of face-down cards
    fresh: list[int]  # per seat: mask of tops turned up during the current trick
    _top_position: list[dict[int, int]]  # per seat: top card index -> position

    def __init__(
        self,
        shape: LayoutShape | str,
        piles: Sequence[Sequence[Sequence[int]]],
        fresh: Sequence[int] | None = None,
    ) -> None:
        self.shape = SHAPES[shape] if isinstance(shape, str) else shape
        self.piles = [[list(pile) for pile in seat_piles] for seat_piles in piles]
        self.up = []
        self.down = []
        self._top_position = []
        seen = 0
        for seat_piles in self.piles:
            up = down = 0
            tops: dict[int, int] = {}
            for position, pile in enumerate(seat_piles):
                for index in pile:
                    if not 0 <= index < 54 or seen >> index & 1:
                        raise ValueError(f"card index {index} is invalid or dealt twice")
                    seen |= 1 << index
                if pile:
                    up |= 1 << pile[-1]
                    tops[pile[-1]] = position
                    for index in pile[:-1]:
                        down |= 1 << index
            self.up.append(up)
            self.down.append(down)
            self._top_position.append(tops)
        self.fresh = list(fresh) if fresh is not None else [0] * len(self.piles)
        if len(self.fresh) != len(self.piles):
            raise ValueError("fresh needs one mask per seat")
        for seat, mask in enumerate(self.fresh):
            if mask & ~self.up[seat]:
                raise ValueError(f"seat {seat}: a fresh card is not a face-up top")

    # -- dealing ------------------------------------------------------------------

    @classmethod
    def deal(
        cls, deck: Sequence[Card], dealer: int, layout: str = "seed004"
    ) -> tuple[Layout, list[int]]:
        """Deal a shuffled 52-card deck (RULES §8.2): the layouts and the two hands (masks).

        Cards go one at a time, alternately, starting with the non-dealer: the
        face-down cards by position, then the face-up covers in the same order,
        then the hands (the hole cards under ``pagat``); :func:`deal_targets`.
        """
        targets = deal_targets(layout, dealer)
        if len(deck) != len(targets):
            raise ValueError(f"a {layout} deal needs {len(targets)} cards")
        shape = SHAPES[layout]
        piles: list[list[list[int]]] = [[[] for _ in range(shape.piles)] for _ in range(2)]
        hands = [0, 0]
        for card, (seat, position) in zip(deck, targets, strict=True):
            if position is None:
                hands[seat] |= card.bit
            else:
                piles[seat][position].append(card.index)
        return cls(shape, piles), hands

    @classmethod
    def from_cards(
        cls, shape: LayoutShape | str, piles: Sequence[Sequence[Sequence[Card]]]
    ) -> Layout:
        """A layout from cards, ``piles[seat][position]`` bottom to top (for tests, puzzles)."""
        return cls(shape, [[[c.index for c in pile] for pile in seat] for seat in piles])

    # -- what may be played -----------------------------------------------------

    def playable(self, seat: int) -> int:
        """Mask of ``seat``'s face-up layout cards it may play now (not turned up this trick)."""
        return self.up[seat] & ~self.fresh[seat]

    def available(self, seat: int, hand: int) -> int:
        """``seat``'s available cards: its hand (a mask) plus :meth:`playable`."""
        return hand | (self.up[seat] & ~self.fresh[seat])

    def legal(self, seat: int, hand: int, trick: Sequence[Card], trump: Suit | None) -> int:
        """Mask of the cards ``seat`` may play to ``trick``: follow suit from the
        available cards if possible, else any available card (RULES §8.4)."""
        return follow_mask(hand | (self.up[seat] & ~self.fresh[seat]), trick, trump)

    def face_up(self, seat: int) -> int:
        """Mask of every face-up card on ``seat``'s layout (public)."""
        return self.up[seat]

    def face_down(self, seat: int) -> int:
        """Mask of ``seat``'s face-down cards (seen by nobody)."""
        return self.down[seat]

    def public_mask(self) -> int:
        """Every face-up layout card on the table."""
        mask = 0
        for up in self.up:
            mask |= up
        return mask

    def hidden_mask(self) -> int:
        """Every face-down layout card on the table."""
        mask = 0
        for down in self.down:
            mask |= down
        return mask

    def position_of(self, seat: int, card: Card) -> int | None:
        """The position of ``card`` if it is a face-up top of ``seat``'s layout."""
        return self._top_position[seat].get(card.index)

    def cards_left(self, seat: int) -> int:
        """How many cards remain on ``seat``'s layout (face up and face down)."""
        return (self.up[seat] | self.down[seat]).bit_count()

    # -- changes ----------------------------------------------------------------------

    def play(self, seat: int, card: Card) -> Card | None:
        """Play ``card`` from ``seat``'s layout; return the card turned up beneath, if any.

        The turned-up card is public at once and playable from the next trick.
        Raises ValueError if ``card`` is not one of :meth:`playable`.
        """
        bit = card.bit
        if not (self.up[seat] & ~self.fresh[seat]) & bit:
            raise ValueError(f"{card} is not a playable layout card of seat {seat}")
        tops = self._top_position[seat]
        position = tops.pop(card.index)
        pile = self.piles[seat][position]
        pile.pop()
        self.up[seat] ^= bit
        if not pile:
            return None
        index = pile[-1]
        exposed = 1 << index
        self.down[seat] ^= exposed
        self.up[seat] |= exposed
        self.fresh[seat] |= exposed
        tops[index] = position
        return Card.from_index(index)

    def end_trick(self) -> None:
        """The trick is over: cards turned up during it become playable."""
        for seat in range(len(self.fresh)):
            self.fresh[seat] = 0

    def clone(self) -> Layout:
        """An independent copy."""
        other = object.__new__(Layout)
        other.shape = self.shape
        other.piles = [[list(pile) for pile in seat] for seat in self.piles]
        other.up = list(self.up)
        other.down = list(self.down)
        other.fresh = list(self.fresh)
        other._top_position = [dict(tops) for tops in self._top_position]
        return other

    # -- views and snapshots --------------------------------------------------------

    def view(self) -> list[list[dict[str, object]]]:
        """What every seat sees (the same for all): per seat and position, the
        face-up card's code (or ``None`` when emptied), how many face-down cards
        lie beneath, and whether it was turned up this trick."""
        out: list[list[dict[str, object]]] = []
        for seat, seat_piles in enumerate(self.piles):
            row: list[dict[str, object]] = []
            for position, pile in enumerate(seat_piles):
                top = Card.from_index(pile[-1]) if pile else None
                row.append(
                    {
                        "position": position,
                        "up": None if top is None else top.code,
                        "down": max(len(pile) - 1, 0),
                        "fresh": top is not None and bool(self.fresh[seat] & top.bit),
                    }
                )
            out.append(row)
        return out

    def seat_view(self) -> tuple[tuple[PileView, ...], ...]:
        """:meth:`view` as values for :class:`~engine.view.SeatView`: per seat, per position."""
        out: list[tuple[PileView, ...]] = []
        for seat, seat_piles in enumerate(self.piles):
            fresh = self.fresh[seat]
            row = []
            for pile in seat_piles:
                if pile:
                    top = Card.from_index(pile[-1])
                    row.append(PileView(top, len(pile) - 1, bool(fresh & top.bit)))
                else:
                    row.append(PileView(None, 0))
            out.append(tuple(row))
        return tuple(out)

    def refusal(self, seat: int, card: Card) -> str | None:
        """Why ``seat`` may not play ``card`` from a layout now, or ``None`` if no layout
        reason applies (the card may be in hand, or nowhere on the table)."""
        bit = card.bit
        if self.down[seat] & bit:
            return f"{card.pretty} is face down in your layout: it is not available yet."
        if self.fresh[seat] & bit:
            return f"{card.pretty} was turned up this trick: you may play it from the next trick."
        for other in range(len(self.piles)):
            if other != seat and (self.up[other] | self.down[other]) & bit:
                return f"{card.pretty} is in your opponent's layout."
        return None

    def to_data(self) -> dict[str, object]:
        """JSON-friendly snapshot; :meth:`from_data` rebuilds an equal layout."""
        return {
            "layout": self.shape.name,
            "piles": [[list(pile) for pile in seat] for seat in self.piles],
            "fresh": list(self.fresh),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Layout:
        """Rebuild a layout from :meth:`to_data`."""
        name = data["layout"]
        piles = data["piles"]
        fresh = data.get("fresh")
        if not isinstance(name, str) or name not in SHAPES:
            raise ValueError(f"unknown layout {name!r}")
        if not isinstance(piles, list) or not isinstance(fresh, list | None):
            raise ValueError("layout snapshot: piles must be a list, fresh a list")
        return cls(name, piles, fresh)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self.shape == other.shape and self.piles == other.piles and self.fresh == other.fresh

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Layout({self.shape.name}, up={[bin(u).count('1') for u in self.up]})"
