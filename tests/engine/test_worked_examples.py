"""RULES.md §11 worked examples (§11.1, §11.3-§11.8) as exact unit tests.

Seats: N=0, E=1, S=2, W=3. Positions are built by stacking the first deal's deck
(``new_game(deck=...)`` via :func:`engine.game.stacked_deck`) and setting the
scores at its start (``start_scores=``); tricks are then played card by card.

Most Ruff and Honours layouts give every player three cards of each suit once the
ruffer has laid the four stock cards out again, so everyone can always follow
suit and each trick goes to the highest card of the suit led: the trick counts
the examples need can then be read straight off the scripts.
"""

from __future__ import annotations

import pytest

from engine import (
    CallCanYe,
    Card,
    Event,
    Game,
    IllegalAction,
    Pass,
    ShowHonours,
    Suit,
    make_rules,
    new_game,
    play,
    trick_winner,
)
from engine.actions import DeclineRuff, Discard, TakeRuff
from engine.cards import full_deck
from engine.events import (
    CanYeCalled,
    DealScored,
    DealStarted,
    GameOver,
    HandDealt,
    HonoursScored,
    HonoursShown,
    MatchOver,
    Passed,
    RuffTaken,
    StockTaken,
    TrickWon,
    TrumpFixed,
)
from engine.game import deal_seats

from .helpers import (
    E,
    N,
    S,
    W,
    cards,
    of_kind,
    play_deal,
    play_tricks,
    ruff_and_discard,
    stacked_game,
)

C = Card.parse

# --------------------------------------------------------------------------- §11.1


class TestTrickWinner:
    """§11.1: the shared trick-winner function and follow-suit legality."""

    def test_function(self) -> None:
        # W leads KC, N AC, E 3H, S 8H with hearts trumps: S wins (8H > 3H)
        assert trick_winner(cards("KC AC 3H 8H"), Suit.HEARTS) == 3
        # S plays AD instead: E wins with 3H, an off-suit ace never wins
        assert trick_winner(cards("KC AC 3H AD"), Suit.HEARTS) == 2
        # no trump played: the highest club (N's AC) wins
        assert trick_winner(cards("KC AC AD 2C"), Suit.HEARTS) == 1
        # no-trump deal: the led suit decides
        assert trick_winner(cards("KC AC 3H 8H"), None) == 1

    # whist-5, dealer S, so W (eldest) leads; S's last card 8H is the turn-up (trumps H)
    HANDS_VOID = {
        W: "AS KS QS JS 10S 9S | KC QC JC 10C 9C 8C 7C",
        N: "8S 7S 6S 5S 4S 3S 2S | AC 6C 5C 4C 3C 2C",
        E: "2H 3H 4H 5H 6H 7H | 2D 3D 4D 5D 6D 7D 8D",
        S: "AH KH QH JH 10H 9H | 9D 10D JD QD KD AD | 8H",
    }

    def _trick_of_three(self, hands: dict[int, str]) -> Game:
        game, _ = stacked_game("whist-5", dealer=S, hands=hands)
        assert game.trump is Suit.HEARTS and game.turn_up == C("8H")
        assert game.to_act() == W
        play_tricks(game, ["KC AC 3H"])
        return game

    def test_trumped_by_the_higher_trump(self) -> None:
        game, _ = stacked_game("whist-5", dealer=S, hands=self.HANDS_VOID)
        events = play_tricks(game, ["KC AC 3H 8H"])
        (won,) = of_kind(events, TrickWon)
        assert won.winner == S and won.leader == W and won.cards == tuple(cards("KC AC 3H 8H"))

    def test_off_suit_ace_never_wins(self) -> None:
        game, _ = stacked_game("whist-5", dealer=S, hands=self.HANDS_VOID)
        events = play_tricks(game, ["KC AC 3H AD"])
        assert of_kind(events, TrickWon)[0].winner == E

    def test_no_trump_played(self) -> None:
        hands = {
            W: "AS KS QS JS 10S 9S | KC QC JC 10C 9C 8C 7C",
            N: "8S 7S 6S 5S 4S 3S 2S | AC 6C 5C 4C 3C 9D",
            E: "2H 3H 4H 5H 6H 7H | 2D 3D 4D 5D 6D 7D AD",
            S: "2C AH KH QH JH 10H 9H | 8D 10D JD QD KD | 8H",
        }
        game, _ = stacked_game("whist-5", dealer=S, hands=hands)
        events = play_tricks(game, ["KC AC AD 2C"])
        assert of_kind(events, TrickWon)[0].winner == N

    def test_must_follow_when_holding_the_suit(self) -> None:
        hands = dict(self.HANDS_VOID)
        hands[W] = "AS KS QS JS 10S 9S | KC QC JC 10C 9C 8C 9D"
        hands[S] = "AH KH QH JH 10H 9H | 7C 10D JD QD KD AD | 8H"
        game = self._trick_of_three(hands)
        before = game.state_key()
        for illegal in ("AD", "8H"):
            with pytest.raises(IllegalAction) as info:
                game.apply(S, play(illegal))
            assert info.value.code == "must_follow"
            assert game.state_key() == before
        assert game.legal_actions(S) == [play("7C")]
        game.apply(S, play("7C"))


