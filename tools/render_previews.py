"""Regenerate the preview pictures in docs/: ``python tools/render_previews.py``.

Seeded games played by the easy AI (tools.bench_picture.play), stopped at a
chosen state: a 4-player table mid-trick, a 3-player Ruffe and Trump table, a
2-player Turnover Bridge table with its layouts, a finished game, and the final
score chart of a Long Whist rubber. Deterministic: the same files every run
(on a machine with the same font).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.present.chart import score_chart  # noqa: E402
from bot.present.picture import table_picture  # noqa: E402
from engine import SeatView  # noqa: E402
from tools.bench_picture import Form, finished, play, table_info  # noqa: E402

DOCS = Path(__file__).resolve().parents[1] / "docs"

TABLES: list[tuple[str, Form, int, Callable[[SeatView], bool]]] = [
    (
        "table-4p-mid-trick.png",
        Form("ruff-honours-cotton"),
        3,
        lambda v: v.phase == "play" and v.trick_no == 5 and len(v.trick) == 3,
    ),
    (
        "table-3p-ruffe-and-trump.png",
        Form("ruff-trump-willughby", (("players", 3),)),
        1,
        lambda v: v.phase == "play" and v.trick_no == 4 and len(v.trick) == 2,
    ),
    (
        "table-2p-turnover.png",
        Form("turnover-bridge"),
        3,
        lambda v: v.phase == "play" and v.trick_no == 7 and len(v.trick) == 1,
    ),
    (
        "table-solo-whist.png",
        Form("solo-whist"),
        3,
        lambda v: v.phase == "play" and v.trick_no == 3 and len(v.trick) == 2,
    ),
]


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    for name, form, seed, stop in TABLES:
        for game, view in play(form, seed):
            if stop(view):
                picture = table_picture(table_info(game), view)
                break
        else:
            raise SystemExit(f"{name}: the state was not reached")
        (DOCS / name).write_bytes(picture.png)
        print(f"{name}: {len(picture.png)} bytes — {picture.description}")
    game = finished(Form("whist-5"), 2)
    picture = table_picture(table_info(game), game.observe(0))
    (DOCS / "table-game-over.png").write_bytes(picture.png)
    print(f"table-game-over.png: {len(picture.png)} bytes — {picture.description}")
    game = finished(Form("whist-long"), 1)
    chart = score_chart(table_info(game), game)
    (DOCS / "score-chart.png").write_bytes(chart.png)
    print(f"score-chart.png: {len(chart.png)} bytes — {chart.description}")


if __name__ == "__main__":
    main()
