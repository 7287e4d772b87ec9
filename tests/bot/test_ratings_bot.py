"""Ratings through the real bot (simcord): after each finished game ``/ruff
leaderboard`` and ``/ruff stats`` show the players' ratings, the AI level's too,
and a rebuild from the database gives the same values."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import pytest

from bot.competition.ratings import MIN_GAMES
from bot.present.layout import layout_text as message_text
from bot.store import AISeat, HumanSeat, PlayerResult, RatingRepo, ResultRepo, TableRepo, ratings

from .conftest import make_settings, restart
from .dm_play import lowest_card, open_table, play_out
from .helpers import table_message


def _table(channel: Any, table_id: int) -> Any:
    return next(
        m
        for m in channel.history()
        if "🃏" in message_text(m) and re.search(rf"table #{table_id}\b", message_text(m))
    )


async def _play_one(env: Any, table_id: int, players: list[Any]) -> None:
    table = env.bot.manager.tables[table_id]
    await play_out(env, table, players, lambda game, view: lowest_card(view), limit=60)
    assert table.game.is_over


@pytest.mark.slow
@pytest.mark.parametrize("bot_settings", [{"seed": 42}])
async def test_finished_games_move_the_ratings_shown_by_leaderboard_and_stats(
    simcord_env: Any,
) -> None:
    env = simcord_env
    guild, channel, players = await open_table(env, 1, "turnover-bridge", ai=1)
    alice = players[0]
    await _play_one(env, 1, players)
    assert "finished" in message_text(table_message(channel))
    won_first = env.bot.manager.tables[1].game.match_winner == 0

    # after one game: rated, listed, not yet ranked
    res = await alice.slash(channel, "ruff leaderboard")
    lines = res.response.content.splitlines()
    assert lines[0] == "🏆 **Leaderboard — Card Room** · Turnover Bridge"
    assert f"ranked from {MIN_GAMES} games" in lines[1]
    assert f"Not yet ranked (under {MIN_GAMES} games):" in lines
    assert any(
        re.fullmatch(r"· alice \*\*−?\d+\.\d\*\* · 1 game · (100|0)%", line) for line in lines
    ), lines
    assert any(line.startswith("· AI easy **") and "· 1 game ·" in line for line in lines), lines

    res = await alice.slash(channel, "ruff stats")
    assert res.ephemeral
    text = res.response.content
    assert text.splitlines()[0] == "📊 **alice** — Turnover Bridge in Card Room"
    assert re.search(
        r"Rating \*\*−?\d+\.\d\*\* \(μ \d+\.\d, σ \d\.\d\) · ranked after 3 games", text
    ), text
    assert (
        f"1 game · {int(won_first)} win{'' if won_first else 's'} ({100 if won_first else 0}%)"
        in text
    )
    assert f"· #1 {'won' if won_first else 'lost'}: 0.0 → " in text

    # two more games: alice and the easy AI are ranked
    for table_id in (2, 3):
        res = await alice.slash(channel, "ruff new", game="turnover-bridge")
        assert not res.ephemeral, res.response.content
        await alice.click(_table(channel, table_id), label="Add AI (easy)")
        await alice.click(_table(channel, table_id), label="Start")
        await _play_one(env, table_id, players)

    repo = RatingRepo(env.bot.db)
    stored = {r.player: r for r in await repo.all()}
    assert set(stored) == {str(alice.user.id), "ai:easy"}
    assert all(r.games == 3 for r in stored.values())
    wins = stored[str(alice.user.id)].wins
    assert wins + stored["ai:easy"].wins == 3

    res = await alice.slash(channel, "ruff leaderboard", game="turnover-bridge")
    lines = res.response.content.splitlines()
    ranked = [line for line in lines if re.match(r"\d+\. ", line)]
    assert len(ranked) == 2 and "Not yet ranked" not in res.response.content
    best = max(stored.values(), key=lambda r: r.conservative)
    assert ranked[0].startswith("1. alice **" if best.player != "ai:easy" else "1. AI easy **")
    assert (
        f"alice **{stored[str(alice.user.id)].conservative:.1f}** · 3 games · {round(100 * wins / 3)}%".replace(
            "-", "−"
        )
        in res.response.content
    )

    res = await alice.slash(channel, "ruff stats", game="turnover-bridge")
    text = res.response.content
    assert "3 games · " in text and re.search(r"· #\d of 2", text), text
    assert text.count("\n· #") == 3  # the last three rating changes, newest first
    assert text.index("\n· #3 ") < text.index("\n· #2 ") < text.index("\n· #1 ")

    res = await alice.slash(channel, "ruff leaderboard", game="whist-5")
    assert "No rated games of Whist 5-Point here yet." in res.response.content
    res = await alice.slash(channel, "ruff stats", game="whist-5")
    assert "has not finished a game of Whist 5-Point here yet" in res.response.content

    # what the bot wrote game by game is what a rebuild computes from the results
    report = await ratings.rebuild(env.bot.db, dry_run=True)
    assert report.events == 3 and report.changed == [] and report.added == []
    assert env.errors == []


async def test_games_finished_before_ratings_are_rated_when_the_bot_starts(
    simcord_env: Any, db_path: Any, more_bots: list[Any]
) -> None:
    env = simcord_env
    guild = env.create_guild(name="Old Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    db = env.bot.db
    tables = TableRepo(db)
    for n in range(2):  # finished, with results, never rated (as written before migration 3)
        row = await tables.create_lobby(
            guild_id=guild.id,
            channel_id=channel.id,
            creator_id=alice.user.id,
            game_id="whist-5",
            preset="default",
            seed=n + 1,
            seats=[
                HumanSeat(alice.user.id, "alice"),
                AISeat("hard", "Hal"),
                HumanSeat(bob.user.id, "bob"),
                None,
            ],
        )
        await tables.set_status(row.id, "active")
        await tables.set_status(row.id, "finished")
        await ResultRepo(db).record_game(
            row.id,
            guild.id,
            [
                PlayerResult(alice.user.id, "alice", 0, True, 5, 2),
                PlayerResult(bob.user.id, "bob", 0, True, 5, 2),
            ],
        )
    assert len(await RatingRepo(db).unrated_tables()) == 2

    new = await restart(env, more_bots, make_settings(db_path))
    repo = RatingRepo(new.db)
    for _ in range(200):
        if not await repo.unrated_tables():
            break
        await asyncio.to_thread(time.sleep, 0.01)  # real time: the rating runs in the background
    assert await repo.unrated_tables() == []
    events = await repo.events()
    assert [e.source for e in events] == [
        "results",
        "results",
    ]  # no move log: from the results rows
    res = await alice.slash(channel, "ruff leaderboard")
    text = res.response.content
    assert (
        "Whist 5-Point" in text
        and "· alice **" in text
        and "· AI hard **" in text
        and "2 games" in text
    )
