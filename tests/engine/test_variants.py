"""Rule parameters beyond the worked examples: Can-ye windows, ruff options, revokes."""

from __future__ import annotations

import pytest

from engine import CallCanYe, Card, Game, IllegalAction, Pass, ShowHonours, Suit, play
from engine.actions import DeclineRuff, Discard, TakeRuff
from engine.events import CanYeCalled, DealScored, GameOver, Revoked, RuffTaken, StockTaken

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
STOCK = "7D 2S 2H 2C"
HANDS = {
    N: "AS KS QS | 9H 10H JH | 6C 7C 8C | AD 2D 3D",
    E: "3S 4S 5S | AH KH QH | 9C 10C JC | JD 6D 5D",
    S: "6S 7S 8S | 3H 4H 5H | AC KC QC | KD QD 4D",
    W: "9S 10S JS | 6H 7H 8H | 3C 4C 5C | 10D 9D 8D",
}


class TestOwnFirstCardWindow:
    """``can_ye_window = before_own_first_card``: call on your turn in trick 1."""

    def _game(self) -> Game:
        game, _ = stacked_game(
            dealer=W,
            hands=HANDS,
            stock=STOCK,
            start_scores=(8, 3),
            overrides={"can_ye_window": "before_own_first_card"},
        )
        ruff_and_discard(game, STOCK)
        assert game.phase == "play" and game.can_ye_open == {S}
        return game

    def test_call_while_following_suit(self) -> None:
        game = self._game()
        assert CallCanYe() not in game.legal_actions(N)  # N holds one honour
        play_tricks(game, ["AD 5D"])
        legal = game.legal_actions(S)
        assert legal == [play("4D"), play("QD"), play("KD"), CallCanYe()]
        # N played AD to this trick, but held it when play began: the call is answered
        events = game.apply(S, CallCanYe())
        assert events[0] == CanYeCalled(S, N, True, tuple(cards("QD KD AD")))
        assert of_kind(events, GameOver)[0].how == "can_ye" and game.is_over

    def test_window_closes_with_own_card(self) -> None:
        game = self._game()
        play_tricks(game, ["AD 5D 4D"])
        with pytest.raises(IllegalAction):
            game.check(S, CallCanYe())
        play_tricks(game, ["8D"])  # trick 1 complete
        assert game.can_ye_open == set()
        assert all(CallCanYe() not in game.legal_actions(s) for s in range(4))

    def test_pass_is_not_an_action_in_play(self) -> None:
        game = self._game()
        play_tricks(game, ["AD 5D"])
        with pytest.raises(IllegalAction, match="play a card"):
            game.apply(S, Pass())


class TestBeforeFirstLead:
    def test_declarations_close_before_the_lead(self) -> None:
        game, _ = stacked_game(dealer=W, hands=HANDS, stock=STOCK, start_scores=(8, 3))
        ruff_and_discard(game, STOCK)
        assert game.phase == "can_ye" and game.can_ye_queue == [S] and game.to_act() == S
        for seat in (N, E, W):
            assert game.legal_actions(seat) == []
            with pytest.raises(IllegalAction):
                game.apply(seat, play(game.hand(seat)[0]))
        game.apply(S, Pass())
        assert game.phase == "play" and game.to_act() == N
        with pytest.raises(IllegalAction):
            game.apply(S, CallCanYe())
        with pytest.raises(IllegalAction):
            game.apply(N, ShowHonours())

    def test_no_early_calls_without_a_call_point(self) -> None:
        game, _ = stacked_game(
            dealer=W, hands=HANDS, stock=STOCK, start_scores=(8, 3), preset="gge-elizabethan"
        )
        ruff_and_discard(game, STOCK)
        assert game.phase == "play"


