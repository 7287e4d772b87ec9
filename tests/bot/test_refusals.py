"""Every kind of bad click or command gets a short ephemeral answer and changes nothing.

"Nothing" is checked strictly: every table's engine state (``state_key``) and a dump
of the whole database (read through a separate SQLite connection) are equal before
and after.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.present.layout import layout_text as message_text
from bot.present.render import card_label
from bot.store import TableRepo
from engine.actions import Play

from .helpers import (
    act_on,
    buttons,
    choose,
    enabled_cards,
    forged_click,
    hand_message,
    labels_of,
    raw_text,
    table_message,
    world_state,
)


def assert_refused(res: Any, *needles: str) -> str:
    """An ephemeral, short answer containing one of ``needles``."""
    answer = res.response
    assert answer is not None and answer.ephemeral, res
    text = answer.content
    assert len(text) < 400 and "\n" not in text.strip(), text
    assert any(n in text for n in needles), f"{text!r} has none of {needles}"
    return text


class Unchanged:
    """``async with Unchanged(env, db):`` fails if the game or the database changed."""

    def __init__(self, env: Any, db_path: Path) -> None:
        self.env, self.db_path = env, db_path

    async def __aenter__(self) -> None:
        self.before = world_state(self.env, self.db_path)

    async def __aexit__(self, *exc: object) -> None:
        if exc[0] is None:
            assert world_state(self.env, self.db_path) == self.before, "a refusal changed something"


async def test_commands_and_lobby_buttons_refused(simcord_env: Any, db_path: Path) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("ruff")
    other = guild.create_text_channel("other")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    same = Unchanged(env, db_path)

    # malformed /ruff new options: refused with what is allowed, no table opened
    async with same:
        res = await alice.slash(other, "ruff new", options="nonsense")
        assert_refused(res, "name=value")
        res = await alice.slash(other, "ruff new", options="frobnicate=1")
        text = assert_refused(res, "frobnicate")
        assert "ruff_mandatory" in text or "target_score" in text  # the list of what is allowed
        res = await alice.slash(other, "ruff new", options="target_score=many")
        assert_refused(res, "target_score")
        res = await alice.slash(other, "ruff new", preset="no-such-preset")
        text = assert_refused(res, "no-such-preset")
        assert "cotton1674" in text
        res = await alice.slash(other, "ruff new", target=3, options="call_point=5")
        assert_refused(res, "call_point")
    assert other.last_message is None
    # a target out of range: the client enforces the option's range, the bot the rules' one
    with pytest.raises(simcord.OptionError, match="must be ≥ 1"):
        await alice.slash(other, "ruff new", target=0)
    async with same:
        assert_refused(
            await alice.slash(other, "ruff new", options="target_score=0"), "target_score"
        )
        assert_refused(
            await alice.slash(other, "ruff new", options="target_score=100"), "target_score"
        )

    # /ruff new in a DM is refused politely
    async with same:
        res = await alice.user.slash("ruff new")
        assert_refused(res, "server")

    res = await alice.slash(channel, "ruff new", target=3)
    assert not res.ephemeral
    lobby = table_message(channel)

    # a second /ruff new in the channel links the existing table
    async with same:
        res = await bob.slash(channel, "ruff new")
        text = assert_refused(res, "already has a table")
        assert f"https://discord.com/channels/{guild.id}/{channel.id}/{lobby.id}" in text

    # lobby buttons by someone not at the table
    async with same:
        assert_refused(await carol.click(lobby, label="Leave"), "not at this table")
        assert_refused(await carol.click(lobby, label="Add AI (easy)"), "Only players at the table")
        assert_refused(await bob.click(lobby, label="Start"), "not at this table")
        assert_refused(
            await carol.click(lobby, label="Cancel"), "opener or someone with Manage Server"
        )
    await bob.click(lobby, label="Join")
    await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Add AI (hard)")
    lobby = table_message(channel)
    assert "— empty —" not in message_text(lobby)
    async with same:  # a full lobby draws no Join: an old button is refused
        assert_refused(await forged_click(env, carol, lobby, "rh:t:1:join"), "full")
        assert_refused(await carol.click(lobby, label="Start"), "not at this table")
        assert_refused(await forged_click(env, bob, lobby, "rh:t:1:join"), "already sit East")
        assert_refused(await alice.click(lobby, label="Leave"), "use Cancel")

    # /ruff cancel: not by a seated non-opener without Manage Server; yes by the opener
    async with same:
        res = await bob.slash(channel, "ruff cancel")
        assert_refused(res, "opener or someone with Manage Server")
    res = await alice.slash(channel, "ruff cancel")
    assert res.response.ephemeral and "cancelled" in res.response.content
    assert "❌ Cancelled by alice" in message_text(table_message(channel))
    assert not buttons(table_message(channel))
    row = await TableRepo(env.bot.db).get(1)
    assert row is not None and row.status == "cancelled"

    # the channel is free again; a moderator (Manage Server) may cancel anyone's table
    res = await bob.slash(channel, "ruff new")
    assert not res.ephemeral and "table #2" in raw_text(res.response.components)
    assert set(env.bot.manager.tables) == {2}  # the ended table is not kept in memory
    res = await mod.slash(channel, "ruff cancel")
    assert "cancelled" in res.response.content
    assert (await TableRepo(env.bot.db).get(2)).status == "cancelled"  # type: ignore[union-attr]


def _follow_suit_trap(game: Any) -> Any | None:
    """An off-suit card North holds while it must follow suit, if there is one now."""
    if game.phase != "play" or game.to_act() != 0 or not game.trick:
        return None
    led = game.trick[0].suit
    hand = game.hand(0)
    if not any(c.suit is led for c in hand):
        return None
    return next((c for c in hand if c.suit is not led), None)


@pytest.mark.parametrize("bot_settings", [{"seed": 5}])
async def test_game_clicks_refused(simcord_env: Any, db_path: Path) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("ruff")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    players = {0: alice, 1: bob}
    same = Unchanged(env, db_path)

    await alice.slash(channel, "ruff new", target=9)
    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Start")
    table = env.bot.manager.tables[1]

    async def step() -> None:
        seat = table.game.to_act()
        assert seat in players
        member = players[seat]
        await act_on(member.user, hand_message(member), choose(table.game.observe(seat)))

    async def until(cond: Any) -> None:
        for _ in range(200):
            if cond():
                return
            await step()
        raise AssertionError("never reached the wanted position")

    # someone not at the table
    async with same:
        assert_refused(
            await carol.click(table_message(channel), label="My hand"), "not playing at this table"
        )
        assert_refused(await carol.slash(channel, "ruff hand"), "not playing at any table")
        assert_refused(await carol.click(table_message(channel), label="My hand"), "not playing")

    # alice's turn to play a card: she asks for her hand twice, 16 minutes apart; the first
    # copy's token has expired, so it is no longer edited and goes stale (Discord refused the
    # edit that would have said so: its buttons stay, as on a client that missed the edit)
    await until(lambda: table.game.phase == "play" and table.game.to_act() == 0)
    stale = (await alice.click(table_message(channel), label="My hand")).response
    env.inject_error("PATCH", "/webhooks/*", status=503, times=None)
    await env.advance_time(16 * 60)
    env.backend.faults.clear()
    fresh = (await alice.click(table_message(channel), label="My hand")).response
    stale_version = table.game.version
    stale_cards = [
        x for x in labels_of(stale.components, enabled_only=True) if not x.startswith("Claim")
    ]
    assert stale_cards and set(stale_cards) == {
        x for x in labels_of(fresh.components, enabled_only=True) if not x.startswith("Claim")
    }
    await step()  # alice plays from her DM
    assert table.game.to_act() != 0
    await until(lambda: table.game.to_act() == 1)

    # out of turn: the stale copy's buttons are still enabled, but it is bob's turn
    async with same:
        res = await alice.click(stale, label=stale_cards[0])
        assert_refused(res, "Already played", "moved on", "earlier turn")
    # out of turn at the current version (a tampered client): the engine's own check answers
    version = table.game.version
    card = table.game.hand(0)[0]
    async with same:
        res = await forged_click(
            env, alice.user, hand_message(alice), f"rh:a:1:{version}:0:play:{card.code}"
        )
        assert_refused(res, "not your turn")
    # bob clicking a control of alice's seat
    async with same:
        res = await forged_click(
            env, bob.user, hand_message(bob), f"rh:a:1:{version}:0:play:{card.code}"
        )
        assert_refused(res, "not your hand")
    # a malformed id
    async with same:
        res = await forged_click(env, bob.user, hand_message(bob), "rh:a:1:x:play")
        assert_refused(res, "not recognised")

    # the stale copy on alice's next turn: that turn was already played
    await until(lambda: table.game.to_act() == 0 and table.game.phase == "play")
    async with same:
        assert_refused(await alice.click(stale, label=stale_cards[0]), "Already played")
    # a stale button from tricks ago, on alice's turn: she is shown her hand as it is now
    await until(
        lambda: (
            table.game.to_act() == 0
            and table.game.phase == "play"
            and table.game.version > stale_version + 8
        )
    )
    async with same:
        res = await alice.click(stale, label=stale_cards[-1])
        assert res.response.ephemeral and res.response.id == stale.id
        assert "earlier turn" in res.response.content and "Your turn" in res.response.content
        live = {
            x
            for x in labels_of(res.response.components, enabled_only=True)
            if not x.startswith("Claim")
        }
        assert live == {
            card_label(a.card) for a in table.game.legal_actions(0) if isinstance(a, Play)
        }

    # not following suit (a tampered client again): refused with the rule
    await until(lambda: _follow_suit_trap(table.game) is not None)
    off_suit = _follow_suit_trap(table.game)
    led = table.game.trick[0].suit
    assert card_label(off_suit) not in enabled_cards(hand_message(alice))
    async with same:
        res = await forged_click(
            env,
            alice.user,
            hand_message(alice),
            f"rh:a:1:{table.game.version}:0:play:{off_suit.code}",
        )
        assert assert_refused(res, "follow suit") == f"You must follow suit: you hold {led.symbol}."
