"""The real bot (driven by simcord) with ``RH_DATABASE`` a PostgreSQL URL: a game is
played, the bot restarts in the middle of a deal and resumes from PostgreSQL, the
game ends and its results rank on the leaderboard."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.app.client import RuffBot, create_bot
from bot.store import RatingRepo, ResultRepo, TableRepo
from bot.store.postgres import PostgresDatabase

from ..bot.conftest import make_settings, restart
from ..bot.helpers import act_on, choose, hand_message, replay_from_db, table_message

pytestmark = pytest.mark.slow  # left out by `make test-fast`


@pytest.fixture
async def more_bots() -> AsyncIterator[list[RuffBot]]:
    bots: list[RuffBot] = []
    yield bots
    for bot in bots:
        await bot.close()


@pytest.fixture
async def simcord_bot(pg_url: str, more_bots: list[RuffBot]) -> AsyncIterator[RuffBot]:
    bot = create_bot(make_settings(pg_url, seed=11))  # type: ignore[arg-type]
    yield bot
    await bot.close()


async def test_a_game_across_a_restart_on_postgresql(
    simcord_env: Any, pg_url: str, more_bots: list[RuffBot]
) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("ruff")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    players = {0: alice, 1: bob}

    await alice.slash(channel, "ruff new", target=3)
    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Start")
    assert isinstance(env.bot.db, PostgresDatabase)

    async def step() -> None:
        game = env.bot.manager.tables[1].game
        seat = game.to_act()
        assert seat in players, "the AI seats never wait"
        member = players[seat]
        await act_on(member.user, hand_message(member), choose(game.observe(seat)))

    table = env.bot.manager.tables[1]
    while not (table.game.phase == "play" and table.game.trick_no >= 3 and table.game.trick):
        await step()
    before = table.game.state_key()
    assert (await replay_from_db(env.bot.db, table)).state_key() == before

    await restart(env, more_bots, make_settings(pg_url, seed=11))  # type: ignore[arg-type]
    table = env.bot.manager.tables[1]
    assert table.game.state_key() == before  # resumed from PostgreSQL's move log

    while not table.game.is_over:
        await step()
    row = await TableRepo(env.bot.db).require(1)
    assert row.status == "finished"
    assert row.version == table.db_version  # every write of the bot went through PostgreSQL
    assert (await replay_from_db(env.bot.db, table)).state_key() == table.game.state_key()
    board = await ResultRepo(env.bot.db).leaderboard(guild.id)
    assert {p.name for p in board} == {"alice", "bob"}
    assert all(p.games == 1 for p in board)

    # rated in the same transaction, shown by /ruff leaderboard and /ruff stats
    rated = {r.name: r for r in await RatingRepo(env.bot.db).all()}
    assert set(rated) == {"alice", "bob", "AI normal"} and all(r.games == 1 for r in rated.values())
    res = await alice.slash(channel, "ruff leaderboard")
    text = res.response.content
    assert "Leaderboard — Card Room" in text and "· alice **" in text and "· AI normal **" in text
    res = await bob.slash(channel, "ruff stats")
    assert "📊 **bob** — Ruff and Honours in Card Room" in res.response.content
    assert f"(μ {rated['bob'].mu:.1f}, σ {rated['bob'].sigma:.1f})" in res.response.content
