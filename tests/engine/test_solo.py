"""solo-whist (RULES.md §6): the worked example §11.10, the auction, every parameter and preset."""

from __future__ import annotations

import pytest

from engine import Game, IllegalAction, Suit, decode_action, make_rules, new_game, presets_for
from engine.actions import ActionParseError
from engine.events import DealScored, DealStarted, GameOver, MatchOver
from engine.families.solo import ContractSettled, contract_value, point_values
from engine.phases.solo_auction import SoloAllPassed, SoloBid, SoloContractWon, solo_bid
from engine.phases.solo_declare import HandExposed, NameTrump, PlayStopped, name_trump
from engine.rules import RulesError

from .helpers import E, N, S, W, cards, of_kind, play_deal, stacked_game

# E's hand below never wins a trick unless he leads: every other card of each of
# his suits is higher, and the others hold every suit.
LOW = "2S 3S 4S 2H 3H 4H 2D 3D 4D 2C 3C 4C 5C"
OTHERS = {
    0: "AS KS QS 5S AH KH QH 5H AD KD QD AC KC",
    2: "JS 10S 9S JH 10H 9H 8H JD 10D 9D QC JC 10C",
    3: "8S 7S 6S 7H 6H 5D 8D 7D 6D 9C 8C 7C 6C",
}


def _calls(game: Game, *calls: tuple[int, str]) -> list[object]:
    events: list[object] = []
    for seat, call in calls:
        assert game.to_act() == seat, (game.to_act(), seat, call)
        events += game.apply(seat, solo_bid(call))
    return events


def highest(game: Game, seat: int, legal: list[object]) -> object:
    return legal[-1]


def _settled(events: list[object]) -> ContractSettled:
    found = of_kind(events, ContractSettled)  # type: ignore[arg-type]
    assert len(found) == 1
    return found[0]  # type: ignore[return-value]


# --------------------------------------------------------------------------- §11.10


def test_misere_made_pays_nine_and_three_each() -> None:
    hands = {E: LOW, **OTHERS}
    game, _ = stacked_game("solo-whist", dealer=E, hands=hands)
    assert game.eldest == S and game.phase == "auction"
    _calls(game, (S, "pass"), (W, "pass"), (N, "pass"), (E, "mis"))
    assert game.phase == "play" and game.trump is None and game.side_of == (1, 0, 1, 1)
    events = play_deal(game)
    settled = _settled(events)
    assert settled.contract == "mis" and settled.made and settled.tricks == 0
    assert settled.points == (-3, 9, -3, -3)
    assert game.scores == [-3, 9, -3, -3]
    assert game.is_over  # target_score = none: each deal is a game
    assert of_kind(events, GameOver)[0].winner == E  # type: ignore[attr-defined]


def test_abundance_failed_costs_twelve() -> None:
    hands = {W: LOW, 0: OTHERS[0], 1: OTHERS[2], 2: OTHERS[3]}
    game, _ = stacked_game("solo-whist", dealer=N, hands=hands)
    _calls(game, (E, "pass"), (S, "pass"), (W, "abund"), (N, "pass"))
    assert game.phase == "trumps" and game.to_act() == W
    assert game.legal_actions(W) == [name_trump(s) for s in Suit]
    game.apply(W, name_trump("C"))
    assert game.trump is Suit.CLUBS and game.to_act() == E  # eldest leads
    settled = _settled(play_deal(game))
    assert not settled.made and settled.tricks < 9
    assert settled.points == (4, 4, 4, -12)


def test_propose_and_accept_made_is_one_each() -> None:
    hands = {
        N: "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
        E: "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
        S: "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
    }
    game, _ = stacked_game("solo-whist", dealer=N, hands=hands)
    assert game.turn_up is not None and game.turn_up.suit is Suit.HEARTS  # N's last card
    _calls(game, (E, "pass"), (S, "prop"), (W, "pass"), (N, "accept"))
    assert game.phase == "play" and game.trump is Suit.HEARTS
    assert game.side_of == (0, 1, 0, 1)  # proposer and acceptor against the other two
    settled = _settled(play_deal(game, highest))  # type: ignore[arg-type]
    assert settled.made and settled.tricks >= 8
    assert settled.points == (1, -1, 1, -1)


