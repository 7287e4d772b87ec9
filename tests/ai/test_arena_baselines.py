"""The arena's outside baselines: their matches, the exported boards, the gap hard closes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
    assert arena_all.forms_of("hard", "rules") == arena_all.BASELINE_FORMS
    for b in ("ismcts", "oracle"):
        # Bid Whist's jokers are beyond the card model: ismcts would be rules, the oracle hard
        played = [f.slug for f in arena_all.forms_of("hard", b)]
        assert played == [f.slug for f in arena_all.BASELINE_FORMS if f.slug != "bid-whist"]
    assert "bid-whist" not in [f.slug for f in arena_all.forms_of("normal", "oracle")]
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


def test_the_arena_exports_every_play_so_a_match_can_be_rerun(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "plays.jsonl"
    record = tmp_path / "boards.jsonl"
    argv = ["--a", "rules", "--b", "oracle", "--deals", "2", "--games", "0"]
    argv += ["--game", "whist-5", "--workers", "1", "--quiet", "--export", str(out)]
    assert arena.main([*argv, "--record", str(record)]) == 0
    # every board's CPU is kept with it, and the printout says what 1000 boards cost
    cpu = arena.read_cpu(str(record))
    assert sorted(cpu) == [1, 2] and all(x > 0 for x in cpu.values())
    assert "core-hours per 1000 boards" in capsys.readouterr().out
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


def test_gap_share_against_normal_is_hards_gain_over_the_oracles(tmp_path: Path) -> None:
    # the oracle gains 2 a deal over normal, hard 0.5: a quarter of the gap
    normal = {s: [-2.0 + (s % 5 - 2) * 0.2] * 2 for s in range(1, 61)}
    hard_normal = {s: [0.5 + (s % 3 - 1) * 0.2] * 2 for s in range(1, 61)}
    found = arena_all.gap_share(normal, hard_normal)
    assert found is not None
    point, lo, hi = found
    assert abs(point - 0.25) < 1e-9
    assert lo < point < hi and hi - lo < 0.1
    # paired by seed: a board only one match played is left out
    assert arena_all.gap_share({**normal, 500: [-90.0]}, hard_normal) == found
    # no gap when the oracle does not beat normal
    assert arena_all.gap_share({s: [1.0, 1.0] for s in normal}, hard_normal) is None

    # the README shows it beside the direct share, from the published hard vs normal
    runs, docs = tmp_path / "runs", tmp_path / "docs"
    for folder, name, boards in (
        (runs, "solo-whist-normal-vs-oracle", normal),
        (docs, "solo-whist-hard-vs-normal", hard_normal),
    ):
        path = folder / "boards" / f"{name}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        lines = [json.dumps({"header": {}})]
        lines += [json.dumps({"seed": s, "margins": m}) for s, m in boards.items()]
        path.write_text("\n".join(lines) + "\n")
    text = arena_all.summary(runs, 1000, docs=docs)
    row = next(x for x in text.splitlines() if x.startswith("| solo-whist |"))
    assert f"| {100 * lo:.0f}% .. {100 * hi:.0f}% |" in row
    assert "| -2.000 (60) | +0.500 (60) | 25% |" in row
    # over a handful of boards a ratio is noise: the README waits for more
    few = runs / "boards" / "solo-whist-hard-vs-oracle.jsonl"
    few.write_text(
        '{"header": {}}\n{"seed": 1, "margins": [-1.0]}\n{"seed": 2, "margins": [-1.0]}\n'
    )
    row = next(
        x
        for x in arena_all.summary(runs, 1000, docs=docs).splitlines()
        if x.startswith("| solo-whist |")
    )
    assert row.endswith("| -1.000 (2) | too few boards | — |")


def test_baseline_rows_show_what_a_board_costs_and_the_core_hours_left(tmp_path: Path) -> None:
    record = tmp_path / "boards" / "whist-5-hard-vs-rules.jsonl"
    record.parent.mkdir(parents=True)
    lines = ['{"header": {}}']
    lines += [json.dumps({"seed": s, "margins": [1.0, 2.0], "cpu": 7.2}) for s in (1, 2)]
    record.write_text("\n".join(lines) + "\n")
    text = arena_all.summary(tmp_path, 1000)
    row = next(x for x in text.splitlines() if "whist-5" in x and "hard vs rules" in x)
    # 7.2 s a board: 2.0 core-hours for 1000 boards, 998 of them still to play
    assert "| 7.2 s (2) | 2.0 | 2.0 |" in row
    assert "not started" in text and "| — | — | — |" in text  # the others: no cost yet
    assert "### Re-running a match" in text


def test_issue_36_progress_counts_the_boards_kept_of_those_asked_for(tmp_path: Path) -> None:
    record = tmp_path / "boards" / "whist-5-hard-vs-pimc.jsonl"
    record.parent.mkdir(parents=True)
    lines = ['{"header": {}}']
    lines += [json.dumps({"seed": s, "margins": [1.0, 0.0]}) for s in range(1, 31)]
    record.write_text("\n".join(lines) + "\n")
    text = arena_all.summary(tmp_path, 1000)
    # 1000 boards a row, but 500 for each ismcts row and Bid Whist's: 6500 in all
    assert "Progress: 30 of the 6500 boards these rows ask for are played; 0 of the 8" in text
    assert arena_all.boards_for(arena_all.BASELINE_FORMS[0], "hard", "ismcts", 1000) == 500
    assert [f.slug for f in arena_all.forms_of("hard", "pimc")] == ["whist-5", "cotton1674"]
