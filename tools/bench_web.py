"""The web table under load: commit → every subscribed socket, and the loop's lag.

``python -m tools.bench_web --tables N --moves M`` opens N whist tables (four human
seats each, SQLite in a temporary folder) and plays M moves on each through
``act()``, every table at once. It runs twice:

* **web on**: the web table serves on loopback and 2N sockets watch (seat 0 of every
  table and a spectator), held by a separate client process; each move is timed
  from its commit (the moment the feed publishes it, in the bot's process) to the
  moment each socket has read a state of that version or a later one (in the
  client process; both read the system's monotonic clock; every state is whole, so
  a later one carries the move too), and from just before ``act()`` likewise;
* **web off**: the same moves with no web table at all.

"commit -> every server write" times the same in the bot's process alone: from the
commit to the moment the server's ``send_str`` has handed each socket's frame to the
kernel (the client's reading left out). ``--deflate on`` (the default): the clients
offer permessage-deflate as browsers do; ``--client-nice 19``: the client process
never preempts the bot on a machine of few cores.

Both runs sample the bot loop's lag (a 10 ms sleep's overshoot) the whole time
and print p50/p99/max, and the bot process's CPU time over the moves (every thread):
on a shared machine the latencies swing with the load, the CPU a move far less.
Frames are read as the page reads them: a ``delta`` carries its version too.

The heap. Before the moves the bot process's heap is settled as the bot settles it
once started (:func:`bot.app.heap.settle`: start-up frozen, a young collection every
10,000 allocations): without it the web-on side's young collections, some 200 a run
and each longer than the web-off side's, were what its lag p99 was made of.
``--heap default`` keeps the interpreter's collector (every figure before 29 Nov 2026
08:00 UTC). Each side prints the collector's stops; ``--stretches`` adds each loop
callback's CPU, the synchronous stretches a timer waits behind.

The pace. By default each table waits ``Settings().ai_delay`` (1 s) between two of
its moves, and the tables start at random moments within that first second: at the
production defaults no table moves faster (every AI card waits ``ai_delay`` before
it is played, and a human takes longer than that), and tables opened by different
people in different channels do not move in step. It is read from the settings, not
set here, so that the bench follows the default if it changes. ``--stress`` (the
same as ``--pause 0.02``, every table starting at once) drives each table fifty
times faster than any can move in production: the stress run, kept to show what
gives first when the loop is saturated, not the production figure.

Pages served elsewhere. ``--pages-elsewhere`` runs three sides on PostgreSQL (a
throwaway server started as the store tests start theirs, or ``--postgresql URL``),
each bot process one of a cluster (``bot.cluster``: it listens on the database's
notifications and holds its shard's leases), each side on a new database: web on in
the tables' process, web off, and **web elsewhere**: the tables in this process A
with no web table, the pages served by a second bot process B on the same database
(shard 1 of 2: it runs none of the tables) that loads a copy of each table a page
opens and follows it through the notifications, as a deployment would run a web
front beside the game process. It prints A's loop lag and CPU a move, B's CPU and
lag, and commit (in A) → every socket and → B's write (one machine: the monotonic
clock is the system's, the same in every process).

Pinned. ``--pin`` (at least two CPUs) places every side alike: the tables' process
(web on, web off, A) alone on one CPU, every other process the bench starts (B, the
client, the PostgreSQL server it started and the backends it forks) on the others,
as where the pages' process has cores of its own; each side prints where each
process was allowed to run, read back from the kernel after the moves.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import gc
import json
import multiprocessing
import os
import random
import re
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bot.app import heap
from bot.config import Settings
from bot.store import Database, HumanSeat, TableRow
from bot.tables import commit
from bot.tables.act import act
from bot.tables.aipool import AIPool
from bot.tables.kinds import TableKind, TableSpec
from bot.tables.services import Services
from bot.tables.sync import OneProcess
from bot.tables.table import Table
from bot.web.server import WebTable
from engine import Action, make_rules

GAME = "whist-long"
STATE = '{"type":"state"'
DELTA = '{"type":"delta"'
TABLE_VERSION = re.compile(
    r'"schema":"rh\.(?:seat|table)/1","table_id":(\d+),[^{}]*?"version":(\d+)'
)
DELTA_VERSION = re.compile(
    r'^\{"type":"delta","seat":(?:null|\d+),"table_id":(\d+),"version":(\d+)'
)
STRESS = 0.02  # seconds between two moves of one table in the stress run (--stress)


class _NoResume:
    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the bench's sync asked for {name}")


@asynccontextmanager
async def bench_services(name: str, **settings: Any) -> AsyncIterator[Services]:
    """The table layer of one bot process for a benchmark, in a temporary folder: a
    SQLite store, the AI inline, one process (nothing resumed), no turn or lobby
    timeouts, the web table on a free loopback port with the demo's mock sign-in
    (``settings`` override any of these)."""
    with tempfile.TemporaryDirectory() as tmp:
        base: dict[str, Any] = {
            "database": str(Path(tmp) / f"{name}.db"),
            "turn_timeout": 0.0,
            "lobby_timeout": 0.0,
            "ai_mode": "inline",
            "web_port": 0,
            "web_mock_auth": True,
        }
        db = await Database.open(base["database"])
        try:
            svc = Services(db, Settings(**(base | settings)), AIPool(1, mode="inline"))
            svc.sync = OneProcess(_NoResume())  # type: ignore[arg-type]
            yield svc
        finally:
            await db.close()


class QuietFront:
    """The Discord front of a bench process: nothing to show (the bench has no Discord;
    a process that does not run a table edits only the "My hand" copies it showed)."""

    def ping(self, table: Table, seat: int, due: float | None, waited: bool = False) -> None:
        return None

    def warning(self, table: Table, seat: int, version: int, due: float) -> None:
        return None

    def deadline_known(self, table: Table) -> None:
        return None

    def timed_out(self, table: Table, seat: int, actions: Any, misses: int, takeover: bool) -> None:
        return None

    def auto_played(self, table: Table, seat: int, action: Action) -> None:
        return None

    async def lobby_expired(self, table: Table) -> None:
        return None

    def redraw(self, table: Table) -> None:
        return None

    def changed(self, table: Table) -> None:
        return None

    def follow_copies(self, table: Table) -> None:
        return None

    async def set_aside(self, row: TableRow) -> None:
        return None


# Several processes on PostgreSQL (--pages-elsewhere): the tables' process holds shard 0
# of two (its tables are opened in a guild of that shard, so it claims their leases),
# the pages' process shard 1 (it claims none of them, it follows them).
SHARDS = 2
TABLES_SHARD, PAGES_SHARD = 0, 1
TABLES_GUILD = 1  # (1 >> 22) % 2 == 0: a guild of shard 0 (tools.bench_scale.guild_on_shard(0))


@asynccontextmanager
async def cluster_services(
    url: str, name: str, shard: int, **settings: Any
) -> AsyncIterator[Services]:
    """One bot process of several sharing the PostgreSQL database ``url``: the table
    layer as :func:`bench_services` builds it, with the cluster's sync as the bot wires
    it (``bot.app.manager``: :class:`~bot.cluster.sync.Cluster`, listening on the
    database's notifications, holding the leases of its shard's tables and following
    the copies it holds), started, and closed at the end (its leases given up)."""
    base: dict[str, Any] = {
        "database": url,
        "turn_timeout": 0.0,
        "lobby_timeout": 0.0,
        "ai_mode": "inline",
        "web_port": 0,
        "web_mock_auth": True,
        "shard_count": SHARDS,
        "shard_ids": (shard,),
        "process_name": name,
    }
    # here, not at the top: tools.bench_before_after --this-tools runs this file on
    # earlier commits too, whose bot may wire these otherwise
    from bot.cluster.sync import Cluster
    from bot.tables.drivers import Drivers
    from bot.tables.resume import Resume

    db = await Database.open(url)
    try:
        svc = Services(db, Settings(**(base | settings)), AIPool(1, mode="inline"))
        front = QuietFront()
        svc.sync = Cluster(svc, Resume(svc, front, Drivers(svc, front)))
        await svc.sync.start()
        try:
            yield svc
        finally:
            svc.closing = True
            await svc.sync.close()
            stopping = svc.tasks.cancel_all()
            if stopping:
                await asyncio.wait(stopping, timeout=5.0)
    finally:
        await db.close()


def pages_only() -> dict[str, Any]:
    """The settings of the deployment's pages' process: ``pages_only`` (``python -m bot
    --pages-only``: no shard, never a lease, following every table a page opens), where
    the bot has it; on an earlier commit without it (``tools.bench_before_after
    --this-tools``), a process of shard 1, which holds none of the tables' leases while
    the tables' process lives."""
    if "pages_only" in Settings.model_fields:
        return {"pages_only": True, "shard_ids": None, "shard_count": None}
    return {}


