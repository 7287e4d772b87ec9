"""Double-dummy regret of each level, from the arena's exported plays.

    python -m tools.dd_regret docs/arena/plays/whist-5-normal-vs-oracle.jsonl.gz \\
        docs/arena/unfinished/plays/whist-5-hard-vs-rules.jsonl.gz [--levels hard,rules]
    python -m tools.dd_regret --table docs/arena/regret.md [--limit 500] [--runs DIR] [--jobs 2]
    python -m tools.dd_regret whist-5-hard-vs-pimc.jsonl --pair hard,pimc

``--table`` writes the arena's regret table (:func:`arena_table`): for whist-5 and
cotton1674, each of hard, normal, plain PIMC and rules from the matches that played
it (:data:`SOURCES`: hard's plays of its matches against rules and PIMC pooled,
normal's of its match against the oracle), each match's plays read from the runner's
folder when a match is under way there (``tools/arena_runs/plays/``), else the
published ones (``docs/arena/unfinished/plays/``, ``docs/arena/plays/``).

Hard and plain PIMC are also compared **on the same boards** (:func:`paired`,
``--pair hard,pimc`` for plays files): every board of their match played in both
seatings, each level's regret per seat-deal averaged on the board, the rows' CIs
over the boards, and how much lower hard's regret is than PIMC's as a share of
PIMC's (``1 - hard / pimc``) with a bootstrap CI over the boards. The issue's goal is
that share at 25% or more.

A card's regret is the tricks its side gives away by it against the best
double-dummy card from the same position: with every hand known (the exported
record rebuilds the deal), DDS gives the tricks the side to play takes from
there after each legal card, and the regret is the best of those less the
chosen card's. A level's regret per deal is the sum over one seat's cards in a
deal, averaged over every seat that level held (two seats a play at a
partnership table), so it reads as "tricks a player of this level throws away
in a deal by its own decisions", the others' errors aside. The table splits it
by trick number (the tricks' columns add up to the total) and gives a 95% CI
over the seat-deals.

The sum telescopes: a side's tricks at the end of the deal are its
double-dummy tricks at the first card, less its own regrets, plus the
opponents' (:func:`regrets_of_play` is tested on that).

Only four-handed partnership tables without layouts are measured (whist-5,
cotton1674, Ruffe and Trump double hand): there DDS is exact. A board's plays
written twice (a run stopped between its plays and its record line) count once,
the last written. Needs DDS (``endplay``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import random
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from engine import Game, Play, decode_action
from engine.ai.coach.records import start_of
from engine.ai.search import dds
from engine.ai.search.bitmasks import NO_TRUMP
from engine.ai.search.determinized import honour_counts
from engine.ai.search.value import value_table
from engine.ai.search.worlds import situation

__all__ = [
    "measurable",
    "FORMS",
    "PAIRED",
    "SOURCES",
    "Paired",
    "Regret",
    "SeatDeal",
    "Tally",
    "arena_table",
    "goal_verdict",
    "main",
    "paired",
    "paired_table",
    "read_plays",
    "regrets_of_play",
    "seat_deals",
    "seat_deals_of_plays",
    "tally",
    "tally_of",
]

ROOT: Final = Path(__file__).resolve().parents[1]
FORMS: Final = ("whist-5", "cotton1674")
SOURCES: Final[dict[str, tuple[str, ...]]] = {
    "hard": ("hard-vs-rules", "hard-vs-pimc"),
    "normal": ("normal-vs-oracle",),
    "pimc": ("hard-vs-pimc",),
    "rules": ("hard-vs-rules",),
}
"""Each level's regret is read from the plays of these matches (A-vs-B names)."""


@dataclass(frozen=True, slots=True)
class Regret:
    """One card's regret: who played it, in which trick (1-based), the tricks lost."""

    seat: int
    trick: int
    tricks: int
    points: float = 0.0  # the same loss in hard's objective (the deal's points, a game won)


@dataclass(slots=True)
class Tally:
    """A level's regrets: per seat-deal totals, and the sums by trick number."""

    per_deal: list[int] = field(default_factory=list)
    by_trick: dict[int, int] = field(default_factory=dict)
    cards: int = 0
    points: list[float] = field(default_factory=list)  # per seat-deal, in hard's objective

    def mean(self) -> tuple[float, float]:
        """Mean regret per seat-deal, and the half-width of its 95% CI."""
        n = len(self.per_deal)
        if not n:
            return float("nan"), float("nan")
        mean = sum(self.per_deal) / n
        if n < 2:
            return mean, float("nan")
        var = sum((x - mean) ** 2 for x in self.per_deal) / (n - 1)
        return mean, 1.96 * math.sqrt(var / n)


