"""Every AI level makes every decision of Ruffe and Trump (every form) and Turnover Bridge."""

from __future__ import annotations

import random

import pytest

from engine import make_rules, new_game
from engine.ai import LEVELS, get_player
from engine.ai.strategies.open_tables import wants_generic
from engine.cards import mask_of
from engine.phases.contest import RuffClaim, ruff_value

FORMS = [
    ("ruff-trump-willughby", {}),
    ("ruff-trump-willughby", {"mode": "single_hand", "ruff_announce": "declared"}),
    ("ruff-trump-willughby", {"players": 3, "ruff_announce": "declared"}),
    ("ruff-trump-willughby", {"players": 3, "hand_size": 16}),
    ("ruff-trump-willughby", {"players": 2}),
    ("ruff-trump-willughby", {"players": 2, "hand_size": 24, "ruff_announce": "declared"}),
    ("turnover-bridge", {}),
    ("turnover-bridge", {"layout": "pagat", "target_score": 2}),
]


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("game_id", "overrides"), FORMS, ids=[f"{g}:{o}" for g, o in FORMS])
def test_every_level_finishes_every_form(
    level: str, game_id: str, overrides: dict[str, object]
) -> None:
    player = get_player(level, budget=0.01, cap=0.5)
    rules = make_rules(game_id, None, overrides)
    game, _ = new_game(rules=rules, seed=3)
    rng = random.Random(3)
    kinds = set()
    steps = 0
    while not game.is_over:
        steps += 1
        assert steps < 3000
        seat = game.to_act()
        assert seat is not None
        view = game.observe(seat)
        action = player.choose(view, view.legal, rng)
        assert action in view.legal
        if isinstance(action, RuffClaim):  # the AI states its true ruff
            assert action.value == ruff_value(
                mask_of(view.hand), view.turn_up, view.trump, rules.ruff_measure
            )
        kinds.add(type(action).__name__)
        game.apply(seat, action)
    assert "Play" in kinds
    if rules.ruff_announce == "declared" and game_id == "ruff-trump-willughby":
        assert "RuffClaim" in kinds


def test_the_generic_maxims_stay_off_the_four_handed_partnership_games() -> None:
    game, _ = new_game("ruff-honours-cotton", seed=1)
    assert not wants_generic(game.observe(0))
    game, _ = new_game("ruff-trump-willughby", seed=1)  # double-hand: partners opposite
    assert not wants_generic(game.observe(0))
    for overrides in ({"players": 3}, {"mode": "single_hand"}):
        game, _ = new_game("ruff-trump-willughby", overrides=overrides, seed=1)
        assert wants_generic(game.observe(0))
    game, _ = new_game("turnover-bridge", seed=1)
    assert wants_generic(game.observe(0))
