"""Ruffe and Trump (RULES.md §4): the worked example §11.9, parameters, presets, the rub."""

from __future__ import annotations

import json

import pytest

from engine import Game, IllegalAction, make_rules, new_game
from engine.actions import DeclineRuff, Discard, TakeRuff, decode_action
from engine.events import CardPlayed, DealScored, GameOver, RuffTaken, StockTaken
from engine.families.ruffe_trump import FAMILY, default_target, par
from engine.phases.contest import (
    RuffClaim,
    RuffContest,
    RuffShown,
    best_suit,
    contest_winners,
)
from engine.rules import RulesError

from .helpers import E, N, S, W, cards, of_kind, play_deal, stacked_game

GAME = "ruff-trump-willughby"

# §11.9: North's pre-rub hand; the others hold weaker ruffs (E 32, S 34, W 34 pips)
EXAMPLE = {
    N: "AS KS 9S 4S | QH JH 10H 9H 8H | 5D | 2C 3C",
    E: "QS JS 2S | AH | AD KD 3D 2D | AC 4C 5C 6C",
    S: "8S 7S 3S | KH | QD JD 4D 6D | KC 7C 8C 9C",
    W: "6S 5S | 7H 6H 5H | 10D 9D 8D 7D | QC JC 10C",
}
HEAD = "10S 4H 3H 2H"  # the turn-up 10S fixes trumps


def example(**overrides: object) -> tuple[Game, list]:
    start = overrides.pop("start_scores", None)
    preset = overrides.pop("preset", None)
    return stacked_game(
        GAME,
        dealer=W,
        hands=EXAMPLE,
        stock=HEAD,
        overrides=overrides,
        preset=preset,  # type: ignore[arg-type]
        start_scores=start,  # type: ignore[arg-type]
    )


def test_worked_example_ruff_values() -> None:
    hand = sum(c.bit for c in cards(EXAMPLE[N]))
    turn_up = cards("10S")[0]
    value, suit = best_suit(hand, turn_up, turn_up.suit, "pip_sum")
    assert (value, suit.value) == (47, "H")  # hearts 47 beat spades 34 + 10 = 44
    assert best_suit(hand, turn_up, turn_up.suit, "card_count")[0] == 5  # hearts 5, spades 4 + 1
    # without the turn-up spades would be 34; with it 44 (still below hearts)
    spades_only = sum(c.bit for c in cards("AS KS 9S 4S"))
    assert best_suit(spades_only, turn_up, turn_up.suit, "pip_sum")[0] == 44


def test_the_highest_ruff_scores_twelve_before_the_rub() -> None:
    game, events = example()
    (contest,) = of_kind(events, RuffContest)
    assert contest.values == (47, 32, 34, 34)
    assert contest.winners == (N,) and contest.points == (12, 0)
    assert game.scores == [12, 0]
    assert game.phase == "ruff" and game.to_act() == N  # North holds the trump ace: he rubs next
    assert game.observe(E).note("ruff_values") == (47, 32, 34, 34)


def test_johnston_counts_cards() -> None:
    game, events = example(preset="johnston")
    (contest,) = of_kind(events, RuffContest)
    assert contest.values == (5, 4, 4, 4) and contest.winners == (N,)


def test_the_ruff_can_win_the_set_before_a_card_is_played() -> None:
    game, events = example(start_scores=(40, 0))
    assert game.is_over and game.scores == [52, 0]
    (over,) = of_kind(events, GameOver)
    assert over.winner == 0 and over.how == "ruff"
    assert not of_kind(events, CardPlayed)
    # checked only at the end of the deal, the same points do not end the game yet
    game, _ = example(start_scores=(40, 0), win_check="end_of_deal")
    assert not game.is_over and game.scores == [52, 0] and game.phase == "ruff"
    events = play_deal(game)
    assert of_kind(events, GameOver)[0].winner == 0


def test_the_rub_takes_the_top_four_of_the_head() -> None:
    game, _ = example()
    assert game.legal_actions(N) == [TakeRuff(), DeclineRuff()]
    events = game.apply(N, TakeRuff())
    assert of_kind(events, RuffTaken)[0].reason == "holds_ace"
    assert set(of_kind(events, StockTaken)[0].cards) == set(cards(HEAD))
    assert game.observe(N).stock_taken and not game.observe(E).stock_taken
    for card in cards("2C 3C 5D 2H"):
        game.apply(N, Discard(card))
    assert game.phase == "play" and game.to_act() == N  # eldest leads
    assert len(game.hand(N)) == 12


