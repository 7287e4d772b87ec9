"""``/ruff challenge``: the same boards for two players, each alone, compared board
by board when both have played them — or at the deadline, the AI playing what was
left — both told by DM; the AI as an opponent."""

from __future__ import annotations

import random
from typing import Any

import pytest
from simcord.builders import UserHandle

from bot.features.challenge.challenges import DEADLINE
from bot.store import ChallengeRepo, DailyRepo, TableRepo

from .daily_play import board_table, dm_messages, play_board

pytestmark = pytest.mark.slow  # whole boards through the simulator


def _setup(env: Any) -> tuple[Any, Any, Any]:
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    return channel, alice, bob


async def test_two_players_play_the_same_boards_and_are_compared(simcord_env: Any) -> None:
    env = simcord_env
    channel, alice, bob = _setup(env)
    res = await alice.slash(channel, "ruff challenge", opponent=bob.user, game="whist-5", boards=2)
    assert "Challenge #1 against bob: board 1 of 2" in res.response.content, res.response.content
    assert any("**alice** challenges you: 2 boards" in m.content for m in dm_messages(bob))
    res = await bob.slash(channel, "ruff daily", game="whist-5")  # the daily deals are apart
    assert "Board 1 of 6" in res.response.content
    await play_board(env, bob, random.Random(9))
    first = await play_board(env, alice, random.Random(1))
    res = await alice.slash(channel, "ruff challenge")
    assert "board 2 of 2" in res.response.content, res.response.content
    second = await play_board(env, alice, random.Random(2))
    assert first[0].settings.board.endswith("/challenge-1/1")
    assert second[0].settings.board.endswith("/challenge-1/2")
    assert any(
        m.content.startswith("✅ **Board 2/2**")
        and "⏳ You have played every board of challenge #1" in m.content
        for m in dm_messages(alice)
    )
    res = await alice.slash(channel, "ruff challenge")
    assert "No challenge waits for you" in res.response.content
    res = await bob.slash(channel, "ruff challenge")
    assert "board 1 of 2" in res.response.content, res.response.content
    mine = await play_board(env, bob, random.Random(1), script=first[1])
    await bob.slash(channel, "ruff challenge")
    await play_board(env, bob, random.Random(4))
    assert mine[0].game is not None and first[0].game is not None
    assert mine[0].game.log == first[0].game.log  # the same board, the same AI
    entries = await DailyRepo(env.bot.db).of_series("whist-5", ["challenge-1"])
    results = {(e.user_id, e.number): e.result for e in entries}
    assert len(results) == 4 and not any(e.by_ai for e in entries)
    for member in (alice, bob):
        told = [
            m.content for m in dm_messages(member) if m.content.startswith("🏁 **Challenge #1**")
        ]
        assert len(told) == 1
        for n in (1, 2):
            a, b = results[(alice.id, n)], results[(bob.id, n)]
            assert a is not None and b is not None
            row = next(line for line in told[0].splitlines() if line.startswith(f"{n} "))
            cells = row.split()
            assert cells[1] == f"{a:+d}" and f"{b:+d}" in cells[2:4], row
    challenge = await ChallengeRepo(env.bot.db).get(1)
    assert challenge is not None and challenge.settled_at is not None
    # the challenge's boards are not in the daily standings
    res = await alice.slash(channel, "ruff daily", game="whist-5", standings="all")
    assert "alice" not in res.response.content


async def test_a_challenge_against_the_ai_is_settled_when_played(simcord_env: Any) -> None:
    env = simcord_env
    channel, alice, _bob = _setup(env)
    me = UserHandle(env, env.backend.get_user(env.bot.user.id))  # the bot, as a member picks it
    res = await alice.slash(channel, "ruff challenge", opponent=me, game="whist-5", boards=1)
    assert "against the AI" in res.response.content, res.response.content
    await play_board(env, alice, random.Random(5))
    told = [m.content for m in dm_messages(alice) if m.content.startswith("🏁 **Challenge #1**")]
    assert len(told) == 1 and "the AI" in told[0]


async def test_at_the_deadline_the_ai_plays_what_was_left(simcord_env: Any) -> None:
    env = simcord_env
    manager = env.bot.manager
    channel, alice, bob = _setup(env)
    await alice.slash(channel, "ruff challenge", opponent=bob.user, game="whist-5", boards=2)
    await play_board(env, alice, random.Random(6))
    await alice.slash(channel, "ruff challenge")
    in_play = board_table(env, alice.id)
    assert in_play is not None and in_play.settings.board.endswith("/challenge-1/2")
    assert await manager.challenges.expire_once() == 0  # not yet
    later = manager.challenges.clock() + DEADLINE + 1
    manager.challenges.clock = lambda: later
    assert await manager.challenges.expire_once() == 1
    await env.settle()
    entries = {
        (e.user_id, e.number): e
        for e in await DailyRepo(env.bot.db).of_series("whist-5", ["challenge-1"])
    }
    assert not entries[(alice.id, 1)].by_ai and entries[(alice.id, 2)].by_ai
    assert entries[(bob.id, 1)].by_ai and entries[(bob.id, 2)].by_ai
    assert all(e.result is not None for e in entries.values())
    row = await TableRepo(env.bot.db).get(in_play.id)
    assert row is not None and row.status == "cancelled"
    for member in (alice, bob):
        told = [
            m.content for m in dm_messages(member) if m.content.startswith("🏁 **Challenge #1**")
        ]
        assert len(told) == 1 and "* played by the AI" in told[0]
    assert await manager.challenges.expire_once() == 0  # settled once
