"""The web table in a real browser (headless chromium, driven by Playwright), with the
real bot on the simcord simulator: the page plays a table of a channel while other
players use their DMs, the AI plays its seats, and the move log replays to the game.

Playwright's sync API runs on one worker thread of its own (a browser's objects
belong to the thread that made them); each step is handed to it with
``run_in_executor``, so the bot, the simulator and the web table keep the test's
event loop. Debian's chromium (/usr/bin/chromium) is used, never a download.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
import shutil
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import pytest
from simcord._dpy_internals import real_monotonic

from bot.app.client import RuffBot
from bot.app.web_door import ManagerDoor
from bot.config import Settings
from bot.tables.table import Table
from bot.web.server import STATIC, WebTable

from .conftest import make_settings, restart
from .helpers import (
    act_on,
    choose,
    hand_message,
    is_table_message,
    message_text,
    replay_from_db,
    table_message,
)

CHROMIUM = "/usr/bin/chromium"

pytestmark = pytest.mark.skipif(
    shutil.which(CHROMIUM) is None or not (STATIC / "app.js").exists(),
    reason="needs /usr/bin/chromium and the web bundle (tools/install_test_deps.sh)",
)

T = TypeVar("T")

# where a person taps a card of a fanned hand: its corner, the part the next card leaves
CORNER = {"x": 6, "y": 30}
# what the page offers when it is the player's turn (or the end)
LIVE = (
    ".end, .hand .cardbtn.legal, .layouts .cardbtn.legal, "
    ".actions button[data-action]:not(.claim):not([data-action=lay-out])"
)


class Browser:
    """Chromium on a thread of its own; ``await browser.run(fn, ...)`` runs a step there."""

    def __init__(self) -> None:
        self.thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="chromium")
        self._pw: Any = None
        self._browser: Any = None

    def _start(self) -> None:
        from playwright.sync_api import sync_playwright

        self._pw = sync_playwright().start()
        self._browser = self._pw.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )

    def _stop(self) -> None:
        if self._browser is not None:
            self._browser.close()
        if self._pw is not None:
            self._pw.stop()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.thread, fn, *args)

    async def page(self, url: str, width: int = 1280, height: int = 720) -> Any:
        def open_page() -> Any:
            page = self._browser.new_page(viewport={"width": width, "height": height})
            page.goto(url)
            return page

        return await self.run(open_page)


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    chromium = Browser()
    await chromium.run(chromium._start)
    yield chromium
    await chromium.run(chromium._stop)
    chromium.thread.shutdown()


class Site:
    """The web table of the bot under the simulator, started outside the bot's own work."""

    def __init__(self, env: Any, settings: Settings) -> None:
        self.env = env
        self.settings = settings.model_copy(
            update={
                "web_port": 0,
                "web_mock_auth": True,
                "web_session_secret": "browser-test",
                "web_rate": 50.0,
            }
        )
        self.web: WebTable | None = None
        self.port = 0

    async def start(self, bot: RuffBot) -> None:
        # The page's moves run in the web table's own tasks, outside the simulator's bot
        # work, where the simulator's loop clock reads real time while the bot's reads
        # virtual time: the notifier's per-message interval must read one clock, or an
        # edit scheduled from one side waits for the other's time to pass.
        bot.manager.services.notifier._clock = real_monotonic  # type: ignore[method-assign]
        settings = self.settings.model_copy(update={"web_port": self.port})
        self.web = WebTable(bot.manager.services, settings, ManagerDoor(bot.manager))
        await self.web.start()
        self.port = self.web.port

    async def stop(self) -> None:
        if self.web is not None:
            await self.web.close()
            self.web = None

    def url(self, user: Any, channel: Any) -> str:
        return (
            f"http://127.0.0.1:{self.port}/?user_id={user.id}&channel_id={channel.id}"
            f"&name={user.name}"
        )


@pytest.fixture
def bot_settings() -> dict[str, Any]:
    return {"ai_worlds": 8, "seed": 38}


