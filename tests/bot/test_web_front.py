"""The web table's server without a browser: sessions, the sign-in against a fake
Discord on loopback, the socket's checks (origin, forged and malformed frames, an
expired session, the rate limit), and whole games played by four sockets while a
spectator watches — every frame scanned for a card its receiver may not know.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.config import Settings
from bot.store import AISeat, HumanSeat, Seat
from bot.tables import commit
from bot.tables.kinds import TableKind, TableSpec
from bot.tables.services import Services
from bot.tables.table import Table
from bot.web.cards import card_svg
from bot.web.server import STATIC, WebTable
from bot.web.session import SessionError, Signer
from bot.web.texts import PAGE
from engine import Card, Game, make_rules, new_game
from tests.bot import test_act
from tests.bot.test_act import USERS, seated_table, turn_of
from tests.bot.test_projection import cards_in_json, cards_in_view

WEB_SRC = Path(__file__).resolve().parents[2] / "web" / "src"
CHANNEL = 2  # the channel of tests.bot.test_act's tables
svc = test_act.svc  # its fixture: Services without Discord
SPECTATOR = 555


def web_settings(**changes: Any) -> Settings:
    base = {
        "web_port": 0,
        "web_mock_auth": True,
        "web_session_secret": "test-key",
        "web_rate": 1000.0,
    }
    base.update(changes)
    return Settings(**base)


@pytest.fixture
async def server(svc: Services) -> AsyncIterator[WebTable]:
    web_table = WebTable(svc, web_settings(), None)
    await web_table.start()
    yield web_table
    await web_table.close()


class Page:
    """A socket as a page holds it: its frames, in order, and the latest state."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.seat: int | None = None
        self.rev: int | None = None  # the revision of the document held
        self.changed = asyncio.Event()

    async def read(self) -> None:
        async for msg in self.ws:
            if msg.type is not aiohttp.WSMsgType.TEXT:
                continue
            frame = json.loads(msg.data)
            self.frames.append(frame)
            if frame["type"] == "state":
                self.state, self.seat, self.rev = frame["state"], frame["seat"], frame.get("rev")
            elif frame["type"] == "delta":
                # as the page does: applied to the document it changes, else a sync
                assert self.state is not None and frame["base"] == self.rev, frame
                self.state, self.seat, self.rev = (
                    applied(self.state, frame),
                    frame["seat"],
                    frame["rev"],
                )
            self.changed.set()

    async def next(self, kind: str, after: int = 0, timeout: float = 10.0) -> dict[str, Any]:
        """The first frame of ``kind`` from index ``after`` on."""
        async with asyncio.timeout(timeout):
            while True:
                for frame in self.frames[after:]:
                    if frame["type"] == kind:
                        return frame
                self.changed.clear()
                await self.changed.wait()

    async def send(self, frame: Any) -> int:
        mark = len(self.frames)
        await self.ws.send_str(frame if isinstance(frame, str) else json.dumps(frame))
        return mark


def applied(state: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """A delta frame applied to the document it changes (web/src/main.ts does the same)."""
    out = {**state, **delta["state"]}
    for part in ("game", "you"):
        if delta[part] is not None:
            out[part] = {**state[part], **delta[part]}
    return out


async def session_for(base: str, user_id: int, channel_id: int = CHANNEL) -> str:
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{base}/api/token",
            json={"mock": True, "user_id": str(user_id), "channel_id": str(channel_id)},
            headers={"Origin": base},
        ) as answer,
    ):
        assert answer.status == 200, await answer.text()
        return str((await answer.json())["session"])


async def open_page(
    http: aiohttp.ClientSession, base: str, session: str, tasks: list[asyncio.Task[None]]
) -> Page:
    ws = await http.ws_connect(f"{base}/ws", headers={"Origin": base})
    page = Page(ws)
    tasks.append(asyncio.create_task(page.read()))
    await page.send({"type": "hello", "session": session})
    await page.next("state")
    return page


def base_of(server: WebTable) -> str:
    return f"http://127.0.0.1:{server.port}"


# ---------------------------------------------------------------- sessions and cards


