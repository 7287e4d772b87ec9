"""Run the AI levels' duplicate matches for every game form, one after another, resumably.

    nice -n 19 python -m tools.arena_all --workers 2 [--boards 1000] [--chunk 100]
    python -m tools.arena_all --publish        # then: copy the finished matches into docs/arena/

For every game form (:data:`FORMS`) and matchup (:data:`MATCHUPS`), normal
against easy for every form first, then hard against normal, it runs
``python -m tools.arena`` (duplicate boards, budgets on the CPU clock, no
game pairs) in chunks of ``--chunk`` boards until ``--boards`` are played.

Work under way lives where the tool lives: in ``tools/arena_runs/`` (git-ignored;
``--out`` for another folder). Every board's margins are kept in
``<out>/boards/<form>-<a>-vs-<b>.jsonl`` (the arena's ``--record``), so a stopped
run loses at most the boards under way: running this again skips what is done and
goes on where it stopped. After each chunk it writes

* ``<out>/<form>-<a>-vs-<b>.txt``: the command and the arena's full printout over
  every board so far (its decision times are the last chunk's);
* ``<out>/README.md``: one row a match — form, matchup, boards, A's margin in
  points per deal, its 95% confidence interval, and the verdict.

``--publish`` plays nothing: it copies every *finished* match (``--boards``
boards in its record) from ``--out`` into ``docs/arena/`` (``--docs`` for another
folder) — its record and its printout — and rewrites ``docs/arena/README.md``
from the records there, so only finished matches are ever committed.

``--only FORM`` (repeatable) and ``--matchups normal-easy,hard-normal``
narrow the list; ``--summary`` only rewrites ``<out>/README.md`` from the records.
``--export`` also keeps every play of every board in ``<out>/plays/<match>.jsonl``
(the arena's ``--export``: seed, dealer, seats, and the game's record with every
decision), so anyone can re-run or check a match deal by deal.

The outside baselines (:data:`BASELINE_MATCHUPS`: hard against ``rules`` and
``ismcts``, normal and hard against ``oracle``) are played on their own forms
(:data:`BASELINE_FORMS`) when asked for with ``--matchups``; once any of their
matches has begun the README gets a section for them, with the share of the
normal -> oracle gap that hard closes (:func:`gap_closed`).
"""

from __future__ import annotations

import argparse
import gzip
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Final

from tools.arena import margin_ci, read_cpu, read_record

__all__ = [
    "BASELINE_FORMS",
    "BASELINE_MATCHUPS",
    "BOARDS",
    "FORMS",
    "MATCHUPS",
    "PIMC_FORMS",
    "Form",
    "boards_for",
    "forms_of",
    "gap_closed",
    "gap_share",
    "main",
    "summary",
]

ROOT: Final = Path(__file__).resolve().parents[1]
RUNS: Final = ROOT / "tools" / "arena_runs"
"""Matches under way (git-ignored)."""
DOCS: Final = ROOT / "docs" / "arena"
"""Finished matches, published with ``--publish``."""


@dataclass(frozen=True, slots=True)
class Form:
    """One game form: a file-name slug, the game id and its parameter overrides."""

    slug: str
    game: str
    sets: tuple[str, ...] = ()
    note: str = ""
    skip: tuple[str, ...] = ()  # baselines not played on this form (they would be another level)


FORMS: Final = (
    Form("solo-whist", "solo-whist", (), "preset seed004"),
    Form("bid-whist", "bid-whist", (), "preset default"),
    Form(
        "ruff-trump-willughby-4p-double-hand",
        "ruff-trump-willughby",
        ("mode=double_hand",),
        "4 players in partnerships, the default",
    ),
    Form(
        "ruff-trump-willughby-4p-single-hand",
        "ruff-trump-willughby",
        ("mode=single_hand",),
        "4 players, each alone",
    ),
    Form("ruff-trump-willughby-3p", "ruff-trump-willughby", ("players=3",), "3 players"),
    Form("ruff-trump-willughby-2p", "ruff-trump-willughby", ("players=2",), "2 players"),
    Form(
        "turnover-bridge-seed004", "turnover-bridge", ("layout=seed004",), "5+4 rows, 8-card hands"
    ),
    Form("turnover-bridge-pagat", "turnover-bridge", ("layout=pagat",), "12/12/2"),
)
"""Every game form the matches cover, in the order they run."""

