"""Record every AI level's decisions on seeded positions, to check a refactor changed none.

    python -m tools.ai_decisions [--seeds 6] [--out decisions.txt]
    python -m tools.ai_decisions --compare before.txt after.txt

Positions come from seeded games of every game id (and the Ruffe and Trump
and Turnover Bridge forms): each game is played by ``easy`` with an
occasional random legal move, and a fixed share of its decisions with a real
choice are kept. At each kept position every level (and the arena's trial
levels at the open tables) chooses with ``random.Random(seed)``.

Budgets are made deterministic by the AI's own clock switch
(:data:`engine.ai.search.clock.CLOCKS`): the run measures them on a *tick* clock that
advances :data:`TICK` seconds at every reading, so a budget buys the same
search on any machine, and DDS solves are awaited without a time limit. The
same code then gives the same decisions, and a change in what is searched (or
in how often the clock is read) shows up as a changed line.

One line per (position, level): ``form seed step level -> action``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Future
from typing import Final, TypeVar

from engine import Game, SeatView, make_rules, new_game
from engine.ai import LEVELS, TRIAL_LEVELS, clock, get_player

__all__ = ["FORMS", "TICK", "compare", "main", "positions", "record"]

T = TypeVar("T")

TICK: Final = 0.004  # seconds the tick clock advances at each reading
KEEP: Final = 5  # one decision in this many is kept (every one in the contract games)
KEEP_ALL: Final = ("solo-whist", "bid-whist")

FORMS: Final[tuple[tuple[str, dict[str, object]], ...]] = (
    ("ruff-honours-cotton", {}),
    ("honours-48", {}),
    ("whisk-48", {}),
    ("whist-5", {}),
    ("whist-7-rotate", {}),
    ("whist-9-honours", {}),
    ("whist-short-classic", {}),
    ("whist-long", {}),
    ("ruff-trump-willughby", {}),
    ("ruff-trump-willughby", {"players": 3, "ruff_announce": "declared"}),
    ("ruff-trump-willughby", {"players": 2}),
    ("ruff-trump-willughby", {"mode": "single_hand"}),
    ("solo-whist", {}),
    ("turnover-bridge", {}),
    ("turnover-bridge", {"layout": "pagat"}),
    ("bid-whist", {}),
)


def _label(game_id: str, overrides: dict[str, object]) -> str:
    extra = ",".join(f"{k}={v}" for k, v in sorted(overrides.items()))
    return f"{game_id}[{extra}]" if extra else game_id


def positions(seeds: int) -> Iterator[tuple[str, int, int, SeatView]]:
    """(form label, seed, step, view) of every kept position, in a fixed order."""
    driver = get_player("easy")
    for game_id, overrides in FORMS:
        label = _label(game_id, overrides)
        for seed in range(seeds):
            game: Game
            game, _ = new_game(
                rules=make_rules(game_id, None, overrides), seed=seed, first_dealer=seed % 2
            )
            rng = random.Random(seed)
            step = 0
            keep = 1 if game_id in KEEP_ALL else KEEP
            while not game.is_over and game.deal_no <= 2 and step < 400:
                seat = game.to_act()
                assert seat is not None
                view = game.observe(seat)
                if len(view.legal) > 1 and rng.randrange(keep) == 0:
                    yield label, seed, step, view
                if rng.random() < 0.2:
                    action = rng.choice(view.legal)
                else:
                    action = driver.choose(view, view.legal, rng)
                game.apply(seat, action)
                step += 1


def _tick_clock() -> None:
    readings = [0]

    def tick() -> float:
        readings[0] += 1
        return readings[0] * TICK

    def wait(future: Future[T], timeout: float | None) -> T:
        return future.result()

    clock.CLOCKS["tick"] = tick
    clock.use("tick")
    clock.wait = wait  # type: ignore[assignment]


def record(seeds: int) -> list[str]:
    """One line per (position, level): the decision."""
    _tick_clock()
    # the trial levels that differ from hard at the open tables (hard-policy weighs its
    # worlds at the four-handed partnership tables only: at the open tables it is hard)
    trials = tuple(level for level in TRIAL_LEVELS if level != "hard-policy")
    players = {level: get_player(level) for level in (*LEVELS, *trials)}
    open_forms = ("ruff-trump-willughby[", "turnover-bridge")
    lines: list[str] = []
    for label, seed, step, view in positions(seeds):
        levels = (*LEVELS, *trials) if label.startswith(open_forms) else LEVELS
        for level in levels:
            action = players[level].choose(
                view, view.legal, random.Random(f"{label}:{seed}:{step}")
            )
            lines.append(f"{label} {seed} {step} {level} -> {action.encode()}")
    return lines


def compare(before: list[str], after: list[str]) -> int:
    """Print the differing lines; the count of them (0: identical)."""
    changed = 0
    if len(before) != len(after):
        print(f"different numbers of decisions: {len(before)} before, {len(after)} after")
        changed += abs(len(before) - len(after))
    for old, new in zip(before, after, strict=False):
        if old != new:
            changed += 1
            print(f"- {old}\n+ {new}")
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seeds", type=int, default=6, help="seeded games per form")
    parser.add_argument("--out", help="write the decisions here (default: stdout)")
    parser.add_argument(
        "--compare", nargs=2, metavar=("BEFORE", "AFTER"), help="compare two recordings"
    )
    args = parser.parse_args(argv)
    if args.compare:
        texts = []
        for path in args.compare:
            with open(path, encoding="utf-8") as f:
                texts.append(f.read().splitlines())
        changed = compare(texts[0], texts[1])
        levels: dict[str, int] = {}
        for line in texts[1]:
            level = line.split(" -> ")[0].rsplit(" ", 1)[1]
            levels[level] = levels.get(level, 0) + 1
        positions_seen = len({line.split(" -> ")[0].rsplit(" ", 1)[0] for line in texts[1]})
        print(
            f"{len(texts[1])} decisions at {positions_seen} positions"
            f" ({', '.join(f'{k} {v}' for k, v in levels.items())}): {changed} differ"
        )
        return 1 if changed else 0
    start = time.perf_counter()
    lines = record(args.seeds)
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    print(f"{len(lines)} decisions in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
