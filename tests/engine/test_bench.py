"""Smoke test of ``python -m tools.bench_engine`` (the figures themselves are not checked)."""

from __future__ import annotations

import pytest

from engine.rules import game_ids, make_rules
from tools.bench_engine import deals_per_second, main

pytestmark = pytest.mark.slow  # left out by `make test-fast`


def test_bench_prints_best_and_median(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--seconds", "0.05", "--runs", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ruff-honours-cotton [cotton1674]: best ") and "median" in out


def test_bench_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "all", "--seconds", "0.02", "--runs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" ")[0] for line in lines] == game_ids()


def test_deals_are_counted() -> None:
    rate, deals = deals_per_second(make_rules("whist-5"), 0.05)
    assert deals > 0 and rate > 0
