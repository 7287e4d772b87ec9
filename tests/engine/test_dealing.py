"""Dealing (RULES.md §0.1 patterns, turn-ups), the shuffle, and the test hooks."""

from __future__ import annotations

import json
import random

import pytest

from engine import Card, Game, Suit, game_ids, make_rules, new_game, parse_cards, presets_for
from engine.actions import TakeRuff
from engine.cards import Rank, deck_with_jokers, full_deck
from engine.events import HandDealt, TrickWon, TrumpFixed
from engine.game import _shuffled, deal_seats, stacked_deck
from engine.phases.deal import LAYOUT
from engine.rules import GAMES, Rules, rules_with

from .helpers import E, N, S, W, of_kind, play_deal


def _offered_patterns() -> list[tuple[str, str]]:
    """Every (game id, deal pattern) the game offers (a game without the parameter has one fixed deal)."""
    pairs = []
    for game_id in game_ids():
        for param in GAMES[game_id].params:
            if param.name == "deal_pattern":
                pairs += [(game_id, p) for p in ("singles", "packets4") if p in param.choices]
    return pairs


@pytest.mark.parametrize(("game_id", "pattern"), _offered_patterns())
def test_every_pattern_fills_every_hand(game_id: str, pattern: str) -> None:
    rules = make_rules(game_id, overrides={"deal_pattern": pattern})
    for dealer in range(4):
        seats = deal_seats(rules, dealer)
        assert len(seats) == rules.players * rules.hand_size
        assert all(seats.count(s) == rules.hand_size for s in range(4))
        assert seats[0] == (dealer + 1) % 4  # eldest first
        game, events = new_game(rules=rules, seed=dealer, first_dealer=dealer)
        assert [len(e.cards) for e in of_kind(events, HandDealt)] == [rules.hand_size] * 4
        assert len(game.stock) == rules.stock_size


def test_packets4_with_thirteen_cards_stops_at_full_hands() -> None:
    # three rounds of four (12 each), then a fourth round of one card each
    rules = make_rules("whist-5", overrides={"deal_pattern": "packets4"})
    seats = deal_seats(rules, W)
    for packet in range(12):
        assert seats[4 * packet : 4 * packet + 4] == [(W + 1 + packet) % 4] * 4
    assert seats[48:] == [N, E, S, W]
    # the dealer's last card is still deck[51], the turn-up
    deck = full_deck()
    game, _ = new_game(rules=rules, seed=0, first_dealer=W, deck=deck)
    assert game.turn_up is deck[51] and game.turn_up_holder == W


def test_solo_pattern() -> None:
    rules = rules_with(make_rules("whist-5"), deal_pattern="solo_33331")
    seats = deal_seats(rules, W)
    assert seats[:12] == [N] * 3 + [E] * 3 + [S] * 3 + [W] * 3
    assert seats[48:] == [N, E, S, W]  # the last card of the pack goes to the dealer
    assert all(seats.count(s) == 13 for s in range(4))


@pytest.mark.parametrize(
    ("game_id", "overrides", "position", "holder"),
    [
        ("whist-5", {}, 51, "dealer"),  # singles: deck[51] is the dealer's 13th card
        ("whisk-48", {}, 47, "dealer"),
        ("honours-48", {}, 47, "dealer"),  # packets4: dealer's 12th card
        ("honours-48", {"turn_up_card": "eldest_last"}, 35, "eldest"),  # eldest's last packet
        ("honours-48", {"turn_up_card": "eldest_last", "deal_pattern": "singles"}, 44, "eldest"),
        ("ruff-honours-cotton", {}, 48, None),  # top of the stock
    ],
)
def test_turn_up_card(
    game_id: str, overrides: dict[str, object], position: int, holder: str | None
) -> None:
    rules = make_rules(game_id, overrides=overrides)
    deck = full_deck(rules.removed_ranks)
    random.Random(position).shuffle(deck)
    game, events = new_game(rules=rules, seed=0, first_dealer=S, deck=deck)
    assert game.turn_up is deck[position] and game.trump is deck[position].suit
    want = {"dealer": S, "eldest": W, None: None}[holder]
    assert game.turn_up_holder == want
    assert of_kind(events, TrumpFixed) == [TrumpFixed(deck[position].suit, deck[position], want)]
    if want is not None:
        assert deck[position] in game.hand(want)
        # public until played: every seat sees it
        assert all(game.observe(s).turn_up is deck[position] for s in range(4))


