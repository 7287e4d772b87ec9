"""Benchmark: many concurrent games of the real bot, driven through simcord.

``python -m bot.bench --games 200`` opens N tables at once in one simulated
server (one channel each; even-numbered games are 1 human + 3 AI, odd ones
4 humans), then plays them all to the end, one move per game per round, and
prints:

* click-to-ack latency p50/p99: ``GameManager.ack_latencies`` (real seconds from
  the click reaching the bot to its answer, for every card/decision click),
  and click-to-settle (real seconds around ``user.click``: the answer plus all
  the work it starts: AI replies, table edits, DMs);
* REST calls per card played, per kind of game: every request of the game
  (its channel, its players' DMs, its interaction answers; lobby to result)
  divided by the cards played;
* channel edits per 5 s per channel: the most edits of one table channel in
  any 5-second window of the (virtual) clock the bot's edit throttle uses;
* memory per active game: tracemalloc, the bytes the bot allocated (not the
  simulator's own message store) while opening and starting the last
  ``--memory-sample`` games (the others already in play), per game.

The AI players are ``--ai easy`` by default so the figures are the bot's, not
the AI search's (``python -m engine.ai.bench`` measures that); with
``--ai normal`` the AI runs in a thread as in production.

Method notes. simcord runs one user operation at a time, so clicks never
overlap: "concurrent" means N tables open and in play, interleaved move by move.
Time is simcord's virtual clock, dilated by ``--time-scale`` (default 1000):
simcord waits out in real time any sleep shorter than its settle timeout (5 s),
so the production throttle (``table_edit_interval`` 1 s) would cost a real
second per click. Instead every duration is multiplied by the scale: the bot
runs with a 1000 s edit interval, rounds are ``advance_time(--think x 1000)``
apart, and edits are counted in 5000 s windows. Only the ratios matter to the
throttle (AI delay and turn timers are off), so this is the 1 s / 5 s
behaviour, slowed down. (simcord also fires a parked timer after its delay in
real time, and does not settle when that happens in the middle of a click: the
scale keeps those real delays longer than the run.)
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import re
import statistics
import sys
import tempfile
import time
import tracemalloc
import types
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import Settings

_CHANNEL_PATH = re.compile(r"^/channels/(\d+)/")


@dataclass
class BenchGame:
    index: int
    kind: str  # "1h+3ai" | "4h"
    channel: Any
    players: list[Any]  # MemberActors by seat (1h: only North)
    table_id: int = 0
    requests: int = 0
    clicks: int = 0
    done: bool = False
    channel_ids: set[int] = field(default_factory=set)


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _max_in_window(times: list[float], window: float = 5.0) -> int:
    """The most events in any half-open window ``[t, t + window)``."""
    times = sorted(times)
    best = start = 0
    for end, t in enumerate(times):
        while t - times[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best


def _site(traceback: Any) -> str:
    """The innermost frame of the project's own code (or the innermost frame)."""
    for frame in reversed(traceback):
        if os.sep + "bot" + os.sep in frame.filename or os.sep + "engine" + os.sep in frame.filename:
            return f"{frame.filename.rsplit(os.sep, 2)[-2]}/{os.path.basename(frame.filename)}:{frame.lineno}"
    frame = traceback[-1]
    return f"{os.path.basename(frame.filename)}:{frame.lineno}"


_OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType)


def _reachable(
    roots: list[Any], stop: set[int], known: set[int] = frozenset(), by_type: Counter[str] | None = None  # type: ignore[assignment]
) -> tuple[set[int], int]:
    """Ids of the objects reachable from ``roots``, and the size of those not ``known``.

    Stops at ``stop``, modules, classes, functions, the event loop and the
    simulator's own objects (its message store): what is counted is what the bot
    retains.
    """
    seen: set[int] = set()
    stack = list(roots)
    total = 0
    while stack:
        obj = stack.pop()
        oid = id(obj)
        if oid in seen or oid in stop:
            continue
        seen.add(oid)
        if isinstance(obj, (*_OPAQUE, asyncio.AbstractEventLoop)):
            continue
        if type(obj).__module__.startswith("simcord"):
            continue
        if oid not in known:
            size = sys.getsizeof(obj)
            total += size
            if by_type is not None:
                by_type[type(obj).__qualname__] += size
        stack.extend(gc.get_referents(obj))
    return seen, total


