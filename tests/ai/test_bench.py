"""tools.bench_ai times every game form's decisions (issues 11 and 12 ask for hard's latency per game);
tools.bench_coach reviews one game on the whole bench's deals."""

from __future__ import annotations

import contextlib
import io
import os
import tempfile

import pytest

from engine import game_ids
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

    whole = bench_coach.bench_tasks(game_ids(), 48, 1, 0.05, 64)
    whisk = [t for t in whole if t[0] == "whisk-48"]
    assert len(whisk) == 4 and len({t[2] for t in whisk}) == 4
    assert bench_coach.bench_tasks(["whisk-48"], 4, 1, 0.05, 64) != whisk

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
