"""``target_score = 1``: accepted, with no call point (RULES.md §1.5 "8 = target - 1")."""

from __future__ import annotations

import random

import pytest

from engine import new_game
from engine.rules import RulesError, make_rules


@pytest.mark.parametrize(
    ("game_id", "preset"),
    [
        ("ruff-honours-cotton", None),
        ("honours-48", None),
        ("whisk-48", "cotton-whist"),
        ("whist-long", None),
    ],
)
def test_target_one_has_no_call_point(game_id: str, preset: str | None) -> None:
    rules = make_rules(game_id, preset, {"target_score": 1})
    assert rules.target_score == 1
    assert rules.call_point == "none"
    assert not rules.can_ye_enabled
    game, _ = new_game(rules=rules, seed=1)
    rng = random.Random(1)
    while not game.is_over:
        seat = game.to_act()
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        assert game.phase != "can_ye"
    assert max(game.scores) >= 1


def test_an_explicit_call_point_with_target_one_says_what_to_change() -> None:
    with pytest.raises(RulesError, match="with target_score 1 use call_point=none"):
        make_rules("ruff-honours-cotton", None, {"target_score": 1, "call_point": 1})


def test_a_call_point_at_or_above_the_target_names_the_range() -> None:
    with pytest.raises(
        RulesError, match=r"call_point 9 must be from 1 to 4 \(below target_score 5\), or none"
    ):
        make_rules("ruff-honours-cotton", None, {"target_score": 5, "call_point": 9})
