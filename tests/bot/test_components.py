"""The custom_id grammar and the size limits of the views (no Discord needed)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.features.info.info import PAGE_PREFIX, leaderboard_id, parse_page
from bot.present import components as ui
from bot.present.controls import hand_controls
from bot.present.render import card_label
from engine import Card, Game, new_game
from engine.actions import (
    Action,
    CallCanYe,
    DeclineRuff,
    Discard,
    Pass,
    Play,
    ShowHonours,
    TakeRuff,
)

from .helpers import choose

BIG_TABLE = 2**63 - 1  # the largest SQLite rowid
BIG_VERSION = 10**9 - 1
ALL_CARDS = [
    Card.parse(f"{r}{s}")
    for s in "SHDC"
    for r in (["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])
]
EVERY_ACTION: list[Action] = [
    *(Play(c) for c in ALL_CARDS),
    *(Discard(c) for c in ALL_CARDS),
    TakeRuff(),
    DeclineRuff(),
    CallCanYe(),
    ShowHonours(),
    Pass(),
]
BUTTON_RE = ui.RHButton.__discord_ui_compiled_template__  # type: ignore[attr-defined]
SELECT_RE = ui.RHSelect.__discord_ui_compiled_template__  # type: ignore[attr-defined]


def _rest(custom_id: str) -> str:
    assert custom_id.startswith("rh:")
    return custom_id[3:]


@pytest.mark.parametrize("table_id", [1, 4711, BIG_TABLE])
@pytest.mark.parametrize("verb", ui.TABLE_VERBS)
def test_table_ids_round_trip(table_id: int, verb: str) -> None:
    cid = ui.table_id_for(table_id, verb)
    assert len(cid) <= 100
    assert BUTTON_RE.fullmatch(cid) and not SELECT_RE.fullmatch(cid)
    parsed = ui.parse_custom_id(_rest(cid))
    assert (parsed.kind, parsed.table_id, parsed.verb) == ("t", table_id, verb)


@pytest.mark.parametrize(("table_id", "version"), [(1, 0), (12, 345), (BIG_TABLE, BIG_VERSION)])
def test_action_ids_round_trip(table_id: int, version: int) -> None:
    for seat in range(4):
        for action in EVERY_ACTION:
            cid = ui.action_id(table_id, version, seat, action)
            assert len(cid) <= 100
            assert BUTTON_RE.fullmatch(cid) and not SELECT_RE.fullmatch(cid), cid
            parsed = ui.parse_custom_id(_rest(cid))
            assert (parsed.kind, parsed.table_id, parsed.version, parsed.seat) == (
                "a",
                table_id,
                version,
                seat,
            )
            assert parsed.action == action


def test_discard_and_leaderboard_ids_round_trip() -> None:
    cid = ui.pick_id(BIG_TABLE, BIG_VERSION, 3)
    assert len(cid) <= 100
    assert SELECT_RE.fullmatch(cid) and not BUTTON_RE.fullmatch(cid)
    parsed = ui.parse_custom_id(_rest(cid))
    assert (parsed.kind, parsed.table_id, parsed.version, parsed.seat) == (
        "d",
        BIG_TABLE,
        BIG_VERSION,
        3,
    )
    # the leaderboard's pages are the info feature's (bot/features/info), never the tables'
    assert parse_page("7") == (7, None)  # sent before ratings: the default game
    cid = leaderboard_id(3, "ruff-trump-willughby")
    assert len(cid) <= 100 and not BUTTON_RE.fullmatch(cid) and not SELECT_RE.fullmatch(cid)
    assert parse_page(cid.removeprefix(PAGE_PREFIX)) == (3, "ruff-trump-willughby")
    assert parse_page("-1") is None and parse_page("abc") is None


@pytest.mark.parametrize(
    "rest",
    [
        "",
        "t:1:explode",  # unknown verb
        "t:x:join",
        "a:1:2:4:play:AS",  # seat 4
        "a:1:2:0:play:1X",  # not a card
        "a:1:2:0:fly",  # not an action
        "a:1:x:0:play:AS",
        "d:1:2",
        "a:" + "9" * 20 + ":0:0:pass",  # a table id longer than any rowid
    ],
)
def test_malformed_ids_are_refused(rest: str) -> None:
    with pytest.raises(ui.BadCustomId):
        ui.parse_custom_id(rest)


# ------------------------------------------------------------------ view sizes


def _check_limits(view: Any) -> list[dict[str, Any]]:
    """Discord's limits: at most 5 rows of at most 5 buttons or 1 select; ids <= 100."""
    rows = view.to_components()
    assert len(rows) <= 5
    assert sum(len(r["components"]) for r in rows) <= 25
    for row in rows:
        kinds = {c["type"] for c in row["components"]}
        assert len(row["components"]) <= 5
        if 3 in kinds:  # a select fills its row
            assert len(row["components"]) == 1
            assert len(row["components"][0]["options"]) <= 25
        for c in row["components"]:
            assert len(c["custom_id"]) <= 100
            assert len(c.get("label", "")) <= 80
    return rows


