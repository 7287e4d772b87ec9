"""Compare the engine's behaviour with a git ref's, action by action.

Usage (from the repository root)::

    .venv/bin/python tools/compare_behaviour.py [--ref e06b107] [--steps 700]

For every game id, preset and a spread of overrides, a seeded random game is
played in this tree and in a temporary ``git worktree`` of ``--ref`` (each in
its own subprocess). At every step the probe records the phase, who acts, every
seat's legal actions, the verdict of ``check`` (reason and code) for one action
of each kind per seat, one seat's view (fields both versions share) and the
events of the action taken; at the end, the refusal after the match and the
rubber points. The two transcripts must be identical.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import dataclasses, json, random, sys
from engine import (CallCanYe, Card, DeclineRuff, IllegalAction, Pass, ShowHonours, TakeRuff, discard,
                    game_ids, new_game, play, presets_for)

OVERRIDES = [
    {},
    {"revoke_mode": "penalty"},
    {"can_ye_window": "before_own_first_card"},
    {"ruff_mandatory": "true", "ruff_discard_restriction": "no_trumps", "first_leader": "ruffer"},
    {"score_order": "simultaneous", "match_format": "best_of_3", "target_score": 3},
]
steps_max = int(sys.argv[2])
out = []
n = 0
only = set(sys.argv[3].split(",")) if len(sys.argv) > 3 else None  # the ref's game ids
for gid in game_ids():
    if only is not None and gid not in only:
        continue  # a game added since the ref (its own tests cover it)
    for preset in presets_for(gid):
        for ov in OVERRIDES:
            try:
                g, _ = new_game(gid, preset, ov, seed=n)
            except Exception as e:
                out.append(["rules", gid, preset, ov, str(e)])
                continue
            rng = random.Random(n)
            n += 1
            for _ in range(steps_max):
                if g.is_over:
                    break
                seat = g.to_act()
                rec = [g.phase, seat, *([a.encode() for a in g.legal_actions(s)] for s in range(g.n_players))]
                probes = [TakeRuff(), DeclineRuff(), CallCanYe(), ShowHonours(), Pass(),
                          play(Card.from_index(rng.randrange(52))),
                          discard(Card.from_index(rng.randrange(52)))]
                for s in range(g.n_players):
                    for p in probes:
                        try:
                            g.check(s, p)
                            rec.append("ok")
                        except IllegalAction as e:
                            rec.append([e.reason, e.code])
                view = dataclasses.asdict(g.observe(rng.randrange(g.n_players)))
                for added in ("rules", "sides", "rank_order", "to_lay_out", "auction", "contract", "declarer", "exposed", "layouts", "notes", "claims"):  # fields added since e06b107
                    view.pop(added, None)
                rec.append(repr(sorted(view.items())))
                out.append(rec)
                out.append([e.to_dict() for e in g.apply(seat, rng.choice(g.legal_actions(seat)))])
            try:
                g.apply(0, Pass())
            except IllegalAction as e:
                out.append([e.reason, e.code])
            out.append(list(g.rubber_points))
json.dump(out, open(sys.argv[1], "w"), default=str)
"""


def _game_ids(tree: Path) -> str:
    """The game ids a tree knows, comma-separated."""
    done = subprocess.run(
        [sys.executable, "-c", "from engine import game_ids; print(','.join(game_ids()))"],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


def _run(tree: Path, out: Path, steps: int, games: str) -> None:
    subprocess.run(
        [sys.executable, "-c", PROBE, str(out), str(steps), games],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        check=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="e06b107")
    parser.add_argument("--steps", type=int, default=700, help="actions per game (default 700)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="behaviour-ref-") as tmp:
        old_tree = Path(tmp) / "tree"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--quiet", str(old_tree), args.ref],
            cwd=ROOT,
            check=True,
        )
        try:
            games = _game_ids(old_tree)  # games added since the ref are not compared
            _run(old_tree, Path(tmp) / "old.json", args.steps, games)
            _run(ROOT, Path(tmp) / "new.json", args.steps, games)
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(old_tree)], cwd=ROOT, check=False
            )
        old = (Path(tmp) / "old.json").read_text()
        new = (Path(tmp) / "new.json").read_text()
    records = len(json.loads(old))  # steps probed + action results + match ends
    if old == new:
        print(
            f"identical: {records:,} transcript entries over every game id, preset and 5 override sets ({args.ref} vs tree)"
        )
        return 0
    at = next(i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b)
    print(
        f"DIFFERENT from {args.ref} at character {at}:\n old ...{old[at - 200 : at + 200]}\n new ...{new[at - 200 : at + 200]}"
    )
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