def test_a_session_is_signed_and_expires() -> None:
    now = [1000.0]
    signer = Signer("k", 60.0, clock=lambda: now[0])
    token, session = signer.issue(7, "Ann", 9)
    assert signer.check(token) == session
    payload, signature = token.split(".")
    forged = Signer("other key", 60.0, clock=lambda: now[0]).issue(8, "Bob", 9)[0]
    for bad in (forged, f"{payload}.{signature[:-2]}AA", "x", 42, f"{payload[:-3]}abc.{signature}"):
        with pytest.raises(SessionError) as caught:
            signer.check(bad)
        assert caught.value.code == "bad_session"
    now[0] += 61
    with pytest.raises(SessionError) as caught:
        signer.check(token)
    assert caught.value.code == "session_expired"


def test_card_faces_are_svg_with_their_names() -> None:
    face = card_svg("10H", True)
    assert face.startswith("<svg") and "10 of hearts" in face and "#c0162c" in face
    assert "#0a58ca" in card_svg("QD", True) and "#0a58ca" not in card_svg("QD", False)
    with pytest.raises(ValueError):
        card_svg("<script>")


# ---------------------------------------------------------------- sign-in with Discord


@pytest.fixture
async def fake_discord() -> AsyncIterator[str]:
    """Discord's three endpoints the sign-in calls, on loopback."""
    app = web.Application()

    async def token(request: web.Request) -> web.Response:
        form = await request.post()
        if form.get("code") != "good-code" or form.get("client_secret") != "s3cret":
            return web.json_response({"error": "invalid_grant"}, status=400)
        return web.json_response({"access_token": "user-token", "token_type": "Bearer"})

    async def me(request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != "Bearer user-token":
            return web.json_response({}, status=401)
        return web.json_response({"id": "4242", "username": "ann", "global_name": "Ann"})

    async def instance(request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != "Bot bot-token":
            return web.json_response({}, status=401)
        if request.match_info["instance"] != "i-1":
            return web.json_response({}, status=404)
        return web.json_response(
            {"location": {"channel_id": "77", "guild_id": "1"}, "users": ["4242", "5"]}
        )

    app.router.add_post("/oauth2/token", token)
    app.router.add_get("/users/@me", me)
    app.router.add_get("/applications/{app}/activity-instances/{instance}", instance)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    await runner.cleanup()


async def test_sign_in_exchanges_the_code_and_finds_the_channel_server_side(
    svc: Services, fake_discord: str
) -> None:
    settings = web_settings(
        web_mock_auth=False,
        web_discord_api=fake_discord,
        client_id=99,
        client_secret="s3cret",
    )
    web_table = WebTable(svc, settings, None, bot_token="bot-token")
    await web_table.start()
    base = base_of(web_table)
    try:
        async with aiohttp.ClientSession() as http:

            async def post(body: dict[str, Any], origin: str = base) -> tuple[int, Any]:
                async with http.post(
                    f"{base}/api/token", json=body, headers={"Origin": origin}
                ) as answer:
                    return answer.status, await answer.json()

            status, body = await post({"code": "good-code", "instance_id": "i-1"})
            assert status == 200, body
            assert body["user_id"] == "4242" and body["access_token"] == "user-token"
            session = web_table.signer.check(body["session"])
            assert (session.user_id, session.channel_id, session.name) == (4242, 77, "Ann")
            # Discord's own origin for this application is allowed too
            assert (
                await post(
                    {"code": "good-code", "instance_id": "i-1"}, "https://99.discordsays.com"
                )
            )[0] == 200
            assert (await post({"code": "bad-code", "instance_id": "i-1"}))[1]["error"] == (
                "discord_refused"
            )
            assert (await post({"code": "good-code", "instance_id": "i-2"}))[0] == 401
            assert (
                await post({"code": "good-code", "instance_id": "i-1"}, "https://evil.example")
            )[0] == 403
            # the page may not name itself without the demo's mock
            status, body = await post({"mock": True, "user_id": "1", "channel_id": "2"})
            assert (status, body["error"]) == (403, "mock_off")
            assert (await post({"code": 5, "instance_id": "i-1"}))[0] == 400
    finally:
        await web_table.close()


async def test_a_user_not_in_the_activity_is_refused(svc: Services, fake_discord: str) -> None:
    settings = web_settings(
        web_mock_auth=False, web_discord_api=fake_discord, client_id=99, client_secret="s3cret"
    )
    app = WebTable(svc, settings, None, bot_token="bot-token")
    from bot.web.signin import SignInError, sign_in

    async with aiohttp.ClientSession() as http:
        identity = await sign_in(
            http,
            {"code": "good-code", "instance_id": "i-1"},
            api=fake_discord,
            client_id=99,
            client_secret="s3cret",
            bot_token="bot-token",
        )
        assert identity.channel_id == 77
        with pytest.raises(SignInError):
            await sign_in(
                http,
                {"code": "good-code", "instance_id": "i-1"},
                api=fake_discord,
                client_id=99,
                client_secret="s3cret",
                bot_token="wrong",
            )
    assert app.origins == {"https://99.discordsays.com"}


# ---------------------------------------------------------------- the socket's checks


async def test_a_socket_from_another_origin_is_refused(server: WebTable) -> None:
    base = base_of(server)
    async with aiohttp.ClientSession() as http:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"{base}/ws", headers={"Origin": "https://evil.example"})
        assert refused.value.status == 403


async def test_forged_and_malformed_frames_change_nothing(svc: Services, server: WebTable) -> None:
    table = await seated_table(svc, "whist-5")
    game = table.game
    assert game is not None
    base = base_of(server)
    tasks: list[asyncio.Task[None]] = []
    async with aiohttp.ClientSession() as http:
        seat = game.to_act()
        assert seat is not None
        other = (seat + 1) % 4
        me = await open_page(http, base, await session_for(base, USERS[seat]), tasks)
        them = await open_page(http, base, await session_for(base, USERS[other]), tasks)
        stranger = await open_page(http, base, await session_for(base, SPECTATOR), tasks)
        assert me.seat == seat and stranger.seat is None
        assert stranger.state is not None and stranger.state["schema"] == "rh.table/1"
        legal = [a["id"] for a in me.state["you"]["actions"] if a["kind"] == "legal"]  # type: ignore[index]
        version = table.version
        moves = len(await svc.action_repo.list(table.id))

        async def refused(page: Page, frame: Any, kind: str, code: str) -> None:
            mark = await page.send(frame)
            answer = await page.next(kind, mark)
            assert answer["code" if kind == "error" else "reason"] == code, answer

        await refused(me, "not json", "error", "bad_frame")
        await refused(me, "[1, 2]", "error", "bad_frame")
        await refused(
            me,
            {"type": "act", "version": "1", "seat": seat, "actions": legal[:1]},
            "error",
            "bad_frame",
        )
        await refused(
            me,
            {"type": "act", "version": version, "seat": seat, "actions": []},
            "error",
            "bad_frame",
        )
        await refused(
            me,
            {"type": "act", "version": version, "seat": seat, "actions": ["fly:me"]},
            "error",
            "bad_action",
        )
        await refused(
            me,
            {"type": "act", "version": version, "seat": seat, "actions": ["x" * 500]},
            "error",
            "bad_frame",
        )
        await refused(me, {"type": "teleport"}, "error", "bad_frame")
        await refused(me, {"type": "lobby", "verb": "join"}, "outcome", "lobby")
        # another seat's action, a stale version, a user not at the table, out of turn
        await refused(
            them,
            {"type": "act", "version": version, "seat": seat, "actions": legal[:1]},
            "outcome",
            "not_your_seat",
        )
        await refused(
            stranger,
            {"type": "act", "version": version, "seat": seat, "actions": legal[:1]},
            "outcome",
            "not_seated",
        )
        await refused(
            them,
            {"type": "act", "version": version, "seat": other, "actions": legal[:1]},
            "outcome",
            "illegal",
        )
        await me.ws.send_bytes(b"\x00\x01")
        assert (await me.next("error", len(me.frames) - 1))["code"] in ("bad_frame",)
        assert table.version == version and len(await svc.action_repo.list(table.id)) == moves
        # and the page still plays
        mark = await me.send(
            {"type": "act", "ref": 9, "version": version, "seat": seat, "actions": legal[:1]}
        )
        done = await me.next("outcome", mark)
        assert done["kind"] == "applied" and done["ref"] == 9 and table.version == version + 1
        # the same click again lost its race; the next seat's page, chosen before it, is stale
        again = {"type": "act", "version": version, "seat": seat, "actions": legal[:1]}
        await refused(me, again, "outcome", "already_played")
        assert game.to_act() == other or table.game.to_act() == other  # type: ignore[union-attr]
        late = {"type": "act", "version": version, "seat": other, "actions": legal[:1]}
        await refused(them, late, "outcome", "stale")
        assert table.version == version + 1
        for page in (me, them, stranger):
            await page.ws.close()
    for task in tasks:
        await task


async def test_a_forged_or_expired_session_is_refused(svc: Services, server: WebTable) -> None:
    await seated_table(svc, "whist-5")
    base = base_of(server)
    expired_signer = Signer("test-key", -1.0)  # the server's key, a session already over
    expired, _session = expired_signer.issue(USERS[0], "P", CHANNEL)
    forged, _session = Signer("not the key", 600.0).issue(USERS[0], "P", CHANNEL)
    async with aiohttp.ClientSession() as http:
        for token, code in (
            (expired, "session_expired"),
            (forged, "bad_session"),
            (None, "bad_session"),
        ):
            ws = await http.ws_connect(f"{base}/ws", headers={"Origin": base})
            await ws.send_str(json.dumps({"type": "hello", "session": token}))
            frame = json.loads((await ws.receive()).data)
            assert frame == {"type": "error", "code": code, "text": frame["text"], "ref": None}
            closing = await ws.receive()
            assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            assert ws.close_code == 4001
            await ws.close()


async def test_a_session_that_runs_out_while_connected_is_refused(svc: Services) -> None:
    table = await seated_table(svc, "whist-5")
    web_table = WebTable(svc, web_settings(web_session_ttl=1.0), None)
    await web_table.start()
    base = base_of(web_table)
    tasks: list[asyncio.Task[None]] = []
    try:
        async with aiohttp.ClientSession() as http:
            seat = table.game.to_act()  # type: ignore[union-attr]
            page = await open_page(http, base, await session_for(base, USERS[seat]), tasks)
            await asyncio.sleep(1.1)
            version = table.version
            legal = [a["id"] for a in page.state["you"]["actions"] if a["kind"] == "legal"]  # type: ignore[index]
            mark = await page.send(
                {"type": "act", "version": version, "seat": seat, "actions": legal[:1]}
            )
            assert (await page.next("error", mark))["code"] == "session_expired"
            await tasks[0]
            assert page.ws.close_code == 4001 and table.version == version
    finally:
        await web_table.close()


async def test_a_flood_of_frames_is_rate_limited_then_cut(svc: Services) -> None:
    await seated_table(svc, "whist-5")
    web_table = WebTable(svc, web_settings(web_rate=2.0), None)
    await web_table.start()
    base = base_of(web_table)
    tasks: list[asyncio.Task[None]] = []
    try:
        async with aiohttp.ClientSession() as http:
            page = await open_page(http, base, await session_for(base, USERS[0]), tasks)
            for _ in range(80):
                await page.send({"type": "sync"})
            await tasks[0]
            codes = [f.get("code") for f in page.frames if f["type"] == "error"]
            assert "rate_limited" in codes
            assert page.ws.close_code == 4008
    finally:
        await web_table.close()


# ---------------------------------------------------------------- whole games, every frame scanned


def replayed_views(table: Table, actions: list[tuple[int, str]]) -> dict[int, Game]:
    """The game at every version, replayed from its seed and its stored actions."""
    from engine import decode_action

    game, _events = new_game(
        rules=table.rules,
        seed=table.seed,
        first_dealer=table.first_dealer,
        record_version=table.record_version,
    )
    at = {game.version: game.clone()}
    for seat, code in actions:
        game.apply(seat, decode_action(code))
        at[game.version] = game.clone()
    return at


def known_cards(game: Game, seat: int | None) -> set[Card]:
    views = [game.observe(s) for s in range(game.n_players)]
    known = [set(cards_in_view(v)) for v in views]
    return set.intersection(*known) if seat is None else known[seat]


async def play_by_pages(pages: list[Page], rng: random.Random, table: Table) -> None:
    """Each seated page acts at random on its turn, from its projection alone."""

    async def player(page: Page) -> None:
        acted_at = -1
        while table.status == "active":
            state = page.state
            you = state.get("you") if state else None
            if state and you and you["my_turn"] and state["version"] != acted_at:
                legal = [a["id"] for a in you["actions"] if a["kind"] == "legal"]
                # now and then a claim (its answers are legal actions); never conceding
                claims = [
                    a["id"]
                    for a in you["actions"]
                    if a["kind"] == "claim" and a["id"].startswith("claim")
                ]
                choice = rng.choice(claims if claims and rng.random() < 0.02 else legal)
                acted_at = state["version"]
                mark = await page.send(
                    {
                        "type": "act",
                        "version": state["version"],
                        "seat": you["seat"],
                        "actions": [choice],
                    }
                )
                await page.next("outcome", mark)
                continue
            page.changed.clear()
            try:
                async with asyncio.timeout(2.0):
                    await page.changed.wait()
            except TimeoutError:
                pass

    await asyncio.wait_for(asyncio.gather(*(player(p) for p in pages)), 240)


@pytest.mark.parametrize(
    "game_id", ["ruff-honours-cotton", "turnover-bridge", "solo-whist", "bid-whist"]
)
async def test_no_frame_of_a_whole_game_carries_a_card_its_receiver_may_not_know(
    svc: Services, server: WebTable, game_id: str
) -> None:
    table = await seated_table(svc, game_id)
    n = len(table.seats)
    base = base_of(server)
    tasks: list[asyncio.Task[None]] = []
    async with aiohttp.ClientSession() as http:
        pages = [
            await open_page(http, base, await session_for(base, USERS[s]), tasks) for s in range(n)
        ]
        watcher = await open_page(http, base, await session_for(base, SPECTATOR), tasks)
        await play_by_pages(pages, random.Random(game_id), table)
        await asyncio.sleep(0.1)
        for page in (*pages, watcher):
            await page.ws.close()
    for task in tasks:
        await task
    assert table.status == "finished"
    stored = [(a.seat, a.action) for a in await svc.action_repo.list(table.id)]
    at = replayed_views(table, stored)
    assert at[max(at)].scores == table.game.scores  # type: ignore[union-attr]
    scanned = 0
    for page, seat in [*((p, s) for s, p in enumerate(pages)), (watcher, None)]:
        states = [f for f in page.frames if f["type"] == "state" and f["state"]["game"]]
        assert states, "the page saw the game"
        # most moves come as deltas, scanned as they are sent, like the whole states
        assert sum(f["type"] == "delta" for f in page.frames) > len(states)
        assert page.state is not None and page.state["status"] == "finished"
        for frame in page.frames:
            version = (
                frame["state"]["version"]
                if frame["type"] == "state" and frame["state"]
                else frame["version"]
                if frame["type"] == "delta"
                else None
            )
            game = at.get(version) if version is not None else at[max(at)]
            assert game is not None
            leaked = set(cards_in_json(frame)) - known_cards(game, seat)
            assert not leaked, f"{game_id}: seat {seat} was sent {sorted(map(str, leaked))}"
            scanned += 1
    assert scanned > 50


async def test_the_scan_catches_a_planted_leak(svc: Services, server: WebTable) -> None:
    """A front that sent the public table a hand would be caught by the same check."""
    table = await seated_table(svc, "whist-5")
    game = table.game
    assert game is not None

    def leaky() -> dict[str, Any]:
        return {
            "type": "state",
            "state": {**table.public_state(), "peek": [c.code for c in game.observe(0).hand]},
        }

    assert set(cards_in_json(leaky())) - known_cards(game, None)


async def test_a_move_comes_as_a_small_delta_and_a_sync_as_the_whole_table(
    svc: Services, server: WebTable
) -> None:
    """After the first whole state, a move reaches each page as the fields it changed
    (the trick's card, the hand, whose turn), applied to the document the page holds;
    a page that asks again (``sync``) is sent the whole table, and deltas go on from it."""
    table = await seated_table(svc, "whist-5")
    base = base_of(server)
    tasks: list[asyncio.Task[None]] = []
    async with aiohttp.ClientSession() as http:
        game, seat = turn_of(table)
        me = await open_page(http, base, await session_for(base, USERS[seat]), tasks)
        watcher = await open_page(http, base, await session_for(base, SPECTATOR), tasks)
        assert me.state is not None and watcher.state is not None
        whole = len(json.dumps(me.frames[-1]))
        card = next(a for a in me.state["you"]["actions"] if a["kind"] == "legal")
        mark, seen = len(me.frames), len(watcher.frames)
        await me.send(
            {"type": "act", "version": game.version, "seat": seat, "actions": [card["id"]]}
        )
        delta = await me.next("delta", mark)
        assert delta["version"] == table.version and delta["game"]["trick"]["cards"]
        assert len(json.dumps(delta)) < whole / 2  # the fields that changed, not the table
        assert card["card"] not in me.state["you"]["hand"]  # applied to what the page held
        assert me.state == table.seat_state(seat)
        await watcher.next("delta", seen)
        assert watcher.state == table.public_state()
        mark = await watcher.send({"type": "sync"})
        again = await watcher.next("state", mark)
        assert again["state"] == table.public_state() and again["rev"] == watcher.rev
        game, seat = turn_of(table)
        other = await open_page(http, base, await session_for(base, USERS[seat]), tasks)
        assert other.state is not None
        legal = [a["id"] for a in other.state["you"]["actions"] if a["kind"] == "legal"]
        mark = len(watcher.frames)
        await other.send(
            {"type": "act", "version": game.version, "seat": seat, "actions": legal[:1]}
        )
        after = await watcher.next("delta", mark)
        assert after["base"] == again["rev"] and watcher.state == table.public_state()
    for task in tasks:
        task.cancel()


# ---------------------------------------------------------------- the lobby, pushed


async def test_a_lobby_change_and_a_new_table_reach_every_page_at_once(
    svc: Services, server: WebTable
) -> None:
    """Pages on a channel hear its lobby as moves are heard: the moment the change is
    durable (the feed's changes), not at a page's next look. A table opened in the
    channel reaches a page that had none, and its start reaches both."""
    base = base_of(server)
    tasks: list[asyncio.Task[None]] = []
    async with aiohttp.ClientSession() as http:
        early = await open_page(http, base, await session_for(base, USERS[0]), tasks)
        assert early.state is None  # no table in the channel yet
        rules = make_rules("whist-5")
        creator = HumanSeat(USERS[0], "P0")
        table = await commit.open_table(
            svc,
            TableSpec(
                kind=TableKind.ORDINARY,
                rules=rules,
                guild_id=1,
                channel_id=CHANNEL,
                creator_id=creator.user_id,
                seats=[creator, None, None, None],
                guild_name="g",
                channel_name="c",
            ),
        )
        svc.tables.add(table)
        conns = {c.user_id: c for c in server.front.connections}
        # owed with the change itself: the page's writer sends it at its next turn
        assert conns[USERS[0]].owed
        watcher = await open_page(http, base, await session_for(base, SPECTATOR), tasks)
        assert watcher.state is not None and watcher.state["status"] == "lobby"
        conns = {c.user_id: c for c in server.front.connections}
        mark = len(watcher.frames)
        seats: list[Seat | None] = [creator, HumanSeat(USERS[1], "P1"), None, None]
        await commit.change_seats(svc, table, seats)
        assert conns[SPECTATOR].owed and conns[USERS[0]].owed
        frame = await watcher.next("delta", mark, timeout=0.5)  # the seats alone changed
        assert set(frame["state"]) == {"seats", "lobby"} and frame["game"] is None
        assert [s["name"] for s in watcher.state["seats"]][:2] == ["P0", "P1"]
        mark = len(early.frames)
        await commit.start(
            svc, table, [*seats[:2], AISeat("easy", "Hoyle"), AISeat("easy", "Cotton")]
        )
        frame = await early.next("state", mark, timeout=0.5)
        assert frame["state"]["status"] == "active" and frame["state"]["you"]["hand"]
        assert frame["title"] == "Whist 5-Point"  # the game's name for the page's title
        for task in tasks:
            task.cancel()


# ---------------------------------------------------------------- the page's words


def test_every_text_of_the_page_is_in_the_catalogue_list() -> None:
    """Each t("…")/N("…") of web/src is listed in bot.web.texts (so it is translated)."""
    used: set[str] = set()
    for source in sorted(WEB_SRC.glob("*.ts")):
        text = source.read_text(encoding="utf-8")
        used.update(re.findall(r'\b[tN]\(\s*"((?:[^"\\]|\\.)*)"', text))
        # t(cond ? "a" : "b", …): each branch is a text too
        for inner in re.findall(r"\bt\(([^()]*\?[^()]*)", text):
            used.update(re.findall(r'"((?:[^"\\]|\\.)*)"', inner))
    missing = sorted(u for u in used - set(PAGE) if re.search("[A-Za-z]", u))
    assert not missing, missing


async def test_a_german_player_reads_the_page_in_german(svc: Services, server: WebTable) -> None:
    """The page follows the player's language, the one their DMs use; the table's
    words (its actions) too. An English player at the same table reads English."""
    table = await seated_table(svc, "whist-5")
    svc.user_locales.remember(USERS[0], "de")
    base = base_of(server)
    tasks: list[asyncio.Task[None]] = []
    async with aiohttp.ClientSession() as http:
        german = await open_page(http, base, await session_for(base, USERS[0]), tasks)
        english = await open_page(http, base, await session_for(base, USERS[1]), tasks)
        welcome = await german.next("welcome")
        assert welcome["language"] == "de"
        texts = welcome["texts"]
        assert set(texts) == set(PAGE)
        same = {
            "normal",
            "Ruff and Honours",
            "{choice}?",
            "⏱ {seconds} s",
            " & ",
            "{n} {mode}",
        }  # German too
        untranslated = [t for t in PAGE if texts[t] == t and t not in same]
        assert not untranslated, untranslated
        assert texts["Your turn"] == "Du bist dran"
        assert (await english.next("welcome"))["texts"]["Your turn"] == "Your turn"
        # a refusal comes in the player's language too
        mark = await german.send({"type": "table", "verb": "cancel"})
        answer = await german.next("outcome", mark)
        assert (
            answer["kind"] == "refused"
            and answer["text"] != "Seats are taken on Discord for this table."
        )
        assert table.status == "active"
        for task in tasks:
            task.cancel()
    async with aiohttp.ClientSession() as http, http.get(f"{base}/api/config?lang=de-DE") as got:
        assert (await got.json())["texts"]["Four colours"] == "Vier Farben"


async def test_the_discord_sdk_is_a_chunk_of_its_own_served_from_our_origin(
    server: WebTable,
) -> None:
    """The page's own code is small; the SDK (needed inside Discord only) is a chunk the
    page imports there, served by us with the bundle; nothing else is served as one."""
    chunks = sorted((STATIC / "chunks").glob("*.js"))
    sdk = max(chunks, key=lambda p: p.stat().st_size)
    assert (STATIC / "app.js").stat().st_size < sdk.stat().st_size
    assert sdk.name in (STATIC / "app.js").read_text(encoding="utf-8")  # imported by name
    base = base_of(server)
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{base}/chunks/{sdk.name}") as got:
            assert got.status == 200 and got.content_type == "text/javascript"
            assert "immutable" in got.headers["Cache-Control"]
        for forged in ("..%2Fapp.js", "nope.js", "x.svg"):
            async with http.get(f"{base}/chunks/{forged}") as got:
                assert got.status == 404, forged
