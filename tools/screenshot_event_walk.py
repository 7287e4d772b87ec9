"""A walkthrough of each live event format as its admin and players see it, from
``/ruff event create`` to the final results, ``/ruff event standings`` and the
travellers: ``python -m tools.screenshot_event_walk [out_dir] [format ...]`` (default
``docs/screens``; formats ``individual``, ``pairs``, ``swiss``: the Swiss one in German).

The real bot against the offline Discord simulator (simcord): a mod creates a 2-round
event of 2 boards a round in #events; members press **Join** (in a pairs or Swiss event
each then chooses a partner from the menu the answer brings), all but the last press
**Check in** (a no-show: the AI plays their seat in round 1), the mod starts it, and
every human move is a random legal action through the table layer's ``act()`` until
the event is finished; then ann asks for ``/ruff event standings``. Photographed, as
ann: the channel's end at 400 and 960 px (final results, picture, travellers, her
standings) and her DM (each board's last line). For the asynchronous format see
``tools.screenshot_async_event``. Needs simcord's preview extras and ``chromium``.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord  # noqa: E402
import simcord.interactions  # noqa: E402

from bot.store import EventRepo  # noqa: E402
from tools.preview_browser import DESKTOP, OUT, PHONE, photograph, simulated_bot  # noqa: E402
from tools.screenshot_events import play_humans  # noqa: E402

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")
LABELS = {"en": ("Join", "Check in"), "de": ("Mitspielen", "Einchecken")}


def speaking(language: str, users: set[int]) -> None:
    """The simulator sends every interaction as ``en-US``: ``users`` send ``language``."""
    original = simcord.interactions.base_payload

    def with_locale(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(*args, **kwargs)
        if kwargs.get("user_id") in users:
            payload["locale"] = language
        return record, payload

    simcord.interactions.base_payload = with_locale


async def walk(fmt: str, out: Path) -> None:
    language = "de" if fmt == "swiss" else "en"
    users: set[int] = set()
    speaking(language, users)
    async with simulated_bot(
        settle_timeout=60.0,
        turn_timeout=0.0,
        lobby_timeout=0.0,
        table_edit_interval=0.0,
        ai_worlds=16,
        daily_worlds=8,
    ) as (bot, env, guild):
        channel = guild.create_text_channel("events")
        mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
        mod = guild.add_member(env.create_user("tess"), roles=[mods])
        members = [
            guild.add_member(env.create_user(n)) for n in NAMES[: 6 if fmt == "individual" else 8]
        ]
        users.update([mod.id, *(m.id for m in members)])
        await mod.slash(channel, "ruff settings", language=language)
        options: dict[str, Any] = {"rounds": 2, "boards": 2, "minutes": 8, "starts_in": 20}
        if fmt != "individual":
            options["format"] = fmt
        await mod.slash(channel, "ruff event create", game="whist-5", **options)

        def registration() -> discord.Message:
            return next(m for m in channel.history() if m.content.startswith("🏆 **"))

        join, check_in = LABELS[language]
        menus = [(await m.click(registration(), label=join)).response for m in members]
        if fmt != "individual":  # partners: ann & bob, cat & dan, ...
            for i, m in enumerate(members):
                await m.select(menus[i], [members[i ^ 1]])
        for m in members[:-1]:  # the last one never checks in
            await m.click(registration(), label=check_in)
        await mod.slash(channel, "ruff event start")
        await env.settle()
        rng = random.Random(5)
        for _ in range(40):
            event = await EventRepo(bot.db).get(1)
            assert event is not None
            if event.state == "finished":
                break
            await play_humans(
                env,
                bot,
                rng,
                lambda: (
                    not any(
                        t.settings.event and t.status == "active"
                        for t in bot.manager.tables.values()
                    )
                ),
            )
            await env.settle()
            await env.advance_time(5)
        else:
            raise RuntimeError("the event did not finish")
        ann = members[0]
        await bot.manager.services.notifier.flush()  # the final results posted first
        await env.settle()
        await ann.slash(channel, "ruff event standings")
        await env.settle()
        await bot.manager.services.notifier.flush()
        name = f"event-walk-{fmt}{'-de' if language == 'de' else ''}"
        await photograph(env, channel, ann, PHONE, 1500, out / f"{name}-end-{PHONE}.png")
        await photograph(env, channel, ann, DESKTOP, 1100, out / f"{name}-end-{DESKTOP}.png")
        dm = ann.user.dm_channel
        await photograph(env, dm, ann.user, PHONE, 700, out / f"{name}-dm-{PHONE}.png")


async def main(out: Path, formats: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for fmt in formats:
        await walk(fmt, out)


if __name__ == "__main__":
    args = sys.argv[1:]
    folder = Path(args.pop(0)) if args and args[0] not in ("individual", "pairs", "swiss") else OUT
    asyncio.run(main(folder, args or ["individual", "pairs", "swiss"]))
