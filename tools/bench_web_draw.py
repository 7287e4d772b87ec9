"""The web table's first draw in Chromium with the CPU slowed down, and the bundle's size.

``python -m tools.bench_web_draw [--runs N] [--throttle 4]`` serves a table of whist
(four seats, the game started) on loopback with the demo's mock sign-in, then opens
the page in Debian's headless chromium (``/usr/bin/chromium``, through Playwright:
no browser download) ``--runs`` times, each in a fresh context (nothing cached),
with the CPU slowed ``--throttle`` times by the DevTools protocol
(``Emulation.setCPUThrottlingRate``), at a phone's 360x640 and a desktop's
1280x720. It prints, in milliseconds from the navigation's start, when the page
had its first table drawn (the player's hand on the felt: the sign-in, the socket,
the first state and its drawing all done) and its load event, p50 and max; then
the bundle's size, raw and gzipped. The issue's goal: the first table ≤ 1500 ms at
4× throttling.

``--compare DIR`` measures another build of the page too (``DIR`` holds its
``index.html``, ``app.js``, ``app.css`` and ``chunks/``, e.g. built from an earlier
commit), served by the same server, the two loaded in turn run by run: before and
after side by side on a machine whose load changes from one minute to the next.
It also prints when each load's marks fell (``rh:boot``, ``rh:signed-in``,
``rh:socket-open``, ``rh:first-frame``, set by web/src), p50: where the time goes.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import statistics
from pathlib import Path
from typing import Any

from bot.web import server
from bot.web.server import STATIC, WebTable
from tools.bench_web import bench_services, open_tables, pct

CHROMIUM = "/usr/bin/chromium"
SIZES = ((360, 640), (1280, 720))
DRAWN = "#table[data-status=active] .hand .cardbtn"
MARK = "performance.getEntriesByName('rh:first-table')[0].startTime"  # set by web/src/main.ts
# the last card face of the first table fetched (its image's response ended)
FACES = (
    "Math.max(0, ...performance.getEntriesByType('resource')"
    ".filter((e) => e.name.includes('/cards/')).map((e) => e.responseEnd))"
)


STEPS = ("rh:boot", "rh:signed-in", "rh:socket-open", "rh:first-frame", "rh:first-state")
STEPS_JS = (
    "(names) => names.map((n) => { const m = performance.getEntriesByName(n)[0];"
    " return m === undefined ? null : m.startTime; })"
)


async def first_draw(
    browser: Any, url: str, size: tuple[int, int], throttle: float, steps: list[list[float]]
) -> tuple[float, float, float]:
    """(first table drawn, its card faces fetched, load event) in ms from the
    navigation's start, in a fresh context; each of :data:`STEPS`' times appended to
    ``steps`` (where the page has it)."""
    context = await browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = await context.new_page()
        cdp = await context.new_cdp_session(page)
        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        await page.goto(url, wait_until="commit")
        await page.wait_for_selector(DRAWN, timeout=60000)
        at = float(await page.evaluate(MARK))
        for k, when in enumerate(await page.evaluate(STEPS_JS, list(STEPS))):
            if when is not None:
                steps[k].append(float(when))
        await page.wait_for_load_state("load")
        load = float(
            await page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
        )
        await page.wait_for_function(f"{MARK} <= {FACES}", timeout=60000)  # cards fetched
        return at, max(at, float(await page.evaluate(FACES))), load
    finally:
        await context.close()


def show(label: str, values: list[float]) -> str:
    return (
        f"{label:>34}: p50 {statistics.median(values):7.0f} ms   p90 {pct(values, 0.9):7.0f} ms"
        f"   max {max(values):7.0f} ms   (n={len(values)})"
    )


async def main_async(runs: int, throttle: float, compare: Path | None = None) -> None:
    from playwright.async_api import async_playwright

    if not (STATIC / "app.js").exists():
        raise SystemExit("the bundle is not built: run `make web`")
    builds = {"this": STATIC}
    if compare is not None:
        if not (compare / "app.js").exists() or not (compare / "index.html").exists():
            raise SystemExit(f"{compare} holds no built page (index.html, app.js)")
        builds["compared"] = compare
    async with bench_services("draw") as svc:
        [table] = await open_tables(svc, 1)
        web = WebTable(svc, svc.settings, None)
        await web.start()
        user = table.seats[0].user_id  # type: ignore[union-attr]
        url = f"http://127.0.0.1:{web.port}/?user_id={user}&channel_id={table.channel_id}&name=P0"
        try:
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
                )
                print(f"first table drawn, chromium {browser.version}, {runs} cold loads each")
                for rate in (1.0, throttle):
                    for size in SIZES:
                        drawn: dict[str, list[float]] = {name: [] for name in builds}
                        loads: dict[str, list[float]] = {name: [] for name in builds}
                        faces: dict[str, list[float]] = {name: [] for name in builds}
                        steps: dict[str, list[list[float]]] = {
                            name: [[] for _ in STEPS] for name in builds
                        }
                        for root in builds.values():  # chromium itself warmed
                            server.STATIC = root
                            await first_draw(browser, url, size, rate, [[] for _ in STEPS])
                        for _run in range(runs):
                            for name, root in builds.items():  # in turn, run by run
                                server.STATIC = root
                                at, shown, load = await first_draw(
                                    browser, url, size, rate, steps[name]
                                )
                                drawn[name].append(at)
                                faces[name].append(shown)
                                loads[name].append(load)
                        server.STATIC = STATIC
                        label = f"{rate:g}x CPU, {size[0]}x{size[1]}"
                        for name in builds:
                            tag = f"{label}{f' ({name})' if compare is not None else ''}"
                            print(show(f"{tag}: table drawn", drawn[name]))
                            print(show(f"{tag}: its card faces in", faces[name]))
                            print(show(f"{tag}: load event", loads[name]))
                            marks = ", ".join(
                                f"{step[3:]} {statistics.median(times):.0f}"
                                for step, times in zip(STEPS, steps[name], strict=True)
                                if times
                            )
                            print(f"{'':>36}marks p50 (ms): {marks}")
                await browser.close()
        finally:
            server.STATIC = STATIC
            await web.close()
    print()
    for name, root in builds.items():
        files = [root / "app.js", root / "app.css", *sorted((root / "chunks").glob("*.js"))]
        for path in files:
            data = path.read_bytes()
            print(
                f"{name + ': ' if compare is not None else ''}{path.relative_to(root)}: "
                f"{len(data) / 1024:.1f} KB ({len(gzip.compress(data, 9)) / 1024:.1f} KB gzipped)"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_web_draw")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--throttle", type=float, default=4.0)
    parser.add_argument(
        "--compare",
        type=Path,
        default=None,
        help="another built page (index.html, app.js, app.css, chunks/) measured in turn",
    )
    args = parser.parse_args(argv)
    asyncio.run(main_async(args.runs, args.throttle, args.compare))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
