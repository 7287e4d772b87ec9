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
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Final

from tools.arena import margin_ci, read_record

__all__ = [
    "BASELINE_FORMS",
    "BASELINE_MATCHUPS",
    "FORMS",
    "MATCHUPS",
    "Form",
    "forms_of",
    "gap_closed",
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
        "preset default; ismcts plays as rules and the oracle as hard here (jokers)",
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
    ("hard", "ismcts"),
    ("normal", "oracle"),
    ("hard", "oracle"),
)
"""``hard`` against the outside baselines, and both search levels against the oracle:
the share of the normal -> oracle gap that hard closes is read from the last two."""

GAP_RESAMPLES: Final = 2000  # bootstrap resamples for the gap's confidence interval


def forms_of(a: str, b: str) -> tuple[Form, ...]:
    """The forms the matchup (A, B) is played on."""
    return BASELINE_FORMS if (a, b) in BASELINE_MATCHUPS else FORMS


def _name(form: Form, a: str, b: str) -> str:
    return f"{form.slug}-{a}-vs-{b}"


def _paths(out: Path, form: Form, a: str, b: str) -> tuple[Path, Path]:
    """The match's printout and its record of boards."""
    name = _name(form, a, b)
    return out / f"{name}.txt", out / "boards" / f"{name}.jsonl"


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


def summary(out: Path, target: int, matchups: Sequence[tuple[str, str]] = MATCHUPS) -> str:
    """The README's text: one row for each form and matchup, from the records in ``out``."""
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
    if any(_paths(out, f, a, b)[1].exists() for a, b in baselines for f in BASELINE_FORMS):
        lines += _baseline_section(out, target, baselines)
    lines.append("")
    return "\n".join(lines)


def _rows(out: Path, target: int, matchups: Sequence[tuple[str, str]]) -> list[str]:
    """One table row for each matchup and each of its forms."""
    lines = []
    for a, b in matchups:
        for form in forms_of(a, b):
            text, record = _paths(out, form, a, b)
            boards = read_record(str(record))
            per_board = [sum(m) / len(m) for m in boards.values() if m]
            n = len(per_board)
            mean, half = margin_ci(per_board)
            label = form.game + "".join(f" `{item}`" for item in form.sets)
            label += f" — {form.note}" if form.note else ""
            figures = (
                f"{mean:+.3f} | {mean - half:+.3f} .. {mean + half:+.3f}" if n >= 2 else "— | —"
            )
            link = f"[{text.name}]({text.name})" if text.exists() else "—"
            lines.append(
                f"| {label} | {a} vs {b} | {n} | {figures} | "
                f"{_verdict(a, b, n, target, mean, half)} | {link} |"
            )
    return lines


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
    seeds = sorted(s for s in normal if s in hard and normal[s] and hard[s])
    if len(seeds) < 2:
        return None
    pairs = [(sum(normal[s]) / len(normal[s]), sum(hard[s]) / len(hard[s])) for s in seeds]

    def share(sample: Sequence[tuple[float, float]]) -> float:
        gap = -sum(n for n, _ in sample) / len(sample)
        left = -sum(h for _, h in sample) / len(sample)
        return 1.0 - left / gap if gap > 0 else float("nan")

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