# --------------------------------------------------------------------------- §11.3


class TestDealAndRuff:
    """§11.3: deal mapping (dealer W), the stock, the turn-up and who ruffs."""

    def test_packets4_mapping(self) -> None:
        rules = make_rules("ruff-honours-cotton")
        deck = full_deck()
        game, events = new_game(rules=rules, seed=1, first_dealer=W, deck=deck)
        expected: dict[int, list[Card]] = {N: [], E: [], S: [], W: []}
        for packet in range(12):  # deck[0..3] -> N, [4..7] -> E, ... [44..47] -> W
            expected[(W + 1 + packet) % 4] += deck[4 * packet : 4 * packet + 4]
        for seat in range(4):
            assert set(game.hand(seat)) == set(expected[seat])
        assert expected[N][:4] == deck[0:4] and expected[N][4:8] == deck[16:20]
        assert expected[W][-4:] == deck[44:48]
        assert game.stock == deck[48:52]
        assert game.turn_up is deck[48] and game.trump is deck[48].suit
        dealt = {e.seat: e.cards for e in of_kind(events, HandDealt)}
        assert {s: set(c) for s, c in dealt.items()} == {s: set(c) for s, c in expected.items()}
        assert deal_seats(rules, W)[:8] == [N] * 4 + [E] * 4

    def test_singles_mapping(self) -> None:
        rules = make_rules("ruff-honours-cotton", overrides={"deal_pattern": "singles"})
        deck = full_deck()
        game, _ = new_game(rules=rules, seed=1, first_dealer=W, deck=deck)
        for i in range(48):
            assert deck[i] in game.hand((3 + 1 + i) % 4)
        assert game.stock == deck[48:]
        assert deal_seats(rules, W) == [(3 + 1 + i) % 4 for i in range(48)]

    def test_holder_of_the_trump_ace_ruffs(self) -> None:
        game, _ = stacked_game(dealer=W, hands={E: "AD"}, stock="7D")
        assert game.turn_up == C("7D") and game.trump is Suit.DIAMONDS
        assert game.phase == "ruff" and game.to_act() == E
        assert game.legal_actions(E) == [TakeRuff(), DeclineRuff()]
        hidden = game.stock[1:]
        events = game.apply(E, TakeRuff())
        assert of_kind(events, RuffTaken) == [RuffTaken(E, "holds_ace")]
        (taken,) = of_kind(events, StockTaken)
        assert taken.audience == E and set(taken.cards) == {C("7D"), *hidden}
        assert len(game.hand(E)) == 16 and game.stock == []
        # any four may be laid out: here the turned-up card and the trump ace itself
        for code in ("7D", "AD", hidden[0].code, hidden[1].code):
            assert Discard(C(code)) in game.legal_actions(E)
            game.apply(E, Discard(C(code)))
        assert [len(game.hand(s)) for s in range(4)] == [12] * 4
        assert game.discards == [C("7D"), C("AD"), hidden[0], hidden[1]]
        assert game.phase == "play" and game.to_act() == N

    def test_turned_ace_gives_the_ruff_to_the_dealer(self) -> None:
        game, _ = stacked_game(dealer=W, hands={}, stock="AD")
        assert game.turn_up == C("AD")
        assert game.ruffer == W and game.ruff_reason == "turned_ace" and game.to_act() == W
        events = game.apply(W, TakeRuff())
        assert RuffTaken(W, "turned_ace") in events

    def test_ace_hidden_in_the_stock(self) -> None:
        # AD is deck[50]: third stock card
        game, _ = stacked_game(dealer=W, hands={}, stock="7D 2C AD")
        assert game.ruffer == W and game.ruff_reason == "ace_in_stock"
        assert game.to_act() == W and game.phase == "ruff"
        game, _ = stacked_game(
            dealer=W, hands={}, stock="7D 2C AD", overrides={"ruff_if_ace_in_stock": "nobody"}
        )
        assert game.ruffer is None and game.phase == "play" and game.to_act() == N
        assert game.stock == cards("7D 2C AD") + game.stock[3:] and len(game.stock) == 4

    def test_declined_ruff_leaves_the_stock_out(self) -> None:
        game, _ = stacked_game(dealer=W, hands={E: "AD"}, stock="7D")
        game.apply(E, DeclineRuff())
        assert game.ruff_state == "declined" and len(game.stock) == 4
        assert [len(game.hand(s)) for s in range(4)] == [12] * 4


