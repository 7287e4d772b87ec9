"""The web table's frames alone: the bot's CPU to build, encode and compress them.

``python -m tools.bench_web_frames --tables N --moves M`` opens N whist tables (four
human seats, SQLite in a temporary folder) with two pages on each (seat 0 and a
spectator, as ``tools.bench_web``), plays M moves on each through ``act()``, and after
every commit does what each page's writer does with it (``Front.state_for``) and what
permessage-deflate then does with the text (zlib, raw deflate at level 1, one
compressor a socket as aiohttp keeps it), every page sent every move (no two commits
coalesced: the most work). No sockets and no client process: the CPU time it prints
(``time.process_time``) is the frames' own, which a shared machine's load disturbs far
less than the latencies of ``tools.bench_web``. It uses only what every version of
``bot.web.front`` has, so ``tools.bench_before_after --this-tools`` runs it on an
earlier commit too.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
import zlib
from typing import Any

from bot.tables.act import act
from bot.web.front import Connection, Front
from bot.web.session import Session, Signer
from tools.bench_web import bench_services, open_tables

SPECTATOR = 999_999


class _Socket:
    """What a Connection keeps of its socket here: nothing is sent."""

    closed = False


def deflate() -> Any:
    return zlib.compressobj(1, zlib.DEFLATED, -15)  # aiohttp's permessage-deflate, level 1


async def run(n: int, moves: int, seed: int) -> dict[str, float]:
    async with bench_services("frames") as svc:
        tables = await open_tables(svc, n)
        front = Front(svc, None, Signer("bench", 3600.0), rate=1000.0)
        pages: dict[int, list[tuple[Connection, Any]]] = {}
        for i, table in enumerate(tables):
            for user in (1000 * (i + 1), SPECTATOR):
                session = Session(user, "bench", table.channel_id, time.time() + 3600)
                conn = Connection(front, _Socket(), session)  # type: ignore[arg-type]
                front.connections.add(conn)
                front.look(conn, force=True)  # attached to the table, its feed watched
                pages.setdefault(table.id, []).append((conn, deflate()))
        rng = random.Random(seed)
        cpu = 0.0
        frames = 0
        raw = 0
        sent = 0
        per_commit: list[float] = []

        def write(table_id: int) -> None:
            """Every page on the table: its frame built and compressed, as its writer would."""
            nonlocal cpu, frames, raw, sent
            start = time.process_time()
            for conn, compressor in pages[table_id]:
                conn.owed = False
                text = front.state_for(conn).encode()
                body = compressor.compress(text) + compressor.flush(zlib.Z_SYNC_FLUSH)
                frames += 1
                raw += len(text)
                sent += len(body) - 4  # the sync flush's tail is not sent
            took = time.process_time() - start
            cpu += took
            per_commit.append(took)

        for table in tables:
            write(table.id)  # the first state, whole
        per_commit.clear()
        cpu = 0.0
        frames = raw = sent = 0
        for _ in range(moves):
            for table in tables:
                game = table.game
                if game is None or game.is_over:
                    continue
                seat = game.to_act()
                assert seat is not None
                legal = list(game.legal_actions(seat))
                choice = legal[rng.randrange(len(legal))]
                user = table.seats[seat].user_id  # type: ignore[union-attr]
                outcome = await act(svc, table.id, user, game.version, seat, [choice])
                assert outcome.applied, outcome
                write(table.id)
        return {
            "cpu": cpu,
            "commits": float(len(per_commit)),
            "frames": float(frames),
            "raw": raw / max(frames, 1),
            "sent": sent / max(frames, 1),
            "p50": statistics.median(per_commit) if per_commit else float("nan"),
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_web_frames")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    got = asyncio.run(run(args.tables, args.moves, args.seed))
    print(
        f"{args.tables} tables, {args.moves} moves each, 2 pages a table (seat 0 and a "
        f"spectator), every page sent every move"
    )
    print(
        f"{'frames built and compressed':>30}: {got['cpu']:.2f} s CPU for {got['commits']:.0f} "
        f"commits ({got['cpu'] / got['commits'] * 1000:.3f} ms a commit, "
        f"{got['cpu'] / got['frames'] * 1000:.3f} ms a frame)"
    )
    print(f"{'a commit (both pages), p50':>30}: {got['p50'] * 1000:.3f} ms")
    print(f"{'a frame, bytes':>30}: {got['raw']:.0f} as text, {got['sent']:.0f} compressed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
