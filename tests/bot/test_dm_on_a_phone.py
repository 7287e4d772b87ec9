"""The hand DM on a phone: line 1 says whose turn with its deadline when the turn
timer runs, and lines show only while they matter (the last trick until the next
begins, the cards from the stock and those laid out until the first trick is done)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from engine import Play

from .helpers import hand_message, table_message


async def _alice_and_three_ais(env: Any, game: str) -> tuple[Any, Any]:
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "ruff new", game=game)
    for _ in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Start")
    return channel, alice


async def _to_alices_turn(env: Any, table: Any) -> None:
    for _ in range(40):
        if table.game.to_act() == 0:
            return
        await env.advance_time(10)
    raise AssertionError("never alice's turn")


def _stored_due(db_path: Path) -> float:
    con = sqlite3.connect(db_path)
    try:
        (due,) = con.execute("SELECT due_at FROM deadlines WHERE kind = 'turn'").fetchone()
    finally:
        con.close()
    return float(due)


@pytest.mark.parametrize("bot_settings", [{"seed": 5, "ai_delay": 10.0, "turn_timeout": 300.0}])
async def test_the_turn_line_carries_its_deadline(simcord_env: Any, db_path: Path) -> None:
    env = simcord_env
    _channel, alice = await _alice_and_three_ais(env, "whist-5")
    table = env.bot.manager.tables[1]
    for _ in range(3):  # three of alice's turns, each with its own deadline
        await _to_alices_turn(env, table)
        first = hand_message(alice).content.splitlines()[0]
        m = re.search(r"⏰ the AI plays it <t:(\d+):R>", first)
        assert first.startswith("🟢 **Your turn") and m, first
        assert abs(int(m.group(1)) - _stored_due(db_path)) <= 1  # the timer's own deadline
        view = table.game.observe(0)
        card = next(a for a in view.legal if isinstance(a, Play)).card
        v = table.game.version
        await alice.user.click(hand_message(alice), custom_id=f"rh:a:1:{v}:0:play:{card.code}")
        if table.game.to_act() != 0:
            assert "<t:" not in hand_message(alice).content.splitlines()[0]  # off turn: none


@pytest.mark.parametrize("bot_settings", [{"seed": 5, "ai_delay": 10.0}])
async def test_no_deadline_without_a_turn_timer_and_lines_only_while_they_matter(
    simcord_env: Any,
) -> None:
    env = simcord_env
    _channel, alice = await _alice_and_three_ais(env, "whist-5")
    table = env.bot.manager.tables[1]
    seen_lead = seen_mid = 0
    for _ in range(26):
        if seen_lead and seen_mid:
            break
        await _to_alices_turn(env, table)
        dm = hand_message(alice).content
        assert "<t:" not in dm
        view = table.game.observe(0)
        if view.trick:  # mid-trick: the trick in play, not the one before
            assert "Last trick" not in dm and f"Trick {view.trick_no}:" in dm
            seen_mid += 1
        elif view.completed_tricks:  # leading: the trick just won is still worth a line
            assert "Last trick" in dm
            seen_lead += 1
        # the highest card: alice wins tricks, and so leads some
        card = max((a.card for a in view.legal if isinstance(a, Play)), key=lambda c: int(c.rank))
        v = table.game.version
        await alice.user.click(hand_message(alice), custom_id=f"rh:a:1:{v}:0:play:{card.code}")
    assert seen_mid and seen_lead


@pytest.mark.parametrize("bot_settings", [{"seed": 4, "ai_delay": 10.0}])
async def test_the_exchange_lines_go_once_the_first_trick_is_done(simcord_env: Any) -> None:
    """Ruff and Honours: the ruffer's "From the stock" and "Laid out" lines while the
    exchange matters, and gone after the first trick."""
    env = simcord_env
    from .dm_play import act, lowest_card, open_table, rub_and_lay_out

    _guild, _channel, players = await open_table(env, 4, "ruff-honours-cotton")
    table = env.bot.manager.tables[1]
    ruffer = table.game.to_act()
    for _ in range(2):
        game = table.game
        await act(players[ruffer], game, ruffer, rub_and_lay_out(game.observe(ruffer)))
    dm = hand_message(players[ruffer]).content
    assert "From the stock:" in dm and "Laid out:" in dm
    for _ in range(4):  # the first trick
        game = table.game
        seat = game.to_act()
        await act(players[seat], game, seat, lowest_card(game.observe(seat)))
    assert table.game.observe(0).completed_tricks
    dm = hand_message(players[ruffer]).content
    assert "From the stock:" not in dm and "Laid out:" not in dm
