"""simcord's HTML preview in headless Chromium, as a player would see it: the one
rendering path of ``tools.measure_screens`` (heights) and the ``tools.screenshot_*``
scripts (pictures), so what is measured is what is photographed, and the setup they
share.

:func:`simulated_bot` runs the real bot against the offline Discord simulator on a
fresh database in a temporary folder and hands over the bot, simcord's environment
and a server to play in; the screenshots go to :data:`OUT` unless told otherwise.

:func:`open_preview` serves simcord's preview of a channel with the bot's suit
emojis' images (simcord keeps an uploaded application emoji's name, not its
image: without them every card button would show a broken image of another
size), and :class:`Browser` drives one Chromium page over the DevTools protocol
(a websocket, through aiohttp): it loads the page, waits until its messages and
every image in them have loaded, reads the boxes of the messages
(:data:`MEASURE_JS`) and takes screenshots. :func:`photograph` does all of it for one
channel; :func:`loaded_page` also waits for the text's web fonts and leaves the page
open to shoot or read more.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import shutil
import socket
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import simcord
from simcord.backend.cdn import CDN_BASE

from bot.app.client import RuffBot, create_bot
from bot.config import Settings
from bot.present import suit_emojis

PHONE, DESKTOP = 400, 960
OUT = Path(__file__).resolve().parents[1] / "docs" / "screens"

MEASURE_JS = r"""
(() => {
  const out = [];
  for (const m of document.querySelectorAll('.channel-message[data-message-id]')) {
    const id = m.dataset.messageId;
    const box = m.getBoundingClientRect();
    const head = m.querySelector('.message-header');
    const top = head ? head.getBoundingClientRect().top : box.top;
    const buttons = [...m.querySelectorAll('.message-components button')];
    const last = buttons.length ? Math.max(...buttons.map(b => b.getBoundingClientRect().bottom)) : box.bottom;
    const first = buttons.length ? Math.min(...buttons.map(b => b.getBoundingClientRect().top)) : box.bottom;
    const imgs = [...m.querySelectorAll('img')].filter(i => i.naturalWidth > 200);
    out.push({
      id, top, bottom: box.bottom, last_button: last, first_button: first,
      image_width: imgs.length ? imgs[0].getBoundingClientRect().width : 0,
      image_natural: imgs.length ? imgs[0].naturalWidth : 0,
      loaded: [...m.querySelectorAll('img')].every(i => i.complete && i.naturalWidth > 0),
    });
  }
  return JSON.stringify(out);
})()
"""


SETTINGS: dict[str, Any] = {"ai_delay": 0.0, "ai_mode": "inline", "seed": 5}
"""What every screenshot run sets: the AI moves at once, in this process, its seats seeded
(the same games every run)."""


@contextlib.asynccontextmanager
async def simulated_bot(
    *, settle_timeout: float | None = None, **settings: Any
) -> AsyncIterator[tuple[RuffBot, Any, Any]]:
    """The real bot against simcord, on a fresh SQLite database in a temporary folder:
    ``(bot, env, guild)``, the guild a server named "Card Room". ``settings`` are the
    bot's :class:`~bot.config.Settings` but the database, over :data:`SETTINGS`;
    ``settle_timeout`` (seconds) lets simcord wait longer for the AI on a loaded
    machine. The bot is closed after."""
    with tempfile.TemporaryDirectory() as tmp:
        database = str(Path(tmp) / "ruff.db")
        bot = create_bot(Settings(database=database, **(SETTINGS | settings)))
        try:
            async with simcord.run(bot) as env:
                if settle_timeout is not None:
                    env.settle_timeout = settle_timeout
                yield bot, env, env.create_guild(name="Card Room")
        finally:
            await bot.close()


def emoji_assets(env: Any) -> dict[str, tuple[str, bytes]]:
    """The suit emojis' pictures by their CDN address, for simcord's preview."""
    by_name = {name: suit for suit, name in suit_emojis.NAMES.items()}
    return {
        f"{CDN_BASE}/emojis/{e.id}.png": (f"{e.name}.png", suit_emojis.suit_png(by_name[e.name]))
        for e in env.backend.application_emojis.values()
        if e.name in by_name
    }


@contextlib.asynccontextmanager
async def open_preview(
    env: Any, channel: Any, viewer: Any, width: int, height: int
) -> AsyncIterator[str]:
    """simcord's preview of ``channel`` as ``viewer`` sees it at ``width``: its URL."""
    async with env.preview(
        channel,
        viewers=[viewer],
        layout="channel",
        display="fixed",
        width=width,
        height=height,
        assets=emoji_assets(env),
    ) as preview:
        yield str(preview.url)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def chromium_path() -> str:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("chromium is not installed (apt-get install -y chromium)")
    return chromium


