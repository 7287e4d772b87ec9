"""A table message or a table's thread reaches Discord and the bot stops before it
keeps its id (the store never written): after the restart the table is shown once —
the message or thread that went out is found and kept, not posted or made again —
its buttons are the live ones (a move through them is accepted) and the game is as
it was. (With several processes the taker of a dead process's table shows it by
the same path: ``Showing.taken_over`` and a start-up's ``show_unshown`` both show
``again``.)"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app.client import RuffBot
from bot.present.layout import layout_text as message_text
from bot.present.notify import Notifier, Unreachable
from bot.sharding import shard_of
from bot.store import ActionRepo, EventRepo, TableRepo
from bot.tables.table import Table

from .conftest import make_settings, restart
from .helpers import (
    act_on,
    choose,
    hand_message,
    is_table_message,
    raw_buttons,
    replay_from_db,
    table_message,
)

SEED = 3  # the ordinary table's deal


def _stop_at(monkeypatch: pytest.MonkeyPatch, cls: type, name: str) -> list[tuple[Any, ...]]:
    """``cls.name`` stops the bot where it is called (its task cancelled, as at a stop),
    before anything is written; the calls it stopped, kept."""
    stopped: list[tuple[Any, ...]] = []

    async def stop_here(self: Any, *args: Any) -> None:
        stopped.append(args)
        raise asyncio.CancelledError

    monkeypatch.setattr(cls, name, stop_here)
    return stopped


def _stop_once(monkeypatch: pytest.MonkeyPatch, cls: type, name: str) -> list[tuple[Any, ...]]:
    """As :func:`_stop_at`, at the first call only (the task that posted ends there,
    as its process died); later calls (this process's, which lives on) as they are."""
    stopped: list[tuple[Any, ...]] = []
    real = getattr(cls, name)

    async def stop_first(self: Any, *args: Any) -> Any:
        if not stopped:
            stopped.append(args)
            raise asyncio.CancelledError
        return await real(self, *args)

    monkeypatch.setattr(cls, name, stop_first)
    return stopped


async def _event_of_four(env: Any) -> tuple[Any, Any, list[Any]]:
    """An event of four checked-in players (one round, two boards), not started; its
    channel, its creator and the players."""
    guild = env.create_guild(name="Card Room")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    channel = guild.create_text_channel("events")
    members = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat", "dan")]
    res = await mod.slash(
        channel, "ruff event create", game="whist-5", minutes=60, rounds=1, boards=2
    )
    assert "Event #1 is open" in res.response.content, res.response.content
    registration = next(m for m in channel.history() if m.content.startswith("🏆 **Event #1**"))
    for m in members:
        await m.click(registration, label="Join")
    registration = next(m for m in channel.history() if m.content.startswith("🏆 **Event #1**"))
    for m in members:
        await m.click(registration, label="Check in")
    return channel, mod, members


def _event_table(env: Any) -> Table:
    (table,) = [t for t in env.bot.manager.tables.values() if t.settings.event]
    return table


def _stop_old_bot(env: Any) -> None:
    for table in env.bot.manager.tables.values():
        table.stop_tasks()


async def _move_through_my_hand(
    env: Any, table: Table, message: discord.Message, members: dict[int, Any]
) -> None:
    """The player to act presses **My hand** on ``message`` and plays from the hand it
    shows: the move is accepted, in memory and stored."""
    game = table.game
    assert game is not None
    seat = game.to_act()
    assert seat is not None
    human = table.human(seat)
    assert human is not None
    member = members[human.user_id]
    version = table.version
    stored = await ActionRepo(env.bot.db).count(table.id)
    shown = await member.click(message, label="My hand")
    assert shown.ephemeral and "Your turn" in shown.response.content, shown.response.content
    assert any(
        b["custom_id"].startswith("rh:") and f":{table.id}:{version}:{seat}" in b["custom_id"]
        for b in raw_buttons(shown.response.components)
    )
    res = await act_on(member, shown.response, choose(game.observe(seat)))
    assert res.acknowledged, res
    await env.settle()
    assert table.version > version  # accepted
    assert await ActionRepo(env.bot.db).count(table.id) > stored  # and stored


def _reads(env: Any, start: int = 0) -> list[str]:
    """The reads of a channel's history or of the active threads the bot made, from
    its ``start``-th request on."""
    return [
        r.path
        for r in env.http_requests[start:]
        if r.method == "GET"
        and r.path.endswith(
            ("/messages", "/threads/active", "/archived/private", "/archived/public")
        )
    ]


def _message(channel: Any, message_id: int) -> discord.Message:
    return next(m for m in channel.history() if m.id == message_id)


def _table_messages(channel: Any) -> list[discord.Message]:
    return [m for m in channel.history() if is_table_message(m)]


async def test_an_event_table_message_posted_and_not_kept_is_kept_after_a_restart(
    simcord_env: Any, db_path: Path, more_bots: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    env = simcord_env
    channel, mod, members = await _event_of_four(env)
    stopped = _stop_at(monkeypatch, TableRepo, "set_message")
    res = await mod.slash(channel, "ruff event start", event=1)
    assert res.acknowledged
    await env.settle()

    # the table message went out in the table's thread; its id was never kept
    assert len(stopped) == 1
    table = _event_table(env)
    (thread,) = channel.threads
    assert table.channel_id == thread.id
    (posted,) = _table_messages(thread)
    assert (await TableRepo(env.bot.db).require(table.id)).message_id is None
    assert _reads(env) == []  # a round shown by the running bot reads nothing
    before = table.game.state_key() if table.game else None
    _stop_old_bot(env)
    monkeypatch.undo()

    requests = len(env.http_requests)
    await restart(env, more_bots, make_settings(db_path))
    await env.settle()
    # one read, of the thread's latest messages (the thread's id was kept)
    assert _reads(env, requests) == [f"/channels/{thread.id}/messages"]

    table = _event_table(env)
    assert [t.id for t in channel.threads] == [thread.id]
    assert [m.id for m in _table_messages(thread)] == [posted.id]  # shown once: the one posted
    assert table.message_id == posted.id
    assert (await TableRepo(env.bot.db).require(table.id)).message_id == posted.id
    assert table.game is not None and table.game.state_key() == before  # the game as it was
    assert (await replay_from_db(env.bot.db, table)).state_key() == before
    by_id = {m.id: m for m in members}
    for seat in range(4):  # and every player has their hand
        assert seat in table.hand_messages
    shown_before = message_text(_message(thread, posted.id))
    await _move_through_my_hand(env, table, _message(thread, posted.id), by_id)
    assert [m.id for m in _table_messages(thread)] == [posted.id]
    assert message_text(_message(thread, posted.id)) != shown_before  # kept current


@pytest.mark.parametrize("archived", [False, True], ids=["active", "archived"])
async def test_an_event_table_thread_made_and_not_kept_is_kept_after_a_restart(
    simcord_env: Any,
    db_path: Path,
    more_bots: list[Any],
    monkeypatch: pytest.MonkeyPatch,
    archived: bool,
) -> None:
    """The private thread is made and the bot stops before keeping its id; ``archived``:
    the thread archives itself while the bot is down (a day without a message), so it
    is no longer among the active threads. After the restart it is found (among the
    archived ones), opened again and kept: one thread, the table in it."""
    env = simcord_env
    channel, mod, members = await _event_of_four(env)
    stopped = _stop_at(monkeypatch, EventRepo, "set_thread")
    res = await mod.slash(channel, "ruff event start", event=1)
    assert res.acknowledged
    await env.settle()

    # the private thread was made (its players in it); its id was never kept and
    # the table never moved there
    assert len(stopped) == 1
    (made,) = channel.threads
    assert not _table_messages(made)
    (seating,) = await EventRepo(env.bot.db).tables(1, 1)
    assert seating.thread_id == 0
    table = _event_table(env)
    assert table.channel_id < 0
    before = table.game.state_key() if table.game else None
    _stop_old_bot(env)
    monkeypatch.undo()
    if archived:  # while the bot is down
        env.backend.edit_channel(made.id, {}, thread_metadata={"archived": True})

    requests = len(env.http_requests)
    await restart(env, more_bots, make_settings(db_path))
    await env.settle()

    assert [t.id for t in channel.threads] == [made.id]  # one thread: the one made
    assert not env.backend.channels[made.id].thread_metadata.archived  # open again
    # the threads listed once (the archived ones too where no active one is the
    # table's); the thread's and then the table's first words looked for
    listed = [f"/guilds/{channel.guild.id}/threads/active"]
    if archived:
        listed += [
            f"/channels/{channel.id}/users/@me/threads/archived/private",
            f"/channels/{channel.id}/threads/archived/public",
        ]
    assert _reads(env, requests) == [
        *listed,
        f"/channels/{made.id}/messages",
        f"/channels/{made.id}/messages",
    ]
    (seating,) = await EventRepo(env.bot.db).tables(1, 1)
    assert seating.thread_id == made.id
    table = _event_table(env)
    assert table.channel_id == made.id
    assert (await TableRepo(env.bot.db).require(table.id)).channel_id == made.id
    (shown,) = _table_messages(made)  # its table message, once
    assert table.message_id == shown.id
    notes = [m for m in made.history() if m.content.startswith("Event #1 · round 1 · table 1")]
    assert len(notes) == 1  # who sits where, said once
    assert table.game is not None and table.game.state_key() == before
    await _move_through_my_hand(env, table, shown, {m.id: m for m in members})
    assert [m.id for m in _table_messages(made)] == [shown.id]


@pytest.mark.parametrize("bot_settings", [{"seed": SEED}])
async def test_a_table_message_reposted_and_not_kept_is_kept_after_a_restart(
    simcord_env: Any,
    db_path: Path,
    bot_settings: dict[str, Any],
    more_bots: list[Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table message is deleted (a moderator); the bot posts a new one and stops
    before keeping its id. After the restart the stored id is the deleted message's:
    the new one is found and kept, not a third posted."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("ruff")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    players = {alice.id: alice, bob.id: bob}
    await alice.slash(channel, "ruff new", target=3)
    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Start")
    table = env.bot.manager.tables[1]

    async def step() -> None:
        game = table.game
        assert game is not None
        seat = game.to_act()
        human = table.human(seat) if seat is not None else None
        assert human is not None, "the AI seats never wait"
        member = players[human.user_id]
        await act_on(member.user, hand_message(member), choose(game.observe(seat)))

    first = table_message(channel)
    await mod.delete(first)
    stopped = _stop_at(monkeypatch, TableRepo, "set_message")
    await step()  # the table message's edit finds it gone: posted again, its id not kept
    await env.settle()
    assert len(stopped) == 1
    (reposted,) = _table_messages(channel)
    assert reposted.id != first.id
    assert (await TableRepo(env.bot.db).require(1)).message_id == first.id
    assert table.game is not None
    before = table.game.state_key()
    _stop_old_bot(env)
    monkeypatch.undo()

    await restart(env, more_bots, make_settings(db_path, **bot_settings))
    await env.settle()

    table = env.bot.manager.tables[1]
    assert [m.id for m in _table_messages(channel)] == [reposted.id]  # not a third
    assert table.message_id == reposted.id
    assert (await TableRepo(env.bot.db).require(1)).message_id == reposted.id
    assert table.game is not None and table.game.state_key() == before
    shown_before = message_text(_message(channel, reposted.id))
    await _move_through_my_hand(env, table, _message(channel, reposted.id), players)
    await env.settle()
    assert [m.id for m in _table_messages(channel)] == [reposted.id]
    assert message_text(_message(channel, reposted.id)) != shown_before  # kept current


LOBBY = 600.0  # seconds a lobby waits for its start


@pytest.mark.parametrize("bot_settings", [{"lobby_timeout": LOBBY}])
async def test_a_lobby_posted_and_not_kept_is_kept_after_a_restart(
    simcord_env: Any,
    db_path: Path,
    bot_settings: dict[str, Any],
    more_bots: list[Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``/ruff new`` posts the lobby and the bot stops before keeping its id: after the
    restart the lobby is that message (not a second), and when nobody starts it, it
    says it expired (a lobby left open would still invite players to a table that is
    gone)."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("ruff")
    alice = guild.add_member(env.create_user("alice"))
    stopped = _stop_at(monkeypatch, TableRepo, "set_message")
    await alice.slash(channel, "ruff new", target=3)
    await env.settle()
    assert len(stopped) == 1
    (lobby,) = _table_messages(channel)
    assert (await TableRepo(env.bot.db).require(1)).message_id is None
    _stop_old_bot(env)
    monkeypatch.undo()

    await restart(env, more_bots, make_settings(db_path, **bot_settings))
    await env.settle()

    assert [m.id for m in _table_messages(channel)] == [lobby.id]
    assert env.bot.manager.tables[1].message_id == lobby.id
    assert (await TableRepo(env.bot.db).require(1)).message_id == lobby.id
    await env.advance_time(LOBBY + 5)
    await env.settle()
    (expired,) = [m for m in channel.history() if m.id == lobby.id]
    assert "expired before it started" in message_text(expired)
    assert [m.id for m in channel.history() if "table #1" in message_text(m)] == [lobby.id]


async def test_a_rematch_posted_and_not_kept_is_kept_after_a_restart(
    simcord_env: Any,
    db_path: Path,
    more_bots: list[Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rematch's table message is posted and the bot stops before keeping its id:
    after the restart that message is the table's and is kept current (before, it
    stayed as first posted while the game went on in the DMs)."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "ruff new", game="whist-5")
    for _ in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Start")
    first = env.bot.manager.tables[1]
    for _ in range(400):
        game = first.game
        if first.status == "finished" or game is None or game.is_over:
            break
        assert game.to_act() == 0, "the AI players never keep alice waiting"
        await act_on(alice.user, hand_message(alice), choose(game.observe(0)))
        await env.settle()
    assert first.status == "finished"
    old_threads = [t.id for t in channel.threads]
    stopped = _stop_at(monkeypatch, TableRepo, "set_message")
    await alice.click(table_message(channel), label="Rematch")
    await env.settle()
    assert len(stopped) == 1
    rematch = env.bot.manager.tables[2]
    posted = [m for m in channel.history() if "table #2" in message_text(m)]
    assert len(posted) == 1 and rematch.message_id is None
    assert rematch.game is not None
    before = list(rematch.game.log)
    _stop_old_bot(env)
    monkeypatch.undo()

    await restart(env, more_bots, make_settings(db_path))
    await env.settle()

    rematch = env.bot.manager.tables[2]
    (shown,) = [m for m in channel.history() if "table #2" in message_text(m)]
    assert shown.id == posted[0].id and rematch.message_id == shown.id
    # nothing lost: the AI played on to alice's turn, from where the game stopped
    assert rematch.game is not None and list(rematch.game.log[: len(before)]) == before
    assert (await replay_from_db(env.bot.db, rematch)).state_key() == rematch.game.state_key()
    assert [t.id for t in channel.threads] == old_threads  # the first game's thread, kept
    assert rematch.thread_id == old_threads[0]
    shown_before = message_text(shown)
    await _move_through_my_hand(env, rematch, shown, {alice.id: alice})
    assert message_text(_message(channel, shown.id)) != shown_before  # kept current
    assert [m.id for m in channel.history() if "table #2" in message_text(m)] == [shown.id]


@pytest.mark.parametrize(
    ("where", "name"),
    [(EventRepo, "set_thread"), (Notifier, "create_thread")],
    ids=["thread made", "seats posted"],
)
async def test_an_event_table_s_public_thread_is_made_once_whenever_the_bot_stopped(
    simcord_env: Any,
    db_path: Path,
    more_bots: list[Any],
    monkeypatch: pytest.MonkeyPatch,
    where: type,
    name: str,
) -> None:
    """Where the bot may not make private threads, a table's thread is a public one
    started from a message naming the seats. The bot stops after that message was
    posted (before its thread), or after the thread was made (before its id was
    kept): after the restart there is one such message, one thread started from it,
    and one table message there, live."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    channel = guild.create_text_channel(
        "events",
        overwrites={env.bot.user: discord.PermissionOverwrite(create_private_threads=False)},
    )
    members = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat", "dan")]
    res = await mod.slash(
        channel, "ruff event create", game="whist-5", minutes=60, rounds=1, boards=2
    )
    assert "Event #1 is open" in res.response.content, res.response.content
    for verb in ("Join", "Check in"):
        for m in members:
            registration = next(
                m for m in channel.history() if m.content.startswith("🏆 **Event #1**")
            )
            await m.click(registration, label=verb)
    stopped = _stop_at(monkeypatch, where, name)
    await mod.slash(channel, "ruff event start", event=1)
    await env.settle()
    assert len(stopped) == 1

    def seats_posts() -> list[discord.Message]:
        return [
            m for m in channel.history() if m.content.startswith("Event #1 · round 1 · table 1")
        ]

    assert len(seats_posts()) == 1
    assert len(channel.threads) == (1 if name == "set_thread" else 0)
    (seating,) = await EventRepo(env.bot.db).tables(1, 1)
    assert seating.thread_id == 0
    _stop_old_bot(env)
    monkeypatch.undo()

    await restart(env, more_bots, make_settings(db_path))
    await env.settle()

    assert len(seats_posts()) == 1  # named once
    (thread,) = channel.threads  # one thread, kept
    (seating,) = await EventRepo(env.bot.db).tables(1, 1)
    assert seating.thread_id == thread.id
    table = _event_table(env)
    assert table.channel_id == thread.id
    (shown,) = _table_messages(thread)
    assert table.message_id == shown.id
    await _move_through_my_hand(env, table, shown, {m.id: m for m in members})
    assert [m.id for m in _table_messages(thread)] == [shown.id]


@pytest.mark.parametrize("made", [True, False], ids=["thread made", "thread not made"])
async def test_a_game_s_thread_not_kept_is_kept_or_made_after_a_restart(
    simcord_env: Any,
    db_path: Path,
    more_bots: list[Any],
    monkeypatch: pytest.MonkeyPatch,
    made: bool,
) -> None:
    """A game starts and the bot stops after making its thread (from the table
    message) and before keeping it, or before making it: after the restart the game
    has one thread, the one made if there was one, and its notices go there, not to
    the channel."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "ruff new", game="whist-5")
    for _ in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")
    if made:
        update = TableRepo.update_settings
        stopped: list[Any] = []

        async def stop_at_the_thread(
            self: TableRepo, table_id: int, settings: Any, *args: Any, **kwargs: Any
        ) -> int:
            if "thread_id" in settings:  # keeping the thread: the bot stops here
                stopped.append(settings)
                raise asyncio.CancelledError
            return await update(self, table_id, settings, *args, **kwargs)

        monkeypatch.setattr(TableRepo, "update_settings", stop_at_the_thread)
    else:
        stopped = _stop_at(monkeypatch, Notifier, "create_thread")
    await alice.click(table_message(channel), label="Start")
    await env.settle()
    assert len(stopped) == 1
    table = env.bot.manager.tables[1]
    assert table.settings.thread_id is None
    assert len(channel.threads) == (1 if made else 0)
    first = [t.id for t in channel.threads]
    _stop_old_bot(env)
    monkeypatch.undo()

    requests = len(env.http_requests)
    await restart(env, more_bots, make_settings(db_path))
    await env.settle()

    table = env.bot.manager.tables[1]
    (thread,) = channel.threads  # one thread ...
    if made:
        assert [thread.id] == first  # ... the one made before the stop
    # made once: Discord refuses a second thread from a message (simcord does not)
    starts = [
        r
        for r in env.http_requests[requests:]
        if r.method == "POST" and r.path.endswith(f"/messages/{table.message_id}/threads")
    ]
    assert len(starts) == (0 if made else 1)
    assert table.thread_id == thread.id
    row = await TableRepo(env.bot.db).require(1)
    assert row.settings.get("thread_id") == thread.id  # and stored
    in_channel = {m.id for m in channel.history()}

    def pinged() -> bool:
        return any("your turn at table #1" in m.content for m in thread.history())

    # alice plays until her turn comes back to her from the others (a trick she wins
    # by her own card gives her the lead at once, and a player just seen clicking is
    # not pinged): at most a deal's cards
    for _ in range(13):
        await _move_through_my_hand(env, table, table_message(channel), {alice.id: alice})
        await env.settle()
        if pinged():
            break
    assert {m.id for m in channel.history()} <= in_channel  # nothing new in the channel ...
    assert pinged()  # ... but here


async def test_two_table_messages_left_by_two_stops_become_one(
    simcord_env: Any, db_path: Path, more_bots: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stops after posting a lobby, then at the restart Discord does not
    answer the look (so a second lobby is posted) and the bot stops again before
    keeping that one: at the next restart the newest is kept and the older deleted."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("ruff")
    alice = guild.add_member(env.create_user("alice"))
    stopped = _stop_at(monkeypatch, TableRepo, "set_message")
    await alice.slash(channel, "ruff new", target=3)
    await env.settle()
    (first,) = _table_messages(channel)
    _stop_old_bot(env)

    async def no_answer(
        self: Notifier, channel_id: int, since: float, cap: int = 0
    ) -> list[discord.Message]:
        raise Unreachable(f"history of {channel_id}", TimeoutError())

    monkeypatch.setattr(Notifier, "own_since", no_answer)
    await restart(env, more_bots, make_settings(db_path))
    await env.settle()
    assert len(stopped) == 2
    older, newer = _table_messages(channel)
    assert older.id == first.id
    _stop_old_bot(env)
    monkeypatch.undo()

    await restart(env, more_bots, make_settings(db_path))
    await env.settle()

    assert [m.id for m in _table_messages(channel)] == [newer.id]  # one lobby: the newest
    assert env.bot.manager.tables[1].message_id == newer.id
    bob = guild.add_member(env.create_user("bob"))
    res = await bob.click(_message(channel, newer.id), label="Join")
    assert res.acknowledged and not res.ephemeral, res
    assert "bob" in message_text(_message(channel, newer.id))


def _registrations(channel: Any) -> list[discord.Message]:
    return [m for m in channel.history() if m.content.startswith("🏆 **Event #1**")]


@pytest.mark.parametrize(
    ("create", "joined"),
    [
        ({"minutes": 60, "rounds": 1, "boards": 2}, "You are registered"),
        ({"format": "async", "boards": 2, "deadline": "36h", "starts_in": 60}, "You are in"),
    ],
    ids=["rounds", "async"],
)
async def test_a_registration_message_posted_and_not_kept_is_kept_after_a_restart(
    simcord_env: Any,
    db_path: Path,
    more_bots: list[Any],
    monkeypatch: pytest.MonkeyPatch,
    create: dict[str, Any],
    joined: str,
) -> None:
    """``/ruff event create`` posts the registration message and the bot stops before
    keeping its id; a member joins by it meanwhile (accepted, the message unchanged:
    no id to edit). After the restart the message is found and kept — not a second
    posted — it shows who joined, and a join by it is accepted and shown."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    channel = guild.create_text_channel("events")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    stopped = _stop_at(monkeypatch, EventRepo, "set_message")
    await mod.slash(channel, "ruff event create", game="whist-5", **create)
    await env.settle()
    assert len(stopped) == 1
    (posted,) = _registrations(channel)
    assert (await EventRepo(env.bot.db).get(1)).message_id is None  # type: ignore[union-attr]
    monkeypatch.undo()
    res = await ann.click(posted, label="Join")
    assert res.ephemeral and joined in res.response.content, res.response.content
    await env.settle()
    assert "ann" not in _message(channel, posted.id).content  # stale: nothing to edit

    requests = len(env.http_requests)
    await restart(env, more_bots, make_settings(db_path))
    await env.settle()
    assert _reads(env, requests) == [f"/channels/{channel.id}/messages"]  # one look

    assert [m.id for m in _registrations(channel)] == [posted.id]  # shown once
    assert (await EventRepo(env.bot.db).get(1)).message_id == posted.id  # type: ignore[union-attr]
    assert "ann" in _message(channel, posted.id).content  # brought up to date
    res = await bob.click(_message(channel, posted.id), label="Join")
    assert res.ephemeral and joined in res.response.content, res.response.content
    await env.settle()
    assert [m.id for m in _registrations(channel)] == [posted.id]
    shown = _message(channel, posted.id).content
    assert "ann" in shown and "bob" in shown  # the join shown on it


async def test_a_started_bot_reads_nothing_for_a_kept_registration_message(
    simcord_env: Any, db_path: Path, more_bots: list[Any]
) -> None:
    """A registration message whose id is kept: a restart posts none and reads no
    channel for it (the look is only where the id is missing)."""
    env = simcord_env
    channel, _mod, _members = await _event_of_four(env)
    (posted,) = _registrations(channel)
    requests = len(env.http_requests)
    await restart(env, more_bots, make_settings(db_path))
    await env.settle()
    assert _reads(env, requests) == []
    assert [m.id for m in _registrations(channel)] == [posted.id]


async def test_a_registration_message_kept_by_a_start_up_meanwhile_is_not_deleted(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start-up (a second process's, played here by the events feature's start)
    runs between ``/ruff event create``'s post and its keeping of the id: it finds the
    message and keeps it; create's own keeping then changes nothing and leaves it —
    one registration message, live."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    channel = guild.create_text_channel("events")
    ann = guild.add_member(env.create_user("ann"))
    (events,) = [f for f in env.bot.features if f.name == "events"]
    keep = EventRepo.set_message
    kept: list[bool] = []

    async def started_meanwhile(self: EventRepo, event_id: int, message_id: int) -> bool:
        if not kept:
            kept.append(True)
            await events.start()  # finds the posted message, keeps it
        done = await keep(self, event_id, message_id)
        kept.append(done)
        return done

    monkeypatch.setattr(EventRepo, "set_message", started_meanwhile)
    res = await mod.slash(
        channel, "ruff event create", game="whist-5", minutes=60, rounds=1, boards=2
    )
    assert "Event #1 is open" in res.response.content, res.response.content
    await env.settle()
    assert kept == [True, True, False]  # the start-up's keeping, then create's: none
    (posted,) = _registrations(channel)
    assert (await EventRepo(env.bot.db).get(1)).message_id == posted.id  # type: ignore[union-attr]
    res = await ann.click(posted, label="Join")
    assert "You are registered" in res.response.content, res.response.content
    await env.settle()
    assert "ann" in _message(channel, posted.id).content


@pytest.mark.parametrize("bot_settings", [{"event_sweep_every": 2.0, "lease_seconds": 0.5}])
async def test_a_registration_message_left_by_a_process_that_died_is_kept_by_a_running_one(
    simcord_env: Any, bot_settings: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Several processes: the one that posted the registration message dies before
    keeping its id (its task ends there) while this one keeps running, and nobody
    starts. Within a sweep the running process finds the message and keeps it — one
    read, no second message — and a join by it is shown on it."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    channel = guild.create_text_channel("events")
    ann = guild.add_member(env.create_user("ann"))
    stopped = _stop_once(monkeypatch, EventRepo, "set_message")
    requests = len(env.http_requests)
    await mod.slash(channel, "ruff event create", game="whist-5", minutes=60, rounds=1, boards=2)
    await env.settle()  # the sweep's sleep passes: no restart, the running process's sweep
    assert len(stopped) == 1
    (posted,) = _registrations(channel)
    assert (await EventRepo(env.bot.db).get(1)).message_id == posted.id  # type: ignore[union-attr]
    assert _reads(env, requests) == [f"/channels/{channel.id}/messages"]  # one look
    assert [m.id for m in _registrations(channel)] == [posted.id]  # shown once
    res = await ann.click(_message(channel, posted.id), label="Join")
    assert "You are registered" in res.response.content, res.response.content
    await env.settle()
    assert "ann" in _message(channel, posted.id).content


async def test_a_start_up_looks_only_for_its_own_servers_fresh_registrations(
    simcord_env: Any, db_path: Path, more_bots: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A registration message posted and not kept, on a server of another process's
    shard, the event fresh (its own process may be keeping the id right now): a
    start-up of this process neither reads nor posts for it. The process holding the
    server's shard does, at its start-up."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    channel = guild.create_text_channel("events")
    stopped = _stop_at(monkeypatch, EventRepo, "set_message")
    await mod.slash(channel, "ruff event create", game="whist-5", minutes=60, rounds=1, boards=2)
    await env.settle()
    assert len(stopped) == 1
    (posted,) = _registrations(channel)
    monkeypatch.undo()
    shard = shard_of(guild.id, 2)

    async def start_as(shard_id: int) -> None:
        settings = make_settings(db_path, shard_count=2, shard_ids=(shard_id,))
        new = RuffBot(settings)  # the gateway unsharded here; the shards it holds, said
        more_bots.append(new)
        old = env.bot
        await env.restart_bot(new)
        await old.close()
        await env.settle()

    requests = len(env.http_requests)
    await start_as(1 - shard)  # another shard's process
    assert _reads(env, requests) == []
    assert [m.id for m in _registrations(channel)] == [posted.id]
    assert (await EventRepo(env.bot.db).get(1)).message_id is None  # type: ignore[union-attr]

    requests = len(env.http_requests)
    await start_as(shard)  # the server's own
    assert _reads(env, requests) == [f"/channels/{channel.id}/messages"]
    assert [m.id for m in _registrations(channel)] == [posted.id]
    assert (await EventRepo(env.bot.db).get(1)).message_id == posted.id  # type: ignore[union-attr]


CHAT = 160  # messages the members post after the lobby and the registration


@pytest.mark.parametrize("bot_settings", [{"lobby_timeout": LOBBY}])
async def test_posts_not_kept_are_found_in_a_busy_channel_after_a_restart(
    simcord_env: Any,
    db_path: Path,
    bot_settings: dict[str, Any],
    more_bots: list[Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A lobby and an event's registration message are posted and the bot stops before
    keeping either id; the members go on chatting ({CHAT} messages) while it is down.
    After the restart both are found and kept — the look reads the channel from the
    moment each was posted, not only its latest 50 — and neither is posted twice."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    channel = guild.create_text_channel("ruff")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    tables = _stop_at(monkeypatch, TableRepo, "set_message")
    events = _stop_at(monkeypatch, EventRepo, "set_message")
    await alice.slash(channel, "ruff new", target=3)
    await mod.slash(channel, "ruff event create", game="whist-5", minutes=60, rounds=1, boards=2)
    await env.settle()
    assert len(tables) == 1 and len(events) == 1
    (lobby,) = _table_messages(channel)
    (registration,) = _registrations(channel)
    _stop_old_bot(env)
    monkeypatch.undo()
    for n in range(CHAT):
        await (alice if n % 2 else bob).send(channel, f"chat {n}")
    assert len([m for m in channel.history() if m.content.startswith("chat ")]) == CHAT

    requests = len(env.http_requests)
    await restart(env, more_bots, make_settings(db_path, lobby_timeout=LOBBY))
    await env.settle()
    reads = _reads(env, requests)
    assert reads and set(reads) == {f"/channels/{channel.id}/messages"}
    assert len(reads) <= 4  # two looks, each of a page or two

    assert [m.id for m in _table_messages(channel)] == [lobby.id]  # shown once
    assert (await TableRepo(env.bot.db).require(1)).message_id == lobby.id
    assert [m.id for m in _registrations(channel)] == [registration.id]
    assert (await EventRepo(env.bot.db).get(1)).message_id == registration.id  # type: ignore[union-attr]
    res = await bob.click(_message(channel, lobby.id), label="Join")  # the lobby's live
    assert res.acknowledged, res
    await env.settle()
    assert "bob" in message_text(_message(channel, lobby.id))
