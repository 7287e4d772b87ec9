"""``python -m tools.bench_event_tables``: 50 tables of one event against 50 ordinary
tables, played by the real bot at production defaults, in one run; and an event's
round change with its Discord posts and without.

**Tables playing** (issue #39's figure: the event's click-to-ack p99 and loop lag p99
no worse than the ordinary tables'). The real ``GameManager`` (its features built and
the events' one started, as the client does), a real SQLite file, the real engine, the
AI in a process pool, production settings (``Settings()``'s defaults: 1 s AI pacing,
90 s turn timers, 1 s table-edit throttle, pictures on); Discord is
:class:`tools.bench.StubDiscord` answering every call after 50-150 ms. The run
alternates blocks of the two kinds, E O O E (``--rounds`` times), each on a fresh bot
in this same process and loop, so whatever else the shared machine does falls on
both:

* **event**: one event (``ruff-honours-cotton``, individual, 4 boards a round of 8
  minutes each: ``/ruff event create``'s defaults), ``4 x --tables`` players
  registered; ``/ruff event start`` seats round 1 and deals its ``--tables`` tables
  (a private thread each, the table message and the hands posted); then, as in
  ``tools.bench``'s mix, at the even tables one player checks in and the AI plays the
  three absent seats, at the odd ones all four check in (each check-in takes the seat
  back from the AI). A player follows their table from board to board.
* **ordinary**: ``--tables`` tables opened by ``/ruff new``, the same game at its
  default target: the even ones 1 human + 3 AI (normal, the level that plays an absent
  event player too), the odd ones 4 humans.

Humans click in real time (0.5-2 s of thought) through the manager's handlers
(:func:`tools.bench.click`). After ``--warmup`` seconds each block measures
``--duration`` seconds: click-to-ack (from the click reaching the manager to the
interaction response being sent, as ``tools.bench`` measures it) p50/p95/p99, the
event loop's lag (a 50 ms ticker's lateness, :func:`tools.bench.watch_lag`) p50/p99,
and of the lag, the part the loop's thread waited for a CPU another process held
(``schedstat``: the machine's, not the bot's), with sample sizes; each block's row,
then each kind's pooled, side by side, and the event's p99s less the ordinary
tables' with a 95% CI (:func:`quantile_gap`: runs of consecutive samples resampled).

**Round change**: on the same bot setup, an event of ``--tables`` tables and
``--boards`` boards a round, every player checked in, round 1 played out by the
scripted human at once (``tools.bench.policy``, each move a durable commit under the
table's lock); the figure is from the last board's last move to every table of
round 2 shown (the front's ``board_opened`` returned), split at the round scored, the
last table dealt (durable and playable) and the first table shown. **With Discord posts**: the events feature's own
front (the standings, the seating, a private thread per table, the table messages
and hands) on the stub Discord; **without**: a :class:`~bot.tables.events.quiet.QuietFront`
(no post), the rest the same.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import os
import random
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.tables.events import BoardTables, Director, parse_event_key
from bot.tables.events.quiet import QuietFront, event_with_entrants
from bot.tables.kinds import TableKind
from tools.bench import (
    StubDiscord,
    _quantile,
    click,
    open_table,
    policy,
    priority,
    watch_lag,
)

GAME = "ruff-honours-cotton"
GUILD = 1
EVENT_CHANNEL = 2


@dataclass
class Block:
    """One block's measures."""

    kind: str  # "event" | "ordinary"
    number: int
    opened_s: float = 0.0  # the tables opened (the event: start -> every table shown)
    acks: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    cpu_waits: list[float] = field(default_factory=list)
    moves: int = 0  # commits while measured (clicks, AI, timers)
    boards_ended: int = 0  # event boards (or ordinary games) over while measured
    loads: list[float] = field(default_factory=list)
    humans: int = 0
    ai_seats: int = 0
    loop_cpu_s: float = 0.0  # the loop thread's CPU time while measured (noise-proof)


