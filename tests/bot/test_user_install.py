"""A player who added the app to their own account (a user install) plays
``/ruff daily`` and ``/ruff challenge`` where no admin invited the bot; every other
``/ruff`` command there is refused privately and changes nothing.

simcord 3.2.1 always sends ``authorizing_integration_owners: {}`` and a context of
0 (server) or 1 (the bot's DM): it has no user install. The fixture below gives
the chosen players' interactions the fields Discord sends for one — the user's
key alone in ``authorizing_integration_owners`` (the server did not authorize the
app) and the interaction's context — on the real payloads simcord builds; the
real bot then handles them. simcord's guild still has the bot in it: what is
tested is the bot's decision on the interaction's fields, and that it writes and
posts nothing for that server.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import simcord.interactions

from bot.features.daily.boards import day_of
from bot.store import ChallengeRepo, DailyRepo

from .daily_play import board_table, dm_messages, play_board

REFUSED = "Tables need the bot in this server"


@pytest.fixture
def user_installs(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, str]]:
    """``{user id: "user" | "both" | "group"}``: whose interactions are authorized by
    their own install alone ("user": the bot is not in the server; "group": a private
    channel, context 2, such as a group DM — simcord has none, so the bot's DM stands
    in for its channel) or by the server's and theirs ("both")."""
    who: dict[int, str] = {}
    base = simcord.interactions.base_payload

    def payload(backend: Any, **kwargs: Any) -> Any:
        record, data = base(backend, **kwargs)
        user_id, guild_id = kwargs["user_id"], kwargs["guild_id"]
        kind = who.get(user_id)
        if kind is not None:
            owners = {"1": str(user_id)}
            if kind == "both":
                owners["0"] = str(guild_id) if guild_id is not None else "0"
            data["authorizing_integration_owners"] = owners
            if kind == "group":
                data["context"] = 2
        return record, data

    monkeypatch.setattr(simcord.interactions, "base_payload", payload)
    yield who


def _rows(db_path: Path, table: str) -> int:
    with sqlite3.connect(db_path) as db:
        return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def _world(env: Any) -> tuple[Any, Any, Any, Any, Any]:
    elsewhere = env.create_guild(name="Elsewhere")  # never invited the bot
    there = elsewhere.create_text_channel("chat")
    club = env.create_guild(name="Card Room")  # the bot's server
    cards = club.create_text_channel("cards")
    alice = env.create_user("alice")
    return there, elsewhere.add_member(alice), cards, club.add_member(alice), club


async def test_the_daily_from_a_user_install_counts_across_servers_only(
    simcord_env: Any, user_installs: dict[int, str]
) -> None:
    env = simcord_env
    there, alice, cards, alice_at_club, club = _world(env)
    user_installs[alice.id] = "user"
    res = await alice.slash(there, "ruff daily", game="whist-5")
    assert res.ephemeral and "Board 1 of 6" in res.response.content, res
    table = board_table(env, alice.id)
    assert table is not None and table.channel_id == alice.user.dm_channel.id
    await play_board(env, alice, random.Random(3))
    assert any(m.content.startswith("✅ **Board 1/6**") for m in dm_messages(alice))
    day = day_of(env.bot.manager.daily.clock())
    [entry] = await DailyRepo(env.bot.db).of_player(alice.id, "whist-5", day)
    # counted for no server (the cross-server standings), no channel to tell at the day's end
    assert entry.result is not None and entry.guild_id == 0 and entry.channel_id == 0
    assert list(there.history()) == []
    res = await alice.slash(there, "ruff daily", game="whist-5", standings="today")
    assert res.ephemeral and "alice" in res.response.content, res.response.content
    # in the bot's own server she is not among its players
    bob = club.add_member(env.create_user("bob"))
    res = await bob.slash(cards, "ruff daily", game="whist-5", standings="today")
    assert "alice" not in res.response.content, res.response.content


async def test_other_commands_are_refused_where_the_bot_is_not(
    simcord_env: Any, db_path: Path, user_installs: dict[int, str]
) -> None:
    env = simcord_env
    there, alice, cards, alice_at_club, club = _world(env)
    user_installs[alice.id] = "user"
    before = _rows(db_path, "tables")
    for name, options in (
        ("ruff new", {}),
        ("ruff leaderboard", {}),
        ("ruff stats", {}),
        ("ruff settings", {"pictures": "off"}),
        ("ruff hand", {}),
        ("ruff cancel", {}),
        ("ruff record", {}),
        ("ruff lesson", {}),
    ):
        res = await alice.slash(there, name, **options)
        assert res.ephemeral and REFUSED in res.response.content, (name, res)
        assert not res.followups, (name, res.followups)  # one short answer, nothing more
    assert _rows(db_path, "tables") == before == 0
    assert env.bot.manager.tables.open_in_channel(there.id) is None
    assert list(there.history()) == []
    res = await alice.slash(there, "ruff rules")  # it only answers: allowed anywhere
    assert res.ephemeral and REFUSED not in res.response.content, res
    # where the server installed the bot too, her own install changes nothing
    user_installs[alice.id] = "both"
    res = await alice_at_club.slash(cards, "ruff new", game="whist-5")
    assert REFUSED not in (res.response.content or "")
    assert env.bot.manager.tables.open_in_channel(cards.id) is not None


async def test_a_challenge_from_a_user_install(
    simcord_env: Any, user_installs: dict[int, str]
) -> None:
    env = simcord_env
    there, alice, cards, alice_at_club, club = _world(env)
    bob = there.guild.add_member(env.create_user("bob"))
    club.add_member(bob.user)  # a server he shares with the bot: it can DM him
    user_installs[alice.id] = "user"
    res = await alice.slash(there, "ruff challenge", opponent=bob.user, game="whist-5", boards=1)
    assert res.ephemeral and "Challenge #1 against bob: board 1 of 1" in res.response.content, res
    challenge = await ChallengeRepo(env.bot.db).get(1)
    assert challenge is not None and challenge.guild_id == 0 and challenge.channel_id == 0
    assert any("**alice** challenges you: 1 board" in m.content for m in dm_messages(bob))
    table = board_table(env, alice.id)
    assert table is not None and table.channel_id == alice.user.dm_channel.id
    assert list(there.history()) == []


async def test_the_command_is_offered_to_user_installs_everywhere(simcord_env: Any) -> None:
    env = simcord_env
    env.create_guild(name="Card Room")
    group = env.bot.tree.get_command("ruff")
    assert group is not None
    assert group.allowed_installs is not None and group.allowed_installs.user
    assert group.allowed_installs.guild
    contexts = group.allowed_contexts
    assert contexts is not None and contexts.guild and contexts.dm_channel
    assert contexts.private_channel


async def test_a_group_dm_plays_the_daily_and_refuses_tables(
    simcord_env: Any, db_path: Path, user_installs: dict[int, str]
) -> None:
    env = simcord_env
    _there, alice, _cards, _alice_at_club, _club = _world(env)
    user_installs[alice.id] = "group"
    res = await alice.user.slash("ruff new", game="whist-5")
    assert res.ephemeral and REFUSED in res.response.content, res
    assert _rows(db_path, "tables") == 0
    res = await alice.user.slash("ruff daily", game="whist-5")
    assert res.ephemeral and "Board 1 of 6" in res.response.content, res
    table = board_table(env, alice.id)
    assert table is not None and table.guild_id == 0
