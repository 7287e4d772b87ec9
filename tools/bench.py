"""Benchmark: many concurrent games of the real bot, at production settings.

``python -m tools.bench`` (the default, ``--mode production``) is the
production setting: 200 tables open at once, half 1 human + 3 AI at the default level
(normal), half 4 humans, production timings (1 s AI pacing, 90 s turn timers
armed, 1 s table-edit throttle), the AI in an :class:`~bot.tables.aipool.AIPool` of
worker processes, and every Discord call answered after a simulated 50-150 ms.
The real ``GameManager``, engine and SQLite file run; only Discord is a stub
(see ``StubDiscord``). Every human clicks concurrently in real time (thinking
0.5-2 s). After ``--warmup`` seconds it measures for ``--duration`` seconds and
prints, with sample sizes:

* click-to-ack p50/p99/max: from the click reaching the manager to the
  interaction response being sent (everything the bot does before answering,
  the response included); and to Discord's (simulated) answer to it;
* event-loop lag p99 (a 50 ms ticker's lateness), and what stops the loop:
  the share of a core the bot's process used, the SQLite group commits (each
  waits for the disk: ``synchronous = FULL``) and the garbage collector's
  pauses by generation;
* AI move delay beyond its pacing, p95: from the move before to the AI's
  commit, minus the 1 s pacing (waiting for a worker, the search, the commit);
* how many AI searches ran at each budget step, and the easy fallbacks.

``--best-case`` prints a best case beside it (Discord answering at once, easy
AI), never instead. ``--games``/``--duration`` scale it down.

``--mode simcord`` is the older benchmark through the simulator, kept for the
figures only it gives (see below): REST calls per card, channel edits per 5 s,
memory per game.

simcord mode: opens N tables at once in one simulated server (one channel
each; even-numbered games are 1 human + 3 AI, odd ones 4 humans), then plays
them all to the end, one move per game per round, and prints:

* click-to-ack latency p50/p99: ``Services.ack_latencies``, and
  click-to-settle (real seconds around ``user.click``: the answer plus all
  the work it starts: AI replies, table edits, DMs);
* REST calls per card played, per kind of game: every request of the game
  (its channel, its players' DMs, its interaction answers; lobby to result)
  divided by the cards played;
* channel edits per 5 s per channel: the most edits of one table channel in
  any 5-second window of the (virtual) clock the bot's edit throttle uses;
* memory per active game: tracemalloc, the bytes the bot allocated (not the
  simulator's own message store) while opening and starting the last
  ``--memory-sample`` games (the others already in play), per game.

Method notes (simcord mode). simcord runs one user operation at a time, so
clicks never overlap: "concurrent" means N tables open and in play,
interleaved move by move. Time is simcord's virtual clock, dilated by
``--time-scale`` (default 1000): simcord waits out in real time any sleep
shorter than its settle timeout (5 s), so the production throttle
(``table_edit_interval`` 1 s) would cost a real second per click. Instead every
duration is multiplied by the scale: the bot runs with a 1000 s edit interval,
rounds are ``advance_time(--think x 1000)`` apart, and edits are counted in
5000 s windows. Only the ratios matter to the throttle (AI delay and turn
timers are off), so this is the 1 s / 5 s behaviour, slowed down.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
import types
import weakref
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.config import Settings

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
        if (
            os.sep + "bot" + os.sep in frame.filename
            or os.sep + "engine" + os.sep in frame.filename
        ):
            return f"{frame.filename.rsplit(os.sep, 2)[-2]}/{os.path.basename(frame.filename)}:{frame.lineno}"
    frame = traceback[-1]
    return f"{os.path.basename(frame.filename)}:{frame.lineno}"


_OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType)


def _reachable(
    roots: list[Any],
    stop: set[int],
    known: set[int] | frozenset[int] = frozenset(),
    by_type: Counter[str] | None = None,
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
        if (
            os.sep + "bot" + os.sep in name
            or os.sep + "engine" + os.sep in name
            or "discord" + os.sep in name
        ):
            return "bot"
    return "bot"  # the standard library on the bot's behalf: counted, to be safe


async def _human_move(user: Any) -> bool:
    """The scripted human's move from their DM hand (see tools.demo)."""
    from tools.demo import _play_turn

    return await _play_turn(user) is not None


