"""Run one benchmark for a git ref and for this working tree, in one run, side by side.

Usage (from the repository root)::

    .venv/bin/python -m tools.bench_before_after --ref 60320bd [--rounds 1] -- bench --duration 30
    .venv/bin/python -m tools.bench_before_after --ref 60320bd -- bench_scale --processes 1 2 --tables 8

The ref is checked out into a temporary ``git worktree`` (removed afterwards).
With ``--this-tools`` the ref's ``tools/`` is replaced by this tree's, so both
sides are measured by the same benchmark code (e.g. the round trips per click of
``tools.round_trips``, which the ref may not have) and only the bot differs. Each
side runs the benchmark in its own subprocess from its own tree (``tools.NAME``
where the tree has it, else ``bot.NAME``, where benchmarks lived before they moved
to tools/), the sides alternating round by round so that the load of a shared
machine falls on both alike. The printout is each side's output and then every
line that carries figures, before beside after.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_NUMBER = re.compile(r"[-+−]?\d[\d,]*(?:\.\d+)?")


def module_in(tree: Path, name: str) -> str:
    """Where benchmark ``name`` lives in ``tree``: tools/ now, bot/ before."""
    for package in ("tools", "bot"):
        if (tree / package / f"{name}.py").exists():
            return f"{package}.{name}"
    raise SystemExit(f"{tree} has no benchmark {name!r}")


def prioritise(niceness: int | None) -> Callable[[], None] | None:
    """What runs in a side's process before the benchmark: its session's group and the
    process itself at ``niceness`` (None: as this process)."""
    if niceness is None:
        return None

    def apply() -> None:
        try:
            with open("/proc/self/autogroup", "w") as f:
                f.write(str(niceness))
        except OSError:  # no autogroup here: the process's nice is all there is
            pass
        os.setpriority(os.PRIO_PROCESS, 0, niceness)

    return apply


def run(tree: Path, name: str, args: list[str], niceness: int | None = None) -> str:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", module_in(tree, name), *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        start_new_session=niceness is not None,
        preexec_fn=prioritise(niceness),
    )
    took = time.monotonic() - started
    if done.returncode != 0:
        raise SystemExit(
            f"{name} failed in {tree} (exit {done.returncode}):\n{done.stdout}\n{done.stderr}"
        )
    return done.stdout + f"(ran {took:.0f} s)\n"


def side_by_side(before: str, after: str) -> list[str]:
    """The lines with figures, paired by position: ``before`` then ``after`` under it."""
    old = [line for line in before.splitlines() if _NUMBER.search(line)]
    new = [line for line in after.splitlines() if _NUMBER.search(line)]
    out = []
    for i in range(max(len(old), len(new))):
        a = old[i] if i < len(old) else ""
        b = new[i] if i < len(new) else ""
        if _NUMBER.sub("#", a).split() == _NUMBER.sub("#", b).split():
            out.append(f"  before: {a.strip()}\n  after:  {b.strip()}")
        else:
            out.append(f"  before: {a.strip()}\n  after:  {b.strip()}   (lines differ in shape)")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_before_after", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--ref", required=True, help="the git ref measured as 'before'")
    parser.add_argument(
        "--rounds", type=int, default=1, help="runs of each side, alternating (default 1)"
    )
    parser.add_argument(
        "--this-tools",
        action="store_true",
        help="measure the ref with this tree's tools/ (the same benchmark code on both sides)",
    )
    parser.add_argument(
        "--priority",
        type=int,
        default=None,
        metavar="NICE",
        help="run each side in its own session at this nice value (e.g. -15; root only below 0)",
    )
    parser.add_argument("benchmark", help="bench, bench_scale, bench_resume, bench_picture, ...")
    parser.add_argument(
        "args", nargs=argparse.REMAINDER, help="the benchmark's own options (after --)"
    )
    opts = parser.parse_args(argv)
    args = [a for a in opts.args if a != "--"]
    with tempfile.TemporaryDirectory(prefix="rh-before-") as tmp:
        old_tree = Path(tmp) / "tree"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(old_tree), opts.ref],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        if opts.this_tools:
            for source in (ROOT / "tools").glob("*.py"):
                shutil.copy2(source, old_tree / "tools" / source.name)
        try:
            outputs: dict[str, list[str]] = {"before": [], "after": []}
            for r in range(opts.rounds):
                for label, tree in (
                    (("before", old_tree), ("after", ROOT))
                    if r % 2 == 0
                    else (("after", ROOT), ("before", old_tree))
                ):
                    print(
                        f"--- {label} ({opts.ref if label == 'before' else 'this tree'}), round {r + 1}",
                        flush=True,
                    )
                    text = run(tree, opts.benchmark, args, opts.priority)
                    print(text, flush=True)
                    outputs[label].append(text)
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(old_tree)], cwd=ROOT, check=False
            )
    print(
        f"=== {opts.benchmark} {' '.join(args)}: before ({opts.ref}) and after (this tree), side by side"
    )
    for r, (a, b) in enumerate(zip(outputs["before"], outputs["after"], strict=True)):
        print(f"round {r + 1}:")
        print("\n".join(side_by_side(a, b)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
