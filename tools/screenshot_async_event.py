"""Screenshots of an asynchronous event as its players see it, at 400 px (a phone):
``python -m tools.screenshot_async_event [out_dir]`` (default ``docs/screens``).

The real bot against the offline Discord simulator (simcord): a mod creates an
asynchronous event of 3 boards in #events, opening in 30 minutes; three members join,
the mod opens it; ann and bob each play a board in their DMs (random legal moves
through the table layer's ``act()``), ann asks for the standings (progress only), the
deadline passes and the final results and travellers are posted. Photographed: the
event's message before the opening, ann's DM after her first board (▶ Board 2), the
channel with ann's standings before the close, the channel after it, and ann's DM
after it. Needs
simcord's preview extras and ``chromium``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord  # noqa: E402

from bot.store import EventRepo  # noqa: E402
from tools.preview_browser import OUT, PHONE, photograph, simulated_bot  # noqa: E402


async def play_board(env: Any, bot: Any, member: Any) -> None:
    """Play the member's board in play to its end from their DM, by its first card
    button each turn (as ``tools.screenshot_boards`` does)."""
    table = next(
        t
        for t in bot.manager.tables.values()
        if t.settings.board and t.status == "active" and t.seat_of(member.id) is not None
    )
    seat = table.seat_of(member.id)
    for _ in range(300):
        if table.status != "active":
            return
        hand = next(
            m for m in member.user.dm_channel.history() if m.id == table.hand_messages[seat][1]
        )
        ids = [
            c.custom_id
            for row in hand.components
            for c in getattr(row, "children", [])
            if isinstance(c, discord.Button)
            and c.custom_id
            and c.custom_id.startswith("rh:a:")
            and not c.disabled
        ]
        if ids:
            await member.user.click(hand, custom_id=ids[0])
        await env.settle()
    raise RuntimeError("the board did not end")


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    async with simulated_bot(
        settle_timeout=60.0,  # the boards' AI searches on a loaded machine
        turn_timeout=0.0,
        lobby_timeout=0.0,
        table_edit_interval=0.0,
        ai_worlds=16,
        daily_worlds=8,
        turn_ping_delay=3600.0,
        card_emojis=False,
    ) as (bot, env, guild):
        channel = guild.create_text_channel("events")
        mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
        mod = guild.add_member(env.create_user("tess"), roles=[mods])
        ann, bob, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat"))
        await mod.slash(
            channel,
            "ruff event create",
            game="whist-5",
            format="async",
            boards=3,
            deadline="24h",
            starts_in=30,
        )
        message = next(m for m in channel.history() if "Event #1" in m.content)
        for m in (ann, bob, cat):
            await m.click(message, label="Join")
        await env.settle()
        await photograph(env, channel, ann, PHONE, 900, out / "event-async-registration-400.png")
        await mod.slash(channel, "ruff event start")
        await env.settle()
        for member in (ann, bob):
            message = next(m for m in channel.history() if "Event #1" in m.content)
            await member.click(message, label="▶ Play")
            await env.settle()
            await play_board(env, bot, member)
        await env.settle()
        await bot.manager.services.notifier.flush()
        await photograph(
            env,
            ann.user.dm_channel,
            ann.user,
            PHONE,
            900,
            out / "event-async-board-400.png",
        )
        await ann.slash(channel, "ruff event standings")
        await env.settle()
        await photograph(env, channel, ann, PHONE, 1200, out / "event-async-standings-400.png")
        event = await EventRepo(bot.db).get(1)
        assert event is not None and event.deadline_at is not None
        await env.advance_time(event.deadline_at - env.now().timestamp() + 1)
        await env.settle()
        await bot.manager.services.notifier.flush()
        await photograph(env, channel, ann, PHONE, 1800, out / "event-async-results-400.png")
        # her last board's DM after the close: no ▶ Board 2, where the results are
        dm = ann.user.dm_channel
        await photograph(env, dm, ann.user, PHONE, 900, out / "event-async-dm-after-400.png")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
