"""Plays a game through the real bot in simcord on a given SQLite file, printing
every action a player was told had succeeded. ``test_crash.py`` runs it as a
subprocess and kills it with SIGKILL at a random moment::

    python -m tests.reliability.crash_driver DB_PATH SEED [--resume] [--kill-at POINT:N]

(``--resume``: the database already holds the game; pick it up and play on.
``--kill-at``: the process kills itself with SIGKILL at a chosen point of its
``N``-th commit of a move, so a test can aim at the moments that matter:
``in-transaction`` — the move is written but its transaction not committed;
``before-answer`` — the transaction committed, the player not yet answered.)

Output lines (each flushed at once):

* ``STARTED`` once the game is running;
* ``ACK <table> <version> <seat> <user> <action>[,<action>...]`` after a click
  was acknowledged (the player saw it succeed), with the engine encoding of what
  it did, e.g. ``play:10H`` or four ``discard:..`` for the ruffer's lay-out;
* ``DONE`` if the game finished before the kill;
* with ``--kill-at``, last: ``DOOMED <table> <log length before> <rows>`` (the
  rows of the move whose transaction dies with the process) or ``DURABLE <table>
  <log length>`` (a move committed but never answered).

``build_world`` creates the same simulated server (same ids) in every process, so
a bot in a new process can resume the game on the same database.
"""

from __future__ import annotations

import asyncio
import functools
import os
import random
import signal
import sys
from dataclasses import dataclass
from typing import Any

from simcord import Env

from bot.app.client import create_bot
from bot.config import Settings
from bot.present.layout import layout_text as message_text
from engine import Card, decode_action
from engine.actions import discard
from tests.bot.helpers import choose_cards

GUILD_ID = 1_400_000_000_000_000_001
NAMES = ("alice", "bob", "carol")


@dataclass
class World:
    guild: Any
    whist: Any
    lobby: Any
    members: list[Any]


def settings_for(db_path: str, seed: int) -> Settings:
    return Settings(
        database=db_path,
        ai_delay=0.0,
        turn_timeout=0.0,
        turn_ping_delay=-1.0,
        pictures=False,
        lobby_timeout=0.0,
        table_edit_interval=0.0,
        ai_mode="inline",
        ai_worlds=16,
        seed=seed,
    )


def new_env(bot: Any) -> Env:
    env = Env(bot)
    # poll every 2 ms while settling instead of 50 ms (see tests/reliability/conftest.py)
    env._settle_internal = functools.partial(env._settle_internal, idle=0.002)  # type: ignore[method-assign]
    return env


def build_world(env: Env) -> World:
    """Call before ``env.start()``: ids depend only on creation order and the clock."""
    guild = env.create_guild(name="Crash Club", id=GUILD_ID)
    whist = guild.create_text_channel("whist")
    lobby = guild.create_text_channel("lobby")
    members = [guild.add_member(env.create_user(name)) for name in NAMES]
    return World(guild, whist, lobby, members)


def table_message(channel: Any) -> Any:
    return next(
        m
        for m in reversed(channel.history())
        if "table #" in message_text(m) and "🃏" in message_text(m)
    )


async def click_turn(member: Any, rng: random.Random) -> tuple[Any, str, list[str]] | None:
    """If it is ``member``'s turn, make a move from their DM: (result, custom_id, actions)."""
    dm = member.user.dm_channel
    # the newest hand message (a resumed world is rebuilt from scratch, so a thread id
    # stored by the killed process may now name this DM channel and carry a ping)
    msg = (
        next((m for m in reversed(dm.history()) if "🃏 **" in m.content), None)
        if dm is not None
        else None
    )
    if msg is None or "Your turn" not in msg.content:
        return None
    items = [c for row in msg.components for c in row.children]
    select = next((c for c in items if c.type.value == 3 and not c.disabled), None)
    if select is not None:
        values = [o.value for o in select.options][
            : select.min_values
        ]  # the menu lists the lowest non-trumps first
        res = await choose_cards(member.user, msg, values, custom_id=select.custom_id)
        return res, select.custom_id, [discard(Card.parse(v)).encode() for v in values]
    live = [
        c for c in items if c.type.value == 2 and not c.disabled and c.custom_id.startswith("rh:a:")
    ]
    if not live:
        return None
    button = rng.choice(live)
    res = await member.user.click(msg, custom_id=button.custom_id)
    return res, button.custom_id, [decode_action(button.custom_id.split(":", 5)[5]).encode()]


