"""Movements: who sits where in the next round of a barometer event.

Every table plays the same boards in a round; seats are ``0..3`` clockwise, partners
``s`` and ``s+2`` (north-south is seats 0 and 2, east-west 1 and 3). A movement here
is computed a round at a time from the field of the moment (late joiners added, no-shows
left out) and the rounds already played, so the field may change between rounds.

*Individual* (:func:`seat_individual`): four players a table, partners changing. With
``n`` players there are ``ceil(n / 4)`` tables and ``4 * tables - n`` seats (0 to 3)
taken by the AI: one at seat 3 of each of the last tables, a second at seat 1 (the first
one's partner) only when there are fewer tables than AI seats (5 players or fewer).

The seating chosen costs least, compared in this order (each count is of earlier
rounds, so a pair seated together a third time costs 2):

1. repeated partners: for every two players made partners, how often they were before;
2. repeated AI partners: for every player partnered with the AI, how often they were;
3. repeated opponents: for every two players facing each other, how often they did;
4. repeated AI tables: for every player at a table with an AI, how often they were.

Levels 1-2 are solved exactly by a maximum-weight matching (networkx) of the players
into partnerships, levels 3-4 by a second matching of the partnerships into tables; a
local search (swapping two players) then lowers the whole cost where the two-step
split left room, never raising an earlier level. Restarts with new seeded tie-breaks
(up to ``max(4, 640 // n)``) keep the cheapest, stopping at once at a lower bound (no
repeat; the AI's partners and table-mates those who had it least). The partner level
is therefore the least possible for this round. docs/events.md states it all.

*Pairs* (:func:`seat_pairs`): fixed partnerships meet pair against pair. An odd field
adds one AI pair, at the last table. One matching minimises, in this order, repeated
opponents and repeated meetings with the AI pair; it is exact for the round. Then at
each table the pair that sat north-south more often sits east-west.

Everything is deterministic given the arguments and ``seed``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

import networkx as nx

__all__ = [
    "NORTH_SOUTH",
    "EAST_WEST",
    "Cost",
    "Round",
    "Table",
    "ai_layout",
    "individual_cost",
    "pairs_cost",
    "seat_individual",
    "seat_pairs",
]

NORTH_SOUTH: Final = 0
EAST_WEST: Final = 1

Seats = tuple[int | None, int | None, int | None, int | None]
Cost = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round: ``seats[s]`` is the entrant at seat ``s`` (a player's id in
    an individual event, a pair's id at both seats of its side in a pairs event), or
    ``None`` where the AI sits."""

    number: int  # 1-based
    seats: Seats

    def __post_init__(self) -> None:
        if len(self.seats) != 4:
            raise ValueError(f"a table has 4 seats, not {len(self.seats)}")

    @property
    def ai_seats(self) -> tuple[int, ...]:
        """The seats the AI takes."""
        return tuple(s for s, who in enumerate(self.seats) if who is None)

    def side_of(self, seat: int) -> int:
        """:data:`NORTH_SOUTH` for seats 0 and 2, :data:`EAST_WEST` for 1 and 3."""
        return seat % 2

    def partner(self, seat: int) -> int | None:
        return self.seats[(seat + 2) % 4]

    def opponents(self, seat: int) -> tuple[int | None, int | None]:
        return self.seats[(seat + 1) % 4], self.seats[(seat + 3) % 4]


@dataclass(frozen=True, slots=True)
class Round:
    """A round's seating: its number (1-based) and tables (numbered 1..)."""

    number: int
    tables: tuple[Table, ...]

    @property
    def entrants(self) -> frozenset[int]:
        return frozenset(who for t in self.tables for who in t.seats if who is not None)

    @property
    def ai_seats(self) -> tuple[tuple[int, int], ...]:
        """``(table number, seat)`` of every AI seat."""
        return tuple((t.number, s) for t in self.tables for s in t.ai_seats)

    def seat_of(self, entrant: int) -> tuple[int, int] | None:
        """``(table number, seat)`` of ``entrant`` (its first seat, for a pair), or None."""
        for t in self.tables:
            for s, who in enumerate(t.seats):
                if who == entrant:
                    return t.number, s
        return None


