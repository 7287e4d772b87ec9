"""Screenshots of what players see, from simcord's HTML preview in headless Chromium:
``python -m tools.screenshot_screens [out_dir]`` (default ``docs/screens``).

The real bot plays against the offline Discord simulator (simcord): alice opens a
table in #whist, fills it with three easy AI players and starts; the script plays
her turns until the fifth trick, with the turn timer on (so the DM and the thread
show deadlines), then serves simcord's preview of the table's thread and alice's
DM and has Chromium photograph each, at 960 px and at 400 px (a phone), through
the same rendering path as ``python -m tools.measure_screens``
(:mod:`tools.preview_browser`: the suit emojis' images included), which
photographs and measures the table message and the hand DM of every game.
Needs simcord's preview extras (``pip install -e ".[screens]"``) and a
``chromium`` binary on the PATH; the AI seats are seeded, so the game is the same
every run.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simcord  # noqa: E402

from bot.app.client import create_bot  # noqa: E402
from bot.config import Settings  # noqa: E402
from tools.preview_browser import DESKTOP, PHONE, Browser, photograph  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "docs" / "screens"
WIDTHS = (DESKTOP, PHONE)


async def _preview(env: Any, channel: Any, viewer: Any, name: str, out: Path) -> None:
    for width in WIDTHS:
        height = 1400 if width == DESKTOP else 1700
        await photograph(env, channel, viewer, width, height, out / f"{name}-{width}.png")


THEMES = (("dark", "#313338", "#dbdee1"), ("light", "#ffffff", "#313338"))
SUIT_SAMPLES = (
    ("as the bot writes them", "A♠\ufe0e 10♣\ufe0e Q♥ K♦ · J♠\ufe0e 10♣\ufe0e"),
    ("bare symbols (before)", "A♠ 10♣ Q♥ K♦ · J♠ 10♣"),
)


async def _suits_on_both_themes(out: Path) -> None:
    """The suit symbols in simcord's preview fonts (Noto Sans, Noto Color Emoji) on
    Discord's dark and light message backgrounds, and on the card buttons: simcord's
    preview has a dark theme only, so this page puts both side by side."""
    fonts = Path(simcord.__file__).parent / "preview" / "static" / "fonts"
    faces = (
        f"@font-face {{ font-family: NotoSans; src: url('file://{fonts / 'noto-sans-latin-v2.015.ttf'}'); }}"
        f"@font-face {{ font-family: NotoEmoji; src: url('file://{fonts / 'noto-color-emoji-v2.051.ttf'}'); }}"
    )
    blocks = []
    for name, bg, fg in THEMES:
        rows = "".join(f"<p><small>{what}</small><br>{text}</p>" for what, text in SUIT_SAMPLES)
        buttons = "".join(
            f"<span class=b style='background:{colour}'>{label}</span>"
            for colour, label in (
                ("#248046", "A♠\ufe0e"),
                ("#248046", "10♣\ufe0e"),
                ("#248046", "Q♥\ufe0e"),
                ("#4e5058", "K♦\ufe0e"),
                ("#248046", "Q♥"),
                ("#4e5058", "J♠"),
            )
        )
        blocks.append(
            f"<div style='background:{bg};color:{fg}'><h3>{name} theme</h3>{rows}<p>{buttons}</p></div>"
        )
    html = (
        f"<html><head><meta charset=utf-8><style>{faces} body {{ margin:0; font: 20px NotoSans, NotoEmoji; }}"
        " div { padding: 12px 20px; } small { opacity: .7; font-size: 14px; }"
        " .b { display:inline-block; color:#fff; padding:4px 14px; margin:4px; border-radius:4px; }"
        f"</style></head><body>{''.join(blocks)}</body></html>"
    )
    page = out / "suits.html"
    page.write_text(html, encoding="utf-8")
    async with Browser(560, 560) as browser:
        await browser.load(page.as_uri())
        await browser.shoot(out / "suits-dark-light.png")
    page.unlink()


async def _act(alice: Any) -> bool:
    dm = alice.user.dm_channel.last_message
    if dm is None or "Your turn" not in dm.content:
        return False
    rows = [c for row in dm.components for c in getattr(row, "children", [])]
    select = next((c for c in rows if c.type.value == 3), None)
    confirm = next((c for c in rows if str(getattr(c, "custom_id", "")).startswith("rh:k:")), None)
    if confirm is not None:  # the cards to lay out are chosen: Confirm
        await alice.user.click(dm, custom_id=confirm.custom_id)
        return True
    if select is not None:
        await alice.user.select(dm, [o.value for o in select.options][: select.min_values])
        return True
    for label in ("Take the stock (ruff)", "Call “Can-ye?”", "Show honours"):
        if any(getattr(c, "label", None) == label for c in rows):
            await alice.user.click(dm, label=label)
            return True
    # the last playable card (the claim and concede buttons are no cards: they ask first)
    live = [
        c for c in rows if c.type.value == 2 and not c.disabled and ":play:" in (c.custom_id or "")
    ]
    await alice.user.click(dm, custom_id=live[-1].custom_id)
    return True


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    await _suits_on_both_themes(out)
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
                channel = guild.create_text_channel("whist")
                alice = guild.add_member(env.create_user("alice"))
                bob = guild.add_member(env.create_user("bob"))  # a spectator
                await alice.slash(channel, "ruff new")
                for level in ("easy", "easy", "easy"):
                    await alice.click(channel.last_message, label=f"Add AI ({level})")
                await alice.click(channel.last_message, label="Start")
                game = bot.manager.tables[1]
                for _ in range(200):
                    g = game.game
                    if (
                        g.phase == "play"
                        and g.trick_no >= 5
                        and g.to_act() == 0
                        and len(g.trick) >= 2
                    ):
                        break
                    if not await _act(alice):
                        await env.advance_time(1)
                await env.settle()
                await bot.manager.services.notifier.flush()
                await _preview(env, channel.threads[0], bob, "thread", out)
                await _preview(env, alice.user.dm_channel, alice.user, "dm", out)
        finally:
            await bot.close()
    for path in sorted(out.glob("*.png")):
        print(path)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
