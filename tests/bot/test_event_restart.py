"""An event's board dealt and never shown when the bot stopped (its table in the
channel to come, the thread not made yet): at start-up it gets its thread, moves
there and is shown to its players with their hands, a human's turn clock starting
then (none ran out unseen), and the event plays on to its end."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.features.events.front import DiscordEventFront
from bot.store import EventRepo, EventRow, EventTable
from bot.tables.drivers import acting_seat

from .conftest import make_settings, restart
from .helpers import is_table_message, table_message
from .test_events import _event_tables, _play_some

pytestmark = pytest.mark.slow  # whole boards through the simulator

TIMEOUT = 300.0  # a turn's time
DOWN = 2 * TIMEOUT  # how long the bot is down
SEED = 1  # the event's draw: an AI leads board 1


def _registration(channel: Any) -> discord.Message:
    return next(m for m in channel.history() if m.content.startswith("🏆 **Event #1**"))


@pytest.mark.parametrize("bot_settings", [{"turn_timeout": TIMEOUT}])
async def test_a_board_dealt_and_never_shown_is_shown_at_start_up_and_the_event_ends(
    simcord_env: Any,
    db_path: Path,
    more_bots: list[Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    channel = guild.create_text_channel("events")
    members = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat", "dan")]
    res = await mod.slash(
        channel, "ruff event create", game="whist-5", minutes=60, rounds=1, boards=2
    )
    assert "Event #1 is open" in res.response.content, res.response.content
    for m in members:
        await m.click(_registration(channel), label="Join")
    # the event's draw fixed (seats and deals): an AI leads board 1 and plays on to a
    # human's turn before the bot stops
    await env.bot.db.execute("UPDATE events SET seed = ? WHERE id = 1", (SEED,))
    for m in members[:2]:  # two no-shows: the AI plays their seats (and may lead)
        await m.click(_registration(channel), label="Check in")

    # the bot stops while the thread is being made (its task cancelled, as at a stop):
    # the board dealt, nothing of it shown
    made = DiscordEventFront.table_channel

    async def stopped_here(
        self: DiscordEventFront,
        event: EventRow,
        table: EventTable,
        names: Mapping[int, str],
        *,
        again: bool = False,
    ) -> int:
        raise asyncio.CancelledError

    monkeypatch.setattr(DiscordEventFront, "table_channel", stopped_here)
    res = await mod.slash(channel, "ruff event start", event=1)
    assert res.acknowledged  # and its answer never comes: the bot is stopping
    await env.settle()
    boards = await EventRepo(env.bot.db).boards(1, 1)
    dealt = [b for b in boards if b.table_id is not None]
    assert len(dealt) == 1 and not dealt[0].done
    table_id = dealt[0].table_id
    assert table_id is not None
    row = await env.bot.manager.services.table_repo.require(table_id)
    assert row.channel_id < 0  # in the channel to come
    assert not channel.threads  # nothing of it shown
    for m in members:
        assert m.user.dm_channel is None or not list(m.user.dm_channel.history())

    monkeypatch.setattr(DiscordEventFront, "table_channel", made)
    before = env.bot.manager.tables[table_id]
    assert before.game is not None
    waiting = acting_seat(before, before.game)  # the AI played on to a human's turn
    assert waiting is not None and not before.ai_plays(waiting)
    version = before.version
    assert version > 0  # an AI has played: the human's turn began before the stop
    before.stop_tasks()  # its turn clock stops with the bot
    await env.advance_time(DOWN)  # the bot is down longer than a turn
    back = env.now().timestamp()
    await restart(env, more_bots, make_settings(db_path, turn_timeout=TIMEOUT))
    await env.settle()

    (seating,) = await EventRepo(env.bot.db).tables(1, 1)
    assert seating.thread_id > 0
    (table,) = _event_tables(env)
    assert table.id == table_id and table.status == "active"
    assert table.channel_id == seating.thread_id  # moved to its thread
    row = await env.bot.manager.services.table_repo.require(table_id)
    assert row.channel_id == seating.thread_id  # and stored so
    (thread,) = channel.threads
    assert thread.id == seating.thread_id
    assert table_message(thread) is not None
    assert sum(is_table_message(m) for m in thread.history()) == 1  # shown once
    for m in members[:2]:  # each player present has their hand
        seat = next(s for s in range(4) if (h := table.human(s)) and h.user_id == m.id)
        assert seat in table.hand_messages
        _channel, message_id = table.hand_messages[seat]
        assert any(msg.id == message_id for msg in m.user.dm_channel.history())
    game = table.game
    assert game is not None
    # the turn waiting when the bot stopped is still the player's: no clock ran out
    # while nobody could see their hand
    assert table.version == version and acting_seat(table, game) == waiting
    assert not table.ai_plays(waiting)
    deadline = table.drive.deadline
    assert deadline is not None
    assert deadline >= back + TIMEOUT  # the whole turn from the show

    by_id = {m.id: m for m in members}
    assert await _play_some(env, by_id, random.Random(44), 3000) > 0
    event = await EventRepo(env.bot.db).get(1)
    assert event is not None and event.state == "finished", event
    boards = await EventRepo(env.bot.db).boards(1, 1)
    assert all(b.done for b in boards) and len(boards) == 2
    posts = [m.content for m in channel.history()]
    assert any(p.startswith("🏁 **Event #1: final results**") for p in posts), posts[-3:]