class Bot:
    """A fresh bot: the manager on its own SQLite file, the stub Discord, its features
    built and the events' started (as ``bot.app.client`` does)."""

    def __init__(
        self,
        tmp: str,
        name: str,
        pool: Any,
        seed: int,
        latency: tuple[float, float],
        posts: bool = True,
    ) -> None:
        self.location = str(Path(tmp) / f"{name}.db")
        self.pool, self.seed, self.latency = pool, seed, latency
        self.posts = posts  # False: the events run by a director with a QuietFront

    async def __aenter__(self) -> Bot:
        from bot.app.manager import GameManager
        from bot.store import Database

        self.settings = Settings(database=self.location, seed=self.seed)  # production defaults
        self.db = await Database.open(self.location)
        self.discord = StubDiscord(self.latency, self.seed)
        self.manager = GameManager(self.discord, self.db, self.settings, ai=self.pool)  # type: ignore[arg-type]
        svc = self.manager.services
        if self.posts:
            self.features = self.manager.features()
            events = next(f for f in self.features if f.name == "events")
            # the feature's director: its start (``resume``) closes over it, beside the
            # asynchronous events' one
            director = next(
                c.cell_contents
                for c in getattr(events.start, "__closure__", None) or ()
                if isinstance(c.cell_contents, Director)
            )
        else:  # no feature built (only the events' subscribes to the feed): a director
            # that posts nothing in the events' place
            self.features = []
            director = Director(svc, BoardTables(svc), QuietFront(), self.manager.drivers.kick)
            svc.feed.subscribe(director.committed)
        self.director = director
        await self.manager.resume()
        await director.resume()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.director.close()
        await self.manager.close()
        await self.db.close()


async def _create_event(director: Director, tables: int, boards: int, rounds: int) -> int:
    event = await event_with_entrants(
        director,
        range(10_000, 10_000 + 4 * tables),
        rounds=rounds,
        boards=boards,
        minutes=8.0,
        checked_in=(),
        guild_id=GUILD,
        channel_id=EVENT_CHANNEL,
        game_id=GAME,
    )
    return event.id


def _event_round(table: Any) -> int:
    return parse_event_key(table.settings.event)[1]


async def play_block(
    kind: str, number: int, args: argparse.Namespace, pool: Any, tmp: str
) -> Block:
    """One block: ``--tables`` tables of ``kind`` opened on a fresh bot, played by their
    humans for ``--warmup`` + ``--duration`` seconds, the last ``--duration`` measured."""
    block = Block(kind, number)
    latency = (args.latency_min / 1000, args.latency_max / 1000)
    async with Bot(tmp, f"{kind}-{number}", pool, args.seed + number, latency) as bot:
        manager, discord_ = bot.manager, bot.discord
        svc = manager.services
        measuring = False
        changed: dict[int, asyncio.Event] = defaultdict(asyncio.Event)
        # a player between two boards waits for their next board to be dealt
        dealt_for: dict[int, asyncio.Event] = defaultdict(asyncio.Event)

        def committed(table: Any, events: Any) -> None:
            if measuring:
                block.moves += 1
                if table.status == "finished":
                    block.boards_ended += 1
            changed.pop(table.id, asyncio.Event()).set()

        svc.feed.subscribe(committed)
        where: dict[int, int] = {}  # event: user -> the table of their board now

        def dealt(table: Any) -> None:
            # an event board's table entered memory (dealt): its players' board now, so
            # a player between two boards finds it at once, not by reading every table
            if table.kind is TableKind.EVENT and table.status == "active":
                for seat in range(4):
                    if (human := table.human(seat)) is not None:
                        where[human.user_id] = table.id
                        dealt_for.pop(human.user_id, asyncio.Event()).set()

        stop_dealt = svc.feed.on_change(dealt)
        humans: list[int] = []
        fixed: dict[int, int] = {}  # ordinary: user -> their table
        began = time.perf_counter()
        if kind == "event":
            event_id = await _create_event(bot.director, args.tables, 4, 4)
            await bot.director.start(event_id)  # round 1 seated, dealt and shown
            block.opened_s = time.perf_counter() - began
            for t in await svc.event_repo.tables(event_id, 1):
                here = t.seats[:1] if t.number % 2 == 0 else t.seats
                for user in here:
                    assert user is not None
                    await bot.director.check_in(event_id, user)  # their seat back from the AI
                    humans.append(user)
            block.ai_seats = 4 * args.tables - len(humans)
        else:
            for i in range(args.tables):
                count = 1 if i % 2 == 0 else 4
                table_id, users = await open_table(
                    manager,
                    discord_,
                    i,
                    count,
                    "normal",
                    None,  # type: ignore[arg-type]  # the game's default target
                )
                humans.extend(users)
                fixed.update(dict.fromkeys(users, table_id))
            block.opened_s = time.perf_counter() - began
            block.ai_seats = 4 * args.tables - len(humans)
        block.humans = len(humans)
        rng = random.Random(args.seed + number)
        stop_at = time.perf_counter() + args.warmup + args.duration

        def current(user: int) -> Any:
            table = manager.tables.get(fixed[user] if kind != "event" else where.get(user, 0))
            return table if table is not None and table.status == "active" else None

        async def player(user: int) -> None:
            while time.perf_counter() < stop_at:
                table = current(user)
                if table is None:
                    if kind != "event":
                        return  # the game is over
                    with contextlib.suppress(TimeoutError):  # the next board is being dealt
                        await asyncio.wait_for(dealt_for[user].wait(), 1.0)
                    continue
                seat = next(s for s in range(4) if (h := table.human(s)) and h.user_id == user)
                game = table.game
                if game is None or game.is_over:
                    await asyncio.sleep(0.05)
                    continue
                if game.to_act() != seat or seat in table.away:
                    with contextlib.suppress(TimeoutError):  # the player watches their DM
                        await asyncio.wait_for(changed[table.id].wait(), 1.0)
                    continue
                await asyncio.sleep(rng.uniform(args.think_min, args.think_max))  # thinks
                if table.game is not game or game.to_act() != seat:
                    continue
                interaction = await click(manager, discord_, table.id, seat, user)
                if measuring and interaction.acked_at is not None:
                    block.acks.append(interaction.acked_at - interaction.clicked_at)

        async def sample_load() -> None:
            while True:
                if measuring:
                    block.loads.append(os.getloadavg()[0])
                await asyncio.sleep(1.0)

        # the loop thread's CPU time: what a profile shows is the bot's work, not the time
        # other processes on the shared machine took from it
        profiler = cProfile.Profile(time.thread_time) if args.profile else None
        if args.profile:
            Path(args.profile).mkdir(parents=True, exist_ok=True)

        async def switch() -> None:
            nonlocal measuring
            await asyncio.sleep(args.warmup)
            measuring = True
            block.loop_cpu_s = -time.thread_time()
            if profiler is not None:
                profiler.enable()

        watchers = [
            asyncio.create_task(watch_lag(block.lags, block.cpu_waits, lambda: measuring)),
            asyncio.create_task(sample_load()),
            asyncio.create_task(switch()),
        ]
        try:
            await asyncio.gather(*(player(u) for u in humans))
        finally:
            if measuring:
                block.loop_cpu_s += time.thread_time()
            measuring = False
            stop_dealt()
            for task in watchers:
                task.cancel()
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(Path(args.profile) / f"{kind}-{number}.pstats")
    return block