def test_slam_declarer_leads_even_though_north_is_eldest() -> None:
    game, _ = new_game("solo-whist", seed=3, first_dealer=W)
    assert game.eldest == N
    _calls(game, (N, "pass"), (E, "slam"), (S, "pass"), (W, "pass"))
    assert game.phase == "trumps" and game.to_act() == E
    game.apply(E, name_trump("S"))
    assert game.phase == "play" and game.to_act() == E and game.leader == E


# --------------------------------------------------------------------------- the auction


def test_auction_legal_calls_and_refusals() -> None:
    game, _ = new_game("solo-whist", seed=1, first_dealer=W)
    assert game.legal_actions(N) == [
        solo_bid(c) for c in ("pass", "prop", "solo", "mis", "abund", "royal", "spread", "slam")
    ]
    assert game.legal_actions(E) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(E, solo_bid("solo"))
    game.apply(N, solo_bid("mis"))
    assert game.legal_actions(E) == [
        solo_bid(c) for c in ("pass", "abund", "royal", "spread", "slam")
    ]
    with pytest.raises(IllegalAction, match="does not outrank"):
        game.apply(E, solo_bid("solo"))
    with pytest.raises(IllegalAction, match="no proposal"):
        game.apply(E, solo_bid("accept"))
    with pytest.raises(IllegalAction):
        game.apply(E, name_trump("S"))  # not the time to name trumps
    game.apply(E, solo_bid("pass"))
    game.apply(S, solo_bid("abund"))
    game.apply(W, solo_bid("pass"))
    # N was overcalled: he may raise; E has passed and is skipped
    assert game.to_act() == N
    assert solo_bid("royal") in game.legal_actions(N) and solo_bid(
        "abund"
    ) not in game.legal_actions(N)
    game.apply(N, solo_bid("spread"))
    assert game.to_act() == S  # E and W passed
    events = game.apply(S, solo_bid("pass"))
    won = of_kind(events, SoloContractWon)[0]
    assert (won.declarer, won.contract) == (N, "spread")  # type: ignore[attr-defined]
    assert [(s, c) for s, c in game.observe(E).auction] == [
        (N, "mis"),
        (E, "pass"),
        (S, "abund"),
        (W, "pass"),
        (N, "spread"),
        (S, "pass"),
    ]


def test_eldest_may_accept_after_passing_under_any_in_turn() -> None:
    game, _ = new_game("solo-whist", seed=2, first_dealer=W)
    _calls(game, (N, "pass"), (E, "pass"), (S, "prop"), (W, "pass"))
    assert game.to_act() == N and game.legal_actions(N) == [solo_bid("pass"), solo_bid("accept")]
    with pytest.raises(IllegalAction, match="only accept"):
        game.apply(N, solo_bid("solo"))
    game.apply(N, solo_bid("accept"))
    assert game.phase == "play" and game.side_of == (0, 1, 0, 1)


def test_next_only_lets_only_the_next_seat_accept() -> None:
    game, _ = new_game("solo-whist", None, {"accept_rule": "next_only"}, seed=2, first_dealer=W)
    _calls(game, (N, "prop"))
    assert solo_bid("accept") in game.legal_actions(E)
    game.apply(E, solo_bid("pass"))
    assert game.to_act() == S and solo_bid("accept") not in game.legal_actions(S)
    with pytest.raises(IllegalAction, match="next player"):
        game.apply(S, solo_bid("accept"))
    _calls(game, (S, "pass"), (W, "pass"))
    # nobody accepted: the proposer converts to Solo or passes
    assert game.to_act() == N and game.legal_actions(N) == [solo_bid("solo"), solo_bid("pass")]
    with pytest.raises(IllegalAction, match="convert"):
        game.apply(N, solo_bid("mis"))
    game.apply(N, solo_bid("solo"))
    assert game.phase == "play" and game.side_of == (0, 1, 1, 1)
    assert game.observe(E).contract == "solo" and game.observe(E).declarer == N


