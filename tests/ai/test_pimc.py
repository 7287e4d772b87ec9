"""Plain PIMC (level pimc): hard's search without its inference."""

from __future__ import annotations

import random
from dataclasses import fields

from engine.actions import Play
from engine.ai.baselines import PIMC, arena_player
from engine.ai.levels import HARD
from engine.ai.search.worlds import situation
from engine.ai.strategies.partnership import PartnershipStrategy

from .helpers import positions


def test_pimc_is_hards_profile_with_only_the_inference_off() -> None:
    differ = {f.name for f in fields(HARD) if getattr(HARD, f.name) != getattr(PIMC, f.name)}
    assert differ == {"name", "inference", "uniform", "sharp"}
    assert not PIMC.inference and PIMC.uniform and not PIMC.sharp
    assert PIMC.double_dummy and PIMC.max_worlds == HARD.max_worlds and PIMC.soft == HARD.soft


def test_pimc_deals_a_ruffers_lay_out_uniformly_and_ignores_the_hints() -> None:
    # cotton1674, an opponent took the ruff: hard biases his lay-out to low cards
    _game, view = next(
        positions(
            lambda g, v: (
                situation(v).out_is_discard
                and bool(situation(v).hints)
                and sum(isinstance(a, Play) for a in v.legal) > 1
            )
        )
    )
    hard = PartnershipStrategy(view, HARD)
    pimc = PartnershipStrategy(view, PIMC)
    assert hard.sit.out_is_discard and not pimc.sit.out_is_discard
    assert hard.inference and not pimc.inference
    # the side suits' aces: laid out far more often in pimc's worlds
    sit = pimc.sit
    high = 0
    for c in range(52):
        if c // 13 != sit.trump and c % 13 == 12 and sit.unknown >> c & 1:
            high |= 1 << c
    assert high

    def out_share(strategy: PartnershipStrategy) -> float:
        laid = 0
        worlds = strategy.worlds(random.Random(3))
        for _ in range(1000):
            world, weight = next(worlds)
            assert weight == 1.0
            held = world[0] | world[1] | world[2] | world[3]
            laid += (high & ~held).bit_count()
        return laid / 1000

    assert out_share(pimc) > 1.5 * out_share(hard)


def test_pimc_plays_a_deal_legally() -> None:
    player = arena_player("pimc", budget=0.01)
    _game, view = next(positions(lambda g, v: sum(isinstance(a, Play) for a in v.legal) > 2))
    assert player.choose(view, view.legal, random.Random(1)) in view.legal
