"""Discord failing under the game: 429 and 5xx on posts, edits and DMs, closed DMs,
a deleted table message, a deleted channel, missing permissions. The game state
never depends on a Discord call, so every game still finishes (or, without a
channel, is cancelled cleanly)."""

from __future__ import annotations

import itertools
from typing import Any

import discord
import pytest

from bot.present.layout import layout_text as message_text

from .helpers import (
    db_actions,
    dump,
    hand_message,
    integrity,
    is_my_turn,
    moves,
    open_table,
    press,
    replay_db,
    table_message,
    table_status,
)

pytestmark = pytest.mark.slow  # left out by `make test-fast`

INTERACTION_CALLBACK = "/interactions/*/*/callback"


def faults(dm_channel_id: int, table_message_id: int, channel_id: int) -> list[dict[str, Any]]:
    """One fault per step of the game, in rotation (each is consumed by the next matching call)."""
    return [
        # first, so that it waits for the next deal's hand DM ahead of the other POST faults
        {
            "method": "POST",
            "path": f"/channels/{dm_channel_id}/messages",
            "status": 403,
            "code": 50007,
            "message": "Cannot send messages to this user",
        },
        {
            "method": "POST",
            "path": "/channels/*/messages",
            "status": 429,
            "message": "You are being rate limited.",
        },
        {"method": "PATCH", "path": "/channels/*/messages/*", "status": 500},
        {
            "method": "PATCH",
            "path": "/channels/*/messages/*",
            "status": 502,
            "times": 3,
        },  # edit given up
        {"method": "POST", "path": INTERACTION_CALLBACK, "status": 500},  # the click's own answer
        {
            "method": "PATCH",
            "path": f"/channels/{channel_id}/messages/{table_message_id}",
            "status": 404,
            "code": 10008,
            "message": "Unknown Message",
        },
        {
            "method": "POST",
            "path": "/channels/*/messages",
            "status": 503,
            "times": 3,
        },  # a post given up
        {
            "method": "*",
            "path": "/channels/*/messages*",
            "status": 429,
            "message": "You are being rate limited.",
        },
    ]


async def play_out(env: Any, member: Any, before_click: Any = None, limit: int = 3000) -> int:
    """Click until the game is over; returns the number of clicks."""
    manager = env.bot.manager
    clicks = 0
    for _ in range(limit):
        table = manager.tables[1]
        if table.status != "active":
            return clicks
        msg = hand_message(member)
        if not is_my_turn(msg):
            # a hand message missed its update: the table knows it is our turn
            assert table.game.to_act() != 0 or table.ai_plays(0), (
                "our turn but the hand message does not say so"
            )
            await env.advance_time(1)
            continue
        move = moves(msg)[0]
        if before_click is not None:
            before_click(clicks)
        await press(member.user, msg, move)
        clicks += 1
    raise AssertionError("the game did not end")


def assert_finished_and_consistent(env: Any, db_path: Any) -> None:
    table = env.bot.manager.tables[1]
    assert table_status(db_path, 1) == "finished"
    replayed = replay_db(db_path, 1, table.game)
    assert replayed.is_over and replayed.state_key() == table.game.state_key()
    assert integrity(db_path) == "ok"


@pytest.mark.parametrize("bot_settings", [{"seed": 5}], indirect=True)
async def test_a_fault_at_every_step_and_the_game_still_finishes(env: Any, db_path: Any) -> None:
    guild = env.create_guild(name="Flaky")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    await open_table(
        channel, alice, ai=("easy", "easy", "easy"), target=5
    )  # several deals: hand DMs mid-game
    kinds = faults(alice.user.dm_channel.id, table_message(channel).id, channel.id)
    rotation = itertools.cycle(enumerate(kinds))
    injected: list[tuple[int, dict[str, Any]]] = []

    def inject(_: int) -> None:
        kind, fault = next(rotation)
        fault = dict(fault)
        env.inject_error(fault.pop("method"), fault.pop("path"), **{"times": 1, **fault})
        injected.append((kind, env.backend.faults[-1]))

    clicks = await play_out(env, alice, inject)
    assert_finished_and_consistent(env, db_path)
    assert "finished" in message_text(table_message(channel))
    consumed = {kind for kind, fault in injected if not any(fault is f for f in env.backend.faults)}
    assert consumed == set(range(len(kinds))), (
        f"faults never hit: {set(range(len(kinds))) - consumed}"
    )
    assert env.errors == []
    print(
        f"\ndeals {env.bot.manager.tables[1].game.deal_no}, {clicks} clicks, {len(injected)} faults injected, {sum(1 for k, f in injected if not any(f is g for g in env.backend.faults))} hit"
    )


@pytest.mark.parametrize("bot_settings", [{"seed": 6}], indirect=True)
async def test_discord_down_for_a_while_changes_nothing_in_the_game(env: Any, db_path: Any) -> None:
    guild = env.create_guild(name="Flaky")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    await open_table(channel, alice, ai=("easy", "easy", "easy"), target=3)
    # every channel post and edit fails (the DM hand message too: it is a channel message)
    env.inject_error("PATCH", f"/channels/{channel.id}/messages/*", status=500, times=None)
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=429, times=None)
    before = message_text(table_message(channel))
    for _ in range(6):
        msg = hand_message(alice)
        assert is_my_turn(msg)
        move = moves(msg)[0]
        res = await press(alice.user, msg, move)
        assert res.acknowledged and not res.ephemeral
    assert message_text(table_message(channel)) == before, "the channel saw nothing"
    played = len(db_actions(db_path, 1))
    env.backend.faults.clear()  # Discord is back
    await play_out(env, alice)
    assert len(db_actions(db_path, 1)) > played
    assert_finished_and_consistent(env, db_path)
    assert "finished" in message_text(table_message(channel))
    assert env.errors == []


