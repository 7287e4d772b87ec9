"""AFK handling: turn timers, reminders, the AI standing in, seat takeover and
reclaim, lobby expiry, and timers that survive a restart."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from bot.app.client import create_bot
from bot.present.layout import layout_text as message_text

from .conftest import make_settings
from .helpers import (
    act,
    buttons,
    db_actions,
    hand_message,
    is_my_turn,
    moves,
    open_table,
    posts,
    race,
    table_message,
    table_status,
)

pytestmark = pytest.mark.slow  # left out by `make test-fast`

# ai_delay > 5 s: AI moves wait for advance_time (simcord waits shorter sleeps in real
# time), so each step of the game happens when the test says so.
AFK = {"turn_timeout": 60.0, "seed": 3, "ai_delay": 10.0}


def game_of(env: Any, table_id: int = 1) -> Any:
    return env.bot.manager.tables[table_id].game


def labels(message: Any) -> list[str]:
    return [b.label for b in buttons(message) if getattr(b, "label", None)]


async def until_turn(env: Any, member: Any, step: float, limit: int = 400) -> None:
    """Advance time (AI moves, with ``ai_delay`` > 5 s) until it is ``member``'s turn."""
    for _ in range(limit):
        if is_my_turn(hand_message(member)):
            return
        await env.advance_time(step)
    raise AssertionError("never became my turn")


@pytest.mark.parametrize("bot_settings", [AFK], indirect=True)
async def test_absent_player_ai_plays_then_takes_over_and_game_finishes(
    env: Any, db_path: Any
) -> None:
    guild = env.create_guild(name="AFK Club")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    await open_table(channel, alice, ai=("easy", "easy", "easy"), target=3)
    await until_turn(env, alice, 10)
    v0 = game_of(env).version

    await env.advance_time(39)
    assert not any("⏳" in p for p in posts(channel))
    await env.advance_time(1)
    assert re.fullmatch(
        rf"⏳ <@{alice.id}>, your turn at table #1 ends <t:(\d+):R> — then the AI plays it\.",
        posts(channel)[-1],
    ), posts(channel)
    await env.advance_time(19)
    assert game_of(env).version == v0, "played before the timeout"
    await env.advance_time(1)
    rows = db_actions(db_path, 1)
    assert rows[v0][1] == 0 and rows[v0][3] is None, "the AI played seat 0's turn"
    assert "alice ran out of time: the AI played for them." in message_text(table_message(channel))
    assert "Take my seat back" not in labels(table_message(channel))
    assert env.bot.manager.tables[1].away == set()

    # second miss in a row: the AI takes the seat and plays the game out
    await until_turn(env, alice, 10)
    await env.advance_time(60)
    assert any(p.startswith(f"⏰ <@{alice.id}> missed 2 turns in a row") for p in posts(channel))
    assert "Take my seat back" in labels(table_message(channel))
    for _ in range(2000):
        if table_status(db_path, 1) == "finished":
            break
        await env.advance_time(10)
    assert table_status(db_path, 1) == "finished"
    rows = db_actions(db_path, 1)
    assert all(actor is None for *_, actor in rows), "nobody clicked"
    assert game_of(env).is_over