@pytest.fixture
async def site(
    simcord_env: Any, db_path: Path, bot_settings: dict[str, Any]
) -> AsyncIterator[Site]:
    web_site = Site(simcord_env, make_settings(db_path, **bot_settings))
    await web_site.start(simcord_env.bot)
    yield web_site
    await web_site.stop()


def the_table(env: Any, channel: Any) -> Table:
    table = env.bot.manager.tables.open_in_channel(channel.id)
    assert table is not None
    return table


async def until(check: Callable[[], bool], seconds: float = 20.0) -> None:
    """Wait (letting the loop run) until ``check()`` holds."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out waiting"
        await asyncio.sleep(0.05)


async def moved(check: Callable[[], bool], seconds: float) -> bool:
    """Whether ``check()`` comes to hold within ``seconds``."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def page_version(page: Any) -> int:
    text = page.get_attribute("#table", "data-version")
    return int(text) if text else -1


def take_turn(page: Any) -> str:
    """The page's player does what a person would: a decision button, the cards to lay
    out then Lay out, or the first card that lifts. Returns what it did. A page that
    redraws under the click (a new state arrived) is looked at again."""
    from playwright.sync_api import Error

    for _attempt in range(10):
        try:
            return _take_turn(page)
        except Error as exc:
            if "not attached" not in str(exc):
                raise
    raise AssertionError("the page kept redrawing under the click")


def _take_turn(page: Any) -> str:
    page.wait_for_selector(LIVE, timeout=30000)
    if page.query_selector(".end") is not None:
        return "end"
    decision = page.query_selector(
        ".actions button[data-action]:not(.claim):not([data-action=lay-out])"
    )
    if decision is not None:
        label = decision.inner_text()
        decision.click()
        return label
    go = None
    while True:
        go = page.query_selector("button[data-action=lay-out]")
        if go is None or go.is_enabled():
            break
        page.click(".hand .cardbtn.legal:not(.picked)", position=CORNER)
    if go is not None:
        go.click()
        return "lay out"
    card = page.query_selector(".hand .cardbtn.legal, .layouts .cardbtn.legal")
    code = card.get_attribute("data-card")
    card.click(position=CORNER)
    return f"play {code}"


# The page's blocks (the scores, the felt, the turn line, your hand and buttons) as
# drawn: pairs of neighbours whose boxes overlap, and the info line's text.
OVERLAPS_JS = """() => {
  const hits = [];
  for (const parent of document.querySelectorAll('main, .you')) {
    const boxes = [...parent.children]
      .filter((e) => e.offsetParent !== null)
      .map((e) => [e.className || e.tagName, e.getBoundingClientRect()]);
    for (let i = 1; i < boxes.length; i++) {
      const [a, ra] = boxes[i - 1], [b, rb] = boxes[i];
      if (ra.bottom > rb.top + 1 && ra.top < rb.bottom && ra.left < rb.right && rb.left < ra.right)
        hits.push(a + ' / ' + b);
    }
  }
  const info = document.querySelector('.scores .info');
  return {hits, info: info ? info.textContent : ''};
}"""


def laid_out(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(OVERLAPS_JS))


async def play_to_the_end(
    browser: Browser,
    page: Any,
    table: Table,
    seat: int,
    others: Callable[[], Any] | None = None,
    seconds: float = 600.0,
    look: Callable[[], Any] | None = None,
) -> int:
    """The page's seat plays until the game ends (its turns, and its answers to a claim);
    ``others`` moves any other human."""
    moves = 0
    deadline = time.monotonic() + seconds
    while table.status == "active":
        assert time.monotonic() < deadline, f"the game did not end (phase {table.game.phase})"  # type: ignore[union-attr]
        game = table.game
        assert game is not None
        if table.view(seat).legal:
            version = table.version
            if look is not None:
                await look()
            done = await browser.run(take_turn, page)
            if done == "end":  # the AI's last cards (or a claim) ended it meanwhile
                assert table.status != "active"
                break
            # a click the table refused (it had moved on meanwhile) is made again
            if await moved(lambda v=version: table.version > v or table.status != "active", 10):
                moves += 1
        elif others is not None and await others():
            continue
        else:
            await asyncio.sleep(0.05)
    return moves