def _play_until(game: Game, stop: Any) -> Game:
    for _ in range(500):
        if stop(game):
            return game
        seat = game.to_act()
        assert seat is not None
        for action in choose(game.observe(seat)):
            game.apply(seat, action)
    raise AssertionError("position not reached")


async def test_a_sixteen_card_discard_view_fits() -> None:
    game, _ = new_game(seed=1)
    game = _play_until(game, lambda g: g.phase == "discard")
    seat = game.to_act()
    view = game.observe(seat)
    assert len(view.hand) == 16
    rows = _check_limits(hand_controls(BIG_TABLE, BIG_VERSION, view))
    select = rows[0]["components"][0]
    assert len(rows) == 1 and select["type"] == 3
    assert select["min_values"] == select["max_values"] == 4
    assert len(select["options"]) == 16
    assert {o["value"] for o in select["options"]} == {c.code for c in view.hand}


@pytest.mark.parametrize("game_id", ["whist-5", "whist-long"])
async def test_a_thirteen_card_hand_fits(game_id: str) -> None:
    game, _ = new_game(game_id, seed=3)
    for seat in range(4):
        view = game.observe(seat)
        assert len(view.hand) == 13
        rows = _check_limits(hand_controls(BIG_TABLE, BIG_VERSION, view))
        labels = [c["label"] for r in rows for c in r["components"]]
        live = {c["label"] for r in rows for c in r["components"] if not c.get("disabled")}
        if view.my_turn:
            assert sorted(labels[:13]) == sorted(card_label(c) for c in view.hand)
            assert live >= {card_label(a.card) for a in view.legal if isinstance(a, Play)}
        else:  # off turn the hand is a line of text (tests/bot/test_card_marks.py)
            assert labels == [] and live == set()


@pytest.mark.parametrize("phase", ["ruff", "can_ye"])
async def test_a_hand_with_decisions_fits(phase: str) -> None:
    """Twelve cards plus the ruff buttons, or plus Call and Pass: still within the limits."""
    game, _ = new_game(seed=0, start_scores=(8, 8))  # both sides at the call point
    game = _play_until(game, lambda g: g.phase == phase)
    view = game.observe(game.to_act())
    rows = _check_limits(hand_controls(1, game.version, view))
    labels = [c["label"] for r in rows for c in r["components"]]
    want = {
        "ruff": ["Take the stock (ruff)", "Decline the ruff"],
        "can_ye": ["Call “Can-ye?”", "Pass"],
    }[phase]
    assert labels[-2:] == want
    assert [c["label"] for c in rows[-1]["components"]] == want  # decisions on their own row
    ids = [c["custom_id"] for r in rows for c in r["components"]]
    assert len(set(ids)) == len(ids)  # Discord rejects duplicate ids in one message
    assert all(re.fullmatch(BUTTON_RE, i) for i in ids)
