"""Two levels' cards compared position by position: double-dummy regret on the same positions.

    nice -n 19 python -m tools.choice_regret tools/arena_runs/plays/whist-5-hard-vs-rules.jsonl \\
        --a hard-learned --b hard [--positions 400] [--seed 1]
        [--budget-a SECONDS] [--budget-b SECONDS] [--tricks FIRST-LAST]

A cheap, paired look at a change to a level's card play before a duplicate match:
positions are drawn from exported plays (a card decision with a real choice at a
four-handed partnership table, any seat), each level chooses there from the seat's
view (its own budget, on the CPU clock; the same random seed for both), and each
choice is scored by its double-dummy regret in the deal as it lay (the tricks it
loses against the best card, :mod:`tools.dd_regret`). Prints each level's mean
regret a card, A's less B's with a 95% CI over the positions, and the positions
where the two chose differently. ``--budget-a``/``--budget-b`` give a side its own soft
search budget (the same level against itself at two budgets: what more worlds a
decision buy); ``--tricks 1-3`` draws the positions from those tricks only.
Double-dummy regret is not the levels' objective
(points) and a single card is not a deal: the duplicate match decides.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence

from engine import Game, Play, decode_action
from engine.ai import arena_player, clock
from engine.ai.coach.records import start_of
from engine.ai.search import dds
from engine.ai.search.bitmasks import NO_TRUMP
from tools.dd_regret import measurable, read_plays

__all__ = ["main", "positions"]


def positions(
    paths: Sequence[str], count: int, seed: int, tricks: tuple[int, int] | None = None
) -> list[Game]:
    """``count`` card decisions with a real choice, drawn evenly (by ``seed``) from the
    plays of ``paths``: the game just before each; only in tricks ``tricks`` (first and
    last, 1-based) when given."""
    plays = list(read_plays(paths))
    rng = random.Random(seed)
    rng.shuffle(plays)
    out: list[Game] = []
    for play in plays:
        if len(out) >= count:
            break
        record = play["record"]
        game = start_of(record)
        if not measurable(game):
            continue
        entries = [str(e).partition(" ") for e in record.get("actions", [])]
        choices = [i for i, (_seat, _, text) in enumerate(entries) if text.startswith("play:")]
        if tricks is not None:
            # the k-th card played (0-based) is in trick k // 4 + 1
            choices = [i for k, i in enumerate(choices) if tricks[0] <= k // 4 + 1 <= tricks[1]]
        if not choices:
            continue
        stop = rng.choice(choices)
        for seat_text, _, text in entries[:stop]:
            game.apply(int(seat_text), decode_action(text))
        seat = game.to_act()
        if seat is not None and sum(isinstance(a, Play) for a in game.legal_actions(seat)) > 1:
            out.append(game)
    return out


def _regret(game: Game, card: int) -> int:
    trump = game.trump.order if game.trump is not None else NO_TRUMP
    values = dds.solve_cards(
        list(game.hands[:4]), game.leader, [c.index for c in game.trick], trump
    )
    return max(values.values()) - values[card]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.choice_regret", description=__doc__.split("\n")[0]
    )
    parser.add_argument("plays", nargs="+")
    parser.add_argument("--a", default="hard-learned")
    parser.add_argument("--b", default="hard")
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-a", type=float, default=None, help="A's soft budget (s)")
    parser.add_argument("--budget-b", type=float, default=None, help="B's soft budget (s)")
    parser.add_argument(
        "--tricks", default=None, metavar="FIRST-LAST", help="positions in these tricks only"
    )
    args = parser.parse_args(argv)
    tricks = None
    if args.tricks is not None:
        first, _, last = args.tricks.partition("-")
        tricks = (int(first), int(last or first))
    clock.use("cpu")
    a = args.a if args.budget_a is None else f"{args.a}@{args.budget_a:g}s"
    b = args.b if args.budget_b is None else f"{args.b}@{args.budget_b:g}s"
    if a == b:
        parser.error("--a and --b are the same player: give one another level or budget")
    players = {
        a: arena_player(args.a, budget=args.budget_a),
        b: arena_player(args.b, budget=args.budget_b),
    }
    found = positions(args.plays, args.positions, args.seed, tricks)
    diffs: list[int] = []
    totals = {a: 0, b: 0}
    differ = 0
    for i, game in enumerate(found):
        seat = game.to_act()
        assert seat is not None
        view = game.observe(seat)
        chosen = {}
        for level, player in players.items():
            action = player.choose(view, view.legal, random.Random(args.seed * 7919 + i))
            assert isinstance(action, Play)
            chosen[level] = _regret(game, action.card.index)
            totals[level] += chosen[level]
        differ += chosen[a] != chosen[b]
        diffs.append(chosen[a] - chosen[b])
    n = len(diffs)
    if n < 2:
        print("choice_regret: too few positions", file=sys.stderr)
        return 1
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    where = "" if tricks is None else f", tricks {tricks[0]}-{tricks[1]}"
    print(f"{n} positions from {', '.join(args.plays)} (seed {args.seed}{where})")
    for level in (a, b):
        print(f"  {level:<14} regret a card {totals[level] / n:.4f} tricks")
    print(f"  {a} - {b}: {mean:+.4f} (95% CI {mean - half:+.4f} .. {mean + half:+.4f})")
    print(f"  positions where the regrets differ: {differ}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
