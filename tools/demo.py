"""Offline demo: the real bot, driven through the simcord Discord simulator.

``make demo`` runs this (``python -m tools.demo``): with ``DISCORD_TOKEN`` set
it starts the real bot on Discord (``python -m bot``); without one (or with
``--demo``) it runs offline. A simulated server gets a ``/ruff new`` table and
the web table serves it on http://127.0.0.1:8765 (``RH_WEB_PORT`` to change):
open the printed link and play it in the browser against the AI, as the
Activity would in Discord. With ``--script`` a scripted human ("you") plays the
whole game from their DMs instead, and everything the channel and the DMs show
is printed as it happens. Nothing touches the network beyond loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord

from bot.config import Settings

CARD = re.compile("^(10|[2-9JQKA])[♠♥♦♣]\ufe0e?$")  # ♠︎ ♣︎ (and on buttons ♥︎ ♦︎) carry the text style


def _components(message: Any) -> list[Any]:
    return [child for row in message.components for child in getattr(row, "children", [])]


async def _play_turn(user: Any) -> str | None:
    """The scripted human's move from their latest DM; returns what it did."""
    import discord

    hand = user.dm_channel.last_message
    if hand is None or not any(
        k in hand.content for k in ("Your turn", "Accept the claim", "claim")
    ):
        return None
    items = _components(hand)
    confirm = next((c for c in items if str(getattr(c, "custom_id", "")).startswith("rh:k:")), None)
    if confirm is not None:  # the cards to lay out are chosen: Confirm lays them out
        await user.click(hand, custom_id=confirm.custom_id)
        return confirm.label
    select = next((c for c in items if c.type == discord.ComponentType.string_select), None)
    if select is not None:
        # lay out the lowest cards: the select lists trumps first, high to low
        values = [o.value for o in select.options][-select.min_values :]
        await user.select(hand, values)
        return f"chose {', '.join(values)} to lay out"
    live = [c for c in items if c.type == discord.ComponentType.button and not c.disabled]
    labels = [c.label for c in live]
    for decision in ("Accept the claim", "Show honours", "Call “Can-ye?”", "Take the stock (ruff)"):
        if decision in labels:
            await user.click(hand, label=decision)
            return decision
    # card buttons by id: with the suit emojis their label is the rank alone
    cards = [c for c in live if ":play:" in str(c.custom_id)]
    if not cards:
        return None
    card = cards[-1] if len(cards) > 1 else cards[0]
    await user.click(hand, custom_id=card.custom_id)
    return f"played {card.custom_id.rsplit(':', 1)[1]}"


DEMO_PORT = 8765


def _offline(settings: Settings, tmp: str, seed: int) -> Settings:
    """The demo's settings: its own database, no waiting on the simulator's clock."""
    return settings.model_copy(
        update={
            "database": str(Path(tmp) / "demo.db"),
            "ai_delay": 0.0,
            "table_edit_interval": 0.0,
            "turn_timeout": 0.0,
            # the scripted player moves at once, so a turn ping is only noise; and simcord
            # gives its sleep a real-time fallback, so each turn would wait out the delay
            "turn_ping_delay": -1.0,
            "lobby_timeout": 0.0,
            "seed": seed,
            # simcord's virtual clock stalls multiprocessing's poll of existing child
            # processes, which starting a second process pool does: the demo draws its
            # (few) pictures in a thread
            "painter_mode": "thread",
            "web_port": None,  # the web table is started below, outside the bot's own work
        }
    )


async def run_web_demo(
    settings: Settings,
    seed: int,
    game: str,
    *,
    until: asyncio.Event | None = None,
    announce: Callable[[str, str], None] | None = None,
    quiet: bool = False,
) -> int:
    """The web table on the simulated server: print its link, serve until ``until``
    is set (or Ctrl-C). ``announce`` hears the player's link and a spectator's."""
    try:
        import simcord
    except ImportError:
        print("The offline demo needs the simulator: pip install 'simcord==3.2.1'.")
        return 2
    from simcord._dpy_internals import real_monotonic

    from bot.app.client import create_bot
    from bot.app.web_door import ManagerDoor
    from bot.web.server import WebTable

    port = DEMO_PORT if settings.web_port is None else settings.web_port
    with tempfile.TemporaryDirectory() as tmp:
        offline = _offline(settings, tmp, seed)
        bot = create_bot(offline)
        web: WebTable | None = None
        try:
            async with simcord.run(bot) as env:
                env.settle_timeout = 60.0
                guild = env.create_guild(name="Demo Server")
                channel = guild.create_text_channel("ruff-and-honours")
                you = guild.add_member(env.create_user("you"))
                guest = guild.add_member(env.create_user("guest"))
                await you.slash(channel, "ruff new", game=game)
                # the page's moves run in the web table's tasks, outside the simulator's
                # bot work, where the loop's clock reads real time rather than the
                # simulator's: the Discord side's edit intervals must read one clock
                bot.manager.services.notifier._clock = real_monotonic  # type: ignore[method-assign]
                served = offline.model_copy(
                    update={"web_port": port, "web_host": "127.0.0.1", "web_mock_auth": True}
                )
                web = WebTable(bot.manager.services, served, ManagerDoor(bot.manager))
                await web.start()
                base = f"http://127.0.0.1:{web.port}/?channel_id={channel.id}"
                link = f"{base}&user_id={you.user.id}&name=you"
                watch = f"{base}&user_id={guest.user.id}&name=guest"
                if announce is not None:
                    announce(link, watch)
                if not quiet:
                    print("Offline demo: the real bot on a simulated Discord (no network).")
                    print(f"A {game} table is open in #ruff-and-honours. Play it here:\n")
                    print(f"    {link}\n")
                    print(f"(and watch it as a spectator: {watch})")
                    print("Add AI players, press Start, and play. Ctrl-C stops the demo.")
                await (until or asyncio.Event()).wait()
        finally:
            if web is not None:
                await web.close()
            await bot.close()
    return 0


