"""Records and snapshots written by the engine before the phases/families layout still load.

The fixtures in ``fixtures/records_v1/`` were written by
``fixtures/make_records_v1.py`` with the code of commit e06b107 (record and
snapshot format version 1): games in progress (mid-ruff, mid-lay-out,
mid-Can-ye, mid-trick, between deals) and finished, over every game id and a
spread of presets and overrides. A server holding such a record when the bot is
upgraded must resume the game exactly where it stood.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import Game, new_game
from engine.actions import decode_action

# snapshot version 2 adds the deal's rank order and seating; every v1 deal was
# high ("uptown") with fixed partnerships
V2_KEYS = {
    "rank_order": {"direction": "uptown", "downtown_ace": "high"},
    "seating": {"n_seats": 4, "sides": [[0, 2], [1, 3]]},
}
FIXTURES = sorted((Path(__file__).parent / "fixtures" / "records_v1").glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_fixtures_present() -> None:
    assert len(FIXTURES) >= 20


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_v1_record_replays_to_the_same_state(path: Path) -> None:
    data = _load(path)
    game = Game.from_record(data["record"])
    snap = game.snapshot()
    state = dict(snap["state"])
    state.pop("previous_trick")  # kept since (history shown to players, not in state_key)
    assert state == {**data["snapshot"]["state"], **V2_KEYS}
    assert snap["log"] == data["snapshot"]["log"]
    assert game.phase == data["phase"]
    assert game.to_act() == data["to_act"]
    for seat in range(game.n_players):
        assert [a.encode() for a in game.legal_actions(seat)] == data["legal"][str(seat)]
        assert [c.code for c in game.hand(seat)] == data["hands"][seat]


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_v1_record_replays_to_the_same_events(path: Path) -> None:
    data = _load(path)
    rec = data["record"]
    game, events = new_game(
        rec["game_id"],
        rec.get("preset"),
        rec.get("overrides") or {},
        seed=int(rec["seed"]),
        first_dealer=rec.get("first_dealer"),
        deck=rec.get("deck"),
        start_scores=rec.get("start_scores"),
    )
    out = list(events)
    for entry in rec["actions"]:
        seat_text, _, action_text = entry.partition(" ")
        out.extend(game.apply(int(seat_text), decode_action(action_text)))
    assert [e.to_dict() for e in out] == data["events"]


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_v1_snapshot_restores_and_plays_on(path: Path) -> None:
    data = _load(path)
    restored = Game.from_snapshot(data["snapshot"])
    replayed = Game.from_record(data["record"])
    assert data["snapshot"]["version"] == 1
    assert restored.snapshot()["state"] == {
        **data["snapshot"]["state"],
        **V2_KEYS,
        "previous_trick": None,
    }
    assert restored.state_key() == replayed.state_key()
    # both continue identically: play every remaining action of a fixed policy
    import random

    rng = random.Random(path.stem)
    for _ in range(60):
        seat = replayed.to_act()
        assert restored.to_act() == seat
        if seat is None:
            break
        legal = replayed.legal_actions(seat)
        assert restored.legal_actions(seat) == legal
        action = rng.choice(legal)
        assert [e.to_dict() for e in restored.apply(seat, action)] == [
            e.to_dict() for e in replayed.apply(seat, action)
        ]
