"""Scoring: matchpoints against the same seat at the other tables, skipped and AI-played
boards, standings with shared ranks and completion, checked against an independent
scorer written here from the rules in docs/events.md; and the asynchronous event's
results, hidden until it closes."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.competition.events.movement import Round, Table, seat_individual, seat_pairs
from bot.competition.events.scoring import (
    AsyncEntry,
    BoardScore,
    How,
    TableResult,
    async_results,
    matchpoints,
    running_standings,
    score_round,
    standings,
)

# ------------------------------------------------------------------ an independent scorer


def independent_scores(
    rounds: Sequence[Round], results: dict[int, list[TableResult]]
) -> dict[int, list[tuple[Fraction, bool]]]:
    """entrant -> [(percent, played by the entrant itself)] for every board it was seated
    for, from the rules as stated: a seat's result against the same seat's at the other
    tables that played the board, 1 a result beaten, ½ a tie, over their number (50
    alone); a skipped board 60 to the side that thought less, 40 the other, 50 equal;
    a seat the AI played for its player at most 50, and not played by the player."""
    out: dict[int, list[tuple[Fraction, bool]]] = defaultdict(list)
    for rnd in rounds:
        table_of = {t.number: t for t in rnd.tables}
        by_board: dict[int, list[TableResult]] = defaultdict(list)
        for r in results[rnd.number]:
            by_board[r.board].append(r)
        for board in sorted(by_board):
            for r in by_board[board]:
                seats = table_of[r.table].seats
                for seat in (0, 1):  # one entry per player: seats 0 and 2 share a side
                    for who_seat in (seat, seat + 2):
                        who = seats[who_seat]
                        if who is None:
                            continue
                        sign = 1 if seat == 0 else -1
                        if r.ns_result is None:
                            mine_t = r.ns_thinking if seat == 0 else r.ew_thinking
                            theirs_t = r.ew_thinking if seat == 0 else r.ns_thinking
                            pct = Fraction(
                                60 if mine_t < theirs_t else 40 if mine_t > theirs_t else 50
                            )
                            out[who].append((pct, False))
                            continue
                        mine = sign * r.ns_result
                        others = [
                            sign * o.ns_result
                            for o in by_board[board]
                            if o.table != r.table and o.ns_result is not None
                        ]
                        if others:
                            got = sum(
                                Fraction(1) if mine > o else Fraction(1, 2) if mine == o else 0
                                for o in others
                            ) + Fraction(0)
                            pct = 100 * got / len(others)
                        else:
                            pct = Fraction(50)
                        if who_seat in r.substituted:
                            out[who].append((min(pct, Fraction(50)), False))
                        else:
                            out[who].append((pct, True))
    return out


def independent_table(
    rounds: Sequence[Round], results: dict[int, list[TableResult]]
) -> list[tuple[str, int, Fraction, Fraction]]:
    """(rank label, entrant, average, completion), best first."""
    scores = independent_scores(rounds, results)
    boards_in = {rnd.number: len({r.board for r in results[rnd.number]}) for rnd in rounds}
    first = {}
    for rnd in rounds:
        for who in rnd.entrants:
            first.setdefault(who, rnd.number)
    lines = []
    for who, own in scores.items():
        average = sum((p for p, _ in own), Fraction(0)) / len(own)
        possible = sum(n for r, n in boards_in.items() if r >= first[who])
        lines.append((average, len(own), who, Fraction(sum(1 for _, me in own if me), possible)))
    lines.sort(key=lambda x: (-x[0], -x[1], x[2]))
    counts = Counter(x[0] for x in lines)
    out = []
    for average, _, who, completion in lines:
        rank = 1 + sum(1 for other in lines if other[0] > average)
        out.append((f"={rank}" if counts[average] > 1 else str(rank), who, average, completion))
    return out


def random_results(rnd: Round, boards: Sequence[int], rng: random.Random) -> list[TableResult]:
    """A result for every table and board: small scores (ties happen), now and then a
    seat played by the AI for an absent player, or a board skipped by the clock."""
    out = []
    for board in boards:
        for t in rnd.tables:
            humans = [s for s in range(4) if t.seats[s] is not None]
            # the last table is slow: its last board is always skipped
            skipped = rng.random() < 0.1 or (board == boards[-1] and t is rnd.tables[-1])
            out.append(
                TableResult(
                    board,
                    t.number,
                    None if skipped else rng.choice([-300, -100, -100, 0, 100, 100, 200, 500]),
                    frozenset(rng.sample(humans, 1)) if rng.random() < 0.15 else frozenset(),
                    rng.choice([100.0, 200.0, 300.0]),
                    rng.choice([100.0, 200.0, 300.0]),
                )
            )
    return out


@pytest.mark.parametrize("seed", range(4))
def test_16_members_4_rounds_of_4_boards_score_as_the_independent_scorer(seed: int) -> None:
    """Member 15 joins at round 2, member 3 is missing at round 3 (an AI fills both
    gaps); partners never repeat and opponents do not either; after every round the
    standings are the independent scorer's."""
    rng = random.Random(seed)
    members = list(range(16))
    fields = [
        [m for m in members if m != 15],
        members,
        [m for m in members if m != 3],
        members,
    ]
    history: list[Round] = []
    results: dict[int, list[TableResult]] = {}
    scores: list[BoardScore] = []
    for number, field in enumerate(fields, start=1):
        rnd = seat_individual(field, history, seed)
        history.append(rnd)
        boards = [4 * number - 3 + i for i in range(4)]
        results[number] = random_results(rnd, boards, rng)
        scores += score_round(rnd, results[number])
        mine = [(s.label, s.entrant, s.percent, s.completion) for s in standings(scores)]
        assert mine == independent_table(history, results)
        assert running_standings(scores)[number] == standings(scores)

    partners: Counter[frozenset[int]] = Counter()
    opponents: Counter[frozenset[int]] = Counter()
    for rnd in history:
        for t in rnd.tables:
            for a, b in combinations(range(4), 2):
                x, y = t.seats[a], t.seats[b]
                if x is not None and y is not None:
                    (partners if (a - b) % 2 == 0 else opponents)[frozenset((x, y))] += 1
    assert max(partners.values()) == 1 and max(opponents.values()) == 1
    final = {s.entrant: s for s in standings(scores)}
    assert final[15].boards == 12 and final[3].boards == 12 and final[0].boards == 16
    assert final[15].completion <= Fraction(12, 12) and final[3].completion <= Fraction(12, 16)


