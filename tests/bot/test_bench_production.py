"""``python -m tools.bench`` (production mode) runs the real bot and says where its time went."""

from __future__ import annotations

import re

import pytest

from tools import bench

pytestmark = pytest.mark.slow  # left out by `make test-fast`


def test_the_production_benchmark_measures_clicks_commits_and_the_collector(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A small run at the production timings (4 tables, 3 s measured, the AI in a
    thread to spare a process per test): every figure the closing notes quote is
    printed, from real samples: clicks answered, the database's group commits
    (each waits for the disk), the collector's pauses and the bot's CPU share."""
    argv = [
        "--games",
        "4",
        "--warmup",
        "1",
        "--duration",
        "3",
        "--ai-mode",
        "thread",
        "--no-pictures",
    ]
    assert bench.main(argv) == 0
    out = capsys.readouterr().out
    clicks = re.search(r"click-to-ack .*, n=(\d+): p50 [\d.]+ ms, p99 [\d.]+ ms", out)
    assert clicks is not None and int(clicks.group(1)) > 0, out
    commits = re.search(r"SQLite group commits .*, n=(\d+): p50 [\d.]+ ms, p99 [\d.]+ ms", out)
    assert commits is not None and int(commits.group(1)) > 0, out
    assert re.search(
        r"garbage collector pauses .*: (gen \d n=\d+ max [\d.]+ ms|none); \d+ ms in all", out
    ), out
    busy = re.search(r"the bot's process .* used (\d+)% of a core", out)
    assert busy is not None and int(busy.group(1)) > 0, out
