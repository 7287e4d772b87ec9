"""Benchmark the table picture: ``python -m tools.bench_picture [--seeds N] [--deals N]
[--before REF]``.

Plays seeded games of every game id (and the 3- and 2-player forms of Ruffe
and Trump) with the engine's easy AI, draws the picture of every state the
table message could show (the view of seat 0: the picture reads public
information only) and prints the sample size and the p50/p95/max render time
(CPU time of the process, which a loaded machine does not inflate) and PNG
size, overall and per game id. The score chart of each finished game is timed
too (its replay included).

``--before REF`` runs the same benchmark on the tree of git ref ``REF`` too (its
``bot``, ``engine`` and ``tools`` exported to a temporary folder, this script
copied in), one after the other in this run, and prints each line before and
after side by side.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.present.chart import score_chart
from bot.present.picture import draw_table, scene_of
from bot.present.render import SeatInfo, TableInfo
from engine import Game, SeatView, game_ids, make_rules, new_game
from engine.ai import EasyPlayer

PLAYER_NAMES = ("Alice", "Bartholomew the Bold", "Çelik", "Dmitri")


@dataclass(frozen=True, slots=True)
class Form:
    """One game to play: a game id with its overrides (a label for the report)."""

    game_id: str
    overrides: tuple[tuple[str, object], ...] = ()

    @property
    def label(self) -> str:
        extra = ",".join(f"{k}={v}" for k, v in self.overrides)
        return f"{self.game_id}[{extra}]" if extra else self.game_id


def forms() -> list[Form]:
    """Every game id with its defaults, and Ruffe and Trump for 3 and 2 players."""
    out = [Form(g) for g in game_ids()]
    if "ruff-trump-willughby" in game_ids():
        out += [
            Form("ruff-trump-willughby", (("players", 3),)),
            Form("ruff-trump-willughby", (("players", 2),)),
        ]
    return out


def table_info(game: Game, table_id: int = 1) -> TableInfo:
    n = game.n_players
    seats = tuple(
        SeatInfo(PLAYER_NAMES[s], 1000 + s)
        if s % 2 == 0
        else SeatInfo(f"{PLAYER_NAMES[s]} (easy)", None, "easy")
        for s in range(n)
    )
    return TableInfo(table_id, game.rules, seats)


def play(form: Form, seed: int, max_deals: int | None = None) -> Iterator[tuple[Game, SeatView]]:
    """Every state of a seeded game played by the easy AI: (game, the view of seat 0).

    ``max_deals`` stops after that many deals (the last state is then mid-game).
    """
    rules = make_rules(form.game_id, None, dict(form.overrides))
    game, _ = new_game(rules.game_id, rules.preset, dict(form.overrides), seed=seed)
    rng = random.Random(seed)
    player = EasyPlayer()
    yield game, game.observe(0)
    deals = 1
    while not game.is_over:
        seat = game.to_act()
        assert seat is not None
        action = player.choose(game.observe(seat), game.legal_actions(seat), rng)
        deal_no = (game.game_no, game.deal_no)
        game.apply(seat, action)
        if (game.game_no, game.deal_no) != deal_no:
            deals += 1
            if max_deals is not None and deals > max_deals and not game.is_over:
                return
        yield game, game.observe(0)


def finished(form: Form, seed: int) -> Game:
    """A seeded game played to its end by the easy AI."""
    states = play(form, seed)
    game, _ = next(states)  # the same Game object throughout, played on in place
    for _ in states:
        pass
    assert game.is_over
    return game


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _line(label: str, ms: Sequence[float], sizes: Sequence[int]) -> str:
    return (
        f"{label:<38} n={len(ms):5d}  CPU ms p50 {statistics.median(ms):5.1f} p95 {_pct(ms, 0.95):5.1f} "
        f"max {max(ms):6.1f}  bytes p50 {int(statistics.median(sizes)):6d} p95 {int(_pct(sizes, 0.95)):6d} "
        f"max {max(sizes):6d}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seeds", type=int, default=2, help="seeded games per game id")
    parser.add_argument(
        "--deals", type=int, default=None, help="stop each game after this many deals"
    )
    parser.add_argument("--before", metavar="REF", help="also bench git ref REF, side by side")
    args = parser.parse_args(argv)
    if args.before:
        _side_by_side(args.before, args.seeds, args.deals)
        return

    all_ms: list[float] = []
    all_sizes: list[int] = []
    chart_ms: list[float] = []
    chart_sizes: list[int] = []
    for form in forms():
        ms: list[float] = []
        sizes: list[int] = []
        for seed in range(1, args.seeds + 1):
            game = None
            for game, view in play(form, seed, args.deals):
                info = table_info(game)
                start = time.process_time()  # CPU time: holds on a loaded machine
                picture = draw_table(scene_of(info, view))
                ms.append((time.process_time() - start) * 1000)
                sizes.append(len(picture.png))
            if game is not None and game.is_over:
                start = time.process_time()
                chart = score_chart(table_info(game), game)
                chart_ms.append((time.process_time() - start) * 1000)
                chart_sizes.append(len(chart.png))
        print(_line(form.label, ms, sizes), flush=True)
        all_ms += ms
        all_sizes += sizes
    print(_line("ALL table pictures", all_ms, all_sizes))
    if chart_ms:
        print(_line("score charts (replay + draw)", chart_ms, chart_sizes))


def _side_by_side(ref: str, seeds: int, deals: int | None) -> None:
    """This benchmark on ``ref``'s tree and on this one, line by line."""
    here = Path(__file__).resolve().parents[1]
    extra = ["--seeds", str(seeds)] + (["--deals", str(deals)] if deals is not None else [])
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(
            ["git", "-C", str(here), "archive", ref, "bot", "engine", "tools"],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        shutil.copy(Path(__file__), Path(folder) / "tools" / "bench_picture.py")
        runs = [
            subprocess.run(
                [sys.executable, "-m", "tools.bench_picture", *extra],
                cwd=tree,
                check=True,
                capture_output=True,
                text=True,
            ).stdout.splitlines()
            for tree in (folder, str(here))
        ]
    for before, after in zip(*runs, strict=False):
        print(f"before {ref[:10]}  {before}")
        print(f"after  {'(this tree)':<10}  {after}")


if __name__ == "__main__":
    main()
