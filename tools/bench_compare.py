"""Run ``tools.bench_engine`` for this working tree and for a git ref, side by side.

Usage (from the repository root)::

    .venv/bin/python tools/bench_compare.py [--ref e06b107] [--seconds 3] [--runs 3]
                                              [--game ruff-honours-cotton] [--preset NAME]

The ref is checked out into a temporary ``git worktree`` (removed afterwards);
each side runs ``python -m tools.bench_engine`` in its own subprocess with
``PYTHONPATH`` pointing at its tree, alternating old/new run by run so that
load on the machine falls on both alike. The best figure of each side is
compared: ``ratio = new / old`` (above 1.0 the current code is faster).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_BEST = re.compile(r"best ([\d,]+) deals/s")


def _one_run(tree: Path, game: str, preset: str | None, seconds: float) -> float:
    cmd = [
        sys.executable,
        "-m",
        "tools.bench_engine",
        "--game",
        game,
        "--seconds",
        str(seconds),
        "--runs",
        "1",
    ]
    if preset:
        cmd += ["--preset", preset]
    out = subprocess.run(
        cmd,
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = _BEST.search(out)
    if found is None:  # pragma: no cover - a bench that printed something else
        raise SystemExit(f"unexpected tools.bench_engine output from {tree}:\n{out}")
    return float(found.group(1).replace(",", ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--ref", default="e06b107", help="git ref to compare against (default e06b107)"
    )
    parser.add_argument("--game", default="ruff-honours-cotton")
    parser.add_argument("--preset", default=None)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-ref-") as tmp:
        old_tree = Path(tmp) / "tree"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--quiet", str(old_tree), args.ref],
            cwd=ROOT,
            check=True,
        )
        try:
            old: list[float] = []
            new: list[float] = []
            for _ in range(args.runs):
                old.append(_one_run(old_tree, args.game, args.preset, args.seconds))
                new.append(_one_run(ROOT, args.game, args.preset, args.seconds))
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(old_tree)], cwd=ROOT, check=False
            )
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    label = f"{args.game}" + (f" [{args.preset}]" if args.preset else "")
    print(
        f"tools.bench_engine {label}, {args.runs} x {args.seconds:g} s each side, alternating, one core"
    )
    print(
        f"  old {args.ref:>12}: best {max(old):>9,.0f} deals/s   runs {', '.join(f'{r:,.0f}' for r in old)}"
    )
    print(
        f"  new {head + ' + tree':>12}: best {max(new):>9,.0f} deals/s   runs {', '.join(f'{r:,.0f}' for r in new)}"
    )
    print(f"  ratio new/old: {max(new) / max(old):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
