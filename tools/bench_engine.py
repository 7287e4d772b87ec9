"""Throughput benchmark: random complete deals per second through the public API.

Run ``python -m tools.bench_engine`` (options ``--seconds``, ``--game``, ``--preset``,
``--runs``). Each run drives games on one core with the checked, public loop a
bot or a search uses::

    seat = game.to_act(); acts = game.legal_actions(seat)
    game.apply(seat, acts[int(rng.random() * len(acts))])

(a uniform random choice, a little cheaper than ``rng.choice``, so that the
figure is the engine's), starting a new game from one prebuilt
:class:`~engine.rules.Rules` whenever a match ends. A deal counts once it is over: played out and scored, or ended by a
Can-ye claim. The best of the runs is printed (it is the least disturbed by
other load on the machine), with the median.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from engine import Rules, game_ids, make_rules, new_game

__all__ = ["deals_per_second", "main"]


def deals_per_second(rules: Rules, seconds: float, seed: int = 0) -> tuple[float, int]:
    """Play random legal actions for about ``seconds``; return (deals/s, deals)."""
    rng = random.Random(seed)
    uniform = rng.random
    game_seed = seed * 1_000_003
    game, _ = new_game(rules=rules, seed=game_seed)
    finished_deals = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    steps = 0
    while True:
        seat = game.to_act()
        if seat is None:
            finished_deals += game.deals_total
            game_seed += 1
            game, _ = new_game(rules=rules, seed=game_seed)
            continue
        acts = game.legal_actions(seat)
        game.apply(seat, acts[int(uniform() * len(acts))])
        steps += 1
        if not steps & 255 and clock() >= deadline:
            break
    elapsed = clock() - start
    deals = finished_deals + game.deals_total - 1
    return deals / elapsed, deals


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_engine", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--game", default="ruff-honours-cotton", choices=[*game_ids(), "all"])
    parser.add_argument("--preset", default=None, help="preset name (default: the game's default)")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one run (default 3)")
    parser.add_argument("--runs", type=int, default=3, help="runs per game (default 3)")
    args = parser.parse_args(argv)
    games = game_ids() if args.game == "all" else [args.game]
    for game_id in games:
        rules = make_rules(game_id, args.preset if args.game != "all" else None)
        rates = [deals_per_second(rules, args.seconds, seed=run)[0] for run in range(args.runs)]
        print(
            f"{game_id} [{rules.preset}]: best {max(rates):,.0f} deals/s, "
            f"median {statistics.median(rates):,.0f} deals/s "
            f"({args.runs} x {args.seconds:g} s, one core)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