MATCHUPS: Final = (("normal", "easy"), ("hard", "normal"))
"""(A, B): A should beat B. All forms of the first, then all of the second."""

BASELINE_FORMS: Final = (
    Form("whist-5", "whist-5", (), "short whist to 5"),
    Form("cotton1674", "ruff-honours-cotton", (), "preset cotton1674, the default"),
    Form("solo-whist", "solo-whist", (), "preset seed004"),
    Form(
        "bid-whist",
        "bid-whist",
        (),
        "preset default; against rules only: ismcts would play as rules and the oracle "
        "as hard here (jokers)",
        skip=("ismcts", "oracle"),
    ),
    Form(
        "ruff-trump-willughby-4p-double-hand",
        "ruff-trump-willughby",
        ("mode=double_hand",),
        "4 players in partnerships, the default",
    ),
    Form(
        "turnover-bridge-seed004", "turnover-bridge", ("layout=seed004",), "5+4 rows, 8-card hands"
    ),
)
"""The forms the outside baselines are measured on (one or more of each family)."""

BASELINE_MATCHUPS: Final = (
    ("hard", "rules"),
    ("hard", "pimc"),
    ("hard", "ismcts"),
    ("normal", "oracle"),
    ("hard", "oracle"),
    ("hard-learned", "hard"),
)
"""``hard`` against the outside baselines, and both search levels against the oracle:
the share of the normal -> oracle gap that hard closes is read from the two oracle rows;
``hard-learned`` (the trial of learned hints) against hard where pimc plays."""

PIMC_FORMS: Final = frozenset({"whist-5", "cotton1674"})
"""The forms ``pimc`` is played on: the partnership tables whose card play it shares with hard."""

BOARDS: Final[dict[tuple[str, str, str], int]] = {
    ("whist-5", "hard", "ismcts"): 500,
    ("cotton1674", "hard", "ismcts"): 500,
    ("bid-whist", "hard", "rules"): 500,
    ("whist-5", "hard-learned", "hard"): 500,
    ("cotton1674", "hard-learned", "hard"): 500,
}
"""Matches done at fewer boards than ``--boards`` (issue #36's scope: the dearest rows)."""


def boards_for(form: Form, a: str, b: str, default: int) -> int:
    """The boards the match of ``a`` against ``b`` on ``form`` is done at."""
    return min(default, BOARDS.get((form.slug, a, b), default))


GAP_RESAMPLES: Final = 2000  # bootstrap resamples for the gap's confidence interval
GAP_MIN_BOARDS: Final = 30  # common boards before the README shows a share (a ratio of noise else)
NOTES: Final = "BASELINES.md"
"""Hand-written notes on the baseline rows beside the README (linked when present)."""
REGRET: Final = "regret.md"
"""The double-dummy regret tables beside the README (``python -m tools.dd_regret --table``),
copied into the baseline section when present."""
UNFINISHED: Final = "unfinished"
"""The folder of ``--docs`` where ``--publish`` keeps matches under way, to be continued."""


ISSUE_36: Final = (
    "Issue #36's rows (hard against rules 1000 boards, pimc 1000, ismcts 500 on whist-5",
    "and cotton1674; against rules 1000 on Ruffe and Trump double hand, 500 on Bid Whist)",
    "are played one match at a time, each on one worker, in this order:",
    "",
    "    R='nice -n 19 python -m tools.arena_all --workers 1 --chunk 50 --export'",
    "    $R --only whist-5 --only cotton1674 --matchups hard-rules,hard-pimc",
    "    $R --only whist-5 --only cotton1674 --matchups hard-ismcts",
    "    $R --only ruff-trump-willughby-4p-double-hand --only bid-whist --matchups hard-rules",
    "    python -m tools.arena_all --publish --matchups hard-rules,hard-pimc,hard-ismcts",
    "",
    "Each takes up its match from `unfinished/` where the last run stopped. The hard",
    "they measure is the one of main on 28 November (c555aac): the refactor of issue",
    "#36 (one strategy interface, the coach on it) leaves every level's decisions as",
    "they were (`python -m tools.ai_decisions`, tick clock: 6114 of 6114 the same), so",
    "boards played before and after it measure the same players. `pimc` is hard's",
    "profile with its inference off (`engine/ai/baselines/pimc.py`). A candidate",
    "for hard's inference is measured against hard itself before it is adopted:",
    "`hard-learned` (the hints' weights learned from self-play records, worlds dealt",
    "keeping the hints; `engine/ai/levels.py`), 500 boards on each form with",
    "`--matchups hard-learned-hard`.",
)
"""How the issue's rows are run and resumed (the README's baseline section)."""