@dataclass
class Change:
    """A round change's times, from the last board's last move."""

    posts: bool
    scored_s: float = 0.0  # the round scored (the standings told)
    dealt_s: float = 0.0  # every table of the next round dealt
    first_shown_s: float = 0.0  # its first table shown (board_opened returned)
    shown_s: float = 0.0  # every table shown
    tables: int = 0
    start_s: float = 0.0  # round 1: /ruff event start -> every table shown
    moves: int = 0


async def round_change(posts: bool, args: argparse.Namespace, pool: Any, tmp: str) -> Change:
    """Round 1 of an event played out at once, then the change to round 2 timed."""
    from bot.tables import commit

    out = Change(posts)
    latency = (args.latency_min / 1000, args.latency_max / 1000)
    name = "change-posts" if posts else "change-quiet"
    async with Bot(tmp, name, pool, args.seed, latency, posts) as bot:
        svc = bot.manager.services
        director = bot.director
        marks: dict[str, float] = {}
        dealt: list[float] = []
        shown: list[float] = []
        front: Any = director.front
        show, scored, deal = front.board_opened, front.round_scored, director.tables.open

        async def timed_show(event: Any, table: Any, *, again: bool = False) -> None:
            await show(event, table, again=again)
            if _event_round(table) == 2:
                shown.append(time.perf_counter())

        async def timed_scored(view: Any) -> None:
            marks.setdefault("scored", time.perf_counter())
            await scored(view)

        async def timed_deal(event: Any, table: Any, *rest: Any) -> Any:
            opened = await deal(event, table, *rest)
            if table.round == 2 and opened is not None:
                dealt.append(time.perf_counter())
            return opened

        front.board_opened, front.round_scored = timed_show, timed_scored
        director.tables.open = timed_deal  # type: ignore[method-assign]
        event_id = await _create_event(director, args.tables, args.boards, 2)
        for user in range(10_000, 10_000 + 4 * args.tables):
            await director.check_in(event_id, user)
        began = time.perf_counter()
        await director.start(event_id)
        out.start_s = time.perf_counter() - began
        total = len(await svc.event_repo.boards(event_id, 1))
        last_move = 0.0
        deadline = time.perf_counter() + 600
        while len(shown) < args.tables:
            if time.perf_counter() > deadline:
                raise RuntimeError(f"round 2 not shown after 600 s ({len(shown)} tables)")
            live = [
                t
                for t in list(svc.tables.values())
                if t.kind is TableKind.EVENT and t.status == "active" and _event_round(t) == 1
            ]
            if not live:
                await asyncio.sleep(0.005)  # next boards being dealt, or round 2
                continue
            for table in live:
                while table.status == "active" and table.game is not None:
                    game = table.game
                    seat = game.to_act()
                    assert seat is not None
                    done = [b for b in await svc.event_repo.boards(event_id, 1) if b.done]
                    last = len(done) == total - 1
                    human = table.human(seat)
                    async with table.lock:
                        if table.game is not game:
                            continue
                        moved_at = time.perf_counter()
                        await commit.commit(
                            svc, table, seat, policy(game.observe(seat)), human and human.user_id
                        )
                    out.moves += 1
                    if last and table.status == "finished":
                        last_move = moved_at
                await asyncio.sleep(0)
        assert last_move, "the round's last move was not seen"
        out.tables = len(shown)
        out.scored_s = marks["scored"] - last_move
        out.dealt_s = max(dealt) - last_move
        out.first_shown_s = min(shown) - last_move
        out.shown_s = max(shown) - last_move
    return out


