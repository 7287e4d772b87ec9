"""Start-up settles the heap (bot.app.heap): the collector's pauses stay short under load."""

from __future__ import annotations

import gc
from typing import Any

from bot.app import heap


async def test_a_started_bot_has_frozen_its_start_up_objects(simcord_env: Any) -> None:
    assert simcord_env.bot.manager is not None  # the real client ran setup_hook and resume
    assert gc.get_freeze_count() > 10_000  # modules, classes, the command tree
    assert gc.get_threshold()[0] == heap.YOUNG_THRESHOLD
    frozen = gc.get_freeze_count()
    heap.settle()  # a second start in the same process freezes nothing more
    assert gc.get_freeze_count() == frozen