ISSUE_36_ROWS: Final = (
    ("whist-5", "hard", "rules"),
    ("cotton1674", "hard", "rules"),
    ("whist-5", "hard", "pimc"),
    ("cotton1674", "hard", "pimc"),
    ("whist-5", "hard", "ismcts"),
    ("cotton1674", "hard", "ismcts"),
    ("ruff-trump-willughby-4p-double-hand", "hard", "rules"),
    ("bid-whist", "hard", "rules"),
)
"""The matches issue #36 asks for, in the order they are played."""


def _issue_progress(out: Path, target: int) -> list[str]:
    """A line: how far issue #36's rows have got (boards kept of those asked for)."""
    slugs = {f.slug: f for f in BASELINE_FORMS}
    done = asked = finished = 0
    for slug, a, b in ISSUE_36_ROWS:
        form = slugs[slug]
        goal = boards_for(form, a, b, target)
        have = min(goal, len(read_record(str(_kept(out, form, a, b)[1]))))
        done += have
        asked += goal
        finished += have >= goal
    return [
        f"Progress: {done} of the {asked} boards these rows ask for are played; "
        f"{finished} of the {len(ISSUE_36_ROWS)} rows finished.",
        "",
    ]


def forms_of(a: str, b: str) -> tuple[Form, ...]:
    """The forms the matchup (A, B) is played on."""
    if b == "pimc" or a == "hard-learned":
        return tuple(f for f in BASELINE_FORMS if f.slug in PIMC_FORMS)
    if (a, b) in BASELINE_MATCHUPS:
        return tuple(f for f in BASELINE_FORMS if a not in f.skip and b not in f.skip)
    return FORMS


def _name(form: Form, a: str, b: str) -> str:
    return f"{form.slug}-{a}-vs-{b}"


def _paths(out: Path, form: Form, a: str, b: str) -> tuple[Path, Path]:
    """The match's printout and its record of boards."""
    name = _name(form, a, b)
    return out / f"{name}.txt", out / "boards" / f"{name}.jsonl"


def _plays(out: Path, form: Form, a: str, b: str) -> Path:
    """The match's exported plays (``--export``), as the runner writes them."""
    return out / "plays" / f"{_name(form, a, b)}.jsonl"


def _kept(out: Path, form: Form, a: str, b: str) -> tuple[Path, Path]:
    """The match's printout and record in ``out``: finished, else unfinished (``--publish``
    keeps an unfinished match in ``out/unfinished/``, where the runner takes it up again)."""
    text, record = _paths(out, form, a, b)
    if record.exists():
        return text, record
    held = _paths(out / UNFINISHED, form, a, b)
    return held if held[1].exists() else (text, record)


def _repo_of(out: Path) -> Path:
    """The repository ``out`` lies in (the arena runs there), else this code's own."""
    for folder in (out.resolve(), *out.resolve().parents):
        if (folder / "pyproject.toml").exists():
            return folder
    return ROOT


def _shown(path: Path, repo: Path) -> str:
    """``path`` relative to ``repo`` when it is inside it (for commands in files)."""
    try:
        return str(path.resolve().relative_to(repo))
    except ValueError:
        return str(path)


def _command(
    form: Form,
    a: str,
    b: str,
    deals: int,
    workers: int,
    record: Path,
    repo: Path,
    export: Path | None = None,
) -> list[str]:
    cmd = ["-m", "tools.arena", "--a", a, "--b", b, "--deals", str(deals), "--games", "0"]
    cmd += ["--game", form.game]
    for item in form.sets:
        cmd += ["--set", item]
    cmd += ["--workers", str(workers), "--clock", "cpu", "--record", _shown(record, repo)]
    if export is not None:
        cmd += ["--export", _shown(export, repo)]
    cmd += ["--quiet"]
    return cmd


def _verdict(a: str, b: str, n: int, target: int, mean: float, half: float) -> str:
    if n < 2:
        return "not started" if n == 0 else f"running ({n}/{target})"
    settled = mean - half > 0 or mean + half < 0
    if not settled:
        verdict = "not settled: the CI includes 0"
    elif mean > 0:
        verdict = f"**{a} better**"
    else:
        verdict = f"**{b} better** ({a} worse)"
    return verdict if n >= target else f"{verdict}, so far ({n}/{target})"


