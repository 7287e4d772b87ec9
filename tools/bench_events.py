"""How long an event's round change takes: ``python -m tools.bench_events [--tables 50]
[--boards 2] [--database PATH]``.

The director (``bot/tables/events/``) on a real SQLite file (or a PostgreSQL URL)
with the real table layer (``BoardTables``: ``commit.open_table``, an ``event`` kind): ``4 x tables``
players register and check in, round 1 is dealt, and every board of every table is
played to its end by random legal moves through ``commit.commit`` (each move one
durable write, as a click's). The figure is the round change: from the last board
of round 1 ending to every table of round 2 dealt — the round closed, scored from
the store (every board's move log read for AI-played seats and thinking time), the
standings worked out, round 2 seated by the movement and ``tables`` new tables
opened. No Discord: the front's posts (the seating, the threads, the table messages
and hand DMs) are not in the figure; they are queued Discord calls after it.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.config import Settings  # noqa: E402
from bot.store import Database  # noqa: E402
from bot.tables import commit  # noqa: E402
from bot.tables.events.quiet import QuietFront, event_with_entrants, standalone_director  # noqa: E402


async def run(location: str, tables: int, boards: int) -> None:
    db = await Database.open(location)
    front = QuietFront()
    director, svc = standalone_director(db, front, settings=Settings(database=location))
    rng = random.Random(39)
    try:
        players = [10_000 + i for i in range(4 * tables)]
        event = await event_with_entrants(director, players, rounds=2, boards=boards, minutes=60.0)
        started = time.perf_counter()
        await director.start(event.id)
        opened = time.perf_counter() - started
        moves = 0
        change = change_cpu = 0.0
        while True:
            live = [
                t
                for t in svc.tables.values()
                if t.settings.event
                and t.status == "active"
                and t.settings.event.split("/")[1] == "1"
            ]
            if not live:
                break
            for table in live:
                game = table.game
                assert game is not None
                while not game.is_over:
                    seat = game.to_act()
                    assert seat is not None
                    legal = [a for a in game.legal_actions(seat) if type(a).__name__ != "Concede"]
                    human = table.human(seat)
                    await commit.commit(
                        svc, table, seat, [rng.choice(legal)], human.user_id if human else None
                    )
                    moves += 1
                    game = table.game
                    assert game is not None
                event_id, round_no, table_no, _board = (
                    int(x) for x in table.settings.event.split("/")
                )
                t0, c0 = time.perf_counter(), time.process_time()
                await director.advance(event_id, round_no, table_no)
                spent, cpu = time.perf_counter() - t0, time.process_time() - c0
                if front.scored:  # this board's end closed the round
                    change, change_cpu = spent, cpu
                    break
            if front.scored:
                break
        dealt = [b for b in await svc.event_repo.boards(event.id, 2) if b.table_id is not None]
        print(f"tables: {tables} ({4 * tables} players), boards per round: {boards}")
        print(f"round 1 dealt (start): {opened:.3f} s")
        print(f"moves played in round 1: {moves}")
        print(
            f"round change (close, score, seat, open {len(dealt)} tables): {change:.3f} s"
            f" (CPU {change_cpu:.3f} s, this process's threads included)"
        )
    finally:
        await director.close()
        await svc.ai.close()
        await svc.painter.close()
        await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--boards", type=int, default=2)
    parser.add_argument("--database", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        location = args.database or str(Path(tmp) / "bench.db")
        asyncio.run(run(location, args.tables, args.boards))


if __name__ == "__main__":
    main()