# --------------------------------------------------------------------------- §11.4-§11.6

# Stock 7D 2S 2H 2C (trumps D). The holder of AD ruffs and lays the four stock
# cards out again, so each hand keeps three cards of each suit.
STOCK = "7D 2S 2H 2C"

# §11.4: N AD KD, S JD, E QD; NS take 8 tricks
BASE = {
    N: "AS KS QS | 9H 10H JH | 6C 7C 8C | AD KD 2D",
    E: "3S 4S 5S | AH KH QH | 9C 10C JC | QD 6D 5D",
    S: "6S 7S 8S | 3H 4H 5H | AC KC QC | JD 4D 3D",
    W: "9S 10S JS | 6H 7H 8H | 3C 4C 5C | 10D 9D 8D",
}
BASE_TRICKS = [
    "AS 3S 6S 9S",  # N
    "KS 4S 7S 10S",  # N
    "QS 5S 8S JS",  # N
    "AD 5D 3D 8D",  # N
    "KD 6D 4D 9D",  # N
    "2D QD JD 10D",  # E: QD is the highest diamond
    "AH 3H 6H 9H",  # E
    "KH 4H 7H 10H",  # E
    "QH 5H 8H JH",  # E
    "9C AC 3C 6C",  # S
    "KC 4C 7C 10C",  # S
    "QC 5C 8C JC",  # S
]


def _last_deal_scored(events: list[Event]) -> DealScored:
    scored = of_kind(events, DealScored)[-1]
    assert isinstance(scored, DealScored)
    return scored


