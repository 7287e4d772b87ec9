"""One bot process for the multi-process test and benchmark (``python -m tools.scale_worker``).

A real OS process with its own event loop, its own asyncpg pool and its own
:class:`~bot.app.manager.GameManager` — the real lobby, play, commit, drivers,
presenter and cluster code — on a shared PostgreSQL database. Only Discord is
replaced, by :class:`tools.bench.StubDiscord` (REST answered after a set latency),
because simcord simulates Discord inside one process. Clicks reach the manager
exactly as the gateway would hand them to it: a component interaction with the
table, the version and the seat from the button's custom id.

It reads one JSON command per line on stdin and answers one JSON line on stdout
(``{"id": ..., ...}``):

* ``{"op": "open", "guild": g, "channel": c, "users": [...], "ai": "easy", "target": 1}``
  opens a table with those humans (the first opens it), fills the other seats with
  AI and starts it: ``{"table": id}``;
* ``{"op": "click", "table": t, "seat": s, "user": u, "version": v, "actions": [...]}``
  clicks (several actions: one menu choice): ``{"applied": bool, "text": ..., "ms": ...}``
  (``applied``: answered with the player's updated hand, i.e. the action is stored);
* ``{"op": "stats"}``: the tables this process owns and the AI and timer moves it
  committed (``[table, version before, version after, seat]``), its adoptions,
  the CPU time it has used so far (``cpu_s``: ``time.process_time()``, every
  thread of this process, none of PostgreSQL's or the driver's), and its round
  trips to the database so far (``trips``, ``prepares``: :mod:`tools.round_trips`;
  with ``RH_TRIPS_LOG=1`` the statements by count go to stderr at the end);
* ``{"op": "quit"}``: closes the manager (leases given up) and exits.

The first line it writes is ``{"ready": name}``, once its leases are claimed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import time
from collections.abc import Sequence
from typing import Any

from bot.app.manager import GameManager
from bot.config import Settings
from bot.sharding import parse_shards
from bot.store import Database
from bot.tables import commit as commit_module
from bot.tables.aipool import AIPool
from engine import Action, decode_action
from tools import round_trips
from tools.bench import StubDiscord, _Stub

EARLIER_TURN = "earlier turn"  # the answer to a stale click that shows the hand again (not applied)


class Worker:
    def __init__(self, manager: GameManager, discord_: StubDiscord) -> None:
        self.manager = manager
        self.discord = discord_
        self.made: list[
            tuple[int, int, int, int]
        ] = []  # (table, version before, after, seat) of our AI/timer commits
        original = commit_module.commit

        async def recorded(
            svc: Any,
            table: Any,
            seat: int,
            actions: Sequence[Action],
            actor_id: int | None,
            **how: Any,
        ) -> Any:
            before = table.game.version
            events = await original(svc, table, seat, actions, actor_id, **how)
            if actor_id is None:
                self.made.append((table.id, before, table.game.version, seat))
            return events

        commit_module.commit = recorded  # type: ignore[assignment]  # the drivers call it through the module

    def interaction(self, user_id: int, guild_id: int | None, channel_id: int) -> Any:
        guild = _Stub(id=guild_id, name=f"guild-{guild_id}") if guild_id is not None else None
        channel = _Stub(id=channel_id, name=f"table-{channel_id}")
        interaction = self.discord.interaction(user_id, guild, channel)
        interaction.answer = None
        response = interaction.response

        def record(kind: str, method: Any) -> Any:
            async def call(*args: Any, **kwargs: Any) -> Any:
                content = kwargs.get("content", args[0] if args else "")
                interaction.answer = (kind, str(content or ""))
                return await method(*args, **kwargs)

            return call

        response.edit_message = record("hand", response.edit_message)
        response.send_message = record("refused", response.send_message)
        interaction.edit_original_response = record("hand", interaction.edit_original_response)
        interaction.followup.send = record("refused", interaction.followup.send)
        return interaction

    async def open(self, cmd: dict[str, Any]) -> dict[str, Any]:
        users: list[int] = cmd["users"]
        guild, channel = int(cmd["guild"]), int(cmd["channel"])
        m = self.manager
        await m.new_table(
            self.interaction(users[0], guild, channel),
            "ruff-honours-cotton",
            None,
            cmd.get("target", 1),
            None,
        )
        table = m.tables.open_in_channel(channel)
        if table is None:
            return {"error": "the table was not opened"}
        for user in users[1:]:
            await m.on_table_button(self.interaction(user, guild, channel), table.id, "join")
        for _ in range(len(table.seats) - len(users)):
            await m.on_table_button(
                self.interaction(users[0], guild, channel), table.id, f"ai-{cmd.get('ai', 'easy')}"
            )
        await m.on_table_button(self.interaction(users[0], guild, channel), table.id, "start")
        return {"table": table.id, "status": table.status}

    async def click(self, cmd: dict[str, Any]) -> dict[str, Any]:
        interaction = self.interaction(int(cmd["user"]), None, 0)
        actions = [decode_action(a) for a in cmd["actions"]]
        started = time.perf_counter()
        if len(actions) > 1:
            codes = [a.encode().split(":", 1)[1] for a in actions]
            verb = actions[0].encode().split(":", 1)[0]
            await self.manager.on_pick(  # the menu's Confirm: every card laid out at once
                interaction, cmd["table"], cmd["version"], cmd["seat"], verb, codes, confirmed=True
            )
        else:
            await self.manager.on_action(
                interaction, cmd["table"], cmd["version"], cmd["seat"], actions
            )
        ms = (time.perf_counter() - started) * 1000
        kind, text = interaction.answer or ("none", "")
        return {
            "applied": kind == "hand" and EARLIER_TURN not in text,
            "text": text[:120],
            "ms": ms,
        }

    def stats(self) -> dict[str, Any]:
        cluster = self.manager.cluster
        return {
            "name": cluster.name if cluster else "",
            "owned": sorted(cluster.owned) if cluster else [],
            "made": self.made,
            "adoptions": cluster.adoptions if cluster else 0,
            "cpu_s": time.process_time(),
            **round_trips.counts(),
            "tables": {str(t.id): self._state(t) for t in self.manager.services.tables.values()},
        }

    @staticmethod
    def _state(table: Any) -> str:
        """One table as this process holds it, for a test's diagnosis of a stall."""
        game = table.game

        def task(t: Any) -> str:
            return "none" if t is None else ("done" if t.done() else "running")

        return (
            f"{table.status} v{table.db_version} to act {game.to_act() if game is not None else None}"
            f" locked {table.lock.locked()} ai {task(table.drive.ai_task)} timer {task(table.drive.timer_task)}"
        )