async def new_database(admin: str, name: str) -> str:
    """A new empty database ``name`` on the server of ``admin`` (a URL); its URL."""
    import asyncpg

    conn = await asyncpg.connect(admin)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return admin.rsplit("/", 1)[0] + f"/{name}"


class CannotPin(RuntimeError):
    """``--pin`` on a machine (or under an affinity) of fewer than two CPUs."""


@dataclass(frozen=True)
class Placement:
    """``--pin``: the tables' process of every side (web on, web off, A of web
    elsewhere: the process whose loop's lag is the question) alone on one CPU, and
    every other process the bench starts (the pages' process B, the client, the
    PostgreSQL server it started) on the others, so that none of them takes the
    tables' CPU, as on a machine where the pages' process has cores of its own, and
    every side is placed alike."""

    tables: frozenset[int]
    others: frozenset[int]

    @classmethod
    def split(cls, cpus: Iterable[int]) -> Placement:
        """The last of ``cpus`` for the tables, the rest for everything else."""
        ordered = sorted(set(cpus))
        if len(ordered) < 2:
            raise CannotPin(
                f"--pin needs at least two CPUs (the tables' process alone on one, the rest "
                f"on the others); this process may run on {len(ordered)}: "
                f"{','.join(map(str, ordered))}"
            )
        return cls(frozenset(ordered[-1:]), frozenset(ordered[:-1]))

    @classmethod
    def here(cls) -> Placement:
        """Over the CPUs this process may run on (``nproc``'s)."""
        return cls.split(os.sched_getaffinity(0))


