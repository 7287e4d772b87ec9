"""Hard's hints from play: their weights learned from records (tools.learn_hints), and
worlds dealt keeping them (engine.ai.search.worlds.sample_world_by_hints)."""

from __future__ import annotations

import random

from engine import DealScored, new_game
from engine.actions import Play
from engine.ai import arena_player
from engine.ai.levels import HARD, LEARNED_HINTS, profile
from engine.ai.search.bitmasks import NO_TRUMP
from engine.ai.search.worlds import HINT_WEIGHTS, sample_world_by_hints, situation
from engine.ai.strategies.partnership import PartnershipStrategy
from engine.cards import Card
from tools.learn_hints import Counts, count_card, count_play, wilson

from .helpers import positions


def _i(code: str) -> int:
    return Card.parse(code).index


def _mask(*codes: str) -> int:
    return sum(Card.parse(c).bit for c in codes)


SPADES = Card.parse("2S").suit.order


def test_the_counts_follow_the_hints_definitions() -> None:
    counts = Counts()
    # third hand (partner led the 2; the second hand's king wins): held the ace, played low
    count_card(_mask("AH", "3H", "4C"), [_i("2H"), _i("KH")], _i("3H"), SPADES, counts)
    # fourth hand, an opponent's five wins: held the nine, played the four
    count_card(_mask("9H", "4H"), [_i("2H"), _i("3H"), _i("5H")], _i("4H"), SPADES, counts)
    # fourth hand, beat it: could, and did
    count_card(_mask("9H", "4H"), [_i("2H"), _i("3H"), _i("5H")], _i("9H"), SPADES, counts)
    # fourth hand, void in hearts with a trump, an opponent's king wins: threw a club
    count_card(_mask("2S", "2C"), [_i("KH"), _i("2H"), _i("3H")], _i("2C"), SPADES, counts)
    # partner winning: no hint either way
    count_card(_mask("AH", "4H"), [_i("2H"), _i("KH"), _i("3H")], _i("4H"), SPADES, counts)
    # no trumps: a void fourth hand has nothing to ruff with
    count_card(_mask("2S", "2C"), [_i("KH"), _i("2H"), _i("3H")], _i("2C"), NO_TRUMP, counts)
    assert counts.could == {"fourth": 2, "third": 1, "ruff": 1}
    assert counts.did_not == {"fourth": 1, "third": 1, "ruff": 1}


def test_wilson_interval() -> None:
    p, lo, hi = wilson(6, 230)
    assert round(p, 3) == 0.026 and 0.011 < lo < 0.013 and 0.055 < hi < 0.057
    assert wilson(0, 10)[1] == 0.0


def test_counting_whole_records_finds_the_positions_and_the_rules_player_never_ducks() -> None:
    rules = arena_player("rules")
    total = Counts()
    for seed in range(1, 6):
        game, _ = new_game("whist-5", seed=seed, first_dealer=seed % 4)
        rng = random.Random(seed)
        while (seat := game.to_act()) is not None:
            view = game.observe(seat)
            events = game.apply(seat, rules.choose(view, view.legal, rng))
            if any(isinstance(e, DealScored) for e in events):
                break
        total.add(count_play(game.to_record(), range(4)))
    assert sum(total.could.values()) >= 5
    assert sum(total.did_not.values()) == 0  # it beats (or ruffs) whenever it can there


def test_hard_learned_weighs_by_the_learned_weights_and_hard_by_hand() -> None:
    learned = profile("hard-learned")
    assert learned.hint_weights == LEARNED_HINTS and learned.hint_rules
    assert HARD.hint_weights is None and not HARD.hint_rules
    _game, view = next(positions(lambda g, v: len(situation(v).hints) >= 2, "whist-5"))
    by_hand = {w for *_, w in situation(view).hints}
    assert by_hand <= set(HINT_WEIGHTS)
    strategy = PartnershipStrategy(view, learned)
    assert {w for *_, w in strategy.sit.hints} <= set(LEARNED_HINTS)


def test_worlds_dealt_by_the_hints_keep_every_hint_not_yet_broken() -> None:
    found = 0
    for _game, view in positions(
        lambda g, v: len(situation(v).hints) >= 2 and any(isinstance(a, Play) for a in v.legal),
        "whist-5",
        seeds=range(60),
    ):
        sit = situation(view)
        kept = [(s, forbid) for s, forbid, since, _ in sit.hints if not since & forbid]
        rng = random.Random(1)
        for _ in range(20):
            world = sample_world_by_hints(sit, rng)
            if world is None:
                continue
            found += 1
            assert not any(world[s] & forbid for s, forbid in kept)
            assert world[sit.seat] == sit.my_hand
    assert found > 20
    _, quiet = next(positions(lambda g, v: not situation(v).hints, "whist-5"))
    assert sample_world_by_hints(situation(quiet), random.Random(1)) is None
