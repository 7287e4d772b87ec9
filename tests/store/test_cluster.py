"""The cluster's guarantees, step by step, with two bot processes' managers (each
with its own asyncpg pool and lease name) on one real PostgreSQL: a stale copy
never writes (it catches up and the click is checked again), an AI or timer move
is written only by the lease holder, a click is taken by a process that never
held the table, and the lease holder follows what others commit."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.app.manager import GameManager
from bot.cluster.sync import LeaseLost
from bot.config import Settings
from bot.discord_ui.shown import shown as shown_of
from bot.store import Database
from bot.tables.aipool import AIPool
from bot.tables.commit import commit
from bot.tables.sync import TableBehind
from tools.bench import StubDiscord, policy
from tools.bench_scale import guild_on_shard

pytestmark = pytest.mark.slow  # left out by `make test-fast`


class Process:
    def __init__(self, manager: GameManager, db: Database, discord_: StubDiscord) -> None:
        self.manager, self.db, self.discord = manager, db, discord_

    def interaction(self, user: int, guild: int | None = None, channel: int = 0) -> Any:
        from tools.bench import _Stub

        g = _Stub(id=guild, name="g") if guild is not None else None
        return self.discord.interaction(user, g, _Stub(id=channel, name="c"))


@pytest.fixture
async def two(pg_url: str) -> AsyncIterator[list[Process]]:
    procs: list[Process] = []
    for i in range(2):
        settings = Settings(
            database=pg_url,
            ai_delay=3600.0,
            turn_timeout=0.0,
            lobby_timeout=0.0,
            table_edit_interval=0.0,
            ai_mode="inline",
            ai_worlds=4,
            pictures=False,
            shard_count=2,
            shard_ids=(i,),
            lease_seconds=30.0,
            process_name=f"p{i}",
        )
        db = await Database.open(pg_url)
        discord_ = StubDiscord((0.0, 0.0))
        manager = GameManager(discord_, db, settings, ai=AIPool(1, mode="inline", worlds=4))  # type: ignore[arg-type]
        await manager.resume()
        procs.append(Process(manager, db, discord_))
    yield procs
    for p in procs:
        await p.manager.close()
        await p.db.close()
        await p.manager.services.ai.close()


async def _open(p: Process, users: list[int]) -> int:
    guild, channel = guild_on_shard(0), 77
    m = p.manager
    await m.new_table(p.interaction(users[0], guild, channel), "ruff-honours-cotton", None, 1, None)
    table = m.tables.open_in_channel(channel)
    assert table is not None
    for u in users[1:]:
        await m.on_table_button(p.interaction(u, guild, channel), table.id, "join")
    await m.on_table_button(p.interaction(users[0], guild, channel), table.id, "start")
    for _ in range(100):  # the claim of a new table lands in the background
        if p.manager.cluster and p.manager.cluster.owns(table.id):
            break
        await asyncio.sleep(0.01)
    return table.id


async def _click(
    p: Process, table_id: int, user: int, version: int, seat: int, actions: list[Any]
) -> tuple[str, str]:
    """A click in process ``p`` with the button's table, version and seat; (answer kind, text)."""
    interaction = p.interaction(user)
    answers: list[tuple[str, str]] = []

    async def hand(**kw: Any) -> None:
        answers.append(("hand", str(kw.get("content", ""))))

    async def refused(text: str, **_: Any) -> None:
        answers.append(("refused", text))

    interaction.response.edit_message = hand
    interaction.response.send_message = refused
    await p.manager.on_action(interaction, table_id, version, seat, actions)
    return answers[0]


async def _b_behind(
    a: Process, b: Process, first_user: int
) -> tuple[int, Any, Any, int, list[Any]]:
    """A four-human table opened in ``a``, a copy of it loaded in ``b``, then a's move
    (the first seat's policy card): b's copy is one move behind. (table id, a's table,
    b's table, the seat that moved, its actions)."""
    table_id = await _open(a, [first_user + k for k in range(4)])
    b_table = await b.manager.cluster.current(table_id, None)  # type: ignore[union-attr]
    assert b_table is not None
    a_table = a.manager.tables[table_id]
    seat = a_table.game.to_act()
    action = policy(a_table.game.observe(seat))[:1]
    async with a_table.lock:
        await commit(a.manager.services, a_table, seat, action, first_user + seat)
    return table_id, a_table, b_table, seat, action