def threads_of(pid: int) -> list[int]:
    """The threads (task ids) of process ``pid``; none if it has gone."""
    try:
        return [int(tid) for tid in os.listdir(f"/proc/{pid}/task")]
    except FileNotFoundError:
        return []


def descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (its children, theirs, ...), from ``/proc``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue  # gone meanwhile
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found


def pin(pids: Iterable[int], cpus: frozenset[int]) -> None:
    """Every thread of the processes ``pids`` on ``cpus`` (the threads and processes
    they start later inherit it)."""
    for pid in pids:
        for tid in threads_of(pid):
            with contextlib.suppress(ProcessLookupError):  # a thread that just ended
                os.sched_setaffinity(tid, cpus)


def cpus_of(pids: Iterable[int]) -> list[float]:
    """The CPUs any thread of the processes ``pids`` may run on, read back from the
    kernel (``sched_getaffinity``), sorted."""
    cpus: set[int] = set()
    for pid in pids:
        for tid in threads_of(pid):
            with contextlib.suppress(ProcessLookupError):
                cpus |= os.sched_getaffinity(tid)
    return [float(cpu) for cpu in sorted(cpus)]


@asynccontextmanager
async def pinned(placement: Placement | None) -> AsyncIterator[None]:
    """This process (every thread of it) on the tables' CPU for the block, as it was
    after it."""
    if placement is None:
        yield
        return
    before = frozenset(os.sched_getaffinity(0))
    pin([os.getpid()], placement.tables)
    try:
        yield
    finally:
        pin([os.getpid()], before)


def postgres_processes(server: Any) -> list[int]:
    """The server processes of a :class:`tests.store.pgserver.PostgresServer`: its
    postmaster (the first line of ``postmaster.pid``) and every process it forked."""
    postmaster = int((Path(server.data) / "postmaster.pid").read_text().split()[0])
    return [postmaster, *descendants(postmaster)]


PLACED = (  # (a run's key, what it is), in the order they are printed
    ("tables", "tables' process"),
    ("pages", "pages' process B"),
    ("client", "client"),
    ("postgresql", "PostgreSQL server"),
)


def placement_line(result: dict[str, list[float]]) -> str:
    """Where each process of a run was allowed to run (``--pin``), as read back from the
    kernel after the moves; "" when not pinned."""
    placed = [
        f"{what} {','.join(f'{cpu:.0f}' for cpu in result[f'cpus {key}'])}"
        f" ({result[f'processes {key}'][0]:.0f} process"
        f"{'es' if result[f'processes {key}'][0] != 1 else ''})"
        for key, what in PLACED
        if f"cpus {key}" in result
    ]
    return f"\n{'pinned, CPU':>28}: " + "; ".join(placed) if placed else ""


def version_of(data: str) -> tuple[int, int] | None:
    """(table, version) of a state frame, whole or a delta, without parsing the whole
    frame (the client process shares the machine's cores with the bot's); None for
    any other frame."""
    if data.startswith(STATE):
        found = TABLE_VERSION.search(data)
    elif data.startswith(DELTA):
        found = DELTA_VERSION.match(data)
    else:
        return None
    return None if found is None else (int(found[1]), int(found[2]))


def settle_heap() -> None:
    """The heap as the bot leaves it once started (``GameManager.resume`` calls
    :func:`bot.app.heap.settle`: start-up frozen, the young generation collected
    every 10,000 allocations instead of 700). ``settle`` runs once a process; each
    run here freezes its own start-up too, so the web-on and web-off runs start alike."""
    heap.settle()
    gc.collect(1)
    gc.freeze()


