"""The hand DM keeps only what still matters: no stub left behind per deal, no empty
hand line once the game is over."""

from __future__ import annotations

from typing import Any

import pytest

from .dm_play import open_table
from .helpers import hand_message
from .test_text_style_suits import _act


@pytest.mark.parametrize("bot_settings", [{"seed": 2}])
async def test_one_hand_dm_per_player_and_no_empty_hand_at_the_end(simcord_env: Any) -> None:
    env = simcord_env
    _, _, (alice,) = await open_table(env, 1, "whist-short-classic", ai=3)
    table = env.bot.manager.tables[1]
    for _ in range(3000):
        if table.game.is_over:
            break
        assert await _act(alice), hand_message(alice).content
    assert table.game.is_over and table.game.deals_total >= 2
    await env.settle()
    dms = alice.user.dm_channel.history()
    hands = [m for m in dms if "table #1" in m.content]
    assert len(hands) == 1, [m.content.splitlines()[0] for m in hands]
    assert not any("earlier deal" in m.content for m in dms)
    final = hand_message(alice).content
    assert "The game is over" in final and "(no cards)" not in final, final