def test_a_longer_head_keeps_its_other_cards_out_of_play() -> None:
    game, _ = new_game(GAME, overrides={"players": 2}, seed=5, first_dealer=0)
    assert len(game.stock) == 28 and game.rules.target_score == 36
    if game.phase == "ruff":
        top = game.stock[:4]
        rubber = game.to_act()
        assert rubber is not None
        game.apply(rubber, TakeRuff())
        assert game.stock_taken == tuple(top) and len(game.stock) == 24
        for card in game.hand(rubber)[:4]:
            game.apply(rubber, Discard(card))
    assert game.phase == "play"
    play_deal(game)
    assert game.trick_no == 1 or game.is_over


@pytest.mark.parametrize(
    ("head", "option", "rubber", "reason"),
    [
        ("AS 4H 3H 2H", "dealer", W, "turned_ace"),
        ("AS 4H 3H 2H", "nobody", W, "turned_ace"),  # a turned-up ace: the dealer always rubs
        ("10S AS 3H 2H", "dealer", W, "ace_in_stock"),
        ("10S AS 3H 2H", "nobody", None, ""),
    ],
)
def test_who_rubs_when_the_trump_ace_is_in_the_head(
    head: str, option: str, rubber: int | None, reason: str
) -> None:
    hands = dict(EXAMPLE)
    if head.startswith("AS"):
        hands[N] = "KS 9S 4S 10S | QH JH 10H 9H 8H | 5D | 2C 3C"
    else:
        hands[N] = "KS 9S 4S QS | QH JH 10H 9H 8H | 5D | 2C 3C"
        hands[E] = "JS 2S | AH 4H | AD KD 3D 2D | AC 4C 5C 6C"
    game, events = stacked_game(
        GAME, dealer=W, hands=hands, stock=head, overrides={"rub_if_ace_in_head": option}
    )
    if rubber is None:
        assert game.phase == "play" and not of_kind(events, RuffTaken)
        assert len(game.stock) == 4
    else:
        assert game.phase == "ruff" and game.to_act() == rubber
        taken = game.apply(rubber, TakeRuff())
        assert of_kind(taken, RuffTaken)[0].reason == reason


def test_rub_mandatory_leaves_only_taking() -> None:
    game, _ = example(rub_mandatory=True)
    # the compulsory rub takes the head in at once: North lays out four
    assert game.phase == "discard" and game.to_act() == N and len(game.hand(N)) == 16
    with pytest.raises(IllegalAction):
        game.apply(N, DeclineRuff())


def test_card_points_over_par() -> None:
    # double-hand: NS take 7 tricks = 28 cards, 4 over two dozen; EW 5 tricks = 20 cards
    game, _ = example()
    assert par(game.rules, 2) == 24
    game.tricks = [7, 5]
    score = FAMILY.score_deal(game, [])
    assert score.trick_points == [4, 0] and score.honour_points == [12, 0]
    # single-hand: a player with 4 tricks = 16 cards is 4 over par 12
    game, _ = example(mode="single_hand")
    assert par(game.rules, 4) == 12 and game.facts.sides == 4
    game.tricks = [4, 3, 3, 2]
    assert FAMILY.score_deal(game, []).trick_points == [4, 0, 0, 0]


def test_a_played_deal_scores_cards_over_par() -> None:
    game, _ = example()
    game.apply(N, DeclineRuff())
    events = play_deal(game)
    (scored,) = of_kind(events, DealScored)
    ns, ew = scored.tricks
    assert ns + ew == 12
    assert scored.trick_points == (max(0, 4 * ns - 24), max(0, 4 * ew - 24))
    assert scored.honour_points == (12, 0)
    assert scored.scores == (12 + scored.trick_points[0], scored.trick_points[1])


def test_parameters_and_targets_by_variant() -> None:
    assert make_rules(GAME).target_score == 52 and make_rules(GAME).sides == 2
    assert make_rules(GAME, overrides={"mode": "single_hand"}).sides == 4
    three = make_rules(GAME, overrides={"players": 3})
    assert (three.target_score, three.sides, three.stock_size) == (40, 3, 16)
    assert make_rules(GAME, overrides={"players": 3, "hand_size": 16}).target_score == 52
    assert make_rules(GAME, overrides={"players": 2}).target_score == 36
    two = make_rules(GAME, overrides={"players": 2, "hand_size": 24})
    assert (two.target_score, two.stock_size) == (52, 4)
    assert make_rules(GAME, overrides={"players": 3, "target_score": 30}).target_score == 30
    assert default_target(3, 12) == 40
    for bad in (
        {"hand_size": 16},
        {"players": 2, "hand_size": 16},
        {"players": 3, "hand_size": 24},
    ):
        with pytest.raises(RulesError):
            make_rules(GAME, overrides=bad)
    with pytest.raises(RulesError):
        make_rules(GAME, overrides={"players": 5})
    johnston = make_rules(GAME, "johnston")
    assert (johnston.ruff_measure, johnston.first_dealer) == ("card_count", "youngest")
    game, _ = new_game(GAME, "johnston", seed=1)  # youngest unknown to the engine: from the seed
    assert game.dealer in range(4)
    rules = make_rules(GAME, overrides={"rub_if_ace_in_head": "nobody", "rub_mandatory": "true"})
    assert (rules.ruff_if_ace_in_stock, rules.ruff_mandatory) == ("nobody", True)