class TestHonoursScoring:
    """§11.4 (cotton1674): tricks first, then honours held after the ruff."""

    def test_three_honours_after_eight_tricks(self) -> None:
        game, _ = stacked_game(dealer=W, hands=BASE, stock=STOCK, start_scores=(3, 5))
        assert game.ruffer == N
        ruff_and_discard(game, STOCK)
        assert game.phase == "play" and game.to_act() == N  # no one at 8: no Can-ye
        events = play_tricks(game, BASE_TRICKS)
        tricks = of_kind(events, TrickWon)
        assert [t.winner for t in tricks] == [N] * 5 + [E] * 4 + [S] * 3
        assert tricks[-1].tricks == (8, 4)
        assert of_kind(events, HonoursScored) == [HonoursScored((3, 1), (2, 0), "")]
        scored = _last_deal_scored(events)
        assert scored.tricks == (8, 4)
        assert scored.trick_points == (2, 0) and scored.honour_points == (2, 0)
        assert scored.scores == (7, 5) and game.scores == [7, 5]
        assert not of_kind(events, GameOver)
        assert of_kind(events, DealStarted)[-1].deal_no == 2

    def test_seed000_values_still_two_for_three(self) -> None:
        game, _ = stacked_game(
            dealer=W,
            hands=BASE,
            stock=STOCK,
            start_scores=(3, 5),
            overrides={"honours_values": "3:2,4:3"},
        )
        ruff_and_discard(game, STOCK)
        events = play_tricks(game, BASE_TRICKS)
        assert _last_deal_scored(events).scores == (7, 5)

    def test_captured_basis_counts_the_tricks(self) -> None:
        # AD, KD captured by N; QD and JD fall together in E's trick 6: 2-2, no score
        game, _ = stacked_game(
            dealer=W,
            hands=BASE,
            stock=STOCK,
            start_scores=(3, 5),
            overrides={"honours_basis": "captured", "call_point": "none"},
        )
        ruff_and_discard(game, STOCK)
        events = play_tricks(game, BASE_TRICKS)
        (honours,) = of_kind(events, HonoursScored)
        assert honours.counts == (2, 2) and honours.points == (0, 0)
        assert _last_deal_scored(events).scores == (5, 5)

    def test_split_honours_score_nothing(self) -> None:
        hands = dict(BASE)
        hands[N] = "AS KS QS | 9H 10H JH | 6C 7C 8C | AD 3D 2D"
        hands[S] = "6S 7S 8S | 3H 4H 5H | AC KC QC | KD 4D 10D"
        hands[W] = "9S 10S JS | 6H 7H 8H | 3C 4C 5C | JD 9D 8D"
        game, _ = stacked_game(dealer=W, hands=hands, stock=STOCK, start_scores=(3, 5))
        ruff_and_discard(game, STOCK)
        events = play_deal(game)
        (honours,) = of_kind(events, HonoursScored)
        assert honours.counts == (2, 2) and honours.points == (0, 0)
        assert honours.note == "honours split"
        scored = _last_deal_scored(events)
        assert scored.honour_points == (0, 0)
        assert scored.scores == (3 + scored.trick_points[0], 5 + scored.trick_points[1])


