"""Seats and sides, fixed or made per deal (RULES §0.1, §6.3)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.seating import Seating


def test_partnerships_are_opposite() -> None:
    seating = Seating.partnerships(4)
    assert seating.seat_sides == (0, 1, 0, 1)
    assert seating.seat_sides == tuple(seat % 2 for seat in range(4))
    assert seating.partners_of(0) == {2} and seating.partner_of(1) == 3
    assert seating.opponents_of(0) == {1, 3}
    assert seating.side(3) == {1, 3}
    assert seating.is_partnership and seating.same_side(0, 2)
    assert Seating.fixed(4, partnerships=True) == seating
    with pytest.raises(ValueError):
        Seating.partnerships(3)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_solo_each_alone(n: int) -> None:
    seating = Seating.solo(n)
    assert seating.seat_sides == tuple(range(n))
    for seat in seating.seats:
        assert seating.partners_of(seat) == frozenset()
        assert seating.partner_of(seat) is None
        assert seating.opponents_of(seat) == frozenset(range(n)) - {seat}
    assert not seating.is_partnership
    assert Seating.fixed(n, partnerships=False) == seating


def test_one_against_three() -> None:
    seating = Seating.one_against(4, 1)  # a Solo declarer in E
    assert seating.sides == (frozenset({1}), frozenset({0, 2, 3}))
    assert seating.seat_sides == (1, 0, 1, 1)
    assert seating.partners_of(1) == frozenset()
    assert seating.partners_of(0) == {2, 3} and seating.partner_of(0) is None
    assert seating.opponents_of(3) == {1}
    assert Seating.one_against_rest(4, 1) == seating


def test_proposer_and_acceptor() -> None:
    # §11.10: Propose/Accept by N+S; also a non-opposite pair (N proposes, E accepts)
    assert Seating.pair(4, 0, 2) == Seating.partnerships(4)
    seating = Seating.pair(4, 0, 1)
    assert seating.seat_sides == (0, 0, 1, 1)
    assert seating.partner_of(0) == 1 and seating.partner_of(2) == 3
    assert seating.opponents_of(1) == {2, 3}
    with pytest.raises(ValueError):
        Seating.pair(4, 2, 2)


def test_turn_order() -> None:
    four, two, three = Seating.partnerships(), Seating.solo(2), Seating.solo(3)
    assert four.next(3) == 0 and four.eldest(3) == 0 and four.eldest(0) == 1
    assert two.next(1) == 0 and two.eldest(0) == 1
    assert three.eldest(2) == 0
    assert four.order_from(2) == (2, 3, 0, 1)


@pytest.mark.parametrize(
    ("n", "sides"),
    [
        (5, ({0}, {1}, {2}, {3}, {4})),
        (1, ({0},)),
        (4, ({0, 1}, {2})),  # seat 3 in no side
        (4, ({0, 1}, {1, 2, 3})),  # seat 1 twice
        (4, ({0, 1, 2, 3}, set())),  # empty side
        (3, ({0, 1, 3}, {2})),  # no seat 3
    ],
)
def test_invalid_seatings(n: int, sides: tuple[set[int], ...]) -> None:
    with pytest.raises(ValueError):
        Seating(n, tuple(frozenset(s) for s in sides))


def _seatings() -> st.SearchStrategy[Seating]:
    def build(n: int, choice: int, a: int, b: int) -> Seating:
        a, b = a % n, b % n
        if choice == 0 or (choice == 3 and a == b):
            return Seating.solo(n)
        if choice == 1:
            return Seating.one_against(n, a)
        if choice == 2 and n == 4:
            return Seating.partnerships()
        return Seating.pair(n, a, b) if a != b else Seating.solo(n)

    return st.builds(
        build,
        st.integers(2, 4),
        st.integers(0, 3),
        st.integers(0, 3),
        st.integers(0, 3),
    )


@given(_seatings())
def test_snapshot_round_trip_and_partition(seating: Seating) -> None:
    data = json.loads(json.dumps(seating.to_data()))
    assert Seating.from_data(data) == seating
    for seat in seating.seats:
        side = seating.side(seat)
        assert seat in side
        assert side | seating.opponents_of(seat) == frozenset(seating.seats)
        assert not side & seating.opponents_of(seat)
        assert seating.partners_of(seat) == side - {seat}
    assert sorted(s for side in seating.sides for s in side) == list(seating.seats)


def test_from_data_rejects_garbage() -> None:
    with pytest.raises(ValueError):
        Seating.from_data({"n_seats": 4, "sides": [[0, "x"], [1, 2, 3]]})
    with pytest.raises(ValueError):
        Seating.from_data({"n_seats": "4", "sides": []})
