"""Duplicate-match arena: two AI levels, the same deals played twice with seats swapped.

    python -m tools.arena --a hard --b normal --deals 2000 --game ruff-honours-cotton

Each board is one seeded deal (``new_game(rules=..., seed=s, first_dealer=d)``,
scores starting at 0), played once with A in seats 0/2 and once with A in
seats 1/3, so the cards cancel out. A deal's points for a side are its trick
points plus honour points (from :class:`engine.events.DealScored`). Prints A's
points-per-deal margin over B with a 95% confidence interval (over boards),
A's win rate in games to the target (duplicate pairs of whole games), and
decision times per level. Boards run in a process pool over every core.

Tables that are not four seats in two partnerships (Ruffe and Trump for three
or two, or single-handed; Turnover Bridge) rotate instead: a board is played
once with A in each seat and B in all the others, and A's margin in a play is
A's points minus the mean points of the B seats (for two players this is the
same swap of seats). A game pair becomes a game set, one game per seat of A.

    python -m tools.arena --a normal --b easy --deals 40 --games 0 \
        --game ruff-trump-willughby --set players=3

The search budgets run on the process's CPU time in the workers (``--clock
cpu``, the default; see :mod:`engine.ai.search.clock`): a budget then buys the same
search however busy the machine is, so results do not depend on what else
runs beside the arena. ``--clock wall`` measures them in wall time, as the bot
does. Decision times are reported both in wall time and on the budget clock.

``--record FILE`` keeps every finished board's margins in a JSON-lines file (a
header line with the match's settings, then one line a board, appended as each
board ends, with the CPU seconds the board took: :func:`read_cpu`): a later run with the same settings and ``--record`` plays only the
boards not in it yet and reports over all of them, so a long match can be
stopped and continued (``python -m tools.arena_all`` runs the issues'
matches this way). Decision times are those of the boards played in the run.

The outside baselines (:data:`engine.ai.BASELINE_LEVELS`, made by
:func:`engine.ai.baselines.arena_player`) play like any level: ``rules`` (the
conventional maxims), ``pimc`` (plain PIMC: uniform worlds solved double dummy,
``hard``'s solver and budget without its inference), ``ismcts`` (generic ISMCTS at ``hard``'s
CPU a decision) and ``oracle``, the one player the arena shows the whole game
(:meth:`engine.ai.OraclePlayer.choose_seeing`: every hand, for an upper bound);
every other level sees only its seat's view.

``--export FILE`` writes every play of every board as it ends, one JSON line
each: the board's seed, the dealer, every seat's level, the points per side and
the game's record (rules, seed, every decision in order; ``engine.game.replay``
rebuilds it), so anyone can check or re-run a match deal by deal.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine import DealScored, Game, GameOver, Rules, make_rules, new_game
from engine.ai import (
    BASELINE_LEVELS,
    LEVELS,
    TRIAL_LEVELS,
    OraclePlayer,
    Player,
    arena_player,
    clock,
)

__all__ = [
    "BoardResult",
    "RecordMismatch",
    "main",
    "margin_ci",
    "parse_overrides",
    "play_board",
    "play_game_pair",
    "read_cpu",
    "read_record",
]


@dataclass(slots=True)
class BoardResult:
    """One board (or game pair): A's margins and both levels' decision times."""

    seed: int
    margins: list[float]  # A's points minus B's points, per play (one per seating)
    a_wins: int = 0  # games won by A (game pairs only)
    games: int = 0
    times: dict[str, list[float]] = field(default_factory=dict)  # wall seconds
    clock_times: dict[str, list[float]] = field(default_factory=dict)  # budget-clock seconds
    decisions: dict[str, int] = field(default_factory=dict)
    plays: list[dict[str, object]] = field(default_factory=list)  # with --export: every play
    cpu: float = 0.0  # the worker's CPU seconds for the whole board (every seating)


_players: dict[str, Player] = {}
_config: dict[str, object] = {}


def _init(
    levels: Sequence[str], budgets: dict[str, float], clock_name: str = "wall", export: bool = False
) -> None:
    """A worker's start: the budget clock first, then the players."""
    clock.use(clock_name)
    _config["export"] = export
    for level in levels:
        _players[level] = arena_player(level, budget=budgets.get(level))


