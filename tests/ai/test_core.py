"""The search building blocks: bitmask tricks, solver, DDS, sampling, playouts."""

from __future__ import annotations

import random

import pytest

from engine import Card, Game, SeatView, new_game, trick_winner
from engine.ai.search import dds
from engine.ai.search.bitmasks import SUIT_BITS, greedy_card, playout, trick_winner_pos
from engine.ai.search.solver import solve_cards
from engine.ai.search.value import WIN_BONUS, value_table
from engine.ai.search.worlds import OUT, enumerate_worlds, sample_world, situation
from engine.rules import make_rules

from .helpers import hands_of, positions


def _deal(rng: random.Random, cards: int) -> list[int]:
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [0, 0, 0, 0]
    for i in range(4 * cards):
        hands[i % 4] |= 1 << deck[i]
    return hands


def test_trick_winner_matches_engine() -> None:
    rng = random.Random(1)
    for _ in range(2000):
        trick = rng.sample(range(52), 4)
        trump = rng.randrange(5)
        suit = None if trump == 4 else Card.from_index(trump * 13).suit
        cards = [Card.from_index(i) for i in trick]
        assert trick_winner_pos(trick, trump) == trick_winner(cards, suit)


def test_playout_plays_legal_cards_to_the_end() -> None:
    rng = random.Random(2)
    for _ in range(200):
        hands = _deal(rng, 12)
        trump = rng.randrange(5)
        leader = rng.randrange(4)
        played: list[int] = []
        trick: list[int] = []
        # follow the greedy policy by hand and check legality on every card
        h = list(hands)
        ns = 0
        for _trick in range(12):
            trick = []
            for k in range(4):
                seat = (leader + k) % 4
                c = greedy_card(h, seat, trick, leader, trump)
                assert h[seat] >> c & 1
                if trick and h[seat] & SUIT_BITS[trick[0] // 13]:
                    assert c // 13 == trick[0] // 13, "must follow suit"
                h[seat] ^= 1 << c
                trick.append(c)
                played.append(c)
            leader = (leader + trick_winner_pos(trick, trump)) % 4
            ns += leader % 2 == 0
        assert not any(h)
        assert playout(list(hands), rng.randrange(4), [], trump, 0, 12) in range(13)
        assert len(set(played)) == 48


def test_solver_small_cases() -> None:
    # N holds the two top spades, E the next two: N's side takes both tricks
    a_s, k_s, q_s, j_s = (1 << 12), (1 << 11), (1 << 10), (1 << 9)
    two_h, three_h, four_h, five_h = 1 << 13, 1 << 14, 1 << 15, 1 << 16
    hands = [a_s | k_s, q_s | j_s, two_h | three_h, four_h | five_h]
    assert solve_cards(hands, 0, [], 4) == {12: 2, 11: 2}
    # hearts trumps: S ruffs N's spade, but W over-ruffs and draws S's last trump
    assert solve_cards(hands, 0, [], 1) == {12: 0, 11: 0}
    # W on lead with hearts as trumps: W's small trumps win both tricks for E-W
    assert solve_cards(hands, 3, [], 1) == {15: 2, 16: 2}


@pytest.mark.skipif(not dds.available(), reason="endplay not installed")
def test_solver_agrees_with_dds() -> None:
    rng = random.Random(3)
    for _ in range(60):
        cards = rng.randrange(1, 6)
        hands = _deal(rng, cards)
        trump = rng.randrange(5)
        leader = rng.randrange(4)
        trick: list[int] = []
        for k in range(rng.randrange(4)):
            seat = (leader + k) % 4
            c = greedy_card(hands, seat, trick, leader, trump)
            hands[seat] ^= 1 << c
            trick.append(c)
        assert solve_cards(hands, leader, trick, trump) == dds.solve_cards(
            hands, leader, trick, trump
        )


def test_sampled_worlds_respect_what_the_seat_knows() -> None:
    """Voids, hand sizes, the seat's own cards, the ruffer's turn-up."""
    checked = 0

    def late(game: Game, view: SeatView) -> bool:
        return view.trick_no >= 5 and view.phase == "play"

    for _game, view in positions(late, seeds=range(40)):
        sit = situation(view)
        rng = random.Random(view.deal_no)
        mine = sum(c.bit for c in view.hand)
        for _ in range(30):
            world = sample_world(sit, rng)
            assert world is not None
            assert world[view.seat] == mine
            for s in range(4):
                assert world[s].bit_count() == view.hand_sizes[s]
                assert not world[s] & sit.played
                assert not world[s] & ~sit.allowed[s] & sit.unknown or s == view.seat
            for a in range(4):
                for b in range(a + 1, 4):
                    assert not world[a] & world[b]
            # voids shown in play are respected
            for leader, cards, _ in view.completed_tricks:
                for i, c in enumerate(cards[1:], 1):
                    if c.suit is not cards[0].suit:
                        assert not world[(leader + i) % 4] & cards[0].suit.mask
            # a non-ruffer puts the turn-up with the ruffer (or among his discards)
            if (
                view.ruff_state == "taken"
                and view.ruffer != view.seat
                and view.turn_up is not None
                and not sit.played & view.turn_up.bit
            ):
                for s in range(4):
                    if s != view.ruffer:
                        assert not world[s] & view.turn_up.bit
        checked += 1
    assert checked >= 30
    assert OUT == 4


def test_endgame_worlds_are_all_there() -> None:
    """In the last two tricks: every consistent deal, the real one among them, no other."""
    checked = 0

    def endgame(game: Game, view: SeatView) -> bool:
        return view.phase == "play" and len(view.hand) <= 2 and len(view.legal) > 1

    for game, view in positions(endgame, seeds=range(60)):
        sit = situation(view)
        every = enumerate_worlds(sit, 100_000)
        assert every is not None
        worlds = [tuple(w) for w, _ in every]
        assert len(set(worlds)) == len(worlds)
        assert all(weight > 0 for _, weight in every)
        assert tuple(hands_of(game)) in worlds
        known = set(worlds)
        rng = random.Random(view.deal_no)
        for _ in range(20):
            sampled = sample_world(sit, rng)
            assert sampled is not None and tuple(sampled) in known
        mine = sum(c.bit for c in view.hand)
        for world in worlds:
            assert world[view.seat] == mine
            assert [w.bit_count() for w in world] == list(view.hand_sizes)
            assert not any(w & sit.played for w in world)
            for leader, cards, _ in view.completed_tricks:
                for i, c in enumerate(cards[1:], 1):
                    if c.suit is not cards[0].suit:
                        assert not world[(leader + i) % 4] & cards[0].suit.mask
        # with more worlds than the limit, none: the search samples instead
        if len(worlds) > 1:
            assert enumerate_worlds(sit, len(worlds) - 1) is None
        checked += 1
    assert checked >= 40


def test_sampling_when_nobody_ruffs_keeps_the_stock_out() -> None:
    rules = make_rules("ruff-honours-cotton", overrides={"ruff_if_ace_in_stock": "nobody"})
    found = 0
    for seed in range(300):
        game, _ = new_game(rules=rules, seed=seed, first_dealer=0)
        if game.phase != "play":
            continue
        view = game.observe(game.to_act() or 0)
        if view.ruffer is not None:
            continue
        sit = situation(view)
        world = sample_world(sit, random.Random(seed))
        assert world is not None
        assert view.turn_up is not None
        assert not any(w & view.turn_up.bit for w in world)
        ace = 1 << (view.turn_up.suit.order * 13 + 12)
        assert not any(w & ace for w in world)
        found += 1
    assert found


def test_value_table_tricks_over_six_and_target() -> None:
    rules = make_rules("ruff-honours-cotton")
    table = value_table(rules, 0, (0, 0), None)
    assert table[6] == 0 and table[8] == 2 and table[3] == -3
    # at 7 against 0, an eighth trick... 7 + 2 = 9 wins: worth far more than a point
    table = value_table(rules, 0, (7, 0), None)
    assert table[8] - table[7] > WIN_BONUS
    # honours count after tricks: 3 honours (2 points) put a side at 8 over the top
    table = value_table(rules, 0, (7, 0), (3, 1))
    assert table[6] == 2 + WIN_BONUS
