"""Turnover Bridge (RULES.md §8): the worked example §11.12, layouts in play, refusals, scoring."""

from __future__ import annotations

import json
import random

import pytest

from engine import Card, Game, IllegalAction, make_rules, new_game, play
from engine.events import DealScored, GameOver, LayoutCardPlayed, TrickWon
from engine.families.turnover import LayoutDealt
from engine.layout import PileView
from engine.rules import RulesError

from .helpers import cards, of_kind

GAME = "turnover-bridge"
P, O = 0, 1  # noqa: E741 - RULES.md §11.12 names the players P and O; P leads, O deals

LAYOUT = {
    P: {
        "down": "2H 3H 4H 9D 5H 6H 7H 8H 9H",
        "up": "3C 4C 5C 2S 6C 7C 8C 9C 10C",
        "hand": "KD QD JD 10D 3S 4S 5S 6S",
    },
    O: {
        "down": "10H JH QH KH 2C 2D 3D 4D 5D",
        "up": "6D 7D 8D JC QC KC AC 7S 8S",
        "hand": "AH AD 9S 10S JS QS KS AS",
    },
}


def turnover_deck(dealer: int, layout: dict[int, dict[str, str]]) -> list[Card]:
    """The deck that deals ``layout`` (RULES.md §8.2: one at a time from the non-dealer)."""
    order = (1 - dealer, dealer)
    deck: list[Card] = []
    for part in ("down", "up"):
        piles = {seat: cards(layout[seat][part]) for seat in order}
        for position in range(len(piles[order[0]])):
            deck += [piles[seat][position] for seat in order]
    hands = {seat: cards(layout[seat]["hand"]) for seat in order}
    for j in range(len(hands[order[0]])):
        deck += [hands[seat][j] for seat in order]
    return deck


def example(**overrides: object) -> tuple[Game, list]:
    rules = make_rules(GAME, None, overrides)
    return new_game(rules=rules, seed=0, first_dealer=O, deck=turnover_deck(O, LAYOUT))


def test_the_deal_lays_out_rows_and_hands() -> None:
    game, events = example()
    assert set(game.hand(P)) == set(cards(LAYOUT[P]["hand"])) and len(game.hand(O)) == 8
    dealt = of_kind(events, LayoutDealt)
    assert [e.up for e in dealt] == [tuple(cards(LAYOUT[s]["up"])) for s in (P, O)]
    assert all(e.down == (1,) * 9 for e in dealt)
    view = game.observe(P)
    assert view.layouts[P][3] == PileView(cards("2S")[0], 1, False)
    assert view.layouts == game.observe(O).layouts  # the same for both players
    assert game.trump is not None and game.trump.value == "S"
    assert game.to_act() == P and game.phase == "play"


def test_worked_example_the_card_beneath_turns_up_for_the_next_trick() -> None:
    game, _ = example()
    nine_d, two_s = cards("9D 2S")
    events = game.apply(P, play(two_s))
    assert of_kind(events, LayoutCardPlayed) == [LayoutCardPlayed(P, 3, two_s, nine_d)]
    for seat in (P, O):
        assert game.observe(seat).layouts[P][3] == PileView(nine_d, 0, True)
    assert not game.playable(P) & nine_d.bit  # public at once, playable from the next trick
    # O must follow spades from his available cards (face-up 7S 8S, hand 9S..AS)
    assert {a.card for a in game.legal_actions(O)} == set(cards("7S 8S 9S 10S JS QS KS AS"))
    game.apply(O, play(cards("8S")[0]))
    assert game.playable(P) & nine_d.bit
    assert game.observe(P).layouts[P][3] == PileView(nine_d, 0, False)
    # O's 8S came from his layout: the 5D beneath is face up, playable now the trick is over
    assert game.observe(P).layouts[O][8] == PileView(cards("5D")[0], 0, False)


def _after_first_trick() -> Game:
    game, _ = example()
    game.apply(P, play(cards("2S")[0]))
    game.apply(O, play(cards("8S")[0]))  # O wins and leads next
    assert game.to_act() == O
    return game


def test_worked_example_face_down_cards_do_not_count_for_following() -> None:
    game = _after_first_trick()
    game.apply(O, play(cards("AH")[0]))
    # P's hearts are all face down: he is void in hearts and may play any available card
    legal = {a.card for a in game.legal_actions(P)}
    available = set(game.hand(P)) | set(cards("3C 4C 5C 9D 6C 7C 8C 9C 10C"))
    assert legal == available
    trumped = game.clone()
    won = of_kind(trumped.apply(P, play(cards("3S")[0])), TrickWon)[0]
    assert won.winner == P  # a spade beats the led heart
    won = of_kind(game.apply(P, play(cards("KD")[0])), TrickWon)[0]
    assert won.winner == O  # two side suits: the card led wins