def _classify(traceback: Any, sim_dir: str) -> str:
    """Whose allocation: the simulator's (its message store) or the bot's."""
    for frame in reversed(traceback):  # most recent first
        name = frame.filename
        if name.startswith(sim_dir):
            return "simulator"
        if os.sep + "bot" + os.sep in name or os.sep + "engine" + os.sep in name or "discord" + os.sep in name:
            return "bot"
    return "bot"  # the standard library on the bot's behalf: counted, to be safe


async def _human_move(user: Any) -> bool:
    """The scripted human's move from their DM hand (see bot.demo)."""
    from .demo import _play_turn

    return await _play_turn(user) is not None


async def run(args: argparse.Namespace) -> dict[str, Any]:
    import simcord

    from .client import create_bot

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database=str(Path(tmp) / "bench.db"),
            ai_delay=0.0,
            turn_timeout=0.0,
            lobby_timeout=0.0,
            table_edit_interval=args.edit_interval * args.time_scale,
            ai_in_thread=True,  # as in production (the easy AI always runs inline)
            seed=args.seed,
        )
        bot = create_bot(settings)
        try:
            async with simcord.run(bot) as env:
                return await _bench(env, bot, args, os.path.dirname(simcord.__file__))
        finally:
            await bot.close()


async def _bench(env: Any, bot: Any, args: argparse.Namespace, sim_dir: str) -> dict[str, Any]:
    manager = bot.manager
    guild = env.create_guild(name="Bench")
    games: list[BenchGame] = []
    for i in range(args.games):
        kind = "1h+3ai" if i % 2 == 0 else "4h"
        channel = guild.create_text_channel(f"table-{i}")
        count = 1 if kind == "1h+3ai" else 4
        players = [guild.add_member(env.create_user(f"p{i}-{s}")) for s in range(count)]
        games.append(BenchGame(i, kind, channel, players))
    by_channel: dict[int, BenchGame] = {}
    for g in games:
        g.channel_ids = {g.channel.id, *(p.user.dm_channel.id for p in g.players)}
        for cid in g.channel_ids:
            by_channel[cid] = g

    cursor = len(env.http_requests)
    unattributed = 0

    def attribute(current: BenchGame | None) -> None:
        nonlocal cursor, unattributed
        for req in env.http_requests[cursor:]:
            m = _CHANNEL_PATH.match(req.path)
            owner = by_channel.get(int(m.group(1))) if m else current
            if owner is None:
                unattributed += 1
            else:
                owner.requests += 1
        cursor = len(env.http_requests)

    async def open_table(g: BenchGame) -> None:
        opener = g.players[0]
        await opener.slash(g.channel, "ruff new", target=args.target)
        g.table_id = next(t.id for t in manager.tables.values() if t.channel_id == g.channel.id)
        for p in g.players[1:]:
            await p.click(g.channel.last_message, label="Join")
        for _ in range(4 - len(g.players)):
            await opener.click(g.channel.last_message, label=f"Add AI ({args.ai})")
        await opener.click(g.channel.last_message, label="Start")
        attribute(g)

    # ---- open and start every table. tracemalloc (deep tracebacks, to tell the bot's
    # allocations from the simulator's) makes the bot ~10x slower, so meanwhile the
    # edit throttle is off and the settle timeout generous; the memory is measured on
    # the last ``sample`` tables opened, with all the others already in play.
    notifier = manager.notifier
    notifier.min_interval, play_settle = 0.0, env.settle_timeout
    env.settle_timeout = 60.0
    sample = min(len(games), args.memory_sample)
    for g in games[: len(games) - sample]:
        await open_table(g)
    module_dicts = {id(vars(m)) for m in list(sys.modules.values()) if m is not None}
    shared, _ = _reachable([bot], module_dicts)
    tracemalloc.start(25)
    before = tracemalloc.take_snapshot()
    for g in games[len(games) - sample :]:
        await open_table(g)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    by_type: Counter[str] = Counter()
    _, retained = _reachable([bot], module_dicts, shared, by_type)
    if os.environ.get("RH_BENCH_MEMORY_DETAIL"):
        for name, size in by_type.most_common(25):
            print(f"  retained {size / sample / 1024:7.1f} KiB/game  {name}")
    mem: Counter[str] = Counter()
    sites: Counter[str] = Counter()
    for stat in after.compare_to(before, "traceback"):
        kind = _classify(stat.traceback, sim_dir)
        mem[kind] += stat.size_diff
        if kind == "bot":
            sites[_site(stat.traceback)] += stat.size_diff
            if os.environ.get("RH_BENCH_MEMORY_DETAIL"):
                inner = stat.traceback[-1]
                sites[f"  {_site(stat.traceback)} <- {os.path.basename(inner.filename)}:{inner.lineno}"] += stat.size_diff
    del before, after
    notifier.min_interval, env.settle_timeout = args.edit_interval * args.time_scale, play_settle
    notifier.stats.by_channel_edits.clear()
    active = sum(1 for t in manager.tables.values() if t.status == "active")

    # ---- play every game to the end, one move per game per round
    manager.ack_latencies.clear()
    settle_times: dict[str, list[float]] = defaultdict(list)
    rounds = moves = idle = 0
    wall = time.perf_counter()
    while not all(g.done for g in games):
        rounds += 1
        for g in games:
            if g.done:
                continue
            table = manager.tables[g.table_id]
            game = table.game
            if table.status != "active" or game is None or game.is_over:
                g.done = True
                continue
            seat = game.to_act()
            actor = g.players[seat] if seat is not None and seat < len(g.players) else None
            if actor is None:
                raise RuntimeError(f"game {g.index}: waiting for AI seat {seat} outside a click")
            hand = actor.user.dm_channel.last_message
            if hand is None or "Your turn" not in hand.content:
                continue  # the throttled DM edit has not shown the turn yet: next round
            started = time.perf_counter()
            moved = await _human_move(actor.user)
            settle_times[g.kind].append(time.perf_counter() - started)
            if not moved:
                raise RuntimeError(f"game {g.index}: seat {seat} had nothing to press")
            g.clicks += 1
            moves += 1
            attribute(g)
        if args.progress and rounds % 20 == 0:
            done = sum(g.done for g in games)
            print(f"  round {rounds}: {done}/{len(games)} games over, {time.perf_counter() - wall:.0f} s", file=sys.stderr)
        idle = 0 if moves else idle + 1
        moves = 0
        if idle > 100:
            raise RuntimeError("no game moved for 100 rounds")
        await env.advance_time(args.think * args.time_scale)
        attribute(None)
    await env.advance_time(5 * args.time_scale)
    attribute(None)
    wall = time.perf_counter() - wall

    # ---- figures
    cards: dict[str, int] = Counter()
    calls: dict[str, int] = Counter()
    for g in games:
        game = manager.tables[g.table_id].game
        played = sum(1 for _, a in game.log if a.encode().startswith("play:"))
        cards[g.kind] += played
        calls[g.kind] += g.requests
    edit_times = manager.notifier.stats.by_channel_edits
    window = 5.0 * args.time_scale
    per_channel = [_max_in_window(edit_times.get(g.channel.id, []), window) for g in games]
    acks = manager.ack_latencies
    return {
        "games": len(games),
        "active_at_once": active,
        "rounds": rounds,
        "wall_s": wall,
        "ack_p50_ms": _quantile(acks, 0.50) * 1000,
        "ack_p99_ms": _quantile(acks, 0.99) * 1000,
        "ack_n": len(acks),
        "settle_p50_ms": {k: _quantile(v, 0.5) * 1000 for k, v in settle_times.items()},
        "settle_p99_ms": {k: _quantile(v, 0.99) * 1000 for k, v in settle_times.items()},
        "rest_per_card": {k: calls[k] / max(1, cards[k]) for k in calls},
        "cards": dict(cards),
        "rest_calls": dict(calls),
        "unattributed_calls": unattributed,
        "edits_per_5s_max": max(per_channel, default=0),
        "edits_per_5s_median": statistics.median(per_channel) if per_channel else 0,
        "memory_sample": sample,
        "memory_sites": [(site, size / max(1, sample)) for site, size in sites.most_common(args.memory_top)],
        "bytes_per_game": mem["bot"] / max(1, sample),
        "retained_per_game": retained / max(1, sample),
        "simulator_bytes_per_game": mem["simulator"] / max(1, sample),
    }


