"""Run the arena matches that issues 11 and 12 ask for, one after another, resumably.

    nice -n 19 python -m tools.arena_all --workers 2 [--boards 1000] [--chunk 100]

For every game form (:data:`FORMS`) and matchup (:data:`MATCHUPS`), normal
against easy for every form first, then hard against normal, it runs
``python -m tools.arena`` (duplicate boards, budgets on the CPU clock, no
game pairs) in chunks of ``--chunk`` boards until ``--boards`` are played.
Every board's margins are kept in ``docs/arena/boards/<form>-<a>-vs-<b>.jsonl``
(the arena's ``--record``), so a stopped run loses at most the boards under
way: running this again skips what is done and goes on where it stopped, in
this session or a later one. After each chunk it writes

* ``docs/arena/<form>-<a>-vs-<b>.txt``: the command and the arena's full
  printout over every board so far (its decision times are the last chunk's);
* ``docs/arena/README.md``: one row a match — form, matchup, boards, A's
  margin in points per deal, its 95% confidence interval, and the verdict.

``--only FORM`` (repeatable) and ``--matchups normal-easy,hard-normal``
narrow the list; ``--summary`` only rewrites the README from the records.
"""

from __future__ import annotations

import argparse
import os
import shlex
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

__all__ = ["FORMS", "MATCHUPS", "Form", "main", "summary"]

ROOT: Final = Path(__file__).resolve().parents[1]  # the repository (tools/ lies in it)


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
    Form("turnover-bridge-seed004", "turnover-bridge", ("layout=seed004",), "5+4 rows, 8-card hands"),
    Form("turnover-bridge-pagat", "turnover-bridge", ("layout=pagat",), "12/12/2"),
)
"""Every form of the two issues' games, in the order they run."""

MATCHUPS: Final = (("normal", "easy"), ("hard", "normal"))
"""(A, B): A should beat B. All forms of the first, then all of the second."""


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
    form: Form, a: str, b: str, deals: int, workers: int, record: Path, repo: Path
) -> list[str]:
    cmd = ["-m", "tools.arena", "--a", a, "--b", b, "--deals", str(deals), "--games", "0"]
    cmd += ["--game", form.game]
    for item in form.sets:
        cmd += ["--set", item]
    cmd += ["--workers", str(workers), "--clock", "cpu", "--record", _shown(record, repo)]
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
        "# Arena results for issues 11 and 12",
        "",
        "Duplicate matches (`python -m tools.arena`): every board is one seeded deal",
        "played with A and B in every seating, so the cards cancel out. The margin is A's",
        "points per deal minus B's (at tables without two partnerships, A's points minus",
        "the mean of the B seats), averaged over boards, with its 95% confidence interval",
        "over boards. Search budgets are measured in the process's CPU time (`--clock cpu`),",
        "so the machine's load does not change the results. The issues ask, per game form,",
        f"for A better with the CI excluding 0 over at least {target} boards.",
        "",
        "Written by `python -m tools.arena_all`, which also continues unfinished",
        "matches where they stopped (each board is kept in `boards/`):",
        "",
        "    nice -n 19 python -m tools.arena_all --workers 2",
        "",
        "| form | matchup | boards | margin per deal (A - B) | 95% CI | verdict | printout |",
        "|---|---|---:|---:|---|---|---|",
    ]
    for a, b in matchups:
        for form in FORMS:
            text, record = _paths(out, form, a, b)
            boards = read_record(str(record))
            per_board = [sum(m) / len(m) for m in boards.values() if m]
            n = len(per_board)
            mean, half = margin_ci(per_board)
            label = form.game + "".join(f" `{item}`" for item in form.sets)
            label += f" — {form.note}" if form.note else ""
            figures = (
                f"{mean:+.3f} | {mean - half:+.3f} .. {mean + half:+.3f}"
                if n >= 2
                else "— | —"
            )
            link = f"[{text.name}]({text.name})" if text.exists() else "—"
            lines.append(
                f"| {label} | {a} vs {b} | {n} | {figures} | "
                f"{_verdict(a, b, n, target, mean, half)} | {link} |"
            )
    lines.append("")
    return "\n".join(lines)


def _write_summary(out: Path, target: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "README.md").write_text(summary(out, target), encoding="utf-8")


def _stop(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def _run_chunk(form: Form, a: str, b: str, deals: int, workers: int, out: Path) -> bool:
    """Play the match up to ``deals`` boards; write its printout. False if the arena failed."""
    text, record = _paths(out, form, a, b)
    record.parent.mkdir(parents=True, exist_ok=True)
    repo = _repo_of(out)
    cmd = _command(form, a, b, deals, workers, record, repo)
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
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "arena")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="FORM",
        choices=[f.slug for f in FORMS],
        help="run this form only (repeatable)",
    )
    parser.add_argument(
        "--matchups",
        default=",".join(f"{a}-{b}" for a, b in MATCHUPS),
        help="comma-separated A-B pairs, in order (default normal-easy,hard-normal)",
    )
    parser.add_argument("--summary", action="store_true", help="only rewrite the README")
    args = parser.parse_args(argv)

    matchups: list[tuple[str, str]] = []
    for item in args.matchups.split(","):
        a, _, b = item.strip().partition("-")
        if (a, b) not in MATCHUPS:
            parser.error(f"unknown matchup {item!r}")
        matchups.append((a, b))
    forms = [f for f in FORMS if not args.only or f.slug in args.only]
    out: Path = args.out
    _write_summary(out, args.boards)
    if args.summary:
        return 0
    signal.signal(signal.SIGTERM, _stop)
    failed = []
    for a, b in matchups:
        for form in forms:
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
                ok = _run_chunk(form, a, b, min(args.boards, have + args.chunk), args.workers, out)
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