def _show(title: str, text: str) -> None:
    bar = "─" * 72
    print(f"\n{bar}\n{title}\n{bar}")
    print(textwrap.indent(text, "  "))


async def run_demo(settings: Settings, seed: int, game: str, verbose: bool) -> int:
    try:
        import simcord
    except ImportError:
        print(
            "The offline demo needs the simulator: pip install 'simcord==3.2.1' "
            "(make demo installs it), or set DISCORD_TOKEN to connect to Discord."
        )
        return 2
    from bot.app.client import create_bot
    from bot.present.layout import layout_text

    with tempfile.TemporaryDirectory() as tmp:
        settings = _offline(settings, tmp, seed)
        bot = create_bot(settings)
        try:
            async with simcord.run(bot) as env:
                # a click settles once the AI players after it have moved; hard thinks up to
                # 1.5 s a card, so on a slow or busy machine that can pass simcord's 5 s
                # default. Kept under `ended_kept` (120 s): a settle waits for every sleep
                # that ends before its deadline, the finished table's retirement included.
                env.settle_timeout = 60.0
                guild = env.create_guild(name="Demo Server")
                channel = guild.create_text_channel("ruff-and-honours")
                you = guild.add_member(env.create_user("you"))
                print("Offline demo: the real bot on a simulated Discord (no token, no network).")
                print("`you` open a table with /ruff new, add three AI players and start.")
                res = await you.slash(channel, "ruff new", game=game)
                table = channel.last_message
                assert table is not None, "the table message was not posted"
                _show(
                    "#ruff-and-honours — /ruff new",
                    layout_text(table),  # the table message is a layout: its words
                )
                for level in ("easy", "normal", "hard"):
                    await you.click(table, label=f"Add AI ({level})")
                await you.click(channel.history()[0], label="Start")
                seen_posts = {m.id for m in channel.history()}
                deal_hand_shown = ""
                for _ in range(5000):
                    hand = you.user.dm_channel.last_message
                    first_line = hand.content.split("\n")[2] if hand is not None else ""
                    if hand is not None and first_line != deal_hand_shown:
                        deal_hand_shown = first_line
                        _show("DM to you — your hand", hand.content)
                    done = await _play_turn(you.user)
                    for place in (
                        channel,
                        *channel.threads,
                    ):  # the table's thread gets the summaries
                        for msg in place.history():
                            if msg.id not in seen_posts and msg.type is discord.MessageType.default:
                                seen_posts.add(msg.id)
                                where = (
                                    "#ruff-and-honours"
                                    if place is channel
                                    else f"thread “{place.name}”"
                                )
                                _show(f"{where} — new post", msg.content)
                    if verbose and done:
                        _show(f"you {done}; the table now shows", layout_text(channel.history()[0]))
                    if done is None:
                        if "finished" in layout_text(channel.history()[0]):
                            break
                        await env.advance_time(1)
                _show(
                    "#ruff-and-honours — the table message at the end",
                    layout_text(channel.history()[0]),
                )
                res = await you.slash(channel, "ruff leaderboard")
                if res.response is not None:
                    _show("/ruff leaderboard", res.response.content)
                print("\nThat was the real bot. Set DISCORD_TOKEN (see README) to play on Discord.")
        finally:
            await bot.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    """The README's run command: the bot on Discord with a token, else the offline demo."""
    args = list(sys.argv[1:] if argv is None else argv)
    if Settings.from_env().token and "--demo" not in args:
        from bot.__main__ import main as run_bot

        return run_bot(args)
    print("No DISCORD_TOKEN set: running the offline demo instead (see README to connect).")
    return main_demo(args)


def main_demo(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.demo")
    parser.add_argument("--demo", action="store_true")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--game", default="ruff-honours-cotton")
    parser.add_argument(
        "--script",
        action="store_true",
        help="no browser: a scripted player plays a whole game from their DMs, printed here",
    )
    parser.add_argument(
        "--verbose", action="store_true", help="print the table after each of your moves"
    )
    args = parser.parse_args(argv)
    if args.script:
        return asyncio.run(run_demo(Settings.from_env(), args.seed, args.game, args.verbose))
    try:
        return asyncio.run(run_web_demo(Settings.from_env(), args.seed, args.game))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
