"""The coach's review measured: planted blunders found, hard's own cards spared, time per deal.

    python -m tools.bench_coach [--deals 204] [--games all] [--hard-budget 0.05] [--seed 1]

For each seeded deal (the games taken in turn), the hard AI plays every seat
(CPU-time budget ``--hard-budget`` a decision, so the figures do not depend on
the machine's load) until a deal in which the reviewed seat played at least
six cards has ended; then:

* **hard's own decisions**: the deal is reviewed for that seat at production
  defaults (``engine.ai.REVIEW_BUDGET``) and the share of its
  decisions that are flagged is counted, with the review's CPU time
  (``time.process_time``, DDS's helper threads included);
* **a planted blunder**: among the seat's decisions, the first one where hard's
  card was the best and another legal card **loses at least one trick
  double-dummy** (in the deal as it lay) **and** at least half a trick by an
  independent single-dummy estimate (128 worlds, another seed) is chosen;
  that card is played instead, hard plays the rest of the deal again, and the
  new deal is reviewed: is the planted card flagged? (A card that loses only
  double-dummy, a finesse that happened to fail, is no blunder by what the seat
  could know, and a fair review must not flag it: those are counted apart.)

Prints per game: deals, blunders planted and flagged, hard's decisions and the
share flagged, and the review's CPU seconds p50 / p95, with ``uptime``'s load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections import defaultdict
from typing import Any

from engine import Game, Play, game_ids, new_game
from engine.ai import REVIEW_BUDGET, ReviewBudget, clock, get_player, review_deal, review_position

__all__ = ["main", "play_until_deal"]

PLANT_WORLDS = 128
MIN_CARDS = 6


def play_until_deal(
    game_id: str,
    seed: int,
    seat: int,
    budget: float,
    start_log: list[tuple[int, Any]] | None = None,
) -> tuple[Game, int] | None:
    """Hard plays every seat until a deal in which ``seat`` played ``MIN_CARDS`` cards ends;
    the game (stopped there) and that deal's number. ``start_log`` is played first."""
    game, _ = new_game(game_id, seed=seed)
    player = get_player("hard", budget=budget, cap=max(0.5, 4 * budget))
    rng = random.Random(seed)
    for s, a in start_log or ():
        game.apply(s, a)
    cards: dict[int, int] = defaultdict(int)
    while not game.is_over:
        deal = game.deals_total
        s = game.to_act()
        if s is None:
            return None
        a = player.choose(game.observe(s), game.legal_actions(s), rng)
        if isinstance(a, Play) and s == seat:
            cards[deal] += 1
        game.apply(s, a)
        if (game.deals_total != deal or game.is_over) and cards[deal] >= MIN_CARDS:
            return game, deal
        if game.deals_total > 6:
            return None
    return None


def _finish_deal(game: Game, deal: int, budget: float, seed: int) -> Game:
    player = get_player("hard", budget=budget, cap=max(0.5, 4 * budget))
    rng = random.Random(seed)
    while not game.is_over and game.deals_total == deal:
        s = game.to_act()
        if s is None:
            break
        game.apply(s, player.choose(game.observe(s), game.legal_actions(s), rng))
    return game


def _replay_to(record: dict[str, Any], upto: int) -> Game:
    game, _ = new_game(
        record["game_id"], record.get("preset"), record.get("overrides") or {}, seed=record["seed"]
    )
    from engine import decode_action

    for entry in record["actions"][:upto]:
        s, _, text = str(entry).partition(" ")
        game.apply(int(s), decode_action(text))
    return game


