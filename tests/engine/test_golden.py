"""Golden replays: seeded games played by a fixed policy, events compared to disk.

Each file in ``tests/engine/golden/`` starts with a header line (the game and the
policy) followed by one ``event.to_dict()`` per line, private events included.
The policy is ``random.Random(policy_seed).choice(game.legal_actions(seat))``.
A rule regression shows up as a diff against the stored transcript.

Regenerate (after checking the change is intended, and reading the new
transcript against RULES.md) with::

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/test_golden.py
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from engine import Game, new_game

GOLDEN_DIR = Path(__file__).parent / "golden"

GAMES = {
    # the brief's first game: dealer W; N ruffs in deal 1, scores build to 9
    "ruff-honours-cotton-seed7": dict(
        game_id="ruff-honours-cotton", seed=7, first_dealer=3, policy_seed=7
    ),
    # a declined ruff and an answered Can-ye at 8 that wins the game
    "ruff-honours-cotton-seed8-canye": dict(
        game_id="ruff-honours-cotton", seed=8, first_dealer=None, policy_seed=8
    ),
    # Long Whist: 13 tricks, honours not scored at 9, a rubber of three games
    "whist-long-seed11": dict(game_id="whist-long", seed=11, first_dealer=None, policy_seed=11),
    # Ruffe and Trump (RULES.md §4), four in partnerships: the ruff contest, the rub, par 24
    "ruff-trump-willughby-seed21": dict(
        game_id="ruff-trump-willughby", seed=21, first_dealer=None, policy_seed=21
    ),
    # three players, each alone, declared ruffs: random claims are often false and pass the ruff on
    "ruff-trump-willughby-3p-declared-seed32": dict(
        game_id="ruff-trump-willughby",
        seed=32,
        first_dealer=None,
        policy_seed=32,
        overrides={"players": 3, "ruff_announce": "declared"},
    ),
    # two players with 24-card hands and a short head
    "ruff-trump-willughby-2p-24-seed5": dict(
        game_id="ruff-trump-willughby",
        seed=5,
        first_dealer=None,
        policy_seed=5,
        overrides={"players": 2, "hand_size": 24},
    ),
    # four single-handed: a ruff tied at 39 is split, 6 each
    "ruff-trump-willughby-single-split-seed4": dict(
        game_id="ruff-trump-willughby",
        seed=4,
        first_dealer=None,
        policy_seed=4,
        overrides={"mode": "single_hand", "ruff_tie": "split"},
    ),
    # Turnover Bridge (RULES.md §8): layouts of 5+4 with 8-card hands; stops at 14 tricks
    "turnover-bridge-seed41": dict(
        game_id="turnover-bridge", seed=41, first_dealer=None, policy_seed=41
    ),
    # the pagat layouts (12 piles, 2 hole cards), every trick played, odd tricks scored to 4
    "turnover-bridge-pagat-odd-seed3": dict(
        game_id="turnover-bridge",
        preset="pagat",
        seed=3,
        first_dealer=None,
        policy_seed=3,
        overrides={"stop_at_majority": False, "scoring": "odd_tricks", "target_score": 4},
    ),
    # Solo Whist (RULES.md §6): auctions, contracts and the seat-by-seat settlement
    "solo-whist-seed5": dict(game_id="solo-whist", seed=5, first_dealer=None, policy_seed=5),
    # Bid Whist (RULES.md §7): the jokers, the kitty and the bidding to +7 or -7
    "bid-whist-seed5": dict(game_id="bid-whist", seed=5, first_dealer=None, policy_seed=5),
}


def transcript(
    game_id: str,
    seed: int,
    first_dealer: int | None,
    policy_seed: int,
    preset: str | None = None,
    overrides: dict[str, object] | None = None,
) -> list[str]:
    header: dict[str, object] = {
        "game_id": game_id,
        "preset": preset,
        "seed": seed,
        "first_dealer": first_dealer,
        "policy": f"random.Random({policy_seed}).choice(game.legal_actions(seat))",
    }
    if overrides:
        header["overrides"] = overrides
    lines = [json.dumps(header, sort_keys=True)]
    game, events = new_game(game_id, preset, overrides, seed=seed, first_dealer=first_dealer)
    rng = random.Random(policy_seed)
    while True:
        for event in events:
            lines.append(json.dumps(event.to_dict(), ensure_ascii=False))
        seat = game.to_act()
        if seat is None:
            break
        action = rng.choice(game.legal_actions(seat))
        lines.append(json.dumps({"action": f"{seat} {action.encode()}"}))
        events = game.apply(seat, action)
    # the transcript's own record must replay to the same final state
    assert Game.from_record(game.to_record()).state_key() == game.state_key()
    return lines


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden(name: str) -> None:
    path = GOLDEN_DIR / f"{name}.jsonl"
    lines = transcript(**GAMES[name])  # type: ignore[arg-type]
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    stored = path.read_text(encoding="utf-8").splitlines()
    for i, (want, got) in enumerate(zip(stored, lines, strict=False)):
        assert got == want, f"{path.name} line {i + 1} differs:\n  stored {want}\n  now    {got}"
    assert len(lines) == len(stored), f"{path.name}: {len(stored)} lines stored, {len(lines)} now"