async def play(env: Env, world: World, rng: random.Random, out: Any, limit: int = 5000) -> bool:
    """Click for whoever's turn it is until the game ends; True if it ended."""
    manager = env.bot.manager  # type: ignore[attr-defined]
    for _ in range(limit):
        table = manager.tables.get(2)
        if table is None or table.status != "active":
            return True
        for member in world.members:
            done = await click_turn(member, rng)
            if done is None:
                continue
            res, custom_id, actions = done
            if res.acknowledged and not res.ephemeral:
                _, _, table_id, version, seat = custom_id.split(":")[:5]  # rh:a:… or rh:d:…
                print(
                    f"ACK {table_id} {version} {seat} {member.id} {','.join(actions)}",
                    file=out,
                    flush=True,
                )
            break
        else:
            await env.advance_time(1)  # nothing to click: let any background work run
    return False


KILL_POINTS = ("in-transaction", "before-answer")


def kill_at(point: str, nth: int) -> None:
    """SIGKILL this process at ``point`` of its ``nth`` commit of a move (from 1)."""
    from bot.store import ActionRepo
    from bot.tables import commit as commit_module

    assert point in KILL_POINTS, point
    seen = [0]
    append, commit = ActionRepo.append, commit_module.commit

    async def append_then_die(
        self: Any, table_id: int, expected: int, entries: Any, **with_move: Any
    ) -> int:
        batch = list(entries)
        # the move's write (with its snapshot and deadline), in the commit's transaction
        # or its own: killed inside it, before it commits
        async with self.db.atomic():
            version = await append(self, table_id, expected, batch, **with_move)
            seen[0] += 1
            if point == "in-transaction" and seen[0] == nth:
                # the log as this transaction sees it, its own rows included
                logged = await self.db.fetchval(
                    "SELECT COUNT(*) FROM actions WHERE table_id = ?", (table_id,)
                )
                print(f"DOOMED {table_id} {logged - len(batch)} {len(batch)}", flush=True)
                os.kill(os.getpid(), signal.SIGKILL)  # inside the move's transaction
        return version

    async def commit_then_die(svc: Any, table: Any, *args: Any, **kwargs: Any) -> Any:
        events = await commit(svc, table, *args, **kwargs)
        if point == "before-answer" and seen[0] == nth:
            print(f"DURABLE {table.id} {table.game.version}", flush=True)
            os.kill(os.getpid(), signal.SIGKILL)  # durable, not yet answered
        return events

    ActionRepo.append = append_then_die  # type: ignore[method-assign]
    commit_module.commit = commit_then_die  # type: ignore[assignment]


async def main(db_path: str, seed: int, resume: bool) -> int:
    bot = create_bot(settings_for(db_path, seed))
    env = new_env(bot)
    world = build_world(env)
    await env.start()
    try:
        with env.time_context():
            alice, bob, carol = world.members
            if not resume:
                await bob.slash(world.lobby, "ruff new")  # table 1: a lobby left open
                await alice.slash(world.whist, "ruff new", target=3)  # table 2: the game
                for member in (bob, carol):
                    await member.click(table_message(world.whist), label="Join")
                await alice.click(table_message(world.whist), label="Add AI (easy)")
                await alice.click(table_message(world.whist), label="Start")
            print("STARTED", flush=True)
            if await play(env, world, random.Random(seed), sys.stdout):
                print("DONE", flush=True)
    finally:
        await env.shutdown()
        await bot.close()
    return 0


if __name__ == "__main__":
    if "--kill-at" in sys.argv:
        where, _, count = sys.argv[sys.argv.index("--kill-at") + 1].partition(":")
        kill_at(where, int(count))
    raise SystemExit(asyncio.run(main(sys.argv[1], int(sys.argv[2]), "--resume" in sys.argv[3:])))
