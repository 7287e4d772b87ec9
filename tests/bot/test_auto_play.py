"""Auto-play of a single legal card: a player's own option (``/ruff options``),
off by default, remembered across a restart, and only ever for a lone legal card."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.present.render import card_label
from bot.tables.autoplay import single_card

from .conftest import make_settings, restart
from .dm_play import act, lowest_card
from .helpers import db_dump, hand_message, table_message

# a pause longer than simcord's real-time wait: the card goes when the test moves time
PAUSE = 6.0
SETTINGS = {"seed": 11, "auto_play_delay": PAUSE}


async def _open(env: Any) -> tuple[Any, Any, Any]:
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    return guild, channel, alice


async def _start(channel: Any, alice: Any) -> Any:
    await alice.slash(channel, "ruff new", game="whist-5")
    for _ in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Start")


async def _to_single_card(env: Any, table: Any, alice: Any, limit: int = 200) -> Any:
    """Play alice's turns (lowest card) until she has exactly one legal card."""
    for _ in range(limit):
        game = table.game
        assert game is not None and not game.is_over
        if game.to_act() == 0:
            view = game.observe(0)
            if single_card(view) is not None:
                return view
            await act(alice, game, 0, lowest_card(view))
        else:
            await env.advance_time(0.5)
    raise AssertionError("alice never had a single legal card")


@pytest.mark.parametrize("bot_settings", [SETTINGS])
async def test_a_single_legal_card_is_played_only_for_who_chose_it_and_the_choice_survives_a_restart(
    simcord_env: Any, db_path: Path, more_bots: list[Any]
) -> None:
    env = simcord_env
    _guild, channel, alice = await _open(env)
    res = await alice.slash(channel, "ruff options")
    assert res.ephemeral and "auto-play a single legal card: **off**" in res.response.content
    await _start(channel, alice)
    table = env.bot.manager.tables[1]

    # off by default: alice's lone card waits for her, however long
    view = await _to_single_card(env, table, alice)
    version = table.game.version
    await env.advance_time(3 * PAUSE)
    assert table.game.version == version, "played for a player who never chose auto-play"
    await act(alice, table.game, 0, [single_card(view)])

    res = await alice.slash(channel, "ruff options", auto_play="on")
    assert res.ephemeral and "auto-play a single legal card: **on**" in res.response.content

    # on: never for a choice of cards ...
    for _ in range(200):
        game = table.game
        if game.to_act() == 0 and single_card(game.observe(0)) is None:
            version = game.version
            await env.advance_time(2 * PAUSE)
            assert table.game.version == version, "auto-play chose among several cards"
            break
        if game.to_act() == 0:
            await act(alice, game, 0, [single_card(game.observe(0))])
        else:
            await env.advance_time(0.5)
    # ... and a lone card, after a pause in which the turn is shown
    played = 0
    for _ in range(2):
        view = await _to_single_card(env, table, alice)
        card = single_card(view)
        assert card is not None
        version = table.game.version
        assert "Your turn" in hand_message(alice).content, "the turn is shown before the card goes"
        await env.advance_time(PAUSE / 2)
        assert table.game.version == version, "played without a visible pause"
        await env.advance_time(PAUSE)
        assert table.game.version > version
        assert (version, 0, alice.id) in table.moves, "alice's own move, by the normal commit"
        assert f"Auto-play: **{card_label(card.card)}** was your only legal card" in (
            hand_message(alice).content
        )
        played += 1
    assert played == 2
    rows = [r for r in db_dump(db_path) if "player_options" in r and "INSERT" in r]
    assert any('"auto_play": true' in r or '"auto_play":true' in r for r in rows), rows

    # a restart keeps the choice: the new bot plays alice's next lone card too
    await restart(env, more_bots, make_settings(db_path, **SETTINGS))
    res = await alice.slash(channel, "ruff options")
    assert "auto-play a single legal card: **on**" in res.response.content
    table = env.bot.manager.tables[1]
    view = await _to_single_card(env, table, alice)
    version = table.game.version
    await env.advance_time(PAUSE + 1)
    assert table.game.version > version and (version, 0, alice.id) in table.moves

    # and off again: the lone card waits
    await alice.slash(channel, "ruff options", auto_play="off")
    view = await _to_single_card(env, table, alice)
    version = table.game.version
    await env.advance_time(3 * PAUSE)
    assert table.game.version == version
