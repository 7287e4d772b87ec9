"""AI in solo-whist: bids, acceptance, naming trumps and misère play at every level."""

from __future__ import annotations

import random

import pytest

from engine import Card, Play, new_game
from engine.ai import LEVELS
from engine.ai.strategies.solo_whist import easy_bid, estimate_tricks, misere_danger
from engine.phases.solo_auction import solo_bid
from engine.phases.solo_declare import NameTrump
from engine.rules import make_rules
from tests.engine.helpers import stacked_game

from .helpers import fast_player

LOW = "2S 3S 4S 2H 3H 4H 2D 3D 4D 2C 3C 4C 5C"
HIGH = "AS KS QS JS 10S 9S AH KH AD KD QD AC KC"


def _mask(text: str) -> int:
    m = 0
    for part in text.split():
        m |= Card.parse(part).bit
    return m


def test_hand_evaluation() -> None:
    assert misere_danger(_mask(LOW)) == 0
    assert misere_danger(_mask(HIGH)) > 20
    assert estimate_tricks(_mask(HIGH), 0) >= 9
    assert estimate_tricks(_mask(LOW), 0) < 2


def test_easy_bids_misere_with_a_low_hand_and_abundance_with_a_strong_one() -> None:
    for text, wanted in ((LOW, {"mis", "spread"}), (HIGH, {"abund", "royal", "slam"})):
        game, _ = stacked_game("solo-whist", dealer=0, hands={1: text})
        view = game.observe(1)
        action = easy_bid(view, view.legal)
        assert action.call in wanted, (text, action)  # type: ignore[attr-defined]


@pytest.mark.slow
def test_every_level_makes_every_kind_of_decision() -> None:
    """Trumps named, proposals accepted, misère played: mixed levels, many deals, all legal."""
    seen: set[str] = set()
    rules = make_rules("solo-whist", None, {"target_score": 30})
    for seed in range(3):
        game, _ = new_game(rules=rules, seed=seed)
        rng = random.Random(seed)
        players = [fast_player(level) for level in (*LEVELS, "normal")]
        steps = 0
        while not game.is_over and steps < 600:
            seat = game.to_act()
            assert seat is not None
            view = game.observe(seat)
            action = players[seat].choose(view, view.legal, rng)
            assert action in view.legal
            if isinstance(action, NameTrump):
                seen.add("trump")
            elif isinstance(action, Play):
                seen.add(f"play:{view.contract}")
            else:
                seen.add(action.encode())
            game.apply(seat, action)
            steps += 1
    assert "bid:pass" in seen and any(s.startswith("play:") for s in seen)


def test_misere_declarer_ducks_under_the_winning_card() -> None:
    hands = {
        1: LOW,
        0: "AS KS QS 5S AH KH QH 5H AD KD QD AC KC",
        2: "JS 10S 9S JH 10H 9H 8H JD 10D 9D QC JC 10C",
    }
    for level in LEVELS:
        game, _ = stacked_game("solo-whist", dealer=3, hands=hands)
        game.apply(0, solo_bid("pass"))
        game.apply(1, solo_bid("mis"))
        game.apply(2, solo_bid("pass"))
        game.apply(3, solo_bid("pass"))
        game.apply(0, Play(Card.parse("QS")))  # N leads the queen
        view = game.observe(1)
        action = fast_player(level).choose(view, view.legal, random.Random(1))
        assert isinstance(action, Play) and action.card.suit.value == "S"
        assert action.card.rank < Card.parse("QS").rank  # every spade of his is lower: any loses
        if level == "easy":
            assert action.card == Card.parse("4S")  # sheds the highest card that still loses
        view = game.observe(1)
        assert view.contract == "mis" and view.declarer == 1


def test_hard_spends_its_budget_on_more_deals_than_normal(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a contract deal hard samples deals until its budget is spent (up to 400),
    not a fixed handful: with a clock that never moves, every level reaches its cap."""
    from engine.ai import clock, get_player
    from engine.ai.strategies import solo_whist as contract

    rules = make_rules("solo-whist", None, None)
    game, _ = new_game(rules=rules, seed=3)
    seat = game.to_act()
    assert seat is not None
    view = game.observe(seat)
    assert any(a.encode().startswith("bid:") for a in view.legal)
    drawn: list[int] = []
    real = contract.sample_world

    def counting(*args: object, **kwargs: object) -> object:
        drawn.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(contract, "sample_world", counting)
    monkeypatch.setitem(clock.CLOCKS, "cpu", lambda: 0.0)
    clock.use("cpu")
    try:
        counts = {}
        for level in ("normal", "hard"):
            drawn.clear()
            get_player(level).choose(view, view.legal, random.Random(1))
            counts[level] = len(drawn)
    finally:
        clock.use("wall")
    assert counts == {"normal": 24, "hard": 400}
