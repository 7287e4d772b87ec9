"""Double-dummy regret of each level, from the arena's exported plays.

    python -m tools.dd_regret docs/arena/plays/whist-5-normal-vs-oracle.jsonl.gz \\
        docs/arena/unfinished/plays/whist-5-hard-vs-rules.jsonl.gz [--levels hard,rules]
    python -m tools.dd_regret --table docs/arena/regret.md [--limit 500]

``--table`` writes the arena's regret table (:func:`arena_table`): for whist-5 and
cotton1674, each of hard, normal, plain PIMC and rules from the matches that played
it (:data:`SOURCES`: hard's plays of its matches against rules and PIMC pooled,
normal's of its match against the oracle), each match's plays read from the runner's
folder when a match is under way there (``tools/arena_runs/plays/``), else the
published ones (``docs/arena/unfinished/plays/``, ``docs/arena/plays/``).

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
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from engine import Game, Play, decode_action
from engine.ai.coach.review import start_of
from engine.ai.search import dds
from engine.ai.search.bitmasks import NO_TRUMP
from engine.ai.search.determinized import honour_counts
from engine.ai.search.value import value_table
from engine.ai.search.worlds import situation

__all__ = [
    "measurable",
    "FORMS",
    "SOURCES",
    "Regret",
    "Tally",
    "arena_table",
    "main",
    "read_plays",
    "regrets_of_play",
    "tally",
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


def tally(
    plays: Iterable[Mapping[str, Any]], levels: Iterable[str] | None = None
) -> dict[str, Tally]:
    """Each level's regrets over ``plays`` (only ``levels`` when given)."""
    wanted = None if levels is None else set(levels)
    out: dict[str, Tally] = {}
    for play in plays:
        seat_levels: list[str] = list(play["levels"])
        seats = [s for s, lv in enumerate(seat_levels) if wanted is None or lv in wanted]
        if not seats:
            continue
        regrets = regrets_of_play(play["record"], seats)
        per_seat = dict.fromkeys(seats, 0)
        in_points = dict.fromkeys(seats, 0.0)
        for r in regrets:
            per_seat[r.seat] += r.tricks
            in_points[r.seat] += r.points
            t = out.setdefault(seat_levels[r.seat], Tally())
            t.by_trick[r.trick] = t.by_trick.get(r.trick, 0) + r.tricks
            t.cards += 1
        for s in seats:
            t = out.setdefault(seat_levels[s], Tally())
            t.per_deal.append(per_seat[s])
            t.points.append(in_points[s])
    return out


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


def _merge(into: Tally, more: Tally) -> None:
    into.per_deal += more.per_deal
    into.points += more.points
    into.cards += more.cards
    for k, v in more.by_trick.items():
        into.by_trick[k] = into.by_trick.get(k, 0) + v


def _plays_file(match: str, root: Path = ROOT) -> Path | None:
    """Where the plays of ``match`` are: under way in the runner's folder, else published."""
    for path in (
        root / "tools" / "arena_runs" / "plays" / f"{match}.jsonl",
        root / "docs" / "arena" / "unfinished" / "plays" / f"{match}.jsonl.gz",
        root / "docs" / "arena" / "plays" / f"{match}.jsonl.gz",
    ):
        if path.exists():
            return path
    return None


def arena_table(limit: int = 0, root: Path = ROOT) -> list[str]:
    """The arena's regret section in Markdown: a table a form (see the module docstring);
    ``limit``: at most that many plays of a match (the first ones)."""
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
        matches = sorted({m for ms in SOURCES.values() for m in ms})
        for match in matches:
            path = _plays_file(f"{form}-{match}", root)
            if path is None:
                continue
            plays = list(read_plays([str(path)]))
            if limit:
                plays = plays[:limit]
            levels = [lv for lv, ms in SOURCES.items() if match in ms]
            found = tally(plays, levels)  # each play replayed once for all its levels
            for level, t in found.items():
                _merge(tallies.setdefault(level, Tally()), t)
            if found:
                used.append(f"{match} {len(plays)} plays")
        lines += [f"#### {form}", ""]
        if not tallies:
            lines += ["No plays yet.", ""]
            continue
        lines += table(tallies)
        lines += ["", "Plays read: " + ", ".join(sorted(set(used))) + ".", ""]
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
    args = parser.parse_args(argv)
    if not dds.available():
        print("dd_regret: DDS (endplay) is not available", file=sys.stderr)
        return 2
    if args.table:
        text = "\n".join(arena_table(args.limit)) + "\n"
        Path(args.table).write_text(text, encoding="utf-8")
        print(text)
        return 0
    if not args.plays:
        parser.error("give plays files, or --table")
    levels = None if args.levels is None else [x for x in args.levels.split(",") if x]
    tallies: dict[str, Tally] = {}
    for path in args.plays:
        plays = list(read_plays([path]))
        if args.limit:
            plays = plays[: args.limit]
        for level, t in tally(plays, levels).items():
            _merge(tallies.setdefault(level, Tally()), t)
        print(f"dd_regret: {path}: {len(plays)} plays", file=sys.stderr, flush=True)
    print("\n".join(table(tallies)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