def dm_ready(member: Any, version: int) -> bool:
    """The member's hand DM is there and shows their turn."""
    dm = member.user.dm_channel
    message = None if dm is None else dm.last_message
    return message is not None and "Your turn" in message.content


def open_a_claim_and_cancel(page: Any) -> str:
    """Open the claims, pick the first, read the question, cancel; returns the question."""
    page.click(".claim-toggle")
    page.click(".claims button.claim")
    question = str(page.inner_text(".actions .ask"))
    assert page.query_selector(".actions button[data-confirm]") is not None
    page.click(".you .actions button:text-is('Cancel')")
    page.wait_for_selector(".claim-toggle")
    return question


def keyboard_play(page: Any) -> None:
    """Tab into the hand, walk it with the arrow keys, play a card that lifts with Enter."""
    cards = page.query_selector_all(".hand .cardbtn")
    codes = [c.get_attribute("data-card") for c in cards]
    legal = {c.get_attribute("data-card") for c in page.query_selector_all(".hand .cardbtn.legal")}
    page.focus(".hand .cardbtn[tabindex='0']")
    at = 0
    while codes[at] not in legal:
        page.keyboard.press("ArrowRight")
        at += 1
        focused = page.evaluate("document.activeElement.getAttribute('data-card')")
        assert focused == codes[at], (focused, codes[at])
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label.startswith("Play "), label
    page.keyboard.press("Enter")


# ------------------------------------------------------------------ whole games


@pytest.mark.slow
async def test_a_whole_game_of_ruff_and_honours_from_the_web_page(
    site: Site, browser: Browser
) -> None:
    env = site.env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "ruff new", game="ruff-honours-cotton")
    page = await browser.page(site.url(alice.user, channel))
    await browser.run(lambda: page.wait_for_selector(".lobby [data-verb=start]"))
    await browser.run(lambda: page.click("[data-verb=ai-easy]"))
    table = the_table(env, channel)
    await until(lambda: sum(s is not None for s in table.seats) == 2)
    await browser.run(lambda: page.click("[data-verb=start]"))
    await until(lambda: table.status == "active")
    moves = await play_to_the_end(browser, page, table, 0)
    assert table.status == "finished" and moves > 20
    await browser.run(lambda: page.wait_for_selector(".end h2"))
    ending = await browser.run(lambda: page.inner_text(".end"))
    assert "won" in ending
    # durable: the stored log replays to the same game; the Discord table shows it too
    game = table.game
    assert game is not None and game.is_over
    assert (await replay_from_db(env.bot.db, table)).state_key() == game.state_key()


@pytest.mark.slow
@pytest.mark.parametrize(
    "game_id", ["bid-whist", "solo-whist", "turnover-bridge", "ruff-trump-willughby"]
)
async def test_every_kind_of_table_plays_to_its_end_from_the_web_page(
    site: Site, browser: Browser, game_id: str
) -> None:
    """Auctions, the kitty, trump naming, layouts, the ruff contest and the rub: whatever
    the projection offers, the page offers as a button or a card, and the game ends."""
    env = site.env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "ruff new", game=game_id)
    page = await browser.page(site.url(alice.user, channel), 360, 640)
    await browser.run(lambda: page.wait_for_selector(".lobby [data-verb=start]"))
    await browser.run(lambda: page.click("[data-verb=start]"))
    table = the_table(env, channel)
    await until(lambda: table.status == "active")
    seen: list[dict[str, Any]] = []

    async def look() -> None:
        # at a phone's width nothing is drawn over anything else (a long line of
        # calls once wrapped under the Claim button), and the info line reads as words
        seen.append(await browser.run(laid_out, page))

    moves = await play_to_the_end(browser, page, table, 0, look=look)
    assert table.status == "finished" and moves > 5
    assert seen and all(not s["hits"] for s in seen), [s["hits"] for s in seen if s["hits"]]
    assert not any(" to 0 " in f" {s['info']} " for s in seen), seen[0]["info"]
    if game_id == "bid-whist":  # the contract in words: "4 uptown", never "4u"
        named = [s["info"] for s in seen if "Contract:" in s["info"]]
        assert named and all(
            re.search(r"Contract: [1-7] (uptown|downtown|no trump)", i) for i in named
        ), named
    await browser.run(lambda: page.wait_for_selector(".end h2"))
    game = table.game
    assert game is not None
    assert (await replay_from_db(env.bot.db, table)).state_key() == game.state_key()