def test_turn_up_hidden_once_played() -> None:
    rules = make_rules("whist-5")
    game, _ = new_game(rules=rules, seed=4, first_dealer=N)
    turn_up = game.turn_up
    while turn_up in game.hand(N):
        seat = game.to_act()
        assert seat is not None
        legal = game.legal_actions(seat)
        choice = next((a for a in legal if getattr(a, "card", None) is turn_up), legal[-1])
        game.apply(seat, choice)
    assert game.observe(E).turn_up is None and game.turn_up_public is False


def test_shuffle_is_random_shuffle_of_python_311() -> None:
    for removed in ((), (Rank.TWO,)):
        for k in range(300):
            deck = full_deck(removed)
            random.Random(f"{k}:deal:{k % 7}").shuffle(deck)
            indices = tuple(c.index for c in full_deck(removed))
            assert _shuffled(indices, f"{k}:deal:{k % 7}") == [c.index for c in deck]


def test_deals_follow_the_seed() -> None:
    a, _ = new_game(seed=12)
    b, _ = new_game(seed=12)
    c, _ = new_game(seed=13)
    assert a.state_key() == b.state_key() and a.hands != c.hands


# --------------------------------------------------------------------------- test hooks


def test_stacked_deck_places_hands_and_stock() -> None:
    rules = make_rules("ruff-honours-cotton")
    hands = {E: [Card.parse("AD"), "KD"], W: ["2C"]}
    deck = stacked_deck(rules, W, hands, stock=["7D", "3H"])
    assert sorted(c.index for c in deck) == list(range(52))
    seats = deal_seats(rules, W)
    assert deck[seats.index(E)] == Card.parse("AD")  # E's first dealt card
    assert deck[48:50] == [Card.parse("7D"), Card.parse("3H")]
    game, _ = new_game(rules=rules, seed=0, first_dealer=W, deck=deck)
    assert {Card.parse("AD"), Card.parse("KD")} <= set(game.hand(E))
    assert Card.parse("2C") in game.hand(W)
    assert game.turn_up == Card.parse("7D") and game.ruffer == E


