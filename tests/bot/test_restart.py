"""The bot restarts in the middle of a deal: nothing is lost and old buttons still work."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.present.layout import layout_text as message_text
from bot.store import ActionRepo
from engine import Play

from .conftest import make_settings, restart
from .helpers import (
    act_on,
    choose,
    enabled_cards,
    hand_message,
    label_to_card,
    replay_from_db,
    table_message,
)


@pytest.mark.parametrize("bot_settings", [{"seed": 11}])
async def test_restart_mid_deal_keeps_the_game_and_its_buttons(
    simcord_env: Any, db_path: Path, bot_settings: dict[str, Any], more_bots: list[Any]
) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("ruff")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    players = {0: alice, 1: bob}

    await alice.slash(channel, "ruff new", target=3)
    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Start")

    async def step() -> None:
        game = env.bot.manager.tables[1].game
        seat = game.to_act()
        assert seat in players, "the AI seats never wait"
        member = players[seat]
        await act_on(member.user, hand_message(member), choose(game.observe(seat)))

    # into the first deal's play, with a trick half played
    table = env.bot.manager.tables[1]
    while not (table.game.phase == "play" and table.game.trick_no >= 3 and table.game.trick):
        await step()
    before = table.game.state_key()
    version = table.game.version
    seat = table.game.to_act()
    waiting = players[seat]
    old_hand = hand_message(waiting)
    old_ids = {
        b.custom_id
        for row in old_hand.components
        for b in row.children
        if not b.disabled and ":t:" not in b.custom_id
    }
    assert old_ids and all(f":{version}:{seat}:" in cid for cid in old_ids)

    old_bot = env.bot
    await restart(env, more_bots, make_settings(db_path, **bot_settings))
    assert env.bot is not old_bot and old_bot.is_closed()

    table = env.bot.manager.tables[1]
    assert table.game.state_key() == before  # resumed from the move log
    assert (await replay_from_db(env.bot.db, table)).state_key() == before
    hand = hand_message(waiting)
    assert hand.id == old_hand.id  # the same DM, sent by the old bot
    assert "[table #1](https://discord.com/channels/" in hand.content  # where: its link
    assert "Your turn" in hand.content

    # a button the old bot drew is clicked on the new bot
    card = enabled_cards(old_hand)[0]
    res = await waiting.user.click(old_hand, label=card)
    assert res.response is not None and res.response.id == old_hand.id
    assert table.game.log[version] == (seat, Play(label_to_card(card)))  # accepted at that version

    moves = 0
    while not table.game.is_over:
        await step()
        moves += 1
        assert moves < 200

    assert "finished" in message_text(table_message(channel))
    assert await ActionRepo(env.bot.db).count(1) == len(table.game.log)
    assert (await replay_from_db(env.bot.db, table)).state_key() == table.game.state_key()
