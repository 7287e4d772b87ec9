"""A player whose DMs are closed plays the whole game from ephemeral hands."""

from __future__ import annotations

from typing import Any

import pytest

from bot.present.layout import layout_text as message_text
from bot.present.render import card_label
from bot.store import ActionRepo, ResultRepo

from .helpers import (
    act_on,
    choose,
    enabled_cards,
    hand_cards,
    hand_message,
    labels_of,
    raw_buttons,
    table_message,
)


@pytest.mark.parametrize("bot_settings", [{"seed": 7}])
async def test_closed_dms_fall_back_to_my_hand_and_ruff_hand(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("ruff")
    alice = guild.add_member(env.create_user("alice"))  # DMs closed
    bob = guild.add_member(env.create_user("bob"))
    env.inject_error(
        "POST",
        f"/channels/{alice.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )

    await alice.slash(channel, "ruff new", target=3)
    await bob.click(table_message(channel), label="Join")
    res = await alice.click(table_message(channel), label="Start")  # South and West get AI players
    notes = [res.response, *res.followups]
    assert any(
        n.ephemeral and "I can't DM you" in n.content and "My hand" in n.content for n in notes
    ), notes
    notice = [
        m.content for m in channel.threads[0].history() if m.content.startswith("⚠️")
    ]  # the table's thread
    assert len(notice) == 1 and f"<@{alice.id}>" in notice[0] and "My hand" in notice[0]
    assert f"<@{bob.id}>" not in notice[0]
    assert alice.user.dm_channel.last_message is None
    bobs = env.bot.manager.tables[1].game.hand(1)
    assert sorted(c.code for c in hand_cards(hand_message(bob))) == sorted(
        c.code for c in bobs
    )  # bob's DMs work

    table = env.bot.manager.tables[1]
    res = await alice.click(table_message(channel), label="My hand")
    assert res.ephemeral and "You are **North**" in res.response.content
    mine = res.response
    used_slash = False
    moves = 0
    while not table.game.is_over:
        game = table.game
        seat = game.to_act()
        assert seat in (0, 1), "the AI seats never wait"
        if seat == 1:
            await act_on(bob.user, hand_message(bob), choose(game.observe(1)))
            continue
        if moves == 6 and not used_slash:  # the slash command gives a fresh, working hand too
            res = await alice.slash(channel, "ruff hand")
            assert res.ephemeral and "You are **North**" in res.response.content
            mine, used_slash = res.response, True
        # the ephemeral hand follows the game: on alice's turn its legal cards are live
        assert "Your turn" in mine.content, mine.content
        legal = {card_label(a.card) for a in game.legal_actions(0) if hasattr(a, "card")}
        live = set(labels_of(mine.components, enabled_only=True))
        if game.phase != "discard":
            assert {x for x in live if x.rstrip("\ufe0e")[-1:] in "♠♥♦♣"} == legal
        res = await act_on(alice, mine, choose(game.observe(0)))
        assert res.response.ephemeral and res.response.id == mine.id  # the same ephemeral, edited
        moves += 1
        assert moves < 100

    assert used_slash
    assert "finished" in message_text(table_message(channel))
    assert await ActionRepo(env.bot.db).count(1) == len(table.game.log)
    names = {r.name for r in await ResultRepo(env.bot.db).leaderboard(guild.id)}
    assert names == {"alice", "bob"}
    assert enabled_cards(hand_message(bob)) == []
    assert not [b for b in raw_buttons(mine.components) if not b.get("disabled")]