async def serve(args: argparse.Namespace) -> None:
    round_trips.install()
    settings = Settings(
        database=args.database,
        ai_delay=args.ai_delay,
        turn_timeout=args.turn_timeout,
        lobby_timeout=0.0,
        afk_takeover_after=args.afk_after,
        table_edit_interval=0.05,
        ai_mode="inline",
        ai_worlds=8,
        pictures=False,
        shard_count=args.shard_count,
        shard_ids=parse_shards(args.shards, args.shard_count),
        lease_seconds=args.lease,
        process_name=args.name,
    )
    db = await Database.open(settings.database)
    discord_ = StubDiscord(
        (args.latency / 1000, args.latency / 1000), seed=hash(args.name) & 0xFFFF
    )
    pool = AIPool(1, mode="inline", worlds=8)
    manager = GameManager(discord_, db, settings, ai=pool)  # type: ignore[arg-type]
    worker = Worker(manager, discord_)
    await manager.resume()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    write_lock = asyncio.Lock()

    async def send(obj: dict[str, Any]) -> None:
        async with write_lock:
            sys.stdout.write(json.dumps(obj) + "\n")
            sys.stdout.flush()

    async def handle(cmd: dict[str, Any]) -> None:
        try:
            if cmd["op"] == "open":
                out = await worker.open(cmd)
            elif cmd["op"] == "click":
                out = await worker.click(cmd)
            elif cmd["op"] == "stats":
                out = worker.stats()
            else:
                out = {"error": f"unknown op {cmd['op']!r}"}
        except Exception as exc:  # reported to the driver, which fails the run
            logging.exception("command failed")
            out = {"error": f"{type(exc).__name__}: {exc}"}
        await send({"id": cmd.get("id"), **out})

    await send({"ready": worker.stats()["name"]})
    running: set[asyncio.Task[None]] = set()
    try:
        while True:
            line = await reader.readline()
            if not line:
                break
            cmd = json.loads(line)
            if cmd.get("op") == "quit":
                break
            task = asyncio.create_task(handle(cmd))  # commands run concurrently, like clicks
            running.add(task)
            task.add_done_callback(running.discard)
    finally:
        if running:
            await asyncio.wait(running, timeout=10)
        if round_trips.LOG:  # which statements this process sent, most often first
            for text, n in round_trips.by_text():
                print(f"{args.name} trips {n:6d} {text}", file=sys.stderr)
        await manager.close()
        await db.close()
        await pool.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.scale_worker")
    parser.add_argument("--database", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--shards", required=True)
    parser.add_argument("--shard-count", type=int, required=True)
    parser.add_argument("--lease", type=float, default=2.0)
    parser.add_argument("--ai-delay", type=float, default=0.0)
    parser.add_argument("--turn-timeout", type=float, default=0.0)
    parser.add_argument("--afk-after", type=int, default=1000)
    parser.add_argument(
        "--latency", type=float, default=0.0, help="simulated Discord REST latency (ms)"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.WARNING,
        stream=sys.stderr,
        format=f"{args.name} %(levelname)s %(name)s: %(message)s",
    )
    asyncio.run(serve(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