@pytest.mark.parametrize("bot_settings", [{"seed": 8}], indirect=True)
async def test_deleted_table_message_is_posted_again(env: Any, db_path: Any) -> None:
    guild = env.create_guild(name="Tidy")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    mod = guild.add_member(
        env.create_user("mod"),
        roles=[guild.create_role("mods", permissions=discord.Permissions(manage_messages=True))],
    )
    await open_table(channel, alice, ai=("easy", "easy", "easy"), target=3)
    old = table_message(channel)
    await mod.delete(old)
    clicks = 0
    while is_my_turn(hand_message(alice)) and clicks < 2:
        msg = hand_message(alice)
        move = moves(msg)[0]
        await press(alice.user, msg, move)
        clicks += 1
    new = table_message(channel)
    assert new.id != old.id
    assert env.bot.manager.tables[1].message_id == new.id
    assert (await env.bot.manager.services.table_repo.get(1)).message_id == new.id
    await play_out(env, alice)
    assert_finished_and_consistent(env, db_path)
    assert env.errors == []


@pytest.mark.parametrize("bot_settings", [{"seed": 9, "turn_timeout": 60.0}], indirect=True)
async def test_deleted_channel_cancels_the_table_cleanly(env: Any, db_path: Any) -> None:
    guild = env.create_guild(name="Tidy")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    await open_table(channel, alice, ai=("easy", "easy", "easy"), target=3)
    msg = hand_message(alice)
    assert is_my_turn(msg)
    env.backend.delete_channel(channel.id)
    move = moves(msg)[0]
    res = await press(alice.user, msg, move)
    assert res.acknowledged
    manager = env.bot.manager
    assert table_status(db_path, 1) == "cancelled"
    assert manager.tables[1].status == "cancelled"
    assert await manager.services.deadline_repo.get(1) is None
    assert manager.tables[1].drive.timer_task is None
    assert manager.tables[1].drive.ai_task is None or manager.tables[1].drive.ai_task.done()
    assert "cancelled" in hand_message(alice).content and not hand_message(alice).components
    await env.advance_time(120)  # no timer fires on a cancelled table
    assert table_status(db_path, 1) == "cancelled"
    assert integrity(db_path) == "ok"
    assert env.errors == []


async def test_missing_permissions_are_explained_and_change_nothing(env: Any, db_path: Any) -> None:
    guild = env.create_guild(name="Locked")
    locked = guild.create_text_channel(
        "announcements",
        overwrites={guild.default_role: discord.PermissionOverwrite(send_messages=False)},
    )
    alice = guild.add_member(env.create_user("alice"))
    before = dump(db_path)
    res = await alice.slash(locked, "ruff new")
    assert res.ephemeral
    assert res.response.content == "I can't run a table here: I need Send Messages in this channel."
    assert dump(db_path) == before
    assert env.errors == []


@pytest.mark.parametrize("bot_settings", [{"seed": 10, "lobby_timeout": 600.0}], indirect=True)
async def test_failed_answers_while_opening_never_block_the_channel(env: Any, db_path: Any) -> None:
    guild = env.create_guild(name="Flaky")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    manager = env.bot.manager

    # /ruff new whose answer fails: nobody saw the table, so it is cancelled and the channel stays free
    env.inject_error("POST", INTERACTION_CALLBACK, status=500)
    res = await alice.slash(channel, "ruff new")
    assert not res.acknowledged
    assert table_status(db_path, 1) == "cancelled"
    assert await manager.services.deadline_repo.get(1) is None

    # the table message id cannot be fetched (3 tries): learnt from the first click on it
    env.inject_error("GET", "/webhooks/*/*/messages/@original", status=502, times=3)
    res = await alice.slash(channel, "ruff new", target=3)
    assert res.acknowledged and manager.tables[2].message_id is None
    assert (await manager.services.deadline_repo.get(2)).kind == "lobby", (
        "the lobby expires even so"
    )
    await bob.click(table_message(channel), label="Join")
    assert manager.tables[2].message_id == table_message(channel).id

    # Start whose answer fails: the game starts all the same and the table message catches up
    await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Add AI (easy)")
    env.inject_error("POST", INTERACTION_CALLBACK, status=503)
    res = await alice.click(table_message(channel), label="Start")
    assert not res.acknowledged
    assert table_status(db_path, 2) == "active"
    assert "Trumps" in message_text(table_message(channel))
    assert await manager.services.deadline_repo.get(2) is None, "the lobby timer is gone"
    for _ in range(3000):
        if manager.tables[2].status != "active":
            break
        for member in (alice, bob):
            msg = hand_message(member)
            if is_my_turn(msg):
                move = moves(msg)[0]
                await press(member.user, msg, move)
    assert table_status(db_path, 2) == "finished"
    assert integrity(db_path) == "ok"
    assert env.errors == []
