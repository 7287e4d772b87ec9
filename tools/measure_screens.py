"""How the table looks on a phone, measured: ``python -m tools.measure_screens [out_dir]``
(default ``docs/screens``; ``--no-save`` writes the screenshots to a temporary folder).

For each game family (Ruff and Honours, Whist, Solo Whist, Bid Whist, Ruffe and
Trump, Turnover Bridge) the real bot plays against the offline Discord simulator
(simcord): alice opens a table, fills it with easy AI players, starts, and plays
her turns (from her hand DM, as a player would) until the play is mid-trick with
her to play. Then simcord's HTML preview of the channel and of alice's DM is
loaded in headless Chromium (``/usr/bin/chromium``) at 400 px (a phone) and, for
the first family, 960 px, and the script prints, per game:

* ``table@400``: the height at 400 px of the table message, from the top of its
  message (author line) to the bottom of its last button (target <= 450 px);
* ``dm@400``: the same for alice's hand DM on her turn (target <= 400 px);
* ``picture``: the width the picture is shown at in that 400 px page, and, with
  the picture scaled to 300 px wide, its smallest text (the font's pixel size;
  and the height of a capital H at that size) and its trick cards' width, from
  the sizes the picture module drew with (``Picture.smallest_text``,
  ``Picture.trick_card_w``, ``Picture.layout_card_w``).

Heights come from the DOM: the script drives Chromium over the DevTools protocol
(a websocket, through aiohttp), waits for the page and its images to load, and
reads ``getBoundingClientRect()`` of the message element, its author line and its
last button. The screenshots are taken over the same connection
(``Page.captureScreenshot``): ``table-<game>-400.png`` for each family,
``table-<game>-960.png`` for the first, ``lobby-400.png`` (the thread and the
hand DM are photographed by ``tools/screenshot_screens.py``). The AI seats are
seeded: the same games every run.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import shutil
import socket
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp  # noqa: E402
import simcord  # noqa: E402

from bot.app.client import create_bot  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.present.drawing import font  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "docs" / "screens"
PHONE, DESKTOP = 400, 960
SHOWN = 300  # the narrowest width the picture is shown at on a phone
FAMILIES = (
    ("Ruff and Honours", "ruff-honours-cotton", 3),
    ("Whist", "whist-long", 3),
    ("Solo Whist", "solo-whist", 3),
    ("Bid Whist", "bid-whist", 3),
    ("Ruffe and Trump", "ruff-trump-willughby", 3),
    ("Turnover Bridge", "turnover-bridge", 1),
)

# --------------------------------------------------------------- Chromium over CDP

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
    const imgs = [...m.querySelectorAll('img')].filter(i => i.naturalWidth > 200);
    out.push({
      id, top, bottom: box.bottom, last_button: last,
      image_width: imgs.length ? imgs[0].getBoundingClientRect().width : 0,
      image_natural: imgs.length ? imgs[0].naturalWidth : 0,
      loaded: [...m.querySelectorAll('img')].every(i => i.complete && i.naturalWidth > 0),
    });
  }
  return JSON.stringify(out);
})()
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Browser:
    """One headless Chromium page, driven over the DevTools protocol."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.proc: asyncio.subprocess.Process | None = None
        self.session: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self._id = 0
        self.profile = tempfile.mkdtemp(prefix="measure-chromium-")

    async def __aenter__(self) -> Browser:
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium is None:
            raise SystemExit("chromium is not installed (apt-get install -y chromium)")
        port = _free_port()
        self.proc = await asyncio.create_subprocess_exec(
            chromium,
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

    async def open(self, url: str) -> list[dict[str, Any]]:
        """Load ``url``, wait until its messages and their images are there; the
        message boxes (see :data:`MEASURE_JS`)."""
        await self.send("Page.navigate", url=url)
        boxes: list[dict[str, Any]] = []
        for _ in range(150):
            await asyncio.sleep(0.1)
            result = await self.send("Runtime.evaluate", expression=MEASURE_JS)
            value = result.get("result", {}).get("value")
            boxes = json.loads(value) if value else []
            if boxes and all(b["loaded"] for b in boxes):
                break
        await asyncio.sleep(0.5)  # fonts and layout settle
        result = await self.send("Runtime.evaluate", expression=MEASURE_JS)
        return list(json.loads(result["result"]["value"]))

    async def shoot(self, path: Path) -> None:
        shot = await self.send("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))


# --------------------------------------------------------------- playing to mid-trick


async def _act(alice: Any) -> bool:
    """alice's turn in her hand DM: the first sensible control (a menu, a decision, Pass,
    the last playable card, else the first live action button)."""
    dm = alice.user.dm_channel.last_message if alice.user.dm_channel else None
    if dm is None:
        return False
    items: list[Any] = []

    def walk(components: Any) -> None:
        for c in components:
            if c.type.value in (2, 3):
                items.append(c)
            walk(getattr(c, "children", ()) or ())

    walk(dm.components)
    confirm = next((c for c in items if str(getattr(c, "custom_id", "")).startswith("rh:k:")), None)
    if confirm is not None and not confirm.disabled:  # the cards to lay out are chosen
        await alice.user.click(dm, custom_id=confirm.custom_id)
        return True
    select = next(
        (c for c in items if c.type.value == 3 and not c.disabled and ":t:" not in c.custom_id),
        None,
    )
    if select is not None:
        await alice.user.select(dm, [o.value for o in select.options][: select.min_values])
        return True
    live = [
        c for c in items if c.type.value == 2 and not c.disabled and ":a:" in (c.custom_id or "")
    ]
    decisions = ("Reject the claim", "Play on", "Take the stock (ruff)", "Call “Can-ye?”")
    for label in (*decisions, "Show honours", "Pass"):
        if any(c.label == label for c in live):
            await alice.user.click(dm, label=label)
            return True
    cards = [c for c in live if any(s in (c.label or "") for s in "♠♥♦♣")]
    pick = cards[-1] if cards else (live[0] if live else None)
    if pick is None:  # not alice's turn: nothing of hers is live
        return False
    await alice.user.click(dm, custom_id=pick.custom_id)
    return True


async def _settle(env: Any) -> None:
    for _ in range(20):
        try:
            await env.settle()
            return
        except TimeoutError:
            await asyncio.sleep(0.5)


@dataclass
class Measured:
    family: str
    table_h: float
    dm_h: float
    shown_w: float
    smallest: float
    cap: float
    trick_w: float
    layout_w: float


async def _play_one(
    env: Any,
    bot: Any,
    guild: Any,
    n: int,
    family: str,
    game_id: str,
    ais: int,
    out: Path,
    first: bool,
) -> Measured:
    channel = guild.create_text_channel(game_id)
    alice = guild.add_member(env.create_user(f"alice{n}" if n else "alice"))
    await alice.slash(channel, "ruff new", game=game_id)
    table = channel.last_message
    for _ in range(ais):
        table = channel.last_message
        await alice.click(table, label="Add AI (easy)")
    if first:
        await env.settle()
        await bot.manager.services.notifier.flush()
        async with (
            env.preview(
                channel, viewers=[alice], layout="channel", display="fixed", width=PHONE, height=900
            ) as preview,
            Browser(PHONE, 900) as browser,
        ):
            await browser.open(preview.url)
            await browser.shoot(out / "lobby-400.png")
    await alice.click(channel.last_message, label="Start")
    tid = max(bot.manager.tables)
    game = bot.manager.tables[tid]
    for _ in range(400):
        g = game.game
        if g.phase == "play" and g.trick_no >= 2 and g.to_act() == 0 and len(g.trick) >= 1:
            break
        if g.is_over:
            raise SystemExit(f"{family}: the game ended before a mid-trick turn of alice's")
        try:
            if not await _act(alice):
                await env.advance_time(1)
        except TimeoutError:  # a searching AI or a picture took longer than simcord waits
            await asyncio.sleep(0.5)
    await _settle(env)
    await bot.manager.services.notifier.flush()
    await env.settle()
    slug = family.lower().replace(" ", "-")
    table_msg = next(m for m in channel.history() if m.id == game.message_id)
    heights: dict[str, float] = {}
    shown_w = 0.0
    for width in (PHONE, DESKTOP) if first else (PHONE,):
        async with (
            env.preview(
                channel,
                viewers=[alice],
                layout="channel",
                display="fixed",
                width=width,
                height=1400,
            ) as preview,
            Browser(width, 1400) as browser,
        ):
            boxes = await browser.open(preview.url)
            box = next(b for b in boxes if b["id"] == str(table_msg.id))
            if width == PHONE:
                heights["table"] = box["last_button"] - box["top"]
                shown_w = box["image_width"]
            await browser.shoot(out / f"table-{slug}-{width}.png")
    dm_msg = alice.user.dm_channel.last_message
    async with (
        env.preview(
            alice.user.dm_channel,
            viewers=[alice.user],
            layout="channel",
            display="fixed",
            width=PHONE,
            height=1400,
        ) as preview,
        Browser(PHONE, 1400) as browser,
    ):
        boxes = await browser.open(preview.url)
        box = next(b for b in boxes if b["id"] == str(dm_msg.id))
        heights["dm"] = box["last_button"] - box["top"]
    picture = game.shown.pictures.last
    assert picture is not None, "the table shows no picture"
    scale = SHOWN / picture.width
    cap = font(picture.smallest_text).getbbox("H")
    return Measured(
        family,
        heights["table"],
        heights["dm"],
        shown_w,
        picture.smallest_text * scale,
        (cap[3] - cap[1]) * scale,
        picture.trick_card_w * scale,
        picture.layout_card_w * scale,
    )


async def main(out: Path) -> list[Measured]:
    out.mkdir(parents=True, exist_ok=True)
    results: list[Measured] = []
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database=str(Path(tmp) / "ruff.db"),
            ai_delay=0.0,
            turn_timeout=90.0,
            lobby_timeout=0.0,
            table_edit_interval=0.0,
            ai_mode="inline",
            ai_worlds=16,
            seed=5,
        )
        bot = create_bot(settings)
        try:
            async with simcord.run(bot) as env:
                guild = env.create_guild(name="Card Room")
                for n, (family, game_id, ais) in enumerate(FAMILIES):
                    results.append(
                        await _play_one(env, bot, guild, n, family, game_id, ais, out, n == 0)
                    )
        finally:
            await bot.close()
    print(
        f"{'game':<18} {'table@400':>9} {'dm@400':>7} {'pic shown':>9}"
        f" {'text@300':>8} {'H@300':>6} {'card@300':>8} {'layout@300':>10}"
    )
    for m in results:
        print(
            f"{m.family:<18} {m.table_h:>7.0f}px {m.dm_h:>5.0f}px {m.shown_w:>7.0f}px"
            f" {m.smallest:>6.2f}px {m.cap:>4.1f}px {m.trick_w:>6.1f}px"
            f" {m.layout_w:>8.1f}px" + ("" if m.layout_w else " (none)")
        )
    print("targets: table <= 450 px, DM <= 400 px, text >= 9 px, trick cards >= 40 px at 300 px")
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=OUT)
    parser.add_argument("--no-save", action="store_true", help="screenshots to a temporary folder")
    args = parser.parse_args()
    if args.no_save:
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(main(Path(folder)))
    else:
        asyncio.run(main(args.out))