@pytest.mark.parametrize(
    ("hands", "stock", "message"),
    [
        ({E: ["AD", "AD"]}, [], "given twice"),
        ({E: ["AD"]}, ["AD"], "given twice"),
        ({N: ["2S"] + [c.code for c in full_deck()[1:12]] + ["AC"]}, [], "too many"),
        ({}, ["2S", "3S", "4S", "5S", "6S"], "too many"),
        ({7: ["2S"]}, [], "no seat"),
    ],
)
def test_stacked_deck_rejects_bad_hands(
    hands: dict[int, list[str]], stock: list[str], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        stacked_deck(make_rules("ruff-honours-cotton"), W, hands, stock)  # type: ignore[arg-type]


def test_stacked_deck_rejects_cards_outside_the_pack() -> None:
    with pytest.raises(ValueError, match="not in this game's pack"):
        stacked_deck(make_rules("honours-48"), W, {N: ["2S"]})


def test_new_game_rejects_bad_hooks() -> None:
    with pytest.raises(ValueError, match="each card"):
        new_game(seed=0, deck=full_deck()[:51])
    with pytest.raises(ValueError, match="each card"):
        new_game(seed=0, deck=full_deck()[:51] + [full_deck()[0]])
    with pytest.raises(ValueError, match="each card"):
        new_game("honours-48", seed=0, deck=full_deck())  # the twos are not in this pack
    for bad in ((9, 0), (0,), (-1, 3), (1, 2, 3)):
        with pytest.raises(ValueError, match="start_scores"):
            new_game(seed=0, start_scores=bad)


def test_hooks_are_recorded_and_replayed() -> None:
    deck = full_deck()
    random.Random(99).shuffle(deck)
    game, _ = new_game(
        "ruff-honours-cotton", seed=5, first_dealer=N, deck=deck, start_scores=(7, 8)
    )
    assert game.scores == [7, 8] and game.start_scores == [7, 8]
    assert game.stock == deck[48:]
    play_deal(game)
    record = json.loads(json.dumps(game.to_record()))
    assert record["deck"] == [c.code for c in deck] and record["start_scores"] == [7, 8]
    assert Game.from_record(record).state_key() == game.state_key()
    snapshot = json.loads(json.dumps(game.snapshot()))
    assert Game.from_snapshot(snapshot).state_key() == game.state_key()
    # without the hooks, records keep their old shape
    plain, _ = new_game(seed=5)
    assert "deck" not in plain.to_record() and "start_scores" not in plain.to_record()


def test_deck_applies_to_the_first_deal_only() -> None:
    deck = full_deck()
    game, _ = new_game("whist-5", seed=3, first_dealer=N, deck=deck, start_scores=(0, 0))
    plain, _ = new_game("whist-5", seed=3, first_dealer=N)
    assert game.hands != plain.hands
    play_deal(game)
    # deal 2 is shuffled from the seed, as in a game without the hook
    play_deal(plain)
    assert game.deal_no == plain.deal_no == 2 and game.hands == plain.hands


def test_start_scores_apply_to_the_first_game_only() -> None:
    game, _ = new_game(
        "whist-5", overrides={"match_format": "rubber_bo3"}, seed=2, start_scores=(4, 4)
    )
    play_deal(game)  # 13 tricks: one side takes 7 or more and reaches 5
    assert game.game_no == 2 and game.scores == [0, 0]


def test_clone_in_the_first_ruff_phase() -> None:
    # regression: held_at_play was unset before the first ruff finished
    for seed in range(30):
        game, _ = new_game(seed=seed)
        if game.phase == "ruff":
            twin = game.clone()
            assert twin.state_key() == game.state_key()
            twin.apply(twin.to_act(), TakeRuff())  # type: ignore[arg-type]
            assert game.phase == "ruff"
            return
    raise AssertionError("no seed with a ruff phase")


@pytest.mark.parametrize("game_id", game_ids())
def test_every_preset_builds(game_id: str) -> None:
    for preset in presets_for(game_id):
        game, _ = new_game(game_id, preset, seed=1)
        assert game.rules.preset == preset
        assert isinstance(game.trump, Suit) or game.rules.trump_mode in ("cycle", "contract")


@pytest.mark.parametrize(
    "game_id", ["ruff-honours-cotton", "solo-whist", "ruff-trump-willughby", "turnover-bridge"]
)
def test_each_seat_sees_the_previous_deals_last_trick_until_a_trick_of_the_new_one(
    game_id: str,
) -> None:
    new_deals = 0
    for seed in range(
        20
    ):  # games played at random until two new deals began (a game may end first)
        overrides = (
            {"target_score": 15} if game_id == "solo-whist" else None
        )  # (a Solo game is one deal)
        game, _ = new_game(game_id, overrides=overrides, seed=seed)
        rng = random.Random(seed)
        assert all(
            game.observe(s).previous_trick is None for s in range(game.n_players)
        )  # the first deal
        last = None
        while new_deals < 2 and not game.is_over:
            deal = game.deals_total
            seat = game.to_act()
            assert seat is not None
            for event in game.apply(seat, rng.choice(game.legal_actions(seat))):
                if isinstance(event, TrickWon):
                    last = (event.leader, event.cards, event.winner)
            if game.deals_total != deal:  # a new deal: its view shows the deal before's last trick
                new_deals += 1
                for s in range(game.n_players):
                    assert game.observe(s).previous_trick == last
                assert (
                    Game.from_record(game.to_record()).observe(0).previous_trick == last
                )  # a replay keeps it
                last = None  # a deal with no trick played (all passed) leaves none
        if new_deals == 2:
            break
    assert new_deals == 2


def _stacking_cases() -> list[tuple[str, str, dict[str, object]]]:
    """Every game id and preset, plus the deal patterns, kitty placements and table sizes a game offers."""
    cases: list[tuple[str, str, dict[str, object]]] = []
    for game_id in game_ids():
        cases += [(game_id, preset, {}) for preset in presets_for(game_id)]
        for param in GAMES[game_id].params:
            if param.name in ("deal_pattern", "kitty_positions", "players"):
                cases += [
                    (game_id, GAMES[game_id].default_preset, {param.name: choice})
                    for choice in param.choices
                ]
    return cases


@pytest.mark.parametrize(("game_id", "preset", "overrides"), _stacking_cases())
def test_stacked_hands_stock_and_layouts_arrive_exactly_as_asked(
    game_id: str, preset: str, overrides: dict[str, object]
) -> None:
    try:
        rules = make_rules(game_id, preset, overrides)
    except Exception:  # noqa: BLE001 - an override this preset does not combine with
        pytest.skip(f"{game_id}/{preset} does not take {overrides}")
    n = rules.players
    for dealer in range(n):
        pack = _rotated_pack(rules, dealer)
        hands = {seat: [pack.pop() for _ in range(rules.hand_size)] for seat in range(n)}
        layouts: dict[int, list[Card]] = {}
        if rules.layout:
            per_layout = 52 // n - rules.hand_size
            layouts = {seat: [pack.pop() for _ in range(per_layout)] for seat in range(n)}
        stock = pack[::-1]  # what no hand or layout holds: the stock, head or kitty
        assert len(stock) == (0 if rules.layout else rules.stock_size)
        deck = stacked_deck(rules, dealer, hands, stock, layouts)
        game, events = new_game(rules=rules, seed=dealer, first_dealer=dealer, deck=deck)
        dealt = {e.seat: list(e.cards) for e in of_kind(events, HandDealt)}  # type: ignore[attr-defined]
        assert dealt == {
            seat: sorted(cards, key=lambda c: c.index) for seat, cards in hands.items()
        }
        if rules.layout:
            assert game.layout is not None
            piles = game.layout.shape.piles
            for seat, cards in layouts.items():
                asked = [[cards[k] for k in range(p, len(cards), piles)] for p in range(piles)]
                assert [
                    [Card.from_index(i) for i in pile] for pile in game.layout.piles[seat]
                ] == asked
        else:
            assert game.layout is None
        undealt = [*game.stock_taken, *game.stock]  # a ruff taken at once has the stock in hand
        assert undealt == stock  # the stock, head or kitty in the order asked, top first


def _rotated_pack(rules: Rules, dealer: int) -> list[Card]:
    """The game's pack in an order no deal plan produces by accident (rotated by the dealer)."""
    pack = deck_with_jokers(rules.jokers, rules.removed_ranks)
    k = 7 * dealer + 3
    return pack[k:] + pack[:k]


def test_every_family_is_covered_by_the_stacking_test() -> None:
    families = {make_rules(game_id).family for game_id, _, _ in _stacking_cases()}
    assert families == {"turnover", "bid_whist", "solo", "ruffe_trump", "ruff_honours"}
    assert families == {make_rules(game_id).family for game_id in game_ids()}


def test_a_turnover_deal_stacks_the_hands_asked_not_layout_cards() -> None:
    rules = make_rules("turnover-bridge")
    spades = parse_cards("AS KS QS JS 10S 9S 8S 7S")
    hearts = parse_cards("AH KH QH JH 10H 9H 8H 7H")
    deck = stacked_deck(rules, 1, {0: spades, 1: hearts})
    game, events = new_game("turnover-bridge", seed=1, first_dealer=1, deck=deck)
    dealt = {e.seat: set(e.cards) for e in of_kind(events, HandDealt)}  # type: ignore[attr-defined]
    assert dealt == {0: set(spades), 1: set(hearts)}
    # the layouts come first, alternately from the non-dealer; the hands are the last 16 cards
    seats = deal_seats(rules, 1)
    assert seats[:36] == [LAYOUT] * 36 and seats[36:] == [0, 1] * 8


def test_stacked_layouts_need_a_layout_game() -> None:
    with pytest.raises(ValueError, match="deals no layouts"):
        stacked_deck(make_rules("whist-5"), 0, {}, (), {0: ["AS"]})
