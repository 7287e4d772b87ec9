"""A "My hand" copy (an ephemeral reply) can be edited only while its interaction
token lasts, 15 minutes: a minute before, it says it has stopped updating and loses
its buttons, never going stale silently; a click on it meanwhile gives it 15 more
minutes. Time is simcord's clock, moved by the test."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord_ui.shown import shown as shown_of

from .helpers import raw_buttons, table_message

MIN = 60.0


@pytest.mark.parametrize("bot_settings", [{"seed": 5, "ai_delay": 10.0}])
async def test_my_hand_copy_says_it_stopped_before_its_token_expires(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "ruff new", game="whist-5")
    for _ in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Start")
    table = env.bot.manager.tables[1]
    for _ in range(40):  # to alice's turn: then the game waits for her
        if table.game.to_act() == 0:
            break
        await env.advance_time(10)
    assert table.game.to_act() == 0

    shown = await alice.click(table_message(channel), label="My hand")
    assert shown.ephemeral and "Your turn" in shown.response.content
    await env.advance_time(13 * MIN)
    copy = shown.response
    assert "stopped updating" not in copy.content and raw_buttons(copy.components)

    # a click on the copy gives it a fresh token: it keeps following the game
    card = next(
        c for c in raw_buttons(copy.components) if ":play:" in c["custom_id"] and not c["disabled"]
    )
    res = await alice.click(copy, custom_id=card["custom_id"])
    assert res.acknowledged and table.game.to_act() != 0  # played from the copy
    await env.advance_time(2 * MIN)  # 15 minutes after it was shown, 2 after the click
    assert "stopped updating" not in shown.response.content

    # 14 minutes after the click (before its 15): it says it stopped, without buttons
    await env.advance_time(11 * MIN)
    assert "stopped updating" not in shown.response.content
    await env.advance_time(1 * MIN + 5)
    stopped = shown.response
    assert "This copy of your hand has stopped updating" in stopped.content
    assert "/ruff hand" in stopped.content
    assert raw_buttons(stopped.components) == []
    assert not shown_of(table).fallback.get(0), "no longer edited"