def test_passed_eldest_is_not_asked_under_next_only() -> None:
    game, _ = new_game("solo-whist", None, {"accept_rule": "next_only"}, seed=2, first_dealer=W)
    _calls(game, (N, "pass"), (E, "pass"), (S, "pass"), (W, "prop"))
    assert game.to_act() == W and game.legal_actions(W) == [solo_bid("solo"), solo_bid("pass")]


def test_everyone_passing_deals_again_to_the_left() -> None:
    game, _ = new_game("solo-whist", seed=4, first_dealer=N)
    events = _calls(game, (E, "pass"), (S, "pass"), (W, "pass"), (N, "pass"))
    assert of_kind(events, SoloAllPassed)[0].then == "redeal"  # type: ignore[attr-defined,arg-type]
    assert game.dealer == E and game.eldest == S and game.phase == "auction"
    assert of_kind(events, DealStarted)[0].dealer == E  # type: ignore[attr-defined,arg-type]
    assert game.scores == [0, 0, 0, 0] and not game.is_over


def test_general_misere_the_most_tricks_pays() -> None:
    game, _ = new_game("solo-whist", None, {"all_pass": "general_misere"}, seed=4, first_dealer=N)
    _calls(game, (E, "pass"), (S, "pass"), (W, "pass"), (N, "pass"))
    assert game.phase == "play" and game.trump is None and game.to_act() == E
    assert game.side_of == (0, 1, 2, 3)
    events = play_deal(game)
    settled = _settled(events)
    tricks = [0] * 4
    latest = {}
    for i, (_, _, winner) in enumerate(game.completed):
        tricks[winner] += 1
        latest[winner] = i
    loser = max(range(4), key=lambda s: (tricks[s], latest.get(s, -1)))
    assert settled.declarer == loser and settled.value == 3
    assert settled.points == tuple(-9 if s == loser else 3 for s in range(4))


def test_bid_and_trump_actions_have_short_string_forms() -> None:
    for call in ("pass", "accept", "prop", "solo", "mis", "abund", "royal", "spread", "slam"):
        assert solo_bid(call).encode() == f"bid:{call}"
        assert decode_action(f"bid:{call}") is solo_bid(call)
    assert name_trump("H").encode() == "trump:H" and decode_action("trump:h") is name_trump("H")
    assert isinstance(decode_action("bid:solo"), SoloBid) and isinstance(
        decode_action("trump:S"), NameTrump
    )
    for bad in ("bid:grand", "trump:X", "bid:"):
        with pytest.raises(ActionParseError):
            decode_action(bad)


# --------------------------------------------------------------------------- play parameters


def _spread_game(exposure: str) -> Game:
    hands = {E: LOW, **OTHERS}
    game, _ = stacked_game(
        "solo-whist", dealer=E, hands=hands, overrides={"spread_exposure": exposure}
    )
    _calls(game, (S, "pass"), (W, "pass"), (N, "pass"), (E, "spread"))
    return game


def test_spread_misere_hand_is_public_before_the_first_lead() -> None:
    game = _spread_game("before_first_lead")
    assert game.phase == "play" and game.to_act() == S
    for seat in range(4):
        view = game.observe(seat)
        assert view.exposed == ((E, tuple(game.hand(E))),)
    first = game.legal_actions(S)[0]
    game.apply(S, first)
    played = game.observe(W).exposed[0][1]
    assert set(played) == set(game.hand(E)) and len(played) == 13  # E has not played yet
    game.apply(W, game.legal_actions(W)[0])
    game.apply(N, game.legal_actions(N)[0])
    card = game.legal_actions(E)[0]
    game.apply(E, card)
    assert len(game.observe(N).exposed[0][1]) == 12  # the exposed hand follows the play


