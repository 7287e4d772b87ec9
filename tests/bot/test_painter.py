"""The painter draws pictures in a worker process of its own and survives its death."""

from __future__ import annotations

import os
import signal
from concurrent.futures.process import BrokenProcessPool

import pytest

from bot.present.painter import Painter
from bot.present.picture import Scene, draw_table, scene_of
from engine import new_game
from tools.bench_picture import table_info


def _scene() -> Scene:
    game, _ = new_game(seed=5)
    return scene_of(table_info(game), game.observe(0))


async def test_a_picture_drawn_in_the_worker_process_is_the_one_drawn_here() -> None:
    painter = Painter("process")
    try:
        scene = _scene()
        picture = await painter.table(scene)
        assert picture.png == draw_table(scene).png
        assert painter.worker_pids() and os.getpid() not in painter.worker_pids()
    finally:
        await painter.close()


async def test_a_killed_worker_fails_one_drawing_and_the_next_one_works() -> None:
    painter = Painter("process")
    try:
        scene = _scene()
        await painter.table(scene)
        (pid,) = painter.worker_pids()
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            await painter.table(scene)
        picture = await painter.table(scene)
        assert picture.png.startswith(b"\x89PNG")
        assert painter.restarts == 1 and painter.worker_pids() != [pid]
    finally:
        await painter.close()
