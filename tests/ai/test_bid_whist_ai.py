"""The AI players in Bid Whist: every decision at every level, legal and sensible."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from engine import Game, game_ids, make_rules, new_game
from engine.actions import Discard, Pass
from engine.ai import EasyPlayer, get_player
from engine.ai.strategies.bid_whist import (
    ContractPlayer,
    applies,
    knowledge_of,
    legal_mask,
    model_of,
    rule_card,
    sample_world,
    shown_voids,
)
from engine.cards import (
    DOWNTOWN,
    HIGH,
    Card,
    RankOrder,
    Suit,
    cards_from_mask,
    mask_of,
    parse_cards,
)
from engine.game import stacked_deck
from engine.phases.auction import Bid, bid, state_of
from engine.phases.contract import NameDirection, NameTrump

from .helpers import fast_player

N, E, S, W = 0, 1, 2, 3

VARIANTS: list[dict[str, object]] = [
    {},
    {"declare_before_kitty": False, "nt_jokers": "bidder_discards", "kitty_exposed": True},
    {"jokers": 0, "downtown_ace": "low", "all_pass": "redeal", "min_bid": 4},
]


def _deal(hands: Mapping[int, str], kitty: str = "", dealer: int = N, **overrides: object) -> Game:
    rules = make_rules("bid-whist", None, overrides)
    parsed = {s: t.split() for s, t in hands.items()}
    deck = stacked_deck(rules, dealer, parsed, kitty.split())  # type: ignore[arg-type]
    game, _ = new_game(rules=rules, seed=0, first_dealer=dealer, deck=deck)
    return game


def test_the_contract_player_serves_bid_whist_only() -> None:
    for game_id in game_ids():
        game, _ = new_game(game_id, seed=1)
        seat = game.to_act()
        assert seat is not None
        assert applies(game.observe(seat)) == (game_id == "bid-whist")


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("overrides", VARIANTS, ids=["default", "after-kitty", "no-jokers"])
def test_every_level_makes_every_decision(level: str, overrides: dict[str, object]) -> None:
    player = fast_player(level)
    kinds: set[str] = set()
    for seed in range(3):
        game, _ = new_game("bid-whist", None, overrides, seed=seed)
        rng = random.Random(seed)
        deals = game.deals_total
        while not game.is_over and game.deals_total < deals + 2:
            seat = game.to_act()
            assert seat is not None
            view = game.observe(seat)
            action = player.choose(view, view.legal, rng)
            assert action in view.legal
            if len(view.legal) > 1:
                kinds.add(type(action).__name__)
            game.apply(seat, action)
    assert {"Bid", "Discard", "Play"} <= kinds
    assert kinds & {"NameTrump", "NameDirection"}


STRONG = "BJ LJ AS KS QS JS 10S 9S AH KH AD AC"
WEAK = "3S 4S 5S 6H 7H 8H 6D 7D 8D 9C 10C JC"


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_bids_a_strong_hand_and_passes_a_weak_one(level: str) -> None:
    # normal's search bounded by deals, not by time: the same decision on a busy machine
    player = (
        get_player("easy")
        if level == "easy"
        else ContractPlayer(search=True, budget=60.0, cap=60.0, max_worlds=64)
    )
    strong = _deal({E: STRONG})
    view = strong.observe(E)
    action = player.choose(view, view.legal, random.Random(1))
    assert isinstance(action, Bid) and action.number >= 4  # bids what it expects to make
    weak = _deal({E: WEAK})
    view = weak.observe(E)
    assert isinstance(player.choose(view, view.legal, random.Random(1)), Pass)


def test_the_forced_dealer_bids_and_the_declarer_names_his_long_suit() -> None:
    game = _deal({N: "BJ LJ AH KH QH 9H 5H 2S 3D 4D 7C 8C"})
    for seat in (E, S, W):
        game.apply(seat, Pass())
    view = game.observe(N)
    assert Pass() not in view.legal
    action = EasyPlayer().choose(view, view.legal, random.Random(0))
    assert isinstance(action, Bid)
    game.apply(N, bid("3u"))
    view = game.observe(N)
    for level in ("easy", "normal"):
        assert fast_player(level).choose(view, view.legal, random.Random(0)) == NameTrump(
            Suit.HEARTS
        )


def test_downtown_no_trump_is_named_for_low_cards() -> None:
    game = _deal({E: "AS 2S 3S 4S AH 2H 3H AD 2D 3D 2C 3C"})
    game.apply(E, bid("4n"))
    for seat in (S, W, N):
        game.apply(seat, Pass())
    view = game.observe(E)
    for level in ("easy", "normal"):
        assert fast_player(level).choose(view, view.legal, random.Random(0)) == NameDirection(
            "downtown"
        )


def test_kitty_lay_out_keeps_trumps_and_throws_powerless_jokers() -> None:
    suit = _deal({E: "AS KS QS 2S 3S 4S 9H 7D 5D 4C 3C 2C"}, "BJ LJ 5S 6H 8D 9C")
    suit.apply(E, bid("4u"))
    for seat in (S, W, N):
        suit.apply(seat, Pass())
    suit.apply(E, NameTrump(Suit.SPADES))
    player = EasyPlayer()
    while suit.phase == "kitty":
        view = suit.observe(E)
        suit.apply(E, player.choose(view, view.legal, random.Random(0)))
    kept = set(suit.hand(E))
    assert {c.code for c in kept} >= {"BJ", "LJ", "AS", "KS", "QS", "5S"}
    nt = _deal({E: "AS KS QS JS AH KH QH AD KD AC KC QC"}, "BJ LJ 2S 2H 2D 2C")
    nt.apply(E, bid("5n"))
    for seat in (S, W, N):
        nt.apply(seat, Pass())
    nt.apply(E, NameDirection("uptown"))
    view = nt.observe(E)
    first = player.choose(view, view.legal, random.Random(0))
    assert isinstance(first, Discard) and first.card.is_joker


def test_rule_card_wins_cheaply_last_and_trumps_a_losing_trick() -> None:
    m = model_of(Suit.SPADES, DOWNTOWN)
    hand = mask_of(_cards("2H KH 5S"))
    trick = [c.index for c in _cards("9H 7H 4H")]  # 4H (right-hand opponent) wins downtown
    partner = [c.index for c in _cards("9H 4H 7H")]  # 4H is partner's: play low
    assert rule_card(m, hand, legal_mask(m, hand, partner), partner, 0) == _cards("KH")[0].index
    card = rule_card(m, hand, legal_mask(m, hand, trick), trick, 0)
    assert card == _cards("2H")[0].index  # the only heart that beats 4H
    void = mask_of(_cards("5S 9D"))
    card = rule_card(m, void, legal_mask(m, void, trick), trick, 0)
    assert card == _cards("5S")[0].index  # void in hearts: trump
    nt = model_of(None, HIGH)
    with_joker = mask_of(_cards("BJ 9D"))
    led = [c.index for c in _cards("AC KC")]
    assert (
        rule_card(nt, with_joker, legal_mask(nt, with_joker, led), led, 0) == 53
    )  # throw the joker


def _cards(text: str) -> list[Card]:
    return parse_cards(text)


def test_rule_card_always_legal_in_random_positions() -> None:
    rng = random.Random(5)
    for _ in range(300):
        trump = rng.choice([None, *Suit])
        order = RankOrder.for_mode(rng.choice(["uptown", "downtown"]), rng.choice(["high", "low"]))
        m = model_of(trump, order)
        deck = list(range(54))
        rng.shuffle(deck)
        hand = sum(1 << c for c in deck[:8])
        trick = deck[8 : 8 + rng.randrange(4)]
        legal = legal_mask(m, hand, trick)
        card = rule_card(m, hand, legal, trick, sum(1 << c for c in deck[12:]))
        assert legal >> card & 1


@pytest.mark.parametrize("overrides", VARIANTS, ids=["default", "after-kitty", "no-jokers"])
def test_sampled_worlds_agree_with_the_view(overrides: dict[str, object]) -> None:
    rng = random.Random(3)
    player = ContractPlayer(search=False)
    for seed in range(4):
        game, _ = new_game("bid-whist", None, overrides, seed=seed)
        while not game.is_over and game.deals_total == 1:
            seat = game.to_act()
            assert seat is not None
            view = game.observe(seat)
            m = model_of(view.trump, view.rank_order)
            k = knowledge_of(view, m)
            world = sample_world(k, rng)
            assert world is not None
            assert world[seat] == game.hands[seat]
            assert [w.bit_count() for w in world[:4]] == [h.bit_count() for h in game.hands]
            placed = 0
            for w in world:
                assert not placed & w
                placed |= w
            hidden = len(game.stock) + (
                len(game.discards) if seat != state_of(game).declarer else 0
            )
            assert world[4].bit_count() == hidden
            if game.phase == "play":  # a seat shown void holds none of that suit
                for s, suits in shown_voids(m, view).items():
                    for card in cards_from_mask(world[s]):
                        assert not suits >> m.suit[card.index] & 1 or m.suit[card.index] == 4
            game.apply(seat, player.choose(view, view.legal, rng))


def test_normal_declarer_makes_a_cold_contract() -> None:
    game = _deal({E: STRONG})
    game.apply(E, bid("4u"))
    for seat in (S, W, N):
        game.apply(seat, Pass())
    game.apply(E, NameTrump(Suit.SPADES))
    players = {
        E: fast_player("normal"),
        S: EasyPlayer(noise=0.0),
        W: EasyPlayer(noise=0.0),
        N: EasyPlayer(noise=0.0),
    }
    rng = random.Random(0)
    while game.deals_total == 1 and not game.is_over:
        seat = game.to_act()
        assert seat is not None
        view = game.observe(seat)
        game.apply(seat, players[seat].choose(view, view.legal, rng))
    assert game.scores[1] >= 4  # 4 uptown made: 10 books or more
