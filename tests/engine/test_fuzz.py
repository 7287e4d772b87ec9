"""Fuzz: random, mostly illegal input never corrupts a game or raises the wrong error.

Whatever a client sends (any seat, any action type, any card, any string to
decode), the engine either accepts a legal action or raises
:class:`IllegalAction` / :class:`ActionParseError`, leaving the state unchanged.
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from engine import (
    Action,
    ActionParseError,
    CallCanYe,
    Card,
    DeclineRuff,
    Discard,
    IllegalAction,
    Pass,
    Play,
    ShowHonours,
    TakeRuff,
    decode_action,
    make_rules,
    new_game,
)

from .helpers import ENGINE_SETTINGS
from .test_properties import CONFIGS

ALL_CARDS = [Card.from_index(i) for i in range(52)]


def random_action(rng: random.Random) -> object:
    kind = rng.randrange(9)
    if kind == 0:
        return Play(rng.choice(ALL_CARDS))
    if kind == 1:
        return Discard(rng.choice(ALL_CARDS))
    if kind == 7:
        return rng.choice([None, "play:AS", 3, Card.parse("AS"), object()])  # not actions at all
    if kind == 8:
        return Action()  # the bare base class
    return [TakeRuff(), DeclineRuff(), CallCanYe(), ShowHonours(), Pass()][kind - 2]


def random_seat(rng: random.Random, to_act: int | None) -> object:
    if to_act is not None and rng.random() < 0.5:
        return to_act
    return rng.choice([-1, 0, 1, 2, 3, 4, 99, True, 1.0, "1", None])


@ENGINE_SETTINGS
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**32 - 1),
    fuzz_seed=st.integers(0, 2**32 - 1),
)
def test_random_actions(
    config: tuple[str, str | None, dict[str, object] | None], seed: int, fuzz_seed: int
) -> None:
    game_id, preset, overrides = config
    game, _ = new_game(rules=make_rules(game_id, preset, overrides), seed=seed)
    rng = random.Random(fuzz_seed)
    for _ in range(250):
        if game.is_over:
            break
        seat = game.to_act()
        legal = game.legal_actions(seat) if seat is not None else []
        if rng.random() < 0.3:  # move the game on with a legal action
            assert seat is not None
            game.apply(seat, rng.choice(legal))
            continue
        who = random_seat(rng, seat)
        action = random_action(rng)
        is_legal = who == seat and type(who) is int and action in legal
        before = game.state_key()
        try:
            game.check(who, action)  # type: ignore[arg-type]
            game.apply(who, action)  # type: ignore[arg-type]
        except IllegalAction as exc:
            assert not is_legal, f"{action!r} by {who!r} is legal, yet: {exc.reason}"
            assert exc.reason and exc.code
            assert game.state_key() == before
        else:
            assert is_legal, f"{action!r} by {who!r} was accepted"
    # a finished game refuses everything
    if game.is_over:
        before = game.state_key()
        for _ in range(20):
            try:
                game.apply(random_seat(rng, 0), random_action(rng))  # type: ignore[arg-type]
            except IllegalAction:
                pass
            else:  # pragma: no cover
                raise AssertionError("a finished game accepted an action")
        assert game.state_key() == before


@ENGINE_SETTINGS
@given(
    text=st.text(max_size=20)
    | st.from_regex(r"(play|discard|take|decline|canye|show|pass)(:.{0,4})?", fullmatch=True)
)
def test_decode_action_only_raises_parse_errors(text: str) -> None:
    try:
        action = decode_action(text)
    except ActionParseError:
        return
    assert isinstance(action, Action)
    assert decode_action(action.encode()) == action


def test_every_action_round_trips() -> None:
    actions: list[Action] = [TakeRuff(), DeclineRuff(), CallCanYe(), ShowHonours(), Pass()]
    actions += [Play(c) for c in ALL_CARDS] + [Discard(c) for c in ALL_CARDS]
    for action in actions:
        assert decode_action(action.encode()) == action
        assert decode_action(f"  {action.encode().upper()} ") == action
    for bad in [
        "",
        "play",
        "play:",
        "play:1S",
        "play:AS:x",
        "take:AS",
        "discard:ZZ",
        "pla:AS",
        ":",
        "show:",
    ]:
        try:
            decode_action(bad)
        except ActionParseError:
            continue
        raise AssertionError(f"{bad!r} decoded")


def test_negative_seats_never_act() -> None:
    # -1 must not reach seat 3's hand by indexing, in any phase
    for seed in range(12):
        game, _ = new_game(seed=seed)
        for _ in range(3):
            for action in [*(Play(c) for c in game.hand(3)), *(Discard(c) for c in game.hand(3))]:
                assert action not in game.legal_actions(-1)
                before = game.state_key()
                try:
                    game.apply(-1, action)
                except IllegalAction as exc:
                    assert exc.code == "bad_seat"
                else:  # pragma: no cover
                    raise AssertionError("seat -1 acted")
                assert game.state_key() == before
            seat = game.to_act()
            if seat is None:
                break
            game.apply(seat, game.legal_actions(seat)[0])