def test_spread_misere_after_first_trick_is_hidden_until_the_trick_is_turned() -> None:
    game = _spread_game("after_first_trick")
    events: list[object] = []
    for _ in range(4):
        assert all(game.observe(s).exposed == () for s in range(4) if s != E) or game.completed
        seat = game.to_act()
        assert seat is not None
        events += game.apply(seat, game.legal_actions(seat)[0])
    assert len(game.completed) == 1
    exposed = of_kind(events, HandExposed)
    assert exposed and exposed[0].seat == E  # type: ignore[attr-defined]
    for seat in range(4):
        assert game.observe(seat).exposed == ((E, tuple(game.hand(E))),)


def _misere_taken_game(early: bool) -> Game:
    # E bids Misère with a hand that takes the first trick: he holds the top spades
    hands = {
        E: "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
        S: "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
    }
    game, _ = stacked_game(
        "solo-whist", dealer=N, hands=hands, overrides={"early_termination": early}
    )
    _calls(game, (E, "mis"), (S, "pass"), (W, "pass"), (N, "pass"))
    assert game.to_act() == E  # eldest leads
    return game


def test_early_termination_stops_a_misere_at_the_declarers_first_trick() -> None:
    game = _misere_taken_game(True)
    events = play_deal(game)
    assert len(of_kind(events, PlayStopped)) == 1
    assert game.is_over and len(game.completed) == 1  # the deal ended after trick 1
    settled = _settled(events)
    assert not settled.made and settled.points == (3, -9, 3, 3)
    assert sum(len(game.hand(s)) for s in range(4)) == 48  # the rest stay in hand


def test_without_early_termination_all_thirteen_tricks_are_played() -> None:
    game = _misere_taken_game(False)
    events = play_deal(game)
    assert not of_kind(events, PlayStopped)
    assert _settled(events).tricks == 13


def test_early_termination_keeps_the_unplayed_cards_in_hand() -> None:
    game = _misere_taken_game(True)
    for _ in range(3):
        seat = game.to_act()
        assert seat is not None
        game.apply(seat, game.legal_actions(seat)[0])
    seat = game.to_act()
    assert seat is not None
    snapshot = game.clone()
    events = snapshot.apply(seat, snapshot.legal_actions(seat)[0])
    stopped = of_kind(events, PlayStopped)
    assert stopped and stopped[0].trick_no == 1  # type: ignore[attr-defined]
    assert of_kind(events, DealScored)


# --------------------------------------------------------------------------- scoring parameters


def test_point_tables_and_overtricks() -> None:
    seed = make_rules("solo-whist")
    assert point_values(seed) == (1, 2, 3, 4, 4, 6, 8)
    pagat = make_rules("solo-whist", "pagat")
    assert point_values(pagat) == (1, 1, 2, 3, 3, 4, 6)
    assert contract_value(seed, "solo", 7) == (True, 2)  # the seed table is flat
    over = make_rules("solo-whist", None, {"overtricks": "per_trick_1"})
    assert contract_value(over, "solo", 7) == (True, 4)
    assert contract_value(over, "solo", 4) == (False, 3)
    assert contract_value(over, "abund", 13) == (True, 8)
    assert contract_value(over, "mis", 1) == (False, 3)  # never for the misères
    assert contract_value(over, "slam", 12) == (False, 8)  # nor for Slam
    custom = make_rules("solo-whist", None, {"point_table": "2,3,4,5,6,7,10"})
    assert point_values(custom) == (2, 3, 4, 5, 6, 7, 10)
    named = make_rules(
        "solo-whist",
        None,
        {
            "point_table": {
                "prop": 1,
                "solo": 1,
                "mis": 1,
                "abund": 1,
                "royal": 1,
                "spread": 1,
                "slam": 9,
            }
        },
    )
    assert point_values(named)[-1] == 9
    for bad in ("1,2,3", "1,2,3,4,5,6,x", "-1,2,3,4,5,6,7", "huge"):
        with pytest.raises(RulesError):
            make_rules("solo-whist", None, {"point_table": bad})


