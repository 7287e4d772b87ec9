"""tools.bench_ai times every game form's decisions (issues 11 and 12 ask for hard's latency per game);
tools.bench_coach reviews one game on the whole bench's deals."""

from __future__ import annotations

import contextlib
import io
import os
import tempfile

import pytest

from engine import game_ids
from engine.ai.levels import HARD
from tools import bench_ai as bench

pytestmark = pytest.mark.slow  # left out by `make test-fast`


@pytest.mark.parametrize(
    ("game_id", "sets"),
    [
        ("solo-whist", []),
        ("bid-whist", []),
        ("ruff-trump-willughby", ["players=3"]),
        ("turnover-bridge", ["layout=pagat"]),
    ],
)
def test_latency_lines_for_any_game_form(
    game_id: str, sets: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--latency-only", "--levels", "easy", "--deals", "1", "--game", game_id]
    for s in sets:
        argv += ["--set", s]
    assert bench.main(argv) == 0
    out = capsys.readouterr().out
    assert f"1 deals of {game_id}" in out and all(s in out for s in sets)
    line = next(x for x in out.splitlines() if x.startswith("easy"))
    assert int(line.split()[1]) > 5  # decisions with a real choice were timed
    assert "greedy playouts" not in out  # --latency-only


def test_an_unknown_parameter_is_refused() -> None:
    with pytest.raises(Exception, match="no_such_option"):
        bench.bench_latency("easy", 1, game_id="solo-whist", overrides={"no_such_option": 1})


def test_a_lowered_cap_counts_the_decisions_that_reach_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [
        "--latency-only",
        "--levels",
        "normal",
        "--deals",
        "1",
        "--game",
        "turnover-bridge",
        "--cap",
        "0.05",
    ]
    assert bench.main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("normal"))
    decisions = int(lines[at].split()[1])
    cap_line = lines[at + 1].split()
    # with a 50 ms cap every decision ends within 50 ms of it; how many past it is printed
    assert cap_line[:3] == ["cap", "50", "ms:"] and int(cap_line[3]) == decisions > 5
    assert "past it; the latest" in lines[at + 1]


def test_the_coach_bench_reviews_one_game_on_the_whole_bench_s_deals() -> None:
    """``tools.bench_coach --only whisk-48``: the Whisk deals of the whole bench (the same
    seeds and seats), so the played deals of a whole run are read back, not played again;
    ``--games whisk-48`` would deal other seeds."""
    import json

    from tools import bench_coach

    whole = bench_coach.bench_tasks(game_ids(), 48, 1, HARD.soft, 64)
    whisk = [t for t in whole if t[0] == "whisk-48"]
    assert len(whisk) == 4 and len({t[2] for t in whisk}) == 4
    assert bench_coach.bench_tasks(["whisk-48"], 4, 1, HARD.soft, 64) != whisk

    with tempfile.TemporaryDirectory() as tmp:
        played = os.path.join(tmp, "played.jsonl")
        with open(played, "w", encoding="utf-8") as fh:
            for t in whisk:  # a deal "not found" (no record) is read back, not played
                fh.write(json.dumps({"task": list(t), "record": None, "deal": 0}) + "\n")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            bench_coach.main(["--deals", "48", "--only", "whisk-48", "--played", played])
        assert f"deals read from {played}: 4" in out.getvalue()
        with open(played, encoding="utf-8") as fh:
            assert len(fh.readlines()) == 4  # nothing played again


def _read_back(argv: list[str], tasks: list[tuple[str, int, int, float, int]]) -> str:
    """``bench_coach.main(argv)`` with a --played file that holds ``tasks`` (each a deal
    "not found", so none is reviewed); what it printed."""
    import json

    from tools import bench_coach

    with tempfile.TemporaryDirectory() as tmp:
        played = os.path.join(tmp, "played.jsonl")
        with open(played, "w", encoding="utf-8") as fh:
            for t in tasks:
                fh.write(json.dumps({"task": list(t), "record": None, "deal": 0}) + "\n")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            bench_coach.main([*argv, "--played", played])
        with open(played, encoding="utf-8") as fh:
            assert len(fh.readlines()) == len(tasks)  # nothing played again
        return out.getvalue().replace(played, "PLAYED")


def test_the_coach_bench_plays_hard_at_its_production_budget_or_the_old_one_if_asked() -> None:
    """Hard's own decisions are judged as players meet them: the bench plays hard at the
    budget the bot's AI pool gives it (``HARD``'s soft and cap seconds), unless
    ``--hard-budget`` asks for another (0.05 s: the bench's figures before 29 November
    2026, its cap 0.5 s as then)."""
    from bot.tables.aipool import level_budget
    from engine.ai import get_player
    from tools import bench_coach

    assert bench_coach.hard_limits(HARD.soft) == (HARD.soft, HARD.cap) == level_budget("hard")
    production = bench_coach.hard_player(HARD.soft)
    assert production.inner.profile == get_player("hard").inner.profile == HARD  # type: ignore[attr-defined]
    assert production.cap == HARD.cap  # type: ignore[attr-defined]
    assert bench_coach.hard_limits(0.05) == (0.05, 0.5)
    assert bench_coach.hard_player(0.05).inner.profile.soft == 0.05  # type: ignore[attr-defined]

    whisk = [
        t for t in bench_coach.bench_tasks(game_ids(), 48, 1, HARD.soft, 64) if "whisk" in t[0]
    ]
    out = _read_back(["--deals", "48", "--only", "whisk-48"], whisk)
    assert f"hard plays at {HARD.soft:g} s a decision, {HARD.cap:g} s at most (CPU)" in out
    assert "deals read from PLAYED: 4" in out  # the default's deals are production's

    old = [t for t in bench_coach.bench_tasks(game_ids(), 48, 1, 0.05, 64) if "whisk" in t[0]]
    out = _read_back(["--deals", "48", "--only", "whisk-48", "--hard-budget", "0.05"], old)
    assert "hard plays at 0.05 s a decision, 0.5 s at most (CPU)" in out
    assert "deals read from PLAYED: 4" in out


def test_the_coach_bench_report_says_at_which_budget_hard_played() -> None:
    """A dump's table says hard's budget (a dump written before it was kept says so)."""
    import json

    from tools import bench_coach

    row = {"game": "whisk-48", "time": 1.0, "hints": [40.0], "cards": 9, "cards_flagged": 1}
    row |= {"calls": 0, "calls_flagged": 0, "card_plant": ["planted", True]}
    with tempfile.TemporaryDirectory() as tmp:
        dump = os.path.join(tmp, "dump.jsonl")
        with open(dump, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(row | {"hard_budget": HARD.soft}) + "\n")
            fh.write(json.dumps(row) + "\n")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            bench_coach.main(["--report", dump, "--games", "whisk-48"])
    lines = out.getvalue().splitlines()
    assert lines[-2].endswith("hard's decisions flagged: 2/18")
    assert lines[-1] == (
        f"hard's budget a decision: {HARD.soft:g} s (1 deals), not recorded (1 deals); "
        f"production's: {HARD.soft:g} s"
    )
