"""The replay's text and buttons (bot/present/replay.py) for every game id, without Discord."""

from __future__ import annotations

import random

import pytest

from bot.features.records import parse_step
from bot.present import replay
from bot.present.components import RHButton, RHSelect
from bot.present.render.common import card_text
from engine import Game, game_ids, new_game
from engine.export import game_log

VARIANTS = [(g, {}) for g in game_ids()] + [
    ("ruff-trump-willughby", {"players": 2, "hand_size": 24}),
    ("ruff-trump-willughby", {"players": 3}),
]


def finished(game_id: str, overrides: dict[str, object], seed: int = 3) -> Game:
    game, _ = new_game(game_id, None, overrides, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act()
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


@pytest.mark.parametrize(("game_id", "overrides"), VARIANTS)
def test_every_step_of_every_game_shows_its_trick_and_every_hand(
    game_id: str, overrides: dict[str, object]
) -> None:
    game = finished(game_id, overrides)
    log = game_log(game.to_record())
    names = [f"P{s}" for s in range(game.n_players)]
    steps = log.tricks
    assert steps
    for step, (deal, trick) in enumerate(steps):
        text = replay.step_text(5, game.rules.title, names, log, step)
        assert len(text) <= 2000
        assert f"trick {step + 1} of {len(steps)}" in text
        assert (
            f"**Trick {trick.number}** — {replay.POSITIONS[trick.leader]} (P{trick.leader}) led: "
            in text
        )
        assert " · ".join(f"{replay.SHORT[s]} {card_text(c)}" for s, c in trick.plays) in text
        assert f"Won by **{replay.POSITIONS[trick.winner]} (P{trick.winner})**" in text
        hand_lines = [line for line in text.splitlines() if line.startswith("> ")]
        assert len(hand_lines) == game.n_players
        for seat, card in trick.plays:  # the card about to be played is still in its hand
            groups = hand_lines[seat].split(": ", 1)[1].split(" · ")
            if card.is_joker:  # by name, never with a suit
                assert ("Big Joker" if card.code == "BJ" else "Little Joker") in groups
                continue
            suit_group = next(g for g in groups if g.startswith(card.suit.symbol))
            assert card.rank.label in suit_group.split()[1:]
        if trick is deal.tricks[-1]:
            assert f"**End of deal {deal.deal_no}**" in text
    # past the end clamps to the last step
    assert replay.step_text(5, "t", names, log, 10**6) == replay.step_text(
        5, "t", names, log, len(steps) - 1
    )


def test_replay_buttons_lead_to_the_neighbouring_steps_with_distinct_ids() -> None:
    def ids(step: int, total: int) -> list[tuple[str, bool]]:
        view = replay.replay_view(9, step, total)
        assert view is not None
        return [
            (c["custom_id"], c["disabled"])
            for row in view.to_components()
            for c in row["components"]
        ]

    assert ids(0, 13) == [("rh:r:9:0", True), ("rh:r:9:1", False)]
    assert ids(5, 13) == [("rh:r:9:4", False), ("rh:r:9:6", False)]
    assert ids(12, 13) == [("rh:r:9:11", False), ("rh:r:9:12", True)]
    assert ids(0, 2) == [("rh:r:9:0", True), ("rh:r:9:1", False)]
    assert ids(99, 2) == [("rh:r:9:0", False), ("rh:r:9:1", True)]
    assert replay.replay_view(9, 0, 1) is None


BUTTON_RE = RHButton.__discord_ui_compiled_template__  # type: ignore[attr-defined]
SELECT_RE = RHSelect.__discord_ui_compiled_template__  # type: ignore[attr-defined]


def test_replay_ids_parse_and_forged_ones_do_not() -> None:
    # the replay's buttons are the records feature's (bot/features/records)
    assert parse_step("1234567890123456789:123456") == (1234567890123456789, 123456)
    assert parse_step("5:3:d") == (5, 3)  # a deal button: the same step
    assert len(replay.replay_id(2**63 - 1, 999_999)) <= 100
    for forged in ("1:-1", "1:x", "1", "1:2:3", ":1", "1:1234567"):
        assert parse_step(forged) is None
    for cid in (replay.replay_id(9, 3), replay.replay_deal_id(9)):
        assert not BUTTON_RE.fullmatch(cid) and not SELECT_RE.fullmatch(cid), cid


def test_the_last_step_of_a_claimed_deal_says_who_claimed_what() -> None:
    from engine.claims import AcceptClaim, Claim, answering
    from tests.engine.test_claims import to_play

    game = to_play("whist-short-classic", 3, 4)
    claimer = game.to_act()
    assert claimer is not None
    game.apply(claimer, Claim(3))
    while game.phase == "claim":
        game.apply(answering(game)[0], AcceptClaim())
    log = game_log(game.to_record())
    names = ["Ann", "Bob", "Cy", "Di"]
    deal_tricks = [i for i, (deal, _) in enumerate(log.tricks) if deal is log.deals[0]]
    last = replay.step_text(5, game.rules.title, names, log, deal_tricks[-1])
    assert f"({names[claimer]}) claimed 3 of the last 4 tricks (accepted)" in last
    assert f"trick {len(deal_tricks)} of" in last
    earlier = replay.step_text(5, game.rules.title, names, log, deal_tricks[-2])
    assert "claimed" not in earlier
