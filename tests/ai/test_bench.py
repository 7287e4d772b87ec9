"""engine.ai.bench times every game form's decisions (issues 11 and 12 ask for hard's latency per game)."""

from __future__ import annotations

import pytest

from engine.ai import bench


@pytest.mark.parametrize(
    ("game_id", "sets"),
    [("solo-whist", []), ("bid-whist", []), ("ruff-trump-willughby", ["players=3"]), ("turnover-bridge", ["layout=pagat"])],
)
def test_latency_lines_for_any_game_form(game_id: str, sets: list[str], capsys: pytest.CaptureFixture[str]) -> None:
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
