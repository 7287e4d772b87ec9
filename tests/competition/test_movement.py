"""Movements: every entrant seated once a round, AI seats where the layout says, partners
and then opponents repeated as little as the field allows, checked against counts
written here and against an exhaustive search on small fields."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, permutations

import pytest

from bot.competition.events.movement import (
    Round,
    Table,
    ai_layout,
    individual_cost,
    pairs_cost,
    seat_individual,
    seat_pairs,
)


def meetings(history: Sequence[Round]) -> tuple[Counter[frozenset[int]], Counter[frozenset[int]]]:
    """(partners, opponents): how often each two players sat as such (AI seats left out)."""
    partners: Counter[frozenset[int]] = Counter()
    opponents: Counter[frozenset[int]] = Counter()
    for rnd in history:
        for t in rnd.tables:
            for a, b in combinations(range(4), 2):
                x, y = t.seats[a], t.seats[b]
                if x is None or y is None:
                    continue
                (partners if (a - b) % 2 == 0 else opponents)[frozenset((x, y))] += 1
    return partners, opponents


def repeats(counter: Counter[frozenset[int]]) -> int:
    return sum(n - 1 for n in counter.values() if n > 1)


def play_individual(players: Sequence[int], rounds: int, seed: int) -> list[Round]:
    history: list[Round] = []
    for _ in range(rounds):
        history.append(seat_individual(players, history, seed))
    return history


def check_seated(rnd: Round, field: Sequence[int]) -> None:
    seated = [who for t in rnd.tables for who in t.seats if who is not None]
    assert sorted(seated) == sorted(field), "everyone seated exactly once"
    assert [t.number for t in rnd.tables] == list(range(1, len(rnd.tables) + 1))
    assert tuple(t.ai_seats for t in rnd.tables) == tuple(
        tuple(sorted(s)) for s in ai_layout(len(field))
    )


@pytest.mark.parametrize("seed", range(6))
def test_16_players_over_4_rounds_never_repeat_a_partner_or_an_opponent(seed: int) -> None:
    players = list(range(100, 116))
    history = play_individual(players, 4, seed)
    for rnd in history:
        check_seated(rnd, players)
        assert len(rnd.tables) == 4 and rnd.ai_seats == ()
    partners, opponents = meetings(history)
    assert repeats(partners) == 0
    # 4 partners and 8 opponents out of 15 others: no repeat is forced, and none happens
    assert repeats(opponents) == 0
    assert all(len([p for p in partners if who in p]) == 4 for who in players)
    assert all(sum(n for p, n in opponents.items() if who in p) == 8 for who in players)


def test_the_ai_fills_the_field_to_a_multiple_of_four() -> None:
    assert ai_layout(16) == ((), (), (), ())
    assert ai_layout(15) == ((), (), (), (3,))
    assert ai_layout(13) == ((), (3,), (3,), (3,))
    assert ai_layout(5) == ((3,), (3, 1))
    assert ai_layout(2) == ((3, 1),)
    assert ai_layout(1) == ((3, 1, 2),)
    for n in range(1, 41):
        layout = ai_layout(n)
        assert len(layout) == -(-n // 4)
        assert sum(len(seats) for seats in layout) == 4 * len(layout) - n
        if len(layout) >= 3:
            assert all(len(seats) <= 1 for seats in layout), "one AI a table at most"


@pytest.mark.parametrize("n", range(1, 25))
def test_every_field_size_is_seated_with_no_partner_repeated_while_avoidable(n: int) -> None:
    players = [7 * i + 3 for i in range(n)]
    rounds = max(1, min(n // 2, 6))
    history = play_individual(players, rounds, seed=n)
    for rnd in history:
        check_seated(rnd, players)
    partners, _ = meetings(history)
    # each round the partners are an exact least-cost matching; with at most n/2 rounds
    # every player has more than half the field left to partner, so one always exists
    assert repeats(partners) == 0, n


def test_the_same_seed_seats_the_same_and_another_seed_may_not() -> None:
    players = list(range(12))
    assert play_individual(players, 3, 5) == play_individual(players, 3, 5)
    assert any(play_individual(players, 2, 5) != play_individual(players, 2, s) for s in (6, 7))


def test_the_order_of_the_field_does_not_matter() -> None:
    players = list(range(20))
    history = play_individual(players, 2, seed=9)
    assert seat_individual(players, history, 9) == seat_individual(players[::-1], history, 9)
    assert seat_pairs(players, [], 9) == seat_pairs(players[::-1], [], 9)


def test_late_joiners_and_no_shows_change_the_field_between_rounds() -> None:
    history = play_individual(list(range(16)), 2, seed=3)
    field = [p for p in range(16) if p not in (4, 9)] + [50, 51, 52]  # 2 gone, 3 joined: 17
    rnd = seat_individual(field, history, seed=3)
    assert rnd.number == 3
    check_seated(rnd, field)
    assert len(rnd.tables) == 5 and len(rnd.ai_seats) == 3
    partners, opponents = meetings([*history, rnd])
    assert repeats(partners) == 0 and repeats(opponents) == 0


def random_round(players: Sequence[int], number: int, rng: random.Random) -> Round:
    """Any legal seating (the layout's AI seats), at random."""
    layout = ai_layout(len(players))
    order = list(players)
    rng.shuffle(order)
    tables = []
    for i, ai in enumerate(layout):
        seats: list[int | None] = [None] * 4
        for s in range(4):
            if s not in ai:
                seats[s] = order.pop()
        tables.append(Table(i + 1, (seats[0], seats[1], seats[2], seats[3])))
    return Round(number, tuple(tables))


def best_by_search(players: Sequence[int], history: Sequence[Round]) -> tuple[int, ...]:
    """The least cost of any seating of the round, by trying them all."""
    layout = ai_layout(len(players))
    slots = [(t, s) for t, ai in enumerate(layout) for s in range(4) if s not in ai]
    rest = list(players)
    first: list[int] = []
    if not any(layout):  # no AI: every slot is alike, so the first player may sit first
        first, rest = [rest[0]], rest[1:]
    best: tuple[int, ...] | None = None
    number = len(history) + 1
    for order in permutations(rest):
        seats: list[list[int | None]] = [[None] * 4 for _ in layout]
        for (t, s), who in zip(slots, [*first, *order], strict=True):
            seats[t][s] = who
        rnd = Round(
            number, tuple(Table(i + 1, (x[0], x[1], x[2], x[3])) for i, x in enumerate(seats))
        )
        cost = individual_cost(rnd, history)
        if best is None or cost < best:
            best = cost
    assert best is not None
    return best


@pytest.mark.parametrize(("n", "seed"), [(5, 1), (6, 2), (7, 3), (8, 4), (8, 5)])
def test_each_round_costs_no_more_than_the_best_seating_found_by_exhaustive_search(
    n: int, seed: int
) -> None:
    rng = random.Random(seed)
    players = list(range(n))
    history = [random_round(players, r + 1, rng) for r in range(3)]
    chosen = seat_individual(players, history, seed)
    assert individual_cost(chosen, history) == best_by_search(players, history)


def play_pairs(pairs: Sequence[int], rounds: int, seed: int) -> list[Round]:
    history: list[Round] = []
    for _ in range(rounds):
        history.append(seat_pairs(pairs, history, seed))
    return history


@pytest.mark.parametrize("n", range(1, 17))
def test_pairs_meet_no_pair_twice_while_avoidable_and_the_ai_pair_in_turn(n: int) -> None:
    pairs = [11 * i + 1 for i in range(n)]
    rounds = max(1, (n + 1) // 2)
    history = play_pairs(pairs, rounds, seed=n)
    met: Counter[frozenset[int]] = Counter()
    met_ai: Counter[int] = Counter()
    for rnd in history:
        seated = [t.seats[0] for t in rnd.tables] + [t.seats[1] for t in rnd.tables]
        assert sorted(p for p in seated if p is not None) == sorted(pairs)
        assert all(t.seats[0] == t.seats[2] and t.seats[1] == t.seats[3] for t in rnd.tables)
        assert len(rnd.ai_seats) == (2 if n % 2 else 0)
        if n % 2:
            assert rnd.tables[-1].ai_seats == (1, 3), "the AI pair sits east-west, last"
        for t in rnd.tables:
            ns, ew = t.seats[0], t.seats[1]
            if ns is not None and ew is not None:
                met[frozenset((ns, ew))] += 1
            else:
                met_ai[next(p for p in (ns, ew) if p is not None)] += 1
    assert all(v == 1 for v in met.values())
    assert all(v == 1 for v in met_ai.values())


def test_pairs_take_turns_north_south() -> None:
    pairs = list(range(1, 9))
    history = play_pairs(pairs, 2, seed=1)
    first_ns = {t.seats[0] for t in history[0].tables}
    for t in history[1].tables:
        ns, ew = t.seats[0], t.seats[1]
        if (ns in first_ns) != (ew in first_ns):
            assert ew in first_ns, "the pair that sat north-south sits east-west"


@pytest.mark.parametrize("n", [4, 6])
def test_a_pairs_round_is_the_least_cost_matching(n: int) -> None:
    rng = random.Random(n)
    pairs = list(range(n))
    history: list[Round] = []
    for r in range(n - 2):
        order = pairs[:]
        rng.shuffle(order)
        tables = tuple(
            Table(i + 1, (order[2 * i], order[2 * i + 1], order[2 * i], order[2 * i + 1]))
            for i in range(n // 2)
        )
        history.append(Round(r + 1, tables))
    chosen = seat_pairs(pairs, history, seed=0)
    best = None
    for order in permutations(pairs):
        tables = tuple(
            Table(i + 1, (order[2 * i], order[2 * i + 1], order[2 * i], order[2 * i + 1]))
            for i in range(n // 2)
        )
        cost = pairs_cost(Round(len(history) + 1, tables), history)
        best = cost if best is None or cost < best else best
    assert pairs_cost(chosen, history) == best


def test_a_field_with_a_player_twice_is_refused() -> None:
    with pytest.raises(ValueError):
        seat_individual([1, 2, 2, 3], [], 0)
    with pytest.raises(ValueError):
        seat_pairs([], [], 0)


@pytest.mark.parametrize("seed", range(3))
def test_8_players_meet_the_lower_bound_on_repeated_opponents_every_round(seed: int) -> None:
    """Each round a player has 2 opponents; after r rounds, 2r of them among 7 others, so
    at least 2r - 7 repeats a player and (2r - 7) * 8 / 2 in all. The movement meets that
    bound after every round, and after 7 rounds every two players have been partners
    once."""
    players = list(range(8))
    history: list[Round] = []
    for r in range(1, 8):
        history.append(seat_individual(players, history, seed))
        partners, opponents = meetings(history)
        assert repeats(partners) == 0
        assert repeats(opponents) == max(0, 2 * r - 7) * 8 // 2
    assert set(partners.values()) == {1} and len(partners) == 28


def test_16_players_over_5_rounds_meet_no_one_twice_in_the_same_role() -> None:
    players = list(range(16))
    for seed in range(3):
        partners, opponents = meetings(play_individual(players, 5, seed))
        assert repeats(partners) == 0 and repeats(opponents) == 0