@pytest.mark.slow
async def test_one_player_on_the_web_page_and_one_in_dms_at_the_same_table(
    site: Site, browser: Browser
) -> None:
    env = site.env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "ruff new", game="whist-5")
    await bob.click(table_message(channel), label="Join")
    page = await browser.page(site.url(alice.user, channel))
    await browser.run(lambda: page.wait_for_selector(".lobby [data-verb=start]"))
    lobby = await browser.run(lambda: page.inner_text(".lobby"))
    assert "bob" in lobby  # the seat taken on Discord shows on the page
    await browser.run(lambda: page.click("[data-verb=start]"))
    table = the_table(env, channel)
    await until(lambda: table.status == "active")
    bob_seat = table.seat_of(bob.user.id)
    assert bob_seat is not None
    seen_on_page: list[bool] = []

    async def bob_moves() -> bool:
        game = table.game
        if game is None or game.to_act() != bob_seat:
            return False
        version = table.version
        # the page's move reached bob's DM through the feed; its edit is the simulator's
        # to deliver (virtual time), sent from the web handler's task (real time: a loaded
        # machine takes seconds, so the wait is bounded in real time, not in steps)
        deadline = time.monotonic() + 30.0
        while not dm_ready(bob, version) and time.monotonic() < deadline:
            await env.advance_time(0.25)
            await asyncio.sleep(0.05)
        dm = bob.user.dm_channel
        assert dm_ready(bob, version), [m.content[:90] for m in dm.history()] if dm else None
        await act_on(bob.user, hand_message(bob), choose(table.view(bob_seat)))
        await until(lambda: table.version > version or table.status != "active")
        # the move made in the DMs shows on the page (the feed)
        after = table.version
        await until(lambda: page_seen(after), 15)
        seen_on_page.append(True)
        return True

    versions: dict[str, int] = {}

    def page_seen(version: int) -> bool:
        return versions.get("v", -1) >= version

    async def watch_page() -> None:
        while True:
            versions["v"] = await browser.run(page_version, page)
            await asyncio.sleep(0.1)

    watcher = asyncio.create_task(watch_page())
    try:
        moves = await play_to_the_end(browser, page, table, 0, bob_moves)
    finally:
        watcher.cancel()
    assert table.status == "finished" and moves > 5 and len(seen_on_page) > 5
    game = table.game
    assert game is not None
    assert (await replay_from_db(env.bot.db, table)).state_key() == game.state_key()
    # bob's DM hand followed the page's moves too: it ended with the game
    assert bob.user.dm_channel.last_message is not None


# ------------------------------------------------------------------ reconnects, spectators