def _key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _one(a: int | None, b: int | None) -> int:
    """The one of ``a`` and ``b`` that is not None (the player beside an AI)."""
    if a is not None:
        return a
    if b is None:
        raise ValueError("two AI seats where one was expected")
    return b


def _next_number(history: Sequence[Round]) -> int:
    return history[-1].number + 1 if history else 1


def _check_field(entrants: Sequence[int], what: str) -> None:
    if not entrants:
        raise ValueError(f"no {what} to seat")
    if len(set(entrants)) != len(entrants):
        raise ValueError(f"a {what[:-1]} is listed twice")


# ------------------------------------------------------------------ individual


@dataclass(frozen=True, slots=True)
class _Counts:
    partners: Counter[tuple[int, int]]
    opponents: Counter[tuple[int, int]]
    ai_partner: Counter[int]
    ai_table: Counter[int]


def _individual_counts(history: Iterable[Round]) -> _Counts:
    c = _Counts(Counter(), Counter(), Counter(), Counter())
    for rnd in history:
        for t in rnd.tables:
            s = t.seats
            for seat in (0, 1):
                a, b = s[seat], s[seat + 2]
                if a is not None and b is not None:
                    c.partners[_key(a, b)] += 1
                elif a is not None or b is not None:
                    c.ai_partner[_one(a, b)] += 1
            for a, b in ((s[0], s[1]), (s[0], s[3]), (s[2], s[1]), (s[2], s[3])):
                if a is not None and b is not None:
                    c.opponents[_key(a, b)] += 1
            if None in s:
                for who in s:
                    if who is not None:
                        c.ai_table[who] += 1
    return c


def _table_cost(seats: Sequence[int | None], c: _Counts) -> Cost:
    partner = ai_partner = opponent = ai_table = 0
    for seat in (0, 1):
        a, b = seats[seat], seats[seat + 2]
        if a is not None and b is not None:
            partner += c.partners[_key(a, b)]
        elif a is not None:
            ai_partner += c.ai_partner[a]
        elif b is not None:
            ai_partner += c.ai_partner[b]
    for i, j in ((0, 1), (0, 3), (2, 1), (2, 3)):
        a, b = seats[i], seats[j]
        if a is not None and b is not None:
            opponent += c.opponents[_key(a, b)]
    if None in seats:
        ai_table = sum(c.ai_table[who] for who in seats if who is not None)
    return partner, ai_partner, opponent, ai_table


def _add(x: Cost, y: Cost) -> Cost:
    return tuple(a + b for a, b in zip(x, y, strict=True))


def _sub(x: Cost, y: Cost) -> Cost:
    return tuple(a - b for a, b in zip(x, y, strict=True))


def individual_cost(seating: Round, history: Sequence[Round]) -> Cost:
    """The cost of seating ``seating`` after ``history``: (repeated partners, repeated
    AI partners, repeated opponents, repeated AI tables), compared in that order."""
    c = _individual_counts(history)
    total: Cost = (0, 0, 0, 0)
    for t in seating.tables:
        total = _add(total, _table_cost(t.seats, c))
    return total