def _ms(values: list[float], q: float) -> str:
    return f"{_quantile(values, q) * 1000:7.1f}"


SEGMENT = 25
"""Samples a resampled run (about a second of a block's clicks or lag ticks): a stall
delays the samples around it together, so they are drawn together, not one by one."""


def quantile_gap(
    a: Sequence[Sequence[float]],
    b: Sequence[Sequence[float]],
    q: float = 0.99,
    *,
    draws: int = 2000,
    seed: int = 1,
) -> tuple[float, float, float]:
    """``a``'s ``q``-quantile less ``b``'s, each pooled over its blocks (lists of samples
    in the order taken), with a 95% CI by a segment bootstrap: every block cut into runs
    of :data:`SEGMENT` consecutive samples, each kind's runs drawn with replacement as
    many times as it has, ``draws`` times."""

    def runs(blocks: Sequence[Sequence[float]]) -> list[Sequence[float]]:
        return [blk[i : i + SEGMENT] for blk in blocks for i in range(0, len(blk), SEGMENT)]

    ra, rb = runs(a), runs(b)
    gap = _quantile([x for r in ra for x in r], q) - _quantile([x for r in rb for x in r], q)
    rng = random.Random(seed)
    gaps = sorted(
        _quantile([x for r in rng.choices(ra, k=len(ra)) for x in r], q)
        - _quantile([x for r in rng.choices(rb, k=len(rb)) for x in r], q)
        for _ in range(draws)
    )
    return gap, gaps[int(0.025 * draws)], gaps[min(draws - 1, int(0.975 * draws))]


def _gap_line(blocks: Sequence[Block]) -> str:
    """The event's p99s less the ordinary tables', with their CIs (:func:`quantile_gap`)."""
    event = [b for b in blocks if b.kind == "event"]
    ordinary = [b for b in blocks if b.kind == "ordinary"]
    ack = quantile_gap([b.acks for b in event], [b.acks for b in ordinary])
    lag = quantile_gap([b.lags for b in event], [b.lags for b in ordinary])
    return (
        "event less ordinary, p99 (95% CI, runs of "
        f"{SEGMENT} samples resampled): ack {ack[0] * 1000:+.1f} ms "
        f"({ack[1] * 1000:+.1f} .. {ack[2] * 1000:+.1f}), lag {lag[0] * 1000:+.1f} ms "
        f"({lag[1] * 1000:+.1f} .. {lag[2] * 1000:+.1f})"
    )


def _row(label: str, acks: list[float], lags: list[float], waits: list[float]) -> str:
    own = [lag - wait for lag, wait in zip(lags, waits, strict=True)]
    return (
        f"{label:<16} ack n={len(acks):5d} p50 {_ms(acks, 0.5)} p95 {_ms(acks, 0.95)} "
        f"p99 {_ms(acks, 0.99)} | lag n={len(lags):5d} p50 {_ms(lags, 0.5)} "
        f"p99 {_ms(lags, 0.99)} | less CPU wait p99 {_ms(own, 0.99)}  (ms)"
    )


