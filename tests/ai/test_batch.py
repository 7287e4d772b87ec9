"""The batched NumPy playout plays exactly like the scalar greedy playout."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from engine.ai.search.batch_playouts import batch_playout, hands_array
from engine.ai.search.bitmasks import NO_TRUMP, SUIT_BITS, greedy_card, playout, trick_winner_pos

Position = tuple[list[int], int, list[int], int, int, int]
Chooser = Callable[[list[int], int, list[int], int, int, random.Random], int]


def _greedy(
    hands: list[int], seat: int, trick: list[int], leader: int, trump: int, _: random.Random
) -> int:
    return greedy_card(hands, seat, trick, leader, trump)


def _random_legal(
    hands: list[int], seat: int, trick: list[int], _l: int, _t: int, rng: random.Random
) -> int:
    hand = hands[seat]
    if trick and hand & SUIT_BITS[trick[0] // 13]:
        hand &= SUIT_BITS[trick[0] // 13]
    return rng.choice([c for c in range(52) if hand >> c & 1])


def _position(
    rng: random.Random,
    cards: int,
    tricks_done: int,
    on_table: int,
    chooser: Chooser,
    trumps: range = range(5),
) -> Position:
    """A legal position: ``cards`` a hand dealt, tricks played, cards on the table."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [0, 0, 0, 0]
    for i in range(4 * cards):
        hands[i % 4] |= 1 << deck[i]
    leader = rng.randrange(4)
    trump = rng.choice(trumps)
    ns = 0
    for _ in range(tricks_done):
        trick: list[int] = []
        for k in range(4):
            seat = (leader + k) % 4
            c = chooser(hands, seat, trick, leader, trump, rng)
            hands[seat] ^= 1 << c
            trick.append(c)
        leader = (leader + trick_winner_pos(trick, trump)) % 4
        ns += leader % 2 == 0
    trick = []
    for k in range(on_table):
        seat = (leader + k) % 4
        c = chooser(hands, seat, trick, leader, trump, rng)
        hands[seat] ^= 1 << c
        trick.append(c)
    return hands, leader, trick, trump, ns, cards - tricks_done


def _check_batch(positions: list[Position]) -> None:
    """batch_playout over all positions equals core.playout on each."""
    left = positions[0][5]
    assert all(p[5] == left for p in positions)
    expected = [
        playout(list(hands), leader, list(trick), trump, ns, left)
        for hands, leader, trick, trump, ns, left in positions
    ]
    got = batch_playout(
        hands_array([p[0] for p in positions]),
        np.array([p[1] for p in positions]),
        np.array([p[2] for p in positions], dtype=np.intp).reshape(len(positions), -1),
        np.array([p[3] for p in positions]),
        np.array([p[4] for p in positions]),
        left,
    )
    assert got.shape == (len(positions),)
    mismatches = [i for i in range(len(positions)) if got[i] != expected[i]]
    assert not mismatches, f"{len(mismatches)} rows differ, first {positions[mismatches[0]]}"


def test_full_deals_match_scalar_playout() -> None:
    rng = random.Random(11)
    positions = [_position(rng, 12, 0, 0, _greedy) for _ in range(3000)]
    # every trump, no-trump included, and every leader occur
    assert {p[3] for p in positions} == set(range(5))
    assert {p[1] for p in positions} == set(range(4))
    _check_batch(positions)


@pytest.mark.parametrize("on_table", [1, 2, 3])
def test_trick_in_progress_matches_scalar_playout(on_table: int) -> None:
    rng = random.Random(20 + on_table)
    _check_batch([_position(rng, 12, 0, on_table, _greedy) for _ in range(800)])


@pytest.mark.parametrize("on_table", [0, 1, 2, 3])
def test_mid_deal_random_play_matches_scalar_playout(on_table: int) -> None:
    # positions greedy play would not reach: random legal cards so far
    rng = random.Random(30 + on_table)
    for tricks_done in (3, 8):
        _check_batch([_position(rng, 12, tricks_done, on_table, _random_legal) for _ in range(500)])


@pytest.mark.parametrize("on_table", [0, 2, 3])
def test_short_deals_match_scalar_playout(on_table: int) -> None:
    rng = random.Random(40 + on_table)
    positions = [_position(rng, 5, 0, on_table, _greedy) for _ in range(1000)]
    assert positions[0][5] == 5
    _check_batch(positions)


def test_last_trick_and_single_card_hands() -> None:
    rng = random.Random(50)
    _check_batch([_position(rng, 1, 0, 0, _greedy) for _ in range(300)])
    _check_batch([_position(rng, 12, 11, 3, _random_legal) for _ in range(300)])


def test_single_row_no_trump_with_scalar_arguments() -> None:
    rng = random.Random(60)
    for _ in range(50):
        hands, leader, trick, _, ns, left = _position(
            rng, 12, 2, 1, _random_legal, trumps=range(NO_TRUMP, NO_TRUMP + 1)
        )
        expected = playout(list(hands), leader, list(trick), NO_TRUMP, ns, left)
        got = batch_playout([hands], leader, [trick], NO_TRUMP, ns, left)
        assert got.tolist() == [expected]


def test_known_no_trump_ending() -> None:
    # N holds the ace and king of spades, E the queen and jack, S and W hearts:
    # N cashes both masters in no-trump
    a_s, k_s, q_s, j_s = 1 << 12, 1 << 11, 1 << 10, 1 << 9
    hands = [a_s | k_s, q_s | j_s, 1 << 13 | 1 << 14, 1 << 15 | 1 << 16]
    assert batch_playout([hands], 0, None, NO_TRUMP, 0, 2).tolist() == [2]
    # hearts trumps: W on lead draws with its small trumps, both tricks to E-W
    assert batch_playout([hands], 3, None, 1, 0, 2).tolist() == [0]
    # tricks already won are carried through
    assert batch_playout([hands], 0, None, NO_TRUMP, 5, 2).tolist() == [7]


def test_inputs_are_not_modified() -> None:
    rng = random.Random(70)
    positions = [_position(rng, 12, 0, 2, _greedy) for _ in range(20)]
    hands = hands_array([p[0] for p in positions])
    trick = np.array([p[2] for p in positions])
    leader = np.array([p[1] for p in positions])
    before = (hands.copy(), trick.copy(), leader.copy())
    batch_playout(hands, leader, trick, 0, 0, 12)
    assert np.array_equal(hands, before[0])
    assert np.array_equal(trick, before[1])
    assert np.array_equal(leader, before[2])


def test_rejects_inconsistent_positions() -> None:
    rng = random.Random(80)
    hands, leader, trick, trump, ns, left = _position(rng, 12, 0, 1, _greedy)
    with pytest.raises(ValueError, match="tricks_left"):
        batch_playout([hands], leader, [trick], trump, ns, left + 1)
    with pytest.raises(ValueError, match="tricks_left"):
        batch_playout([hands], leader, None, trump, ns, left)  # the played card is missing
    with pytest.raises(ValueError, match="trump"):
        batch_playout([hands], leader, [trick], 5, ns, left)
    with pytest.raises(ValueError, match="hands"):
        batch_playout([hands[:3]], leader, [trick], trump, ns, left)