async def run(args: argparse.Namespace) -> dict[str, Any]:
    import simcord

    from bot.app.client import create_bot

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database=str(Path(tmp) / "bench.db"),
            ai_delay=0.0,
            turn_timeout=0.0,
            lobby_timeout=0.0,
            table_edit_interval=args.edit_interval * args.time_scale,
            ai_mode="process",  # as in production (the easy AI always runs inline)
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
    notifier = manager.services.notifier
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
                sites[
                    f"  {_site(stat.traceback)} <- {os.path.basename(inner.filename)}:{inner.lineno}"
                ] += stat.size_diff
    del before, after
    notifier.min_interval, env.settle_timeout = args.edit_interval * args.time_scale, play_settle
    notifier.stats.by_channel_edits.clear()
    active = sum(1 for t in manager.tables.values() if t.status == "active")

    # ---- play every game to the end, one move per game per round
    manager.services.ack_latencies.clear()
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
            print(
                f"  round {rounds}: {done}/{len(games)} games over, {time.perf_counter() - wall:.0f} s",
                file=sys.stderr,
            )
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
    edit_times = manager.services.notifier.stats.by_channel_edits
    window = 5.0 * args.time_scale
    per_channel = [_max_in_window(edit_times.get(g.channel.id, []), window) for g in games]
    acks = manager.services.ack_latencies
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
        "memory_sites": [
            (site, size / max(1, sample)) for site, size in sites.most_common(args.memory_top)
        ],
        "bytes_per_game": mem["bot"] / max(1, sample),
        "retained_per_game": retained / max(1, sample),
        "simulator_bytes_per_game": mem["simulator"] / max(1, sample),
    }


# ------------------------------------------------------------------ production mode (the default)
#
# simcord runs one click at a time and its settle loop grows with the number of
# timers, so its latencies measure the simulator as much as the bot. The
# production mode runs the real GameManager, a real SQLite file and the real
# engine with production timings (1 s AI pacing, 90 s turn timers armed, 1 s
# edit throttle), the AI in an AIPool, against stub Discord objects that answer
# every call after 50-150 ms, with every table's players clicking concurrently
# in real time. The stubs are the only thing not real: they are the network.


class _Stub:
    def __init__(self, **fields: Any) -> None:
        self.__dict__.update(fields)

    def __getattr__(self, name: str) -> Any:  # for the type checker: fields are set at run time
        raise AttributeError(name)


class _StubResponse:
    """An interaction's ``response``: answering sets the interaction's ``acked_at``
    and, after the simulated latency, ``answered_at``. It holds the interaction
    weakly, and there is one class for all: a class made per interaction, or a
    response and interaction holding each other, was garbage for the cyclic
    collector, the bench's own work counted as the bot's."""

    def __init__(self, interaction: Any, discord_: StubDiscord) -> None:
        self.interaction = weakref.ref(interaction)
        self.discord = discord_
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def _ack(self) -> None:
        interaction = self.interaction()
        if interaction is None:  # nobody waits for this answer any more
            return
        if interaction.acked_at is None:
            interaction.acked_at = time.perf_counter()
        self.done = True
        await self.discord.answer()
        if interaction.answered_at is None:
            interaction.answered_at = time.perf_counter()

    async def edit_message(self, **_: Any) -> None:
        await self._ack()

    async def send_message(self, *_: Any, **__: Any) -> None:
        await self._ack()

    async def defer(self, *_: Any, **__: Any) -> None:
        await self._ack()


class StubDiscord:
    """Discord's REST API as the manager sees it: every call answered after ``latency`` seconds."""

    def __init__(self, latency: tuple[float, float] = (0.05, 0.15), seed: int = 1) -> None:
        self.latency = latency
        self.rng = random.Random(seed)
        self.calls = 0
        self.next_id = 10**12
        self.http = _Stub(  # the raw routes the bot calls (threads: the events' tables)
            start_thread_with_message=self._start_thread,
            start_thread_without_message=self._start_private_thread,
            add_user_to_thread=self._add_user_to_thread,
        )

    async def _start_thread(self, channel_id: int, message_id: int, **_: Any) -> dict[str, Any]:
        await self.answer()
        return {"id": str(self.new_id()), "parent_id": str(channel_id)}

    async def _start_private_thread(self, channel_id: int, **_: Any) -> dict[str, Any]:
        await self.answer()
        return {"id": str(self.new_id()), "parent_id": str(channel_id)}

    async def _add_user_to_thread(self, thread_id: int, user_id: int) -> None:
        await self.answer()

    async def answer(self) -> None:
        self.calls += 1
        low, high = self.latency
        if high > 0:
            await asyncio.sleep(self.rng.uniform(low, high))

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    # discord.Client, as far as bot.present.notify uses it
    def get_partial_messageable(self, channel_id: int, **_: Any) -> StubChannel:
        return StubChannel(self, channel_id)

    async def create_dm(self, user: Any) -> StubChannel:
        await self.answer()
        return StubChannel(self, 2 * 10**11 + user.id)

    def interaction(self, user_id: int, guild: Any, channel: Any) -> Any:
        """A component or command interaction; ``acked_at``/``answered_at`` are set when it is answered."""
        discord_ = self
        interaction: Any = _Stub(acked_at=None, answered_at=None)

        async def call(*_: Any, **__: Any) -> Any:
            await discord_.answer()
            return _Stub(id=discord_.new_id())

        perms = _Stub(view_channel=True, send_messages=True, read_message_history=True)
        interaction.__dict__.update(
            user=_Stub(id=user_id, display_name=f"u{user_id}", guild_permissions=None),
            guild=guild,
            channel=channel,
            message=None,
            app_permissions=perms,
            response=_StubResponse(interaction, discord_),
            followup=_Stub(send=call),
            original_response=call,
            edit_original_response=call,
        )
        return interaction