class TestCanYe:
    """§11.5: Can-ye at the call point (NS 8)."""

    def _at_eight(self, diamonds: dict[int, str], base: dict[int, str] = BASE) -> Game:
        hands = {seat: base[seat].rsplit("|", 1)[0] + "| " + diamonds[seat] for seat in range(4)}
        game, _ = stacked_game(dealer=W, hands=hands, stock=STOCK, start_scores=(8, 4))
        ruff_and_discard(game, STOCK)
        return game

    def test_called_and_answered_wins_at_once(self) -> None:
        game = self._at_eight({N: "AD QD 2D", S: "JD 4D 3D", E: "KD 6D 5D", W: "10D 9D 8D"})
        assert game.phase == "can_ye" and game.to_act() == N
        assert game.legal_actions(N) == [CallCanYe(), Pass()]
        events = game.apply(N, CallCanYe())
        assert events[0] == CanYeCalled(N, S, True, tuple(cards("JD QD AD")))
        assert GameOver(1, 0, (9, 4), "can_ye", (1, 0)) in events
        assert isinstance(events[-1], MatchOver) and events[-1].winner == 0
        assert game.is_over and game.scores == [9, 4] and game.to_act() is None
        assert not of_kind(events, TrickWon) and not of_kind(events, DealScored)

    def test_three_honours_shown_win(self) -> None:
        game = self._at_eight({N: "AD KD QD", S: "4D 3D 2D", E: "JD 6D 5D", W: "10D 9D 8D"})
        assert game.legal_actions(N) == [ShowHonours(), Pass()]
        events = game.apply(N, ShowHonours())
        assert events[0] == HonoursShown(N, tuple(cards("QD KD AD")))
        assert GameOver(1, 0, (9, 4), "show", (1, 0)) in events
        assert game.is_over

    def test_unanswered_call_and_split_honours(self) -> None:
        game = self._at_eight(
            {N: "AD QD 2D", S: "5D 4D 3D", E: "KD 6D 10D", W: "JD 9D 8D"}, base=self.LATE
        )
        events = game.apply(N, CallCanYe())
        assert events == [CanYeCalled(N, S, False, ())]
        assert game.phase == "play" and game.to_act() == N and not game.is_over
        assert game.observe(E).calls == ((N, "can_ye_unanswered"),)
        events = play_tricks(
            game,
            [
                "AS 3S 6S 9S",  # N
                "KS 4S 7S 10S",  # N
                "QS 5S 8S JS",  # N
                "AD 6D 3D 8D",  # N
                "QD KD 4D 9D",  # E
                "10D 5D JD 2D",  # W
                "6H 9H AH 3H",  # E
                "KH 4H 7H 10H",  # E
                "QH 5H 8H JH",  # E
                "AC 9C 3C 6C",  # E
                "KC 10C 4C 7C",  # E
                "QC JC 5C 8C",  # E
            ],
        )
        assert of_kind(events, TrickWon)[-1].tricks == (4, 8)
        assert of_kind(events, HonoursScored) == [HonoursScored((2, 2), (0, 0), "honours split")]
        assert _last_deal_scored(events).scores == (8, 6)

    # §11.5 last bullet: NS 8, EW 6; N (AD KD) and S (QD) do not call; EW take 7
    LATE = {
        N: "AS KS QS | 9H 10H JH | 6C 7C 8C | AD KD 2D",
        E: "3S 4S 5S | AH KH QH | AC KC QC | JD 6D 5D",
        S: "6S 7S 8S | 3H 4H 5H | 9C 10C JC | QD 4D 3D",
        W: "9S 10S JS | 6H 7H 8H | 3C 4C 5C | 10D 9D 8D",
    }
    LATE_TRICKS = [
        "AS 3S 6S 9S",  # N
        "KS 4S 7S 10S",  # N
        "QS 5S 8S JS",  # N
        "AD 5D QD 8D",  # N
        "KD 6D 4D 9D",  # N
        "2D JD 3D 10D",  # E
        "AH 3H 6H 9H",  # E
        "KH 4H 7H 10H",  # E
        "QH 5H 8H JH",  # E
        "AC 9C 3C 6C",  # E
        "KC 10C 4C 7C",  # E
        "QC JC 5C 8C",  # E
    ]

    def _late(self, **overrides: object) -> list[Event]:
        game, _ = stacked_game(
            dealer=W, hands=self.LATE, stock=STOCK, start_scores=(8, 6), overrides=overrides or None
        )
        ruff_and_discard(game, STOCK)
        assert game.phase == "can_ye" and game.can_ye_queue == [N]  # S holds one: not asked
        events = game.apply(N, Pass())
        assert events == [Passed(N)]
        events += play_tricks(game, self.LATE_TRICKS)
        assert of_kind(events, TrickWon)[-1].tricks == (5, 7)
        return events

    def test_uncalled_honours_still_score(self) -> None:
        events = self._late()
        assert of_kind(events, HonoursScored) == [HonoursScored((3, 1), (2, 0), "")]
        over = of_kind(events, GameOver)
        assert over == [GameOver(1, 0, (10, 7), "honours", (1, 0))]

    def test_uncalled_honours_void(self) -> None:
        events = self._late(uncalled_honours_at_call_point="void")
        (honours,) = of_kind(events, HonoursScored)
        assert honours.points == (0, 0) and "void" in honours.note
        assert _last_deal_scored(events).scores == (8, 7)
        assert not of_kind(events, GameOver)
        assert of_kind(events, DealStarted)[-1].deal_no == 2