def ai_layout(players: int) -> tuple[tuple[int, ...], ...]:
    """The AI seats of each table (by index) for ``players`` players: one at seat 3 of
    each of the last tables, then seat 1, then seat 2 (only with 1 player)."""
    if players < 1:
        raise ValueError("no players to seat")
    tables = -(-players // 4)
    ai = 4 * tables - players
    layout: list[list[int]] = [[] for _ in range(tables)]
    for i in range(ai):
        layout[tables - 1 - i % tables].append((3, 1, 2)[i // tables])
    return tuple(tuple(seats) for seats in layout)


def _matching(
    vertices: Sequence[object],
    cost: dict[tuple[int, int], Cost],
    rng: random.Random,
) -> list[tuple[int, int]]:
    """A perfect matching of ``vertices`` (by index) of least cost, compared level by
    level; ``cost`` holds the allowed edges. Ties are broken at random."""
    n = len(vertices)
    if n == 0:
        return []
    free = _free_matching(n, cost, rng)
    if free is not None:
        return free
    levels = len(next(iter(cost.values())))
    top = max(max(c) for c in cost.values()) + 1
    base = top * n + 1  # one level's total over a matching stays below one unit above
    noise = n * n  # the random tie-breaks over a matching stay below one unit of the last level
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(n))
    worst = 0
    scalar: dict[tuple[int, int], int] = {}
    for edge, c in cost.items():
        value = 0
        for level in range(levels):
            value = value * base + c[level]
        value = value * noise + rng.randrange(n)
        scalar[edge] = value
        worst = max(worst, value)
    for (a, b), value in scalar.items():
        graph.add_edge(a, b, weight=worst + 1 - value)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matched) != n:
        raise AssertionError("no perfect matching: the layout and the field disagree")
    return sorted(_key(a, b) for a, b in matched)


def _free_matching(
    n: int, cost: dict[tuple[int, int], Cost], rng: random.Random
) -> list[tuple[int, int]] | None:
    """A perfect matching of the ``n`` vertices using only edges that cost nothing at
    any level, found greedily in a seeded random order; None if the greedy pass
    finds none (the exact matching then decides). Such a matching costs nothing, so
    no matching is cheaper: it is one of the least-cost matchings, found in
    O(edges) where the exact one takes O(n³) (a field of 200 is seated in
    milliseconds rather than seconds, most of an event's rounds having no repeat)."""
    neighbours: list[list[int]] = [[] for _ in range(n)]
    for (a, b), c in cost.items():
        if not any(c):
            neighbours[a].append(b)
            neighbours[b].append(a)
    order = list(range(n))
    rng.shuffle(order)
    order.sort(key=lambda v: len(neighbours[v]))  # the most constrained first
    mate: dict[int, int] = {}
    for v in order:
        if v in mate:
            continue
        options = [u for u in neighbours[v] if u not in mate]
        if not options:
            return None
        u = rng.choice(options)
        mate[v], mate[u] = u, v
    return sorted(_key(a, b) for a, b in mate.items() if a < b)


def _build_individual(
    players: Sequence[int],
    layout: tuple[tuple[int, ...], ...],
    c: _Counts,
    rng: random.Random,
) -> list[list[int | None]]:
    """One seating from the two matchings (partners, then tables)."""
    order = sorted(players)  # the field in any order seats the same
    rng.shuffle(order)
    kinds = [len(ai) for ai in layout]
    half_ai = sum(1 for k in kinds if k in (1, 3))  # partnerships of a player and the AI
    # 1. players (and ``half_ai`` AI partners) into partnerships
    vertices: list[int | None] = [*order, *([None] * half_ai)]
    cost: dict[tuple[int, int], Cost] = {}
    for i, j in combinations(range(len(vertices)), 2):
        a, b = vertices[i], vertices[j]
        if a is not None and b is not None:
            cost[(i, j)] = (c.partners[_key(a, b)], 0)
        elif a is not None or b is not None:
            cost[(i, j)] = (0, c.ai_partner[_one(a, b)])
    pairs = [
        (vertices[i], vertices[j]) for i, j in _matching(vertices, cost, rng)
    ]  # (player, None) for a partnership with the AI
    rng.shuffle(pairs)
    # 2. partnerships (and the all-AI sides of tables with 2 or 3 AI) into tables
    full_ai = sum(1 for k in kinds if k >= 2)
    sides: list[tuple[int | None, int | None]] = [*pairs, *([(None, None)] * full_ai)]

    def kind(side: tuple[int | None, int | None]) -> int:
        return sum(1 for who in side if who is None)

    allowed = {(0, 0), (0, 1), (0, 2)} | ({(1, 2)} if 3 in kinds else set())
    cost = {}
    for i, j in combinations(range(len(sides)), 2):
        pair_kinds = tuple(sorted((kind(sides[i]), kind(sides[j]))))
        if pair_kinds not in allowed:
            continue
        x, y = sides[i], sides[j]
        seats = (x[0], y[0], x[1], y[1])
        cost[(i, j)] = _table_cost(seats, c)[2:]
    tables_of_kind: dict[int, list[int]] = {}
    for index, k in enumerate(kinds):
        tables_of_kind.setdefault(k, []).append(index)
    seating: list[list[int | None]] = [[None] * 4 for _ in layout]
    for i, j in _matching(sides, cost, rng):
        x, y = sides[i], sides[j]
        if kind(x) > kind(y):
            x, y = y, x
        table = tables_of_kind[kind(x) + kind(y)].pop()
        ai = layout[table]
        # the side with the AI (if any) takes the odd seats, its AI at seat 3 (then 1)
        if kind(y) == 0:
            seating[table] = [x[0], y[0], x[1], y[1]]
        elif kind(y) == 1:
            human = y[0] if y[0] is not None else y[1]
            seating[table] = [x[0], human, x[1], None]
        elif kind(x) == 0:
            seating[table] = [x[0], None, x[1], None]
        else:  # one player, three AI seats
            human = x[0] if x[0] is not None else x[1]
            seating[table] = [human, None, None, None]
        assert [s for s in range(4) if seating[table][s] is None] == sorted(ai)
    return seating


def _improve(seating: list[list[int | None]], c: _Counts, rng: random.Random) -> None:
    """Swap two players while that lowers the cost (first improvement, seeded order)."""
    places = [(t, s) for t, seats in enumerate(seating) for s in range(4) if seats[s] is not None]
    costs = [_table_cost(seats, c) for seats in seating]
    zero: Cost = (0, 0, 0, 0)
    improved = not all(cost == zero for cost in costs)  # nothing costs less than nothing
    while improved:
        improved = False
        swaps = list(combinations(range(len(places)), 2))
        rng.shuffle(swaps)
        for i, j in swaps:
            (t1, s1), (t2, s2) = places[i], places[j]
            if t1 == t2 and (s1 - s2) % 2 == 0:
                continue  # partners trading seats change nothing
            if costs[t1] == zero and costs[t2] == zero:
                continue  # two tables that cost nothing: a swap can only add
            a, b = seating[t1][s1], seating[t2][s2]
            seating[t1][s1], seating[t2][s2] = b, a
            if t1 == t2:
                new1 = _table_cost(seating[t1], c)
                delta = _sub(new1, costs[t1])
            else:
                new1, new2 = _table_cost(seating[t1], c), _table_cost(seating[t2], c)
                delta = _sub(_add(new1, new2), _add(costs[t1], costs[t2]))
            if delta < zero:
                costs[t1] = new1
                if t1 != t2:
                    costs[t2] = new2
                improved = True
            else:
                seating[t1][s1], seating[t2][s2] = a, b


def _orient(seats: list[int | None], ns_count: Counter[int], rng: random.Random) -> Seats:
    """Turn the table a quarter when that seats north-south the pair that sat there less
    (only at a table with no AI: the AI seats stay where the layout put them)."""
    if None not in seats:
        ns = sum(ns_count[who] for who in (seats[0], seats[2]) if who is not None)
        ew = sum(ns_count[who] for who in (seats[1], seats[3]) if who is not None)
        if ns > ew or (ns == ew and rng.random() < 0.5):
            seats = [seats[1], seats[2], seats[3], seats[0]]
    return seats[0], seats[1], seats[2], seats[3]


def _ns_counts(history: Iterable[Round]) -> Counter[int]:
    ns: Counter[int] = Counter()
    for rnd in history:
        for t in rnd.tables:
            for who in (t.seats[0], t.seats[2]):
                if who is not None:
                    ns[who] += 1
    return ns


def _floor(players: Sequence[int], layout: tuple[tuple[int, ...], ...], c: _Counts) -> Cost:
    """A lower bound of the round's cost: no repeated partner or opponent, and the AI's
    partners and table-mates those who had it least."""
    ai_partners = sum(1 for ai in layout if len(ai) in (1, 3))
    at_ai_tables = sum(4 - len(ai) for ai in layout if ai)
    return (
        0,
        sum(sorted(c.ai_partner[p] for p in players)[:ai_partners]),
        0,
        sum(sorted(c.ai_table[p] for p in players)[:at_ai_tables]),
    )


def seat_individual(
    players: Sequence[int], history: Sequence[Round], seed: int, *, restarts: int | None = None
) -> Round:
    """The next round of an individual event for the field ``players`` (ids, those
    present for this round), after the rounds ``history``: the least-cost seating
    (see the module's doc) of ``restarts`` tries, deterministic given ``seed``.
    AI seats follow :func:`ai_layout`."""
    _check_field(players, "players")
    number = _next_number(history)
    c = _individual_counts(history)
    layout = ai_layout(len(players))
    rng = random.Random(f"individual:{seed}:{number}")
    best: list[list[int | None]] = []
    best_cost: Cost | None = None
    floor = _floor(players, layout, c)
    tries = restarts if restarts is not None else max(4, 640 // len(players))
    for _ in range(max(1, tries)):
        seating = _build_individual(players, layout, c, rng)
        _improve(seating, c, rng)
        cost: Cost = (0, 0, 0, 0)
        for seats in seating:
            cost = _add(cost, _table_cost(seats, c))
        if best_cost is None or cost < best_cost:
            best, best_cost = seating, cost
        if best_cost == floor:
            break  # no seating does better
    ns = _ns_counts(history)
    tables = tuple(Table(i + 1, _orient(seats, ns, rng)) for i, seats in enumerate(best))
    return Round(number, tables)


# ------------------------------------------------------------------ pairs


def _pair_meetings(history: Iterable[Round]) -> tuple[Counter[tuple[int, int]], Counter[int]]:
    met: Counter[tuple[int, int]] = Counter()
    met_ai: Counter[int] = Counter()
    for rnd in history:
        for t in rnd.tables:
            ns, ew = t.seats[0], t.seats[1]
            if ns is not None and ew is not None:
                met[_key(ns, ew)] += 1
            elif ns is not None or ew is not None:
                met_ai[_one(ns, ew)] += 1
    return met, met_ai


def pairs_cost(seating: Round, history: Sequence[Round]) -> Cost:
    """The cost of a pairs round after ``history``: (repeated opponents, repeated
    meetings with the AI pair), compared in that order."""
    met, met_ai = _pair_meetings(history)
    opponents = ai = 0
    for t in seating.tables:
        ns, ew = t.seats[0], t.seats[1]
        if ns is not None and ew is not None:
            opponents += met[_key(ns, ew)]
        elif ns is not None or ew is not None:
            ai += met_ai[_one(ns, ew)]
    return opponents, ai


def seat_pairs(pairs: Sequence[int], history: Sequence[Round], seed: int) -> Round:
    """The next round of a pairs event for the field ``pairs`` (pair ids) after
    ``history``: a least-cost matching of pair against pair (an AI pair when the field
    is odd, at the last table); each table's pair that sat north-south more often sits
    east-west (a seeded coin when equal). A table's seats are ``(ns, ew, ns, ew)``."""
    _check_field(pairs, "pairs")
    number = _next_number(history)
    rng = random.Random(f"pairs:{seed}:{number}")
    met, met_ai = _pair_meetings(history)
    order: list[int | None] = list(sorted(pairs))  # any order of the field, the same
    rng.shuffle(order)
    if len(order) % 2:
        order.append(None)
    cost: dict[tuple[int, int], Cost] = {}
    for i, j in combinations(range(len(order)), 2):
        a, b = order[i], order[j]
        if a is not None and b is not None:
            cost[(i, j)] = (met[_key(a, b)], 0)
        else:
            cost[(i, j)] = (0, met_ai[_one(a, b)])
    ns_count = _ns_counts(history)
    matches = [(order[i], order[j]) for i, j in _matching(order, cost, rng)]
    rng.shuffle(matches)
    matches.sort(key=lambda m: None in m)  # the AI pair's table last
    tables = []
    for number_at, (a, b) in enumerate(matches, start=1):
        if a is None or (
            b is not None
            and (ns_count[a] > ns_count[b] or (ns_count[a] == ns_count[b] and rng.random() < 0.5))
        ):
            a, b = b, a
        tables.append(Table(number_at, (a, b, a, b)))
    return Round(number, tuple(tables))
