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


def test_a_sent_table_layout_leaves_nothing_for_the_collector() -> None:
    """Every move edits a table message: its layout (container, picture, rows of buttons)
    is freed as soon as it is sent, not left for a collection that stops the loop."""
    from bot.present.drawing import Picture
    from bot.present.layout import TableLayout, play_buttons
    from bot.present.notify import release_view

    picture = Picture(png=b"png", description="the table", key=1, width=10, height=10)
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for table_id in range(5):
            shown = TableLayout(
                lines=("North to play", "Trumps: ♠"),
                buttons=play_buttons(table_id, show_reclaim=True),
                picture=picture,
                alt="the table in words",
            )
            view = shown.view()
            # gallery, container, text, two rows, four buttons (the reclaim row too)
            assert len(list(view.walk_children())) >= 9
            release_view(view)
            del view, shown
        gc.collect()
        left = [type(o).__module__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert not [m for m in left if m.startswith(("discord", "bot"))]