class GCPauses:
    """The collector's pauses while it is on: (generation, wall seconds) each."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float]] = []
        self._at = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._at = time.perf_counter()
        else:
            self.pauses.append((info["generation"], time.perf_counter() - self._at))

    def __enter__(self) -> GCPauses:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


class Stretches:
    """Each callback the loop runs, its CPU time (the loop thread's, ``thread_time``):
    the synchronous stretches a timer waits behind. What the machine's other work
    does to the loop (preemption) is not in them, so they say what the lag would be
    on a machine of its own. Two clock reads a callback: opt-in (``--stretches``)."""

    def __init__(self) -> None:
        self.cpu: list[float] = []
        self._original = asyncio.events.Handle._run

    def __enter__(self) -> Stretches:
        original, cpu = self._original, self.cpu
        clock = time.thread_time

        def timed(handle: asyncio.Handle) -> None:
            start = clock()
            original(handle)
            cpu.append(clock() - start)

        asyncio.events.Handle._run = timed  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.events.Handle._run = self._original  # type: ignore[method-assign]


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def lag_sampler(samples: list[float], stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        start = loop.time()
        await asyncio.sleep(0.01)
        samples.append(loop.time() - start - 0.01)


async def open_tables(svc: Services, n: int, guild_id: int = 1) -> list[Table]:
    tables = []
    for i in range(n):
        rules = make_rules(GAME)
        seats = [HumanSeat(1000 * (i + 1) + s, f"P{s}") for s in range(rules.players)]
        table = await commit.open_table(
            svc,
            TableSpec(
                kind=TableKind.ORDINARY,
                rules=rules,
                guild_id=guild_id,
                channel_id=10_000 + i,
                creator_id=seats[0].user_id,
                seats=[seats[0]] + [None] * (rules.players - 1),
                guild_name="g",
                channel_name=f"c{i}",
            ),
        )
        # in memory at once, as the lobby adds a table it opened: with several processes
        # a claim round woken by the new table's notification finds this copy, rather
        # than loading a second one of its own
        svc.tables.add(table)
        async with table.lock:  # as the lobby's Start button
            await commit.start(svc, table, seats)
        tables.append(table)
    return tables


def clients_main(
    base: str,
    sessions: list[tuple[int, str]],
    ready: Any,
    stop: Any,
    out: Any,
    deflate: bool = True,
    nice: int = 0,
) -> None:
    """The client process: one socket per session, each frame's version timed (at
    ``nice``: a positive one keeps the client's reading from preempting the bot on a
    machine of few cores, as pages on other machines would not)."""
    if nice:
        os.nice(nice)
    asyncio.run(_clients(base, sessions, ready, stop, out, deflate))


async def _clients(
    base: str, sessions: list[tuple[int, str]], ready: Any, stop: Any, out: Any, deflate: bool
) -> None:
    seen: list[list[tuple[int, float]]] = [[] for _ in sessions]  # (version, when read)
    # no pool limit: 2N sockets at once (aiohttp's default of 100 would queue the rest)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        sockets = []
        for _table_id, session in sessions:
            # deflate: offer permessage-deflate as browsers and Discord's proxy do
            ws = await http.ws_connect(
                f"{base}/ws", headers={"Origin": base}, compress=15 if deflate else 0
            )
            await ws.send_str(json.dumps({"type": "hello", "session": session}))
            sockets.append(ws)

        async def read(i: int, ws: aiohttp.ClientWebSocketResponse) -> None:
            try:
                async for msg in ws:
                    if msg.type is aiohttp.WSMsgType.TEXT:
                        at = time.monotonic()
                        found = version_of(msg.data)
                        if found is not None:
                            seen[i].append((found[1], at))
            except aiohttp.ClientConnectionResetError:
                pass  # a heartbeat's pong while the socket closes, at the end

        readers = [asyncio.create_task(read(i, ws)) for i, ws in enumerate(sockets)]
        while not all(seen):  # every socket has its first state
            await asyncio.sleep(0.01)
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.05)
        for ws in sockets:
            await ws.close()
        await asyncio.gather(*readers)
    out.put([(table_id, s) for (table_id, _session), s in zip(sessions, seen, strict=True)])


def time_writes(written: dict[int, list[tuple[int, int, float]]]) -> Any:
    """Record, in the bot's process, when each server socket hands a state frame to the
    kernel (``send_str`` returns: written, or queued in the transport if the socket is
    full): (table, version, when) per socket. Returns what undoes it."""
    original = web.WebSocketResponse.send_str

    async def send_str(self: web.WebSocketResponse, data: str, compress: int | None = None) -> None:
        await original(self, data, compress)
        found = version_of(data)
        if found is not None:
            at = time.monotonic()
            written.setdefault(id(self), []).append((found[0], found[1], at))

    web.WebSocketResponse.send_str = send_str  # type: ignore[method-assign]

    def undo() -> None:
        web.WebSocketResponse.send_str = original  # type: ignore[method-assign]

    return undo


def pages_main(
    url: str,
    wanted: list[tuple[int, int]],
    up: Any,
    go: Any,
    over: Any,
    done: Any,
    out: Any,
    nice: int = 0,
) -> None:
    """The pages' process (``--pages-elsewhere``): a pages-only bot process
    (``python -m bot --pages-only``, bot/app/pages.py: its cluster with no shard and
    never a lease) on the same PostgreSQL database, serving the web table; a page
    opened on a channel whose table the tables' process runs makes it load a copy and
    follow it through the database's notifications, as in a deployment of several
    processes. ``wanted``: a session for each (user, channel), put on ``up`` with the
    port; from ``go`` to ``over`` (the moves) its CPU and its loop's lag are taken;
    after ``done`` it closes and puts what it measured on ``out``. ``nice``: its
    niceness (19: it never preempts the tables' process, as one on cores of its own
    would not)."""
    if nice:
        os.nice(nice)
    asyncio.run(_pages(url, wanted, up, go, over, done, out))


async def _pages(
    url: str, wanted: list[tuple[int, int]], up: Any, go: Any, over: Any, done: Any, out: Any
) -> None:
    written: dict[int, list[tuple[int, int, float]]] = {}
    undo = time_writes(written)
    async with cluster_services(url, "pages", PAGES_SHARD, web_rate=1000.0, **pages_only()) as svc:
        web = WebTable(svc, svc.settings, None)
        await web.start()
        try:
            sessions = [web.signer.issue(user, "bench", channel)[0] for user, channel in wanted]
            up.put((web.port, sessions))
            await asyncio.to_thread(go.wait)  # every page has its table: start-up is over
            settle_heap()
            stop = asyncio.Event()
            lag: list[float] = []
            sampler = asyncio.create_task(lag_sampler(lag, stop))
            cpu = time.process_time()
            await asyncio.to_thread(over.wait)
            cpu = time.process_time() - cpu
            stop.set()
            await sampler
            copies = len(svc.tables)
            owned = len(getattr(svc.sync, "owned", {}))
            await asyncio.to_thread(done.wait)
        finally:
            await web.close()
    undo()
    out.put(
        {
            "cpu": cpu,
            "lag": lag,
            "written": list(written.values()),
            "copies": copies,
            "owned": owned,
        }
    )


async def run(
    n: int,
    moves: int,
    web_on: bool,
    seed: int,
    pause: float | None = None,
    deflate: bool = True,
    nice: int = 0,
    settled: bool = True,
    stretches: bool = False,
    database: str | None = None,
    pages_elsewhere: bool = False,
    pages_nice: int = 0,
    placement: Placement | None = None,
    postgres: Callable[[], list[int]] | None = None,
) -> dict[str, list[float]]:
    """One run, web on or off; ``pause`` between two moves of a table (None: the
    production pace, ``Settings().ai_delay``), each table starting at a random moment
    within the first pause; ``settled``: the heap settled as the bot's once started
    (:func:`settle_heap`), else the interpreter's default collector. ``database``: a
    PostgreSQL database, the bot process one of a cluster on it (:func:`cluster_services`)
    rather than alone on SQLite; ``pages_elsewhere`` (with ``database``, web off here):
    the pages served by a second bot process on it (:func:`pages_main`), following
    this process's tables. ``placement`` (``--pin``): this process on its tables' CPU
    for the run, every process it starts (the client, the pages' process) and the
    PostgreSQL server's processes (``postgres`` lists them) on the others; where each
    was allowed to run, read back after the moves, is in the result ("cpus tables",
    "cpus client", "cpus pages", "cpus postgresql", each with its "processes")."""
    gap = Settings().ai_delay if pause is None else pause
    assert not (pages_elsewhere and (web_on or database is None))
    services = (
        bench_services("bench", web_rate=1000.0)
        if database is None
        else cluster_services(database, "tables", TABLES_SHARD, web_rate=1000.0)
    )

    def place_the_others(*started: Any) -> None:
        # a process this run started (the client, the pages' process) and any of its
        # own, or the database's server (the backends it forks later inherit it)
        if placement is not None:
            pids = [p.pid for p in started] if started else postgres() if postgres else []
            pin([*pids, *(child for pid in pids for child in descendants(pid))], placement.others)

    place_the_others()  # the database's server, before this run's connections
    async with pinned(placement), services as svc:
        settings = svc.settings
        tables = await open_tables(svc, n, 1 if database is None else TABLES_GUILD)
        if database is not None:
            # this process runs them: it holds their leases (claimed as the drivers
            # claim a table just started here)
            for table in tables:
                svc.sync.may_drive(table)
            async with asyncio.timeout(60):
                while not all(svc.sync.may_drive(t) for t in tables):
                    await asyncio.sleep(0.05)
            # the moves are made on the tables the registry holds (a click's)
            assert all(svc.tables.get(t.id) is t for t in tables)
        web: WebTable | None = None
        context = multiprocessing.get_context("spawn")
        ready, done, out = context.Event(), context.Event(), context.Queue()
        go, over, pages_out = context.Event(), context.Event(), context.Queue()
        client: Any = None
        pages: Any = None
        written: dict[int, list[tuple[int, int, float]]] = {}
        undo = time_writes(written)
        if pages_elsewhere:
            assert database is not None
            up = context.Queue()
            wanted = [
                (user, 10_000 + i)
                for i in range(len(tables))
                for user in (1000 * (i + 1), 999_999)  # seat 0, and a spectator
            ]
            pages = context.Process(
                target=pages_main,
                args=(database, wanted, up, go, over, done, pages_out, pages_nice),
            )
            pages.start()
            place_the_others(pages)
            port, issued = await asyncio.to_thread(up.get, True, 120)
            sessions = [
                (table.id, session)
                for table, session in zip(
                    (t for t in tables for _ in range(2)), issued, strict=True
                )
            ]
            client = context.Process(
                target=clients_main,
                args=(f"http://127.0.0.1:{port}", sessions, ready, done, out, deflate, nice),
            )
            client.start()
            place_the_others(client)
            async with asyncio.timeout(300):  # every page has its table (a copy, in B)
                while not ready.is_set():
                    await asyncio.sleep(0.05)
        if web_on:
            web = WebTable(svc, settings, None)
            await web.start()
            sessions = [
                (table.id, web.signer.issue(user, "bench", 10_000 + i)[0])
                for i, table in enumerate(tables)
                for user in (1000 * (i + 1), 999_999)  # seat 0, and a spectator
            ]
            client = context.Process(
                target=clients_main,
                args=(f"http://127.0.0.1:{web.port}", sessions, ready, done, out, deflate, nice),
            )
            client.start()
            place_the_others(client)
            while not ready.is_set():
                await asyncio.sleep(0.05)
        started: dict[tuple[int, int], float] = {}
        committed: dict[tuple[int, int], float] = {}
        svc.feed.subscribe(
            lambda table, _events: committed.setdefault((table.id, table.version), time.monotonic())
        )
        stop = asyncio.Event()
        lag: list[float] = []
        sampler = asyncio.create_task(lag_sampler(lag, stop))
        delivery: list[float] = []
        delivery_commit: list[float] = []
        delivery_server: list[float] = []
        missed: list[int] = []
        acts: list[float] = []
        rng = random.Random(seed)

        starts = random.Random(seed + 1)
        offsets = {table.id: starts.uniform(0.0, gap) for table in tables}

        async def drive(table: Table) -> None:
            await asyncio.sleep(offsets[table.id])  # tables do not move in step
            for _ in range(moves):
                game = table.game
                if game is None or game.is_over:
                    return
                seat = game.to_act()
                assert seat is not None
                # a player's choice, made outside the bot (a page holds its actions)
                legal = list(game.legal_actions(seat))
                choice = legal[rng.randrange(len(legal))]
                user = table.seats[seat].user_id  # type: ignore[union-attr]
                start = time.monotonic()
                outcome = await act(svc, table.id, user, game.version, seat, [choice])
                acts.append(time.monotonic() - start)
                assert outcome.applied, outcome
                started[(table.id, outcome.version)] = start
                await asyncio.sleep(gap)

        if settled:
            settle_heap()  # start-up is over, as in the bot
        go.set()
        began = time.perf_counter()
        cpu = time.process_time()
        timed = Stretches() if stretches else None
        with GCPauses() as collector:
            if timed is None:
                await asyncio.gather(*(drive(t) for t in tables))
            else:
                with timed:
                    await asyncio.gather(*(drive(t) for t in tables))
        took = time.perf_counter() - began
        cpu = time.process_time() - cpu
        over.set()
        stop.set()
        await sampler
        placed: dict[str, list[float]] = {}
        if placement is not None:  # read back while every process is still there
            for key, pids in (
                ("tables", [os.getpid()]),
                ("pages", [] if pages is None else [pages.pid]),
                ("client", [] if client is None else [client.pid]),
                ("postgresql", [] if postgres is None else postgres()),
            ):
                if pids:
                    placed[f"cpus {key}"] = cpus_of(pids)
                    placed[f"processes {key}"] = [float(len(pids))]
        if client is not None:
            await asyncio.sleep(0.5)  # the last frames on their way
            done.set()
            for table_id, seen in await asyncio.to_thread(out.get):
                versions = [v for v, _at in seen]
                for (tid, version), start in started.items():
                    if tid != table_id:
                        continue
                    k = bisect.bisect_left(versions, version)  # the first state that has it
                    if k < len(seen):
                        delivery.append(seen[k][1] - start)
                        delivery_commit.append(seen[k][1] - committed[(tid, version)])
                    else:
                        missed.append(version)
            await asyncio.to_thread(client.join)
        elsewhere: dict[str, Any] = {}
        if pages is not None:
            elsewhere = await asyncio.to_thread(pages_out.get, True, 120)
            await asyncio.to_thread(pages.join)
        for frames in elsewhere.get("written", list(written.values())):
            by_table: dict[int, list[tuple[int, float]]] = {}
            for tid, version, at in frames:
                by_table.setdefault(tid, []).append((version, at))
            for tid, got in by_table.items():
                versions = [v for v, _at in got]
                for (t, version), when in committed.items():
                    if t != tid or (t, version) not in started:
                        continue
                    k = bisect.bisect_left(versions, version)
                    if k < len(got):
                        delivery_server.append(got[k][1] - when)
        undo()
        if web is not None:
            await web.close()
        return {
            "delivery": delivery,
            "commit": delivery_commit,
            "server": delivery_server,
            "missed": [float(len(missed))],
            "act": acts,
            "lag": lag,
            "took": [took],
            "cpu": [cpu],
            "young": [d for g, d in collector.pauses if g < 2],
            "full": [d for g, d in collector.pauses if g == 2],
            "stretch": [] if timed is None else timed.cpu,
            "pages_cpu": [elsewhere["cpu"]] if elsewhere else [],
            "pages_lag": elsewhere.get("lag", []),
            "pages_tables": [float(elsewhere["copies"]), float(elsewhere["owned"])]
            if elsewhere
            else [],
        } | placed


def cpu_line(result: dict[str, list[float]], moves: int, label: str = "bot process CPU") -> str:
    """The bot process's CPU time over the moves (every thread: the loop and the store's),
    a figure that a shared machine's load disturbs far less than the latencies."""
    cpu = result["cpu"][0]
    return f"{label:>28}: {cpu:7.2f} s   ({cpu / moves * 1000:.2f} ms a move)"


