"""The coach's review measured: planted blunders found, hard's own decisions spared, time.

    nice -n 10 python -m tools.bench_coach [--deals 288] [--games all] [--jobs 2]
        [--hard-budget SECONDS] [--seed 1] [--plant-worlds 64] [--played FILE] [--dump FILE]
        [--skip N] [--only GAME,GAME] [--report FILE]

For each seeded deal (the games taken in turn, the reviewed seat in turn), the
hard AI plays every seat until a deal in which the reviewed seat played at least
six cards has ended. Hard plays at its production budget (``HARD.soft`` seconds a
decision and ``HARD.cap`` at most, :mod:`engine.ai.levels`: the player the bot's
AI pool makes at full budget), on the CPU clock so that the figures do not depend
on the machine's load; ``--hard-budget SECONDS`` plays it at another soft budget
instead, its cap four times that and at least 0.5 s (the bench before 29 November
2026 played at ``--hard-budget 0.05``: its figures are reproduced so). Then:

* **review time**: the whole deal's review for that seat at production defaults
  (``engine.ai.REVIEW_BUDGET``), in CPU seconds (``time.process_time``, DDS's
  helper threads included): p50 / p95 per game;
* **hard's own decisions**: the share of them the review flags (cards, and the
  other decisions — bids, calls, trumps, lay-outs — apart);
* **a planted card blunder**: at the first of the seat's cards where hard's card
  was the best double dummy, a card that loses at least one trick double dummy
  **and** at least half a trick (5 points in Solo Whist) by an independent
  single-dummy estimate (``--plant-worlds`` worlds, another seed) replaces it;
  the review of that decision (what the deal's review computes for it: the same
  position, seed and budget) must flag it. A card that loses only double dummy
  (a finesse that failed) is no blunder by what the seat could know: counted
  apart (dd-only), and a fair review should not flag it;
* **a planted bad call** (the games with bids, calls, trumps or lay-outs): at the
  first such decision where hard's choice cost less than the flag threshold by the
  independent estimate, a choice that costs at least twice the threshold more than
  the best by that estimate replaces it, and its review must flag it;
* **a hint**: the hard AI's choice with its reason (``engine.ai.hint``) at the
  bot's ``HINT_BUDGET``, at the seat's first decision and its fifth card, in CPU
  milliseconds.

The default 288 deals are 24 a game id, so a game's p95 is its second-slowest
deal, not its slowest. ``--jobs N`` shares the deals among N processes (each figure is CPU time of its
own process, so the split changes no figure). The machine's load is printed
before and after.

Hard plays on the CPU clock, so two runs do not play the same cards. ``--played
FILE`` keeps the played deals (one JSON line a deal: its task and the game's record):
when FILE holds a deal's line, that deal is not played again but read, so a second
run (another coach, the same bench) reviews the very same decisions. ``--dump
FILE`` writes every deal's figures as they come (one JSON line a deal), with each
of hard's flagged decisions (its cost, error, worlds, double-dummy cost, options).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bot.tables.aipool import HINT_BUDGET
from engine import Action, ActionParseError, Game, Play, decode_action, game_ids, new_game
from engine.ai import (
    REVIEW_BUDGET,
    Player,
    ReviewBudget,
    clock,
    get_player,
    hint,
    judge_call,
    review_deal,
    review_position,
)
from engine.ai.coach.records import decision_seed
from engine.ai.levels import HARD

__all__ = ["bench_tasks", "hard_limits", "hard_player", "main", "play_until_deal"]

MIN_CARDS = 6


def hard_limits(budget: float) -> tuple[float, float]:
    """Hard's (soft, cap) seconds a decision at ``budget``: at production's soft budget
    (``HARD.soft``) production's cap (``HARD.cap``: the player the bot's AI pool makes at
    full budget); at another, the cap four times the budget and at least 0.5 s, as the
    bench always made it."""
    if budget == HARD.soft:
        return HARD.soft, HARD.cap
    return budget, max(0.5, 4 * budget)


def hard_player(budget: float) -> Player:
    """The hard player the bench plays every seat with (:func:`hard_limits`)."""
    soft, cap = hard_limits(budget)
    return get_player("hard", budget=soft, cap=cap)


def play_until_deal(
    game_id: str,
    seed: int,
    seat: int,
    budget: float,
    start_log: list[tuple[int, Any]] | None = None,
) -> tuple[Game, int] | None:
    """Hard (:func:`hard_player` at ``budget``) plays every seat until a deal in which
    ``seat`` played ``MIN_CARDS`` cards ends; the game (stopped there) and that deal's
    number. ``start_log`` is played first."""
    game, _ = new_game(game_id, seed=seed)
    player = hard_player(budget)
    rng = random.Random(seed)
    for at, a in start_log or ():
        game.apply(at, a)
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


def _replay_to(record: dict[str, Any], upto: int) -> Game:
    game, _ = new_game(
        record["game_id"], record.get("preset"), record.get("overrides") or {}, seed=record["seed"]
    )
    for entry in record["actions"][:upto]:
        s, _, text = str(entry).partition(" ")
        game.apply(int(s), decode_action(text))
    return game


def _after(record: dict[str, Any], index: int, seat: int) -> list[Action]:
    out = []
    for entry in record["actions"][index + 1 : index + 8]:
        s, _, text = str(entry).partition(" ")
        if int(s) == seat:
            out.append(decode_action(text))
    return out


def _choice_actions(choice: str) -> list[Action]:
    """The actions of a call's choice: a lay-out's discards, or the one action."""
    try:
        return [decode_action(choice)]
    except ActionParseError:
        return [decode_action(f"discard:{c}") for c in choice.split()]


def _hint_ms(game: Game, seat: int, rng: random.Random) -> float:
    soft, cap = HINT_BUDGET
    t0 = time.process_time()
    hint(game.observe(seat), game.legal_actions(seat), rng, soft, cap)
    return 1000 * (time.process_time() - t0)


def _plant_card(
    record: dict[str, Any], d: Any, seat: int, game_seed: int, plant_worlds: int
) -> tuple[str, bool] | None:
    """Plant a card blunder at decision ``d``; ("planted" | "dd_only", flagged) or None."""
    before = _replay_to(record, d.index)
    probe = review_position(
        before,
        seat,
        d.played_card.index,
        random.Random(game_seed * 31 + d.index),
        ReviewBudget(worlds=plant_worlds, more_worlds=plant_worlds),
        d.index,
    )
    if probe is None:
        return None
    opts = probe.decision.options
    top_dd = max((o.dd for o in opts if o.dd is not None), default=None)
    played_opt = next((o for o in opts if o.choice == probe.decision.played), None)
    if top_dd is None or played_opt is None or played_opt.dd != top_dd:
        return None
    best_value = opts[0].value
    least = 0.5 * probe.threshold / REVIEW_BUDGET.threshold  # 5 points in Solo Whist
    blunder = dd_only = None
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
        return None
    judged = review_position(
        before,
        seat,
        pick.card.index,
        random.Random(decision_seed(record, d.index)),
        REVIEW_BUDGET,
        d.index,
    )
    flagged = judged is not None and judged.decision.flagged
    return ("planted" if blunder is not None else "dd_only"), flagged


def _plant_call(
    record: dict[str, Any], d: Any, seat: int, game_seed: int, plant_worlds: int
) -> bool | None:
    """Plant a bad call at decision ``d``: flagged, or None when none was found."""
    before = _replay_to(record, d.index)
    played = _choice_actions(d.played)
    probe = judge_call(
        before,
        seat,
        played[0],
        [*played[1:], *_after(record, d.index, seat)],
        random.Random(game_seed * 31 + d.index),
        ReviewBudget(worlds=plant_worlds, more_worlds=plant_worlds),
        d.index,
    )
    if probe is None:
        return None
    judged, _ = probe
    opts = judged.decision.options
    if judged.decision.cost >= judged.threshold:
        return None  # hard's own choice was not good enough to plant a worse one beside it
    least = 2 * judged.threshold
    bad = next((o for o in opts if opts[0].value - o.value >= least), None)
    if bad is None:
        return None
    actions = _choice_actions(bad.choice)
    again = judge_call(
        before,
        seat,
        actions[0],
        actions[1:],
        random.Random(decision_seed(record, d.index)),
        REVIEW_BUDGET,
        d.index,
    )
    return again is not None and again[0].decision.flagged


Task = tuple[str, int, int, float, int]


def play_task(task: Task) -> dict[str, Any]:
    """Play one task's deal: the task with the game's record and the deal's number
    (``record`` None: no deal of the task's seat with six cards in six deals)."""
    gid, game_seed, seat, hard_budget, _ = task
    clock.use("cpu")
    found = play_until_deal(gid, game_seed, seat, hard_budget)
    played: dict[str, Any] = {"task": list(task), "record": None, "deal": 0}
    if found is not None:
        game, deal = found
        played.update(record=game.to_record(), deal=deal)
    return played


def one_deal(task: Task, played: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """Everything measured on one seeded deal (see the module docstring); ``played``:
    the deal as :func:`play_task` played it (else it is played here)."""
    gid, game_seed, seat, hard_budget, plant_worlds = task
    clock.use("cpu")
    played = played or play_task(task)
    if played["record"] is None:
        return None
    record, deal = played["record"], int(played["deal"])
    t0 = time.process_time()
    review = review_deal(record, deal, seat, REVIEW_BUDGET)
    out: dict[str, Any] = {
        "game": gid,
        "time": time.process_time() - t0,
        "cards": sum(d.kind == "card" for d in review.decisions),
        "cards_flagged": sum(d.kind == "card" and d.flagged for d in review.decisions),
        "calls": sum(d.kind != "card" for d in review.decisions),
        "calls_flagged": sum(d.kind != "card" and d.flagged for d in review.decisions),
        "hints": [],
        "seed": game_seed,
        "seat": seat,
        "deal": deal,
        "hard_budget": hard_budget,
        "hard_flags": [
            {
                "index": d.index,
                "kind": d.kind,
                "trick": d.trick,
                "played": d.played,
                "best": d.best,
                "cost": d.cost,
                "error": d.error,
                "worlds": d.worlds,
                "exact": d.exact,
                "dd_cost": d.dd_cost,
                "options": [[o.choice, o.value, o.dd] for o in d.options],
            }
            for d in review.decisions
            if d.flagged
        ],
    }
    rng = random.Random(game_seed)
    cards = [d for d in review.decisions if d.kind == "card"]
    for d in [review.decisions[0], *cards[4:5]] if review.decisions else []:
        out["hints"].append(_hint_ms(_replay_to(record, d.index), seat, rng))
    for d in cards:
        if d.best != d.played and d.cost > 0:
            continue
        planted = _plant_card(record, d, seat, game_seed, plant_worlds)
        if planted is not None:
            out["card_plant"] = planted
            break
    for d in review.decisions:
        if d.kind == "card" or d.flagged:
            continue
        flagged = _plant_call(record, d, seat, game_seed, plant_worlds)
        if flagged is not None:
            out["call_plant"] = flagged
            break
    return out


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:5.1f}%" if d else "   —  "


def _p(values: Sequence[float], q: float) -> float:
    t = sorted(values)
    return t[min(len(t) - 1, int(q * len(t)))] if t else 0.0


def report(results: list[dict[str, Any]], games: list[str]) -> None:
    """The table: per game and overall."""
    print(
        f"{'game':22s} {'deals':>5s} {'cards':>9s} {'rate':>6s} {'dd-only':>7s} "
        f"{'calls':>7s} {'rate':>6s} {'hard cards':>10s} {'flag':>6s} {'hard calls':>10s} "
        f"{'flag':>6s} {'review p50':>10s} {'p95 s':>6s} {'hints':>5s} {'p50 ms':>6s} {'p95 ms':>6s}"
    )
    rows = [(g, [r for r in results if r["game"] == g]) for g in games]
    rows.append(("all", results))
    for gid, rs in rows:
        cp = [r["card_plant"] for r in rs if "card_plant" in r]
        planted = [f for k, f in cp if k == "planted"]
        dd_only = [f for k, f in cp if k == "dd_only"]
        calls = [r["call_plant"] for r in rs if "call_plant" in r]
        times = [r["time"] for r in rs]
        hints = [h for r in rs for h in r["hints"]]
        hc = sum(r["cards"] for r in rs)
        hcf = sum(r["cards_flagged"] for r in rs)
        hk = sum(r["calls"] for r in rs)
        hkf = sum(r["calls_flagged"] for r in rs)
        print(
            f"{gid:22s} {len(rs):5d} {sum(planted):4d}/{len(planted):<4d} "
            f"{_pct(sum(planted), len(planted))} {sum(dd_only):3d}/{len(dd_only):<3d} "
            f"{sum(calls):3d}/{len(calls):<3d} {_pct(sum(calls), len(calls))} "
            f"{hcf:4d}/{hc:<5d} {_pct(hcf, hc)} {hkf:4d}/{hk:<5d} {_pct(hkf, hk)} "
            f"{statistics.median(times) if times else 0:10.2f} {_p(times, 0.95):6.2f} "
            f"{len(hints):5d} {statistics.median(hints) if hints else 0:6.0f} {_p(hints, 0.95):6.0f}"
        )
    cp_all = [
        f for r in results if "card_plant" in r for k, f in [r["card_plant"]] if k == "planted"
    ]
    calls_all = [r["call_plant"] for r in results if "call_plant" in r]
    blunders = cp_all + calls_all
    print(
        f"planted blunders (cards and calls) flagged: {sum(blunders)}/{len(blunders)} "
        f"{_pct(sum(blunders), len(blunders))}; hard's decisions flagged: "
        f"{sum(r['cards_flagged'] + r['calls_flagged'] for r in results)}/"
        f"{sum(r['cards'] + r['calls'] for r in results)}"
    )
    budgets: dict[float | None, int] = defaultdict(int)
    for r in results:
        budgets[r.get("hard_budget")] += 1
    print(
        "hard's budget a decision: "
        + ", ".join(
            f"{'not recorded' if b is None else f'{b:g} s'} ({n} deals)"
            for b, n in sorted(budgets.items(), key=lambda bn: (bn[0] is None, bn[0] or 0.0))
        )
        + f"; production's: {HARD.soft:g} s"
    )


def bench_tasks(
    games: Sequence[str], deals: int, seed: int, hard_budget: float, plant_worlds: int
) -> list[Task]:
    """The bench's deals: the games in turn, the seat in turn, seeded from ``seed``."""
    tasks: list[Task] = []
    for i in range(deals):
        gid = games[i % len(games)]
        probe, _ = new_game(gid, seed=seed * 100_000 + i)
        seat = (i // len(games)) % probe.n_players
        tasks.append((gid, seed * 100_000 + i, seat, hard_budget, plant_worlds))
    return tasks


def _run(pair: tuple[Task, dict[str, Any] | None]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    task, played = pair
    played = played or play_task(task)
    return played, one_deal(task, played)


def _read_played(path: str) -> dict[tuple[Any, ...], dict[str, Any]]:
    out: dict[tuple[Any, ...], dict[str, Any]] = {}
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                try:
                    played = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut short by a stopped run
                out[tuple(played["task"])] = played
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=288)
    parser.add_argument("--games", default="all")
    parser.add_argument(
        "--hard-budget",
        type=float,
        default=HARD.soft,
        help=f"hard's soft CPU seconds a decision (default: production's, {HARD.soft}); "
        "0.05 reproduces the bench's figures before 29 November 2026",
    )
    parser.add_argument("--plant-worlds", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip", type=int, default=0, help="leave out the first N deals")
    parser.add_argument(
        "--only",
        default="",
        help="review only these game ids (comma-separated) among the bench's deals: the same "
        "seeds and seats as the whole bench, so a --played file of a whole run serves",
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--dump", default="", help="write every deal's figures here (JSON lines)")
    parser.add_argument(
        "--report", default="", help="only print the table of a --dump file (its deals so far)"
    )
    parser.add_argument(
        "--played", default="", help="read the played deals from here, write new ones here"
    )
    args = parser.parse_args(argv)
    games = game_ids() if args.games == "all" else args.games.split(",")
    if args.report:
        with open(args.report, encoding="utf-8") as fh:
            report([json.loads(line) for line in fh if line.strip()], games)
        return
    print(f"load before: {os.getloadavg()}", flush=True)
    soft, cap = hard_limits(args.hard_budget)
    print(f"hard plays at {soft:g} s a decision, {cap:g} s at most (CPU)", flush=True)
    tasks = bench_tasks(games, args.deals, args.seed, args.hard_budget, args.plant_worlds)
    tasks = tasks[args.skip :]
    if args.only:
        only = set(args.only.split(","))
        tasks = [t for t in tasks if t[0] in only]
    known = _read_played(args.played)
    pairs = [(t, known.get(tuple(t))) for t in tasks]
    print(f"deals read from {args.played}: {sum(p is not None for _, p in pairs)}", flush=True)
    results: list[dict[str, Any]] = []
    started = time.monotonic()
    keep = open(args.played, "a", encoding="utf-8") if args.played else None  # noqa: SIM115
    dump = open(args.dump, "w", encoding="utf-8") if args.dump else None  # noqa: SIM115
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for n, ((_, old), (played, r)) in enumerate(
            zip(pairs, pool.map(_run, pairs), strict=True), 1
        ):
            if keep is not None and old is None:
                keep.write(json.dumps(played) + "\n")
                keep.flush()
            if r is None:
                continue
            results.append(r)
            if dump is not None:
                dump.write(json.dumps(r) + "\n")
                dump.flush()
            print(
                f"{n:4d} {r['game']:22s} {r['time']:6.2f}s card {r.get('card_plant')} "
                f"call {r.get('call_plant')}",
                flush=True,
            )
    for written in (keep, dump):
        if written is not None:
            written.close()
    print(f"load after: {os.getloadavg()}; {time.monotonic() - started:.0f} s wall")
    report(results, games)


if __name__ == "__main__":
    main()