def _player(level: str) -> Player:
    player = _players.get(level)
    if player is None:
        player = _players[level] = arena_player(level)
    return player


def _play(
    rules: Rules,
    seed: int,
    dealer: int,
    seat_levels: Sequence[str],
    result: BoardResult,
    whole_game: bool,
) -> tuple[list[int], int | None]:
    """Play one deal (or a whole game); returns points per side and the game winner."""
    game, _ = new_game(rules=rules, seed=seed, first_dealer=dealer)
    rng = random.Random(seed * 31 + (1 if seat_levels[0] != seat_levels[1] else 0))
    points = [0] * len(game.scores)
    while True:
        seat = game.to_act()
        if seat is None:
            _export(game, seed, dealer, seat_levels, points, result)
            return points, game.match_winner
        level = seat_levels[seat]
        view = game.observe(seat)
        legal = view.legal
        start = time.perf_counter()
        on_clock = clock.now()
        player = _player(level)
        if isinstance(player, OraclePlayer):  # the upper bound sees every hand
            action = player.choose_seeing(game, view, legal, rng)
        else:
            action = player.choose(view, legal, rng)
        took = time.perf_counter() - start
        if len(legal) > 1:
            result.times.setdefault(level, []).append(took)
            result.clock_times.setdefault(level, []).append(clock.now() - on_clock)
        result.decisions[level] = result.decisions.get(level, 0) + 1
        events = game.apply(seat, action)
        for event in events:
            if isinstance(event, DealScored):
                for side in range(len(points)):
                    points[side] += event.trick_points[side] + event.honour_points[side]
                if not whole_game:
                    _export(game, seed, dealer, seat_levels, points, result)
                    return points, None
            if isinstance(event, GameOver) and whole_game:
                _export(game, seed, dealer, seat_levels, points, result)
                return points, event.winner


def _export(
    game: Game,
    seed: int,
    dealer: int,
    seat_levels: Sequence[str],
    points: list[int],
    result: BoardResult,
) -> None:
    """With ``--export``: keep the play (its settings and the game's full record)."""
    if _config.get("export"):
        result.plays.append(
            {
                "seed": seed,
                "dealer": dealer,
                "levels": list(seat_levels),
                "points": list(points),
                "record": game.to_record(),
            }
        )


def _rotates(rules: Rules) -> bool:
    """Whether boards rotate A through the seats (not four seats in two partnerships)."""
    return not (rules.players == 4 and rules.partnerships)


def _rotations(rules: Rules, a: str, b: str) -> list[tuple[int, list[str]]]:
    """Per play of a rotating board: A's seat and every seat's level."""
    n = rules.players
    return [(k, [a if s == k else b for s in range(n)]) for k in range(n)]


def _margin(points: list[int], a_seat: int) -> float:
    """A's points minus the mean points of the other seats (each seat is its own side)."""
    others = [p for s, p in enumerate(points) if s != a_seat]
    return float(points[a_seat] - sum(others) / len(others))


def play_board(task: tuple[str, str, Rules, int]) -> BoardResult:
    """Both seatings of one seeded deal (every rotation, on a rotating table)."""
    a, b, rules, seed = task
    result = BoardResult(seed, [])
    start = time.process_time()
    if _rotates(rules):
        for a_seat, seats in _rotations(rules, a, b):
            points, _ = _play(rules, seed, seed % rules.players, seats, result, whole_game=False)
            result.margins.append(_margin(points, a_seat))
    else:
        dealer = seed % 4
        for a_side in (0, 1):
            seats = [a if s % 2 == a_side else b for s in range(4)]
            points, _ = _play(rules, seed, dealer, seats, result, whole_game=False)
            result.margins.append(float(points[a_side] - points[1 - a_side]))
    result.cpu = time.process_time() - start
    return result


