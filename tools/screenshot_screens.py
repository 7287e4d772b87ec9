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

``--texts`` photographs, instead, the longer texts a player reads on a phone, each
DMed to alice and shot at 400 px: a deal's review (``review-400.png``, from a sample
review of eight costly decisions, three of them mistakes) and the day's standings
(``standings-400.png``: a tie, a player still playing). It prints each one's height.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fractions import Fraction  # noqa: E402

import simcord  # noqa: E402

from bot.present.render.daily import standings_text  # noqa: E402
from bot.present.render.review import review_text  # noqa: E402
from engine import make_rules  # noqa: E402
from tools.preview_browser import (  # noqa: E402
    DESKTOP,
    OUT,
    PHONE,
    Browser,
    loaded_page,
    photograph,
    simulated_bot,
)

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
    async with simulated_bot(
        turn_timeout=90.0,
        lobby_timeout=0.0,
        table_edit_interval=0.0,
        ai_worlds=16,
    ) as (bot, env, guild):
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
            if g.phase == "play" and g.trick_no >= 5 and g.to_act() == 0 and len(g.trick) >= 2:
                break
            if not await _act(alice):
                await env.advance_time(1)
        await env.settle()
        await bot.manager.services.notifier.flush()
        await _preview(env, channel.threads[0], bob, "thread", out)
        await _preview(env, alice.user.dm_channel, alice.user, "dm", out)
    for path in sorted(out.glob("*.png")):
        print(path)


def sample_review() -> dict[str, Any]:
    """A Long Whist deal's review (``DealReview.to_json``'s shape) as the coach's
    issue showed it: eight costly cards, three of them flagged, the side on 5 tricks."""

    def card(trick: int, played: str, best: str, cost: float, flagged: bool) -> dict[str, Any]:
        return {
            "kind": "card",
            "trick": trick,
            "played": played,
            "best": best,
            "cost": cost,
            "error": 0.23,
            "flagged": flagged,
            "dd_cost": cost + 0.2,
            "unit": "tricks",
        }

    decisions = [
        card(2, "QH", "2H", 1.8, True),
        card(4, "3C", "KC", 1.4, True),
        card(7, "9S", "AS", 1.1, True),
        card(5, "4D", "8D", 0.4, False),
        card(9, "2S", "5S", 0.3, False),
        card(10, "JH", "6H", 0.1, False),
        card(11, "7C", "8C", 0.1, False),
        card(12, "5D", "6D", 0.05, False),
        *(card(t, "2C", "2C", 0.0, False) for t in (1, 3, 6, 8, 13)),
    ]
    return {
        "unit": "tricks",
        "result_unit": "tricks",
        "result": 5,
        "deal": 1,
        "game_id": "whist-long",
        "decisions": decisions,
        "par": 6.0,
        "average": 5.2,
    }


def sample_standings() -> str:
    rows = [
        (1, "alice", 4, Fraction(625, 10)),
        (1, "bob", 4, Fraction(625, 10)),
        (3, "carol", 4, Fraction(51)),
        (4, "dave", 2, Fraction(70)),
    ]
    me = (Fraction(625, 10), Fraction(50))
    return standings_text(
        make_rules("whist-5"), "today", "2026-11-28", rows, me, True, boards_today=4, compared=4
    )


async def _shoot_text(env: Any, reader: Any, path: Path) -> float:
    """Photograph ``reader``'s DM at 400 px, its web fonts loaded; the message's height."""
    async with loaded_page(env, reader.user.dm_channel, reader.user, PHONE, 1400) as (
        browser,
        boxes,
    ):
        box = boxes[-1]
        await browser.shoot(path, bottom=box["bottom"] + 16)
        return float(box["bottom"] - box["top"])


async def texts(out: Path) -> None:
    """The review and the standings, DMed to alice and photographed at 400 px."""
    out.mkdir(parents=True, exist_ok=True)
    shown = {
        "review": review_text(sample_review(), 1, "North", show_double_dummy=True),
        "standings": sample_standings(),
    }
    async with simulated_bot() as (bot, env, guild):
        for name, text in shown.items():
            reader = guild.add_member(env.create_user(f"alice-{name}"))
            await bot.manager.services.notifier.dm(reader.user.id, text)
            await bot.manager.services.notifier.flush()
            path = out / f"{name}-{PHONE}.png"
            height = await _shoot_text(env, reader, path)
            print(f"{path}: {height:.0f} px high at {PHONE} px", flush=True)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--texts"]
    folder = Path(args[0]) if args else OUT
    asyncio.run(texts(folder) if "--texts" in sys.argv[1:] else main(folder))