@pytest.mark.parametrize("bot_settings", [{"ai_worlds": 8, "seed": 38, "turn_timeout": 300.0}])
async def test_a_reconnect_after_a_drop_and_a_bot_restart_resends_the_table(
    site: Site, browser: Browser, more_bots: list[RuffBot]
) -> None:
    env = site.env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    carol = guild.add_member(env.create_user("carol"))  # not seated: a spectator
    await alice.slash(channel, "ruff new", game="whist-5")
    await alice.click(table_message(channel), label="Start")
    table = the_table(env, channel)
    await until(lambda: table.status == "active")
    page = await browser.page(site.url(alice.user, channel), 360, 640)
    watcher = await browser.page(site.url(carol.user, channel), 360, 640)
    await browser.run(lambda: page.wait_for_selector(".hand"))
    # the spectator sees the public table: no hand, no choices, every seat's count
    await browser.run(lambda: watcher.wait_for_selector(".watching"))
    assert await browser.run(lambda: watcher.query_selector(".hand")) is None
    await until(lambda: table.game is not None and table.game.to_act() == 0, 30)
    # the turn's deadline counts down beside the player
    clock = await browser.run(lambda: page.wait_for_selector(".turnline .clock").inner_text())
    assert clock.startswith("⏱") and clock.endswith(" s"), clock
    # a claim asks to confirm first; Cancel sends nothing
    before = table.version
    asked = await browser.run(open_a_claim_and_cancel, page)
    assert asked.startswith("Claim") or asked.startswith("Concede"), asked
    assert table.version == before
    done = await browser.run(take_turn, page)
    assert done.startswith("play")
    await until(lambda: table.version > 0 and table.game.to_act() == 0, 30)  # type: ignore[union-attr]
    # a dropped connection: every socket closed by the server; the page reconnects
    assert site.web is not None
    await site.web.front.close()
    await until(lambda: site.web is not None and len(site.web.front.connections) == 2, 20)
    await browser.run(lambda: page.wait_for_selector(f"#table[data-version='{table.version}']"))
    # a bot restart: a new bot on the same database, a new web table on the same port
    await site.stop()
    new_bot = await restart(env, more_bots, site.settings.model_copy(update={"web_port": None}))
    await site.start(new_bot)
    table = the_table(env, channel)
    await until(lambda: site.web is not None and len(site.web.front.connections) == 2, 30)
    await browser.run(lambda: page.wait_for_selector(f"#table[data-version='{table.version}']"))
    version = table.version
    done = await browser.run(take_turn, page)
    assert done.startswith("play")
    await until(lambda: table.version > version, 30)
    assert await browser.run(lambda: watcher.query_selector(".hand")) is None
    await browser.run(lambda: watcher.wait_for_selector(".watching"))


async def test_an_expired_session_is_refused_and_the_page_signs_in_again(
    simcord_env: Any, db_path: Path, bot_settings: dict[str, Any], browser: Browser
) -> None:
    env = simcord_env
    short = Site(env, make_settings(db_path, **bot_settings))
    short.settings = short.settings.model_copy(update={"web_session_ttl": 2.0})
    await short.start(env.bot)
    try:
        guild = env.create_guild(name="Card Room")
        channel = guild.create_text_channel("cards")
        alice = guild.add_member(env.create_user("alice"))
        await alice.slash(channel, "ruff new", game="whist-5")
        await alice.click(table_message(channel), label="Start")
        table = the_table(env, channel)
        page = await browser.page(short.url(alice.user, channel))
        await until(lambda: table.game is not None and table.game.to_act() == 0, 30)
        await browser.run(lambda: page.wait_for_selector(".hand .cardbtn.legal"))
        await asyncio.sleep(2.2)  # the session runs out
        assert short.web is not None
        refused_before = table.version
        await browser.run(lambda: page.click(".hand .cardbtn.legal", position=CORNER))
        # refused (nothing played), the socket closed; the page signs in and reconnects
        await browser.run(
            lambda: page.wait_for_function(
                "document.querySelector('#say').textContent.includes('expired')"
            )
        )
        assert table.version == refused_before
        await browser.run(lambda: page.wait_for_selector(".hand .cardbtn.legal"))
        # keyboard play: the arrow keys walk the hand, Enter plays the card in focus
        await browser.run(keyboard_play, page)
        await until(lambda: table.version > refused_before, 20)
    finally:
        await short.stop()


# ------------------------------------------------------------------ the table's controls


def say(page: Any) -> str:
    return str(page.inner_text("#say"))


def said(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => document.querySelector('#say').textContent.includes(t)", arg=text, timeout=30000
    )