# ------------------------------------------------------------------ direct mode
#
# simcord runs one click at a time and its settle loop grows with the number of
# timers, so its latencies measure the simulator as much as the bot. The direct
# mode runs the same GameManager with production timings (1 s AI delay, 1 s edit
# throttle, the AI in a thread) against stub Discord objects that answer at once,
# with every table's players clicking concurrently in real time.


class _Stub:
    def __init__(self, **fields: Any) -> None:
        self.__dict__.update(fields)


class _StubChannel:
    def __init__(self, client: _StubClient, channel_id: int) -> None:
        self.client, self.id = client, channel_id

    async def send(self, **_: Any) -> Any:
        self.client.calls += 1
        self.client.next_id += 1
        return _Stub(id=self.client.next_id, channel=self)

    def get_partial_message(self, message_id: int) -> Any:
        async def edit(**_: Any) -> None:
            self.client.calls += 1

        return _Stub(id=message_id, edit=edit)


class _StubClient:
    def __init__(self) -> None:
        self.calls = 0
        self.next_id = 10**12

    def get_partial_messageable(self, channel_id: int, **_: Any) -> _StubChannel:
        return _StubChannel(self, channel_id)

    async def create_dm(self, user: Any) -> _StubChannel:
        self.calls += 1
        return _StubChannel(self, 2 * 10**11 + user.id)