class TestTricksBeforeHonours:
    """§11.6: trick points are scored and checked before honours."""

    # E ruffs (AD); EW hold all four honours
    HANDS = {
        N: "AS KS QS | JH 10H 9H | AC KC QC | 4D 3D 2D",
        E: "5S 4S 3S | 5H 4H 3H | JC 10C 9C | AD KD QD",
        S: "8S 7S 6S | AH KH QH | 5C 4C 3C | 10D 6D 5D",
        W: "JS 10S 9S | 8H 7H 6H | 8C 7C 6C | JD 9D 8D",
    }
    TRICKS = [
        "AS 3S 6S 9S",  # N
        "KS 4S 7S 10S",  # N
        "QS 5S 8S JS",  # N
        "AC 9C 3C 6C",  # N
        "KC 10C 4C 7C",  # N
        "QC JC 5C 8C",  # N
        "9H 3H AH 6H",  # S
        "KH 7H 10H 4H",  # S
        "QH 8H JH 5H",  # S
        "5D 8D 2D QD",  # E
        "AD 6D 9D 3D",  # E
        "KD 10D JD 4D",  # E
    ]

    def test_tricks_win_before_honours_are_counted(self) -> None:
        game, _ = stacked_game(dealer=W, hands=self.HANDS, stock=STOCK, start_scores=(6, 7))
        assert game.ruffer == E
        ruff_and_discard(game, STOCK)
        events = play_tricks(game, self.TRICKS)
        assert of_kind(events, TrickWon)[-1].tricks == (9, 3)
        assert not of_kind(events, HonoursScored)  # EW's four honours never scored
        assert of_kind(events, GameOver) == [GameOver(1, 0, (9, 7), "tricks", (1, 0))]
        assert _last_deal_scored(events).honour_points == (0, 0)

    # NS take 8: N's JC falls to E's QC
    HANDS_8 = {
        **HANDS,
        N: "AS KS QS | JH 10H 9H | AC KC JC | 4D 3D 2D",
        E: "5S 4S 3S | 5H 4H 3H | QC 10C 9C | AD KD QD",
    }
    TRICKS_8 = [
        "AS 3S 6S 9S",  # N
        "KS 4S 7S 10S",  # N
        "QS 5S 8S JS",  # N
        "AC 9C 3C 6C",  # N
        "KC 10C 4C 7C",  # N
        "JC QC 5C 8C",  # E
        "3H AH 6H 9H",  # S
        "KH 7H 10H 4H",  # S
        "QH 8H JH 5H",  # S
        "5D 8D 2D QD",  # E
        "AD 6D 9D 3D",  # E
        "KD 10D JD 4D",  # E
    ]

    def _eight_tricks(self, **overrides: object) -> list[Event]:
        game, _ = stacked_game(
            dealer=W,
            hands=self.HANDS_8,
            stock=STOCK,
            start_scores=(5, 7),
            overrides=overrides or None,
        )
        ruff_and_discard(game, STOCK)
        events = play_tricks(game, self.TRICKS_8)
        assert of_kind(events, TrickWon)[-1].tricks == (8, 4)
        return events

    def test_honours_can_win(self) -> None:
        events = self._eight_tricks()
        assert of_kind(events, HonoursScored) == [HonoursScored((0, 4), (0, 4), "")]
        assert of_kind(events, GameOver) == [GameOver(1, 1, (7, 11), "honours", (0, 1))]

    def test_honours_cannot_win(self) -> None:
        events = self._eight_tricks(honours_can_win="false")
        (honours,) = of_kind(events, HonoursScored)
        assert honours.points == (0, 1) and "capped" in honours.note
        assert _last_deal_scored(events).scores == (7, 8)
        assert not of_kind(events, GameOver)


# --------------------------------------------------------------------------- §11.7

# whist-9-honours, dealer W: W's last card (5H) is turned, trumps H. Every hand has
# three cards of each suit plus one more (N a heart, E a spade, S a diamond, W a
# club); after twelve tricks of three full rounds per suit, N's 2H takes the last.
W9_S = "AS KS QS | 10H 9H 8H | 8D 7D 6D 5D | JC 10C 9C"
W9_W = "JS 10S 9S | JD 10D 9D | AC KC QC 2C | 7H 6H 5H"
W9_TAIL = [
    "6C 9C AC 3C",  # E leads, W
    "KC 4C 7C 10C",  # W
    "QC 5C 8C JC",  # W
    "9S 6S 2S AS",  # S
    "KS 10S 7S 3S",  # S
    "QS JS 8S 4S",  # S
    "8D 2C 2H 5S",  # N: the only trump
]


def _whist9(
    n_hand: str, e_hand: str, start: tuple[int, int], tricks: list[str], s_hand: str = W9_S
) -> list[Event]:
    game, _ = stacked_game(
        "whist-9-honours",
        dealer=W,
        hands={N: n_hand, E: e_hand, S: s_hand, W: W9_W},
        start_scores=start,
    )
    assert game.turn_up == C("5H") and game.turn_up_holder == W and game.trump is Suit.HEARTS
    assert game.to_act() == N
    return play_tricks(game, tricks + W9_TAIL)


