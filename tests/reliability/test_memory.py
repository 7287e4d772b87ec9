"""Memory stays bounded: a finished or cancelled table leaves memory soon, not at
the next ``/ruff new``; late clicks on it are still answered."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import act, hand_message, is_my_turn, open_table, table_message, table_status

pytestmark = pytest.mark.slow  # left out by `make test-fast`


@pytest.mark.parametrize("bot_settings", [{"seed": 4}], indirect=True)
async def test_a_finished_table_leaves_memory(env: Any, db_path: Any) -> None:
    guild = env.create_guild(name="Tidy")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    await open_table(channel, alice, ai=("easy", "easy", "easy"), target=1)
    for _ in range(400):
        if table_status(db_path, 1) == "finished":
            break
        if is_my_turn(hand_message(alice)):
            await act(alice)
        else:
            await env.advance_time(0.5)
    assert table_status(db_path, 1) == "finished"
    assert 1 in env.bot.manager.tables  # kept a while for late clicks and the last edits
    await env.advance_time(env.bot.settings.ended_kept + 1)
    assert 1 not in env.bot.manager.tables
    # a late click on the finished table's message is still answered
    res = await alice.click(table_message(channel), label="Rematch")
    assert res.acknowledged


@pytest.mark.parametrize("bot_settings", [{"seed": 4}], indirect=True)
async def test_a_cancelled_table_leaves_memory(env: Any, db_path: Any) -> None:
    guild = env.create_guild(name="Tidy")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "ruff new")
    assert (await alice.slash(channel, "ruff cancel")).acknowledged
    assert table_status(db_path, 1) == "cancelled"
    await env.advance_time(env.bot.settings.ended_kept + 1)
    assert len(env.bot.manager.tables) == 0
