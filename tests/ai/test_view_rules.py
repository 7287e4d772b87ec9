"""AI players read the table's rules from the view, overrides included."""

from __future__ import annotations

import random
from dataclasses import replace

from engine import new_game
from engine.ai.search.worlds import rules_for, sample_world, situation
from engine.game import Game


def _shown_out(game: Game) -> tuple[int, int] | None:
    """(seat, led suit mask) of a completed-trick card not of the suit led, if any."""
    for leader, cards, _ in game.completed:
        led = cards[0].suit_mask
        for i, c in enumerate(cards[1:], start=1):
            if not c.bit & led:
                return (leader + i) % 4, led
    return None


def test_view_carries_the_tables_rules() -> None:
    game, _ = new_game(
        "ruff-honours-cotton",
        overrides={"revoke_mode": "penalty", "honours_values": "3:1,4:2"},
        seed=3,
    )
    view = game.observe(0)
    assert view.rules is game.rules
    assert rules_for(view) == game.rules
    assert rules_for(view).revoke_mode == "penalty"
    # a hand-built view without rules still works: the preset's values stand in
    assert rules_for(replace(view, rules=None)).revoke_mode == "prevent"


def test_world_sampling_follows_a_revoke_mode_override() -> None:
    """Under ``revoke_mode = penalty`` showing out proves nothing: the AI must not assume a void.

    Before the view carried the rules, the AI rebuilt the preset's rules
    (``revoke_mode = prevent``) and dealt the seat no card of the suit in any
    world it imagined; with the table's override it keeps such worlds possible.
    """
    rng = random.Random(5)
    game, _ = new_game("ruff-honours-cotton", overrides={"revoke_mode": "penalty"}, seed=5)
    found = None
    while found is None:
        seat = game.to_act()
        assert seat is not None
        acts = game.legal_actions(seat)
        game.apply(seat, rng.choice(acts))
        if game.phase == "play" and game.trick_no >= 3 and not game.trick:
            found = _shown_out(game)
    shower, led = found
    observer = next(
        s for s in range(4) if s != shower and game.hands[s] and game.to_act() is not None
    )
    view = game.observe(observer)
    hidden = sum(game.hands[s] for s in range(4) if s != observer) & led
    assert hidden, "some card of the suit is still out of sight"

    def worlds_giving_the_suit(v: object) -> int:
        sit = situation(v)  # type: ignore[arg-type]
        hits = 0
        for k in range(200):
            world = sample_world(sit, random.Random(k))
            if world is not None and world[shower] & led:
                hits += 1
        return hits

    assert situation(view).rules.revoke_mode == "penalty"
    assert worlds_giving_the_suit(view) > 0
    assert worlds_giving_the_suit(replace(view, rules=None)) == 0
