"""Jokers, rank orders and the order-aware trick winner (RULES §7.5, §11.1, §11.2)."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import (
    BIG_JOKER,
    DOWNTOWN,
    DOWNTOWN_ACE_LOW,
    HIGH,
    JOKERS_MASK,
    LITTLE_JOKER,
    Card,
    CardParseError,
    RankOrder,
    Suit,
    cards_from_mask,
    deck_with_jokers,
    declarer_must_discard_jokers,
    effective_suit,
    follow_mask,
    full_deck,
    led_suit,
    mask_of,
    parse_cards,
    sort_hand,
    suit_mask_for,
    trick_winner,
    winner_of,
)
from engine.game import trick_winner as high_trick_winner

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
# seats for the vectors: N=0, E=1, S=2, W=3


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def winner_seat(leader: int, text: str, trump: Suit | None, order: RankOrder) -> int:
    return (leader + trick_winner(cards(text), trump, order)) % 4


# -- jokers as cards -----------------------------------------------------------


def test_jokers_parse_print_and_index() -> None:
    assert Card.parse("BJ") is BIG_JOKER and Card.parse("bj") is BIG_JOKER
    assert Card.parse("LJ") is LITTLE_JOKER
    assert (LITTLE_JOKER.index, BIG_JOKER.index) == (52, 53)
    assert str(BIG_JOKER) == "BJ" and repr(LITTLE_JOKER) == "Card(LJ)"
    assert BIG_JOKER.is_joker and not Card.parse("AS").is_joker
    assert Card.from_index(53) is BIG_JOKER
    assert pickle.loads(pickle.dumps(LITTLE_JOKER)) is LITTLE_JOKER
    with pytest.raises(AttributeError):
        _ = BIG_JOKER.suit
    with pytest.raises(CardParseError):
        Card.parse("XJ")


def test_decks() -> None:
    assert len(full_deck()) == 52 and all(not c.is_joker for c in full_deck())
    deck = deck_with_jokers()
    assert len(deck) == 54 and deck[-2:] == [LITTLE_JOKER, BIG_JOKER]
    assert deck_with_jokers(1)[-1] is BIG_JOKER and len(deck_with_jokers(1)) == 53
    assert deck_with_jokers(0) == full_deck()
    assert mask_of(deck) == (1 << 54) - 1
    assert list(cards_from_mask(mask_of(deck))) == deck
    with pytest.raises(ValueError):
        deck_with_jokers(3)


def test_sort_hand_puts_jokers_first() -> None:
    hand = sort_hand(cards("2S LJ AH BJ"), H)
    assert hand[:2] == [BIG_JOKER, LITTLE_JOKER]


def test_effective_suit_and_masks() -> None:
    assert effective_suit(BIG_JOKER, H) is H
    assert effective_suit(LITTLE_JOKER, None) is None
    assert effective_suit(Card.parse("2C"), H) is C
    assert suit_mask_for(H, H) == H.mask | JOKERS_MASK
    assert suit_mask_for(C, H) == C.mask


# -- §11.1 trick winner with trumps --------------------------------------------


@pytest.mark.parametrize("order", [HIGH, DOWNTOWN, DOWNTOWN_ACE_LOW])
def test_11_1_trumps(order: RankOrder) -> None:
    # W (3) leads; the trump/off-suit parts of §11.1 hold in every order
    assert winner_seat(3, "KC AC 3H AD", H, order) == 1  # E: only trump
    assert winner_seat(3, "KC AC 3H 2C", H, order) == 1


def test_11_1_vectors() -> None:
    assert winner_seat(3, "KC AC 3H 8H", H, HIGH) == 2  # S: 8H > 3H
    assert winner_seat(3, "KC AC 3H AD", H, HIGH) == 1  # E: off-suit ace never wins
    assert winner_seat(3, "KC AC AD 2C", H, HIGH) == 0  # N: AC highest club
    # legality: S holding a club must follow with it
    s_hand = mask_of(cards("5C AD 8H"))
    assert follow_mask(s_hand, cards("KC AC 3H"), H) == Card.parse("5C").bit
    assert follow_mask(mask_of(cards("AD 8H")), cards("KC AC 3H"), H) == mask_of(cards("AD 8H"))


# -- §11.2 Bid Whist rank orders -------------------------------------------------


def test_11_2_downtown_ace_high_and_low() -> None:
    # E (1) leads 5H; S 2H; W KH; N AH
    assert winner_seat(1, "5H 2H KH AH", S, DOWNTOWN) == 0  # N
    assert winner_seat(1, "5H 2H KH AH", S, DOWNTOWN_ACE_LOW) == 2  # S
    assert winner_seat(1, "5H 2H KH AH", S, RankOrder.for_mode("downtown", "low")) == 2


def test_11_2_little_joker_top_trump() -> None:
    assert winner_seat(1, "3S AS LJ 2S", S, DOWNTOWN) == 3  # W
    assert winner_seat(1, "3S AS LJ BJ", S, DOWNTOWN) == 0  # BJ above LJ
    assert winner_seat(1, "3S AS LJ 2S", S, HIGH) == 3


def test_11_2_no_trump_jokers_powerless() -> None:
    # 5 no-trump downtown: E 4D; S 2D; W BJ (void); N AD -> N
    assert winner_seat(1, "4D 2D BJ AD", None, DOWNTOWN) == 0
    # W leads BJ, N 7C, E 2C, S KC: clubs fixed by N -> E
    trick = cards("BJ 7C 2C KC")
    assert led_suit(trick, None) is C
    assert winner_seat(3, "BJ 7C 2C KC", None, DOWNTOWN) == 1
    # following after a led joker: N free, then clubs
    e_hand = mask_of(cards("2C 9D"))
    assert follow_mask(e_hand, cards("BJ"), None) == e_hand
    assert follow_mask(e_hand, cards("BJ 7C"), None) == Card.parse("2C").bit


def test_jokers_follow_a_trump_lead_and_trump_when_void() -> None:
    hand = mask_of(cards("BJ 4D 9C"))
    assert follow_mask(hand, cards("2S"), S) == BIG_JOKER.bit  # joker is a spade
    assert follow_mask(hand, cards("KH"), S) == hand  # void in hearts
    assert winner_of(cards("KH BJ"), S, HIGH) == 1
    assert follow_mask(hand, cards("2S"), None) == hand  # no trump: joker no spade


def test_all_jokers_trick_goes_to_first_card() -> None:
    assert trick_winner(cards("LJ BJ"), None, HIGH) == 0


def test_strength_key_beats_ranked() -> None:
    assert [HIGH.strength(c) for c in cards("2S AS LJ BJ")] == [1, 13, 14, 15]
    assert [DOWNTOWN.strength(c) for c in cards("AS 2S 3S KS")] == [13, 12, 11, 1]
    assert [DOWNTOWN_ACE_LOW.strength(c) for c in cards("2S 3S KS AS")] == [13, 12, 2, 1]
    assert DOWNTOWN.key(BIG_JOKER, None) == 0
    assert DOWNTOWN.beats(Card.parse("2H"), Card.parse("5H"), H, S)
    assert not DOWNTOWN.beats(Card.parse("AD"), Card.parse("5H"), H, S)
    assert DOWNTOWN.beats(Card.parse("KS"), Card.parse("AH"), H, S)
    assert not HIGH.beats(BIG_JOKER, Card.parse("2D"), D, None)
    assert HIGH.ranked(cards("2S AS LJ KH BJ"), S) == cards("BJ LJ AS 2S KH")


def test_order_values() -> None:
    assert RankOrder() == HIGH == RankOrder.high() == RankOrder("uptown", "low")
    assert hash(RankOrder("uptown", "low")) == hash(HIGH)
    assert DOWNTOWN != DOWNTOWN_ACE_LOW
    assert [o.name for o in (HIGH, DOWNTOWN, DOWNTOWN_ACE_LOW)] == [
        "uptown",
        "downtown",
        "downtown_ace_low",
    ]
    for order in (HIGH, DOWNTOWN, DOWNTOWN_ACE_LOW):
        assert RankOrder.from_data(order.to_data()) is order  # shared constants
    assert RankOrder.for_mode("uptown", "low") is HIGH
    with pytest.raises(ValueError):
        RankOrder("sideways")
    with pytest.raises(ValueError):
        RankOrder("downtown", "middle")


def test_nt_jokers_discard() -> None:
    assert declarer_must_discard_jokers("bidder_discards", None)
    assert not declarer_must_discard_jokers("bidder_discards", S)
    assert not declarer_must_discard_jokers("powerless", None)
    with pytest.raises(ValueError):
        declarer_must_discard_jokers("eaten", None)


# -- properties ----------------------------------------------------------------------

_DECK52 = full_deck()
_TRUMPS = st.sampled_from([S, H, D, C, None])


@settings(max_examples=400, deadline=None)
@given(trick=st.lists(st.sampled_from(_DECK52), min_size=1, max_size=4, unique=True), trump=_TRUMPS)
def test_high_order_agrees_with_todays_trick_winner(trick: list[Card], trump: Suit | None) -> None:
    assert trick_winner(trick, trump) == high_trick_winner(trick, trump)
    assert HIGH.trick_winner(trick, trump) == high_trick_winner(trick, trump)


def test_high_order_agrees_exhaustively_on_two_card_tricks() -> None:
    for trump in (S, H, D, C, None):
        for a in _DECK52:
            for b in _DECK52:
                if a is not b:
                    assert HIGH.trick_winner([a, b], trump) == high_trick_winner([a, b], trump)


@settings(max_examples=300, deadline=None)
@given(
    trick=st.lists(st.sampled_from(deck_with_jokers()), min_size=1, max_size=4, unique=True),
    trump=_TRUMPS,
    order=st.sampled_from([HIGH, DOWNTOWN, DOWNTOWN_ACE_LOW]),
)
def test_winner_is_consistent_with_beats(
    trick: list[Card], trump: Suit | None, order: RankOrder
) -> None:
    win = order.trick_winner(trick, trump)
    led = led_suit(trick, trump)
    # the winner is trump or of the led suit unless nothing in the trick can win
    winning = trick[win]
    if led is not None:
        assert effective_suit(winning, trump) in (led, trump)
    for i, card in enumerate(trick):
        if i != win:
            assert not order.beats(card, winning, led, trump)
