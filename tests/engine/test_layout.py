"""Turnover Bridge layouts: deal shapes, availability, exposure, views (RULES §8, §11.12)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import (
    HIGH,
    Card,
    Suit,
    cards_from_mask,
    full_deck,
    mask_of,
    parse_cards,
    trick_winner,
)
from engine.layout import SHAPES, TRICKS_PER_DEAL, Layout

PLAYER, OPP = 0, 1  # player P and opponent O of §11.12


def c(code: str) -> Card:
    return Card.parse(code)


def small_layout() -> Layout:
    """P: position 3 holds down 9D, up 2S (§11.12); O: only hearts face down."""
    p_piles = [["3C", "4C"], ["5C", "6C"], ["7C", "8C"], ["9D", "2S"]]
    o_piles = [["2H", "KD"], ["3H", "QC"]]
    return Layout.from_cards(
        "seed004",
        [[parse_cards(p) for p in p_piles], [parse_cards(p) for p in o_piles]],
    )


def test_shapes() -> None:
    seed, pagat = SHAPES["seed004"], SHAPES["pagat"]
    assert seed.row_positions() == ((0, 1, 2, 3, 4), (5, 6, 7, 8))
    assert (seed.piles, seed.hand_size, seed.cards_per_player) == (9, 8, 26)
    assert (pagat.piles, pagat.hand_size, pagat.cards_per_player) == (12, 2, 26)
    assert TRICKS_PER_DEAL == 26


@pytest.mark.parametrize("dealer", [0, 1])
def test_seed004_deal_mapping(dealer: int) -> None:
    deck = full_deck()
    random.Random(4).shuffle(deck)
    layout, hands = Layout.deal(deck, dealer, "seed004")
    non_dealer = 1 - dealer
    for position in range(9):
        assert layout.piles[non_dealer][position] == [
            deck[2 * position].index,
            deck[18 + 2 * position].index,
        ]
        assert layout.piles[dealer][position] == [
            deck[2 * position + 1].index,
            deck[19 + 2 * position].index,
        ]
    assert hands[non_dealer] == mask_of(deck[36:52:2])
    assert hands[dealer] == mask_of(deck[37:52:2])
    assert deck[51].bit & hands[dealer]  # the dealer's last dealt card
    for seat in (0, 1):
        assert hands[seat].bit_count() == 8
        assert layout.face_up(seat).bit_count() == 9 == layout.face_down(seat).bit_count()
    assert layout.public_mask() | layout.hidden_mask() | hands[0] | hands[1] == (1 << 52) - 1


def test_pagat_deal_shape() -> None:
    deck = full_deck()
    random.Random(7).shuffle(deck)
    layout, hands = Layout.deal(deck, 0, "pagat")
    for seat in (0, 1):
        assert hands[seat].bit_count() == 2
        assert layout.face_up(seat).bit_count() == 12 == layout.face_down(seat).bit_count()
    assert layout.piles[1][0] == [deck[0].index, deck[24].index]  # non-dealer first
    assert hands[1] == mask_of([deck[48], deck[50]])


def test_deal_refuses_bad_input() -> None:
    with pytest.raises(ValueError):
        Layout.deal(full_deck(), 0, "bridge")
    with pytest.raises(ValueError):
        Layout.deal(full_deck()[:50], 0)
    with pytest.raises(ValueError):
        Layout.deal(full_deck(), 2)


def test_11_12_playing_a_cover_exposes_the_card_beneath() -> None:
    layout = small_layout()
    assert layout.position_of(PLAYER, c("2S")) == 3
    assert layout.playable(PLAYER) & c("2S").bit and not layout.playable(PLAYER) & c("9D").bit
    exposed = layout.play(PLAYER, c("2S"))
    assert exposed is c("9D")
    # public at once, playable only from the next trick
    assert layout.face_up(PLAYER) & c("9D").bit and layout.public_mask() & c("9D").bit
    assert not layout.playable(PLAYER) & c("9D").bit
    assert layout.view()[PLAYER][3] == {"position": 3, "up": "9D", "down": 0, "fresh": True}
    layout.end_trick()
    assert layout.playable(PLAYER) & c("9D").bit
    assert layout.play(PLAYER, c("9D")) is None  # the position is now empty
    assert layout.view()[PLAYER][3]["up"] is None
    with pytest.raises(ValueError):
        layout.play(PLAYER, c("9D"))
    with pytest.raises(ValueError):
        layout.play(PLAYER, c("3C"))  # face down


def test_11_12_follow_suit_only_from_available_cards() -> None:
    layout = small_layout()
    hand = mask_of(parse_cards("AS"))
    # O's hearts are all face down: OPP is void in hearts and may play anything available
    legal = layout.legal(OPP, hand, parse_cards("AH"), Suit.SPADES)
    assert legal == mask_of(parse_cards("AS KD QC"))
    assert not legal & layout.face_down(OPP)
    # with a club available OPP must follow clubs
    assert layout.legal(OPP, hand, parse_cards("2C"), Suit.SPADES) == c("QC").bit


def test_11_12_trick_winners() -> None:
    assert trick_winner(parse_cards("AH 2S"), Suit.SPADES, HIGH) == 1  # P trumps
    assert trick_winner(parse_cards("AH KD"), Suit.SPADES, HIGH) == 0  # led card wins


def test_view_hides_face_down_cards() -> None:
    deck = full_deck()
    random.Random(1).shuffle(deck)
    layout, _hands = Layout.deal(deck, 0)
    text = json.dumps(layout.view())
    for card in cards_from_mask(layout.hidden_mask()):
        assert f'"{card.code}"' not in text
    for card in cards_from_mask(layout.public_mask()):
        assert f'"{card.code}"' in text


def test_snapshot_round_trip_and_clone() -> None:
    layout = small_layout()
    layout.play(PLAYER, c("2S"))
    data = json.loads(json.dumps(layout.to_data()))
    again = Layout.from_data(data)
    assert again == layout and again.fresh == layout.fresh
    assert again.playable(PLAYER) == layout.playable(PLAYER)
    copy = layout.clone()
    copy.end_trick()
    copy.play(PLAYER, c("9D"))
    assert layout.face_up(PLAYER) & c("9D").bit and copy != layout
    with pytest.raises(ValueError):
        Layout.from_data({"layout": "nope", "piles": [], "fresh": []})


def test_invalid_layouts() -> None:
    with pytest.raises(ValueError):
        Layout("seed004", [[[1, 2]], [[2, 3]]])  # card 2 twice
    with pytest.raises(ValueError):
        Layout("seed004", [[[1, 2]], [[3, 4]]], fresh=[1 << 1, 0])  # fresh not on top


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), layout_name=st.sampled_from(["seed004", "pagat"]))
def test_random_playout_accounts_for_every_card(seed: int, layout_name: str) -> None:
    rng = random.Random(seed)
    deck = full_deck()
    rng.shuffle(deck)
    dealer = rng.randrange(2)
    layout, hands = Layout.deal(deck, dealer, layout_name)
    leader = 1 - dealer
    played = 0
    for _ in range(TRICKS_PER_DEAL):
        trick: list[Card] = []
        for k in range(2):
            seat = (leader + k) % 2
            legal = layout.legal(seat, hands[seat], trick, Suit.SPADES)
            assert legal and not legal & layout.face_down(seat)
            card = rng.choice(list(cards_from_mask(legal)))
            if hands[seat] & card.bit:
                hands[seat] ^= card.bit
            else:
                exposed = layout.play(seat, card)
                if exposed is not None:
                    assert not layout.available(seat, hands[seat]) & exposed.bit
            trick.append(card)
            played |= card.bit
        leader = (leader + trick_winner(trick, Suit.SPADES)) % 2
        layout.end_trick()
        everything = played | layout.public_mask() | layout.hidden_mask() | hands[0] | hands[1]
        assert everything == (1 << 52) - 1
        assert Layout.from_data(layout.to_data()) == layout
    assert played == (1 << 52) - 1
    assert hands == [0, 0] and layout.public_mask() == 0 == layout.hidden_mask()
