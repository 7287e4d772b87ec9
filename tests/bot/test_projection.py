"""The JSON projection of a table (bot/present/projection.py): complete, JSON-ready,
and private. For every game id, at every step of a random game (claims and
concessions included), a seat's projection holds no card that seat may not know,
and the public projection none that some seat may not know.

What a seat may know is the engine's :class:`~engine.SeatView` of it (the
hidden-information boundary, tested in tests/engine); what anybody may know is
what every seat's view shows.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.present.projection import (
    SEAT_SCHEMA,
    TABLE_SCHEMA,
    TableFrame,
    game_part,
    seat_state,
    table_state,
)
from bot.present.render.common import SeatInfo
from engine import (
    Action,
    Card,
    CardParseError,
    Game,
    SeatView,
    decode_action,
    game_ids,
    new_game,
)

STEPS = 260  # actions per game (several deals of the short games, one of the long)


def frame_of(
    game: Game, status: str = "active", deadline: float | None = 1_900_000_000.0
) -> TableFrame:
    seats: tuple[SeatInfo | None, ...] = tuple(
        SeatInfo(f"Player {i}", 10**18 + i) if i % 2 == 0 else SeatInfo("Hoyle", None, "normal")
        for i in range(game.n_players)
    )
    return TableFrame(
        7,
        game.rules.game_id,
        game.rules.preset,
        status,
        game.version,
        10**18,
        seats,
        deadline=deadline,
    )


def cards_in_view(value: Any) -> Iterator[Card]:
    """Every card a seat's view holds, wherever it sits (hand, tricks, notes, layouts,
    actions); the rules are left out (they name no card of the deal)."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, SeatView):
        for field in dataclasses.fields(value):
            if field.name != "rules":
                yield from cards_in_view(getattr(value, field.name))
    elif isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            yield from cards_in_view(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_in_view(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from cards_in_view(getattr(value, field.name))


NOT_CARDS = frozenset({"call", "name", "label", "verb", "kind", "schema", "game_id", "preset"})


def cards_in_json(value: Any, key: str = "") -> Iterator[Card]:
    """Every card a projection names: a card code anywhere (but in words and calls,
    where "4D" is a bid), and the card of an action id."""
    if isinstance(value, dict):
        for name, item in value.items():
            yield from cards_in_json(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from cards_in_json(item, key)
    elif isinstance(value, str) and key == "id":
        card = getattr(decode_action(value), "card", None)
        if isinstance(card, Card):
            yield card
    elif isinstance(value, str) and key not in NOT_CARDS:
        try:
            yield Card.parse(value)
        except (CardParseError, ValueError):
            pass


def random_steps(game: Game, rng: random.Random) -> Iterator[None]:
    """Act at random (now and then a claim or a concession) for ``STEPS`` actions."""
    for _ in range(STEPS):
        yield
        seat = game.to_act()
        if seat is None:
            return
        view = game.observe(seat)
        choices: list[Action] = list(view.legal)
        if view.claims and rng.random() < 0.05:
            choices = list(view.claims)
        game.apply(seat, rng.choice(choices))


def check_privacy(game: Game) -> None:
    n = game.n_players
    views = [game.observe(s) for s in range(n)]
    known = [set(cards_in_view(v)) for v in views]
    public = set.intersection(*known)
    frame = frame_of(game)
    state = table_state(frame, views)
    json.dumps(state)
    leaked = set(cards_in_json(state)) - public
    assert not leaked, f"the public table shows {sorted(map(str, leaked))} (phase {game.phase})"
    for seat in range(n):
        mine = seat_state(frame, seat, views[seat])
        json.dumps(mine)
        leaked = set(cards_in_json(mine)) - known[seat]
        assert not leaked, (
            f"seat {seat}'s projection shows {sorted(map(str, leaked))} (phase {game.phase})"
        )


@pytest.mark.parametrize("game_id", game_ids())
def test_no_projection_shows_a_card_its_reader_may_not_know(game_id: str) -> None:
    for seed in (1, 2):
        game, _ = new_game(game_id, seed=seed)
        for _step in random_steps(game, random.Random(seed)):
            check_privacy(game)


@pytest.mark.parametrize("game_id", game_ids())
def test_the_game_part_built_once_is_what_every_seat_and_the_public_table_get(
    game_id: str,
) -> None:
    """The web table builds a version's ``game`` once (from the first seat's view)
    for every document it sends: each seat's document and the public table are then
    exactly what they are when built from their own views alone."""
    for seed in (1, 2):
        game, _ = new_game(game_id, seed=seed)
        for _step in random_steps(game, random.Random(seed)):
            views = [game.observe(s) for s in range(game.n_players)]
            frame = frame_of(game)
            shared = game_part(frame, views[0])
            before = json.dumps(shared)
            assert table_state(frame, views, game=shared) == table_state(frame, views)
            for seat in range(game.n_players):
                alone = seat_state(frame, seat, views[seat])
                assert seat_state(frame, seat, views[seat], game=shared) == alone, (
                    f"seat {seat}'s game part differs from the shared one (phase {game.phase})"
                )
            assert json.dumps(shared) == before  # each document copied it, none changed it


def test_the_check_catches_a_hand_shown_to_the_wrong_reader() -> None:
    """A planted leak: another seat's hand in a seat's projection, or a hand in the
    public one, is found by the same check."""
    game, _ = new_game("ruff-honours-cotton", seed=3)
    views = [game.observe(s) for s in range(4)]
    known = [set(cards_in_view(v)) for v in views]
    mine = seat_state(frame_of(game), 0, views[0])
    mine["you"]["hand"] = [c.code for c in views[1].hand]
    assert set(cards_in_json(mine)) - known[0]
    public = table_state(frame_of(game), views)
    public["game"]["kitty"] = [c.code for c in views[2].hand[:2]]
    assert set(cards_in_json(public)) - set.intersection(*known)


@pytest.mark.parametrize("game_id", game_ids())
def test_a_seat_projection_is_complete_and_its_action_ids_are_the_engine_actions(
    game_id: str,
) -> None:
    game, _ = new_game(game_id, seed=5)
    seat = game.to_act()
    assert seat is not None
    view = game.observe(seat)
    state = seat_state(frame_of(game), seat, view)
    assert state["schema"] == SEAT_SCHEMA
    assert state["version"] == game.version
    assert state["status"] == "active"
    you = state["you"]
    assert you["seat"] == seat and you["my_turn"]
    assert you["hand"] == [c.code for c in view.hand]
    legal = [a["id"] for a in you["actions"] if a["kind"] == "legal"]
    assert [decode_action(i) for i in legal] == list(view.legal)
    assert all(a["label"] for a in you["actions"])
    played = state["game"]
    for key in ("phase", "trick", "last_trick", "trump", "contract", "scores", "deadline"):
        assert key in played
    assert played["to_act"] == seat
    assert played["deadline"] == {"seat": seat, "at": 1_900_000_000.0}
    assert [s["user_id"] for s in state["seats"]][:2] == [str(10**18), None]


def test_the_last_trick_and_scores_follow_the_game() -> None:
    game, _ = new_game("whist-5", seed=11)
    rng = random.Random(11)
    while not game.observe(0).completed_tricks:
        seat = game.to_act()
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    views = [game.observe(s) for s in range(4)]
    state = table_state(frame_of(game), views)
    assert state["schema"] == TABLE_SCHEMA
    leader, cards, winner = views[0].completed_tricks[-1]
    assert state["game"]["last_trick"] == {
        "leader": leader,
        "cards": [c.code for c in cards],
        "winner": winner,
    }
    assert state["game"]["scores"] == list(views[0].scores)
    assert state["game"]["tricks"] == list(views[0].tricks)
    assert "you" not in state


def test_a_lobby_projects_its_open_seats_and_expiry() -> None:
    seats: tuple[SeatInfo | None, ...] = (
        SeatInfo("Ann", 42),
        None,
        SeatInfo("Hoyle", None, "easy"),
        None,
    )
    frame = TableFrame(3, "whist-5", "classic", "lobby", 0, 42, seats, deadline=1_800_000_000.0)
    state = table_state(frame, [])
    assert state["game"] is None
    assert state["lobby"] == {
        "creator_id": "42",
        "open_seats": [1, 3],
        "expires_at": 1_800_000_000.0,
    }
    assert [s["occupant"] for s in state["seats"]] == ["human", "empty", "ai", "empty"]
    mine = seat_state(frame, 0, None)
    assert mine["schema"] == SEAT_SCHEMA and mine["you"] is None and mine["lobby"] == state["lobby"]
    json.dumps(state)
