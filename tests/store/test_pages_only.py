"""The pages-only process (``python -m bot --pages-only``, bot/app/pages.py) beside a
game process on one real PostgreSQL: the real discord.py bot, logged in over HTTP to a
fake Discord on loopback (so it is seen to ask for no gateway), serving the web table.
A page signed in through the real OAuth2 exchange sees the table the game process runs
and its moves; a move from the page is committed and the game process follows it and
shows it; a Start or a Rematch pressed on a page plays at once, the game process
editing the hand DMs the pages' process sent (told over PostgreSQL, not at a lease
round); the pages' process never holds a lease, not even one that ran out or of a
table nobody holds. And the refusals: SQLite, no web settings."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web

from bot.app.client import RuffBot, create_bot
from bot.app.manager import GameManager
from bot.app.pages import serve
from bot.config import Settings
from bot.store import Database
from bot.tables.aipool import AIPool
from bot.tables.commit import commit
from tests.bot.test_web_front import Page, open_page
from tests.store.test_cluster import Process, _open, two  # noqa: F401 (the game process)
from tools.bench import StubDiscord, policy
from tools.bench_scale import guild_on_shard

pytestmark = pytest.mark.slow  # left out by `make test-fast`

ROOT = Path(__file__).resolve().parents[2]
USERS = [71, 72, 73, 74]  # the table's four humans (tests.store.test_cluster._open: channel 77)
APP = 99


class FakeDiscord:
    """Discord's REST API on loopback: the bot's HTTP login (``/users/@me`` with the
    bot token, ``/oauth2/applications/@me``) and the web table's sign-in (the OAuth2
    code exchange, the user, the activity instance in channel 77). Every path asked
    is kept, so a gateway request would show."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.url = ""
        self._runner: web.AppRunner | None = None
        self.user, self.channel = USERS[0], 77  # who signs in, and the Activity's channel
        self.sent: dict[int, list[int]] = {}  # channel id -> ids of the messages posted there
        self.dms: set[int] = set()  # the DM channels opened
        self.dm_latency = 0.0  # seconds a DM takes (Discord's REST answers in 50-300 ms)
        self._ids = 10**15

    async def start(self) -> None:
        app = web.Application()

        @web.middleware
        async def keep(request: web.Request, handler: Any) -> web.StreamResponse:
            self.asked.append(f"{request.method} {request.path}")
            response: web.StreamResponse = await handler(request)
            return response

        app.middlewares.append(keep)
        app.router.add_get("/users/@me", self._me)
        app.router.add_get("/oauth2/applications/@me", self._application)
        app.router.add_post("/oauth2/token", self._token)
        app.router.add_get("/applications/{app}/activity-instances/{instance}", self._instance)
        # what a start from a page sends: DMs, the table message's edit
        app.router.add_post("/users/@me/channels", self._dm_channel)
        app.router.add_post("/channels/{channel}/messages", self._post)
        app.router.add_patch("/channels/{channel}/messages/{message}", self._edit)
        # a Cancel from a page by someone else than the opener: their Manage Server
        app.router.add_get("/guilds/{guild}", self._guild)
        app.router.add_get("/guilds/{guild}/members/{user}", self._member)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{self._runner.addresses[0][1]}"

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _me(self, request: web.Request) -> web.Response:
        auth = request.headers.get("Authorization")
        if auth == "Bot bot-token":
            return _json(
                {
                    "id": str(APP),
                    "username": "Ruff",
                    "discriminator": "0",
                    "avatar": None,
                    "bot": True,
                }
            )
        if auth == "Bearer user-token":
            return _json({"id": str(self.user), "username": "ann", "global_name": "Ann"})
        return _json({"message": "401: Unauthorized", "code": 0}, status=401)

    async def _application(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != "Bot bot-token":
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        owner = {"id": "1", "username": "owner", "discriminator": "0", "avatar": None}
        return _json(
            {
                "id": str(APP),
                "name": "Ruff",
                "icon": None,
                "description": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": owner,
                "verify_key": "k",
                "flags": 0,
            }
        )

    async def _token(self, request: web.Request) -> web.Response:
        form = await request.post()
        if form.get("code") != "good-code" or form.get("client_secret") != "s3cret":
            return _json({"error": "invalid_grant"}, status=400)
        return _json({"access_token": "user-token", "token_type": "Bearer"})

    async def _instance(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != "Bot bot-token":
            return _json({}, status=401)
        return _json(
            {
                "location": {"channel_id": str(self.channel), "guild_id": "1"},
                "users": [str(self.user)],
            }
        )

    MANAGERS = {95}  # members with the "Manage Server" role (role 5)

    async def _guild(self, request: web.Request) -> web.Response:
        guild = request.match_info["guild"]
        roles = [
            {"id": guild, "name": "@everyone", "permissions": "0", "position": 0},
            {"id": "5", "name": "admins", "permissions": str(1 << 5), "position": 1},
        ]
        for role in roles:
            role |= {"color": 0, "hoist": False, "managed": False, "mentionable": False}
        return _json({"id": guild, "name": "g", "icon": None, "owner_id": "1", "roles": roles})

    async def _member(self, request: web.Request) -> web.Response:
        user = int(request.match_info["user"])
        if user not in (95, 96):
            return _json({"message": "Unknown Member", "code": 10007}, status=404)
        return _json(
            {
                "user": {
                    "id": str(user),
                    "username": f"u{user}",
                    "discriminator": "0",
                    "avatar": None,
                },
                "roles": ["5"] if user in self.MANAGERS else [],
                "joined_at": "2026-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
            }
        )

    def _new_id(self) -> int:
        self._ids += 1
        return self._ids

    async def _dm_channel(self, request: web.Request) -> web.Response:
        recipient = (await request.json())["recipient_id"]
        user = {
            "id": str(recipient),
            "username": f"u{recipient}",
            "discriminator": "0",
            "avatar": None,
        }
        dm = self._new_id()
        self.dms.add(dm)
        return _json({"id": str(dm), "type": 1, "recipients": [user], "last_message_id": None})

    def _message(self, channel: int, message: int) -> dict[str, Any]:
        bot = {
            "id": str(APP),
            "username": "Ruff",
            "discriminator": "0",
            "avatar": None,
            "bot": True,
        }
        return {
            "id": str(message),
            "channel_id": str(channel),
            "author": bot,
            "content": "",
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
        }

    async def _post(self, request: web.Request) -> web.Response:
        channel, message = int(request.match_info["channel"]), self._new_id()
        if channel in self.dms:
            await asyncio.sleep(self.dm_latency)
        self.sent.setdefault(channel, []).append(message)
        return _json(self._message(channel, message))

    async def _edit(self, request: web.Request) -> web.Response:
        return _json(
            self._message(int(request.match_info["channel"]), int(request.match_info["message"]))
        )


def _json(data: Any, status: int = 200) -> web.Response:
    # exactly "application/json", as Discord answers (discord.py parses only that)
    return web.Response(
        body=json.dumps(data).encode(), status=status, content_type="application/json"
    )


@pytest.fixture
async def fake_discord(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    # discord.py's REST base (https://discord.com/api/v10) pointed at the fake
    monkeypatch.setattr(discord.http.Route, "BASE", fake.url)
    try:
        yield fake
    finally:
        await fake.close()


def pages_settings(url: str, api: str, **changes: Any) -> Settings:
    base: dict[str, Any] = {
        "token": "bot-token",
        "database": url,
        "pages_only": True,
        "process_name": "web",
        "web_port": 0,
        "web_host": "127.0.0.1",
        "client_id": APP,
        "client_secret": "s3cret",
        "web_session_secret": "pages-key",
        "web_discord_api": api,
        "web_rate": 1000.0,
        "card_emojis": False,
        "pictures": False,
        "ai_mode": "inline",
        "turn_timeout": 0.0,
        "lobby_timeout": 0.0,
        "table_edit_interval": 0.0,
        "lease_seconds": 0.6,  # its lease rounds come every 0.2 s: plenty of chances to claim
        # the game process's settings, as one environment would give them
        "shard_count": 2,
    }
    base.update(changes)
    return Settings(**base)


@pytest.fixture
async def pages(pg_url: str, fake_discord: FakeDiscord) -> AsyncIterator[RuffBot]:
    """The pages-only bot, logged in and serving, as ``python -m bot --pages-only`` runs it."""
    bot = create_bot(pages_settings(pg_url, fake_discord.url))
    stop = asyncio.Event()
    running = asyncio.create_task(serve(bot, "bot-token", stop))
    async with asyncio.timeout(30):
        while bot.web is None or not bot.web.port:
            if running.done():
                await running  # its error, with its traceback
            await asyncio.sleep(0.02)
    yield bot
    stop.set()
    await asyncio.wait_for(running, 30)


async def sign_in(base: str) -> str:
    """The Activity's sign-in: the OAuth2 code exchanged by the pages' process."""
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{base}/api/token",
            json={"code": "good-code", "instance_id": "i-1"},
            headers={"Origin": base},
        ) as answer,
    ):
        assert answer.status == 200, await answer.text()
        return str((await answer.json())["session"])


async def until(page: Page, check: Any, timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            page.changed.clear()
            await page.changed.wait()


async def test_a_page_on_the_pages_process_plays_the_table_a_game_process_runs(
    two: list[Process],  # noqa: F811
    pages: RuffBot,
    fake_discord: FakeDiscord,
) -> None:
    game = two[0]
    table_id = await _open(game, USERS)  # four humans: no AI, no timers
    assert game.manager.cluster is not None and game.manager.cluster.owns(table_id)
    a_table = game.manager.tables[table_id]
    # logged in over HTTP only: the bot's user and application, never the gateway
    assert fake_discord.asked == ["GET /users/@me", "GET /oauth2/applications/@me"]
    assert pages.user is not None and pages.user.id == APP
    assert pages.shard_count is None and not pages.ws  # no gateway connection
    with pytest.raises(RuntimeError, match="connects to no gateway"):
        await pages.connect()  # nor can it be made to open one
    assert pages.web is not None
    base = f"http://127.0.0.1:{pages.web.port}"
    tasks: list[asyncio.Task[None]] = []
    async with aiohttp.ClientSession() as http:
        page = await open_page(http, base, await sign_in(base), tasks)
        # signed in through Discord's REST API from this process (bot token, user token)
        assert "POST /oauth2/token" in fake_discord.asked
        assert f"GET /applications/{APP}/activity-instances/i-1" in fake_discord.asked
        assert not any("gateway" in path for path in fake_discord.asked)
        assert page.state is not None and page.state["table_id"] == table_id
        assert page.seat == 0 and page.state["version"] == a_table.version

        # moves made in the game process reach the page until it is seat 0's turn
        while a_table.game.to_act() != 0:
            mover = a_table.game.to_act()
            async with a_table.lock:
                await commit(
                    game.manager.services,
                    a_table,
                    mover,
                    policy(a_table.game.observe(mover))[:1],
                    USERS[mover],
                )
            await until(page, lambda: page.state["version"] == a_table.version)  # type: ignore[index]
        assert page.state["game"]["trick"] == a_table.public_state()["game"]["trick"]

        # seat 0 plays from the page: committed here, followed and shown by the game process
        you = page.state["you"]
        assert you is not None and you["my_turn"]
        card = next(a["id"] for a in you["actions"] if a["kind"] == "legal")
        before, calls = a_table.version, game.discord.calls
        mark = await page.send(
            {"type": "act", "version": page.state["version"], "seat": 0, "actions": [card]}
        )
        outcome = await page.next("outcome", mark)
        assert outcome["kind"] == "applied" and outcome["version"] == before + 1, outcome
        count = await game.db.fetchval(
            "SELECT COUNT(*) FROM actions WHERE table_id = ? AND actor_id = ?",
            (table_id, USERS[0]),
        )
        assert count == 1  # durable: the page's move is in the shared log
        async with asyncio.timeout(10):  # the owner follows (notified by the database)
            while a_table.version == before:
                await asyncio.sleep(0.02)
        assert a_table.version == before + 1
        assert a_table.game.state_key() == pages.manager.tables[table_id].game.state_key()
        async with asyncio.timeout(10):  # and shows it in Discord (its table message, hands)
            while game.discord.calls == calls:
                await asyncio.sleep(0.02)
        await until(page, lambda: page.state["version"] == a_table.version)  # type: ignore[index]
        await page.ws.close()
    for task in tasks:
        await task
    # the pages' process held no lease at any moment, and drives nothing
    cluster = pages.manager.cluster
    assert cluster is not None and cluster.owned == {} and cluster.adoptions == 0
    assert not cluster.may_drive(pages.manager.tables[table_id])
    assert (
        await game.db.fetchval("SELECT COUNT(*) FROM table_leases WHERE owner LIKE 'web#%'", ())
        == 0
    )


async def test_the_pages_process_never_takes_a_lease_that_ran_out(
    two: list[Process],  # noqa: F811
    pages: RuffBot,
) -> None:
    game = two[0]
    hung = await _open(game, USERS)
    orphan = await open_in(game, [81, 82, 83, 84], 78)
    assert game.manager.cluster is not None
    assert game.manager.cluster.owns(hung) and game.manager.cluster.owns(orphan)
    # the game process hangs: its renewals stop and its lease of one table runs out
    game.manager.cluster.stop_lease_rounds()
    await game.db.execute(
        "UPDATE table_leases SET expires_at = expires_at - 3600 WHERE table_id = ?", (hung,)
    )
    # the other nobody holds (its lease row gone) and was opened long ago: an "old" table
    await game.db.execute("DELETE FROM table_leases WHERE table_id = ?", (orphan,))
    await game.db.execute(
        "UPDATE tables SET created_at = created_at - 3600 WHERE id = ?", (orphan,)
    )
    cluster = pages.manager.cluster
    assert cluster is not None
    # the pages' process holds copies of both (as pages opening on them would load them)
    for table_id in (hung, orphan):
        copy = await pages.manager.services.current_table(table_id)
        assert copy is not None and not cluster.may_drive(copy)
    other = two[1].manager.cluster
    assert other is not None
    # many of its lease rounds (every 0.2 s), and one more woken by a lease given up
    # (told as a process giving its leases up tells it; under the other game process's
    # own name, which that process does not answer)
    await asyncio.sleep(1.0)
    await game.db.execute("SELECT pg_notify('rh_leases', ?)", (other.name,))
    await asyncio.sleep(0.3)
    assert cluster.owned == {} and cluster.adoptions == 0 and cluster.claiming == set()
    leases = {
        r["table_id"]: r["owner"]
        for r in await game.db.fetchall("SELECT table_id, owner FROM table_leases", ())
    }
    assert orphan not in leases  # nobody holds it: a game process will
    assert leases[hung].startswith("p0#")  # still the hung game process's, run out
    # a game process claims them, as it always did
    await game.db.execute("SELECT pg_notify('rh_leases', 'someone#1')", ())
    async with asyncio.timeout(10):  # woken, its round claims them
        while not (other.owns(hung) and other.owns(orphan)):
            await asyncio.sleep(0.02)


async def open_in(p: Process, users: list[int], channel: int, start: bool = True) -> int:
    """A four-human table opened (and started) in game process ``p`` in ``channel``."""
    guild, m = guild_on_shard(0), p.manager
    await m.new_table(p.interaction(users[0], guild, channel), "ruff-honours-cotton", None, 1, None)
    table = m.tables.open_in_channel(channel)
    assert table is not None
    for u in users[1:]:
        await m.on_table_button(p.interaction(u, guild, channel), table.id, "join")
    if start:
        await m.on_table_button(p.interaction(users[0], guild, channel), table.id, "start")
    async with asyncio.timeout(5):  # the claim of a new table lands in the background
        while m.cluster is None or not m.cluster.owns(table.id):
            await asyncio.sleep(0.01)
    return table.id


def _run_pages_only(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("RH_", "DISCORD_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=ROOT,
        env=clean | {"DISCORD_TOKEN": "not-a-real-token"} | env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_pages_only_process_is_refused_on_sqlite_and_without_web_settings(
    tmp_path: Path,
) -> None:
    web = {"RH_WEB_PORT": "8080", "RH_CLIENT_ID": "99", "DISCORD_CLIENT_SECRET": "s"}
    on_sqlite = _run_pages_only({"RH_DATABASE": str(tmp_path / "ruff.db")} | web, "--pages-only")
    assert on_sqlite.returncode == 2, on_sqlite
    assert "--pages-only needs RH_DATABASE to be a postgresql:// URL" in on_sqlite.stderr
    pg = {"RH_DATABASE": "postgresql://ruff@127.0.0.1:1/ruff"}
    no_port = _run_pages_only(pg | {"RH_PAGES_ONLY": "on"})  # the setting, not the flag
    assert no_port.returncode == 2, no_port
    assert "set RH_WEB_PORT" in no_port.stderr
    no_sign_in = _run_pages_only(pg | {"RH_WEB_PORT": "8080"}, "--pages-only")
    assert no_sign_in.returncode == 2, no_sign_in
    assert "set RH_CLIENT_ID and DISCORD_CLIENT_SECRET" in no_sign_in.stderr
    no_secret = _run_pages_only(pg | {"RH_WEB_PORT": "8080", "RH_CLIENT_ID": "99"}, "--pages-only")
    assert no_secret.returncode == 2 and "set DISCORD_CLIENT_SECRET" in no_secret.stderr
    assert not (tmp_path / "ruff.db").exists()  # refused before opening anything


async def test_a_game_started_from_a_page_on_the_pages_process_keeps_its_hand_dms_moving(
    two: list[Process],  # noqa: F811
    pages: RuffBot,
    fake_discord: FakeDiscord,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The lobby's Start pressed on a page: the pages' process starts the game and DMs
    every player their hand (as the Start button does); the game process, which owns
    the table, learns those DMs and edits them as the game moves."""
    from tools.bench import StubChannel

    game = two[0]
    users, channel = [91, 92, 93, 94], 79
    table_id = await open_in(game, users, channel, start=False)
    a_table = game.manager.tables[table_id]
    assert a_table.status == "lobby" and a_table.game is None
    edited: list[int] = []  # the messages the game process edits
    plain = StubChannel.get_partial_message

    def recording(self: StubChannel, message_id: int) -> Any:
        edited.append(message_id)
        return plain(self, message_id)

    monkeypatch.setattr(StubChannel, "get_partial_message", recording)
    fake_discord.user, fake_discord.channel = users[0], channel  # the table's creator
    fake_discord.dm_latency = 0.3  # a DM takes Discord a moment
    assert pages.web is not None
    base = f"http://127.0.0.1:{pages.web.port}"
    tasks: list[asyncio.Task[None]] = []
    async with aiohttp.ClientSession() as http:
        page = await open_page(http, base, await sign_in(base), tasks)
        assert page.state is not None and page.state["table_id"] == table_id
        outcome = await page.next("outcome", await page.send({"type": "lobby", "verb": "start"}))
        assert outcome["kind"] == "applied", outcome
        await page.ws.close()
    for task in tasks:
        await task
    # the pages' process sent the four hands (each DM channel got one message)
    dms = {ch: ids for ch, ids in fake_discord.sent.items() if ch != channel}
    assert len(dms) == 4 and all(len(ids) == 1 for ids in dms.values()), fake_discord.sent
    sent = {ids[0] for ids in dms.values()}
    cluster = game.manager.cluster
    assert cluster is not None and cluster.owns(table_id)
    # the owner follows the start and learns the DMs at once, told by the database (its
    # lease rounds are 10 s apart: the DMs are sent well after the start is followed)
    async with asyncio.timeout(3):
        while a_table.status != "active" or {m for _c, m in a_table.hand_messages.values()} != sent:
            await asyncio.sleep(0.02)
    assert set(edited) >= sent  # and shows them the game as it is
    # a move in the game process: the DMs the pages' process sent follow it
    mark = len(edited)
    mover = a_table.game.to_act()
    async with a_table.lock:
        await commit(
            game.manager.services,
            a_table,
            mover,
            policy(a_table.game.observe(mover))[:1],
            users[mover],
        )
    after = a_table.game.to_act()
    async with asyncio.timeout(10):
        while a_table.hand_messages[after][1] not in edited[mark:]:
            await asyncio.sleep(0.02)
    assert not pages.manager.cluster.owned  # type: ignore[union-attr]


async def test_a_lobby_is_cancelled_from_a_page_by_a_manager_the_pages_process_asks_discord_about(
    two: list[Process],  # noqa: F811
    pages: RuffBot,
    fake_discord: FakeDiscord,
) -> None:
    """The pages' process has no member cache (no gateway): whether someone who did not
    open the table has Manage Server comes from Discord's REST API."""
    game = two[0]
    channel = 80
    table_id = await open_in(game, [91, 92], channel, start=False)
    assert pages.web is not None
    base = f"http://127.0.0.1:{pages.web.port}"
    fake_discord.channel = channel

    async def cancel_as(user: int) -> dict[str, Any]:
        fake_discord.user = user
        tasks: list[asyncio.Task[None]] = []
        async with aiohttp.ClientSession() as http:
            page = await open_page(http, base, await sign_in(base), tasks)
            assert page.state is not None and page.state["table_id"] == table_id
            outcome = await page.next(
                "outcome", await page.send({"type": "table", "verb": "cancel"})
            )
            await page.ws.close()
        for task in tasks:
            await task
        return outcome

    refused = await cancel_as(96)  # a member without Manage Server
    assert refused["kind"] == "refused" and "Manage Server" in refused["text"], refused
    assert f"GET /guilds/{guild_on_shard(0)}/members/96" in fake_discord.asked
    assert game.manager.tables[table_id].status == "lobby"
    done = await cancel_as(95)  # a member with it
    assert done["kind"] == "applied", done
    status = await game.db.fetchval("SELECT status FROM tables WHERE id = ?", (table_id,))
    assert status == "cancelled"


@pytest.fixture
async def slow_rounds(pg_url: str) -> AsyncIterator[Process]:
    """A game process whose lease rounds are far apart (every 10 s): what it does at
    once is seen apart from what only its next round would do. Its AI plays at once."""
    settings = Settings(
        database=pg_url,
        ai_delay=0.0,
        turn_timeout=0.0,
        lobby_timeout=0.0,
        table_edit_interval=0.0,
        ai_mode="inline",
        ai_worlds=4,
        pictures=False,
        shard_count=2,
        shard_ids=(0,),
        lease_seconds=30.0,
        process_name="slow",
    )
    db = await Database.open(pg_url)
    discord_ = StubDiscord((0.0, 0.0))
    manager = GameManager(discord_, db, settings, ai=AIPool(1, mode="inline", worlds=4))  # type: ignore[arg-type]
    await manager.resume()
    yield Process(manager, db, discord_)
    await manager.close()
    await db.close()
    await manager.services.ai.close()


async def test_a_rematch_from_a_page_on_the_pages_process_plays_at_once(
    slow_rounds: Process,
    pages: RuffBot,
    fake_discord: FakeDiscord,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game of one human and three AI seats ends; its player presses Rematch on the
    page the pages' process serves. The game process holding the server owns the new
    table at once and learns the hand DM the pages' process sent (both told by the
    database, not at its next lease round, 10 s away): the AI seats play, their moves
    reach the page, and the game process edits that DM, within a second or two."""
    from tools.bench import StubChannel

    edited: list[int] = []  # the messages the game process edits
    plain = StubChannel.get_partial_message

    def recording(self: StubChannel, message_id: int) -> Any:
        edited.append(message_id)
        return plain(self, message_id)

    monkeypatch.setattr(StubChannel, "get_partial_message", recording)
    game, user, channel = slow_rounds, 91, 81
    guild, m = guild_on_shard(0), slow_rounds.manager
    await m.new_table(game.interaction(user, guild, channel), "ruff-honours-cotton", None, 1, None)
    first = m.tables.open_in_channel(channel)
    assert first is not None
    for _ in range(3):
        await m.on_table_button(game.interaction(user, guild, channel), first.id, "ai-normal")
    await m.on_table_button(game.interaction(user, guild, channel), first.id, "start")
    cluster = m.cluster
    assert cluster is not None
    async with asyncio.timeout(5):
        while not cluster.owns(first.id):
            await asyncio.sleep(0.01)
    fake_discord.user, fake_discord.channel = user, channel
    # a DM takes Discord a moment: the game process claims the rematch before it is sent
    fake_discord.dm_latency = 0.3
    assert pages.web is not None
    base = f"http://127.0.0.1:{pages.web.port}"
    tasks: list[asyncio.Task[None]] = []
    async with aiohttp.ClientSession() as http:
        page = await open_page(http, base, await sign_in(base), tasks)
        assert page.state is not None and page.state["table_id"] == first.id
        # the game, to its end: the player's moves here, the AI's by the game process
        async with asyncio.timeout(120):
            while first.status == "active":
                assert first.game is not None
                if first.game.to_act() == 0 and not first.lock.locked():
                    async with first.lock:
                        if first.status == "active" and first.game.to_act() == 0:
                            await commit(
                                m.services,
                                first,
                                0,
                                policy(first.game.observe(0))[:1],
                                user,
                            )
                await asyncio.sleep(0.005)
        assert first.status == "finished"
        await until(page, lambda: page.state["status"] == "finished")  # type: ignore[index]

        # Rematch on the page: opened and started by the pages' process
        outcome = await page.next("outcome", await page.send({"type": "table", "verb": "rematch"}))
        assert outcome["kind"] == "applied", outcome
        pressed = asyncio.get_running_loop().time()
        await until(page, lambda: page.state["table_id"] != first.id)  # type: ignore[index]
        new_id = page.state["table_id"]
        assert page.state["status"] == "active"
        started = page.state["version"]

        # the player's hand DM, sent by the pages' process, is the one the game process
        # edits as the game moves: it is edited (to the game as it is) before the player
        # has made a move, whoever acts first (without it, it would wait for a lease round)
        def dms() -> set[int]:  # the messages the pages' process sent in DMs
            return {
                i for ch, ids in fake_discord.sent.items() if ch in fake_discord.dms for i in ids
            }

        async with asyncio.timeout(3.0):
            while (
                (table := m.tables.get(new_id)) is None
                or 0 not in table.hand_messages
                or table.hand_messages[0][1] not in dms()
                or table.hand_messages[0][1] not in edited
            ):
                await asyncio.sleep(0.02)

        # what the player sees: the AI's moves reach the page at once (the player's own
        # turn, if it comes first, played from the page), long before a lease round
        async def ai_moved() -> None:
            while True:
                page.changed.clear()
                state = page.state
                assert state is not None
                you = state["you"]
                if you is not None and you["my_turn"]:
                    move = next(a["id"] for a in you["actions"] if a["kind"] == "legal")
                    mark = await page.send(
                        {"type": "act", "version": state["version"], "seat": 0, "actions": [move]}
                    )
                    await page.next("outcome", mark)
                    continue
                ai_moves = await game.db.fetchval(
                    "SELECT COUNT(*) FROM actions WHERE table_id = ? AND actor_id IS NULL",
                    (new_id,),
                )
                if ai_moves and state["version"] > started:  # an AI's move, on the page
                    return
                await page.changed.wait()

        await asyncio.wait_for(ai_moved(), 3.0)
        waited = asyncio.get_running_loop().time() - pressed
        assert waited < 3.0, waited  # the game process's lease rounds are 10 s apart
        await page.ws.close()
    for task in tasks:
        await task
    # the game process holding the server owns the new table; the pages' process none
    assert cluster.owns(new_id)
    owner = await game.db.fetchval("SELECT owner FROM table_leases WHERE table_id = ?", (new_id,))
    assert owner.startswith("slow#"), owner
    assert pages.manager.cluster is not None and not pages.manager.cluster.owned
