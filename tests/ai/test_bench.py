"""tools.bench_ai times every game form's decisions (issues 11 and 12 ask for hard's latency per game)."""

from __future__ import annotations

import pytest

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
