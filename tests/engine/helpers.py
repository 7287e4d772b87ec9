"""Helpers for engine tests: stacked deals, scripted tricks, simple policies."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence

from hypothesis import HealthCheck, settings

from engine import Action, Card, Event, Game, Rules, make_rules, new_game, parse_cards, play
from engine.actions import Discard, TakeRuff
from engine.game import stacked_deck

# Deterministic, CI-friendly hypothesis settings for the engine suite: the same
# examples every run (derandomize), no shrink database, no per-example deadline.
ENGINE_SETTINGS = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=12,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

N, E, S, W = 0, 1, 2, 3

Policy = Callable[[Game, int, list[Action]], Action]


def cards(text: str) -> list[Card]:
    """``"AS KS 10H"`` -> cards (``|`` may separate suits for readability)."""
    return parse_cards(text.replace("|", " "))


def stacked_game(
    game_id: str = "ruff-honours-cotton",
    *,
    dealer: int,
    hands: Mapping[int, str],
    stock: str = "",
    start_scores: Sequence[int] | None = None,
    preset: str | None = None,
    overrides: Mapping[str, object] | None = None,
    seed: int = 0,
) -> tuple[Game, list[Event]]:
    """A new game whose first deal gives exactly ``hands`` (seat -> cards) and ``stock``."""
    rules = make_rules(game_id, preset, overrides)
    deck = stacked_deck(
        rules, dealer, {seat: cards(text) for seat, text in hands.items()}, cards(stock)
    )
    return new_game(
        rules=rules, seed=seed, first_dealer=dealer, deck=deck, start_scores=start_scores
    )


def ruff_and_discard(game: Game, discards: str) -> list[Event]:
    """The ruffer takes the stock and lays out ``discards``."""
    seat = game.to_act()
    assert seat is not None and game.phase == "ruff"
    events = game.apply(seat, TakeRuff())
    for card in cards(discards):
        events += game.apply(seat, Discard(card))
    return events


def play_tricks(game: Game, tricks: Iterable[str]) -> list[Event]:
    """Play each trick (cards in play order from its leader); every card must be legal."""
    events: list[Event] = []
    for trick in tricks:
        for card in cards(trick):
            seat = game.to_act()
            assert seat is not None and game.phase == "play", (game.phase, trick)
            assert card in game.hand(seat), f"seat {seat} does not hold {card} (trick {trick})"
            events += game.apply(seat, play(card))
    return events


def first_legal(game: Game, seat: int, legal: list[Action]) -> Action:
    return legal[0]


def random_policy(rng: random.Random) -> Policy:
    return lambda game, seat, legal: rng.choice(legal)


def play_deal(game: Game, policy: Policy = first_legal) -> list[Event]:
    """Act with ``policy`` until the current deal is over (or the match)."""
    game_no, deal_no = game.game_no, game.deal_no
    events: list[Event] = []
    while game.game_no == game_no and game.deal_no == deal_no:
        seat = game.to_act()
        if seat is None:
            break
        events += game.apply(seat, policy(game, seat, game.legal_actions(seat)))
    return events


def of_kind(events: Iterable[Event], cls: type[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, cls)]


def all_rules() -> list[Rules]:
    """Every game id under every preset."""
    from engine import game_ids, presets_for

    return [make_rules(g, p) for g in game_ids() for p in presets_for(g)]