async def run(args: argparse.Namespace) -> None:
    from bot.tables.aipool import AIPool

    pool = AIPool(args.workers, mode="process")
    await pool.ready()
    blocks: list[Block] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            print(
                f"{args.tables} event tables vs {args.tables} ordinary ({GAME}; half 1 human + "
                f"3 AI, half 4 humans), production settings, Discord answering in "
                f"{args.latency_min:g}-{args.latency_max:g} ms; each block {args.warmup:g} s "
                f"warm-up + {args.duration:g} s measured; {os.cpu_count()} CPUs, load average "
                f"{os.getloadavg()[0]:.1f} at the start; {priority()}",
                flush=True,
            )
            number = 0
            for r in range(args.rounds):
                kinds = ("event", "ordinary") if args.first == "event" else ("ordinary", "event")
                order = kinds if r % 2 == 0 else kinds[::-1]
                for kind in order:
                    number += 1
                    b = await play_block(kind, number, args, pool, tmp)
                    blocks.append(b)
                    print(
                        _row(f"{b.kind} #{b.number}", b.acks, b.lags, b.cpu_waits)
                        + f"; loop CPU {b.loop_cpu_s * 1000 / max(1, b.moves):.2f} ms a move"
                        f"; opened in {b.opened_s:.1f} s, {b.humans} humans + {b.ai_seats} AI"
                        f" seats, {b.moves} moves, {b.boards_ended} boards/games over, load "
                        f"{_quantile(b.loads, 0.5):.1f}",
                        flush=True,
                    )
            print("pooled, side by side:" if blocks else "(no blocks: --rounds 0)")
            for kind in ("event", "ordinary") if blocks else ():
                mine = [b for b in blocks if b.kind == kind]
                cpu = sum(b.loop_cpu_s for b in mine) / max(1, sum(b.moves for b in mine))
                print(
                    _row(
                        kind,
                        [x for b in mine for x in b.acks],
                        [x for b in mine for x in b.lags],
                        [x for b in mine for x in b.cpu_waits],
                    )
                    + f"; loop CPU {cpu * 1000:.2f} ms a move",
                    flush=True,
                )
            if {b.kind for b in blocks} == {"event", "ordinary"}:
                print(_gap_line(blocks), flush=True)
            if args.no_change:
                return
            for posts in (False, True):
                c = await round_change(posts, args, pool, tmp)
                label = "with Discord posts" if posts else "without Discord posts"
                print(
                    f"round change, {label}: {c.tables} tables of round 2, from round 1's "
                    f"last move: scored {c.scored_s:.3f} s, every table dealt {c.dealt_s:.3f} s, "
                    f"first table shown {c.first_shown_s:.3f} s, every table shown "
                    f"{c.shown_s:.3f} s; round 1's start took {c.start_s:.3f} s; {c.moves} "
                    f"moves played; load average {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
    finally:
        await pool.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_event_tables", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--tables", type=int, default=50, help="tables of each kind (default 50)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=2,
        help="pairs of blocks, E O then O E ... (default 2: E O O E; 0: the round change only)",
    )
    parser.add_argument(
        "--first",
        choices=("event", "ordinary"),
        default="event",
        help="the kind of the first block (the process's first block pays its warm-up)",
    )
    parser.add_argument("--duration", type=float, default=45.0, help="seconds measured a block")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument(
        "--boards", type=int, default=2, help="boards a round in the round change (default 2)"
    )
    parser.add_argument("--no-change", action="store_true", help="no round change figures")
    parser.add_argument(
        "--workers", type=int, default=None, help="AI worker processes (default CPUs - 1)"
    )
    parser.add_argument("--latency-min", type=float, default=50.0, help="Discord answers (ms)")
    parser.add_argument("--latency-max", type=float, default=150.0, help="... at most (ms)")
    parser.add_argument("--think-min", type=float, default=0.5, help="human think time, s")
    parser.add_argument("--think-max", type=float, default=2.0, help="human think time, s")
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="cProfile the loop's thread in each measured window into DIR/<kind>-<n>.pstats",
    )
    parser.add_argument("--seed", type=int, default=39)
    asyncio.run(run(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