def test_matchpoints_one_a_result_beaten_a_half_a_tie() -> None:
    assert matchpoints([10, 0, 0, -5]) == [100, 50, 50, 0]
    assert matchpoints([7]) == [50]
    assert matchpoints([3, 3]) == [50, 50]
    assert matchpoints([1, 2, 3]) == [0, 50, 100]


@given(st.lists(st.integers(-2000, 2000), min_size=1, max_size=12))
def test_matchpoints_share_out_50_a_result_and_follow_the_order(results: list[int]) -> None:
    points = matchpoints(results)
    assert sum(points) == 50 * len(results)
    for (a, pa), (b, pb) in combinations(zip(results, points, strict=True), 2):
        assert 0 <= pa <= 100
        assert (a > b) == (pa > pb) and (a == b) == (pa == pb)


def four_tables(players: Sequence[int] = tuple(range(16))) -> Round:
    p = list(players)
    return Round(
        1,
        tuple(Table(i + 1, (p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3])) for i in range(4)),
    )


def by(scores: Sequence[BoardScore]) -> dict[tuple[int, int], BoardScore]:
    return {(s.board, s.entrant): s for s in scores}


def test_north_south_against_north_south_east_west_the_rest() -> None:
    rnd = four_tables()
    results = [
        TableResult(1, t, r) for t, r in zip((1, 2, 3, 4), (420, 100, 100, -50), strict=True)
    ]
    got = by(score_round(rnd, results))
    assert got[(1, 0)].percent == 100 and got[(1, 2)].percent == 100  # both of table 1's NS
    assert got[(1, 1)].percent == 0 and got[(1, 3)].percent == 0
    assert got[(1, 4)].percent == 50 and got[(1, 8)].percent == 50  # tie with each other
    assert got[(1, 12)].percent == 0 and got[(1, 13)].percent == 100
    for s in got.values():
        assert s.how is How.PLAYED and s.percent == s.earned


def test_a_skipped_board_leaves_the_comparison_and_goes_60_40() -> None:
    rnd = four_tables()
    results = [
        TableResult(1, 1, 100),
        TableResult(1, 2, 50),
        TableResult(1, 3, None, ns_thinking=400.0, ew_thinking=250.0),
        TableResult(1, 4, 50),
    ]
    got = by(score_round(rnd, results))
    assert got[(1, 0)].percent == 100  # beats tables 2 and 4 (table 3 left out)
    assert got[(1, 4)].percent == 25  # below table 1, ties table 4
    assert got[(1, 8)].percent == 40 and got[(1, 8)].how is How.SKIPPED  # NS thought longer
    assert got[(1, 9)].percent == 60


def test_a_seat_the_ai_played_counts_for_the_field_but_its_player_gets_at_most_50() -> None:
    rnd = four_tables()
    results = [
        TableResult(1, 1, 300, substituted=frozenset({0})),
        TableResult(1, 2, 100, substituted=frozenset({1})),
        TableResult(1, 3, 0),
        TableResult(1, 4, -100),
    ]
    got = by(score_round(rnd, results))
    assert got[(1, 0)].how is How.AI and got[(1, 0)].earned == 100 and got[(1, 0)].percent == 50
    assert got[(1, 2)].how is How.PLAYED and got[(1, 2)].percent == 100  # the partner keeps it
    assert got[(1, 5)].how is How.AI and got[(1, 5)].percent == Fraction(100, 3)  # below 50: kept
    assert got[(1, 8)].percent == Fraction(100, 3)  # table 1's result still counts for table 3


def test_ai_seats_that_fill_the_field_score_for_no_one() -> None:
    rnd = seat_individual(list(range(7)), [], 1)
    results = [TableResult(1, t.number, 10 * t.number) for t in rnd.tables]
    scores = score_round(rnd, results)
    assert sorted(s.entrant for s in scores) == list(range(7))


