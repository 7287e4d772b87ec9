"""Issue 10, item 7: every live copy of a hand follows the game, and an unseated
member pressing Start is told the real reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .helpers import table_message
from .test_refusals import Unchanged, assert_refused


async def test_unseated_member_pressing_start_on_a_full_table(simcord_env: Any, db_path: Path) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("ruff")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    await alice.slash(channel, "ruff new", target=3)
    await bob.click(table_message(channel), label="Join")
    async with Unchanged(env, db_path):  # seated, but seats are still empty: the opener's call
        assert_refused(await bob.click(table_message(channel), label="Start"), "Only the opener")
        assert_refused(await carol.click(table_message(channel), label="Start"), "not at this table")
    await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Add AI (easy)")
    lobby = table_message(channel)
    assert "— empty —" not in lobby.content
    async with Unchanged(env, db_path):
        text = assert_refused(await carol.click(lobby, label="Start"), "not at this table")
        assert "Only the opener" not in text
    assert env.bot.manager.tables[1].status == "lobby"
    # a seated player may start a full table
    await bob.click(table_message(channel), label="Start")
    assert env.bot.manager.tables[1].status == "active"