class _StubResponse:
    def __init__(self) -> None:
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def edit_message(self, **_: Any) -> None:
        self.done = True

    async def send_message(self, *_: Any, **__: Any) -> None:
        self.done = True


def _interaction(user_id: int, guild: Any, channel: Any) -> Any:
    async def nothing(*_: Any, **__: Any) -> None:
        return None

    async def original() -> Any:
        return _Stub(id=10**13 + channel.id)

    perms = _Stub(view_channel=True, send_messages=True, read_message_history=True)
    return _Stub(
        user=_Stub(id=user_id, display_name=f"u{user_id}", guild_permissions=None),
        guild=guild,
        channel=channel,
        message=None,
        app_permissions=perms,
        response=_StubResponse(),
        followup=_Stub(send=nothing),
        original_response=original,
        edit_original_response=nothing,
    )


def _policy(view: Any) -> list[Any]:
    from engine import sort_hand
    from engine.actions import CallCanYe, Discard, Pass, Play, ShowHonours, TakeRuff

    legal = view.legal
    for kind in (TakeRuff, ShowHonours, CallCanYe, Pass):
        found = [a for a in legal if isinstance(a, kind)]
        if found:
            return found[:1]
    discards = [a.card for a in legal if isinstance(a, Discard)]
    if discards:
        return [Discard(c) for c in sort_hand(discards, view.trump)[-4:]]
    return [next(a for a in legal if isinstance(a, Play))]


