"""``/ruff event``, what the first events left undone: a rated event (the server's
choice) changes the ratings and an unrated one does not; a private table thread holds
only who plays at its table; the standings picture after each round."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot.store import EventRepo, RatingRepo, ResultRepo

from .test_events import _play_some

pytestmark = pytest.mark.slow  # whole boards through the simulator

CLICKS = 3000


def _registration(channel: Any, event_id: int) -> discord.Message:
    return next(m for m in channel.history() if m.content.startswith(f"🏆 **Event #{event_id}**"))


async def _run_event(
    env: Any, mod: Any, channel: Any, members: list[Any], event_id: int, **options: Any
) -> None:
    """Create a one-table event in ``channel``, everyone joins and checks in, it starts
    and is played to its end by random legal clicks."""
    res = await mod.slash(
        channel, "ruff event create", game="whist-5", rounds=1, boards=2, minutes=60, **options
    )
    assert f"Event #{event_id} is open" in res.response.content, res.response.content
    for m in members:
        await m.click(_registration(channel, event_id), label="Join")
        await m.click(_registration(channel, event_id), label="Check in")
    res = await mod.slash(channel, "ruff event start", event=event_id)
    assert "round 1 is being dealt" in res.response.content, res.response.content
    await env.settle()
    await _play_some(env, {m.id: m for m in members}, random.Random(event_id), CLICKS)
    event = await EventRepo(env.bot.db).get(event_id)
    assert event is not None and event.state == "finished", event


async def test_only_an_event_the_server_chose_to_rate_changes_ratings(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    members = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat", "dan")]
    db = env.bot.db

    unrated = guild.create_text_channel("friendly")
    await _run_event(env, mod, unrated, members, 1)  # the default: unrated
    assert "Unrated: ratings and stats stay as they are." in _registration(unrated, 1).content
    assert await RatingRepo(db).events() == []
    assert await RatingRepo(db).all() == []
    assert await RatingRepo(db).unrated_tables() == []  # nor will a rebuild rate them
    res = await members[0].slash(unrated, "ruff stats")
    assert "has not finished a game here yet" in res.response.content

    rated = guild.create_text_channel("ladder")
    await _run_event(env, mod, rated, members, 2, rated=True)
    assert "⭐ Rated" in _registration(rated, 2).content
    boards = await EventRepo(db).boards(2)
    rated_tables = {e.table_id for e in await RatingRepo(db).events()}
    assert rated_tables == {b.table_id for b in boards}  # each board rated, once
    people = {r.player for r in await RatingRepo(db).all() if not r.player.startswith("ai:")}
    assert people == {str(m.id) for m in members}
    for b in boards:  # and recorded among the server's games, as an ordinary game is
        assert b.table_id is not None
        assert {r.user_id for r in await ResultRepo(db).for_table(b.table_id)} == {
            m.id for m in members
        }
    res = await members[0].slash(rated, "ruff stats")
    assert "2 games" in res.response.content  # the stats show the two rated boards