def measurable(game: Game) -> bool:
    """Whether DDS values the card play of ``game`` exactly (four seats, two partnerships
    opposite, no layout)."""
    rules = game.rules
    return rules.players == 4 and bool(rules.partnerships) and game.layout is None


def regrets_of_play(record: Mapping[str, Any], seats: Iterable[int] = range(4)) -> list[Regret]:
    """Every card of ``seats`` in the record's deal with its double-dummy regret.

    Cards with one legal choice are left out (their regret is 0).
    """
    wanted = set(seats)
    game = start_of(record)
    if not measurable(game):
        raise ValueError(f"{game.rules.game_id}: DDS does not value this table's play")
    cards_played = 0
    out: list[Regret] = []
    for entry in record.get("actions", []):
        seat_text, _, action_text = str(entry).partition(" ")
        seat = int(seat_text)
        action = decode_action(action_text)
        if isinstance(action, Play):
            if seat in wanted and sum(isinstance(a, Play) for a in game.legal_actions(seat)) > 1:
                trump = game.trump.order if game.trump is not None else NO_TRUMP
                values = dds.solve_cards(
                    list(game.hands[:4]), game.leader, [c.index for c in game.trick], trump
                )
                best = max(values.values())
                chosen = values[action.card.index]
                sit = situation(game.observe(seat))
                side = seat % 2
                counts = honour_counts(sit, list(game.hands[:4]))
                worth = value_table(sit.rules, side, sit.start_scores, counts)
                now = sit.tricks[side]
                points = worth[now + best] - worth[now + chosen]
                out.append(Regret(seat, cards_played // 4 + 1, best - chosen, points))
            cards_played += 1
        game.apply(seat, action)
    return out


def read_plays(paths: Sequence[str]) -> Iterator[dict[str, Any]]:
    """The exported plays of ``paths`` (JSON lines, gzipped when the name ends in .gz),
    a board's seating counted once (the last written)."""
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        kept: dict[tuple[int, tuple[str, ...]], dict[str, Any]] = {}
        with opener(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                line = line.strip()
                if not line:
                    continue
                try:
                    play = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut short by a stopped run
                kept[(int(play["seed"]), tuple(play["levels"]))] = play
        yield from kept.values()


@dataclass(frozen=True, slots=True)
class SeatDeal:
    """One seat's regrets in one play: its level, the tricks and points its cards lost,
    and the tricks by trick number."""

    level: str
    seat: int
    tricks: int
    points: float
    by_trick: tuple[tuple[int, int], ...]
    cards: int


def seat_deals(play: Mapping[str, Any], levels: Iterable[str] | None = None) -> list[SeatDeal]:
    """The seat-deals of ``play`` held by ``levels`` (all when None), each with its regrets."""
    wanted = None if levels is None else set(levels)
    seat_levels: list[str] = list(play["levels"])
    seats = [s for s, lv in enumerate(seat_levels) if wanted is None or lv in wanted]
    if not seats:
        return []
    regrets = regrets_of_play(play["record"], seats)
    out = []
    for s in seats:
        mine = [r for r in regrets if r.seat == s]
        by_trick: dict[int, int] = {}
        for r in mine:
            by_trick[r.trick] = by_trick.get(r.trick, 0) + r.tricks
        out.append(
            SeatDeal(
                seat_levels[s],
                s,
                sum(r.tricks for r in mine),
                sum(r.points for r in mine),
                tuple(sorted(by_trick.items())),
                len(mine),
            )
        )
    return out


def _seat_deals_of(job: tuple[Mapping[str, Any], list[str] | None]) -> list[SeatDeal]:
    return seat_deals(*job)


def seat_deals_of_plays(
    plays: Sequence[Mapping[str, Any]], levels: Iterable[str] | None = None, jobs: int = 1
) -> list[list[SeatDeal]]:
    """:func:`seat_deals` of every play, in order (``jobs`` processes)."""
    wanted = None if levels is None else list(levels)
    work = [(play, wanted) for play in plays]
    if jobs <= 1:
        return [_seat_deals_of(job) for job in work]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(_seat_deals_of, work, chunksize=8))


def tally_of(per_play: Iterable[Sequence[SeatDeal]]) -> dict[str, Tally]:
    """Each level's tally of the seat-deals (:func:`seat_deals`) of some plays."""
    out: dict[str, Tally] = {}
    for deals in per_play:
        for d in deals:
            t = out.setdefault(d.level, Tally())
            t.per_deal.append(d.tricks)
            t.points.append(d.points)
            t.cards += d.cards
            for k, v in d.by_trick:
                t.by_trick[k] = t.by_trick.get(k, 0) + v
    return out


def tally(
    plays: Iterable[Mapping[str, Any]], levels: Iterable[str] | None = None, jobs: int = 1
) -> dict[str, Tally]:
    """Each level's regrets over ``plays`` (only ``levels`` when given)."""
    return tally_of(seat_deals_of_plays(list(plays), levels, jobs))


def table(tallies: Mapping[str, Tally], tricks: int = 13) -> list[str]:
    """The regret table in Markdown: one row a level."""
    head = "| level | seat-deals | regret per deal | 95% CI | in points | " + " | ".join(
        f"t{k}" for k in range(1, tricks + 1)
    )
    lines = [head + " |", "|---|---:|---:|---|---:|" + "---:|" * tricks]
    for level in sorted(tallies):
        t = tallies[level]
        mean, half = t.mean()
        n = len(t.per_deal)
        cells = [f"{t.by_trick.get(k, 0) / n:.3f}" if n else "—" for k in range(1, tricks + 1)]
        points = sum(t.points) / len(t.points) if t.points else float("nan")
        lines.append(
            f"| {level} | {n} | {mean:.3f} | {mean - half:.3f} .. {mean + half:.3f} | "
            f"{points:.3f} | " + " | ".join(cells) + " |"
        )
    return lines


@dataclass(slots=True)
class Paired:
    """Two levels' regrets on the same boards (both seatings of each board played):
    each level's tally there, and its mean per seat-deal on each board, in order."""

    a: str
    b: str
    tallies: dict[str, Tally]
    tricks: dict[str, list[float]]  # a level's mean regret a seat-deal, board by board
    points: dict[str, list[float]]  # the same in points

    @property
    def boards(self) -> int:
        return len(self.tricks[self.a])

    def reduction(self, unit: str = "tricks", resamples: int = 2000) -> tuple[float, float, float]:
        """How much lower ``a``'s regret is than ``b``'s, as a share of ``b``'s
        (``1 - a / b``), with a 95% bootstrap CI over the boards (each board's two
        figures resampled together; a fixed seed, so the same plays give the same CI)."""
        per = self.tricks if unit == "tricks" else self.points
        xs, ys = per[self.a], per[self.b]
        n = len(xs)
        if not n or sum(ys) <= 0:
            return float("nan"), float("nan"), float("nan")
        share = 1 - sum(xs) / sum(ys)
        rng = random.Random(0)
        found = []
        for _ in range(resamples):
            picks = [rng.randrange(n) for _ in range(n)]
            bottom = sum(ys[i] for i in picks)
            if bottom > 0:
                found.append(1 - sum(xs[i] for i in picks) / bottom)
        found.sort()
        if not found:
            return share, float("nan"), float("nan")
        return share, found[int(0.025 * len(found))], found[int(0.975 * len(found)) - 1]

    def difference(self, unit: str = "tricks") -> tuple[float, float]:
        """``b``'s regret less ``a``'s, a deal, board by board: the mean and its 95% CI's
        half-width."""
        per = self.tricks if unit == "tricks" else self.points
        return _mean_ci([y - x for x, y in zip(per[self.a], per[self.b], strict=True)])


def _mean_ci(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    if not n:
        return float("nan"), float("nan")
    mean = sum(xs) / n
    if n < 2:
        return mean, float("nan")
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def paired(
    plays: Sequence[Mapping[str, Any]], per_play: Sequence[Sequence[SeatDeal]], a: str, b: str
) -> Paired:
    """``a`` and ``b`` on the boards of ``plays`` where both seatings were played (their
    seat-deals: ``per_play``, :func:`seat_deals` of each play), a board counted once."""
    boards: dict[int, dict[tuple[str, ...], Sequence[SeatDeal]]] = {}
    for play, deals in zip(plays, per_play, strict=True):
        boards.setdefault(int(play["seed"]), {})[tuple(play["levels"])] = deals
    out = Paired(a, b, {a: Tally(), b: Tally()}, {a: [], b: []}, {a: [], b: []})
    for seed in sorted(boards):
        seatings = boards[seed]
        if len(seatings) < 2:
            continue  # one seating only: the deal's cards do not cancel out
        deals = [d for ds in seatings.values() for d in ds]
        if not {a, b} <= {d.level for d in deals}:
            continue
        for level in (a, b):
            mine = [d for d in deals if d.level == level]
            out.tricks[level].append(sum(d.tricks for d in mine) / len(mine))
            out.points[level].append(sum(d.points for d in mine) / len(mine))
            _merge(out.tallies[level], tally_of([mine])[level])
    return out


def paired_table(pair: Paired, tricks: int = 13) -> list[str]:
    """The two levels' rows on the same boards (CIs over the boards), and how far apart."""
    head = "| level | boards | seat-deals | regret per deal | 95% CI | in points | " + " | ".join(
        f"t{k}" for k in range(1, tricks + 1)
    )
    lines = [head + " |", "|---|---:|---:|---:|---|---:|" + "---:|" * tricks]
    for level in (pair.a, pair.b):
        t = pair.tallies[level]
        n = len(t.per_deal)
        mean, half = _mean_ci(pair.tricks[level])
        points, _ = _mean_ci(pair.points[level])
        cells = [f"{t.by_trick.get(k, 0) / n:.3f}" if n else "—" for k in range(1, tricks + 1)]
        lines.append(
            f"| {level} | {pair.boards} | {n} | {mean:.3f} | {mean - half:.3f} .. "
            f"{mean + half:.3f} | {points:.3f} | " + " | ".join(cells) + " |"
        )
    diff, dhalf = pair.difference()
    pdiff, phalf = pair.difference("points")
    share, low, high = pair.reduction()
    pshare, plow, phigh = pair.reduction("points")
    lines += [
        "",
        f"{pair.b} less {pair.a}, board by board: {diff:+.3f} tricks a deal "
        f"({diff - dhalf:+.3f} .. {diff + dhalf:+.3f}), {pdiff:+.3f} points "
        f"({pdiff - phalf:+.3f} .. {pdiff + phalf:+.3f}). {pair.a}'s regret is "
        f"**{100 * share:.0f}%** below {pair.b}'s in tricks (95% bootstrap CI "
        f"{100 * low:.0f}% .. {100 * high:.0f}%), {100 * pshare:.0f}% in points "
        f"({100 * plow:.0f}% .. {100 * phigh:.0f}%).",
    ]
    return lines


def goal_verdict(pair: Paired, goal: float = 0.25) -> str:
    """Whether ``a``'s regret is at least ``goal`` below ``b``'s (tricks), by the CI."""
    share, low, high = pair.reduction()
    if low >= goal:
        return f"holds: even the CI's low end is {100 * low:.0f}%"
    if high < goal:
        return f"does not hold: even the CI's high end is {100 * high:.0f}%"
    if share >= goal:
        return "is met by the estimate, but the CI reaches below it: not settled"
    return "is not met by the estimate, and the CI reaches above it: not settled"


def _merge(into: Tally, more: Tally) -> None:
    into.per_deal += more.per_deal
    into.points += more.points
    into.cards += more.cards
    for k, v in more.by_trick.items():
        into.by_trick[k] = into.by_trick.get(k, 0) + v


PAIRED: Final[dict[str, tuple[str, str]]] = {"hard-vs-pimc": ("hard", "pimc")}
"""Matches whose two levels are also compared on the same boards (:func:`paired`)."""


def _plays_file(match: str, root: Path = ROOT, runs: Path | None = None) -> Path | None:
    """Where the plays of ``match`` are: under way in the runner's folder (``runs``, by
    default ``tools/arena_runs/``), else published."""
    for path in (
        (runs or root / "tools" / "arena_runs") / "plays" / f"{match}.jsonl",
        root / "docs" / "arena" / "unfinished" / "plays" / f"{match}.jsonl.gz",
        root / "docs" / "arena" / "plays" / f"{match}.jsonl.gz",
    ):
        if path.exists():
            return path
    return None


def arena_table(
    limit: int = 0, root: Path = ROOT, runs: Path | None = None, jobs: int = 1
) -> list[str]:
    """The arena's regret section in Markdown: a table a form (see the module docstring);
    ``limit``: at most that many plays of a match (the first ones) in that table; the
    matches of :data:`PAIRED` are then compared on every board both seatings played."""
    lines = [
        "### Double-dummy regret",
        "",
        "Tricks a player's own cards lose against the best double-dummy card from the",
        "same position (every hand known), per seat and deal, with a 95% CI over the",
        "seat-deals, and split by trick (`python -m tools.dd_regret`; the columns t1 ..",
        "t13 add up to the total); *in points*: the same cards' loss in hard's objective",
        "(the deal's points for the side less the other's, a game won counting 8 more:",
        "`engine/ai/search/value.py`), which is 0 where a trick lost changes no score.",
        "Each level's plays: "
        + "; ".join(f"{lv} from {', '.join(SOURCES[lv])}" for lv in sorted(SOURCES))
        + " (the matches so far). Written by",
        "",
        "    python -m tools.dd_regret --table docs/arena/regret.md"
        + (f" --limit {limit}" if limit else ""),
        "",
    ]
    for form in FORMS:
        tallies: dict[str, Tally] = {}
        used: list[str] = []
        pairs: list[tuple[str, Paired | None]] = []
        matches = sorted({m for ms in SOURCES.values() for m in ms})
        for match in matches:
            path = _plays_file(f"{form}-{match}", root, runs)
            if path is None:
                if match in PAIRED:
                    pairs.append((match, None))
                continue
            plays = list(read_plays([str(path)]))
            todo = plays if match in PAIRED or not limit else plays[:limit]
            levels = [lv for lv, ms in SOURCES.items() if match in ms]
            per_play = seat_deals_of_plays(todo, levels, jobs)  # each play replayed once
            found = tally_of(per_play[:limit] if limit else per_play)
            for level, t in found.items():
                _merge(tallies.setdefault(level, Tally()), t)
            if found:
                used.append(f"{match} {min(len(todo), limit or len(todo))} plays")
            if match in PAIRED:
                pairs.append((match, paired(todo, per_play, *PAIRED[match])))
        lines += [f"#### {form}", ""]
        if not tallies:
            lines += ["No plays yet.", ""]
        else:
            lines += table(tallies)
            lines += ["", "Plays read: " + ", ".join(sorted(set(used))) + ".", ""]
        for match, pair in pairs:
            a, b = PAIRED[match]
            lines += [f"##### {a} and {b} on the same boards ({form})", ""]
            if pair is None or not pair.boards:
                lines += [
                    f"No {match} plays of {form} yet (its match has not started): no "
                    f"{b} row, and no comparison.",
                    "",
                ]
                continue
            lines += [
                f"Every board of {match} played in both seatings ({pair.boards} boards:"
                f" {a}'s and {b}'s seat-deals of the very same deals; the CIs over the"
                " boards):",
                "",
                *paired_table(pair),
                "",
                f"The goal, {a}'s regret at least 25% below {b}'s, {goal_verdict(pair)}.",
                "",
            ]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.dd_regret", description=__doc__.split("\n")[0]
    )
    parser.add_argument("plays", nargs="*", help="exported plays (.jsonl or .jsonl.gz)")
    parser.add_argument(
        "--table", default=None, metavar="FILE", help="write the arena's regret table to FILE"
    )
    parser.add_argument("--levels", default=None, help="comma-separated levels (default all)")
    parser.add_argument("--limit", type=int, default=0, help="at most this many plays a file")
    parser.add_argument(
        "--runs",
        default=None,
        metavar="DIR",
        help="the arena runner's folder, whose plays/ hold matches under way "
        "(default tools/arena_runs)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes replaying the plays")
    parser.add_argument(
        "--pair", default=None, metavar="A,B", help="compare A and B on the same boards too"
    )
    args = parser.parse_args(argv)
    if not dds.available():
        print("dd_regret: DDS (endplay) is not available", file=sys.stderr)
        return 2
    if args.table:
        runs = None if args.runs is None else Path(args.runs)
        text = "\n".join(arena_table(args.limit, runs=runs, jobs=args.jobs)) + "\n"
        Path(args.table).write_text(text, encoding="utf-8")
        print(text)
        return 0
    if not args.plays:
        parser.error("give plays files, or --table")
    levels = None if args.levels is None else [x for x in args.levels.split(",") if x]
    tallies: dict[str, Tally] = {}
    every: list[dict[str, Any]] = []
    per_play: list[list[SeatDeal]] = []
    for path in args.plays:
        plays = list(read_plays([path]))
        if args.limit:
            plays = plays[: args.limit]
        found = seat_deals_of_plays(plays, levels, args.jobs)
        every += plays
        per_play += found
        for level, t in tally_of(found).items():
            _merge(tallies.setdefault(level, Tally()), t)
        print(f"dd_regret: {path}: {len(plays)} plays", file=sys.stderr, flush=True)
    print("\n".join(table(tallies)))
    if args.pair:
        a, b = args.pair.split(",")
        pair = paired(every, per_play, a, b)
        print("\n" + "\n".join(paired_table(pair)))
        print(f"\nThe goal, {a}'s regret at least 25% below {b}'s, {goal_verdict(pair)}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