def gc_line(result: dict[str, list[float]]) -> str:
    """The collector's stops over the moves: how many, and the longest (wall time)."""
    young, full = result["young"], result["full"]
    longest = max(young + full, default=0.0) * 1000
    return (
        f"{'collector stops':>28}: {len(young)} young, {len(full)} full,"
        f" {sum(young + full) * 1000:.0f} ms in all, the longest {longest:.1f} ms"
    )


def stretch_line(result: dict[str, list[float]]) -> str:
    cpu = result["stretch"]
    if not cpu:
        return ""
    ms = sorted(v * 1000 for v in cpu)
    return (
        f"\n{'a callback (loop CPU)':>28}: p99 {pct(ms, 0.99):.3f} ms   p99.9 "
        f"{pct(ms, 0.999):.3f} ms   max {ms[-1]:.2f} ms   over 5 ms: {sum(v > 5 for v in ms)}"
        f"   (n={len(ms)})"
    )


def show(label: str, values: list[float]) -> str:
    if not values:
        return f"{label:>28}: -"
    ms = [v * 1000 for v in values]
    return (
        f"{label:>28}: p50 {pct(ms, 0.5):7.2f} ms   p99 {pct(ms, 0.99):7.2f} ms"
        f"   max {max(ms):7.2f} ms   (n={len(ms)}, mean {statistics.fmean(ms):.2f})"
    )