@pytest.mark.slow
async def test_lobby_hint_take_back_rematch_and_cancel_from_the_web_page(
    site: Site, browser: Browser
) -> None:
    """The lobby changes on both pages as it happens (pushed, not polled); a refusal is
    the Discord button's own words; Hint, Take my seat back, Rematch and Cancel work
    from the page through the calls the Discord buttons make, durably."""
    env = site.env
    bot = env.bot
    svc = bot.manager.services
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "ruff new", game="whist-5", target=1, options="hints:on")
    table = the_table(env, channel)
    page = await browser.page(site.url(alice.user, channel))
    other = await browser.page(site.url(bob.user, channel), 360, 640)
    await browser.run(lambda: other.click("[data-verb=join]"))
    # bob's seat shows on alice's page at once (the feed's change, not a poll)
    await browser.run(
        lambda: page.wait_for_selector(".lobby-seats li[data-seat='1']:text('bob')", timeout=900)
    )
    # bob is not the opener: Cancel is refused in the Discord button's own words
    await browser.run(lambda: other.click("[data-table=cancel]"))
    await browser.run(lambda: other.click("[data-confirm=cancel]"))
    await browser.run(said, other, "Only the table's opener or someone with Manage Server")
    assert table.status == "lobby"
    await browser.run(lambda: other.click("[data-verb=leave]"))
    await browser.run(
        lambda: page.wait_for_selector(".lobby-seats li[data-seat='1']:text('empty')", timeout=900)
    )
    await browser.run(lambda: page.click("[data-verb=start]"))
    await until(lambda: table.status == "active")
    # Hint, on alice's turn: the hard AI's advice, the text the Discord button gives
    await until(lambda: table.game is not None and table.game.to_act() == 0, 30)
    version = table.version
    await browser.run(lambda: page.click("[data-table=hint]"))
    expected = await bot.manager.hints.think(table, version, 0)
    await browser.run(said, page, expected.splitlines()[0][:40])
    assert table.version == version  # a hint changes nothing
    # the AI took alice's seat (her time ran out): Take my seat back, from the page
    async with table.lock:
        settings = replace(table.settings, away=frozenset({0}))
        table.db_version = await svc.table_repo.update_settings(table.id, settings.to_json())
        table.settings = settings
    svc.feed.changed(table)
    await browser.run(lambda: page.click("[data-table=reclaim]"))
    await until(lambda: not table.away)
    row = await svc.table_repo.get(table.id)
    assert row is not None and not row.settings.get("away")  # durable
    await browser.run(lambda: page.wait_for_selector("[data-table=reclaim]", state="detached"))
    # play the deal out (the game is to 1 point), then Rematch from the end screen
    await play_to_the_end(browser, page, table, 0)
    assert table.status == "finished"
    await browser.run(lambda: page.click("[data-table=rematch]"))
    await until(lambda: env.bot.manager.tables.open_in_channel(channel.id) is not None, 30)
    again = the_table(env, channel)
    assert again.id != table.id and again.status == "active"
    assert [getattr(s, "user_id", None) for s in again.seats][0] == alice.user.id
    await browser.run(
        lambda: page.wait_for_function(
            "id => document.querySelector('#title').textContent.includes('#' + id)",
            arg=again.id,
            timeout=10000,
        )
    )
    title = await browser.run(lambda: page.inner_text("#title"))
    assert title.startswith("Whist 5-Point"), title  # the game's name, not its id
    # Cancel (with its confirm) by the opener: durable, and the table message says so
    await browser.run(lambda: page.click("[data-table=cancel]"))
    await browser.run(lambda: page.click("[data-confirm=cancel]"))
    await until(lambda: again.status == "cancelled")
    row = await svc.table_repo.get(again.id)
    assert row is not None and row.status == "cancelled"
    await browser.run(lambda: page.wait_for_selector(".turnline:text('This table was cancelled.')"))
    await until(
        lambda: any(
            "❌ Cancelled by alice" in message_text(m)
            for m in channel.history()
            if is_table_message(m)
        ),
        20,
    )


# ------------------------------------------------------------------ accessibility

AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"


