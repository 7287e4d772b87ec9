"""Swiss pairs: no rematch while avoidable, fair byes, score groups kept, and the pairing
the optimum of its weights (checked by trying every pairing) and of the stated order of
costs (computed here again from the rules, not from the module's weights)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction

import pytest

from bot.competition.events.swiss import (
    Match,
    Pairing,
    match_points,
    pair_round,
    plan_round,
    swiss_standings,
)


def all_pairings(field: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of ``field`` (an even number of pairs)."""
    if not field:
        yield []
        return
    first, rest = field[0], field[1:]
    for i, other in enumerate(rest):
        for more in all_pairings([*rest[:i], *rest[i + 1 :]]):
            yield [(first, other), *more]


def play(pairing: Pairing, rng: random.Random) -> list[Match]:
    """The round's matches, with random net scores (a draw now and then)."""
    out = [
        Match(pairing.round, ns, ew, rng.choice([-120, -50, 0, 30, 90, 400]))
        for ns, ew in pairing.tables
    ]
    if pairing.bye is not None:
        out.append(Match(pairing.round, pairing.bye, None))
    return out


def run(n: int, rounds: int, seed: int) -> tuple[list[int], list[Match], list[Pairing]]:
    rng = random.Random(seed)
    pairs = [1000 + 17 * i for i in range(n)]
    matches: list[Match] = []
    pairings = []
    for _ in range(rounds):
        pairing = pair_round(pairs, matches)
        pairings.append(pairing)
        matches += play(pairing, rng)
    return pairs, matches, pairings


def brute_force_weight(plan_weights: dict[tuple[int, int], int], field: Sequence[int]) -> int:
    def weight(a: int, b: int) -> int:
        return plan_weights[(a, b)] if (a, b) in plan_weights else plan_weights[(b, a)]

    return max(sum(weight(a, b) for a, b in p) for p in all_pairings(list(field)))


def stated_cost(
    tables: Sequence[tuple[int, int]],
    pairs: Sequence[int],
    matches: Sequence[Match],
    position: dict[int, int],
) -> tuple[int, int, int, int]:
    """The cost of ``tables`` as docs/events.md states it: (rematches, squared score gaps
    in half points, direction clashes, rank distance), each summed over the tables."""
    score = {
        p: sum((match_points(m, p) for m in matches if p in (m.ns, m.ew)), Fraction(0))
        for p in pairs
    }
    met = Counter(frozenset((m.ns, m.ew)) for m in matches if m.ew is not None)
    lean = Counter({p: 0 for p in pairs})
    for m in matches:
        if m.ew is not None:
            lean[m.ns] += 1
            lean[m.ew] -= 1
    rematch = gap = clash = distance = 0
    for a, b in tables:
        rematch += met[frozenset((a, b))]
        gap += int(2 * (score[a] - score[b])) ** 2
        clash += (lean[a] > 0 and lean[b] > 0) or (lean[a] < 0 and lean[b] < 0)
        distance += abs(position[a] - position[b])
    return rematch, gap, clash, distance


@pytest.mark.parametrize("seed", range(3))
def test_12_pairs_over_5_rounds_no_rematch_and_the_library_optimum(seed: int) -> None:
    rng = random.Random(seed)
    pairs = [1000 + 17 * i for i in range(12)]
    matches: list[Match] = []
    met: set[frozenset[int]] = set()
    for number in range(1, 6):
        plan = plan_round(pairs, matches)
        pairing = pair_round(pairs, matches)
        assert pairing.round == number and pairing.bye is None
        seated = [p for t in pairing.tables for p in t]
        assert sorted(seated) == sorted(pairs)
        for ns, ew in pairing.tables:
            assert frozenset((ns, ew)) not in met, "a rematch"
            met.add(frozenset((ns, ew)))
        assert pairing.weight == brute_force_weight(dict(plan.weights), plan.ranking)
        matches += play(pairing, rng)


@pytest.mark.parametrize(("n", "seed"), [(11, 1), (11, 2), (13, 3), (13, 4), (7, 5)])
def test_an_odd_field_gives_the_bye_to_the_lowest_ranked_without_one(n: int, seed: int) -> None:
    rng = random.Random(seed)
    pairs = [1000 + 17 * i for i in range(n)]
    matches: list[Match] = []
    met: set[frozenset[int]] = set()
    for _ in range(5):
        table = swiss_standings(pairs, matches)
        pairing = pair_round(pairs, matches)
        byes = Counter(m.ns for m in matches if m.ew is None)
        without = [s.pair for s in table if byes[s.pair] == 0]
        assert pairing.bye == without[-1], "the lowest-ranked pair that had no bye"
        for ns, ew in pairing.tables:
            assert frozenset((ns, ew)) not in met
            met.add(frozenset((ns, ew)))
        matches += play(pairing, rng)
    byes = Counter(m.ns for m in matches if m.ew is None)
    assert len(byes) == 5 and set(byes.values()) == {1}, "five byes, five pairs"


