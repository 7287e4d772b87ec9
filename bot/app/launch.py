"""``python -m bot.app.launch --processes N``: run the bot as N processes on one machine.

Asks Discord for the recommended shard count (``GET /gateway/bot`` with the
token) unless ``--shard-count`` is given, splits the shards into N contiguous
ranges (:func:`bot.sharding.split_shards`) and starts one
``python -m bot --shards A-B --shard-count M --name bot-I`` per range. A process
that exits is started again (after 1 s, doubling up to 60 s while it keeps
failing within a minute of starting), under the same name, so it takes its
tables back at once instead of waiting for their leases to run out. SIGTERM or
Ctrl-C stops them all (each gives its leases up as it closes).

Process 0 holds shard 0, and Discord delivers **every DM** — so every click on a
hand-DM button — on shard 0: that process takes those clicks for every server
(they are small: a click is a row lock and an insert), so it gets a range no
larger than the others'. The processes must share a PostgreSQL ``RH_DATABASE``;
with SQLite, run one process (``python -m bot``).

``--pages`` adds one more process, ``web``: ``python -m bot --pages-only --name web``
(:mod:`bot.app.pages`), which serves the web table (the Discord Activity) from this
environment's ``RH_WEB_PORT`` and the other web settings, holds no gateway shard and
no table's lease; the game processes then run with ``--no-web``, so none of them
carries a page (docs/operations.md, "The web table (the Discord Activity) at scale").

``--dry-run`` prints the plan and starts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import FrameType

from bot.config import Settings
from bot.sharding import format_shards, split_shards
from bot.store import is_postgresql_url

GATEWAY_BOT = "https://discord.com/api/v10/gateway/bot"
FIRST_DELAY = 1.0
MAX_DELAY = 60.0
STABLE_AFTER = 60.0  # a process that ran this long starts over at the first delay


def recommended_shards(token: str, url: str = GATEWAY_BOT, timeout: float = 10.0) -> int:
    """Discord's recommended shard count for the bot with ``token``."""
    request = urllib.request.Request(
        url, headers={"Authorization": f"Bot {token}", "User-Agent": "ruff-and-honours launcher"}
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (a fixed https URL)
        data = json.loads(response.read().decode())
    return max(1, int(data["shards"]))


@dataclass
class Child:
    """One bot process of the plan, and its restarts."""

    index: int
    shards: tuple[int, ...]
    shard_count: int
    proc: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    restarts: int = 0
    delay: float = FIRST_DELAY
    due: float = 0.0  # when to (re)start it
    log: list[str] = field(default_factory=list)
    pages: bool = False  # the pages-only process (no shard): the web table alone
    no_web: bool = False  # a game process beside a pages-only one: serves no page

    @property
    def name(self) -> str:
        return "web" if self.pages else f"bot-{self.index}"

    @property
    def holds(self) -> str:
        """What it holds, for the launcher's lines."""
        if self.pages:
            return "the web table, no shard"
        return f"shards {format_shards(self.shards)} of {self.shard_count}"

    def argv(self, python: str = sys.executable) -> list[str]:
        if self.pages:
            return [python, "-m", "bot", "--pages-only", "--name", self.name]
        return [
            *self._game_argv(python),
            *(["--no-web"] if self.no_web else []),
        ]

    def _game_argv(self, python: str) -> list[str]:
        return [
            python,
            "-m",
            "bot",
            "--shards",
            format_shards(self.shards),
            "--shard-count",
            str(self.shard_count),
            "--name",
            self.name,
        ]


def plan(shard_count: int, processes: int, pages: bool = False) -> list[Child]:
    """The game processes over the shards, and with ``pages`` one pages-only process
    after them (the game processes then serve no web table)."""
    children = [
        Child(i, ids, shard_count, no_web=pages)
        for i, ids in enumerate(split_shards(shard_count, processes))
    ]
    if pages:
        children.append(Child(processes, (), shard_count, pages=True))
    return children


def supervise(
    children: Sequence[Child],
    argv_of: Callable[[Child], list[str]],
    *,
    should_stop: Callable[[], bool],
    poll: float = 0.2,
    out: Callable[[str], None] = print,
) -> None:
    """Start every child and start again any that exits, until ``should_stop()``;
    then terminate them (SIGTERM, then SIGKILL after 20 s) and return."""
    try:
        while not should_stop():
            now = time.monotonic()
            for child in children:
                if child.proc is not None and child.proc.poll() is not None:
                    code = child.proc.returncode
                    ran = now - child.started
                    wait = FIRST_DELAY if ran >= STABLE_AFTER else child.delay
                    child.delay = min(MAX_DELAY, wait * 2)
                    child.due = now + wait
                    child.proc = None
                    out(
                        f"{child.name} ({child.holds}) exited with {code}; "
                        f"restarting in {child.due - now:.0f} s"
                    )
                if child.proc is None and now >= child.due:
                    if child.started:
                        child.restarts += 1
                    child.proc = subprocess.Popen(argv_of(child))
                    child.started = now
                    out(f"{child.name}: {child.holds} (pid {child.proc.pid})")
            time.sleep(poll)
    finally:
        running = [c.proc for c in children if c.proc is not None and c.proc.poll() is None]
        for proc in running:
            proc.terminate()
        deadline = time.monotonic() + 20
        for proc in running:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.app.launch", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--processes", "-n", type=int, required=True, help="bot processes to run")
    parser.add_argument(
        "--shard-count", type=int, help="total shards (default: Discord's recommendation)"
    )
    parser.add_argument(
        "--pages",
        action="store_true",
        help="add a pages-only process (web) serving the web table; the game processes serve none",
    )
    parser.add_argument("--dry-run", action="store_true", help="print the plan, start nothing")
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if settings.pages_only:  # every process would start without a shard, and none would play
        parser.error(
            "RH_PAGES_ONLY is set: it would make every process a pages-only one; unset it "
            "and pass --pages to add the pages' process"
        )
    count = args.shard_count
    if count is None:
        if not settings.token:
            parser.error(
                "DISCORD_TOKEN is needed to ask Discord for the shard count (or pass --shard-count)"
            )
        try:
            count = recommended_shards(str(settings.token))
        except (urllib.error.URLError, OSError, ValueError, KeyError) as exc:
            print(f"could not ask Discord for the shard count: {exc}", file=sys.stderr)
            return 1
        print(f"Discord recommends {count} shard(s)")
    count = max(count, args.processes)  # every process holds at least one shard
    children = plan(count, args.processes, pages=args.pages)
    for child in children:
        note = "  (shard 0: every DM, so every hand-DM click)" if 0 in child.shards else ""
        if child.pages:
            note = "  (the web table: RH_WEB_PORT and the web settings; no shard, no lease)"
        print(f"{child.name}: {' '.join(child.argv('python'))}{note}")
    if args.dry_run:
        return 0
    if not settings.token:
        parser.error("DISCORD_TOKEN is not set")
    if args.processes > 1 and not is_postgresql_url(settings.database):
        parser.error("several processes need RH_DATABASE to be a postgresql:// URL they share")
    if args.pages:
        from bot.app.pages import refusal

        problem = refusal(settings)
        if problem is not None:
            parser.error(problem)

    stopping = False

    def stop(_signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    supervise(children, lambda c: c.argv(), should_stop=lambda: stopping)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    raise SystemExit(main())