class StubChannel:
    def __init__(self, discord_: StubDiscord, channel_id: int) -> None:
        self.discord, self.id = discord_, channel_id

    async def send(self, *_: Any, **__: Any) -> Any:
        await self.discord.answer()
        return _Stub(id=self.discord.new_id(), channel=self)

    def get_partial_message(self, message_id: int) -> Any:
        async def edit(**_: Any) -> None:
            await self.discord.answer()

        async def delete(**_: Any) -> None:
            await self.discord.answer()

        return _Stub(id=message_id, edit=edit, delete=delete)


def policy(view: Any) -> list[Any]:
    """A scripted human: the obvious decision, the highest discards, the first legal
    card; an AI's claim (made only when certain) is accepted."""
    from engine import (
        AcceptClaim,
        AgreeConcession,
        CallCanYe,
        Discard,
        Pass,
        Play,
        ShowHonours,
        TakeRuff,
        sort_hand,
    )

    legal = view.legal
    for kind in (AcceptClaim, AgreeConcession, TakeRuff, ShowHonours, CallCanYe, Pass):
        found = [a for a in legal if isinstance(a, kind)]
        if found:
            return found[:1]
    discards = [a.card for a in legal if isinstance(a, Discard)]
    if discards:  # as many as the turn asks for (four unless the view says)
        return [Discard(c) for c in sort_hand(discards, view.trump)[-(view.to_lay_out or 4) :]]
    return [next(a for a in legal if isinstance(a, Play))]


async def open_table(
    manager: Any,
    discord_: StubDiscord,
    index: int,
    humans: int,
    ai: str,
    target: int,
    channel_index: int | None = None,
) -> tuple[int, list[int]]:
    """``/ruff new``, joins, Add AI and Start through the manager's own handlers.

    Game ``index`` has its own players; it is played in channel ``channel_index``
    (default: its own channel too).
    """
    guild = _Stub(id=1, name="Bench")
    where = index if channel_index is None else channel_index
    channel = _Stub(id=1000 + where, name=f"table-{where}")
    users = [10_000 * (index + 1) + s for s in range(humans)]
    await manager.new_table(
        discord_.interaction(users[0], guild, channel), "ruff-honours-cotton", None, target, None
    )
    table_id = next(
        (
            t.id
            for t in manager.tables.values()
            if t.channel_id == channel.id and t.status == "lobby"
        ),
        None,
    )
    if table_id is None:
        raise RuntimeError(f"/ruff new was refused in channel {channel.id} (target {target}?)")
    for user in users[1:]:
        await manager.on_table_button(discord_.interaction(user, guild, channel), table_id, "join")
    for _ in range(4 - humans):
        await manager.on_table_button(
            discord_.interaction(users[0], guild, channel), table_id, f"ai-{ai}"
        )
    await manager.on_table_button(discord_.interaction(users[0], guild, channel), table_id, "start")
    return table_id, users


async def click(manager: Any, discord_: StubDiscord, table_id: int, seat: int, user_id: int) -> Any:
    """The human at ``seat`` plays their turn by clicking; the interaction (with its ack times).

    If it is no longer their turn there is no click (``acked_at`` stays None).
    """
    game = manager.tables[table_id].game
    interaction = discord_.interaction(user_id, None, _Stub(id=0))
    interaction.clicked_at = time.perf_counter()
    if game is None or game.to_act() != seat:
        return interaction  # not their turn any more (a timer played it): no click, never acked
    actions = policy(game.observe(seat))
    if all(type(a).__name__ == "Discard" for a in actions):
        # a lay-out as a player makes it: the cards chosen in the menu (the hand shows
        # the choice, nothing moves), then Confirm lays them out: the move's click
        codes = [a.card.code for a in actions]
        choice = discord_.interaction(user_id, None, _Stub(id=0))
        await manager.on_pick(choice, table_id, game.version, seat, "discard", codes)
        interaction.clicked_at = time.perf_counter()
        await manager.on_pick(
            interaction, table_id, game.version, seat, "discard", codes, confirmed=True
        )
    else:
        await manager.on_action(interaction, table_id, game.version, seat, actions)
    return interaction