async def _count(p: Process, table_id: int) -> int:
    return int(await p.db.fetchval("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table_id,)))


async def test_a_click_in_a_process_that_never_held_the_table_counts_once(
    two: list[Process],
) -> None:
    a, b = two
    table_id = await _open(a, [11, 12, 13, 14])  # four humans: no AI, no timers
    cluster_a = a.manager.cluster
    assert cluster_a is not None and cluster_a.owns(table_id)
    assert b.manager.tables.get(table_id) is None
    game = a.manager.tables[table_id].game
    seat = game.to_act()
    actions = policy(game.observe(seat))[:1]
    user = 11 + seat

    # process b has no copy: it loads the table for the click and plays it
    kind, text = await _click(b, table_id, user, 0, seat, actions)
    assert (
        kind == "hand"
        and text == b.manager.presenter.hands.hand(b.manager.tables[table_id], seat)[0]
    )
    assert await _count(a, table_id) == 1
    # the owner follows through NOTIFY: its copy moves on by itself
    for _ in range(300):
        if a.manager.tables[table_id].game.version == 1:
            break
        await asyncio.sleep(0.01)
    assert a.manager.tables[table_id].game.version == 1
    # the same click (a double click) reaching process a: told, not applied again
    kind, text = await _click(a, table_id, user, 0, seat, actions)
    assert kind == "refused" and "Already played" in text
    assert await _count(a, table_id) == 1


async def test_a_double_click_whose_first_half_another_process_took_is_told_already_played(
    two: list[Process],
) -> None:
    a, b = two
    table_id = await _open(a, [11, 12, 13, 14])
    assert b.manager.tables.get(table_id) is None
    game = a.manager.tables[table_id].game
    seat = game.to_act()
    actions = policy(game.observe(seat))[:1]
    user = 11 + seat
    kind, _ = await _click(a, table_id, user, 0, seat, actions)  # the owner takes the first click
    assert kind == "hand"
    # the second click reaches process b, which loads the table only now
    kind, text = await _click(b, table_id, user, 0, seat, actions)
    assert kind == "refused" and "Already played" in text, text
    assert await _count(a, table_id) == 1


async def test_commits_of_a_copy_behind_or_without_the_lease_write_nothing(
    two: list[Process],
) -> None:
    a, b = two
    table_id, a_table, b_table, seat, action = await _b_behind(a, b, 21)
    # a moved first; b's copy is behind: its commit writes nothing
    with pytest.raises(TableBehind):
        async with b_table.lock:
            await commit(b.manager.services, b_table, seat, action, 21 + seat)
    assert await _count(a, table_id) == 1
    await b.manager.cluster.catch_up(b_table)  # type: ignore[union-attr]
    assert b_table.game.version == a_table.game.version == 1

    # an AI (or timer) move needs the lease: b does not hold it
    nxt = b_table.game.to_act()
    move = policy(b_table.game.observe(nxt))[:1]
    with pytest.raises(LeaseLost):
        async with b_table.lock:
            await commit(b.manager.services, b_table, nxt, move, None)
    # nor does a, once b took the lease over (a's lease ran out, say)
    await a.db.execute(
        "UPDATE table_leases SET owner = ?, expires_at = expires_at + 60 WHERE table_id = ?",
        (b.manager.cluster.name, table_id),  # type: ignore[union-attr]
    )
    with pytest.raises(LeaseLost):
        async with a_table.lock:
            await commit(a.manager.services, a_table, nxt, move, None)
    assert not a.manager.cluster.owns(table_id)  # type: ignore[union-attr]
    assert await _count(a, table_id) == 1
    # the lease holder's AI move is written; a human's click needs no lease
    async with b_table.lock:
        await commit(b.manager.services, b_table, nxt, move, None)
    assert await _count(a, table_id) == 2


async def test_a_concession_from_a_copy_behind_is_checked_again_after_catching_up(
    two: list[Process],
) -> None:
    a, b = two
    table_id, a_table, b_table, _, _ = await _b_behind(a, b, 31)
    await asyncio.sleep(0.2)
    # the notification of a's move still on its way: b does not know its copy is behind
    b.manager.cluster.stale.discard(table_id)  # type: ignore[union-attr]
    assert b_table.game.version == 0
    answers: list[str] = []
    interaction = b.interaction(31)  # seat 0 proposes to concede, through process b

    async def sent(text: str, **_: Any) -> None:
        answers.append(text)

    interaction.response.send_message = sent
    await b.manager.on_table_button(interaction, table_id, "concede")  # asked privately first
    assert answers and answers[0].startswith("Propose to concede the game?"), answers
    assert b_table.game.version == 0
    await b.manager.on_table_button(interaction, table_id, "concede-yes")
    assert "proposed to concede" in answers[-1], answers
    assert b_table.game.version == 2  # caught up, then the proposal stored on top
    rows = await a.db.fetchall(
        "SELECT seq, action FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
    )
    assert [r["action"] for r in rows][1:] == ["concede"]


async def test_a_copy_and_a_takeover_restore_the_snapshot_and_replay_only_the_tail(
    two: list[Process], monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.tables.resume as resume_module
    from bot.tables.commit import SNAPSHOT_EVERY

    a, b = two
    table_id = await _open(a, [11, 12, 13, 14])
    a_table = a.manager.tables[table_id]
    while a_table.game.version < SNAPSHOT_EVERY + 3:
        seat = a_table.game.to_act()
        async with a_table.lock:
            await commit(
                a.manager.services, a_table, seat, policy(a_table.game.observe(seat))[:1], 11 + seat
            )
    used: list[int] = []
    real_restore = resume_module.restore

    def restore(table: Any, record: Any, snapshot: Any) -> Any:
        game = real_restore(table, record, snapshot)
        if game is not None:
            used.append(snapshot.seq)
        return game

    monkeypatch.setattr(resume_module, "restore", restore)
    cluster_b = b.manager.cluster
    assert cluster_b is not None
    copy = await cluster_b.current(table_id, None)  # a copy for a click
    assert copy is not None and copy.game.state_key() == a_table.game.state_key()
    assert used == [SNAPSHOT_EVERY]
    b.manager.tables._tables.pop(table_id)  # b forgets its copy: the takeover loads anew
    await cluster_b._adopt([table_id])  # taken over, as from a process that died
    taken = b.manager.tables[table_id]
    assert taken is not copy and taken.game.state_key() == a_table.game.state_key()
    assert used == [SNAPSHOT_EVERY, SNAPSHOT_EVERY]


async def test_a_my_hand_copy_shown_by_a_process_that_does_not_own_the_table_follows_the_game(
    two: list[Process],
) -> None:
    import datetime

    from tools.bench import _Stub

    a, b = two
    table_id = await _open(a, [51, 52, 53, 54])
    a_table = a.manager.tables[table_id]
    watcher = 51 + (a_table.game.to_act() + 1) % 4  # a player whose turn is next but one
    seat = watcher - 51
    # the watcher presses "My hand" on the table; the click reaches process b
    edits: list[str] = []
    interaction = b.interaction(watcher, guild_on_shard(0), 77)

    async def sent(content: str, **_: Any) -> Any:
        return _Stub(message_id=9_001)

    async def edit_message(message_id: int, **kw: Any) -> None:
        assert message_id == 9_001
        edits.append(str(kw.get("content", "")))

    interaction.response.send_message = sent
    interaction.followup = _Stub(send=None, edit_message=edit_message)
    interaction.expires_at = discord_now() + datetime.timedelta(minutes=15)
    await b.manager.on_table_button(interaction, table_id, "hand")
    b_table = b.manager.tables[table_id]
    assert shown_of(b_table).fallback[seat] and not b.manager.cluster.owns(table_id)  # type: ignore[union-attr]

    # the owner's player moves: the copy shown by b is edited to the hand as it is now
    mover = a_table.game.to_act()
    async with a_table.lock:
        await commit(
            a.manager.services, a_table, mover, policy(a_table.game.observe(mover))[:1], 51 + mover
        )
    for _ in range(300):
        if edits:
            break
        await asyncio.sleep(0.01)
    assert edits, "the My hand copy was not edited"
    assert b_table.game.version == 1
    assert edits[-1] == b.manager.presenter.hands.hand(b_table, seat)[0]


async def test_a_lobby_button_in_a_process_behind_catches_up_and_decides_again(
    two: list[Process],
) -> None:
    a, b = two
    guild, channel = guild_on_shard(0), 78
    await a.manager.new_table(
        a.interaction(61, guild, channel), "ruff-honours-cotton", None, 1, None
    )
    a_table = a.manager.tables.open_in_channel(channel)
    assert a_table is not None
    table_id = a_table.id
    b_table = await b.manager.cluster.current(table_id, None)  # type: ignore[union-attr]
    assert b_table is not None and b_table.status == "lobby"
    # 62 joins through a; the notification still on its way, b's copy is behind
    await a.manager.on_table_button(a.interaction(62, guild, channel), table_id, "join")
    await asyncio.sleep(0.2)
    b.manager.cluster.stale.discard(table_id)  # type: ignore[union-attr]
    assert b_table.seats[1] is None

    answers: list[tuple[str, str]] = []
    interaction = b.interaction(63, guild, channel)

    async def edited(**kw: Any) -> None:
        answers.append(("lobby", str(kw.get("content", ""))))

    async def refused(text: str, **_: Any) -> None:
        answers.append(("refused", text))

    interaction.response.edit_message = edited
    interaction.response.send_message = refused
    await b.manager.on_table_button(interaction, table_id, "join")
    assert answers and answers[0][0] == "lobby", answers
    row = await a.db.fetchone("SELECT seats FROM tables WHERE id = ?", (table_id,))
    import json

    assert [s and s.get("user_id") for s in json.loads(row["seats"])] == [61, 62, 63, None]
    assert [getattr(s, "user_id", None) for s in b_table.seats] == [61, 62, 63, None]


def discord_now() -> Any:
    import discord

    return discord.utils.utcnow()


async def test_a_watcher_in_a_process_that_does_not_run_the_table_hears_its_moves(
    two: list[Process],
) -> None:
    """A web page open on a table in process b, which a runs: b holds a copy, watches
    its feed (as ``bot.web.front`` does), and hears every move a makes — with the
    public state as it is after each, and no hand but its own seat's."""
    a, b = two
    table_id = await _open(a, [61, 62, 63, 64])  # four humans: no AI, no timers
    assert a.manager.cluster is not None and a.manager.cluster.owns(table_id)
    b_svc = b.manager.services
    b_table = await b_svc.current_table(table_id)  # a copy, as a page opening loads it
    assert b_table is not None and not b.manager.cluster.owns(table_id)  # type: ignore[union-attr]
    heard: list[tuple[int, int, dict[str, Any]]] = []
    stop = b_svc.feed.watch(
        table_id,
        lambda t, events: heard.append((t.version, len(events), t.public_state())),
    )
    a_table = a.manager.tables[table_id]
    for n in range(1, 4):
        mover = a_table.game.to_act()
        async with a_table.lock:
            await commit(
                a.manager.services,
                a_table,
                mover,
                policy(a_table.game.observe(mover))[:1],
                61 + mover,
            )
        for _ in range(300):
            if len(heard) >= n:
                break
            await asyncio.sleep(0.01)
        assert [v for v, _count, _state in heard] == list(range(1, n + 1)), heard
    version, count, state = heard[-1]
    assert count > 0 and state["version"] == a_table.version == b_table.version == 3
    assert state["game"]["trick"] == a_table.public_state()["game"]["trick"]
    assert b_table.game.state_key() == a_table.game.state_key()
    stop()
    # no page watches any more: b no longer follows the table by itself
    mover = a_table.game.to_act()
    async with a_table.lock:
        await commit(
            a.manager.services, a_table, mover, policy(a_table.game.observe(mover))[:1], 61 + mover
        )
    await asyncio.sleep(0.3)
    assert len(heard) == 3 and b_table.version == 3


async def test_a_web_page_served_by_a_process_that_does_not_run_the_table_follows_it(
    two: list[Process],
) -> None:
    """The web table served by process b, a page opened on the channel whose table
    process a runs: b loads a copy for the page, and every move a makes reaches the
    page as the public state after it."""
    import aiohttp

    from bot.web.server import WebTable
    from tests.bot.test_web_front import base_of, open_page, session_for, web_settings

    a, b = two
    table_id = await _open(a, [71, 72, 73, 74])  # four humans: no AI, no timers
    assert b.manager.tables.get(table_id) is None  # b has never seen it
    server = WebTable(b.manager.services, web_settings(), None)
    await server.start()
    tasks: list[asyncio.Task[None]] = []
    try:
        base = base_of(server)
        async with aiohttp.ClientSession() as http:
            page = await open_page(http, base, await session_for(base, 999, 77), tasks)
            assert page.state is not None and page.state["table_id"] == table_id
            assert page.state["version"] == 0 and page.seat is None  # a spectator
            a_table = a.manager.tables[table_id]
            for n in range(1, 4):
                mark = len(page.frames)
                mover = a_table.game.to_act()
                async with a_table.lock:
                    await commit(
                        a.manager.services,
                        a_table,
                        mover,
                        policy(a_table.game.observe(mover))[:1],
                        71 + mover,
                    )
                # the move comes as a delta on the page's document (or a whole state)
                async with asyncio.timeout(10):
                    while not any(f["type"] in ("state", "delta") for f in page.frames[mark:]):
                        page.changed.clear()
                        await page.changed.wait()
                assert page.state is not None and page.state["version"] == n, page.frames[mark:]
            assert page.state["game"]["trick"] == a_table.public_state()["game"]["trick"]
            await page.ws.close()
        for task in tasks:
            await task
    finally:
        await server.close()