def summary(
    out: Path, target: int, matchups: Sequence[tuple[str, str]] = MATCHUPS, docs: Path = DOCS
) -> str:
    """The README's text: one row for each form and matchup, from the records in ``out``
    (the published hard vs normal matches in ``docs`` when ``out`` has none: the gap)."""
    lines = [
        "# Arena results: each AI level against the one below",
        "",
        "Duplicate matches (`python -m tools.arena`): every board is one seeded deal",
        "played with A and B in every seating, so the cards cancel out. The margin is A's",
        "points per deal minus B's (at tables without two partnerships, A's points minus",
        "the mean of the B seats), averaged over boards, with its 95% confidence interval",
        "over boards. Search budgets are measured in the process's CPU time (`--clock cpu`),",
        "so the machine's load does not change the results. A match is done at",
        f"{target} boards; A is better when the CI excludes 0.",
        "",
        "Written by `python -m tools.arena_all`, which plays in `tools/arena_runs/`",
        "(continuing unfinished matches where they stopped; each board is kept in",
        "`boards/`); `--publish` copies finished matches here:",
        "",
        "    nice -n 19 python -m tools.arena_all --workers 2",
        "    python -m tools.arena_all --publish",
        "",
        "| form | matchup | boards | margin per deal (A - B) | 95% CI | verdict | printout |",
        "|---|---|---:|---:|---|---|---|",
    ]
    lines += _rows(out, target, matchups)
    baselines = [m for m in BASELINE_MATCHUPS if m not in matchups]
    if any(_kept(out, f, a, b)[1].exists() for a, b in baselines for f in forms_of(a, b)):
        lines += _baseline_section(out, target, baselines, docs)
    lines.append("")
    return "\n".join(lines)


def _rows(
    out: Path, target: int, matchups: Sequence[tuple[str, str]], cost: bool = False
) -> list[str]:
    """One table row for each matchup and each of its forms (``cost``: with its CPU)."""
    lines = []
    for a, b in matchups:
        for form in forms_of(a, b):
            text, record = _kept(out, form, a, b)
            boards = read_record(str(record))
            per_board = [sum(m) / len(m) for m in boards.values() if m]
            n = len(per_board)
            mean, half = margin_ci(per_board)
            label = form.game + "".join(f" `{item}`" for item in form.sets)
            label += f" — {form.note}" if form.note else ""
            figures = (
                f"{mean:+.3f} | {mean - half:+.3f} .. {mean + half:+.3f}" if n >= 2 else "— | —"
            )
            link = f"[{text.name}]({text.relative_to(out)})" if text.exists() else "—"
            goal = boards_for(form, a, b, target)
            row = (
                f"| {label} | {a} vs {b} | {n} | {figures} | "
                f"{_verdict(a, b, n, goal, mean, half)} |"
            )
            if cost:
                row += f" {_cost(record, n, goal)} |"
            lines.append(f"{row} {link} |")
    return lines


def _total_cost(out: Path, target: int, matchups: Sequence[tuple[str, str]]) -> list[str]:
    """A line: the core-hours every measured match needs, and those still to play need."""
    need = left = 0.0
    measured = unmeasured = 0
    for a, b in matchups:
        for form in forms_of(a, b):
            record = _kept(out, form, a, b)[1]
            cpu = list(read_cpu(str(record)).values())
            if not cpu:
                unmeasured += 1
                continue
            measured += 1
            each = sum(cpu) / len(cpu)
            goal = boards_for(form, a, b, target)
            need += each * goal / 3600
            left += each * max(0, goal - len(read_record(str(record)))) / 3600
    if not measured:
        return []
    unknown = f"; {unmeasured} not measured yet" if unmeasured else ""
    return [
        "",
        f"All {measured} measured matches: {need:.1f} core-hours at {target} boards each "
        f"(fewer where the row says so), "
        f"{left:.1f} still to play{unknown}.",
    ]


def _cost(record: Path, n: int, target: int) -> str:
    """The CPU a board took (mean over the boards kept with it), and the core-hours
    ``target`` boards need and those still to play need."""
    cpu = list(read_cpu(str(record)).values())
    if not cpu:
        return "— | — | —"
    each = sum(cpu) / len(cpu)
    return (
        f"{each:.1f} s ({len(cpu)}) | {each * target / 3600:.1f} | "
        f"{each * max(0, target - n) / 3600:.1f}"
    )


