"""Swiss pairs: fixed partnerships meet pair against pair over a round's boards, each
round paired from the standings so far, by networkx's maximum-weight matching.

A round's match is won by the pair whose side scored more points over the round's
boards at their table (a skipped board counts no points): a win scores 1, a draw ½, a
loss 0, and a bye 1. The standings rank by score, then Buchholz (the sum of the
scores of the pairs met, a bye adding nothing), then the pair's average board
percentage (its matchpoints against the field, from :mod:`.scoring`); pairs equal on
all three share a rank. The seeding order (the field's order as given: by rating, or
a seeded draw) breaks what is left, for pairing only.

Pairing a round:

1. An odd field gives a bye: to the lowest-ranked pair among those with the fewest
   byes whose absence leaves a pairing with no rematch; if every choice forces a
   rematch, to the one that forces fewest (then the lowest-ranked).
2. The others are matched to the least cost, compared edge-sum by edge-sum in this
   order: rematches (each earlier meeting of the two pairs counts 1); the squared
   score gap in half points (pairs stay in their score group, floating as little as
   possible); direction clashes (both pairs due the same direction, having sat it
   less often); the rank distance (the Monrad order of bridge Swiss events: 1 meets 2,
   3 meets 4, where the groups allow).

The levels are folded into one integer weight per edge (:func:`plan_round`), and the
matching of most weight among the perfect ones is the least-cost pairing. At each
table the pair that sat north-south less often takes north-south, the higher-ranked
when equal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import networkx as nx

__all__ = [
    "Match",
    "Pairing",
    "RoundPlan",
    "SwissStanding",
    "match_points",
    "pair_round",
    "plan_round",
    "swiss_standings",
]


@dataclass(frozen=True, slots=True)
class Match:
    """One pair's round: ``ns`` against ``ew``, or ``ew`` None for a bye. ``ns_net`` is
    the points ``ns``'s side made over the round's boards less ``ew``'s (0 for a bye or
    a match not yet finished: see ``finished``)."""

    round: int
    ns: int
    ew: int | None
    ns_net: int = 0
    finished: bool = True


def match_points(match: Match, pair: int) -> Fraction:
    """What ``match`` scores for ``pair``: 1 a win or a bye, ½ a draw, 0 a loss."""
    if match.ew is None:
        return Fraction(1)
    net = match.ns_net if pair == match.ns else -match.ns_net
    return Fraction(1) if net > 0 else Fraction(1, 2) if net == 0 else Fraction(0)


@dataclass(frozen=True, slots=True)
class SwissStanding:
    rank: int
    tied: bool  # another pair shares the rank: shown "=3"
    pair: int
    score: Fraction
    buchholz: Fraction
    percent: Fraction | None  # average board matchpoints, None before any board
    played: int  # matches, byes left out
    byes: int

    @property
    def label(self) -> str:
        return f"={self.rank}" if self.tied else str(self.rank)


def swiss_standings(
    pairs: Sequence[int],
    matches: Sequence[Match],
    percent: Mapping[int, Fraction] | None = None,
) -> tuple[SwissStanding, ...]:
    """The standings of ``pairs`` (in seeding order) after the finished ``matches``."""
    percent = percent or {}
    done = [m for m in matches if m.finished]
    score: dict[int, Fraction] = {p: Fraction(0) for p in pairs}
    met: dict[int, list[int]] = {p: [] for p in pairs}
    byes: Counter[int] = Counter()
    for m in done:
        for p in (m.ns, m.ew):
            if p is not None:
                score.setdefault(p, Fraction(0))
                met.setdefault(p, [])
                score[p] += match_points(m, p)
        if m.ew is None:
            byes[m.ns] += 1
        else:
            met[m.ns].append(m.ew)
            met[m.ew].append(m.ns)
    seeding = {p: i for i, p in enumerate(pairs)}
    everyone = sorted(score, key=lambda p: seeding.get(p, len(seeding) + p))
    buchholz = {p: sum((score[q] for q in met[p]), Fraction(0)) for p in everyone}

    def key(p: int) -> tuple[Fraction, Fraction, Fraction]:
        mine = percent.get(p)
        return score[p], buchholz[p], mine if mine is not None else Fraction(-1)

    order = sorted(everyone, key=lambda p: tuple(-x for x in key(p)))  # stable: seeding
    out: list[SwissStanding] = []
    for i, p in enumerate(order):
        rank = i + 1
        if i and key(order[i - 1]) == key(p):
            rank = out[-1].rank
        tied = (i > 0 and key(order[i - 1]) == key(p)) or (
            i + 1 < len(order) and key(order[i + 1]) == key(p)
        )
        out.append(
            SwissStanding(
                rank, tied, p, score[p], buchholz[p], percent.get(p), len(met[p]), byes[p]
            )
        )
    return tuple(out)


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """What a round's matching works on: the ranking (best first, the bye left out), the
    bye, and the integer weight of every possible table (a key ``(a, b)`` with ``a``
    ranked above ``b``). The pairing is the perfect matching of most total weight."""

    round: int
    ranking: tuple[int, ...]
    bye: int | None
    weights: Mapping[tuple[int, int], int]


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's tables as ``(north-south pair, east-west pair)``, best-ranked table
    first, the bye, and the matching's total weight."""

    round: int
    tables: tuple[tuple[int, int], ...]
    bye: int | None
    weight: int


