"""Screenshots of the web table at a phone's 360x640 and a desktop's 1280x720.

``python -m tools.screenshot_web`` runs the offline demo's web table (the real bot
on the simcord simulator, tools/demo.py) and drives headless chromium
(/usr/bin/chromium, through Playwright) through a game: the lobby, a turn at the
table (two- and four-colour decks), a spectator's view, and the end. The PNGs go to
docs/screens/web-*.png (``--game turnover-bridge --prefix web-turnover`` for another
kind of table). Needs the bundle (`make web`).
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
from pathlib import Path
from typing import Any

from bot.config import Settings
from tools.demo import run_web_demo

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screens"
PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 720}
LIVE = (
    ".end, .hand .cardbtn.legal, .layouts .cardbtn.legal, .actions button[data-action]:not(.claim)"
)


def shoot(url: str, spectator: str, out: Path, prefix: str = "web") -> list[Path]:
    """The browser's part (sync Playwright, on its own thread)."""
    from playwright.sync_api import Error, sync_playwright

    made: list[Path] = []

    def snap(page: Any, name: str) -> None:
        path = out / f"{prefix}-{name}.png"
        page.screenshot(path=str(path))
        made.append(path)

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        phone = browser.new_page(viewport=PHONE, device_scale_factor=2)
        phone.goto(url)
        phone.wait_for_selector(".lobby [data-verb=start]")
        phone.click("[data-verb=ai-hard]")
        phone.wait_for_function(
            "() => [...document.querySelectorAll('.lobby-seats li')].some("
            "li => li.textContent.includes('AI'))"
        )
        phone.wait_for_timeout(300)
        snap(phone, "lobby-360x640")
        phone.click("[data-verb=start]")
        desk = browser.new_page(viewport=DESKTOP)
        desk.goto(url)
        watcher = browser.new_page(viewport=DESKTOP)
        watcher.goto(spectator)
        turns = 0
        shots = {3: "turn", 9: "trick"}
        while True:
            phone.wait_for_selector(LIVE, timeout=60000)
            if phone.query_selector(".end") is not None:
                break
            turns += 1
            if turns in shots:
                phone.wait_for_timeout(400)
                desk.wait_for_timeout(100)
                snap(phone, f"{shots[turns]}-360x640")
                snap(desk, f"{shots[turns]}-1280x720")
                if turns == 3:
                    desk.check("#deck")
                    desk.wait_for_timeout(300)
                    snap(desk, "four-colour-1280x720")
                    phone.click("#last")
                    phone.wait_for_timeout(200)
                    snap(phone, "last-trick-360x640")
                    phone.click("#last")
                    snap(watcher, "spectator-1280x720")
            try:
                decision = phone.query_selector(
                    ".actions button[data-action]:not(.claim):not([data-action=lay-out])"
                )
                if decision is not None:
                    decision.click()
                    continue
                go = phone.query_selector("button[data-action=lay-out]")
                while go is not None and not go.is_enabled():
                    phone.click(".hand .cardbtn.legal:not(.picked)")
                    go = phone.query_selector("button[data-action=lay-out]")
                if go is not None:
                    if turns < 40 and "laying-out" not in {p.stem for p in made}:
                        snap(phone, "lay-out-360x640")
                    go.click()
                    continue
                phone.click(".hand .cardbtn.legal, .layouts .cardbtn.legal")
            except Error:
                continue  # the page redrew under the click: look again
            phone.wait_for_timeout(60)
        phone.wait_for_timeout(500)
        snap(phone, "end-360x640")
        desk.wait_for_selector(".end")
        snap(desk, "end-1280x720")
        browser.close()
    return made


async def main_async(seed: int, game: str, prefix: str) -> list[Path]:
    OUT.mkdir(parents=True, exist_ok=True)
    ready: asyncio.Future[tuple[str, str]] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    settings = Settings.from_env().model_copy(update={"web_port": 0})

    def announce(link: str, spectator: str) -> None:
        if not ready.done():
            ready.set_result((link, spectator))

    demo = asyncio.create_task(
        run_web_demo(settings, seed, game, until=stop, announce=announce, quiet=True)
    )
    link, spectator = await ready
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        made = await asyncio.get_running_loop().run_in_executor(
            thread, shoot, link, spectator, OUT, prefix
        )
    stop.set()
    await demo
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.screenshot_web")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--game", default="ruff-honours-cotton")
    parser.add_argument("--prefix", default="web", help="the PNGs' names begin with this")
    args = parser.parse_args(argv)
    for path in asyncio.run(main_async(args.seed, args.game, args.prefix)):
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