def _callback_name(handle: asyncio.events.Handle) -> str:
    """What a callback of the loop runs: a task's coroutine, or the function."""
    callback = handle._callback  # type: ignore[attr-defined]
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        return getattr(coro, "__qualname__", repr(coro))
    return getattr(callback, "__qualname__", repr(callback))


def run_queue_wait() -> Callable[[], float]:
    """A reader of the seconds the calling thread has spent runnable but waiting for a
    CPU (Linux schedstat; 0 where there is none)."""
    try:
        stat = open(f"/proc/self/task/{threading.get_native_id()}/schedstat")  # noqa: SIM115
    except OSError:
        return lambda: 0.0

    def read() -> float:
        stat.seek(0)
        return int(stat.read().split()[1]) / 1e9

    weakref.finalize(read, stat.close)
    return read


async def watch_lag(
    lags: list[float], cpu_waits: list[float], measuring: Callable[[], bool], tick: float = 0.05
) -> None:
    """The event loop's lag, for ever (cancel it): each ``tick``'s lateness, appended to
    ``lags`` while ``measuring()``, and of it, to ``cpu_waits``, the time the loop's
    thread was runnable but waiting for a CPU another process held (the machine's, not
    the bot's)."""
    loop = asyncio.get_running_loop()
    waited = run_queue_wait()
    while True:
        before, waited_before = loop.time(), waited()
        await asyncio.sleep(tick)
        if measuring():
            lag = loop.time() - before - tick
            lags.append(lag)
            cpu_waits.append(min(lag, max(0.0, waited() - waited_before)))


def machine_busy() -> list[int]:
    """The machine's CPU ticks so far, all CPUs: ``[busy, total]`` (/proc/stat; zeros elsewhere)."""
    try:
        with open("/proc/stat") as f:
            ticks = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return [0, 0]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
    return [sum(ticks[:8]) - idle, sum(ticks[:8])]


def _share_busy(before: list[int], after: list[int]) -> float:
    """The share of the machine's CPUs busy between two :func:`machine_busy` readings."""
    total = after[1] - before[1]
    return (after[0] - before[0]) / total if total > 0 else float("nan")


def priority() -> str:
    """This process's CPU priority: its nice value and, where the kernel groups
    processes by session (autogroup), its group's nice, which weighs against the
    other sessions on the machine (a process's own nice only against its session's)."""
    text = f"nice {os.getpriority(os.PRIO_PROCESS, 0)}"
    try:
        with open("/proc/self/autogroup") as f:
            text += f", autogroup {f.read().split()[-1]}"
    except (OSError, IndexError):
        pass
    return text