async def main_async(
    n: int,
    moves: int,
    seed: int,
    pause: float | None,
    deflate: bool,
    nice: int = 0,
    settled: bool = True,
    stretches: bool = False,
    pages_elsewhere: bool = False,
    postgresql: str | None = None,
    pages_nice: int = 0,
    placement: Placement | None = None,
) -> None:
    gap = Settings().ai_delay if pause is None else pause
    pace = (
        "the production pace (Settings().ai_delay)"
        if pause is None
        else "the stress run"
        if pause == STRESS
        else "--pause"
    )
    print(
        f"{n} tables of {GAME}, {moves} moves each, {gap * 1000:.0f} ms between two moves "
        f"of a table ({pace}), each table starting at a random moment within the first; web on: {2 * n} sockets (loopback, in a client process of their own"
        f"{', offering permessage-deflate as browsers do' if deflate else ', no deflate'}"
        f"{f', at nice {nice}' if nice else ''})"
    )
    print(
        "the heap settled as the bot's once started (bot.app.heap.settle)"
        if settled
        else "the interpreter's default collector (--heap default: not the bot's)"
    )
    if placement is not None:
        others = (
            "the client"
            if not pages_elsewhere
            else "the pages' process, the client"
            if postgresql
            else "the pages' process, the client, the PostgreSQL server"
        )
        print(
            f"pinned (--pin): the tables' process of every side alone on CPU "
            f"{min(placement.tables)}; every other process the bench starts ({others}) on "
            f"CPU {','.join(map(str, sorted(placement.others)))}"
            + (
                "; the PostgreSQL server at --postgresql not pinned"
                if pages_elsewhere and postgresql
                else ""
            )
        )
    if pages_elsewhere:
        sides = (n, moves, seed, pause, deflate, nice, settled, stretches)
        await pages_elsewhere_runs(*sides, postgresql, pages_nice, placement)
        return
    on = await run(
        n, moves, True, seed, pause, deflate, nice, settled, stretches, placement=placement
    )
    off = await run(
        n, moves, False, seed, pause, settled=settled, stretches=stretches, placement=placement
    )
    print_on_and_off(on, off, n * moves, "web on")