class TestWhistNinePointCap:
    """§11.7: honours (as dealt) cannot take a side past 8 in Whist 9-Point Honours."""

    def test_capped_at_eight(self) -> None:
        events = _whist9(
            "8S 7S 6S | AH KH QH 2H | AD 3D 2D | 5C 4C 3C",
            "5S 4S 3S 2S | JH 4H 3H | KD QD 4D | 8C 7C 6C",
            (6, 3),
            [
                "AH 3H 8H 5H",
                "KH 4H 9H 6H",
                "QH JH 10H 7H",
                "AD 4D 5D 9D",
                "2D KD 6D 10D",  # E
                "QD 7D JD 3D",  # E
            ],
        )
        assert of_kind(events, TrickWon)[-1].tricks == (8, 5)
        (honours,) = of_kind(events, HonoursScored)
        assert honours.counts == (3, 1) and honours.points == (0, 0) and "capped" in honours.note
        assert _last_deal_scored(events).scores == (8, 3)
        assert not of_kind(events, GameOver)

    def test_tricks_can_always_win(self) -> None:
        events = _whist9(
            "8S 7S 6S | AH KH QH 2H | AD KD 2D | 5C 4C 3C",
            "5S 4S 3S 2S | JH 4H 3H | QD 4D 3D | 8C 7C 6C",
            (7, 3),
            [
                "AH 3H 8H 5H",
                "KH 4H 9H 6H",
                "QH JH 10H 7H",
                "AD 3D 5D 9D",
                "KD 4D 6D 10D",
                "2D QD 7D JD",  # E
            ],
        )
        assert of_kind(events, TrickWon)[-1].tricks == (9, 4)
        assert not of_kind(events, HonoursScored)
        assert of_kind(events, GameOver) == [GameOver(1, 0, (10, 3), "tricks", (1, 0))]

    def test_four_honours_capped(self) -> None:
        events = _whist9(
            "8S 7S 6S | AH KH QH 2H | 4D 3D 2D | 5C 4C 3C",
            "5S 4S 3S 2S | 10H 4H 3H | AD KD QD | 8C 7C 6C",
            (5, 3),
            [
                "AH 3H 8H 5H",
                "KH 4H 9H 6H",
                "QH 10H JH 7H",
                "2D AD 5D 9D",  # E
                "KD 6D 10D 3D",  # E
                "QD 7D JD 4D",  # E
            ],
            s_hand="AS KS QS | JH 9H 8H | 8D 7D 6D 5D | JC 10C 9C",
        )
        assert of_kind(events, TrickWon)[-1].tricks == (7, 6)
        (honours,) = of_kind(events, HonoursScored)
        assert honours.counts == (4, 0) and honours.points == (2, 0)
        assert _last_deal_scored(events).scores == (8, 3)


# --------------------------------------------------------------------------- §11.8


class TestRotateTrump:
    """§11.8: Whist 7-Point Rotate Trump cycles H, D, S, C, H per game."""

    def test_five_deals(self) -> None:
        game, events = new_game("whist-7-rotate", overrides={"target_score": 99}, seed=3)
        for _ in range(4):
            events += play_deal(game)
        fixed = of_kind(events, TrumpFixed)
        assert [t.trump for t in fixed] == [
            Suit.HEARTS,
            Suit.DIAMONDS,
            Suit.SPADES,
            Suit.CLUBS,
            Suit.HEARTS,
        ]
        assert all(t.turn_up is None for t in fixed)
        assert [d.deal_no for d in of_kind(events, DealStarted)] == [1, 2, 3, 4, 5]

    @pytest.mark.parametrize(
        ("basis", "second_game_trump"), [("per_game", Suit.HEARTS), ("per_session", Suit.DIAMONDS)]
    )
    def test_cycle_basis(self, basis: str, second_game_trump: Suit) -> None:
        # both sides at 6 of 7: the first deal ends game 1 whoever wins it
        game, events = new_game(
            "whist-7-rotate",
            overrides={"match_format": "rubber_bo3", "trump_cycle_basis": basis},
            seed=5,
            start_scores=(6, 6),
        )
        events += play_deal(game)
        assert of_kind(events, GameOver)
        assert game.game_no == 2 and game.deal_no == 1
        assert [t.trump for t in of_kind(events, TrumpFixed)] == [Suit.HEARTS, second_game_trump]