def rss_mib() -> float:
    """Resident memory of this process (MiB), from /proc (Linux) or getrusage (the peak)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def run_production(args: argparse.Namespace) -> dict[str, Any]:
    from bot.app.manager import GameManager
    from bot.store import Database
    from bot.tables.aipool import AIPool

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database=str(Path(tmp) / "production.db"),
            ai_delay=args.ai_delay,
            turn_timeout=args.turn_timeout,
            lobby_timeout=300.0,
            table_edit_interval=args.edit_interval,
            seed=args.seed,
            pictures=not args.no_pictures,
        )
        pool = AIPool(args.workers, mode=args.ai_mode)
        await pool.ready()
        db = await Database.open(settings.database)
        latency = (args.latency_min / 1000, args.latency_max / 1000)
        discord_ = StubDiscord(latency, args.seed)
        manager = GameManager(discord_, db, settings, ai=pool)  # type: ignore[arg-type]
        await manager.resume()  # start-up as the bot's (nothing to resume: the heap is settled)
        rng = random.Random(args.seed)
        acks: list[float] = []  # click -> the interaction response sent
        answered: list[float] = []  # click -> Discord's answer to it (+ the simulated latency)
        ai_delays: list[float] = []  # AI move: turn start -> commit, minus the pacing
        lags: list[float] = []
        passes: list[float] = []  # the loop thread's CPU time of each pass of the loop
        cpu_waits: list[float] = []  # of each tick's lag, the time spent waiting for a CPU
        slow: dict[str, list[float]] = defaultdict(list)  # --slow-callbacks: CPU by coroutine
        loads: list[float] = []  # the machine's 1-minute load average, each second
        machine_from: list[int] = [0, 0]  # /proc/stat: busy and all ticks
        # (generation, seconds, CPU seconds of its thread) of each collection
        gc_pauses: list[tuple[int, float, float]] = []
        turn_started: dict[int, float] = {}
        # players wait for their table to change rather than poll it: 500 players polling
        # every 50 ms would be 10,000 wake-ups a second of the bench's own, on the bot's loop
        changed: dict[int, asyncio.Event] = defaultdict(asyncio.Event)
        measuring = False

        moves = [0]  # commits while measured (clicks, AI and timer moves)

        def timed_committed(table: Any, events: Any) -> None:
            # every commit's events (a click's, the AI's, a timer's) reach the feed
            now = time.perf_counter()
            if measuring:
                moves[0] += 1
            _, seat, actor_id = table.moves[-1]
            started = turn_started.get(table.id)
            if measuring and started is not None and actor_id is None and table.ai_plays(seat):
                ai_delays.append(now - started - settings.ai_delay)
            turn_started[table.id] = now
            changed.pop(table.id, asyncio.Event()).set()

        manager.services.feed.subscribe(timed_committed)
        commits: list[float] = []  # each group COMMIT (synchronous = FULL: it waits for the disk)
        sqlite_db: Any = db  # the SQLite store's group commit (not on the abstract Database)
        commit_batch = sqlite_db._commit_batch

        async def timed_commit_batch() -> None:
            began = time.perf_counter()
            try:
                await commit_batch()
            finally:
                if measuring:
                    commits.append(time.perf_counter() - began)

        sqlite_db._commit_batch = timed_commit_batch
        try:
            kinds = [(i, 1 if i % 2 == 0 else 4) for i in range(args.games)]
            opened = await asyncio.gather(
                *(
                    open_table(manager, discord_, i, humans, args.ai, args.target)
                    for i, humans in kinds
                )
            )
            stop_at = time.perf_counter() + args.warmup + args.duration
            measure_from = time.perf_counter() + args.warmup

            async def player(table_id: int, seat: int, user_id: int) -> None:
                table = manager.tables[table_id]
                while time.perf_counter() < stop_at:
                    game = table.game
                    if table.status != "active" or game is None or game.is_over:
                        return
                    if game.to_act() != seat or seat in table.away:
                        with contextlib.suppress(TimeoutError):  # the player watches their DM
                            await asyncio.wait_for(changed[table_id].wait(), 1.0)
                        continue
                    await asyncio.sleep(rng.uniform(args.think_min, args.think_max))  # thinks
                    if table.game is not game or game.to_act() != seat:
                        continue
                    interaction = await click(manager, discord_, table_id, seat, user_id)
                    if measuring and interaction.acked_at is not None:
                        acks.append(interaction.acked_at - interaction.clicked_at)
                        answered.append(interaction.answered_at - interaction.clicked_at)

            # process CPU, wall time, the loop thread's CPU when measuring began
            cpu_from = [0.0, 0.0, 0.0]

            # the loop thread's CPU time: what a profile shows is the bot's work, not the
            # time other processes on a shared machine took from it
            profiler = cProfile.Profile(time.thread_time) if args.profile else None
            loop = asyncio.get_running_loop()
            run_once = loop._run_once  # type: ignore[attr-defined]

            def timed_run_once() -> None:
                # one pass of the loop: its ready callbacks (and the select, ~0 CPU);
                # a tick due meanwhile waits for the whole pass
                began = time.thread_time()
                run_once()
                if measuring:
                    passes.append(time.thread_time() - began)

            loop._run_once = timed_run_once  # type: ignore[attr-defined]
            handle_run = asyncio.events.Handle._run
            if args.slow_callbacks:
                threshold = args.slow_callbacks / 1000

                def timed_handle(handle: asyncio.events.Handle) -> None:
                    began = time.thread_time()
                    handle_run(handle)
                    took = time.thread_time() - began
                    if measuring and took > threshold:
                        slow[_callback_name(handle)].append(took)

                asyncio.events.Handle._run = timed_handle  # type: ignore[method-assign]

            async def sample_machine() -> None:
                while True:
                    if measuring:
                        loads.append(os.getloadavg()[0])
                    await asyncio.sleep(1.0)

            async def start_measuring() -> None:
                nonlocal measuring
                await asyncio.sleep(max(0.0, measure_from - time.perf_counter()))
                measuring = True
                if args.garbage:
                    gc.collect()
                    gc.disable()  # what the moves leave for the collector, kept to be counted
                machine_from[:] = machine_busy()
                cpu_from[:] = [time.process_time(), time.perf_counter(), time.thread_time()]
                if profiler is not None:
                    profiler.enable()  # the event loop's thread only

            gc_started = (0.0, 0.0)

            def gc_timer(phase: str, info: dict[str, int]) -> None:
                # the collector stops the whole process, event loop included: its
                # pauses, by generation, to set beside the loop's lag
                nonlocal gc_started
                if phase == "start":
                    gc_started = (time.perf_counter(), time.thread_time())
                elif measuring:
                    gc_pauses.append(
                        (
                            info["generation"],
                            time.perf_counter() - gc_started[0],
                            time.thread_time() - gc_started[1],
                        )
                    )

            gc.callbacks.append(gc_timer)
            watcher = asyncio.create_task(watch_lag(lags, cpu_waits, lambda: measuring))
            sampler = asyncio.create_task(sample_machine())
            switch = asyncio.create_task(start_measuring())
            rss_before = rss_mib()
            wall = time.perf_counter()
            await asyncio.gather(
                *(player(tid, seat, uid) for tid, users in opened for seat, uid in enumerate(users))
            )
            measuring = False
            loop_cpu = time.thread_time() - cpu_from[2]
            machine_to = machine_busy()
            loop._run_once = run_once  # type: ignore[attr-defined]
            asyncio.events.Handle._run = handle_run  # type: ignore[method-assign]
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(args.profile)
            wall = time.perf_counter() - wall
            cpu = time.process_time() - cpu_from[0]
            busy = cpu / max(1e-9, time.perf_counter() - cpu_from[1])
            watcher.cancel()
            sampler.cancel()
            switch.cancel()
            gc.callbacks.remove(gc_timer)
            garbage: Counter[str] = Counter()
            if args.garbage:
                gc.set_debug(gc.DEBUG_SAVEALL)
                gc.collect()
                garbage.update(type(o).__qualname__ for o in gc.garbage)
                gc.set_debug(0)
                gc.garbage.clear()
                gc.enable()
            finished = sum(1 for t in manager.tables.values() if t.status == "finished")
            decisions = list(pool.decisions)
        finally:
            await manager.close()
            await db.close()
            await pool.close()
    steps = Counter(d.step for d in decisions if d.level != "easy")
    return {
        "games": len(opened),
        "finished": finished,
        "wall_s": wall,
        "measured_s": args.duration,
        "acks": acks,
        "answered": answered,
        "lags": lags,
        "cpu_waits": cpu_waits,
        "gc_pauses": gc_pauses,
        "commits": commits,
        "busy": busy,
        "cpu_s": cpu,
        "loop_cpu_s": loop_cpu,
        "passes": passes,
        "slow": slow,
        "garbage": garbage,
        "loads": loads,
        "machine_busy": _share_busy(machine_from, machine_to),
        "priority": priority(),
        "moves": moves[0],
        "ai_delays": ai_delays,
        "rest_calls": discord_.calls,
        "ai_steps": dict(steps),
        "ai_fallbacks": pool.fallbacks,
        "pictures": manager.services.painter.drawn,
        "rss_mib": (rss_before, rss_mib()),
    }


def _ms(values: list[float], q: float) -> str:
    return f"{_quantile(values, q) * 1000:.1f}"


def report_production(r: dict[str, Any], args: argparse.Namespace, label: str) -> None:
    acks, answered, lags, delays = r["acks"], r["answered"], r["lags"], r["ai_delays"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"[{label}] {r['games']} games at once ({r['games'] - r['games'] // 2} x 1 human + 3 AI {args.ai}, "
        f"{r['games'] // 2} x 4 humans), AI {args.ai_mode} pool x{args.workers or 'auto'}, AI pacing "
        f"{args.ai_delay:g} s, turn timers {args.turn_timeout:g} s, Discord answers in "
        f"{args.latency_min:g}-{args.latency_max:g} ms; measured {r['measured_s']:g} s after "
        f"{args.warmup:g} s warm-up; {os.cpu_count()} CPUs, load average {load:.1f}"
    )
    print(
        f"  click-to-ack (click -> interaction response sent), n={len(acks)}: p50 {_ms(acks, 0.5)} ms, "
        f"p99 {_ms(acks, 0.99)} ms, max {max(acks, default=0.0) * 1000:.1f} ms   [target p99 <= 50 ms]"
    )
    print(
        f"  click-to-answered (+ Discord's simulated answer to it), n={len(answered)}: "
        f"p50 {_ms(answered, 0.5)} ms, p99 {_ms(answered, 0.99)} ms, max {max(answered, default=0.0) * 1000:.1f} ms"
    )
    print(
        f"  event-loop lag (50 ms ticks), n={len(lags)}: p50 {_ms(lags, 0.5)} ms, p99 {_ms(lags, 0.99)} ms, "
        f"max {max(lags, default=0.0) * 1000:.1f} ms   [target p99 <= 10 ms]"
    )
    waits = r["cpu_waits"]
    own = [lag - wait for lag, wait in zip(lags, waits, strict=True)]
    print(
        f"    of it, the loop thread waiting for a CPU other processes held (schedstat), n={len(waits)}: "
        f"p99 {_ms(waits, 0.99)} ms, {sum(waits) * 1000:.0f} ms in all; the lag less that wait "
        f"(the bot's own: its work, the collector, the GIL): p50 {_ms(own, 0.5)} ms, "
        f"p99 {_ms(own, 0.99)} ms, max {max(own, default=0.0) * 1000:.1f} ms"
    )
    pauses = r["gc_pauses"]
    by_gen = ", ".join(
        f"gen {g} n={len(xs)} max {max(t for t, _ in xs) * 1000:.1f} ms "
        f"(CPU {max(c for _, c in xs) * 1000:.1f} ms)"
        for g in range(3)
        if (xs := [(t, c) for gen, t, c in pauses if gen == g])
    )
    commits = r["commits"]
    passes = r["passes"]
    print(
        f"  the loop's passes (the loop thread's CPU time of each pass: what a tick waits behind "
        f"when the machine is idle), n={len(passes)}: p50 {_ms(passes, 0.5)} ms, "
        f"p99 {_ms(passes, 0.99)} ms, max {max(passes, default=0.0) * 1000:.1f} ms"
    )
    for name, took in sorted(r["slow"].items(), key=lambda kv: -sum(kv[1]))[:12]:
        print(
            f"    callbacks over {args.slow_callbacks:g} ms of CPU: {name}: n={len(took)}, "
            f"max {max(took) * 1000:.1f} ms, {sum(took) * 1000:.0f} ms in all"
        )
    if args.garbage:
        total = sum(r["garbage"].values())
        print(
            f"  cyclic garbage: {total} objects, {total / max(1, r['moves']):.0f} a move; "
            + ", ".join(f"{name} {n}" for name, n in r["garbage"].most_common(25))
        )
    print(
        f"  the bot's process (event loop and database thread) used {r['busy'] * 100:.0f}% of a core "
        "while measured"
    )
    moves = max(1, r["moves"])
    print(
        f"  CPU per move (over every move committed while measured, clicks, AI and timers), "
        f"n={r['moves']}: the loop thread {r['loop_cpu_s'] * 1000 / moves:.2f} ms, the bot's "
        f"process {r['cpu_s'] * 1000 / moves:.2f} ms"
    )
    loads = r["loads"]
    print(
        f"  the machine while measured: load average p50 {_quantile(loads, 0.5):.1f} (n={len(loads)} "
        f"samples, 1 a second; min {min(loads, default=0.0):.1f}, max {max(loads, default=0.0):.1f}) "
        f"on {os.cpu_count()} CPUs, {r['machine_busy'] * 100:.0f}% of all CPUs busy; this "
        f"benchmark ran at {r['priority']}"
    )
    print(
        f"  SQLite group commits (each waits for the disk), n={len(commits)}: p50 {_ms(commits, 0.5)} ms, "
        f"p99 {_ms(commits, 0.99)} ms, max {max(commits, default=0.0) * 1000:.1f} ms"
    )
    print(
        f"  garbage collector pauses (they stop the event loop too): {by_gen or 'none'}; "
        f"{sum(t for _, t, _ in pauses) * 1000:.0f} ms in all, "
        f"{sum(c for _, _, c in pauses) * 1000:.0f} ms of CPU"
    )
    print(
        f"  AI move delay beyond its {args.ai_delay:g} s pacing, n={len(delays)}: p50 {_ms(delays, 0.5)} ms, "
        f"p95 {_ms(delays, 0.95)} ms, max {max(delays, default=0.0) * 1000:.1f} ms"
    )
    steps = ", ".join(f"1/{2**s}: {n}" for s, n in sorted(r["ai_steps"].items()))
    print(
        f"  AI searches by budget ({steps or 'none'}); easy fallbacks {r['ai_fallbacks']}; "
        f"REST calls {r['rest_calls']}; pictures drawn {r['pictures']}; games finished {r['finished']}; "
        f"RSS {r['rss_mib'][0]:.0f} -> {r['rss_mib'][1]:.0f} MiB"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=200, help="tables open at once (default 200)")
    parser.add_argument("--target", type=int, default=5, help="points to win each game (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="fixes the table seeds")
    parser.add_argument(
        "--mode",
        choices=("production", "simcord", "both"),
        default="production",
        help="production (default: real concurrency, production timings, no simulator), "
        "simcord (REST calls per card, edits per 5 s, memory), or both",
    )
    parser.add_argument(
        "--ai",
        choices=("easy", "normal", "hard"),
        default="normal",
        help="AI level of the 1 human + 3 AI games (default normal: the level that fills seats)",
    )
    prod = parser.add_argument_group("production mode")
    prod.add_argument("--duration", type=float, default=60.0, help="seconds measured (default 60)")
    prod.add_argument(
        "--warmup", type=float, default=10.0, help="seconds played before measuring (default 10)"
    )
    prod.add_argument(
        "--ai-mode",
        choices=("process", "thread", "inline"),
        default="process",
        help="AIPool mode (default process; thread = the old GIL-sharing way)",
    )
    prod.add_argument(
        "--workers", type=int, default=None, help="AI worker processes (default CPUs - 1)"
    )
    prod.add_argument(
        "--profile",
        metavar="FILE",
        help="cProfile the event loop's thread while measured, into FILE (pstats; it slows the loop)",
    )
    prod.add_argument(
        "--garbage",
        action="store_true",
        help="count what only the cyclic collector frees (its collections off while measured)",
    )
    prod.add_argument(
        "--slow-callbacks",
        type=float,
        default=0.0,
        metavar="MS",
        help="list the loop's callbacks (by coroutine) that took more than MS of its CPU",
    )
    prod.add_argument("--ai-delay", type=float, default=1.0, help="AI pacing, s (production 1.0)")
    prod.add_argument(
        "--no-pictures",
        action="store_true",
        help="no table pictures (production draws them: RH_PICTURES)",
    )
    prod.add_argument(
        "--turn-timeout", type=float, default=90.0, help="turn timers, s (production 90; 0 = off)"
    )
    prod.add_argument(
        "--latency-min", type=float, default=50.0, help="Discord answers after at least (ms)"
    )
    prod.add_argument("--latency-max", type=float, default=150.0, help="... and at most (ms)")
    prod.add_argument("--think-min", type=float, default=0.5, help="human think time, s")
    prod.add_argument("--think-max", type=float, default=2.0, help="human think time, s")
    prod.add_argument(
        "--best-case",
        action="store_true",
        help="also print a best case beside it (Discord answering at once, AI easy)",
    )
    sim = parser.add_argument_group("simcord mode")
    sim.add_argument("--think", type=float, default=0.25, help="virtual seconds between rounds")
    sim.add_argument(
        "--edit-interval", type=float, default=1.0, help="table_edit_interval (production: 1.0)"
    )
    sim.add_argument("--memory-sample", type=int, default=20, help="tables measured by tracemalloc")
    sim.add_argument("--progress", action="store_true", help="report progress on stderr")
    sim.add_argument(
        "--memory-top", type=int, default=0, help="print the N biggest allocation sites"
    )
    sim.add_argument(
        "--time-scale", type=float, default=1000.0, help="virtual time dilation (see above)"
    )
    args = parser.parse_args(argv)
    if args.mode in ("production", "both"):
        report_production(asyncio.run(run_production(args)), args, "production")
        if args.best_case:
            best = argparse.Namespace(
                **{**vars(args), "latency_min": 0.0, "latency_max": 0.0, "ai": "easy"}
            )
            report_production(asyncio.run(run_production(best)), best, "best case, not production")
    if args.mode == "production":
        return 0
    r = asyncio.run(run(args))
    kib = r["bytes_per_game"] / 1024
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"games: {r['games']} ({r['active_at_once']} active at once), {r['rounds']} rounds, "
        f"{r['wall_s']:.1f} s wall; load average {load:.1f} on {os.cpu_count()} CPUs"
    )
    print(
        f"click-to-ack (Services.ack_latencies, n={r['ack_n']}): "
        f"p50 {r['ack_p50_ms']:.1f} ms, p99 {r['ack_p99_ms']:.1f} ms   [simulator: clicks one at a time]"
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