def _pairs(x: dict[int, list[float]], y: dict[int, list[float]]) -> list[tuple[float, float]]:
    """Per board played in both matches (the same seed: the same deal), both mean margins."""
    seeds = sorted(s for s in x if s in y and x[s] and y[s])
    return [(sum(x[s]) / len(x[s]), sum(y[s]) / len(y[s])) for s in seeds]


def _bootstrap(
    pairs: Sequence[tuple[float, float]],
    share: Callable[[Sequence[tuple[float, float]]], float],
    resamples: int,
) -> tuple[float, float, float] | None:
    """``share`` of the boards and its 95% CI, resampling the boards (each pair together)."""
    if len(pairs) < 2:
        return None
    point = share(pairs)
    if point != point:  # no gap
        return None
    rng = random.Random(0)
    shares = sorted(
        x for x in (share([rng.choice(pairs) for _ in pairs]) for _ in range(resamples)) if x == x
    )
    lo = shares[int(0.025 * (len(shares) - 1))]
    hi = shares[int(0.975 * (len(shares) - 1))]
    return point, lo, hi


def gap_closed(
    normal: dict[int, list[float]], hard: dict[int, list[float]], resamples: int = GAP_RESAMPLES
) -> tuple[float, float, float] | None:
    """The share of the normal -> oracle gap that hard closes, with a 95% bootstrap CI.

    ``normal`` and ``hard`` are the boards (margins by seed) of normal vs oracle
    and hard vs oracle; the share is ``1 - hard's margin / normal's margin``
    over the boards both played (the same seeds: the same deals), resampled
    by board (paired) with a fixed seed. ``None`` while there are fewer than
    two common boards or the oracle does not beat normal (no gap to close).
    """

    def share(sample: Sequence[tuple[float, float]]) -> float:
        gap = -sum(n for n, _ in sample) / len(sample)
        left = -sum(h for _, h in sample) / len(sample)
        return 1.0 - left / gap if gap > 0 else float("nan")

    return _bootstrap(_pairs(normal, hard), share, resamples)


def gap_share(
    normal: dict[int, list[float]],
    hard_normal: dict[int, list[float]],
    resamples: int = GAP_RESAMPLES,
) -> tuple[float, float, float] | None:
    """The share of the normal -> oracle gap that hard closes, measured against normal.

    ``normal`` holds the boards of normal vs oracle, ``hard_normal`` those of
    hard vs normal: with normal the common opponent, the oracle gains
    ``-(normal vs oracle)`` over it and hard ``hard vs normal``, and the share is
    their ratio over the boards both matches played (the same seed of the same
    form is the same deal), with a 95% CI by resampling those boards in pairs,
    so the two matches' correlation through the deals is kept. ``None`` while
    there are fewer than two common boards or the oracle does not beat normal.
    """

    def share(sample: Sequence[tuple[float, float]]) -> float:
        gap = -sum(n for n, _ in sample) / len(sample)
        gained = sum(h for _, h in sample) / len(sample)
        return gained / gap if gap > 0 else float("nan")

    return _bootstrap(_pairs(normal, hard_normal), share, resamples)


