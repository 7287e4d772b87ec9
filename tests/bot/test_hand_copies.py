"""Issue 10, item 7: every live copy of a hand follows the game, and an unseated
member pressing Start is told the real reason."""

from __future__ import annotations

import asyncio
import dataclasses
from collections import Counter
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord_ui.shown import shown as shown_of
from bot.present.layout import layout_text as message_text
from bot.present.render import card_label
from engine.actions import Play

from .helpers import (
    CARD_LABEL,
    act_on,
    card_labels,
    choose,
    enabled_cards,
    hand_cards,
    hand_message,
    label_to_card,
    labels_of,
    raw_buttons,
    table_message,
)
from .test_refusals import Unchanged, assert_refused


async def test_unseated_member_pressing_start_on_a_full_table(
    simcord_env: Any, db_path: Path
) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("ruff")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    await alice.slash(channel, "ruff new", target=3)
    await bob.click(table_message(channel), label="Join")
    async with Unchanged(env, db_path):  # seated, but seats are still empty: the opener's call
        assert_refused(await bob.click(table_message(channel), label="Start"), "Only the opener")
        assert_refused(
            await carol.click(table_message(channel), label="Start"), "not at this table"
        )
    await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Add AI (easy)")
    lobby = table_message(channel)
    assert "— empty —" not in message_text(lobby)
    async with Unchanged(env, db_path):
        text = assert_refused(await carol.click(lobby, label="Start"), "not at this table")
        assert "Only the opener" not in text
    assert env.bot.manager.tables[1].status == "lobby"
    # a seated player may start a full table
    await bob.click(table_message(channel), label="Start")
    assert env.bot.manager.tables[1].status == "active"


def _held(obj: Any, depth: int = 3) -> list[Any]:
    """Everything ``obj`` holds, a few levels down (dict values, list items, dataclass fields)."""
    out = [obj]
    if depth == 0:
        return out
    if isinstance(obj, dict):
        children = list(obj.values())
    elif isinstance(obj, (list, tuple, set)):
        children = list(obj)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        children = [getattr(obj, f.name) for f in dataclasses.fields(obj)]
    else:
        children = []
    for child in children:
        out.extend(_held(child, depth - 1))
    return out


def _assert_current(
    what: str, content: str, labels: list[str], live: list[str], table: Any, seat: int
) -> None:
    """A copy of ``seat``'s hand shows the hand and turn as they are now: listed in
    its text, or, where the card buttons show the whole hand, only there."""
    game = table.game
    view = game.observe(seat)
    my_turn = not game.is_over and game.to_act() == seat
    assert ("Your turn" in content) == my_turn, f"{what} at version {game.version}: {content}"
    if not game.is_over:
        if any(ln.startswith("Your hand") for ln in content.splitlines()):
            shown = hand_cards(content)
        else:
            shown = [label_to_card(x) for x in labels if CARD_LABEL.match(x)]
        assert Counter(c.code for c in shown) == Counter(c.code for c in view.hand), (
            f"{what}: {content}"
        )
    want = (
        {card_label(a.card) for a in game.legal_actions(seat) if isinstance(a, Play)}
        if my_turn
        else set()
    )
    assert {x for x in live if CARD_LABEL.match(x)} == want, f"{what}: live {live}, want {want}"


async def _alice_and_bob(env: Any) -> tuple[Any, Any, Any, Any]:
    """alice (North) and bob (East) at a started table, South and West AI players."""
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("ruff")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "ruff new", target=3)
    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Start")
    return channel, alice, bob, env.bot.manager.tables[1]