class TestRuffOptions:
    def test_mandatory_ruff_is_taken_at_once(self) -> None:
        game, events = stacked_game(
            dealer=W, hands=HANDS, stock=STOCK, overrides={"ruff_mandatory": True}
        )
        assert RuffTaken(N, "holds_ace") in events and of_kind(events, StockTaken)
        assert game.phase == "discard" and game.to_act() == N and len(game.hand(N)) == 16
        with pytest.raises(IllegalAction):
            game.apply(N, DeclineRuff())
        with pytest.raises(IllegalAction):
            game.apply(N, TakeRuff())

    def test_no_honours_restriction(self) -> None:
        game, _ = stacked_game(
            dealer=W, hands=HANDS, stock=STOCK, overrides={"ruff_discard_restriction": "no_honours"}
        )
        game.apply(N, TakeRuff())
        legal = game.legal_actions(N)
        assert Discard(C("AD")) not in legal and Discard(C("7D")) in legal and len(legal) == 15
        with pytest.raises(IllegalAction, match="an honour"):
            game.apply(N, Discard(C("AD")))

    def test_no_trumps_restriction_yields_when_short(self) -> None:
        # N has only three non-trumps after taking the stock in: exactly one trump must go
        hands = {N: "AD KD QD JD 10D 9D 8D 6D 5D 4D 3D 2D"}
        game, _ = stacked_game(
            dealer=W,
            hands=hands,
            stock="7D 2S 2H 2C",
            overrides={"ruff_discard_restriction": "no_trumps"},
        )
        game.apply(N, TakeRuff())
        assert len(game.legal_actions(N)) == 16  # too few non-trumps to fill four: any card
        game.apply(N, Discard(C("AD")))
        assert game.legal_actions(N) == [Discard(C("2S")), Discard(C("2H")), Discard(C("2C"))]
        with pytest.raises(IllegalAction, match="a trump"):
            game.apply(N, Discard(C("KD")))
        for code in ("2S", "2H", "2C"):
            game.apply(N, Discard(C(code)))
        assert game.phase == "play" and game.discards == cards("AD 2S 2H 2C")

    def test_ruffer_leads(self) -> None:
        # dealer E, eldest S; W holds the trump ace
        rotated = {W: HANDS[N], N: HANDS[E], E: HANDS[S], S: HANDS[W]}
        game, _ = stacked_game(
            dealer=E, hands=rotated, stock=STOCK, overrides={"first_leader": "ruffer"}
        )
        assert game.ruffer == W and game.eldest == S
        ruff_and_discard(game, STOCK)
        assert game.to_act() == W  # the ruffer, not eldest, leads
        game, _ = stacked_game(
            dealer=E, hands=rotated, stock=STOCK, overrides={"first_leader": "ruffer"}
        )
        game.apply(W, DeclineRuff())
        assert game.to_act() == S  # nobody ruffed: eldest leads


class TestRevokePenalty:
    def test_revoke_costs_a_point(self) -> None:
        game, _ = stacked_game(
            dealer=W,
            hands=HANDS,
            stock=STOCK,
            start_scores=(3, 3),
            overrides={"revoke_mode": "penalty"},
        )
        ruff_and_discard(game, STOCK)
        # E holds spades but plays a heart to N's spade lead: accepted, and noted
        game.apply(N, play("AS"))
        assert play("AH") in game.legal_actions(E)
        events = game.apply(E, play("AH"))
        assert events[0] == Revoked(E, 1)
        events = play_deal(game)
        scored = of_kind(events, DealScored)[0]
        assert scored.penalty_points == (0, -1)
        assert scored.scores[1] == 3 - 1 + scored.trick_points[1] + scored.honour_points[1]


def test_no_trump_deal_has_no_honours() -> None:
    game, events = stacked_game(
        "whist-7-rotate",
        dealer=W,
        hands={},
        overrides={"trump_cycle": "NT,S", "honours": "on"},
    )
    assert game.trump is None and game.turn_up is None
    events = play_deal(game)
    honours = [e for e in events if type(e).__name__ == "HonoursScored"]
    assert honours and honours[0].counts == (0, 0) and honours[0].note == "no trumps, no honours"
    assert game.trump is Suit.SPADES