def _met(matches: Sequence[Match]) -> Counter[tuple[int, int]]:
    met: Counter[tuple[int, int]] = Counter()
    for m in matches:
        if m.ew is not None:
            met[(min(m.ns, m.ew), max(m.ns, m.ew))] += 1
    return met


def _weights(
    ranking: Sequence[int],
    score: Mapping[int, Fraction],
    met: Counter[tuple[int, int]],
    ns_lean: Mapping[int, int],
) -> dict[tuple[int, int], int]:
    n = len(ranking)
    costs: dict[tuple[int, int], tuple[int, int, int, int]] = {}
    for i, j in combinations(range(n), 2):
        a, b = ranking[i], ranking[j]
        gap = int(2 * (score[a] - score[b]))
        lean_a, lean_b = ns_lean[a], ns_lean[b]
        clash = 1 if (lean_a > 0 and lean_b > 0) or (lean_a < 0 and lean_b < 0) else 0
        costs[(a, b)] = (met[(min(a, b), max(a, b))], gap * gap, clash, j - i)
    if not costs:
        return {}
    base = max(max(c) for c in costs.values()) * n + 1  # above any level's matching total
    scalar = {}
    for edge, c in costs.items():
        value = 0
        for level in c:
            value = value * base + level
        scalar[edge] = value
    top = max(scalar.values()) + 1
    return {edge: top - value for edge, value in scalar.items()}


def _match(weights: Mapping[tuple[int, int], int], field: Sequence[int]) -> list[tuple[int, int]]:
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(field)
    for (a, b), w in weights.items():
        graph.add_edge(a, b, weight=w)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matched) != len(field):
        raise AssertionError("an even field always has a perfect matching")
    return list(matched)


def _rematches(pairs: Sequence[tuple[int, int]], met: Counter[tuple[int, int]]) -> int:
    return sum(met[(min(a, b), max(a, b))] for a, b in pairs)


def _lean(pairs: Sequence[int], matches: Sequence[Match]) -> Counter[int]:
    """North-south rounds less east-west rounds, per pair (byes left out)."""
    lean: Counter[int] = Counter({p: 0 for p in pairs})
    for m in matches:
        if m.ew is not None:
            lean[m.ns] += 1
            lean[m.ew] -= 1
    return lean


def plan_round(
    pairs: Sequence[int],
    matches: Sequence[Match],
    percent: Mapping[int, Fraction] | None = None,
) -> RoundPlan:
    """The next round's ranking, bye and edge weights for the field ``pairs`` (those
    playing this round, in seeding order) after the finished ``matches``."""
    if len(set(pairs)) != len(pairs):
        raise ValueError("a pair is listed twice")
    done = [m for m in matches if m.finished]
    number = max((m.round for m in matches), default=0) + 1
    table = swiss_standings(pairs, done, percent)
    present = set(pairs)
    ranking = [s.pair for s in table if s.pair in present]
    score = {s.pair: s.score for s in table}
    met = _met(done)
    lean = _lean(pairs, done)
    if len(ranking) % 2 == 0:
        return RoundPlan(number, tuple(ranking), None, _weights(ranking, score, met, lean))
    byes = {s.pair: s.byes for s in table}
    fewest = min(byes[p] for p in ranking)
    candidates = [p for p in reversed(ranking) if byes[p] == fewest]
    best: tuple[int, RoundPlan] | None = None
    for bye in candidates:
        field = [p for p in ranking if p != bye]
        weights = _weights(field, score, met, lean)
        plan = RoundPlan(number, tuple(field), bye, weights)
        forced = _rematches(_match(weights, field), met) if field else 0
        if best is None or forced < best[0]:
            best = (forced, plan)
        if forced == 0:
            break
    assert best is not None
    return best[1]


def pair_round(
    pairs: Sequence[int],
    matches: Sequence[Match],
    percent: Mapping[int, Fraction] | None = None,
) -> Pairing:
    """The next round's pairing of ``pairs`` (see the module's doc)."""
    plan = plan_round(pairs, matches, percent)
    if not plan.ranking:
        return Pairing(plan.round, (), plan.bye, 0)
    rank = {p: i for i, p in enumerate(plan.ranking)}
    lean = _lean(pairs, [m for m in matches if m.finished])
    tables = []
    weight = 0
    for a, b in _match(plan.weights, plan.ranking):
        if rank[a] > rank[b]:
            a, b = b, a
        weight += plan.weights[(a, b)]
        tables.append((a, b) if lean[a] <= lean[b] else (b, a))
    tables.sort(key=lambda t: min(rank[t[0]], rank[t[1]]))
    return Pairing(plan.round, tuple(tables), plan.bye, weight)