def _baseline_section(
    out: Path, target: int, matchups: Sequence[tuple[str, str]], docs: Path = DOCS
) -> list[str]:
    """The outside baselines' rows, and the share of the normal -> oracle gap hard closes."""
    lines = [
        "",
        "## Against outside baselines",
        "",
        "`rules` is a conventional rule-based player (the classic maxims, no search),",
        "`pimc` plain PIMC (uniform worlds consistent with what the seat knows, each solved",
        "by DDS: hard's solver, budget and 64 worlds at most a decision, without its",
        "inference; `engine/ai/baselines/pimc.py`; played on whist-5 and cotton1674),",
        "`ismcts` generic single-observer ISMCTS at hard's CPU a decision, `oracle` double-dummy",
        "play that sees every hand (an upper bound; hard's where its card model does not reach:",
        "`engine/ai/baselines/search.py`; by DDS at the partnership tables, elsewhere a",
        "perfect-information MCTS of the true deal at hard's CPU, so not exact there). Bid Whist",
        "is played against `rules` only: its jokers are beyond the card model, so `ismcts`",
        "would play as `rules` there and the oracle as `hard`. Run, cheapest first, with",
        "",
        "    nice -n 19 python -m tools.arena_all --workers 2 --export \\",
        "        --matchups " + ",".join(f"{a}-{b}" for a, b in BASELINE_MATCHUPS),
        "",
        "(`--only FORM` for one form). The cost columns are measured, not guessed: the",
        "process CPU seconds each board took (both levels, every seating; the number of",
        "boards measured in brackets), and from that the core-hours a match of",
        f"{target} boards needs and those its boards still to play need. A match under",
        f"way is kept in `{UNFINISHED}/` (its record, printout and plays); the runner takes",
        "it up from there and goes on where it stopped.",
        "",
        *ISSUE_36,
        "",
        *_issue_progress(out, target),
        "| form | matchup | boards | margin per deal (A - B) | 95% CI | verdict "
        f"| CPU a board | core-hours for {target} | core-hours left | printout |",
        "|---|---|---:|---|---|---|---:|---:|---:|---|",
    ]
    lines += _rows(out, target, matchups, cost=True)
    lines += _total_cost(out, target, matchups)
    lines += [
        "",
        "The share of the normal → oracle gap that hard closes, two ways, each over the",
        "boards both of its matches played (the same seed of a form is the same deal, so",
        "the boards are paired) with a 95% bootstrap CI",
        f"({GAP_RESAMPLES} resamples of those boards, each board's two margins together):",
        "",
        "* *against normal*: `(hard vs normal) / -(normal vs oracle)`, what hard and the",
        "  oracle each gain over the same opponent; hard vs normal is the published",
        f"  {target}-board match (`boards/`), played by the code of its day;",
        "* *direct*: `1 - (hard vs oracle) / (normal vs oracle)`.",
        "",
        "Both read the same where A and B face each other one to one (the partnership",
        "tables, and Turnover Bridge for two). At Solo Whist a board seats one A among",
        "three B's, so *against normal* sets one hard among normals beside one normal among",
        "oracles; there the *direct* share, one hard or one normal among oracles, is the",
        "like-for-like one.",
        "",
        "| form | normal vs oracle | hard vs normal | gap closed, against normal | 95% CI "
        "| hard vs oracle | gap closed, direct | 95% CI |",
        "|---|---:|---:|---:|---|---:|---:|---|",
    ]
    for form in forms_of("normal", "oracle"):
        normal = read_record(str(_kept(out, form, "normal", "oracle")[1]))
        hard = read_record(str(_kept(out, form, "hard", "oracle")[1]))
        versus = _kept(out, form, "hard", "normal")[1]
        if not versus.exists():
            versus = _kept(docs, form, "hard", "normal")[1]
        hard_normal = read_record(str(versus))
        per_board = [sum(m) / len(m) for m in normal.values() if m]
        cells = [
            form.slug,
            f"{margin_ci(per_board)[0]:+.3f} ({len(per_board)})" if per_board else "—",
        ]
        for other, found in (
            (hard_normal, gap_share(normal, hard_normal)),
            (hard, gap_closed(normal, hard)),
        ):
            pairs = _pairs(normal, other)
            if len(pairs) < 2:
                cells += ["—", "—", "—"]
                continue
            cells.append(f"{sum(q for _, q in pairs) / len(pairs):+.3f} ({len(pairs)})")
            if len(pairs) < GAP_MIN_BOARDS:
                cells += ["too few boards", "—"]
            elif found is None:
                cells += ["no gap", "—"]
            else:
                point, lo, hi = found
                cells += [f"{100 * point:.0f}%", f"{100 * lo:.0f}% .. {100 * hi:.0f}%"]
        lines.append("| " + " | ".join(cells) + " |")
    if (out / REGRET).exists():
        lines += ["", *(out / REGRET).read_text(encoding="utf-8").rstrip().splitlines()]
    lines += _rerun_note()
    if (out / NOTES).exists():
        lines += ["", f"What these rows say so far, and what limits them: [{NOTES}]({NOTES})."]
    return lines


