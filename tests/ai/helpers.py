"""Building test positions by playing seeded games forward."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from engine import Game, SeatView, new_game
from engine.ai import get_player
from engine.ai.players import Player
from engine.ai.search import dds
from engine.ai.search.bitmasks import card_of
from engine.ai.search.solver import solve_cards

# short budgets keep the suite fast; the levels still search
FAST = {"easy": {}, "normal": {"budget": 0.004, "cap": 0.2}, "hard": {"budget": 0.01, "cap": 0.3}}


def fast_player(level: str) -> Player:
    """A player with a short search budget (tests only)."""
    return get_player(level, **FAST[level])  # type: ignore[arg-type]


def positions(
    want: Callable[[Game, SeatView], bool],
    game_id: str = "ruff-honours-cotton",
    seeds: range = range(400),
    driver: Callable[[SeatView, random.Random], object] | None = None,
) -> Iterator[tuple[Game, SeatView]]:
    """Yield (game, view of the seat to act) wherever ``want`` holds, in seeded games.

    Moves are random legal ones unless ``driver(view, rng)`` picks them.
    """
    for seed in seeds:
        game, _ = new_game(game_id, seed=seed, first_dealer=seed % 4)
        rng = random.Random(seed)
        deal_no = game.deal_no
        while not game.is_over and game.deal_no == deal_no:
            seat = game.to_act()
            assert seat is not None
            view = game.observe(seat)
            if want(game, view):
                yield game.clone(), view
                break
            action = driver(view, rng) if driver else rng.choice(view.legal)
            game.apply(seat, action)  # type: ignore[arg-type]


def hands_of(game: Game) -> list[int]:
    """Every seat's current hand as a mask (tests may look at all four)."""
    hands = []
    for seat in range(4):
        mask = 0
        for card in game.observe(seat).hand:
            mask |= card.bit
        hands.append(mask)
    return hands


def true_values(game: Game, view: SeatView) -> dict[str, int]:
    """Exact double-dummy tricks (from now, for the mover's side) of each legal card."""
    trump = view.trump.order if view.trump is not None else 4
    trick = [c.index for _, c in view.trick]
    hands = hands_of(game)
    if dds.available() and len(view.hand) > 4:
        values = dds.solve_cards(hands, view.trick_leader, trick, trump)
    else:
        values = solve_cards(hands, view.trick_leader, trick, trump)
    return {card_of(i).code: v for i, v in values.items()}
