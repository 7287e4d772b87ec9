"""One tap never shows a hand or ends a game: Claim and Concede ask privately first,
a claim is offered only where it could hold, and a conceded game says who gave it up."""

from __future__ import annotations

from typing import Any

import pytest

from bot.present.layout import layout_text as message_text
from bot.store import ActionRepo
from engine.ai.strategies.claims import certain_claim
from engine.claims import remaining_tricks

from .dm_play import act, lowest_card, open_table
from .helpers import button_labels, feed, hand_message, labels_of, table_message

pytestmark = pytest.mark.parametrize("bot_settings", [{"seed": 11}])


def _claims(message: Any) -> list[str]:
    return [label for label in button_labels(message) if label.startswith("Claim")]


async def _play_until(table: Any, players: list[Any], stop: Any) -> None:
    for _ in range(400):
        if stop(table.game):
            return
        seat = table.game.to_act()
        assert seat is not None and seat < len(players)
        await act(players[seat], table.game, seat, lowest_card(table.game.observe(seat)))
    raise AssertionError("never reached the position")


async def test_claim_all_asks_privately_and_is_not_offered_at_the_first_lead(
    simcord_env: Any,
) -> None:
    env = simcord_env
    _, channel, players = await open_table(env, 2, "turnover-bridge")
    table = env.bot.manager.tables[1]
    game = table.game
    leader = game.to_act()
    assert game.phase == "play" and game.trick_no == 1 and not game.trick
    assert remaining_tricks(game) == 26
    assert _claims(hand_message(players[leader])) == []  # nothing is known yet: no claim

    # later, a claim that could fail: asked by number only, never "Claim all" (issue #37)
    await _play_until(table, players, lambda g: g.trick_no >= 9 and not g.trick)
    game = table.game
    seat = game.to_act()
    assert certain_claim(game.observe(seat)) is None
    assert _claims(hand_message(players[seat])) == ["Claim…"]


async def test_claim_all_where_it_surely_holds_asks_privately(simcord_env: Any) -> None:
    env = simcord_env
    _, _channel, players = await open_table(env, 4, "whist-short-classic")
    table = env.bot.manager.tables[1]

    # once every card left is a winner for the player on lead: Claim all
    def sure(g: Any) -> bool:
        seat = g.to_act()
        return g.phase == "play" and seat is not None and certain_claim(g.observe(seat)) is not None

    await _play_until(table, players, sure)
    game = table.game
    seat = game.to_act()
    left = remaining_tricks(game)
    member = players[seat]
    hand = hand_message(member)
    assert f"Claim all ({left})" in _claims(hand)
    version = game.version

    asked = await member.user.click(hand, label=f"Claim all ({left})")
    assert asked.response.ephemeral
    assert (
        asked.response.content == f"Claim all {left} tricks? Your hand will be shown to everyone."
    )
    assert labels_of(asked.response.components) == ["Confirm", "Keep playing"]
    assert table.game.version == version and table.game.phase == "play"  # nothing happened yet
    kept = await member.user.click(asked.response, label="Keep playing")
    assert "keep playing" in kept.response.content
    assert table.game.version == version and table.game.phase == "play"
    moves = [a.action for a in await ActionRepo(env.bot.db).list(table.id)]
    assert not any(m.startswith("claim") for m in moves)

    menu = await member.user.click(hand_message(member), label="Claim…")
    assert menu.response.ephemeral and "shown to everyone" in menu.response.content
    assert "Keep playing" in labels_of(menu.response.components)
    assert table.game.version == version

    asked = await member.user.click(hand_message(member), label=f"Claim all ({left})")
    await member.user.click(asked.response, label="Confirm")
    assert table.game.phase == "claim"
    moves = [a.action for a in await ActionRepo(env.bot.db).list(table.id)]
    assert moves[-1] == f"claim:{left}"


async def test_concede_asks_first_and_the_result_says_who_conceded(simcord_env: Any) -> None:
    env = simcord_env
    _, channel, (alice, bob) = await _play_two(env)
    table = env.bot.manager.tables[1]
    version = table.game.version

    deal = await bob.click(table_message(channel), label="This deal")  # Concede is under it
    asked = await bob.click(deal.response, label="Concede")
    assert asked.response.ephemeral
    assert asked.response.content == "Concede the game? It ends now and counts as a loss."
    assert labels_of(asked.response.components) == ["Confirm", "Keep playing"]
    assert not table.game.is_over and table.game.version == version
    await bob.click(asked.response, label="Keep playing")
    assert not table.game.is_over and table.game.version == version

    deal = await bob.click(table_message(channel), label="This deal")
    asked = await bob.click(deal.response, label="Concede")
    await bob.click(asked.response, label="Confirm")
    assert table.game.is_over and table.status == "finished"
    final = message_text(table_message(channel))
    assert "🏳️ **bob** conceded — **alice** wins." in final, final
    thread = "\n".join(m.content for m in channel.threads[0].history())
    assert "🏳️ **bob** conceded — **alice** wins." in thread  # the game's summing up
    said = "\n".join(m.content for m in feed(channel))
    for text in (final, said, hand_message(alice).content, hand_message(bob).content):
        assert "wins with" not in text and "scored in no deal" not in text, text
        assert "won 0–0" not in text, text  # a concession is not a score
    assert "🏆 The game is over — you won: bob conceded." in hand_message(alice).content
    assert "🏁 The game is over — you lost: bob conceded." in hand_message(bob).content


async def _play_two(env: Any) -> tuple[Any, Any, list[Any]]:
    guild, channel, players = await open_table(env, 2, "turnover-bridge")
    table = env.bot.manager.tables[1]
    await _play_until(table, players, lambda g: g.trick_no >= 2 and not g.trick)
    return guild, channel, players
