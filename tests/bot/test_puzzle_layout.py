"""A lay-out puzzle is answered as the game lays out: the menu of cards, then Confirm.

alice takes Cotton's ruff at a real table and lays out her best trumps (a blunder the
coach flags); the review makes it a puzzle; the puzzle shows the table's picture and
the game's own lay-out menu (not a button per lay-out), and is answered through the
menu and **Confirm**: the lay-out played is wrong, the best one right, one the coach
did not measure is said to be so and not counted. Every answer offers **Show the
solution** and **Next puzzle**. Real bot (simcord), real SQLite file, real engine."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from engine import Card
from engine.actions import TakeRuff

from .dm_play import selects
from .helpers import (
    DECISIONS,
    enabled_cards,
    forged_click,
    hand_message,
    raw_buttons,
    table_message,
)


def _rows(db_path: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as con:
        return con.execute(sql).fetchall()


def _menu(components: list[dict[str, Any]]) -> dict[str, Any]:
    (menu,) = [c for c in raw_buttons(components) if c["type"] == 3]
    return menu


def _ids(components: list[dict[str, Any]]) -> list[str]:
    return [str(c["custom_id"]) for c in raw_buttons(components)]


async def _lay_out_trumps_and_play(env: Any, channel: Any, alice: Any) -> Any:
    """alice (North, the ace of trumps) and three easy AIs: she takes the ruff, lays out
    her four best trumps, and plays her last playable card each time to the deal's end."""
    env.settle_timeout = 120.0
    await alice.slash(channel, "ruff new", game="ruff-honours-cotton")
    for _ in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Start")
    table = env.bot.manager.tables[1]
    assert table.game.phase == "ruff" and table.game.to_act() == 0, table.game.phase
    await alice.user.click(hand_message(alice), label=DECISIONS[TakeRuff])
    view = table.game.observe(0)
    trumps = [c for c in view.hand if c.suit is view.trump]
    assert len(trumps) >= 4, view.hand
    laid = sorted(trumps, key=lambda c: -int(c.rank))[:4]
    dm = hand_message(alice)
    (menu,) = selects(dm)
    res = await alice.user.select(dm, [c.code for c in laid], custom_id=menu.custom_id)
    confirm = next(i for i in _ids(res.response.components) if i.startswith("rh:k:"))
    await alice.user.click(hand_message(alice), custom_id=confirm)
    for _ in range(80):
        if table.game.deals_total > 1 or table.game.is_over:
            break
        hand = hand_message(alice)
        cards = enabled_cards(hand)
        if not cards:
            live = [b for b in raw_buttons(hand.components) if not b.get("disabled")]
            assert live, hand.content
            await alice.user.click(hand, custom_id=live[0]["custom_id"])
            continue
        await alice.user.click(hand, label=cards[-1])
    assert table.game.deals_total > 1 or table.game.is_over
    return laid


@pytest.mark.parametrize("bot_settings", [{"seed": 3}])
async def test_a_lay_out_puzzle_is_answered_with_the_menu_and_confirm(
    simcord_env: Any, db_path: Path
) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cotton")
    alice = guild.add_member(env.create_user("alice"))
    laid = await _lay_out_trumps_and_play(env, channel, alice)

    res = await alice.slash(channel, "ruff review", table=1, deal=1)
    assert res.ephemeral and "Your lay-out" in res.response.content, res.response.content
    found = [
        (pid, json.loads(body))
        for pid, body in _rows(db_path, "SELECT id, body FROM puzzles ORDER BY id")
    ]
    pid, body = next((p, b) for p, b in found if b["decision_kind"] == "lay-out")
    assert sorted(body["played"].split()) == sorted(c.code for c in laid)
    assert body["best"] != body["played"]

    # served first (the earliest flagged decision): picture, the game's menu, no 12 buttons
    res = await alice.slash(channel, "ruff puzzle")
    puzzle = res.response
    assert f"**Puzzle #{pid}**" in puzzle.content, puzzle.content
    assert "Which cards do you lay out?" in puzzle.content
    assert [a.filename for a in puzzle.attachments] == ["puzzle.png"]
    menu = _menu(puzzle.components)
    assert menu["custom_id"] == f"rc:m:{pid}" and menu["min_values"] == menu["max_values"] == 4
    offered = {o["value"] for o in menu["options"]}
    assert offered == {c for code in body["legal"] for c in code.split()}
    assert all(o.get("description") for o in menu["options"])  # "trump · honour", "hearts"
    assert not [i for i in _ids(puzzle.components) if i.startswith("rc:p:")]
    assert _ids(puzzle.components)[-2:] == [f"rc:s:{pid}", f"rc:n:{pid}"]

    async def answer(cards: list[str]) -> Any:
        """Choose ``cards`` in the menu (shown chosen, Confirm under it), then Confirm."""
        chosen = await alice.select(puzzle, cards, custom_id=f"rc:m:{pid}")
        assert chosen.acknowledged and not chosen.ephemeral  # the puzzle itself, edited
        edited = chosen.response
        defaults = {o["value"] for o in _menu(edited.components)["options"] if o.get("default")}
        assert defaults == set(cards)
        confirm = f"rc:k:{pid}:" + ".".join(cards)
        assert confirm in _ids(edited.components), _ids(edited.components)
        return await alice.click(edited, custom_id=confirm)

    # the lay-out played: wrong, counted, and the solution and the next puzzle offered
    res = await answer([c.code for c in laid])
    assert res.ephemeral and res.response.content.startswith("❌"), res.response.content
    assert _ids(res.response.components) == [f"rc:s:{pid}", f"rc:n:{pid}"]
    assert _rows(db_path, "SELECT puzzle_id, solved FROM puzzle_attempts") == [(pid, 0)]
    # a lay-out the coach did not weigh: said so, not counted either way
    measured = {frozenset(code.split()) for code in body["legal"]}
    cards = sorted(offered, key=lambda c: Card.parse(c).index)
    other = next(
        combo
        for combo in (
            [cards[i], cards[j], cards[k], cards[m]]
            for i in range(len(cards))
            for j in range(i + 1, len(cards))
            for k in range(j + 1, len(cards))
            for m in range(k + 1, len(cards))
        )
        if frozenset(combo) not in measured
    )
    res = await answer(other)
    assert "did not measure" in res.response.content, res.response.content
    assert _ids(res.response.components) == [f"rc:s:{pid}", f"rc:n:{pid}"]
    assert _rows(db_path, "SELECT puzzle_id, solved FROM puzzle_attempts") == [(pid, 0)]
    # a forged Confirm of three cards: refused, nothing counted
    res = await forged_click(env, alice, puzzle.message, f"rc:k:{pid}:" + ".".join(other[:3]))
    assert res.ephemeral and "Choose exactly 4 cards" in res.response.content
    assert _rows(db_path, "SELECT puzzle_id, solved FROM puzzle_attempts") == [(pid, 0)]
    # the best lay-out, in any order: right, and now solved
    res = await answer(list(reversed(body["best"].split())))
    assert res.response.content.startswith("✅"), res.response.content
    assert _ids(res.response.components) == [f"rc:s:{pid}", f"rc:n:{pid}"]
    assert _rows(db_path, "SELECT puzzle_id, solved FROM puzzle_attempts") == [(pid, 1)]
    res = await alice.click(res.response, custom_id=f"rc:s:{pid}")
    assert "💡 The solution:" in res.response.content
