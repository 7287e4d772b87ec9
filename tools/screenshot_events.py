"""Screenshots of an event as its players see it, at 400 px (a phone) and 960 px:
``python -m tools.screenshot_events [out_dir]`` (default ``docs/screens``).

The real bot against the offline Discord simulator (simcord): a mod creates an
individual event in #events, eight members join, six check in (two no-shows, whose
seats the AI plays), the mod starts it, and every human move is a random legal
action through the table layer's ``act()`` (the path every front's click takes)
until the standings after round 1 are posted; then the event's channel and one
table's thread are photographed (and, at the start, a no-show's hand DM). Needs simcord's preview extras and ``chromium``.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord  # noqa: E402
from simcord.backend.access import can_access_channel  # noqa: E402

from bot.tables.act import act  # noqa: E402
from tools.preview_browser import DESKTOP, OUT, PHONE, photograph, simulated_bot  # noqa: E402

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")


async def play_humans(env: Any, bot: Any, rng: random.Random, until: Any) -> int:
    """Random legal moves for every human at an event's board (not away) until
    ``until()``; the moves made."""
    moves = 0
    svc = bot.manager.services
    for _ in range(5000):
        if until():
            return moves
        moved = False
        for table in list(bot.manager.tables.values()):
            game = table.game
            if not table.settings.event or table.status != "active" or game is None:
                continue
            seat = game.to_act()
            if seat is None or table.ai_plays(seat):
                continue
            human = table.human(seat)
            assert human is not None
            legal = [a for a in game.legal_actions(seat) if type(a).__name__ != "Concede"]
            outcome = await act(
                svc, table.id, human.user_id, game.version, seat, [rng.choice(legal)]
            )
            moves += 1
            moved = moved or outcome.applied
        await env.settle()
        if not moved:
            await env.advance_time(1)
    raise RuntimeError("the round did not end")


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    async with simulated_bot(
        turn_timeout=0.0,
        lobby_timeout=0.0,
        table_edit_interval=0.0,
        ai_worlds=16,
        daily_worlds=16,
    ) as (bot, env, guild):
        channel = guild.create_text_channel("events")
        mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
        mod = guild.add_member(env.create_user("tess"), roles=[mods])
        members = [guild.add_member(env.create_user(n)) for n in NAMES]
        await mod.slash(
            channel,
            "ruff event create",
            game="whist-5",
            rounds=3,
            boards=2,
            minutes=8,
            starts_in=20,
        )
        registration = next(m for m in channel.history() if "Event #1" in m.content)
        for m in members:
            await m.click(registration, label="Join")
        for m in members[:6]:
            await m.click(registration, label="Check in")
        await env.settle()
        await photograph(env, channel, members[0], PHONE, 1200, out / "event-registration-400.png")
        await mod.slash(channel, "ruff event start")
        await env.settle()
        # a no-show's hand DM: the AI plays for them, nothing of the game shown
        gus = members[6]
        await photograph(
            env, gus.user.dm_channel, gus.user, PHONE, 900, out / "event-away-dm-400.png"
        )

        def scored() -> bool:
            return any("standings after round 1" in m.content for m in channel.history())

        await play_humans(env, bot, random.Random(5), scored)
        await env.settle()
        await bot.manager.services.notifier.flush()
        for width in (PHONE, DESKTOP):
            await photograph(
                env, channel, members[0], width, 1700, out / f"event-channel-{width}.png"
            )
        # the last thread members[0] may open: a table's thread is private to its
        # players
        thread = next(
            th
            for th in reversed(channel.threads)
            if can_access_channel(env, th.id, members[0], history=True)
        )
        await photograph(env, thread, members[0], PHONE, 1700, out / "event-thread-400.png")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