@pytest.mark.parametrize("n", range(2, 11))
def test_the_pairing_is_the_optimum_by_brute_force_on_small_fields(n: int) -> None:
    """Against every pairing: the same total weight, and the same least cost in the order
    the rules state (rematches, squared score gap in half points, direction clashes,
    rank distance), computed here from the matches."""
    rng = random.Random(n)
    pairs = list(range(1, n + 1))
    matches: list[Match] = []
    for _ in range(min(4, n)):
        plan = plan_round(pairs, matches)
        pairing = pair_round(pairs, matches)
        assert pairing.weight == brute_force_weight(dict(plan.weights), plan.ranking)

        position = {p: i for i, p in enumerate(plan.ranking)}
        best = min(stated_cost(t, pairs, matches, position) for t in all_pairings(plan.ranking))
        assert stated_cost(pairing.tables, pairs, matches, position) == best
        matches += play(pairing, rng)


def test_round_one_pairs_by_seeding_1_against_2() -> None:
    pairing = pair_round([5, 3, 8, 1, 9, 4], [])
    assert pairing.tables == ((5, 3), (8, 1), (9, 4))
    assert pairing.bye is None
    odd = pair_round([5, 3, 8, 1, 9], [])
    assert odd.bye == 9 and odd.tables == ((5, 3), (8, 1))


def test_winners_meet_winners() -> None:
    pairs = list(range(1, 9))
    matches = [Match(1, 1, 2, 50), Match(1, 3, 4, -10), Match(1, 5, 6, 20), Match(1, 7, 8, -30)]
    winners = {1, 4, 5, 8}
    pairing = pair_round(pairs, matches)
    for ns, ew in pairing.tables:
        assert (ns in winners) == (ew in winners)


def test_a_rematch_only_when_unavoidable() -> None:
    # two pairs, two rounds: the second round can only be a rematch
    matches = [Match(1, 1, 2, 10)]
    pairing = pair_round([1, 2], matches)
    assert pairing.tables in (((1, 2),), ((2, 1),))
    # four pairs after three rounds have met everyone: round 4 repeats, once a table
    _, _, pairings = run(4, 4, seed=0)
    met = Counter(frozenset(t) for p in pairings for t in p.tables)
    assert max(met.values()) == 2 and sum(v == 2 for v in met.values()) == 2


def test_standings_score_buchholz_then_board_percentage_and_shared_ranks() -> None:
    pairs = [1, 2, 3, 4]
    matches = [Match(1, 1, 2, 50), Match(1, 3, 4, 0), Match(2, 1, 3, 20), Match(2, 2, 4, 0)]
    # scores: 1 -> 2, 2 -> 1/2, 3 -> 1/2, 4 -> 1
    table = swiss_standings(pairs, matches, {2: Fraction(48), 3: Fraction(48)})
    by_pair = {s.pair: s for s in table}
    assert by_pair[1].score == 2 and by_pair[4].score == 1
    assert by_pair[1].buchholz == Fraction(1)  # met 2 (1/2) and 3 (1/2)
    assert by_pair[4].buchholz == Fraction(1)  # met 3 (1/2) and 2 (1/2)
    assert by_pair[2].buchholz == Fraction(3)  # met 1 (2) and 4 (1)
    assert by_pair[3].buchholz == Fraction(3)  # met 4 (1) and 1 (2)
    assert [s.pair for s in table] == [1, 4, 2, 3]
    assert [s.label for s in table] == ["1", "2", "=3", "=3"]
    untied = swiss_standings(pairs, matches, {2: Fraction(47), 3: Fraction(48)})
    assert [s.label for s in untied] == ["1", "2", "3", "4"] and untied[2].pair == 3


def test_a_bye_scores_a_win_and_adds_nothing_to_buchholz() -> None:
    matches = [Match(1, 1, 2, 10), Match(1, 3, None)]
    table = {s.pair: s for s in swiss_standings([1, 2, 3], matches)}
    assert table[3].score == 1 and table[3].buchholz == 0 and table[3].byes == 1
    assert table[3].played == 0 and table[1].played == 1


def test_unfinished_matches_do_not_count() -> None:
    matches = [Match(1, 1, 2, 10, finished=False)]
    assert all(s.score == 0 for s in swiss_standings([1, 2], matches))


def test_a_late_pair_enters_on_nothing_and_an_absent_pair_is_not_paired() -> None:
    pairs = [1, 2, 3, 4, 5, 6]
    matches = [Match(1, 1, 2, 10), Match(1, 3, 4, 10), Match(1, 5, 6, 10)]
    matches += [Match(2, 1, 3, 10), Match(2, 5, 2, 10), Match(2, 4, 6, 10)]
    # round 3: pair 6 is absent, pair 7 joins: 6 pairs again, pair 7 on 0
    pairing = pair_round([1, 2, 3, 4, 5, 7], matches)
    seated = {p for t in pairing.tables for p in t}
    assert seated == {1, 2, 3, 4, 5, 7} and pairing.bye is None
    table = {s.pair: s for s in swiss_standings([*pairs, 7], matches)}
    assert table[7].score == 0 and table[7].played == 0
    opponent_of_7 = next(a if b == 7 else b for a, b in pairing.tables if 7 in (a, b))
    assert table[opponent_of_7].score == min(table[p].score for p in (1, 2, 3, 4, 5))


def test_a_pair_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError):
        pair_round([1, 2, 2], [])
