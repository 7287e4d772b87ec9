"""The phases/families shape: registry, parameters instead of game ids, sides from seating."""

from __future__ import annotations

import random
import re
from pathlib import Path

from engine import Game, new_game
from engine.families import FAMILIES, family_of
from engine.phases import Phase
from engine.rules import GAMES, game_ids, make_rules, presets_for, rules_with
from engine.seating import Seating

ENGINE = Path(__file__).resolve().parents[2] / "engine"
BOT = ENGINE.parent / "bot"


def _play_out(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act()
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))


def test_every_game_id_belongs_to_a_registered_family() -> None:
    assert game_ids() == [
        "ruff-honours-cotton",
        "honours-48",
        "whisk-48",
        "whist-5",
        "whist-7-rotate",
        "whist-9-honours",
        "whist-short-classic",
        "whist-long",
        "ruff-trump-willughby",
        "solo-whist",
        "turnover-bridge",
        "bid-whist",
    ]
    registered = {g.game_id for family in FAMILIES.values() for g in family.games}
    assert registered == set(GAMES)
    for family in FAMILIES.values():
        for game in family.games:
            for preset in presets_for(game.game_id):
                rules = make_rules(game.game_id, preset)
                assert family_of(rules) is family and rules.family == family.name


# a comparison with a literal game id (or a literal list of them)
GAME_ID_TEST = re.compile(r"game_id\s*(==|!=|\bin\b)\s*[\"'(\[{]")


def game_id_tests(paths: list[Path]) -> list[str]:
    """``file:line`` of every comparison of a game id with a literal in ``paths``."""
    found = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if GAME_ID_TEST.search(line):
                found.append(f"{path.name}:{number}")
    return found


def test_no_shared_engine_code_tests_a_game_id() -> None:
    shared = [ENGINE / "game.py", ENGINE / "rules.py", *sorted((ENGINE / "phases").glob("*.py"))]
    assert game_id_tests(shared) == []


def test_no_bot_code_tests_a_game_id() -> None:
    """A rule the bot needs is a question to the engine (a Rules property), never an ``if`` on the game."""
    assert game_id_tests(sorted(BOT.rglob("*.py"))) == []


def test_the_game_id_check_finds_a_planted_branch(tmp_path: Path) -> None:
    planted = tmp_path / "summary.py"
    planted.write_text(
        "def rubber(info):\n"
        "    return info.rules.scores_rubber_points\n"
        "def planted(info):\n"
        "    if info.rules.game_id == 'whist-short-classic':\n"
        "        return 1\n"
        '    return 2 if rules.game_id in ("solo-whist", "bid-whist") else 3\n',
        encoding="utf-8",
    )
    assert game_id_tests([planted]) == ["summary.py:4", "summary.py:6"]


def test_rubber_points_follow_parameters_not_the_game_id() -> None:
    # Long Whist counts games won; give it Short Whist's game values and rubber bonus
    plain = make_rules("whist-long", None, {"target_score": 2})
    rubber = rules_with(plain, game_value="by_losers_score", rubber_points="game_values_plus_2")
    a, _ = new_game(rules=plain, seed=4)
    b, _ = new_game(rules=rubber, seed=4)
    _play_out(a, 4)
    _play_out(b, 4)
    assert a.games_won == b.games_won  # the same games, dealt and played alike
    assert a.rubber_points == tuple(a.games_won)
    winner = b.match_winner
    assert winner is not None
    loser = 1 - winner
    net = b.game_values[winner] + 2 - b.game_values[loser]
    assert b.rubber_points[winner] == net and b.rubber_points[loser] == -net
    assert a.game_values[winner] == a.games_won[winner]  # single game values without the parameter


def test_the_deal_runs_the_familys_sequence_of_phases() -> None:
    family = FAMILIES["ruff_honours"]
    cotton = [p.name for p in family.sequence(make_rules("ruff-honours-cotton"))]
    whist = [p.name for p in family.sequence(make_rules("whist-5"))]
    assert cotton == [Phase.DEAL, Phase.RUFF, Phase.DISCARD, Phase.CAN_YE, Phase.PLAY, Phase.SCORE]
    assert whist == [Phase.DEAL, Phase.CAN_YE, Phase.PLAY, Phase.SCORE]
    for phase in family.catalogue():
        for attr in (
            "name",
            "absent",
            "waiting",
            "handles",
            "enter",
            "to_act",
            "legal",
            "check",
            "apply",
            "visible",
        ):
            assert hasattr(phase, attr)


def test_sides_come_from_the_seating_of_the_deal() -> None:
    game, _ = new_game("ruff-honours-cotton", seed=2)
    assert game.side_of == (0, 1, 0, 1)
    assert [game.partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    view = game.observe(1)
    assert view.sides == (0, 1, 0, 1) and view.side == 1 and view.partner == 3
    # sides made for one deal (one against three) answer from the new seating
    game.set_seating(Seating.one_against(4, 1))
    assert game.side_of == (1, 0, 1, 1)
    assert game.partner_of(0) == 2 and game.partner_of(1) == 1
    view = game.observe(3)
    assert view.side == 1 and view.partner == 0
    restored = Game.from_snapshot(game.snapshot())
    assert restored.seating == game.seating and restored.side_of == (1, 0, 1, 1)


def test_the_play_phase_takes_the_rank_order_from_the_deal() -> None:
    from engine.cards import DOWNTOWN, HIGH

    for order in (HIGH, DOWNTOWN):
        game, _ = new_game("whist-5", seed=9, first_dealer=0)
        assert game.rank_order is HIGH
        game.rank_order = order  # as a contract phase would set it
        leader = game.to_act()
        assert leader is not None
        events = []
        for _ in range(4):
            seat = game.to_act()
            assert seat is not None
            events += game.apply(seat, game.legal_actions(seat)[0])
        won = [e for e in events if e.kind == "trick_won"][0]
        assert won.winner == (leader + order.trick_winner(list(won.cards), game.trump)) % 4
        assert game.snapshot()["state"]["rank_order"] == order.to_data()
        assert Game.from_snapshot(game.snapshot()).rank_order == order


def test_the_rules_answer_what_the_bot_used_to_test_by_game_id_or_seat_count() -> None:
    rubber = {
        g for g in game_ids() for p in presets_for(g) if make_rules(g, p).scores_rubber_points
    }
    assert rubber == {"whist-short-classic"}
    assert not make_rules("turnover-bridge").concession_asks_partner
    assert make_rules("ruff-trump-willughby", None, {"players": 3}).concession_asks_partner
    assert make_rules("whist-5").concession_asks_partner
    assert [make_rules("solo-whist").next_dealer(s) for s in range(4)] == [1, 2, 3, 0]
    assert [make_rules("turnover-bridge").next_dealer(s) for s in range(2)] == [1, 0]