async def run_direct(args: argparse.Namespace) -> dict[str, Any]:
    import random

    from .manager import GameManager
    from .store import Database

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database=str(Path(tmp) / "direct.db"),
            ai_delay=1.0,
            turn_timeout=0.0,
            lobby_timeout=0.0,
            table_edit_interval=args.edit_interval,
            ai_in_thread=True,
            seed=args.seed,
        )
        db = await Database.open(settings.database)
        client = _StubClient()
        manager = GameManager(client, db, settings)  # type: ignore[arg-type]
        rng = random.Random(args.seed)
        guild = _Stub(id=1, name="Bench")
        tables: list[tuple[int, list[int]]] = []
        try:
            for i in range(args.games):
                channel = _Stub(id=1000 + i, name=f"table-{i}")
                humans = [10_000 * (i + 1) + s for s in range(1 if i % 2 == 0 else 4)]
                await manager.new_table(_interaction(humans[0], guild, channel), "ruff-honours-cotton", None, args.target, None)
                table_id = max(manager.tables)
                for user in humans[1:]:
                    await manager.on_table_button(_interaction(user, guild, channel), table_id, "join")
                for _ in range(4 - len(humans)):
                    await manager.on_table_button(_interaction(humans[0], guild, channel), table_id, f"ai-{args.ai}")
                await manager.on_table_button(_interaction(humans[0], guild, channel), table_id, "start")
                tables.append((table_id, humans))
            manager.ack_latencies.clear()
            lags: list[float] = []

            async def player(table_id: int, seat: int, user_id: int) -> int:
                clicks = 0
                table = manager.tables[table_id]
                while table.status == "active" and table.game is not None and not table.game.is_over:
                    game = table.game
                    if game.to_act() != seat:
                        await asyncio.sleep(0.05)  # the player watches their DM
                        continue
                    await asyncio.sleep(rng.uniform(0.5, 2.0))  # thinks
                    if table.game is not game or game.to_act() != seat:
                        continue
                    actions = _policy(game.observe(seat))
                    interaction = _interaction(user_id, None, _Stub(id=0))
                    if len(actions) > 1:
                        codes = [a.card.code for a in actions]
                        await manager.on_discard_select(interaction, table_id, game.version, seat, codes)
                    else:
                        await manager.on_action(interaction, table_id, game.version, seat, actions)
                    clicks += 1
                return clicks

            async def watch_lag() -> None:
                loop = asyncio.get_running_loop()
                while True:
                    before = loop.time()
                    await asyncio.sleep(0.1)
                    lags.append(loop.time() - before - 0.1)

            watcher = asyncio.create_task(watch_lag())
            wall = time.perf_counter()
            counts = await asyncio.gather(
                *(player(tid, seat, uid) for tid, humans in tables for seat, uid in enumerate(humans))
            )
            wall = time.perf_counter() - wall
            watcher.cancel()
        finally:
            await manager.close()
            await db.close()
    acks = manager.ack_latencies
    return {
        "games": len(tables),
        "clicks": sum(counts),
        "wall_s": wall,
        "ack_p50_ms": _quantile(acks, 0.5) * 1000,
        "ack_p99_ms": _quantile(acks, 0.99) * 1000,
        "ack_max_ms": max(acks, default=0.0) * 1000,
        "lag_p99_ms": _quantile(lags, 0.99) * 1000,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="tables open at once (default 200)")
    parser.add_argument("--target", type=int, default=5, help="points to win each game (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="fixes the table seeds")
    parser.add_argument("--think", type=float, default=0.25, help="virtual seconds between rounds")
    parser.add_argument("--edit-interval", type=float, default=1.0, help="table_edit_interval (production: 1.0)")
    parser.add_argument(
        "--ai", choices=("easy", "normal", "hard"), default="easy",
        help="AI level of the 1h+3AI games (default easy: measures the bot, not the AI search)",
    )
    parser.add_argument("--memory-sample", type=int, default=20, help="tables measured by tracemalloc")
    parser.add_argument(
        "--mode", choices=("both", "simcord", "direct"), default="both",
        help="simcord (all figures), direct (latency with real concurrency, no simulator), or both",
    )
    parser.add_argument("--progress", action="store_true", help="report progress on stderr")
    parser.add_argument("--memory-top", type=int, default=0, help="print the N biggest allocation sites")
    parser.add_argument("--time-scale", type=float, default=1000.0, help="virtual time dilation (see above)")
    args = parser.parse_args(argv)
    if args.mode in ("both", "direct"):
        d = asyncio.run(run_direct(args))
        print(
            f"direct (no simulator; {d['games']} games played concurrently in real time, production "
            f"timings, {d['clicks']} clicks in {d['wall_s']:.0f} s): click-to-ack p50 {d['ack_p50_ms']:.1f} ms, "
            f"p99 {d['ack_p99_ms']:.1f} ms, max {d['ack_max_ms']:.1f} ms; event-loop lag p99 "
            f"{d['lag_p99_ms']:.1f} ms   [target p99 <= 50 ms]"
        )
    if args.mode == "direct":
        return 0
    r = asyncio.run(run(args))
    kib = r["bytes_per_game"] / 1024
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"games: {r['games']} ({r['active_at_once']} active at once), {r['rounds']} rounds, "
        f"{r['wall_s']:.1f} s wall; load average {load:.1f} on {os.cpu_count()} CPUs"
    )
    print(
        f"click-to-ack (GameManager.ack_latencies, n={r['ack_n']}): "
        f"p50 {r['ack_p50_ms']:.1f} ms, p99 {r['ack_p99_ms']:.1f} ms   [target p99 <= 50 ms]"
    )
    for kind in sorted(r["settle_p50_ms"]):
        print(
            f"click-to-settle {kind:7}: p50 {r['settle_p50_ms'][kind]:.1f} ms, "
            f"p99 {r['settle_p99_ms'][kind]:.1f} ms (incl. AI replies and fan-out)"
        )
    targets = {"1h+3ai": 1.5, "4h": 3.0}
    for kind in sorted(r["rest_per_card"]):
        print(
            f"REST calls per card, {kind:7}: {r['rest_per_card'][kind]:.2f} "
            f"({r['rest_calls'][kind]} calls / {r['cards'][kind]} cards)   [target <= {targets[kind]}]"
        )
    print(f"  (calls not attributable to a game: {r['unattributed_calls']})")
    print(
        f"channel edits per 5 s, one channel: max {r['edits_per_5s_max']}, "
        f"median {r['edits_per_5s_median']}   [target <= 5]"
    )
    print(
        f"memory per active game ({r['memory_sample']} opened with {r['active_at_once'] - r['memory_sample']} in play): "
        f"{r['retained_per_game'] / 1024:.1f} KiB retained by the bot   [target <= 64 KiB]"
    )
    print(
        f"  tracemalloc: {kib:.1f} KiB allocated by the bot's code and still alive (includes the strings "
        f"the simulator keeps for its messages), + {r['simulator_bytes_per_game'] / 1024:.1f} KiB by the simulator"
    )
    for site, size in r["memory_sites"]:
        print(f"  {size / 1024:8.1f} KiB/game  {site}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
