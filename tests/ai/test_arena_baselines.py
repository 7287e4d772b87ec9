"""The arena's outside baselines: their matches, the exported boards, the gap hard closes."""

from __future__ import annotations

import json
from pathlib import Path

from engine.game import replay
from tools import arena, arena_all


def test_gap_closed_is_the_share_of_normals_deficit_that_hard_recovers() -> None:
    normal = {s: [-2.0 + (s % 3 - 1) * 0.1] * 2 for s in range(1, 41)}
    hard = {s: [-1.0 + (s % 3 - 1) * 0.1] * 2 for s in range(1, 41)}
    found = arena_all.gap_closed(normal, hard)
    assert found is not None
    point, lo, hi = found
    assert abs(point - 0.5) < 1e-9
    assert lo <= point <= hi and hi - lo < 0.1
    # boards only one match played are left out: the same deals on both sides
    assert arena_all.gap_closed({**normal, 99: [-50.0]}, hard) == found


def test_gap_closed_needs_a_gap_and_two_common_boards() -> None:
    assert arena_all.gap_closed({1: [1.0], 2: [2.0]}, {1: [0.0], 2: [0.0]}) is None
    assert arena_all.gap_closed({1: [-1.0]}, {1: [0.0]}) is None


def test_baseline_matchups_play_their_own_forms() -> None:
    slugs = [f.slug for f in arena_all.BASELINE_FORMS]
    assert slugs[:2] == ["whist-5", "cotton1674"]
    games = {f.game for f in arena_all.BASELINE_FORMS}
    assert {"solo-whist", "bid-whist", "ruff-trump-willughby", "turnover-bridge"} <= games
    for a, b in arena_all.BASELINE_MATCHUPS:
        assert arena_all.forms_of(a, b) == arena_all.BASELINE_FORMS
    for a, b in arena_all.MATCHUPS:
        assert arena_all.forms_of(a, b) == arena_all.FORMS


def test_the_summary_shows_the_baselines_once_one_of_their_matches_began(tmp_path: Path) -> None:
    assert "outside baselines" not in arena_all.summary(tmp_path, 1000)
    record = tmp_path / "boards" / "whist-5-hard-vs-rules.jsonl"
    record.parent.mkdir(parents=True)
    record.write_text('{"header": {}}\n{"seed": 1, "margins": [1.0, 3.0]}\n')
    text = arena_all.summary(tmp_path, 1000)
    assert "## Against outside baselines" in text
    assert "| whist-5 — short whist to 5 | hard vs rules | 1 |" in text
    assert "gap closed" in text


def test_the_arena_exports_every_play_so_a_match_can_be_rerun(tmp_path: Path) -> None:
    out = tmp_path / "plays.jsonl"
    argv = ["--a", "rules", "--b", "oracle", "--deals", "2", "--games", "0"]
    argv += ["--game", "whist-5", "--workers", "1", "--quiet", "--export", str(out)]
    assert arena.main(argv) == 0
    plays = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(plays) == 4  # two boards, two seatings each
    assert sorted(p["seed"] for p in plays) == [1, 1, 2, 2]
    for play in plays:
        assert sorted(set(play["levels"])) == ["oracle", "rules"]
        game = replay(play["record"])  # every decision replays
        assert game.seed == play["seed"]
        assert sum(game.scores) >= 0 and len(play["points"]) == 2


def test_arena_all_passes_export_on_to_the_arena(tmp_path: Path) -> None:
    form = arena_all.BASELINE_FORMS[0]
    record = tmp_path / "boards" / "x.jsonl"
    plays = tmp_path / "plays" / "x.jsonl"
    cmd = arena_all._command(form, "hard", "rules", 10, 2, record, tmp_path, plays)
    assert cmd[cmd.index("--export") + 1] == "plays/x.jsonl"  # relative to the repository
    assert "--export" not in arena_all._command(form, "hard", "rules", 10, 2, record, tmp_path)
