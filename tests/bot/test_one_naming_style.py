"""One naming style for players: an AI is "Cotton, AI easy" on the table, in the DMs
and in the replay alike, and the table's hand sizes say what they count."""

from __future__ import annotations

import re
from typing import Any

from bot.present.layout import layout_text as message_text

from .dm_play import open_table
from .helpers import hand_message, table_message
from .test_text_style_suits import _act


async def test_an_ai_is_named_alike_everywhere_and_hand_sizes_are_cards(
    simcord_env: Any,
) -> None:
    env = simcord_env
    _, channel, (alice,) = await open_table(env, 1, "whist-short-classic", ai=3)
    table = env.bot.manager.tables[1]
    ai = [seat.name for seat in table.seats[1:]]
    text = message_text(table_message(channel))
    seats_line = next(line for line in text.splitlines() if line.startswith("N: "))
    entries = seats_line.split(" | ")
    assert len(entries) == 4 and all(re.search(r"\(\d+ cards?\)$", e) for e in entries), entries
    for name in ai:
        assert f"{name}, AI easy" in seats_line
    while not table.game.is_over and table.game.trick_no < 2:
        assert await _act(alice)
    dm = hand_message(alice).content
    for shown in (text, message_text(table_message(channel)), dm):
        assert "(easy)" not in shown, shown
    named = any(f"{name}, AI easy" in dm for name in ai)  # a turn to play names seats only
    while not table.game.is_over:
        assert await _act(alice)
        dm = hand_message(alice).content
        assert "(easy)" not in dm, dm
        named = named or any(f"{name}, AI easy" in dm for name in ai)
    assert named, "the DM names an AI as the table does"
    res = await alice.slash(channel, "ruff replay", table=table.id)
    assert any(f"{name}, AI easy" in res.response.content for name in ai)
    assert "(easy)" not in message_text(table_message(channel))