def print_on_and_off(
    on: dict[str, list[float]], off: dict[str, list[float]], moves: int, title: str
) -> None:
    """The web-on and web-off sides' figures (``moves``: on all the tables)."""
    print(f"\n{title} ({on['took'][0]:.1f} s)")
    print(cpu_line(on, moves))
    print(show("commit -> every socket", on["commit"]))
    print(show("commit -> every server write", on["server"]))
    print(show("act() start -> every socket", on["delivery"]))
    print(f"{'states never delivered':>28}: {on['missed'][0]:.0f}")
    print(show("act() (the commit)", on["act"]))
    print(show("loop lag", on["lag"]))
    print(gc_line(on) + stretch_line(on) + placement_line(on))
    print(f"\nweb off ({off['took'][0]:.1f} s)")
    print(cpu_line(off, moves))
    print(show("act() (the commit)", off["act"]))
    print(show("loop lag", off["lag"]))
    print(gc_line(off) + stretch_line(off) + placement_line(off))


def load() -> str:
    one, five, _fifteen = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


async def pages_elsewhere_runs(
    n: int,
    moves: int,
    seed: int,
    pause: float | None,
    deflate: bool,
    nice: int,
    settled: bool,
    stretches: bool,
    postgresql: str | None,
    pages_nice: int = 0,
    placement: Placement | None = None,
) -> dict[str, dict[str, list[float]]]:
    """``--pages-elsewhere``: three runs on PostgreSQL, each bot process one of a
    cluster (:func:`cluster_services`), each on a new database: the web table served
    by the tables' process itself (web on), no web table (web off), and the pages
    served by a second bot process that follows the first one's tables (web
    elsewhere). ``postgresql``: an admin URL of a server to use, else a throwaway
    server is started as the store tests start theirs (``tests/store/pgserver.py``).
    ``placement`` (``--pin``): each side placed by it (:func:`run`), the server started
    here too (one at ``postgresql`` is not). Returns each side's figures ("on", "off",
    "elsewhere") after printing them."""
    server: Any = None
    admin = postgresql
    if admin is None:
        from tests.store.pgserver import PostgresServer  # the store tests' (a checkout)

        server = PostgresServer()
        server.start()
        admin = server.url()
    print(f"PostgreSQL; every bot process one of a cluster on it; {load()} at the start")
    results: dict[str, dict[str, list[float]]] = {}
    try:
        for name, web_on, elsewhere in (
            ("on", True, False),
            ("off", False, False),
            ("elsewhere", False, True),
        ):
            url = await new_database(admin, f"rh_bench_web_{name}")
            results[name] = await run(
                n,
                moves,
                web_on,
                seed,
                pause,
                deflate,
                nice,
                settled,
                stretches,
                database=url,
                pages_elsewhere=elsewhere,
                pages_nice=pages_nice,
                placement=placement,
                postgres=None if server is None else lambda: postgres_processes(server),
            )
            print(f"  ({name}: done, {load()})", flush=True)
    finally:
        if server is not None:
            server.stop()
    on, off, split = results["on"], results["off"], results["elsewhere"]
    print_on_and_off(on, off, n * moves, "web on, in the tables' process")
    copies, owned = split["pages_tables"]
    print(
        f"\npages elsewhere: the tables' process A, web off; the pages' process B "
        f"(web on, {copies:.0f} copies followed, {owned:.0f} leases held"
        f"{f', at nice {pages_nice}' if pages_nice else ''}) ({split['took'][0]:.1f} s)"
    )
    print(cpu_line(split, n * moves, "A process CPU"))
    print(show("A: act() (the commit)", split["act"]))
    print(show("A: loop lag", split["lag"]))
    print(gc_line(split) + stretch_line(split) + placement_line(split))
    cpu = split["pages_cpu"][0]
    print(f"{'B process CPU':>28}: {cpu:7.2f} s   ({cpu / (n * moves) * 1000:.2f} ms a move)")
    print(show("B: loop lag", split["pages_lag"]))
    print(show("commit (A) -> every socket", split["commit"]))
    # the commit is timed at A's publish, after the database's commit, which tells B:
    # B may have sent the move before A's loop got to its publish
    print(f"{'(the least: < 0, B first)':>28}: {min(split['commit'], default=0.0) * 1000:.2f} ms")
    print(show("commit (A) -> B's write", split["server"]))
    print(show("act() start -> every socket", split["delivery"]))
    print(f"{'states never delivered':>28}: {split['missed'][0]:.0f}")
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_web")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    pace = parser.add_mutually_exclusive_group()
    pace.add_argument(
        "--pause",
        type=float,
        default=None,
        help="seconds between two moves of one table (default: Settings().ai_delay, the "
        "fastest any table moves at the production defaults)",
    )
    pace.add_argument(
        "--stress",
        dest="pause",
        action="store_const",
        const=STRESS,
        help=f"the stress run: --pause {STRESS} (fifty times the production pace)",
    )
    parser.add_argument(
        "--deflate",
        choices=("on", "off"),
        default="on",
        help="whether the clients offer permessage-deflate (browsers and Discord's proxy do)",
    )
    parser.add_argument(
        "--client-nice",
        type=int,
        default=0,
        help="the client process's niceness (19: it never preempts the bot, as remote pages)",
    )
    parser.add_argument(
        "--heap",
        choices=("settled", "default"),
        default="settled",
        help="the collector as the bot sets it once started (settled), or the "
        "interpreter's default (every figure before 29 Nov 2026 08:00 UTC)",
    )
    parser.add_argument(
        "--stretches",
        action="store_true",
        help="time each callback's CPU (the loop's synchronous stretches; costs two clock "
        "reads a callback, so the CPU a move is a little higher on both sides)",
    )
    parser.add_argument(
        "--pages-elsewhere",
        action="store_true",
        help="three runs on PostgreSQL: web on in the tables' process, web off, and the "
        "pages served by a second bot process following the first one's tables",
    )
    parser.add_argument(
        "--postgresql",
        default=None,
        help="with --pages-elsewhere: an admin URL of the server to use (default: a "
        "throwaway server, as the store tests start)",
    )
    parser.add_argument(
        "--pages-nice",
        type=int,
        default=0,
        help="with --pages-elsewhere: the pages' process's niceness (19: it never preempts "
        "the tables' process, as one on cores of its own would not)",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the tables' process of every side alone on one CPU, every other process the "
        "bench starts (pages' process, client, PostgreSQL server) on the others (at least "
        "two CPUs): the pages' process on cores of its own",
    )
    args = parser.parse_args(argv)
    placement = None
    if args.pin:
        try:
            placement = Placement.here()
        except CannotPin as exc:
            parser.error(str(exc))
    asyncio.run(
        main_async(
            args.tables,
            args.moves,
            args.seed,
            args.pause,
            args.deflate == "on",
            args.client_nice,
            args.heap == "settled",
            args.stretches,
            args.pages_elsewhere,
            args.postgresql,
            args.pages_nice,
            placement,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