def bench(
    deals: int, games: list[str], hard_budget: float, seed: int, progress: int = 0
) -> dict[str, dict[str, Any]]:
    clock.use("cpu")
    stats: dict[str, dict[str, Any]] = {
        g: {
            "deals": 0,
            "planted": 0,
            "flagged": 0,
            "dd_only": 0,
            "dd_only_flagged": 0,
            "hard": 0,
            "hard_flagged": 0,
            "times": [],
        }
        for g in games
    }
    budget: ReviewBudget = REVIEW_BUDGET
    for i in range(deals):
        gid = games[i % len(games)]
        s = stats[gid]
        game_seed = seed * 100_000 + i
        probe, _ = new_game(gid, seed=game_seed)
        seat = i % probe.n_players
        found = play_until_deal(gid, game_seed, seat, hard_budget)
        if found is None:
            continue
        game, deal = found
        record = game.to_record()
        t0 = time.process_time()
        review = review_deal(record, deal, seat, budget)
        s["times"].append(time.process_time() - t0)
        s["deals"] += 1
        s["hard"] += len(review.decisions)
        s["hard_flagged"] += len(review.flagged)
        s.setdefault("hard_costs", []).extend([d.cost, d.error] for d in review.decisions)
        # plant a blunder at the first decision where one exists
        for d in review.decisions:
            if d.best != d.played and d.cost > 0:
                continue
            before = _replay_to(record, d.index)
            probe_rng = random.Random(game_seed * 31 + d.index)
            wide = review_position(
                before,
                seat,
                d.played.index,
                probe_rng,
                ReviewBudget(worlds=PLANT_WORLDS, more_worlds=PLANT_WORLDS),
                d.index,
            )
            if wide is None:
                continue
            opts = wide.decision.options
            top_dd = max((o.dd for o in opts if o.dd is not None), default=None)
            played_opt = next((o for o in opts if o.card == wide.decision.played), None)
            if top_dd is None or played_opt is None or played_opt.dd != top_dd:
                continue
            best_value = opts[0].value
            least = 0.5 * wide.threshold / REVIEW_BUDGET.threshold  # 5 points in Solo Whist
            blunder = None
            dd_only = None
            for o in opts:
                if o.dd is None or o.dd > top_dd - 1:
                    continue
                if best_value - o.value >= least:
                    blunder = o
                    break
                if dd_only is None:
                    dd_only = o
            pick = blunder or dd_only
            if pick is None:
                continue
            log = [(ls, la) for ls, la in before.log]
            replayed, _ = new_game(gid, seed=game_seed)
            for ls, la in log:
                replayed.apply(ls, la)
            replayed.apply(seat, Play(pick.card))
            replayed = _finish_deal(replayed, deal, hard_budget, game_seed + 7)
            planted = review_deal(replayed.to_record(), deal, seat, budget)
            hit = next((x for x in planted.decisions if x.index == d.index), None)
            flagged = hit is not None and hit.flagged
            if hit is not None:
                key = "planted_costs" if blunder is not None else "dd_only_costs"
                s.setdefault(key, []).append([hit.cost, hit.error])
            if blunder is not None:
                s["planted"] += 1
                s["flagged"] += int(flagged)
            else:
                s["dd_only"] += 1
                s["dd_only_flagged"] += int(flagged)
            break
        print(
            f"{i + 1:4d} {gid:22s} seat {seat} deal {deal}: {len(review.decisions)} decisions, "
            f"{len(review.flagged)} flagged, {s['times'][-1]:.2f}s; planted {s['planted']} "
            f"flagged {s['flagged']}",
            flush=True,
        )
        if progress and (i + 1) % progress == 0 and i + 1 < deals:
            report(stats)  # the figures so far, should the run be cut short
    return stats


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:5.1f}%" if d else "   —  "


def report(stats: dict[str, dict[str, Any]]) -> None:
    print(f"load: {os.getloadavg()}")
    head = (
        f"{'game':22s} {'deals':>5s} {'planted':>7s} {'flagged':>7s} {'rate':>6s} "
        f"{'dd-only':>7s} {'flagged':>7s} {'hard':>5s} {'flagged':>7s} {'p50 s':>6s} {'p95 s':>6s}"
    )
    print(head)
    tot = defaultdict(int)
    times: list[float] = []
    for gid, s in stats.items():
        t = sorted(s["times"])
        p50 = statistics.median(t) if t else 0.0
        p95 = t[min(len(t) - 1, int(0.95 * len(t)))] if t else 0.0
        times.extend(t)
        for k in (
            "deals",
            "planted",
            "flagged",
            "dd_only",
            "dd_only_flagged",
            "hard",
            "hard_flagged",
        ):
            tot[k] += s[k]
        print(
            f"{gid:22s} {s['deals']:5d} {s['planted']:7d} {s['flagged']:7d} "
            f"{_pct(s['flagged'], s['planted'])} {s['dd_only']:7d} {s['dd_only_flagged']:7d} "
            f"{s['hard']:5d} {_pct(s['hard_flagged'], s['hard'])} {p50:6.2f} {p95:6.2f}"
        )
    times.sort()
    p50 = statistics.median(times) if times else 0.0
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
    print(
        f"{'all':22s} {tot['deals']:5d} {tot['planted']:7d} {tot['flagged']:7d} "
        f"{_pct(tot['flagged'], tot['planted'])} {tot['dd_only']:7d} {tot['dd_only_flagged']:7d} "
        f"{tot['hard']:5d} {_pct(tot['hard_flagged'], tot['hard'])} {p50:6.2f} {p95:6.2f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=204)
    parser.add_argument("--games", default="all")
    parser.add_argument("--hard-budget", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--progress", type=int, default=0, help="print the table every N deals")
    parser.add_argument("--dump", default="", help="write every cost and error to this JSON file")
    args = parser.parse_args(argv)
    games = game_ids() if args.games == "all" else args.games.split(",")
    print(f"load: {os.getloadavg()}")
    stats = bench(args.deals, games, args.hard_budget, args.seed, args.progress)
    report(stats)
    if args.dump:
        with open(args.dump, "w") as f:
            json.dump(stats, f)


if __name__ == "__main__":
    main()
