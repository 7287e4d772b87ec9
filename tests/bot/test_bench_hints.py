"""``python -m tools.bench_hints`` times hints through the AI pool, per game, and prints
the load with its figures."""

from __future__ import annotations

import asyncio
import re

import pytest

from tools import bench_hints

pytestmark = pytest.mark.slow  # a worker process and real searches


def test_the_hint_benchmark_prints_p50_and_p95_per_game_and_the_load(
    capsys: pytest.CaptureFixture[str],
) -> None:
    asyncio.run(bench_hints.run(["whist-5", "solo-whist"], 3, 1))
    out = capsys.readouterr().out
    assert re.search(r"load average at start: [\d.]+ [\d.]+ [\d.]+", out), out
    for game in ("whist-5", "solo-whist", "all games"):
        line = re.search(rf"^{game} +(\d+) +(\d+) +(\d+)", out, re.MULTILINE)
        assert line is not None, out
        n, p50, p95 = (int(x) for x in line.groups())
        assert n > 0 and 0 < p50 <= p95, line.group(0)