@pytest.mark.parametrize("bot_settings", [AFK], indirect=True)
async def test_takeover_and_reclaim(env: Any, db_path: Any) -> None:
    guild = env.create_guild(name="AFK Club")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await open_table(channel, alice, ai=("easy", "easy", "easy"), target=3)
    manager = env.bot.manager

    for miss in (1, 2):
        await until_turn(env, alice, 10)
        v = game_of(env).version
        await env.advance_time(60)
        assert game_of(env).version > v
        assert manager.tables[1].misses[0] == miss
    assert manager.tables[1].away == {0}
    table = table_message(channel)
    assert "Take my seat back" in labels(table)
    assert (await manager.services.table_repo.get(1)).settings["away"] == [0], (
        "the takeover is durable"
    )

    # her hand DM says the AI has her seat: no live card, a button to take it back
    await env.advance_time(2)
    dm = hand_message(alice)
    assert dm is not None and "the AI is playing your cards" in dm.content
    assert moves(dm) == []
    assert "Take my seat back" in labels(dm)

    # while away, the AI plays alice's turns (after its delay)
    for _ in range(100):
        if game_of(env).to_act() == 0:
            break
        await env.advance_time(10)
    v = game_of(env).version
    assert moves(hand_message(alice)) == [], "no live card while the AI has the seat"
    await env.advance_time(10)
    _, seat, _, actor = db_actions(db_path, 1)[v]
    assert (seat, actor) == (0, None), "the AI played her turn"

    res = await bob.click(table, label="Take my seat back")
    assert res.ephemeral and "not playing" in res.response.content
    assert manager.tables[1].away == {0}
    # she takes it back from the DM: that message becomes her live hand again
    dm = hand_message(alice)
    assert dm is not None
    res = await alice.user.click(dm, label="Take my seat back")
    assert res.acknowledged and not res.ephemeral
    assert manager.tables[1].away == set() and manager.tables[1].misses.get(0, 0) == 0
    assert (await manager.services.table_repo.get(1)).settings["away"] == []
    dm = hand_message(alice)
    assert dm is not None and "Welcome back" in dm.content and "AI is playing" not in dm.content
    assert "Take my seat back" not in labels(dm)
    await env.advance_time(2)
    assert "Take my seat back" not in labels(table_message(channel))

    # back in her seat: her click counts, and a single timeout no longer takes over
    await until_turn(env, alice, 10)
    v = game_of(env).version
    move = await act(alice)
    assert move is not None
    assert db_actions(db_path, 1)[v][3] == alice.id
    await until_turn(env, alice, 10)
    await env.advance_time(60)
    assert manager.tables[1].misses[0] == 1 and manager.tables[1].away == set()


@pytest.mark.parametrize("bot_settings", [AFK], indirect=True)
async def test_reclaim_from_the_table_brings_the_dm_back(env: Any, db_path: Any) -> None:
    guild = env.create_guild(name="AFK Club")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    await open_table(channel, alice, ai=("easy", "easy", "easy"), target=3)
    manager = env.bot.manager
    for _miss in (1, 2):
        await until_turn(env, alice, 10)
        await env.advance_time(60)
    assert manager.tables[1].away == {0}
    await env.advance_time(2)
    assert "the AI is playing your cards" in hand_message(alice).content  # type: ignore[union-attr]

    res = await alice.click(table_message(channel), label="Take my seat back")
    assert res.ephemeral and "Welcome back" in res.response.content
    await env.advance_time(2)
    dm = hand_message(alice)
    assert dm is not None and "AI is playing" not in dm.content
    assert "Take my seat back" not in labels(dm)
    await until_turn(env, alice, 10)
    assert moves(hand_message(alice)), "her DM has live cards again"  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "bot_settings", [{**AFK, "ai_delay": 0.0, "afk_takeover_after": 99}], indirect=True
)
async def test_timer_racing_a_click_makes_exactly_one_move(env: Any, db_path: Any) -> None:
    guild = env.create_guild(name="AFK Club")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    await open_table(channel, alice, ai=("easy", "easy", "easy"), target=3)
    outcomes = []
    for turn in range(15):
        msg = hand_message(alice)
        assert is_my_turn(msg)
        v = game_of(env).version
        timer = env.bot.manager.tables[1].drive.timer_task
        assert timer is not None and not timer.done()
        move = moves(msg)[0]
        if move.menu is not None:  # cards to lay out: chosen first, the race is Confirm's
            await alice.user.select(msg, list(move.menu[1]), custom_id=move.menu[0])
            msg = hand_message(alice)
        # the click is on the gateway and the timer falls due in the same instant (a click
        # is answerable for 3 s, so the clock jumps only the last second)
        await env.advance_time(59)
        first = (
            None if turn % 3 == 0 else turn % 3 - 1 + turn // 3
        )  # click first, or timers 0..n loop turns ahead
        (res,) = await race(
            env, [(alice.user, msg, move.custom_id, move.values)], advance=1, timers_first=first
        )
        assert res.acknowledged
        rows = db_actions(db_path, 1)
        assert len([r for r in rows if r[0] == v]) == 1
        assert timer.done(), "the turn's timer outlived the turn"
        clicked = rows[v][3] == alice.id
        if clicked:
            assert not res.ephemeral
        else:
            assert res.ephemeral and "Too late" in res.response.content, res.response.content
        outcomes.append("click" if clicked else "timer")
        if game_of(env).is_over:
            break
    assert env.errors == []
    assert {"click", "timer"} <= set(outcomes), outcomes
    print("\nclick vs timer:", outcomes)