def play_game_pair(task: tuple[str, str, Rules, int]) -> BoardResult:
    """Both seatings of one seeded game to the target (every rotation, on a rotating table)."""
    a, b, rules, seed = task
    result = BoardResult(seed, [])
    if _rotates(rules):
        for a_seat, seats in _rotations(rules, a, b):
            points, winner = _play(
                rules, seed, seed % rules.players, seats, result, whole_game=True
            )
            result.games += 1
            if winner == a_seat:
                result.a_wins += 1
        return result
    dealer = seed % 4
    for a_side in (0, 1):
        seats = [a if s % 2 == a_side else b for s in range(4)]
        points, winner = _play(rules, seed, dealer, seats, result, whole_game=True)
        result.games += 1
        if winner == a_side:
            result.a_wins += 1
    return result


class RecordMismatch(ValueError):
    """A record file kept for a match with other settings."""


def read_record(path: str, header: dict[str, object] | None = None) -> dict[int, list[float]]:
    """The boards kept in the record file ``path``: margins by board seed.

    A missing or empty file holds none. When ``header`` is given, the file's
    header must equal it (raises :class:`RecordMismatch` otherwise); a file
    without one gets ``header`` written first. A last line cut short (the run
    was stopped mid-write) is ignored.
    """
    boards: dict[int, list[float]] = {}
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except FileNotFoundError:
        lines = []
    kept: dict[str, object] | None = None
    for line in lines:
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            continue
        if "header" in item:
            kept = item["header"]
        elif "seed" in item:
            boards[int(item["seed"])] = [float(m) for m in item["margins"]]
    if header is not None:
        if kept is None:
            if boards:
                raise RecordMismatch(f"{path}: boards without a header line")
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(json.dumps({"header": header}, sort_keys=True) + "\n")
        elif kept != header:
            raise RecordMismatch(f"{path} was kept for {kept}, not {header}")
    return boards


def read_cpu(path: str) -> dict[int, float]:
    """The CPU seconds each board of the record file ``path`` took (boards kept with it)."""
    found: dict[int, float] = {}
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except FileNotFoundError:
        return found
    for line in lines:
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            continue
        if "seed" in item and "cpu" in item:
            found[int(item["seed"])] = float(item["cpu"])
    return found


def margin_ci(per_board: Sequence[float]) -> tuple[float, float]:
    """The mean of the boards' margins and the half-width of its 95% confidence interval."""
    n = len(per_board)
    mean = sum(per_board) / n if n else float("nan")
    var = sum((x - mean) ** 2 for x in per_board) / (n - 1) if n > 1 else float("nan")
    return mean, 1.96 * math.sqrt(var / n) if n > 1 else float("nan")


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))
    return values[k]


