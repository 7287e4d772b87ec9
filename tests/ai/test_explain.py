"""The hints' reasons (engine.ai.explain): each maxim is named in a stacked position
where it applies, and not in a close position where it does not; and the hard AI's
hint is a legal action with a reason in every game."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import (
    CallCanYe,
    Card,
    Discard,
    Pass,
    Play,
    SeatView,
    Suit,
    TakeRuff,
    game_ids,
    new_game,
    parse_cards,
)
from engine.ai import REASONS, explain, hint
from engine.phases.solo_auction import SoloBid


def _view(
    hand: str,
    trick: list[tuple[int, str]] = (),  # type: ignore[assignment]
    done: list[tuple[int, str, int]] = (),  # type: ignore[assignment]
    trump: Suit | None = Suit.SPADES,
) -> SeatView:
    """North's view (seat 0) at a whist-5 table, stacked: ``hand``, the ``trick`` so far as
    (seat, card), the tricks ``done`` as (leader, cards, winner); every card of North's
    hand is offered (the reasons never judge legality)."""
    base = new_game("whist-5", seed=1)[0].observe(0)
    cards = tuple(parse_cards(hand))
    return replace(
        base,
        hand=cards,
        trump=trump,
        trick=tuple((s, Card.parse(c)) for s, c in trick),
        completed_tricks=tuple((lead, tuple(parse_cards(cs)), won) for lead, cs, won in done),
        legal=tuple(Play(c) for c in cards),
        to_act=0,
    )


def _code(view: SeatView, card: str) -> str:
    return explain(view, Play(Card.parse(card))).code


def test_second_hand_low_and_duck_while_the_ace_is_out() -> None:
    # West (seat 3, on North's right) leads the 5♥
    ducking = _view("KH 3H 2C 4D", trick=[(3, "5H")])
    reason = explain(ducking, Play(Card.parse("3H")))
    assert reason.code == "duck" and reason.card == Card.parse("AH")
    # the ace already played: the low card is plain "second hand low"
    seen = _view("KH 3H 2C 4D", trick=[(3, "5H")], done=[(1, "AH 6H 7H 8H", 1)])
    assert _code(seen, "3H") == "second_low"
    # not a duck when the king is played
    assert _code(ducking, "KH") != "duck"


def test_cover_an_honour_with_an_honour() -> None:
    view = _view("QH 2H 3C 4D", trick=[(3, "JH")])
    reason = explain(view, Play(Card.parse("QH")))
    assert reason.code == "cover_honour" and reason.card == Card.parse("JH")
    low_led = _view("QH 2H 3C 4D", trick=[(3, "5H")])
    assert _code(low_led, "QH") != "cover_honour"


def test_third_hand_high_and_partner_winning() -> None:
    # South (partner, seat 2) led the 4♥, West (3) played the 6♥: North plays high
    third = _view("QH JH 2H 3C", trick=[(2, "4H"), (3, "6H")])
    assert _code(third, "QH") == "third_high"
    assert _code(third, "2H") != "third_high"
    # partner's ace holds the trick: low, not high
    partner = _view("QH JH 2H 3C", trick=[(2, "AH"), (3, "6H")])
    assert _code(partner, "2H") == "partner_winning"


def test_a_bid_whist_bid_is_explained_by_the_count_of_books_it_rests_on() -> None:
    from engine import Bid

    strong = _view("AS KS QS JS 10S AH KH AD KD 2C 3C 4C", trump=None)
    low = explain(strong, Bid(1, "u"))
    assert low.code == "bid_books" and low.n >= 7
    assert explain(strong, Bid(7, "u")).code == "search"  # all 13 books: not by the count


def test_a_finesse_and_winning_before_the_last_hand() -> None:
    # partner led the 4♥, West the 6♥: North holds A♥ Q♥ with the K♥ unseen
    finesse = _view("AH QH 2H 3C", trick=[(2, "4H"), (3, "6H")])
    reason = explain(finesse, Play(Card.parse("QH")))
    assert reason.code == "finesse" and reason.card == Card.parse("KH")
    assert _code(finesse, "AH") == "third_high"
    # the K♥ already played: the Q♥ is no finesse
    seen = _view("AH QH 2H 3C", trick=[(2, "4H"), (3, "6H")], done=[(1, "KH 5H 7H 8H", 1)])
    assert _code(seen, "QH") != "finesse"
    # second hand taking the trick with its cheapest winner is not "last to play"
    second = _view("AH 2H 3C", trick=[(3, "5H")], done=[(1, "KH QH JH 10H", 1)])
    assert _code(second, "AH") == "win_now"


def test_last_hand_wins_cheaply_or_follows_low() -> None:
    last = _view("KH 9H 2H 3C", trick=[(1, "8H"), (2, "5H"), (3, "7H")])
    assert _code(last, "9H") == "win_cheaply"
    assert _code(last, "KH") != "win_cheaply"
    assert _code(last, "2H") not in ("duck", "follow_low")  # nobody plays after the last hand
    beaten = _view("6H 2H 3C", trick=[(1, "AH"), (2, "5H"), (3, "7H")])
    assert _code(beaten, "2H") == "follow_low"


def test_draw_trumps_counts_the_trumps_still_out() -> None:
    view = _view("AS KS QS JS 10S 2H")
    reason = explain(view, Play(Card.parse("AS")))
    assert reason.code == "draw_trumps" and reason.n == 13 - 5
    # the other eight trumps already played: nothing to draw
    gone = _view(
        "AS KS QS JS 10S 2H",
        done=[(1, "9S 8S 7S 6S", 1), (1, "5S 4S 3S 2S", 1)],
    )
    assert _code(gone, "AS") != "draw_trumps"


def test_return_your_partners_suit() -> None:
    view = _view("KC 7C 3D 4D", done=[(2, "4C AC 2C 5C", 2)])
    reason = explain(view, Play(Card.parse("KC")))
    assert reason.code == "return_partner" and reason.suit is Suit.CLUBS
    own = _view("KC 7C 3D 4D", done=[(1, "4C AC 2C 5C", 1)])  # an opponent led clubs
    assert _code(own, "KC") != "return_partner"


def test_ruff_overruff_and_discards_when_void() -> None:
    void = _view("3S 2D 4D 5C", trick=[(1, "KH"), (2, "5H"), (3, "7H")])
    reason = explain(void, Play(Card.parse("3S")))
    assert reason.code == "ruff" and reason.suit is Suit.HEARTS
    discard = explain(void, Play(Card.parse("2D")))
    assert discard.code == "discard_weak" and discard.suit is Suit.DIAMONDS
    over = _view("9S 2D 4D 5C", trick=[(1, "KH"), (2, "5H"), (3, "4S")])
    assert _code(over, "9S") == "overruff"
    # following suit is never a ruff
    following = _view("3H 2D", trick=[(1, "KH")])
    assert _code(following, "3H") not in ("ruff", "overruff")


def test_leads_master_sequence_fourth_best() -> None:
    assert _code(_view("AD 5D 3C 4H", trump=Suit.SPADES), "AD") == "cash_master"
    assert _code(_view("KD QD 5D 3C", done=[(1, "AS 2S 3S 4S", 1)]), "KD") in (
        "top_of_sequence",
        "cash_master",
    )
    assert _code(_view("KD QD 5D 3C"), "KD") == "top_of_sequence"
    assert _code(_view("KD 9D 7D 5D 3D 2C"), "5D") == "fourth_best"
    assert _code(_view("KD 9D 7D 5D 3D 2C"), "3D") == "lead_low"


def test_decisions_other_than_cards() -> None:
    view = _view("AS 2H")
    assert explain(view, TakeRuff()).code == "take_ruff"
    lay = explain(view, Discard(Card.parse("2H")))
    assert lay.code == "lay_out_weak" and lay.suit is Suit.HEARTS
    assert explain(view, Discard(Card.parse("AS"))).code == "lay_out"
    honours = _view("AS QS 2H", trump=Suit.SPADES)
    canye = explain(honours, CallCanYe())
    assert canye.code == "call_canye" and canye.n == 2
    assert explain(honours, Pass()).code == "pass_canye"


def test_the_solo_auction_reasons_count_sure_tricks() -> None:
    strong = replace(
        _view("AH KH QH JH 10H AS KS 2C 3C 4C 2D 3D 4D", trump=None),
        turn_up=Card.parse("2H"),
    )
    solo = explain(strong, SoloBid("solo"))
    assert solo.code == "solo_call" and solo.n == 6 and solo.call == "solo"
    assert explain(strong, SoloBid("pass")).code == "solo_pass"
    assert explain(strong, SoloBid("abund")).code == "search"  # 9 wanted: not by the count
    low = replace(_view("2S 3S 4S 5S 6S 5C 6C 7C 5D 6D 7D 3H 4H", trump=None))
    misere = explain(low, SoloBid("mis"))
    assert misere.code == "solo_misere" and misere.n == 0


@pytest.mark.parametrize("game_id", game_ids())
def test_the_hard_hint_is_legal_and_has_a_reason_in_every_game(game_id: str) -> None:
    game, _ = new_game(game_id, seed=5)
    rng = random.Random(5)
    seen = 0
    while not game.is_over and seen < 6:
        seat = game.to_act()
        assert seat is not None
        legal = game.legal_actions(seat)
        action, reason = hint(game.observe(seat), legal, rng, 0.02, 0.1)
        assert action in legal and reason.code in REASONS
        game.apply(seat, action)
        seen += 1
