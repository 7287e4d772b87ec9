"""The competition maths (bot/competition/), pure: duplicate scoring of boards
played alone, and what one rated table does to its players."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from bot.competition.duplicate import matchpoints, percentile, standings
from bot.competition.ratings import MODEL, Entrant, Skill, Team, rate_teams


@dataclass(frozen=True)
class Played:
    board: str
    user_id: int
    result: int | None
    guild_id: int = 1
    name: str = ""
    started_at: float = 0.0


def test_a_result_scores_against_the_others_and_the_par() -> None:
    entries = [Played("b1", 1, 3), Played("b1", 2, 1), Played("b1", 3, 1), Played("b1", 4, None)]
    points = matchpoints(entries, {"b1": 2})
    # 1 beats two results and the par: 100; 2 ties 3 and loses to 1 and the par: 1/6 of 100
    assert points == {("b1", 1): 100, ("b1", 2): Fraction(50, 3), ("b1", 3): Fraction(50, 3)}


def test_a_lone_result_without_a_par_scores_fifty() -> None:
    assert matchpoints([Played("b2", 7, 0)], {}) == {("b2", 7): 50}


def test_standings_average_the_boards_and_ties_share_a_rank() -> None:
    entries = [
        Played("a", 1, 2, name="Ann"),
        Played("a", 2, 2, name="Bo"),
        Played("b", 1, 1, name="Ann"),
        Played("b", 2, 1, name="Bo", guild_id=2),
        Played("b", 3, 0, name="Cy"),
    ]
    points = matchpoints(entries, {})
    table = standings(entries, points)
    assert [(s.rank, s.name, s.boards) for s in table] == [
        (1, "Ann", 2),
        (1, "Bo", 2),
        (3, "Cy", 1),
    ]
    assert [s.name for s in standings(entries, points, guild_id=2)] == ["Bo"]


def test_a_percentile_is_the_share_of_the_others_beaten() -> None:
    scores = {1: Fraction(60), 2: Fraction(40), 3: Fraction(60)}
    assert percentile(scores, 1) == 75  # beats one, ties one
    assert percentile({5: Fraction(10)}, 5) == 100
    assert percentile(scores, 9) is None


def test_a_win_raises_the_winners_and_lowers_the_losers() -> None:
    fresh = Skill(MODEL.mu, MODEL.sigma)
    teams = [
        Team(0, (Entrant("1", "Ann", 0), Entrant("3", "Cy", 2))),
        Team(1, (Entrant("2", "Bo", 1), Entrant("4", "Di", 3))),
    ]
    new = rate_teams(teams, dict.fromkeys("1234", fresh))
    assert new["1"].won and not new["2"].won
    assert new["1"].mu > MODEL.mu > new["2"].mu
    assert all(
        r.sigma <= MODEL.sigma for r in new.values()
    )  # a game never makes a rating less certain


def test_an_ai_level_on_both_sides_learns_nothing_and_does_not_win() -> None:
    fresh = Skill(MODEL.mu, MODEL.sigma)
    hard = "ai:hard"
    teams = [
        Team(0, (Entrant(hard, "AI hard", 0), Entrant("1", "Ann", 2))),
        Team(1, (Entrant(hard, "AI hard", 1), Entrant("2", "Bo", 3))),
    ]
    new = rate_teams(teams, {hard: fresh, "1": fresh, "2": fresh})
    assert abs(new[hard].mu - MODEL.mu) < 1e-9
    assert not new[hard].won