class Browser:
    """One headless Chromium page, driven over the DevTools protocol."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.proc: asyncio.subprocess.Process | None = None
        self.session: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self._id = 0
        self.profile = tempfile.mkdtemp(prefix="preview-chromium-")

    async def __aenter__(self) -> Browser:
        port = _free_port()
        self.proc = await asyncio.create_subprocess_exec(
            chromium_path(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--user-data-dir={self.profile}",
            f"--remote-debugging-port={port}",
            f"--window-size={self.width},{self.height}",
            "about:blank",
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        self.session = aiohttp.ClientSession()
        for _ in range(100):
            try:
                async with self.session.get(f"http://127.0.0.1:{port}/json") as resp:
                    pages = [p for p in await resp.json() if p.get("type") == "page"]
                if pages:
                    break
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)
        else:
            raise SystemExit("chromium did not start")
        self.ws = await self.session.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0)
        await self.send(
            "Emulation.setDeviceMetricsOverride",
            width=self.width,
            height=self.height,
            deviceScaleFactor=1,
            mobile=False,
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.session is not None:
            await self.session.close()
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            with contextlib.suppress(ProcessLookupError):
                await self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        assert self.ws is not None
        self._id += 1
        mine = self._id
        await self.ws.send_json({"id": mine, "method": method, "params": params})
        while True:
            msg = await self.ws.receive_json()
            if msg.get("id") == mine:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return dict(msg.get("result", {}))

    async def evaluate(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", expression=expression)
        return result.get("result", {}).get("value")

    async def open(self, url: str) -> list[dict[str, Any]]:
        """Load ``url``, wait until its messages and their images are there; the
        message boxes (see :data:`MEASURE_JS`). A page of messages whose images do not
        load is an error: what it would measure is not what a player sees."""
        await self.send("Page.navigate", url=url)
        boxes: list[dict[str, Any]] = []
        for tick in range(150):
            await asyncio.sleep(0.1)
            value = await self.evaluate(MEASURE_JS)
            boxes = json.loads(value) if value else []
            if boxes and all(b["loaded"] for b in boxes):
                break
            if not boxes and tick >= 30:  # a page without channel messages (a thread's view)
                break
        else:
            broken = await self.evaluate(
                "JSON.stringify([...document.querySelectorAll('img')]"
                ".filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src))"
            )
            raise SystemExit(f"the preview's images did not load: {url} {broken}")
        await asyncio.sleep(0.5)  # fonts and layout settle
        return list(json.loads(await self.evaluate(MEASURE_JS)))

    async def load(self, url: str) -> None:
        """Load a plain page (no messages to wait for) and let it settle."""
        await self.send("Page.navigate", url=url)
        await asyncio.sleep(1.0)

    async def shoot(self, path: Path, bottom: float | None = None) -> None:
        """A screenshot of the page into ``path``; down to ``bottom`` (px) if given."""
        clip: dict[str, Any] = {}
        if bottom is not None:
            height = min(float(self.height), bottom)
            clip = {"clip": {"x": 0, "y": 0, "width": self.width, "height": height, "scale": 1}}
        shot = await self.send("Page.captureScreenshot", format="png", **clip)
        path.write_bytes(base64.b64decode(shot["data"]))


async def photograph(
    env: Any, channel: Any, viewer: Any, width: int, height: int, path: Path
) -> list[dict[str, Any]]:
    """Photograph ``channel`` as ``viewer`` sees it at ``width`` into ``path`` (down to
    its last message); the message boxes."""
    async with (
        open_preview(env, channel, viewer, width, height) as url,
        Browser(width, height) as browser,
    ):
        boxes = await browser.open(url)
        await browser.shoot(path, bottom=max(b["bottom"] for b in boxes) + 16 if boxes else None)
        return boxes


@contextlib.asynccontextmanager
async def loaded_page(
    env: Any, channel: Any, viewer: Any, width: int, height: int
) -> AsyncIterator[tuple[Browser, list[dict[str, Any]]]]:
    """``channel``'s preview as ``viewer`` sees it at ``width``, loaded, its web fonts
    too: the browser (to shoot or read more) and the message boxes (:data:`MEASURE_JS`)."""
    async with (
        open_preview(env, channel, viewer, width, height) as url,
        Browser(width, height) as browser,
    ):
        await browser.open(url)
        # a loaded machine may still be fetching the text's web fonts: Chromium then lays
        # the text out invisible (and the photograph shows gaps), so wait for them
        await browser.send(
            "Runtime.evaluate", expression="document.fonts.ready.then(() => 1)", awaitPromise=True
        )
        yield browser, json.loads(await browser.evaluate(MEASURE_JS))