def test_three_players_deal_packets_of_four_and_play_alone() -> None:
    game, _ = new_game(GAME, overrides={"players": 3, "hand_size": 16}, seed=2, first_dealer=1)
    assert [len(game.hand(s)) for s in range(3)] == [16, 16, 16] and len(game.stock) == 4
    assert game.side_of == (0, 1, 2) and game.observe(0).sides == (0, 1, 2)


@pytest.mark.parametrize(
    ("tie", "want"),
    [("eldest_priority", [(1, 12)]), ("no_award", []), ("split", [(1, 6), (2, 6)])],
)
def test_ruff_ties(tie: str, want: list[tuple[int, int]]) -> None:
    winners, _ = contest_winners([30, 40, 40, 20], 1, (0, 1, 2, 3), tie, 12)
    assert winners == want
    # partners tied: their side wins the whole bonus whatever the tie rule
    winners, note = contest_winners([30, 40, 20, 40], 0, (0, 1, 0, 1), tie, 12)
    assert winners == [(1, 12)] and note == ""


def test_an_exact_tie_over_the_target_plays_on() -> None:
    hands = {
        0: "AH KH QH JH 10H 9H 8H AS KS QS JS 10S 9S AD KD QD JD 10D 9D AC 2C 3C 4C 5C",
        1: "7H 6H 5H 4H 3H 2H 8S 7S 6S 5S 4S 3S 2S 8D 7D 6D 5D 4D 3D 2D 6C 7C 8C 9C",
    }
    game, events = stacked_game(
        GAME,
        dealer=1,
        hands=hands,
        stock="10C JC QC KC",
        overrides={
            "players": 2,
            "hand_size": 24,
            "ruff_measure": "card_count",
            "ruff_tie": "split",
        },
        start_scores=(46, 46),
    )
    (contest,) = of_kind(events, RuffContest)
    assert contest.values == (7, 7) and contest.points == (6, 6)
    assert game.scores == [52, 52] and not game.is_over  # a tie at the top is no win
    events = play_deal(game)
    over = of_kind(events, GameOver)
    assert over and over.pop().winner == max((0, 1), key=lambda s: game.scores[s])


def test_declared_claims_are_public_and_in_turn() -> None:
    game, events = example(ruff_announce="declared")
    assert not of_kind(events, RuffContest) and game.phase == "contest"
    assert game.to_act() == N
    legal = game.legal_actions(N)
    assert legal[0] == RuffClaim(0) and legal[-1] == RuffClaim(95) and len(legal) == 96
    assert game.legal_actions(E) == []
    with pytest.raises(IllegalAction):
        game.apply(E, RuffClaim(30))
    with pytest.raises(IllegalAction):
        game.apply(N, TakeRuff())
    assert decode_action("ruffval:47") == RuffClaim(47) and RuffClaim(47).encode() == "ruffval:47"
    game.apply(N, RuffClaim(40))  # under-declaring is allowed
    snap = json.loads(json.dumps(game.snapshot()))
    restored = Game.from_snapshot(snap)
    assert restored.state_key() == game.state_key() and restored.to_act() == E
    for seat, value in ((E, 32), (S, 34), (W, 34)):
        game.apply(seat, RuffClaim(value))
    assert game.observe(S).note("ruff_claims") == ((N, 40), (E, 32), (S, 34), (W, 34))
    assert game.scores == [0, 0] and game.phase == "ruff"  # scored when the winner shows
    game.apply(N, DeclineRuff())
    # the winner showed his suit: hearts, worth 47, covering his claim of 40
    assert game.scores == [12, 0] and game.phase == "play"
    assert game.observe(E).note("ruff_shown") == (
        (N, "H", tuple(cards("8H 9H 10H JH QH")), 47, True),
    )
    replayed = Game.from_record(json.loads(json.dumps(game.to_record())))
    assert replayed.state_key() == game.state_key()


def test_a_false_claim_passes_the_ruff_to_the_true_winner() -> None:
    game, _ = example(ruff_announce="declared", mode="single_hand")
    for seat, value in ((N, 60), (E, 32), (S, 34), (W, 34)):
        game.apply(seat, RuffClaim(value))
    events = game.apply(N, DeclineRuff())
    (shown,) = of_kind(events, RuffShown)
    assert (shown.seat, shown.value, shown.claim, shown.honest) == (N, 47, 60, False)
    (contest,) = of_kind(events, RuffContest)
    # the best true ruff among the others: South and West have 34; South is first from eldest
    assert contest.winners == (S,) and contest.points == (0, 0, 12, 0)
    assert game.scores == [0, 0, 12, 0]
