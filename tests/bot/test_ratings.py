"""Ratings (bot/store/ratings.py) without a database: the teams of finished games, the
openskill update, AI levels, the texts of /ruff leaderboard and /ruff stats."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from bot.competition.ratings import MIN_GAMES, MODEL, Entrant, Team, teams_to_json
from bot.features.info.info import leaderboard_text, plural, stats_text
from bot.store import AISeat, HumanSeat, RatingChange, RatingEventRow, RatingRow, Seat, ratings
from bot.store.ratings import rate, teams_from_game
from engine import Game, make_rules
from engine.game import new_game

GUILD = 77


def played(game_id: str, seed: int, overrides: Mapping[str, object] | None = None) -> Game:
    """A game of ``game_id`` played to its end by random legal moves."""
    game, _ = new_game(rules=make_rules(game_id, None, overrides), seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act()
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def people(n: int) -> list[Seat | None]:
    return [HumanSeat(100 + i, f"p{i}") for i in range(n)]


def keys(team: Team) -> list[str]:
    return [e.key for e in team.players]


def event(teams: Sequence[Team], table_id: int = 1, game_id: str = "g") -> RatingEventRow:
    return RatingEventRow(table_id, GUILD, game_id, teams_to_json(teams), "game", 1000.0 + table_id)


def team(rank: int, *names: str) -> Team:
    return Team(rank, tuple(Entrant(n, n, None) for n in names))


# ---------------------------------------------------------------- teams of finished games


def test_partnerships_are_two_teams_and_the_match_winner_is_first() -> None:
    game = played("ruff-honours-cotton", 5)
    teams = teams_from_game(people(4), game)
    assert [sorted(keys(t)) for t in teams] == [["100", "102"], ["101", "103"]]
    winner = game.match_winner
    assert [t.rank for t in teams] == [0 if s == winner else 1 for s in (0, 1)]


def test_a_solo_whist_contract_is_one_against_three() -> None:
    game = played("solo-whist", 5)  # one deal: seat 0 against 1, 2, 3; the defenders won
    assert sorted(map(sorted, game.seating.sides)) == [[0], [1, 2, 3]]
    teams = teams_from_game(people(4), game)
    by_size = sorted(teams, key=lambda t: len(t.players))
    assert keys(by_size[0]) == ["100"] and sorted(keys(by_size[1])) == ["101", "102", "103"]
    assert by_size[1].rank == 0 and by_size[0].rank == 1  # all three defenders share the win


def test_a_solo_whist_game_of_several_deals_ranks_each_player_by_score() -> None:
    game = played("solo-whist", 6, {"target_score": "10"})  # scores 16, -16, -16, 16; seat 3 wins
    assert list(game.scores) == [16, -16, -16, 16] and game.match_winner == 3
    teams = teams_from_game(people(4), game)
    assert all(len(t.players) == 1 for t in teams)
    assert {keys(t)[0]: t.rank for t in teams} == {"103": 0, "100": 1, "101": 2, "102": 2}


def test_three_handed_ruffe_and_trump_and_turnover_bridge_rate_each_player() -> None:
    game = played("ruff-trump-willughby", 6, {"players": "3"})
    teams = teams_from_game(people(3), game)
    assert sorted(len(t.players) for t in teams) == [1, 1, 1]
    first = [keys(t)[0] for t in teams if t.rank == 0]
    assert first == [str(100 + (game.match_winner or 0))]
    game = played("turnover-bridge", 5)
    teams = teams_from_game(people(2), game)
    assert {keys(t)[0]: t.rank for t in teams} == {"100": 0, "101": 1}


def test_ai_seats_are_rated_by_level() -> None:
    game = played("ruff-honours-cotton", 6)
    seats: list[Seat | None] = [
        HumanSeat(1, "ann"),
        AISeat("hard", "Hal"),
        AISeat("easy", "Eve"),
        None,
    ]
    teams = teams_from_game(seats, game)
    names = {e.key: e.name for t in teams for e in t.players}
    assert names == {
        "1": "ann",
        "ai:hard": "AI hard",
        "ai:easy": "AI easy",
        "ai:normal": "AI normal",
    }


# ---------------------------------------------------------------- the update


def test_a_table_with_ai_seats_gives_the_ai_level_its_rating() -> None:
    seats: list[Seat | None] = [
        HumanSeat(1, "ann"),
        AISeat("hard", "H1"),
        AISeat("hard", "H2"),
        AISeat("hard", "H3"),
    ]
    game = played("ruff-honours-cotton", 5)  # side 1 (seats 1 and 3: hard, hard) wins
    assert game.match_winner == 1
    outcome = rate(event(teams_from_game(seats, game)), {})
    after = {r.player: r for r in outcome.ratings}
    assert set(after) == {"1", "ai:hard"}
    hard = after["ai:hard"]
    assert hard.games == 1 and hard.wins == 0  # it sat on the losing side too: no win
    assert after["1"].games == 1 and after["1"].wins == 0
    # hard played three seats: +2 winning seats, -1 losing seat (ann's partner)
    assert hard.mu > MODEL.mu > after["1"].mu
    # three humans against each other and one hard AI: the AI's win is its own
    seats = [HumanSeat(1, "a"), AISeat("hard", "H"), HumanSeat(3, "c"), HumanSeat(4, "d")]
    outcome = rate(event(teams_from_game(seats, game)), {})
    after = {r.player: r for r in outcome.ratings}
    assert after["ai:hard"].wins == 1 and after["ai:hard"].mu > MODEL.mu


def test_an_ai_level_on_both_sides_learns_nothing_from_playing_itself() -> None:
    teams = [team(0, "ai:hard", "x"), team(1, "ai:hard", "y")]
    after = {r.player: r for r in rate(event(teams), {}).ratings}
    assert abs(after["ai:hard"].mu - MODEL.mu) < 1e-9
    assert after["x"].mu > MODEL.mu > after["y"].mu


def test_ties_share_a_rank_and_are_rated_as_ties() -> None:
    outcome = rate(event([team(0, "a"), team(1, "b"), team(1, "c")]), {})
    after = {r.player: r for r in outcome.ratings}
    assert after["b"].mu == after["c"].mu < MODEL.mu < after["a"].mu
    assert [c.won for c in outcome.changes] == [True, False, False]


def test_the_shown_rating_is_openskills_ordinal() -> None:
    row = RatingRow(GUILD, "g", "1", "ann", 27.5, 4.25, 3, 2, 0.0)
    assert row.conservative == PlackettLuce().rating(mu=27.5, sigma=4.25).ordinal()


ratings_st = st.tuples(st.floats(0.0, 50.0), st.floats(0.5, 25 / 3))


@settings(max_examples=500, deadline=None)
@given(st.lists(ratings_st, min_size=4, max_size=4), st.booleans())
def test_in_a_2v2_result_winners_never_lose_rating_and_losers_never_gain(
    values: list[tuple[float, float]], north_south_won: bool
) -> None:
    current = {
        k: RatingRow(GUILD, "g", k, k, mu, sigma, 5, 2, 0.0)
        for k, (mu, sigma) in zip("nesw", values, strict=True)
    }
    winners, losers = ("ns", "ew") if north_south_won else ("ew", "ns")
    outcome = rate(event([team(0, *winners), team(1, *losers)]), current)
    after = {r.player: r for r in outcome.ratings}
    for k in winners:
        assert after[k].mu >= current[k].mu
        assert after[k].conservative >= current[k].conservative  # what the leaderboard shows
        assert after[k].wins == current[k].wins + 1
    for k in losers:
        assert after[k].mu <= current[k].mu
        assert after[k].conservative <= current[k].conservative
        assert after[k].wins == current[k].wins
    assert all(r.sigma <= current[r.player].sigma for r in outcome.ratings)
    assert all(r.games == 6 for r in outcome.ratings)


def test_replaying_events_in_order_equals_rating_them_one_by_one() -> None:
    rng = random.Random(3)
    events = []
    for table_id in range(1, 40):
        four = rng.sample(["a", "b", "c", "d", "e", "ai:hard"], 4)
        events.append(
            event([team(0, *four[:2]), team(1, *four[2:])], table_id, rng.choice(["g", "h"]))
        )
    rows, history = ratings.replay_all(events)
    state: dict[tuple[str, str], RatingRow] = {}
    for e in events:
        for r in rate(e, {k: v for (g, k), v in state.items() if g == e.game_id}).ratings:
            state[(r.game_id, r.player)] = r
    assert {(r.game_id, r.player): r for r in rows} == state
    assert len(history) == 4 * len(events)


# ---------------------------------------------------------------- texts


def rating(
    player: str, name: str, mu: float, sigma: float, games: int, wins: int, rank: int | None = None
) -> RatingRow:
    return RatingRow(GUILD, "ruff-honours-cotton", player, name, mu, sigma, games, wins, 0.0, rank)


def test_plural_forms() -> None:
    assert [plural(n, "game") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]


def test_the_leaderboard_is_one_short_line_a_player() -> None:
    rows = [
        rating("1", "alice", 30.0, 4.0, 5, 3, 1),
        rating("ai:hard", "AI hard", 28.0, 4.0, 12, 7, 2),
        rating("2", "b*o*b_with_a_name_far_too_long_for_a_phone", 27.0, 5.0, 3, 1, 3),
    ]
    text = leaderboard_text(
        "Card Room",
        "ruff-honours-cotton",
        rows,
        0,
        1,
        [rating("3", "carol", 25.0, 8.0, 1, 1)],
        1,
        [("whist-5", 2)],
    )
    lines = text.splitlines()
    assert lines[0] == "🏆 **Leaderboard — Card Room** · Ruff and Honours"
    assert f"ranked from {MIN_GAMES} games" in lines[1]
    assert lines[2] == "1. alice **18.0** · 5 games · 60%"
    assert lines[3] == "2. AI hard **16.0** · 12 games · 58%"
    assert (
        lines[4].startswith("3. b\\*o\\*b\\_with")
        and "…" in lines[4]
        and "12.0** · 3 games · 33%" in lines[4]
    )
    assert lines[5] == f"Not yet ranked (under {MIN_GAMES} games):"
    assert lines[6] == "· carol **1.0** · 1 game · 100%"
    assert "`whist-5` (2 games)" in lines[7]
    assert all(len(line) <= 60 for line in lines[2:7])


def test_stats_show_rating_mu_sigma_games_wins_and_history() -> None:
    row = rating("1", "alice", 30.0, 4.0, 1, 1, None)
    change = RatingChange(12, "1", GUILD, "ruff-honours-cotton", True, 25.0, 25 / 3, 30.0, 4.0, 0.0)
    text = stats_text("alice", "Card Room", [row], {"ruff-honours-cotton": 0}, [change])
    assert text.splitlines() == [
        "📊 **alice** — Ruff and Honours in Card Room",
        f"Rating **18.0** (μ 30.0, σ 4.0) · ranked after {MIN_GAMES} games",
        "1 game · 1 win (100%)",
        "Last rating changes:",
        "· #12 won: 0.0 → 18.0 (+18.0)",
    ]
    lost = RatingChange(13, "1", GUILD, "whist-5", False, 30.0, 4.0, 28.0, 3.9, 0.0)
    rows = [
        rating("1", "alice", 28.0, 3.9, 4, 2, 1),
        RatingRow(GUILD, "whist-5", "1", "alice", 20.0, 7.0, 2, 0, 0.0),
    ]
    text = stats_text("alice", "Card Room", rows, {"ruff-honours-cotton": 3}, [lost])
    assert "· Ruff and Honours: **16.3** (μ 28.0, σ 3.9) · 4 games · 2 wins (50%) · #1 of 3" in text
    assert "· Whist 5-Point: **−1.0** (μ 20.0, σ 7.0) · 2 games · 0 wins (0%)" in text
    assert "· #13 Whist 5-Point, lost: 18.0 → 16.3 (−1.7)" in text