def test_declarer_only_settlement_leaves_opponents_at_zero() -> None:
    hands = {E: LOW, **OTHERS}
    game, _ = stacked_game(
        "solo-whist", dealer=E, hands=hands, overrides={"settlement": "declarer_only"}
    )
    _calls(game, (S, "pass"), (W, "pass"), (N, "pass"), (E, "mis"))
    assert _settled(play_deal(game)).points == (0, 3, 0, 0)


def test_target_score_runs_totals_until_a_seat_reaches_it() -> None:
    hands = {E: LOW, **OTHERS}
    game, _ = stacked_game("solo-whist", dealer=E, hands=hands, overrides={"target_score": 10})
    _calls(game, (S, "pass"), (W, "pass"), (N, "pass"), (E, "mis"))
    events = play_deal(game)
    assert game.scores == [-3, 9, -3, -3] and not game.is_over
    assert not of_kind(events, MatchOver) and game.phase == "auction" and game.dealer == S
    assert game.deal_no == 2


def test_presets_and_parameters() -> None:
    assert presets_for("solo-whist") == ["seed004", "pagat"]
    rules = make_rules("solo-whist")
    assert (
        rules.deal_pattern,
        rules.accept_rule,
        rules.all_pass,
        rules.slam_trump,
        rules.spread_exposure,
        rules.early_termination,
        rules.point_table,
        rules.settlement,
        rules.overtricks,
        rules.target_score,
    ) == (
        "solo_33331",
        "any_in_turn",
        "redeal",
        "declarer_choice",
        "before_first_lead",
        True,
        "seed",
        "zero_sum",
        "none",
        0,
    )
    pagat = make_rules("solo-whist", "pagat")
    assert (pagat.point_table, pagat.overtricks, pagat.slam_trump, pagat.spread_exposure) == (
        "pagat",
        "per_trick_1",
        "none",
        "after_first_trick",
    )
    assert make_rules("solo-whist", None, {"target_score": "none"}).target_score == 0
    assert make_rules("solo-whist", None, {"target_score": 20}).target_score == 20
    for name, value in (
        ("accept_rule", "first"),
        ("target_score", -3),
        ("deal_pattern", "packets4"),
    ):
        with pytest.raises(RulesError):
            make_rules("solo-whist", None, {name: value})
    lines = rules.describe()
    assert any("Misère" in line for line in lines) and lines[0].startswith("Solo Whist")


def test_singles_deal_pattern_and_the_turn_up_stays_with_the_dealer() -> None:
    rules = make_rules("solo-whist", None, {"deal_pattern": "singles"})
    game, _ = new_game(rules=rules, seed=5, first_dealer=S)
    assert game.turn_up is not None and game.turn_up in game.hand(S)
    assert all(game.observe(s).turn_up == game.turn_up for s in range(4))


def test_slam_without_trumps_needs_no_naming() -> None:
    game, _ = new_game("solo-whist", "pagat", seed=3, first_dealer=W)
    _calls(game, (N, "pass"), (E, "slam"), (S, "pass"), (W, "pass"))
    assert game.phase == "play" and game.trump is None and game.to_act() == E


def test_solo_and_royal_play_the_turn_up_suit() -> None:
    for contract in ("solo", "royal"):
        game, _ = new_game("solo-whist", seed=8, first_dealer=W)
        _calls(game, (N, contract), (E, "pass"), (S, "pass"), (W, "pass"))
        assert game.turn_up is not None and game.trump is game.turn_up.suit
        assert game.phase == "play" and game.to_act() == N


def test_a_deal_state_survives_snapshot_and_record() -> None:
    game, _ = new_game("solo-whist", seed=9, first_dealer=S)
    _calls(game, (W, "prop"), (N, "pass"))
    for copy in (
        Game.from_snapshot(game.snapshot()),
        Game.from_record(game.to_record()),
        game.clone(),
    ):
        assert copy.deal_state == game.deal_state and copy.state_key() == game.state_key()
        assert copy.legal_actions(E) == game.legal_actions(E)
    assert cards("AS")  # helpers stay importable