def _baseline_section(out: Path, target: int, matchups: Sequence[tuple[str, str]]) -> list[str]:
    """The outside baselines' rows, and the share of the normal -> oracle gap hard closes."""
    lines = [
        "",
        "## Against outside baselines",
        "",
        "`rules` is a conventional rule-based player (the classic maxims, no search),",
        "`ismcts` generic single-observer ISMCTS at hard's CPU a decision, `oracle` double-dummy",
        "play that sees every hand (an upper bound; hard's where its card model does not reach:",
        "`engine/ai/strategies/baselines.py`; by DDS at the partnership tables, elsewhere a",
        "perfect-information MCTS of the true deal at hard's CPU, so not exact there). Run with",
        "",
        "    nice -n 19 python -m tools.arena_all --workers 2 \\",
        "        --matchups " + ",".join(f"{a}-{b}" for a, b in BASELINE_MATCHUPS),
        "",
        "| form | matchup | boards | margin per deal (A - B) | 95% CI | verdict | printout |",
        "|---|---|---:|---|---|---|---|",
    ]
    lines += _rows(out, target, matchups)
    lines += [
        "",
        "The share of the normal → oracle gap that hard closes: `1 - (hard vs oracle) /",
        "(normal vs oracle)` over the boards both matches played (the same deals), with a",
        f"95% bootstrap CI ({GAP_RESAMPLES} resamples of the boards).",
        "",
        "| form | boards | normal vs oracle | hard vs oracle | gap closed | 95% CI |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for form in BASELINE_FORMS:
        normal = read_record(str(_paths(out, form, "normal", "oracle")[1]))
        hard = read_record(str(_paths(out, form, "hard", "oracle")[1]))
        common = [s for s in normal if s in hard]
        found = gap_closed(normal, hard)
        n_mean, _ = margin_ci([sum(normal[s]) / len(normal[s]) for s in common])
        h_mean, _ = margin_ci([sum(hard[s]) / len(hard[s]) for s in common])
        if found is None:
            figures = "— | —" if len(common) < 2 else "no gap | —"
        else:
            point, lo, hi = found
            figures = f"{100 * point:.0f}% | {100 * lo:.0f}% .. {100 * hi:.0f}%"
        margins = f"{n_mean:+.3f} | {h_mean:+.3f}" if len(common) >= 2 else "— | —"
        label = form.slug + (f" — {form.note}" if "oracle" in form.note else "")
        lines.append(f"| {label} | {len(common)} | {margins} | {figures} |")
    return lines


def _write_summary(out: Path, target: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "README.md").write_text(summary(out, target), encoding="utf-8")


def publish(
    out: Path,
    docs: Path,
    target: int,
    matchups: Sequence[tuple[str, str]] = MATCHUPS,
    forms: Sequence[Form] = FORMS + BASELINE_FORMS,
) -> list[str]:
    """Copy the finished matches in ``out`` (record and printout) into ``docs``; rewrite its README.

    Returns the names of the matches copied. A match short of ``target`` boards stays where it is.
    """
    copied = []
    for a, b in matchups:
        for form in forms_of(a, b):
            if form.slug not in {f.slug for f in forms}:
                continue
            text, record = _paths(out, form, a, b)
            if len(read_record(str(record))) < target or not text.exists():
                continue
            to_text, to_record = _paths(docs, form, a, b)
            to_record.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(record, to_record)
            shutil.copyfile(text, to_text)
            copied.append(_name(form, a, b))
    _write_summary(docs, target)
    return copied


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
        a, _, b = item.strip().partition("-")
        if (a, b) not in MATCHUPS + BASELINE_MATCHUPS:
            parser.error(f"unknown matchup {item!r}")
        matchups.append((a, b))
    forms = [f for f in FORMS + BASELINE_FORMS if not args.only or f.slug in args.only]
    out: Path = args.out
    if args.publish:
        copied = publish(out, args.docs, args.boards, matchups, forms)
        for name in copied:
            print(f"arena_all: published {name}", file=sys.stderr)
        if not copied:
            print(f"arena_all: no finished match in {out} to publish", file=sys.stderr)
        return 0
    _write_summary(out, args.boards)
    if args.summary:
        return 0
    signal.signal(signal.SIGTERM, _stop)
    failed = []
    slugs = {f.slug for f in forms}
    for a, b in matchups:
        for form in forms_of(a, b):
            if form.slug not in slugs:
                continue
            _, record = _paths(out, form, a, b)
            while True:
                have = len(read_record(str(record)))
                if have >= args.boards:
                    print(
                        f"arena_all: {_name(form, a, b)} has {have} boards: done",
                        file=sys.stderr,
                        flush=True,
                    )
                    break
                # the record is keyed by seed, so the next chunk's seeds follow on
                ok = _run_chunk(
                    form, a, b, min(args.boards, have + args.chunk), args.workers, out, args.export
                )
                _write_summary(out, args.boards)
                if not ok or len(read_record(str(record))) <= have:
                    failed.append(_name(form, a, b))
                    break
    if failed:
        print(f"arena_all: failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