def test_a_pairs_event_scores_each_pair_once_a_board() -> None:
    rnd = seat_pairs([10, 20, 30, 40, 50], [], 0)
    results = [TableResult(b, t.number, 10 * t.number - 15 * b) for b in (1, 2) for t in rnd.tables]
    scores = score_round(rnd, results)
    assert Counter(s.entrant for s in scores) == {p: 2 for p in (10, 20, 30, 40, 50)}
    for board in (1, 2):
        for t in rnd.tables:
            if t.seats[1] is not None:
                pair = {s.entrant: s.percent for s in scores if s.board == board}
                assert pair[t.seats[0]] + pair[t.seats[1]] == 100  # type: ignore[index]


def test_ties_share_a_rank_and_low_completion_is_unranked() -> None:
    def s(entrant: int, board: int, pct: int, how: How = How.PLAYED, rnd: int = 1) -> BoardScore:
        return BoardScore(rnd, board, entrant, Fraction(pct), Fraction(pct), how)

    scores = [
        s(1, 1, 70),
        s(1, 2, 50),
        s(2, 1, 50),
        s(2, 2, 70),
        s(3, 1, 40),
        s(3, 2, 40),
        s(4, 1, 90, How.AI),
        s(4, 2, 90, How.AI),
    ]
    table = standings(scores)
    assert [(x.label, x.entrant) for x in table] == [("1", 4), ("=2", 1), ("=2", 2), ("4", 3)]
    assert table[0].completion == 0 and table[1].completion == 1
    table = standings(scores, min_completion=Fraction(1, 2))
    assert [(x.label, x.entrant) for x in table] == [("=1", 1), ("=1", 2), ("3", 3), ("-", 4)]


def test_a_late_joiners_completion_counts_from_its_first_round() -> None:
    scores = [
        BoardScore(r, b, who, Fraction(50), Fraction(50), How.PLAYED)
        for r, b in ((1, 1), (1, 2), (2, 3), (2, 4))
        for who in (1, 2)
        if not (who == 2 and r == 1)
    ] + [BoardScore(3, 5, 1, Fraction(50), Fraction(50), How.PLAYED)]
    table = {x.entrant: x for x in standings(scores)}
    assert table[1].completion == 1
    assert table[2].completion == Fraction(2, 3)  # rounds 2 and 3: 3 boards, it played 2
    assert running_standings(scores)[1] == standings(scores[:2])


def test_a_round_with_a_result_missing_or_twice_is_refused() -> None:
    rnd = four_tables()
    with pytest.raises(ValueError, match="no result"):
        score_round(rnd, [TableResult(1, t, 0) for t in (1, 2, 3)])
    with pytest.raises(ValueError, match="two results"):
        score_round(rnd, [TableResult(1, t, 0) for t in (1, 2, 3, 4, 4)])
    with pytest.raises(ValueError, match="no table"):
        score_round(rnd, [TableResult(1, t, 0) for t in (1, 2, 3, 4, 5)])


# ------------------------------------------------------------------ asynchronous


def test_an_asynchronous_event_is_hidden_until_it_closes_then_unplayed_boards_score_25() -> None:
    entries = [
        AsyncEntry(1, 1, 100),
        AsyncEntry(1, 2, 30),
        AsyncEntry(2, 1, 50),
        AsyncEntry(2, 2, None),  # started, not finished
        AsyncEntry(3, 1, 100),
        AsyncEntry(3, 2, 80),
    ]
    open_ = async_results([1, 2, 3, 4], [1, 2], entries, closed=False)
    assert open_.scores is None and open_.standings is None
    assert open_.progress == {1: 2, 2: 1, 3: 2, 4: 0}
    assert not open_.all_played()

    closed = async_results([1, 2, 3, 4], [1, 2], entries, closed=True)
    assert closed.standings is not None and closed.scores is not None
    got = {(s.board, s.entrant): s for s in closed.scores}
    assert got[(1, 1)].percent == 75 and got[(1, 3)].percent == 75 and got[(1, 2)].percent == 0
    assert got[(2, 1)].percent == 0 and got[(2, 3)].percent == 100
    assert got[(2, 2)].percent == 25 and got[(2, 2)].how is How.UNPLAYED
    assert got[(1, 4)].percent == 25 and got[(2, 4)].percent == 25
    table = {s.entrant: s for s in closed.standings}
    assert table[3].percent == Fraction(175, 2) and table[3].rank == 1
    assert table[1].percent == Fraction(75, 2) and table[1].completion == 1
    assert table[2].percent == Fraction(25, 2) and table[2].completion == Fraction(1, 2)
    assert table[4].percent == 25 and table[4].completion == 0


def test_an_asynchronous_event_knows_when_every_board_is_played() -> None:
    entries = [AsyncEntry(p, b, p - b) for p in (1, 2) for b in (1, 2, 3)]
    assert async_results([1, 2], [1, 2, 3], entries, closed=False).all_played()
    with pytest.raises(ValueError):
        async_results([1], [1], [AsyncEntry(1, 9, 0)], closed=True)