def test_refusals_name_the_layout_reason() -> None:
    game = _after_first_trick()
    game.apply(O, play(cards("AH")[0]))
    with pytest.raises(IllegalAction, match="face down") as face_down:
        game.apply(P, play(cards("2H")[0]))
    assert face_down.value.code == "not_available"
    with pytest.raises(IllegalAction, match="opponent's layout"):
        game.apply(P, play(cards("6D")[0]))
    with pytest.raises(IllegalAction, match="opponent's layout"):
        game.apply(P, play(cards("10H")[0]))  # even a face-down card of his
    with pytest.raises(IllegalAction, match="not in your hand"):
        game.apply(P, play(cards("AS")[0]))  # O's hand card: nothing to tell
    # a card turned up in this trick waits for the next one (in two-handed play the
    # owner never acts again in the same trick, so the state is set up by hand here)
    state = game.clone()
    turned = state.layout.play(P, cards("3C")[0]) if state.layout else None
    assert turned is not None
    with pytest.raises(IllegalAction, match="next trick"):
        state.check(P, play(turned))


def test_the_deal_stops_at_fourteen_tricks() -> None:
    game, _ = new_game(GAME, seed=11, first_dealer=0)
    rng = random.Random(3)
    events = []
    while game.deal_no == 1 and not game.is_over:
        seat = game.to_act()
        assert seat is not None
        events += game.apply(seat, rng.choice(game.legal_actions(seat)))
    won = of_kind(events, TrickWon)
    assert max(won[-1].tricks) == 14 and all(max(w.tricks) < 14 for w in won[:-1])
    (scored,) = of_kind(events, DealScored)
    assert scored.trick_points == tuple(1 if t == 14 else 0 for t in scored.tricks)
    assert of_kind(events, GameOver)[0].winner == scored.tricks.index(14)  # target 1


def test_odd_tricks_play_all_26() -> None:
    game, _ = new_game(
        GAME,
        overrides={"stop_at_majority": False, "scoring": "odd_tricks", "target_score": 99},
        seed=4,
        first_dealer=1,
    )
    rng = random.Random(1)
    events = []
    while game.deal_no == 1:
        seat = game.to_act()
        assert seat is not None
        events += game.apply(seat, rng.choice(game.legal_actions(seat)))
    (scored,) = of_kind(events, DealScored)
    assert sum(scored.tricks) == 26
    assert scored.trick_points == tuple(max(0, t - 13) for t in scored.tricks)
    assert game.dealer == 0  # the deal alternates


def test_parameters_and_presets() -> None:
    rules = make_rules(GAME)
    assert (rules.layout, rules.trump_mode, rules.stop_at_majority, rules.scoring) == (
        "seed004",
        "spades",
        True,
        "deal_win",
    )
    assert (rules.players, rules.hand_size, rules.target_score, rules.sides) == (2, 8, 1, 2)
    pagat = make_rules(GAME, "pagat")
    assert (pagat.layout, pagat.hand_size) == ("pagat", 2)
    with pytest.raises(RulesError):
        make_rules(GAME, overrides={"scoring": "odd_tricks"})  # needs stop_at_majority=false
    game, events = new_game(GAME, "pagat", seed=2)
    assert [len(game.hand(s)) for s in (0, 1)] == [2, 2]  # the hole cards
    assert all(len(e.up) == 12 for e in of_kind(events, LayoutDealt))
    assert len(game.observe(0).layouts[1]) == 12
    game, _ = new_game(GAME, overrides={"trump": "none"}, seed=2)
    assert game.trump is None
    game, _ = new_game(GAME, overrides={"trump": "turn_up"}, seed=2, first_dealer=1)
    assert (
        game.turn_up is not None
        and game.turn_up in game.hand(1)
        and game.trump is game.turn_up.suit
    )
    assert game.observe(0).turn_up is game.turn_up


def test_snapshots_and_records_keep_the_layouts() -> None:
    game, _ = example()
    game.apply(P, play(cards("2S")[0]))  # 9D turned up, fresh
    for copy in (
        Game.from_snapshot(json.loads(json.dumps(game.snapshot()))),
        Game.from_record(json.loads(json.dumps(game.to_record()))),
        game.clone(),
    ):
        assert copy.state_key() == game.state_key() and copy.layout == game.layout
        assert copy.layout is not game.layout
        assert copy.observe(O) == game.observe(O)
