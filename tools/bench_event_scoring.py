"""``python -m tools.bench_event_scoring``: what an event's standings after a round
cost the event loop (docs/events.md, "What an event table costs the loop").

An individual event of ``--players`` (200: 50 tables), ``--rounds`` rounds of
``--boards`` boards, seated by the real movement, with made-up results; the standings
after the last round need every round's board scores (``score_round``, exact
fractions) and the standings of them, for the last round and the one before (each
line's movement). Printed, each ``--repeat`` times: the loop thread's CPU for that
work done on the loop in one go, as the director did before (every round scored twice),
and, as it does now (scored once, in a thread: ``bot.tables.events.scoring``), the
longest the loop waited meanwhile (a 1 ms ticker's lateness) and the wall time."""

from __future__ import annotations

import argparse
import asyncio
import random
import time

from bot.competition.events import BoardScore, Round, seat_individual
from bot.competition.events.scoring import TableResult, score_round, standings


def made_up(
    players: int, rounds: int, boards: int, seed: int
) -> list[tuple[Round, list[TableResult]]]:
    rng = random.Random(seed)
    history: list[Round] = []
    out = []
    for n in range(1, rounds + 1):
        seating = Round(n, seat_individual(list(range(1, players + 1)), history, seed).tables)
        history.append(seating)
        first = boards * (n - 1) + 1
        results = [
            TableResult(board=b, table=t.number, ns_result=rng.randint(-10, 10))
            for t in seating.tables
            for b in range(first, first + boards)
        ]
        out.append((seating, results))
    return out


def scores(played: list[tuple[Round, list[TableResult]]], through: int) -> list[BoardScore]:
    out: list[BoardScore] = []
    for seating, results in played[:through]:
        out.extend(score_round(seating, results))
    return out


def before(played: list[tuple[Round, list[TableResult]]]) -> None:
    """Every round scored for the standings, then again for the ones before."""
    last = len(played)
    standings(scores(played, last))
    standings(scores(played, last - 1))


def now(played: list[tuple[Round, list[TableResult]]]) -> None:
    """Every round scored once; the standings before from the same scores."""
    last = len(played)
    all_scores = scores(played, last)
    standings(all_scores)
    standings([s for s in all_scores if s.round < last])


async def in_a_thread(played: list[tuple[Round, list[TableResult]]]) -> tuple[float, float]:
    """``now`` in a thread while the loop ticks every 1 ms: the longest lateness, the wall."""
    loop = asyncio.get_running_loop()
    worst = 0.0
    done = False

    async def tick() -> None:
        nonlocal worst
        while not done:
            due = loop.time() + 0.001
            await asyncio.sleep(0.001)
            worst = max(worst, loop.time() - due)

    ticker = asyncio.create_task(tick())
    await asyncio.sleep(0.01)
    started = time.perf_counter()
    await asyncio.to_thread(now, played)
    wall = time.perf_counter() - started
    done = True
    await ticker
    return worst, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--boards", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=39)
    args = parser.parse_args()
    played = made_up(args.players, args.rounds, args.boards, args.seed)
    print(
        f"standings after round {args.rounds}: {args.players} players, "
        f"{args.players // 4} tables, {args.boards} boards a round"
    )
    for _ in range(args.repeat):
        started = time.thread_time()
        before(played)
        held = time.thread_time() - started
        worst, wall = asyncio.run(in_a_thread(played))
        print(
            f"before: on the loop in one go {held * 1000:6.1f} ms CPU | "
            f"now: in a thread, the loop's longest wait {worst * 1000:5.1f} ms "
            f"({wall * 1000:6.1f} ms wall)"
        )


if __name__ == "__main__":
    main()