def _rerun_note() -> list[str]:
    return [
        "",
        "### Re-running a match",
        "",
        "Each printout starts with the command that played it (`python -m tools.arena ...`);",
        "run it again with `--record` pointing at a new file to play the same boards anew",
        "(searches on the CPU clock are not bit-for-bit repeatable, so margins differ within",
        "their CI). With `--export` (the runner's `--export`) every play of every board is",
        "kept, one JSON line each: the board's seed, the dealer, every seat's level, the",
        "points per side and the game's record with every decision in order;",
        "`--publish` gzips them into `plays/<match>.jsonl.gz` (`unfinished/plays/` for a",
        "match under way). To replay or check one:",
        "",
        "    import gzip, json",
        "    from engine.game import replay",
        "    for line in gzip.open('docs/arena/plays/whist-5-hard-vs-rules.jsonl.gz', 'rt'):",
        "        play = json.loads(line)",
        "        game = replay(play['record'])  # the same deal, every decision re-applied",
        "",
        "A stopped run may have written a board's plays without its record line; that board",
        "is played again, so for a seed the last plays written are the ones recorded.",
    ]


def _write_summary(out: Path, target: int, docs: Path = DOCS) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "README.md").write_text(summary(out, target, docs=docs), encoding="utf-8")


def publish(
    out: Path,
    docs: Path,
    target: int,
    matchups: Sequence[tuple[str, str]] = MATCHUPS,
    forms: Sequence[Form] = FORMS + BASELINE_FORMS,
) -> list[str]:
    """Copy the finished matches in ``out`` (record and printout) into ``docs``; rewrite its README.

    Returns the names of the matches copied. A match short of ``target`` boards is
    kept in ``docs/unfinished/`` instead (where :func:`main` takes it up again), and
    leaves it once finished. Exported plays go along, gzipped, in ``plays/``.
    """
    copied = []
    slugs = {f.slug for f in forms}
    for a, b in matchups:
        for form in forms_of(a, b):
            if form.slug not in slugs:
                continue
            text, record = _paths(out, form, a, b)
            n = len(read_record(str(record)))
            if n == 0 or not text.exists():
                continue
            held = docs / UNFINISHED
            done = n >= boards_for(form, a, b, target)
            to = docs if done else held
            _copy_match(out, to, form, a, b)
            if done:
                copied.append(_name(form, a, b))
                for path in (*_paths(held, form, a, b), _gzipped(_plays(held, form, a, b))):
                    path.unlink(missing_ok=True)
    _write_summary(docs, target, docs)
    return copied


def _gzipped(path: Path) -> Path:
    return path.with_name(path.name + ".gz")


def _copy_match(source: Path, to: Path, form: Form, a: str, b: str) -> None:
    """The match's record and printout from ``source`` into ``to``, its plays gzipped."""
    for src, dst in zip(_paths(source, form, a, b), _paths(to, form, a, b), strict=True):
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
    plays = _plays(source, form, a, b)
    if plays.exists():
        packed = _gzipped(_plays(to, form, a, b))
        packed.parent.mkdir(parents=True, exist_ok=True)
        # no time stamp inside: the same plays give the same bytes (no churn in git)
        with (
            plays.open("rb") as src,
            packed.open("wb") as raw,
            gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as dst,
        ):
            shutil.copyfileobj(src, dst)


def _take_up(held: Path, out: Path, form: Form, a: str, b: str) -> bool:
    """Continue from the match kept in ``held`` (``docs/unfinished/``) when it has more
    boards than ``out``'s: its record, printout and plays become ``out``'s."""
    text, record = _paths(held, form, a, b)
    if not record.exists() or len(read_record(str(record))) <= len(
        read_record(str(_paths(out, form, a, b)[1]))
    ):
        return False
    for src, dst in zip((text, record), _paths(out, form, a, b), strict=True):
        if src.exists():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
    packed = _gzipped(_plays(held, form, a, b))
    plays = _plays(out, form, a, b)
    if packed.exists():
        plays.parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(packed, "rb") as src, plays.open("wb") as dst:
            shutil.copyfileobj(src, dst)
    else:
        plays.unlink(missing_ok=True)
    return True


