"""Learn the card-choice model of :mod:`engine.ai.search.policy` from the arena's exported plays.

    python -m tools.learn_policy docs/arena/plays/whist-5-hard-vs-pimc.jsonl.gz \\
        [--levels hard,pimc] [--train-seeds 1-500] [--l2 1.0]

Every record is a whole deal with every hand known, so each card a seat of
``--levels`` played with a choice is a training example: the features of every legal
card (:func:`engine.ai.search.policy.card_features`) and the one played. The weights
of the conditional logit are fitted by Newton's method (numpy, an L2 penalty
``--l2``) on the boards whose seed is in ``--train-seeds``; the mean log-likelihood a
decision is printed for those and for the others (held out), beside the uniform
choice's, with the weights as the Python tuple for :data:`engine.ai.levels.POLICY_WEIGHTS`.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from engine import Play, decode_action
from engine.ai.coach.records import start_of
from engine.ai.search.bitmasks import NO_TRUMP, SUIT_MASK_OF, trick_winner_pos
from engine.ai.search.policy import FEATURES, card_features
from tools.dd_regret import read_plays

__all__ = ["examples", "fit", "main"]

Example = tuple[list[list[float]], int]  # every legal card's features, the one played


def examples(record: Mapping[str, Any], seats: set[int]) -> list[Example]:
    """The card decisions of ``seats`` with a choice in the record's first deal."""
    game = start_of(record)
    out: list[Example] = []
    gone = 0
    for entry in record.get("actions", []):
        seat_text, _, action_text = str(entry).partition(" ")
        seat = int(seat_text)
        action = decode_action(action_text)
        if game.deals_total > 1:
            break
        if isinstance(action, Play) and seat in seats:
            trump = game.trump.order if game.trump is not None else NO_TRUMP
            hand = game.hands[seat]
            trick = tuple(c.index for c in game.trick)
            legal = hand & SUIT_MASK_OF[trick[0]] if trick else hand
            if not legal >> action.card.index & 1:
                legal = hand
            if legal & (legal - 1):
                same = False
                if trick:
                    win = (game.leader + trick_winner_pos(list(trick), trump)) % 4
                    same = game.side_of[win] == game.side_of[seat]
                rows = []
                chosen = 0
                m = legal
                while m:
                    c = (m & -m).bit_length() - 1
                    m &= m - 1
                    if c == action.card.index:
                        chosen = len(rows)
                    rows.append(card_features(hand, c, trick, gone, trump, same))
                out.append((rows, chosen))
            if len(game.trick) == 3:
                for c in (*game.trick, action.card):
                    gone |= c.bit
        game.apply(seat, action)
    return out


def _arrays(data: Sequence[Example]) -> tuple[Any, Any, Any]:
    width = max(len(rows) for rows, _ in data)
    x = np.zeros((len(data), width, len(FEATURES)))
    mask = np.zeros((len(data), width), dtype=bool)
    y = np.zeros(len(data), dtype=int)
    for i, (rows, chosen) in enumerate(data):
        x[i, : len(rows)] = rows
        mask[i, : len(rows)] = True
        y[i] = chosen
    return x, mask, y


def _loglik(w: Any, x: Any, mask: Any, y: Any) -> tuple[float, Any]:
    z = np.where(mask, x @ w, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(logp[np.arange(len(y)), y].sum()), np.exp(logp)


def fit(data: Sequence[Example], l2: float, steps: int = 30) -> Any:
    """The weights of the best penalised log-likelihood (Newton's method)."""
    x, mask, y = _arrays(data)
    w = np.zeros(len(FEATURES))
    for _ in range(steps):
        _ll, p = _loglik(w, x, mask, y)
        mean = np.einsum("dj,djf->df", p, x)
        grad = (x[np.arange(len(y)), y] - mean).sum(axis=0) - l2 * w
        xs = (x * np.sqrt(p)[:, :, None]).reshape(-1, len(FEATURES))
        second = xs.T @ xs - mean.T @ mean
        hess = second + l2 * np.eye(len(FEATURES))
        step = np.linalg.solve(hess, grad)
        w = w + step
        if float(np.abs(step).max()) < 1e-6:
            break
    return w


def _mean_loglik(w: Any, data: Sequence[Example]) -> tuple[float, float]:
    if not data:
        return float("nan"), float("nan")
    x, mask, y = _arrays(data)
    ll, _p = _loglik(w, x, mask, y)
    uniform = -sum(math.log(len(rows)) for rows, _ in data)
    return ll / len(data), uniform / len(data)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.learn_policy", description=__doc__.split("\n")[0]
    )
    parser.add_argument("plays", nargs="+")
    parser.add_argument("--levels", default="hard,pimc", help="whose cards are learned from")
    parser.add_argument("--train-seeds", default="1-500", help="seeds learned from (a-b)")
    parser.add_argument("--l2", type=float, default=1.0)
    args = parser.parse_args(argv)
    levels = set(args.levels.split(","))
    lo, _, hi = args.train_seeds.partition("-")
    train: list[Example] = []
    held: list[Example] = []
    for play in read_plays(args.plays):
        seats = {s for s, level in enumerate(play["levels"]) if level in levels}
        found = examples(play["record"], seats)
        (train if int(lo) <= int(play["seed"]) <= int(hi) else held).extend(found)
    if not train:
        print("learn_policy: no decisions to learn from", file=sys.stderr)
        return 1
    w = fit(train, args.l2)
    for name, data in (("trained on", train), ("held out", held)):
        model, uniform = _mean_loglik(w, data)
        print(
            f"{name}: {len(data)} decisions, log-likelihood a decision {model:.4f} "
            f"(uniform {uniform:.4f})"
        )
    for name, value in zip(FEATURES, w, strict=True):
        print(f"  {name:<32} {value:+.3f}")
    print("POLICY_WEIGHTS = (" + ", ".join(f"{v:.3f}" for v in w) + ")")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