@pytest.mark.parametrize("bot_settings", [AFK], indirect=True)
async def test_a_turn_begun_by_a_move_keeps_its_deadline_across_a_restart(
    env: Any, db_path: Any, bot_settings: Any, more_bots: list[Any]
) -> None:
    """The deadline a move writes for the next turn is computed just before its write
    lands (a real clock moves meanwhile): a restart keeps it, and gives no fresh minute."""
    guild = env.create_guild(name="AFK Club")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    await open_table(channel, alice, ai=("easy", "easy", "easy"), target=3)
    db = env.bot.manager.services.db
    simulated, readings = db.clock, itertools.count()
    # a real clock moves between two readings (the deadline's, then the move's write)
    db.clock = lambda: simulated() + next(readings) * 0.002
    for _ in range(5):  # until her turn begins with an AI's move (written with its deadline)
        await until_turn(env, alice, 10)
        rows = db_actions(db_path, 1)
        if rows and rows[-1][3] is None:
            break
        assert await act(alice) is not None
    else:
        raise AssertionError("no turn of hers began with an AI's move")
    v0 = game_of(env).version

    await env.advance_time(30)
    old = env.bot
    more_bots.append(create_bot(make_settings(db_path, **bot_settings)))
    await env.restart_bot(more_bots[-1])
    await old.close()
    await env.advance_time(29)
    assert game_of(env).version == v0
    await env.advance_time(2)  # its minute is up (give or take the clock's few ms)
    assert game_of(env).version > v0, "the restart gave the turn more time"
    assert db_actions(db_path, 1)[v0][3] is None  # the AI played it


@pytest.mark.parametrize(
    "bot_settings", [{**AFK, "ai_delay": 0.0, "lobby_timeout": 600.0}], indirect=True
)
async def test_turn_and_lobby_timers_survive_a_restart(
    env: Any, db_path: Any, bot_settings: Any, more_bots: list[Any]
) -> None:
    guild = env.create_guild(name="AFK Club")
    channel = guild.create_text_channel("whist")
    lobby_channel = guild.create_text_channel("lobby")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await bob.slash(lobby_channel, "ruff new")  # a lobby that never starts
    await open_table(channel, alice, ai=("easy", "easy", "easy"), target=3)
    assert is_my_turn(hand_message(alice))
    v0 = game_of(env, 2).version

    await env.advance_time(30)
    old = env.bot
    more_bots.append(create_bot(make_settings(db_path, **bot_settings)))
    await env.restart_bot(more_bots[-1])
    await old.close()
    assert env.bot is not old and game_of(env, 2).version == v0

    await env.advance_time(9)
    assert not any("⏳" in p for p in posts(channel))
    await env.advance_time(1)
    assert re.fullmatch(
        rf"⏳ <@{alice.id}>, your turn at table #2 ends <t:(\d+):R> — then the AI plays it\.",
        posts(channel)[-1],
    ), posts(channel)
    await env.advance_time(19)
    assert game_of(env, 2).version == v0, "the restart gave the turn more time"
    await env.advance_time(1)
    assert db_actions(db_path, 2)[v0][3] is None and game_of(env, 2).version > v0

    # the lobby opened at t=0 expires at t=600 (the restart was at t=30)
    assert table_status(db_path, 1) == "lobby"
    await env.advance_time(600 - 60 - 1)
    assert table_status(db_path, 1) == "lobby"
    await env.advance_time(1)
    assert table_status(db_path, 1) == "cancelled"
    assert "expired" in message_text(table_message(lobby_channel))
    res = await bob.slash(lobby_channel, "ruff new")
    assert not res.ephemeral, "the channel is free again"