def _stop(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def _run_chunk(
    form: Form, a: str, b: str, deals: int, workers: int, out: Path, export: bool = False
) -> bool:
    """Play the match up to ``deals`` boards; write its printout. False if the arena failed."""
    text, record = _paths(out, form, a, b)
    record.parent.mkdir(parents=True, exist_ok=True)
    repo = _repo_of(out)
    plays = out / "plays" / f"{_name(form, a, b)}.jsonl" if export else None
    if plays is not None:
        plays.parent.mkdir(parents=True, exist_ok=True)
    cmd = _command(form, a, b, deals, workers, record, repo, plays)
    shown = "python " + shlex.join(cmd)
    print(f"arena_all: {time.strftime('%H:%M:%S')} {shown}", file=sys.stderr, flush=True)
    env = None
    python = [sys.executable]
    if repo != ROOT:
        # run in the results' repository with this code (a snapshot kept apart, so
        # the code under a long match does not change while that repository's does)
        python.append("-P")
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # its own session, so stopping the runner stops the arena's pool workers too
    child = subprocess.Popen(
        [*python, *cmd],
        cwd=repo,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        printout, _ = child.communicate()
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGTERM)
            child.wait()
    rc = child.returncode
    if rc != 0:
        print(f"arena_all: the arena exited with {rc}:\n{printout}", file=sys.stderr, flush=True)
        return False
    text.write_text(f"$ {shown}\n\n{printout}", encoding="utf-8")
    return True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.arena_all", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--boards", type=int, default=1000, help="boards a match (default 1000)")
    parser.add_argument("--chunk", type=int, default=100, help="boards between printouts")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--out", type=Path, default=RUNS, help="where matches are played (default tools/arena_runs)"
    )
    parser.add_argument(
        "--publish",
        action="store_true",
        help="play nothing: copy the finished matches from --out into --docs and rewrite its README",
    )
    parser.add_argument(
        "--docs", type=Path, default=DOCS, help="where --publish copies to (default docs/arena)"
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="FORM",
        choices=sorted({f.slug for f in FORMS + BASELINE_FORMS}),
        help="run this form only (repeatable)",
    )
    parser.add_argument(
        "--matchups",
        default=",".join(f"{a}-{b}" for a, b in MATCHUPS),
        help="comma-separated A-B pairs, in order (default normal-easy,hard-normal; the "
        "outside baselines: " + ",".join(f"{a}-{b}" for a, b in BASELINE_MATCHUPS) + ")",
    )
    parser.add_argument("--summary", action="store_true", help="only rewrite the README")
    parser.add_argument(
        "--export",
        action="store_true",
        help="also keep every play (seed, dealer, seats, points, the game's record with every "
        "decision) in <out>/plays/<match>.jsonl (the arena's --export)",
    )
    args = parser.parse_args(argv)

    matchups: list[tuple[str, str]] = []
    for item in args.matchups.split(","):
        known = {f"{a}-{b}": (a, b) for a, b in MATCHUPS + BASELINE_MATCHUPS}
        if item.strip() not in known:
            parser.error(f"unknown matchup {item!r}")
        matchups.append(known[item.strip()])
    forms = [f for f in FORMS + BASELINE_FORMS if not args.only or f.slug in args.only]
    out: Path = args.out
    if args.publish:
        copied = publish(out, args.docs, args.boards, matchups, forms)
        for name in copied:
            print(f"arena_all: published {name}", file=sys.stderr)
        if not copied:
            print(f"arena_all: no finished match in {out} to publish", file=sys.stderr)
        return 0
    _write_summary(out, args.boards, args.docs)
    if args.summary:
        return 0
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        failed = _play_all(args, matchups, forms, out)
    finally:
        signal.signal(signal.SIGTERM, previous)
    if failed:
        print(f"arena_all: failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def _play_all(
    args: argparse.Namespace,
    matchups: Sequence[tuple[str, str]],
    forms: Sequence[Form],
    out: Path,
) -> list[str]:
    """Play every match asked for up to ``--boards``; the names of those that failed."""
    failed = []
    slugs = {f.slug for f in forms}
    for a, b in matchups:
        for form in forms_of(a, b):
            if form.slug not in slugs:
                continue
            _, record = _paths(out, form, a, b)
            if _take_up(args.docs / UNFINISHED, out, form, a, b):
                print(
                    f"arena_all: {_name(form, a, b)} taken up from {args.docs / UNFINISHED}",
                    file=sys.stderr,
                    flush=True,
                )
            goal = boards_for(form, a, b, args.boards)
            while True:
                have = len(read_record(str(record)))
                if have >= goal:
                    print(
                        f"arena_all: {_name(form, a, b)} has {have} boards: done",
                        file=sys.stderr,
                        flush=True,
                    )
                    break
                # the record is keyed by seed, so the next chunk's seeds follow on
                ok = _run_chunk(
                    form, a, b, min(goal, have + args.chunk), args.workers, out, args.export
                )
                _write_summary(out, args.boards, args.docs)
                if not ok or len(read_record(str(record))) <= have:
                    failed.append(_name(form, a, b))
                    break
    return failed


if __name__ == "__main__":
    raise SystemExit(main())
