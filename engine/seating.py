"""Seats and sides for 2, 3 or 4 players (RULES §0.1, §4.1, §6.1, §6.3, §7.1, §8.1).

Seats are ``0..n_seats-1`` clockwise; "left of X" is ``X+1 (mod n)``, the dealer
is ``D`` and eldest ``D+1``. A :class:`Seating` is a small frozen value: the
number of seats and the sides, a partition of the seats. Sides are either fixed
for the game (four-handed partnerships ``s`` and ``s+2``; everyone alone in
2- and 3-player games or ``single_hand`` play) or made per deal by what happens
in the deal (Solo Whist: one player against three, or a proposer and the player
who accepts, RULES §6.3). A family keeps a fixed seating in its rules and builds
a per-deal one in its auction phase; ``seat_sides`` is the seat -> side tuple
that ``Game.side_of`` holds.

Side order is part of the value. Constructors put the declaring side first:
``one_against(n, seat)`` is ``({seat}, rest)`` and ``pair(n, a, b)`` is
``({a, b}, rest)``; ``partnerships(4)`` is ``({0, 2}, {1, 3})`` (so
``seat_sides == (0, 1, 0, 1)``, today's ``seat % 2``) and ``solo(n)`` gives
seat ``i`` side ``i``. RULES is silent on a pair in a 3-player game; it is
allowed (the third player is a side alone) but no game uses it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["MAX_SEATS", "MIN_SEATS", "Seating"]

MIN_SEATS = 2
MAX_SEATS = 4


@dataclass(frozen=True, slots=True)
class Seating:
    """The seats of a table and how they form sides.

    ``sides`` partitions ``range(n_seats)`` into non-empty sets; ``side_of(seat)``
    is the index of a seat's side in ``sides``.
    """

    n_seats: int
    sides: tuple[frozenset[int], ...]
    _side_of: tuple[int, ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        n = self.n_seats
        if not isinstance(n, int) or not MIN_SEATS <= n <= MAX_SEATS:
            raise ValueError(f"n_seats must be {MIN_SEATS}, 3 or {MAX_SEATS}, not {n!r}")
        sides = tuple(frozenset(side) for side in self.sides)
        object.__setattr__(self, "sides", sides)
        side_of = [-1] * n
        for index, side in enumerate(sides):
            if not side:
                raise ValueError(f"side {index} has no seats")
            for seat in side:
                if not isinstance(seat, int) or not 0 <= seat < n:
                    raise ValueError(f"seat {seat!r} is not one of 0..{n - 1}")
                if side_of[seat] != -1:
                    raise ValueError(f"seat {seat} is in two sides")
                side_of[seat] = index
        missing = [seat for seat in range(n) if side_of[seat] == -1]
        if missing:
            raise ValueError(f"seats {missing} are in no side")
        object.__setattr__(self, "_side_of", tuple(side_of))

    # -- constructors -----------------------------------------------------------

    @classmethod
    def partnerships(cls, n_seats: int = 4) -> Seating:
        """Fixed partnerships, partners opposite: ``s`` and ``s+2`` (4 players only)."""
        if n_seats != 4:
            raise ValueError(f"partnerships need 4 seats, not {n_seats}")
        return cls(4, (frozenset({0, 2}), frozenset({1, 3})))

    @classmethod
    def solo(cls, n_seats: int) -> Seating:
        """Each player for himself: seat ``i`` is side ``i`` (2-3 players, ``single_hand``)."""
        return cls(n_seats, tuple(frozenset({seat}) for seat in range(n_seats)))

    @classmethod
    def one_against(cls, n_seats: int, seat: int) -> Seating:
        """``seat`` alone (side 0) against all the others (side 1), e.g. a Solo declarer."""
        rest = frozenset(range(n_seats)) - {seat}
        return cls(n_seats, (frozenset({seat}), rest))

    @classmethod
    def pair(cls, n_seats: int, a: int, b: int) -> Seating:
        """``a`` and ``b`` together (side 0; e.g. proposer and acceptor, RULES §6.3)
        against the rest (side 1)."""
        if a == b:
            raise ValueError(f"a pair needs two different seats, not {a} twice")
        rest = frozenset(range(n_seats)) - {a, b}
        return cls(n_seats, (frozenset({a, b}), rest) if rest else (frozenset({a, b}),))

    @classmethod
    def fixed(cls, n_seats: int, partnerships: bool) -> Seating:
        """Fixed sides for a game: partnerships (4 seats) or everyone alone."""
        return cls.partnerships(n_seats) if partnerships else cls.solo(n_seats)

    # aliases in the words of the phases' notes
    one_against_rest = one_against

    # -- queries ------------------------------------------------------------------

    @property
    def seats(self) -> range:
        """``range(n_seats)``."""
        return range(self.n_seats)

    @property
    def seat_sides(self) -> tuple[int, ...]:
        """Seat -> side index, e.g. ``(0, 1, 0, 1)`` for partnerships (``Game.side_of``)."""
        return self._side_of

    @property
    def is_partnership(self) -> bool:
        """True if some side has more than one seat."""
        return any(len(side) > 1 for side in self.sides)

    def side_of(self, seat: int) -> int:
        """Index (into :attr:`sides`) of the side ``seat`` plays for."""
        return self._side_of[seat]

    def side(self, seat: int) -> frozenset[int]:
        """The seats of ``seat``'s side, itself included."""
        return self.sides[self._side_of[seat]]

    def partners_of(self, seat: int) -> frozenset[int]:
        """The other seats on ``seat``'s side (empty when alone)."""
        return self.sides[self._side_of[seat]] - {seat}

    def partner_of(self, seat: int) -> int | None:
        """The single partner of ``seat``, or ``None`` if it has none (or several)."""
        partners = self.partners_of(seat)
        return next(iter(partners)) if len(partners) == 1 else None

    def opponents_of(self, seat: int) -> frozenset[int]:
        """Every seat not on ``seat``'s side."""
        return frozenset(range(self.n_seats)) - self.sides[self._side_of[seat]]

    def same_side(self, a: int, b: int) -> bool:
        """True if ``a`` and ``b`` play for the same side."""
        return self._side_of[a] == self._side_of[b]

    def next(self, seat: int) -> int:
        """The seat to the left (clockwise): ``seat + 1 (mod n)``."""
        return (seat + 1) % self.n_seats

    def eldest(self, dealer: int) -> int:
        """Eldest hand, the dealer's left (``D + 1``)."""
        return (dealer + 1) % self.n_seats

    def order_from(self, seat: int) -> tuple[int, ...]:
        """Every seat once, clockwise starting at ``seat`` (turn order of a round)."""
        n = self.n_seats
        return tuple((seat + i) % n for i in range(n))

    # -- snapshots ----------------------------------------------------------------

    def to_data(self) -> dict[str, object]:
        """JSON-friendly form: ``{"n_seats": 4, "sides": [[0, 2], [1, 3]]}``."""
        return {"n_seats": self.n_seats, "sides": [sorted(side) for side in self.sides]}

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Seating:
        """Rebuild a seating from :meth:`to_data`."""
        n_seats = data["n_seats"]
        sides = data["sides"]
        if not isinstance(n_seats, int) or not isinstance(sides, Sequence):
            raise ValueError(f"not a seating: {data!r}")
        return cls(n_seats, tuple(frozenset(_ints(side)) for side in sides))


def _ints(values: object) -> Iterable[int]:
    if not isinstance(values, Sequence):
        raise ValueError(f"not a list of seats: {values!r}")
    for value in values:
        if not isinstance(value, int):
            raise ValueError(f"not a seat: {value!r}")
        yield value
