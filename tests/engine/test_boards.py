"""Boards: one deal of a game, fixed by its name, the same everywhere."""

from __future__ import annotations

import random

import pytest

from engine import (
    DealScored,
    Game,
    GameOver,
    board,
    board_result,
    boards_of,
    game_ids,
    make_rules,
    presets_for,
    start_board,
)


def _play_out(game: Game, rng: random.Random) -> int:
    """Random legal moves (no claims) to the end; the number of deals that ended
    (scored, or a game won by a call before the play)."""
    scored = 0
    while not game.is_over:
        seat = game.to_act()
        assert seat is not None
        legal = game.legal_actions(seat)
        plain = [a for a in legal if type(a).__name__ not in ("Claim", "Concede")] or legal
        events = game.apply(seat, rng.choice(plain))
        scored += sum(isinstance(e, DealScored) for e in events) or sum(
            isinstance(e, GameOver) for e in events
        )
    return scored


def test_a_board_is_a_function_of_its_name() -> None:
    a = board("ruff-honours-cotton", None, "2026-11-28", 3)
    assert a == board("ruff-honours-cotton", "cotton1674", "2026-11-28", 3)
    assert a != board("ruff-honours-cotton", None, "2026-11-29", 3)
    assert a.key == "ruff-honours-cotton/cotton1674/2026-11-28/3"
    first, _ = start_board(a)
    again, _ = start_board(a)
    assert first.state_key() == again.state_key()
    assert len({b.seed for b in boards_of("whist-5", None, "2026-11-28")}) == 6


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_id_plays_a_board_as_one_deal(game_id: str) -> None:
    for number, one in enumerate(boards_of(game_id, presets_for(game_id)[0], "day", 4), 1):
        game, _ = start_board(one)
        assert game.dealer == one.first_dealer
        assert _play_out(game, random.Random(number)) == 1
        assert game.is_over and game.match_winner is not None
        replayed = Game.from_record(game.to_record())
        assert replayed.is_over and replayed.state_key() == game.state_key()
        result = board_result(game, one.seat)
        assert isinstance(result, int)


def test_some_cotton_boards_start_at_the_call_point() -> None:
    starts = {b.start_scores for b in boards_of("ruff-honours-cotton", None, "2026-11-28", 40)}
    assert {(0, 0), (8, 8)} <= starts and ((8, 0) in starts or (0, 8) in starts)
    game, _ = start_board(next(b for b in boards_of("ruff-honours-cotton", None, "d", 40)
                               if b.start_scores == (8, 8)))  # fmt: skip
    assert game.scores == [8, 8]
    assert all(b.start_scores == () for b in boards_of("whist-5", None, "2026-11-28", 20))


def test_board_result_is_the_margin_over_the_best_other_side() -> None:
    one = next(
        b for b in boards_of("ruff-honours-cotton", None, "x", 40) if b.start_scores == (8, 8)
    )
    game, _ = start_board(one)
    _play_out(game, random.Random(1))
    gained = [game.scores[0] - 8, game.scores[1] - 8]
    mine = one.seat % 2
    assert board_result(game, one.seat) == gained[mine] - gained[1 - mine]
    assert board_result(game, (one.seat + 1) % 4) == -board_result(game, one.seat)


def test_board_parameters_are_checked() -> None:
    assert make_rules("whist-5", None, {"deals": 1, "start_scores": "3,0"}).start_scores == (3, 0)
    for bad in ({"start_scores": "5,0"}, {"start_scores": "1"}, {"deals": 2}):
        with pytest.raises(ValueError):
            make_rules("whist-5", None, bad)
