"""Learn the weights of hard's soft hints from the arena's exported plays (self-play records).

    python -m tools.learn_hints tools/arena_runs/plays/whist-5-hard-vs-rules.jsonl \\
        [more plays ...] [--level hard]

Hard's inference (:mod:`engine.ai.search.worlds`) keeps a sampled world that breaks
a hint from the play only with the hint's weight. Each hint is a choice a player
made where a card he might hold would have served better:

* ``fourth`` and ``third``: the fourth (third) hand, an opponent winning the trick
  with a card of the suit led, followed suit without beating it: a world where he
  held a higher card of the suit is kept with this weight;
* ``ruff``: the fourth hand, void in the suit led and an opponent winning without a
  trump, threw a side card: a world where he held a trump is kept with this weight.

The right weight is a likelihood ratio: the chance of the play seen when the player
holds such a card, over its chance when he holds none. Without one the play was
forced (chance 1), so the weight is the share of the positions where the player
*could* have beaten the trick (or ruffed) in which he did not. Every record is a
whole deal, so each such position is known with the hands as they lay: this tool
counts them, over the plays of ``--level``'s seats, and prints each share with
a 95% CI (Wilson) and the Python tuple for :data:`engine.ai.levels.LEARNED_HINTS`.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import Play, decode_action
from engine.ai.coach.records import start_of
from engine.ai.search.bitmasks import NO_TRUMP, SUIT_BITS, trick_winner_pos
from tools.dd_regret import read_plays

__all__ = ["KINDS", "Counts", "count_card", "count_play", "main", "wilson"]

KINDS = ("fourth", "third", "ruff")


@dataclass(slots=True)
class Counts:
    """Per hint: the positions where the player could have beaten (or ruffed), and how
    many times he did not."""

    could: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    did_not: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))

    def add(self, other: Counts) -> None:
        for kind in KINDS:
            self.could[kind] += other.could[kind]
            self.did_not[kind] += other.did_not[kind]


def wilson(k: int, n: int) -> tuple[float, float, float]:
    """The share ``k / n`` and its 95% Wilson interval."""
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def count_play(record: Mapping[str, Any], seats: Iterable[int]) -> Counts:
    """The hint positions of ``seats``' cards in the record's deal (four seats, partners
    opposite), with the hands as they lay."""
    wanted = set(seats)
    game = start_of(record)
    counts = Counts()
    for entry in record.get("actions", []):
        seat_text, _, action_text = str(entry).partition(" ")
        seat = int(seat_text)
        action = decode_action(action_text)
        if isinstance(action, Play) and seat in wanted and len(game.trick) in (2, 3):
            trump = game.trump.order if game.trump is not None else NO_TRUMP
            before = [c.index for c in game.trick]
            count_card(game.hands[seat], before, action.card.index, trump, counts)
        game.apply(seat, action)
    return counts


def count_card(hand: int, before: list[int], card: int, trump: int, counts: Counts) -> None:
    """One third- or fourth-hand card ``card`` from ``hand`` after ``before`` (partners
    opposite: the player's partner played two cards before him)."""
    pos = len(before)
    win_pos = trick_winner_pos(before, trump)
    if (pos - win_pos) % 2 == 0:
        return  # his side is winning: no reason to beat it
    win = before[win_pos]
    led = before[0] // 13
    follow = hand & SUIT_BITS[led]
    if follow:
        if win // 13 != led:
            return  # trumped: following cannot beat it
        higher = follow & ~((1 << (win + 1)) - 1)
        if higher:
            kind = "fourth" if pos == 3 else "third"
            counts.could[kind] += 1
            if not higher >> card & 1:
                counts.did_not[kind] += 1
        return
    if pos == 3 and trump != NO_TRUMP and win // 13 != trump and hand & SUIT_BITS[trump]:
        counts.could["ruff"] += 1
        if card // 13 != trump:
            counts.did_not["ruff"] += 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.learn_hints", description=__doc__.split("\n")[0]
    )
    parser.add_argument("plays", nargs="+", help="exported plays (.jsonl or .jsonl.gz)")
    parser.add_argument("--level", default="hard", help="whose cards are counted")
    args = parser.parse_args(argv)
    total = Counts()
    boards = 0
    for play in read_plays(args.plays):
        seats = [s for s, lv in enumerate(play["levels"]) if lv == args.level]
        if seats:
            total.add(count_play(play["record"], seats))
            boards += 1
    print(f"{boards} plays with {args.level} seated, from {', '.join(args.plays)}")
    weights = []
    for kind in KINDS:
        n = total.could[kind]
        k = total.did_not[kind]
        p, lo, hi = wilson(k, n)
        print(
            f"  {kind:<6} could {n:6d}, did not {k:6d}: weight {p:.3f} (95% CI {lo:.3f} .. {hi:.3f})"
        )
        weights.append(round(p, 3))
    print(f"LEARNED_HINTS = {tuple(weights)}")
    return 0 if boards else 1


if __name__ == "__main__":
    sys.exit(main())
