"""The events benchmark's verdict on "no worse at p99": the gap between two kinds'
p99s and its confidence interval (``tools.bench_event_tables.quantile_gap``)."""

from __future__ import annotations

import random

from tools.bench_event_tables import quantile_gap


def _blocks(rng: random.Random, shift: float, n: int = 1100) -> list[list[float]]:
    return [[rng.expovariate(200.0) + shift for _ in range(n)] for _ in range(2)]


def test_two_kinds_alike_get_a_ci_around_zero() -> None:
    rng = random.Random(7)
    gap, low, high = quantile_gap(_blocks(rng, 0.0), _blocks(rng, 0.0), draws=400)
    assert low < 0 < high and low <= gap <= high


def test_a_slower_kind_is_told_apart() -> None:
    rng = random.Random(8)
    gap, low, high = quantile_gap(_blocks(rng, 0.010), _blocks(rng, 0.0), draws=400)
    assert 0.005 < low <= gap <= high  # 10 ms slower: the whole CI above 0
    gap, low, high = quantile_gap(_blocks(rng, 0.0), _blocks(rng, 0.010), draws=400)
    assert low <= gap <= high < -0.005


def test_a_stall_counts_as_one_event_not_many() -> None:
    """Samples delayed together by one stall are resampled together: a single 300 ms
    stall in one block widens the CI rather than passing for a lasting gap."""
    rng = random.Random(9)
    stalled = _blocks(rng, 0.0)
    stalled[0][500:520] = [0.3] * 20  # 20 consecutive samples behind one stall
    _gap, low, high = quantile_gap(stalled, _blocks(rng, 0.0), draws=400)
    assert low < 0.05 and high > 0.1