def axe_problems(page: Any, screen: str) -> list[str]:
    """axe-core's serious and critical violations on the page as it is (axe injected from
    web/node_modules, pinned by web/package-lock.json: no network)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # evaluated through the DevTools protocol: the page's own CSP (rightly) refuses
        # any script but its bundle, and the test must not loosen it
        page.evaluate("source => { (0, eval)(source); }", AXE.read_text(encoding="utf-8"))
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3)"
        ".map(n => n.target.join(' ')).join(', '))"
    )
    return [f"{screen}: {problem}" for problem in found]


def tab_to(page: Any, selector: str, presses: int = 60) -> None:
    """Press Tab until the focus is on an element matching ``selector`` (a keyboard user)."""
    for _press in range(presses):
        if page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def keyboard_turn(page: Any) -> str:
    """One turn by keyboard alone: Tab into the hand (or to a decision), the arrow keys
    to a card that lifts, Enter."""
    page.wait_for_selector(LIVE, timeout=30000)
    if page.query_selector(".end") is not None:
        return "end"
    decision = ".actions button[data-action]:not(.claim):not([data-action=lay-out])"
    if page.query_selector(decision) is not None:
        tab_to(page, decision)
        page.keyboard.press("Enter")
        return "decision"
    tab_to(page, ".hand .cardbtn")
    for _step in range(20):
        if page.evaluate("document.activeElement.classList.contains('legal')"):
            code = page.evaluate("document.activeElement.dataset.card")
            page.keyboard.press("Enter")
            return f"play {code}"
        page.keyboard.press("ArrowRight")
    raise AssertionError("no card lifts")


@pytest.mark.slow
async def test_axe_finds_nothing_serious_and_a_whole_deal_plays_by_keyboard(
    site: Site, browser: Browser
) -> None:
    """axe-core on the lobby, a turn, a trick on the table, a decision and the end:
    no serious or critical violation. The deal (a game to 1 point) is played with
    Tab, the arrow keys and Enter alone, from the lobby's Start on."""
    env = site.env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "ruff new", game="whist-5", target=1)
    table = the_table(env, channel)
    page = await browser.page(site.url(alice.user, channel), 360, 640)
    await browser.run(lambda: page.wait_for_selector(".lobby [data-verb=start]"))
    problems = await browser.run(axe_problems, page, "lobby")

    def start_by_keyboard() -> None:
        tab_to(page, "[data-verb=start]")
        page.keyboard.press("Enter")

    await browser.run(start_by_keyboard)
    await until(lambda: table.status == "active")
    seen_trick = False
    turns = 0
    deadline = time.monotonic() + 600
    while table.status == "active":
        assert time.monotonic() < deadline, "the deal did not end"
        if not table.view(0).legal:
            await asyncio.sleep(0.05)
            continue
        await browser.run(lambda: page.wait_for_selector(LIVE, timeout=30000))
        if turns == 0:
            problems += await browser.run(axe_problems, page, "turn")
        if not seen_trick and await browser.run(lambda: page.query_selector(".trick .card")):
            problems += await browser.run(axe_problems, page, "trick")
            seen_trick = True
        version = table.version
        done = await browser.run(keyboard_turn, page)
        if done == "end":
            break
        if await moved(lambda v=version: table.version > v or table.status != "active", 10):
            turns += 1
    assert table.status == "finished" and turns >= 10 and seen_trick
    await browser.run(lambda: page.wait_for_selector(".end [data-table=rematch]"))
    problems += await browser.run(axe_problems, page, "end")
    # a decision: a Bid Whist auction, on the desktop size
    await browser.run(lambda: page.set_viewport_size({"width": 1280, "height": 720}))
    bob = guild.add_member(env.create_user("bob"))
    room = guild.create_text_channel("auction")
    await bob.slash(room, "ruff new", game="bid-whist")
    auction = await browser.page(site.url(bob.user, room))
    await browser.run(lambda: auction.wait_for_selector(".lobby [data-verb=start]"))
    await browser.run(lambda: auction.click("[data-verb=start]"))
    await browser.run(
        lambda: auction.wait_for_selector(".you .actions button[data-action]", timeout=30000)
    )
    problems += await browser.run(axe_problems, auction, "decision")
    assert not problems, "\n".join(problems)