@pytest.mark.parametrize("bot_settings", [{"seed": 7}])
async def test_dm_and_my_hand_copy_both_follow_every_action(simcord_env: Any) -> None:
    """Playing from either copy (and every AI move, every new deal) updates the other copy too."""
    env = simcord_env
    channel, alice, bob, table = await _alice_and_bob(env)

    res = await alice.click(table_message(channel), label="My hand")
    mine = res.response
    assert mine.ephemeral and "You are **North**" in mine.content
    assert not any(isinstance(x, discord.Interaction) for x in _held(shown_of(table).fallback)), (
        "an Interaction is kept"
    )

    def both_current(when: str) -> None:
        dm = hand_message(alice)
        _assert_current(f"DM {when}", dm.content, card_labels(dm), enabled_cards(dm), table, 0)
        _assert_current(
            f"My hand {when}",
            mine.content,
            labels_of(mine.components),
            labels_of(mine.components, enabled_only=True),
            table,
            0,
        )

    both_current("at the start")
    deals = {table.game.observe(0).deal_no}
    from_copy = from_dm = 0
    while not table.game.is_over:
        game = table.game
        seat = game.to_act()
        assert seat in (0, 1), "the AI seats never wait"
        if seat == 1:
            await act_on(bob.user, hand_message(bob), choose(game.observe(1)))
        elif (from_copy + from_dm) % 2 == 0:
            res = await act_on(alice, mine, choose(game.observe(0)))
            assert res.response.id == mine.id  # answered by editing the copy played from
            from_copy += 1
        else:
            await act_on(alice.user, hand_message(alice), choose(game.observe(0)))
            from_dm += 1
        both_current(f"after {from_copy} plays from the copy and {from_dm} from the DM")
        assert not any(isinstance(x, discord.Interaction) for x in _held(shown_of(table).fallback))
        deals.add(table.game.observe(0).deal_no)
        assert from_copy + from_dm < 200
    assert from_copy > 3 and from_dm > 3 and len(deals) > 1  # both ways, across deals
    assert enabled_cards(hand_message(alice)) == []
    assert not [b for b in raw_buttons(mine.components) if not b.get("disabled")]


@pytest.mark.parametrize("bot_settings", [{"seed": 7}])
async def test_my_hand_copy_is_dropped_when_its_token_expires(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("ruff")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "ruff new", target=3)
    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Start")
    table = env.bot.manager.tables[1]

    async def play_until_alice_played() -> None:
        for _ in range(50):
            game = table.game
            seat = game.to_act()
            if seat == 1:
                await act_on(bob.user, hand_message(bob), choose(game.observe(1)))
                continue
            await act_on(alice.user, hand_message(alice), choose(game.observe(0)))
            return
        raise AssertionError("alice never got to play")

    old = (await alice.click(table_message(channel), label="My hand")).response
    assert old.ephemeral and shown_of(table).fallback.get(0)
    await env.advance_time(16 * 60)  # past the interaction token's 15 minutes
    requests = len(env.http_requests)
    await play_until_alice_played()
    await play_until_alice_played()
    assert not shown_of(table).fallback.get(0), "an expired copy is forgotten"
    _assert_current(
        "DM",
        hand_message(alice).content,
        card_labels(hand_message(alice)),
        enabled_cards(hand_message(alice)),
        table,
        0,
    )
    stale = [
        r for r in env.http_requests[requests:] if r.path.startswith("/webhooks/")
    ]  # only the copy edits
    assert not stale, "nothing is sent to an expired token"

    # a new My hand copy follows the game again
    mine = (await alice.click(table_message(channel), label="My hand")).response
    await play_until_alice_played()
    _assert_current(
        "new My hand",
        mine.content,
        labels_of(mine.components),
        labels_of(mine.components, enabled_only=True),
        table,
        0,
    )


@pytest.mark.slow
@pytest.mark.parametrize("bot_settings", [{"seed": 7}])
async def test_a_hand_dm_whose_edit_discord_refused_still_comes_to_show_the_turn(
    simcord_env: Any,
) -> None:
    """Discord refuses the edit that brings alice her turn (a 503, which discord.py does
    not retry) and nothing else changes while she thinks: the notifier's retry renders
    her hand again and sends it, though the hand was rendered once already."""
    env = simcord_env
    channel, alice, bob, table = await _alice_and_bob(env)
    for _ in range(200):  # bob (East) on lead: then South and West play, and it is alice's turn
        game = table.game
        if game.to_act() == 1 and not game.trick and game.phase == "play":
            break
        seat = game.to_act()
        actor = alice if seat == 0 else bob
        await act_on(actor.user, hand_message(actor), choose(game.observe(seat)))
    else:
        raise AssertionError("bob never led")
    dm = hand_message(alice)
    assert "Your turn" not in dm.content
    notifier = env.bot.manager.services.notifier
    env.inject_error(
        "PATCH",
        f"/channels/{dm.channel.id}/messages/{dm.id}",
        status=503,
        message="upstream connect error",
        times=None,
    )
    await act_on(bob.user, hand_message(bob), choose(table.game.observe(1)))
    assert table.game.to_act() == 0
    for _ in range(500):  # the edit failed and waits to be tried again
        if notifier._backing_off:
            break
        await asyncio.sleep(0.01)
    assert "Your turn" not in hand_message(alice).content
    env.backend.faults.clear()  # Discord answers again; nothing in the game changes meanwhile
    await asyncio.wait_for(notifier.flush(), 10)
    dm = hand_message(alice)
    _assert_current(
        "DM after the refused edit", dm.content, card_labels(dm), enabled_cards(dm), table, 0
    )
