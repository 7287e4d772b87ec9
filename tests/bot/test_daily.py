"""``/ruff daily``: today's boards dealt in the DMs, played alone against the AI,
scored against everyone, resumed and never replayed."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.features.daily.boards import day_of
from bot.store import ChallengeRepo, DailyRepo, ResultRepo, TableRepo
from engine import board, game_ids

from .daily_play import board_table, dm_messages, play_board


async def test_a_board_is_dealt_in_the_dms_played_and_scored(
    simcord_env: Any, db_path: Path
) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    res = await alice.slash(channel, "ruff daily", game="whist-5")
    assert res.ephemeral and "Board 1 of 6" in res.response.content, res
    table = board_table(env, alice.id)
    assert table is not None and table.channel_id == alice.user.dm_channel.id
    day = day_of(env.bot.manager.daily.clock())
    one = board("whist-5", None, day, 1)
    assert table.seat_of(alice.id) == one.seat and table.seed == one.seed
    await play_board(env, alice, random.Random(1))
    await env.settle()
    done = next(m for m in dm_messages(alice) if m.content.startswith("✅ **Board 1/6**"))
    assert "alice (you)" in done.content and "par (the AI in your seat)" in done.content
    buttons = [c.label for row in done.components for c in getattr(row, "children", [])]
    assert buttons == ["▶ Board 2", "The deal", "Review", "Share"], buttons
    assert board_table(env, alice.id) is None  # dealt when asked for, not before
    entries = await DailyRepo(env.bot.db).of_player(alice.id, "whist-5", day)
    assert [e.number for e in entries] == [1] and entries[0].result is not None
    assert await ResultRepo(env.bot.db).for_table(table.id) == []  # never rated, never ranked
    assert list(channel.history()) == []  # nothing in the channel about a board
    res = await alice.slash(channel, "ruff daily", game="whist-5")
    assert f"Board 2 of 6 of today's Whist 5-Point deals ({day})" in res.response.content
    # a second /ruff daily resumes board 2, never deals another
    res = await alice.slash(channel, "ruff daily", game="whist-5")
    assert "Board 2 of 6 of today's Whist 5-Point deals is in your DMs" in res.response.content
    assert len(await DailyRepo(env.bot.db).of_player(alice.id, "whist-5", day)) == 2
    row = await TableRepo(env.bot.db).get(table.id)
    assert row is not None and row.status == "finished"


@pytest.mark.slow
@pytest.mark.parametrize("bot_settings", [{"daily_worlds": 8}])
@pytest.mark.parametrize("game_id", game_ids())
async def test_the_same_plays_meet_the_same_ai_on_every_game(
    simcord_env: Any, game_id: str
) -> None:
    """Two members who make the same plays on a board meet the same AI plays and get
    the same result: the AI's search is a fixed size, seeded by the board and the move."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "ruff daily", game=game_id)
    first, clicks = await play_board(env, alice, random.Random(game_id))
    await bob.slash(channel, "ruff daily", game=game_id)
    second, _ = await play_board(env, bob, random.Random(0), script=clicks)
    assert first.game is not None and second.game is not None
    assert second.game.log == first.game.log  # every AI play the same, in the same order
    assert first.settings.board == second.settings.board
    results = {
        e.user_id: e.result for e in await DailyRepo(env.bot.db).of_board(first.settings.board)
    }
    assert results[alice.id] == results[bob.id] is not None


@pytest.mark.slow
async def test_the_day_rolls_over_and_a_board_in_play_comes_first(simcord_env: Any) -> None:
    env = simcord_env
    daily = env.bot.manager.daily
    noon = 1_795_867_200.0  # 2026-11-28 12:00 UTC
    daily.clock = lambda: noon
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "ruff daily", game="whist-5")
    first = board_table(env, alice.id)
    assert first is not None and first.settings.board.endswith("/2026-11-28/1")
    daily.clock = lambda: noon + 12 * 3600  # 00:00 UTC: a new day's boards
    res = await alice.slash(channel, "ruff daily", game="whist-5")
    assert "Board 1 of 6" in res.response.content and "2026-11-28" not in res.response.content
    assert board_table(env, alice.id) is first  # yesterday's board in play is resumed first
    await play_board(env, alice, random.Random(2))
    assert board_table(env, alice.id) is None  # yesterday's next board is not dealt today
    res = await alice.slash(channel, "ruff daily", game="whist-5")
    assert "(2026-11-29) is in your DMs" in res.response.content
    now = board_table(env, alice.id)
    assert now is not None and now.settings.board.endswith("/2026-11-29/1")


async def test_daily_from_the_bots_dm_counts_across_servers_only(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    res = await alice.user.slash("ruff daily", game="whist-5")
    assert "is in your DMs" in res.response.content
    await play_board(env, alice, random.Random(3))
    day = day_of(env.bot.manager.daily.clock())
    entry = (await DailyRepo(env.bot.db).of_player(alice.id, "whist-5", day))[0]
    assert entry.guild_id == 0 and entry.result is not None
    here = await alice.slash(channel, "ruff daily", game="whist-5", standings="today")
    assert "No finished boards yet." in here.response.content  # not this server's
    everywhere = await alice.user.slash("ruff daily", game="whist-5", standings="today")
    shown = everywhere.response.content
    # counted everywhere; today's ranks wait for every board, so alice is still playing
    assert "Still playing (boards so far):\n· alice — " in shown and " · 1/6\n" in shown, shown
    assert "You: " in shown


async def test_bad_challenges_are_refused_privately_and_change_nothing(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    robot = guild.add_member(env.create_user("robot", bot=True))
    res = await alice.slash(channel, "ruff challenge", opponent=alice.user)
    assert res.ephemeral and "can't challenge yourself" in res.response.content
    res = await alice.slash(channel, "ruff challenge", opponent=robot.user)
    assert res.ephemeral and "Challenge a person" in res.response.content
    res = await alice.slash(channel, "ruff challenge")
    assert res.ephemeral and "No challenge waits for you" in res.response.content
    assert await ChallengeRepo(env.bot.db).open_of(alice.id) == []
    assert board_table(env, alice.id) is None and list(channel.history()) == []


async def test_todays_place_is_only_among_those_who_played_every_board(
    simcord_env: Any,
) -> None:
    """A one-board score is not level with a whole day's: among six players who
    finished the day, one who played a single board sees their score and no place;
    one who finished the day sees theirs (six players: enough to say one)."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    repo = DailyRepo(env.bot.db)
    day = day_of(env.bot.manager.daily.clock())
    played = {bob.id: 6, alice.id: 1, **{900 + k: 6 for k in range(5)}}
    for k, (user_id, count) in enumerate(played.items()):
        for number in range(1, count + 1):
            the_board = board("whist-5", "default", day, number)
            await repo.by_ai(
                board=the_board.key,
                user_id=user_id,
                game_id="whist-5",
                series=day,
                number=number,
                guild_id=guild.id,
                name=f"p{k}",
                result=(k * 3 + number) % 5 - 2,
            )
    mine = (await alice.slash(channel, "ruff daily", game="whist-5", standings="today")).response
    assert "You: " in mine.content and "better than" not in mine.content, mine.content
    theirs = (await bob.slash(channel, "ruff daily", game="whist-5", standings="today")).response
    assert "better than" in theirs.content, theirs.content
