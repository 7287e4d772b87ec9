"""Whole games played through the real bot, as players would click them."""

from __future__ import annotations

from typing import Any

import pytest

from bot.present.layout import layout_text as message_text
from bot.present.render import card_label
from bot.store import ActionRepo, Database, ResultRepo, TableRepo
from engine import Play

from .helpers import (
    button_labels,
    choose_cards,
    enabled_cards,
    find_select,
    hand_message,
    replay_from_db,
    table_message,
)


async def _act(env: Any, member: Any) -> bool:
    """If it is this member's turn, do the first sensible thing in their DM; True if acted."""
    msg = hand_message(member)
    if "Your turn" not in msg.content:
        return False
    select = find_select(msg)
    if select is not None and not select.disabled:
        values = [o.value for o in select.options][: select.min_values]
        await choose_cards(member.user, msg, values)
        return True
    labels = button_labels(msg)
    for decision in ("Accept the claim", "Take the stock (ruff)", "Call “Can-ye?”", "Show honours"):
        if decision in labels:
            await member.user.click(msg, label=decision)
            return True
    cards = enabled_cards(msg)
    assert cards, f"my turn but nothing to press:\n{msg.content}"
    await member.user.click(msg, label=cards[0])
    return True


@pytest.mark.slow
async def test_one_human_three_ai_play_a_full_game(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))

    res = await alice.slash(channel, "ruff new")
    assert not res.ephemeral
    table = channel.last_message
    assert "Ruff and Honours" in message_text(table) and "North: alice" in message_text(table)

    for level in ("easy", "normal", "hard"):
        await alice.click(table, label=f"Add AI ({level})")
    table = channel.history()[0]
    assert "— empty —" not in message_text(table)
    await alice.click(table, label="Start")

    hand = hand_message(alice)
    assert "[table #1](https://discord.com/channels/" in hand.content  # where: its link
    assert "Trumps" in hand.content

    game_table = env.bot.manager.tables[1]
    for _ in range(2000):
        table = table_message(channel)
        if "finished" in message_text(table):
            break
        game = game_table.game
        assert game.to_act() == 0, "the AI players never keep alice waiting"
        hand = hand_message(alice)
        assert "Your turn" in hand.content
        if game.phase == "play":  # exactly the legal cards are live
            legal = {card_label(a.card) for a in game.legal_actions(0) if isinstance(a, Play)}
            assert set(enabled_cards(hand)) == legal
        acted = await _act(env, alice)
        assert acted, (
            f"stuck: neither alice nor AI acted\n{message_text(table)}\n---\n{hand_message(alice).content}"
        )
    else:
        raise AssertionError("the game did not finish")

    assert "win" in message_text(table)
    assert "Rematch" in button_labels(table)
    summaries = [
        m.content
        for m in channel.threads[0].history()
        if "Deal " in m.content and "of game" in m.content
    ]
    assert summaries, "every finished deal gets a public summary"

    # the result is durable and on the leaderboard
    db: Database = env.bot.db
    results = await ResultRepo(db).leaderboard(guild.id)
    assert [r.name for r in results] == ["alice"]
    assert results[0].games == 1
    res = await alice.slash(channel, "ruff leaderboard")
    assert "alice" in res.response.content
    row = await TableRepo(db).get(1)
    assert row is not None and row.status == "finished"
    assert await ActionRepo(db).count(1) == len(game_table.game.log)
    assert (await replay_from_db(db, game_table)).state_key() == game_table.game.state_key()
    won = game_table.game.match_winner == 0
    assert results[0].wins == int(won)
    res = await alice.slash(channel, "ruff stats")
    assert f"1 game · {int(won)} win{'' if won else 's'}" in res.response.content
    assert "Rating **" in res.response.content and "μ " in res.response.content
