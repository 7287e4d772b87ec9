"""hard stops sampling once its best card is clearly best (engine.ai.racing)."""

from __future__ import annotations

import random

import pytest

from engine import SeatView, make_rules, new_game
from engine.actions import Play
from engine.ai import get_player
from engine.ai import open_search as o
from engine.ai.racing import Race
from engine.ai.search import Budget
from engine.cards import mask_of


def test_a_card_better_in_every_world_settles_at_the_first_check() -> None:
    race = Race(["good", "bad"], min_worlds=32)
    for i in range(31):
        race.add({"good": 1.0 + i % 3, "bad": 0.0 + i % 3})
        assert not race.settled()
    race.add({"good": 1.0, "bad": 0.0})
    assert race.settled()
    assert race.leader() == "good"


def test_equally_good_noisy_cards_never_settle() -> None:
    rng = random.Random(5)
    race = Race(["a", "b", "c"])
    for _ in range(400):
        race.add({c: rng.gauss(0.0, 1.0) for c in "abc"})
        assert not race.settled()


def test_a_small_real_edge_settles_later_and_for_the_better_card() -> None:
    rng = random.Random(9)
    race = Race(["worse", "better"])
    n = 0
    while not race.settled():
        base = rng.gauss(0.0, 2.0)  # the world: both cards share it
        race.add({"worse": base + rng.gauss(0.0, 0.5), "better": base + 0.15 + rng.gauss(0.0, 0.5)})
        n += 1
        assert n < 2000
    assert n > 32
    assert race.leader() == "better"
    mean, error = race.margin("better", "worse")
    assert mean > 3 * error > 0


def test_cards_equal_in_every_world_settle_only_after_twice_the_minimum() -> None:
    race = Race([1, 2], min_worlds=16, every=8)
    for i in range(31):
        race.add({1: float(i % 4), 2: float(i % 4)})
        assert not race.settled()
    race.add({1: 0.0, 2: 0.0})
    assert race.settled()


def test_one_candidate_is_settled_at_once() -> None:
    race = Race(["only"], min_worlds=4, every=1)
    for _ in range(4):
        race.add({"only": 1.0})
    assert race.settled()


def _decisions(overrides: dict[str, object], seed: int, count: int) -> list[SeatView]:
    game, _ = new_game(rules=make_rules("ruff-trump-willughby", None, overrides), seed=seed)
    easy = get_player("easy")
    rng = random.Random(seed)
    views = []
    while not game.is_over and game.deal_no == 1 and len(views) < count:
        seat = game.to_act()
        assert seat is not None
        view = game.observe(seat)
        if sum(isinstance(a, Play) for a in view.legal) > 1:
            views.append(view)
        game.apply(seat, easy.choose(view, view.legal, rng))
    return views


@pytest.mark.parametrize("overrides", [{"players": 2}, {"players": 3}], ids=["2p", "3p"])
def test_racing_samples_fewer_worlds_and_keeps_the_clear_choices(
    overrides: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    sampled = [0]
    real = o.sample_world

    def counting(k: o.Known, rng: random.Random) -> o.World | None:
        sampled[0] += 1
        return real(k, rng)

    monkeypatch.setattr(o, "sample_world", counting)
    # a generous budget, so the world limit, not the clock, ends a search without racing
    plain = Budget(soft=30.0, cap=60.0, min_worlds=2, max_worlds=160)
    racing = Budget(soft=30.0, cap=60.0, min_worlds=2, max_worlds=160, race=True)
    worlds = {False: 0, True: 0}
    same = total = 0
    for view in _decisions(overrides, seed=3, count=12):
        assert isinstance(view, SeatView)
        legal = mask_of(a.card for a in view.legal if isinstance(a, Play))
        chosen = {}
        for race, budget in ((False, plain), (True, racing)):
            sampled[0] = 0
            chosen[race] = o.search_play(view, legal, random.Random(1), budget)
            worlds[race] += sampled[0]
        total += 1
        same += chosen[True] == chosen[False]
    assert total == 12
    assert worlds[True] < 0.8 * worlds[False]
    assert same >= total - 2  # the race stops only on clear decisions