def _run(
    pool_fn: Callable[[tuple[str, str, Rules, int]], BoardResult],
    tasks: list[tuple[str, str, Rules, int]],
    label: str,
    workers: int,
    levels: Sequence[str],
    budgets: dict[str, float],
    quiet: bool,
    clock_name: str = "wall",
    on_result: Callable[[BoardResult], None] | None = None,
    export: bool = False,
) -> list[BoardResult]:
    results: list[BoardResult] = []
    start = time.perf_counter()
    step = max(1, len(tasks) // 50)
    ctx = mp.get_context("fork") if sys.platform != "win32" else mp.get_context()
    with ctx.Pool(
        workers, initializer=_init, initargs=(list(levels), budgets, clock_name, export)
    ) as pool:
        for result in pool.imap_unordered(pool_fn, tasks, chunksize=1):
            results.append(result)
            if on_result is not None:
                on_result(result)
            done = len(results)
            if not quiet and (done % step == 0 or done == len(tasks)):
                elapsed = time.perf_counter() - start
                eta = elapsed / done * (len(tasks) - done)
                margins = [m for r in results for m in r.margins]
                running = f" margin {sum(margins) / len(margins):+.3f}" if margins else ""
                wins = sum(r.a_wins for r in results)
                games = sum(r.games for r in results)
                running += f" A wins {wins}/{games}" if games else ""
                print(
                    f"  {label} {done}/{len(tasks)}  {elapsed:6.0f}s elapsed, ~{eta:5.0f}s left{running}",
                    file=sys.stderr,
                    flush=True,
                )
    return results


def parse_overrides(items: Sequence[str]) -> dict[str, object]:
    """``["players=3", "mode=single_hand"]`` -> rule overrides (whole numbers as ints)."""
    overrides: dict[str, object] = {}
    for item in items:
        name, _, value = item.partition("=")
        overrides[name] = int(value) if value.lstrip("-").isdigit() else value
    return overrides


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.arena", description=__doc__.split("\n")[0]
    )
    known = LEVELS + TRIAL_LEVELS + BASELINE_LEVELS
    parser.add_argument("--a", default="hard", choices=known)
    parser.add_argument("--b", default="normal", choices=known)
    parser.add_argument("--deals", type=int, default=2000, help="boards (each played twice)")
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="game pairs to the target for the win rate (default deals/20)",
    )
    parser.add_argument("--game", default="ruff-honours-cotton")
    parser.add_argument("--preset", default=None)
    parser.add_argument("--seed", type=int, default=1, help="first board seed")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--budget-a", type=float, default=None, help="A's soft search budget (s)")
    parser.add_argument("--budget-b", type=float, default=None, help="B's soft search budget (s)")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule parameter override, e.g. players=3 (repeatable)",
    )
    parser.add_argument(
        "--clock",
        default="cpu",
        choices=sorted(clock.CLOCKS),
        help="what the search budgets measure in the workers: the process's CPU time "
        "(default; results independent of the machine's load) or wall time (as the bot)",
    )
    parser.add_argument(
        "--record",
        default=None,
        metavar="FILE",
        help="keep each board's margins in FILE (JSON lines) and skip the boards already there",
    )
    parser.add_argument(
        "--export",
        default=None,
        metavar="FILE",
        help="append every play (seed, dealer, seats' levels, points, the game's record "
        "with every decision) to FILE as JSON lines",
    )
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)

    overrides = parse_overrides(args.set)
    rules = make_rules(args.game, args.preset, overrides or None)
    budgets: dict[str, float] = {}
    if args.budget_a is not None:
        budgets[args.a] = args.budget_a
    if args.budget_b is not None:
        budgets[args.b] = args.budget_b
    levels = sorted({args.a, args.b})
    games = args.deals // 20 if args.games is None else args.games
    seatings = rules.players if _rotates(rules) else 2
    seeds = [args.seed + i for i in range(args.deals)]
    recorded: dict[int, list[float]] = {}
    record = None
    if args.record:
        header: dict[str, object] = {
            "a": args.a,
            "b": args.b,
            "game": rules.game_id,
            "preset": rules.preset,
            "set": sorted(args.set),
            "clock": args.clock,
            "budgets": {k: budgets[k] for k in sorted(budgets)},
        }
        try:
            recorded = read_record(args.record, header)
        except RecordMismatch as exc:
            print(f"arena: {exc}", file=sys.stderr)
            return 2
        record = open(args.record, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the run
    todo = [s for s in seeds if s not in recorded]

    export = open(args.export, "a", encoding="utf-8") if args.export else None  # noqa: SIM115

    def keep(result: BoardResult) -> None:
        # the plays before the record: a board in the record always has its plays (a run
        # stopped between the two plays that board again, so a seed's last plays count)
        if export is not None:
            for item in result.plays:
                export.write(json.dumps(item, sort_keys=True) + "\n")
            export.flush()
        if record is not None:
            line = {"seed": result.seed, "margins": result.margins, "cpu": round(result.cpu, 3)}
            record.write(json.dumps(line) + "\n")
            record.flush()

    print(
        f"arena: A={args.a} vs B={args.b}, {rules.game_id}/{rules.preset}, "
        f"{args.deals} boards x {seatings} seatings, {games} game {'sets' if _rotates(rules) else 'pairs'} to {rules.target_score}, "
        f"{args.workers} workers, budgets on the {args.clock} clock",
        flush=True,
    )
    if args.record:
        print(
            f"record {args.record}: {args.deals - len(todo)} of these boards kept already, "
            f"{len(todo)} to play",
            flush=True,
        )
    started = time.perf_counter()
    try:
        played = _run(
            play_board,
            [(args.a, args.b, rules, s) for s in todo],
            "boards",
            args.workers,
            levels,
            budgets,
            args.quiet,
            args.clock,
            keep,
            export is not None,
        )
    finally:
        if record is not None:
            record.close()
        if export is not None:
            export.close()
    by_seed = {s: recorded[s] for s in seeds if s in recorded}
    by_seed.update((r.seed, r.margins) for r in played)
    boards = [BoardResult(s, by_seed[s]) for s in seeds if s in by_seed]
    pairs = (
        _run(
            play_game_pair,
            [(args.a, args.b, rules, 1_000_000 + args.seed + i) for i in range(games)],
            "games",
            args.workers,
            levels,
            budgets,
            args.quiet,
            args.clock,
        )
        if games
        else []
    )
    wall = time.perf_counter() - started
    if not boards:
        print("arena: no boards played", file=sys.stderr)
        return 1

    per_board = [sum(r.margins) / len(r.margins) for r in boards]
    n = len(per_board)
    mean, half = margin_ci(per_board)
    print()
    sets = f"; set {' '.join(args.set)}" if args.set else ""
    print(
        f"A = {args.a}, B = {args.b}; {rules.game_id} ({rules.preset}{sets}); {n} boards, {seatings * n} deals"
    )
    if args.record:
        print(
            f"  ({n - len(played)} boards from the record {args.record}, {len(played)} played now)"
        )
    print(
        f"  points per deal, A - B: {mean:+.3f}  (95% CI {mean - half:+.3f} .. {mean + half:+.3f})"
    )
    a_pts = sum(sum(r.margins) for r in boards)
    print(
        f"  (sum of margins {a_pts:+.0f}; boards A better {sum(x > 0 for x in per_board)}, "
        f"equal {sum(x == 0 for x in per_board)}, worse {sum(x < 0 for x in per_board)})"
    )
    if pairs:
        wins = sum(r.a_wins for r in pairs)
        total = sum(r.games for r in pairs)
        p = wins / total
        ci = 1.96 * math.sqrt(p * (1 - p) / total)
        print(
            f"  games to {rules.target_score}: A won {wins}/{total} = {100 * p:.1f}% "
            f"(95% CI {100 * (p - ci):.1f}% .. {100 * (p + ci):.1f}%)"
        )
    clock_label = "process CPU time" if args.clock == "cpu" else "wall time"
    print(
        f"  decision time (decisions with a real choice; wall time, and on the budget "
        f"clock = {args.clock}, {clock_label}; boards played in this run):"
    )
    for level in levels:
        times = [t for r in (*played, *pairs) for t in r.times.get(level, [])]
        decisions = sum(r.decisions.get(level, 0) for r in (*played, *pairs))
        print(
            f"    {level:<7} n={len(times):<7} p50 {1e3 * _pct(times, 0.5):7.1f} ms"
            f"  p95 {1e3 * _pct(times, 0.95):7.1f} ms  max {1e3 * max(times, default=float('nan')):7.1f} ms"
            f"  ({decisions} calls in all; wall)"
        )
        on_clock = [t for r in (*played, *pairs) for t in r.clock_times.get(level, [])]
        print(
            f"    {'':<7} {'':<9} p50 {1e3 * _pct(on_clock, 0.5):7.1f} ms"
            f"  p95 {1e3 * _pct(on_clock, 0.95):7.1f} ms  max {1e3 * max(on_clock, default=float('nan')):7.1f} ms"
            f"  ({args.clock} clock)"
        )
    if played:
        cpu = [r.cpu for r in played]
        print(
            f"  CPU per board (both levels, every seating; boards played in this run): "
            f"mean {sum(cpu) / len(cpu):.2f} s, max {max(cpu):.2f} s, "
            f"{sum(cpu) / len(cpu) * 1000 / 3600:.2f} core-hours per 1000 boards"
        )
    print(f"  wall time {wall:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
