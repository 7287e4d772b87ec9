"""Bad input at Solo Whist, Ruffe and Trump and Turnover Bridge: a short private refusal, and nothing changes.

A bid out of turn, a stale bid button after the auction moved on, naming trumps
when not the declarer, a forged menu choice, playing a face-down layout card or
the opponent's layout card through a forged ``custom_id``. "Nothing changes" is
the strict check of ``test_refusals``: every table's engine state and a dump of
the whole database are equal before and after. And a restart in the middle of
each game loses nothing.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from bot.present.layout import layout_text as message_text
from bot.present.render import card_label
from engine import Card
from engine.phases.deal import CARD_BY_INDEX

from .conftest import make_settings, restart
from .dm_play import act, open_table, selects
from .helpers import choose_cards, forged_click, hand_message, table_message
from .test_refusals import Unchanged, assert_refused


def _cid(table: Any, seat: int, action: str, version: int | None = None) -> str:
    return f"rh:a:{table.id}:{table.game.version if version is None else version}:{seat}:{action}"


async def forged_select(env: Any, actor: Any, message: Any, custom_id: str, value: str) -> Any:
    """Choose ``value`` in a menu carrying ``custom_id``, though the bot never offered it."""
    stored = env.backend.get_message(message.channel.id, message.id)
    saved = copy.deepcopy(stored.components)
    menu = {"type": 3, "custom_id": custom_id, "options": [{"label": value, "value": value}]}
    menu["min_values"] = menu["max_values"] = 1
    stored.components = [{"type": 1, "components": [menu]}]
    try:
        return await choose_cards(actor, message, [value], custom_id=custom_id)
    finally:
        if stored.components and custom_id in str(stored.components):
            stored.components = saved


@pytest.mark.parametrize("bot_settings", [{"seed": 5}])
async def test_solo_whist_bad_calls_are_refused(simcord_env: Any, db_path: Path) -> None:
    env = simcord_env
    guild, channel, players = await open_table(env, 4, "solo-whist")
    table = env.bot.manager.tables[1]
    same = Unchanged(env, db_path)
    first = table.game.to_act()
    waiting = (first + 1) % 4
    start = table.game.version

    # a bid out of turn, from the right person's own seat
    async with same:
        res = await forged_click(
            env,
            players[waiting].user,
            hand_message(players[waiting]),
            _cid(table, waiting, "bid:solo"),
        )
        assert_refused(res, "not your turn")
    # someone else's seat
    async with same:
        res = await forged_click(
            env,
            players[waiting].user,
            hand_message(players[waiting]),
            _cid(table, first, "bid:solo"),
        )
        assert_refused(res, "not your hand")

    # the first caller bids Abundance; the others pass: the auction moves on
    await players[first].user.select(hand_message(players[first]), ["bid:abund"])  # the menu
    assert table.game.version == start + 1
    for k in (1, 2):
        seat = (first + k) % 4
        await players[seat].user.click(hand_message(players[seat]), label="Pass")
    # stale bid buttons: the first caller's from before his bid, a passed seat's from before its pass
    async with same:
        res = await forged_click(
            env,
            players[first].user,
            hand_message(players[first]),
            _cid(table, first, "bid:pass", start),
        )
        assert_refused(res, "Already played", "moved on")
    async with same:
        seat = (first + 1) % 4
        res = await forged_click(
            env,
            players[seat].user,
            hand_message(players[seat]),
            _cid(table, seat, "bid:slam", start),
        )
        assert_refused(res, "moved on", "Already played")
    last = (first + 3) % 4
    await players[last].user.click(hand_message(players[last]), label="Pass")
    assert table.game.phase == "trumps" and table.game.to_act() == first

    # naming trumps when not the declarer; a call once the auction is over
    for seat in range(4):
        if seat == first:
            continue
        async with same:
            res = await forged_click(
                env, players[seat].user, hand_message(players[seat]), _cid(table, seat, "trump:S")
            )
            assert_refused(res, "Only the declarer names trumps")
    async with same:
        res = await forged_click(
            env, players[first].user, hand_message(players[first]), _cid(table, first, "bid:slam")
        )
        assert_refused(res, "auction is over")
    res = await players[first].user.click(hand_message(players[first]), label="Trumps: ♣\ufe0e")
    assert not res.ephemeral and table.game.phase == "play"


@pytest.mark.parametrize("bot_settings", [{"seed": 32}])
async def test_ruffe_declared_forged_menu_choices_are_refused(
    simcord_env: Any, db_path: Path
) -> None:
    env = simcord_env
    guild, channel, players = await open_table(
        env, 3, "ruff-trump-willughby", options="players=3, ruff_announce=declared"
    )
    table = env.bot.manager.tables[1]
    same = Unchanged(env, db_path)
    seat = table.game.to_act()
    other = (seat + 1) % 3
    message = hand_message(players[seat])
    menu_id = selects(message)[0].custom_id
    async with same:  # not a ruff value at all
        res = await forged_select(env, players[seat].user, message, menu_id, "ruffval:200")
        assert_refused(res, "not one of the choices")
    async with same:  # a well-formed value, out of turn
        cid = f"rh:c:{table.id}:{table.game.version}:{other}:0"
        res = await forged_select(
            env, players[other].user, hand_message(players[other]), cid, "ruffval:20"
        )
        assert_refused(res, "not your turn")
    async with same:  # another action smuggled through the menu
        res = await forged_select(env, players[seat].user, message, menu_id, "bid:solo")
        assert_refused(res, "Unknown action")
    res = await choose_cards(
        players[seat].user, message, ["ruffval:30"], custom_id=selects(message)[1].custom_id
    )
    assert not res.ephemeral
    assert table.game.notes["ruff_claims"] == ((seat, 30),)


@pytest.mark.parametrize("bot_settings", [{"seed": 41}])
async def test_turnover_forged_layout_plays_are_refused(simcord_env: Any, db_path: Path) -> None:
    env = simcord_env
    guild, channel, players = await open_table(env, 2, "turnover-bridge")
    table = env.bot.manager.tables[1]
    same = Unchanged(env, db_path)
    game = table.game
    seat = game.to_act()
    other = 1 - seat
    piles = game.layout.piles
    face_down: Card = CARD_BY_INDEX[piles[seat][0][0]]
    theirs: Card = CARD_BY_INDEX[piles[other][0][-1]]
    user = players[seat].user
    async with same:
        res = await forged_click(
            env, user, hand_message(players[seat]), _cid(table, seat, f"play:{face_down.code}")
        )
        assert_refused(res, "face down")
    async with same:
        res = await forged_click(
            env, user, hand_message(players[seat]), _cid(table, seat, f"play:{theirs.code}")
        )
        assert_refused(res, "opponent's layout")
    # the layout card on top of the same pile is offered, marked, and plays
    top = CARD_BY_INDEX[piles[seat][0][-1]]
    res = await user.click(hand_message(players[seat]), label=f"▲{card_label(top)}")
    assert not res.ephemeral and table.game.version == game.version + 1
    # the card that play turned up is face up now but not his to play in this trick. At
    # two players he never acts twice in a trick, so the bot's answer is the turn's (the
    # engine's "next trick" refusal is tested in tests/engine/test_turnover.py)
    assert table.game.layout.face_up(seat) & face_down.bit
    async with same:
        res = await forged_click(
            env, user, hand_message(players[seat]), _cid(table, seat, f"play:{face_down.code}")
        )
        assert_refused(res, "not your turn")
    # a stale button once the turn has passed
    async with same:
        res = await forged_click(
            env,
            user,
            hand_message(players[seat]),
            _cid(table, seat, f"play:{top.code}", game.version),
        )
        assert_refused(res, "Already played", "moved on")


@pytest.mark.parametrize(
    ("bot_settings", "game", "options", "humans", "phase"),
    [
        ({"seed": 5}, "solo-whist", None, 4, "auction"),
        ({"seed": 32}, "ruff-trump-willughby", "players=3, ruff_announce=declared", 3, "contest"),
        ({"seed": 41}, "turnover-bridge", None, 2, "play"),
        ({"seed": 5}, "bid-whist", None, 4, "bidding"),
    ],
)
async def test_restart_keeps_auction_contest_and_layout_tables_and_their_buttons(
    simcord_env: Any,
    db_path: Path,
    bot_settings: dict[str, Any],
    more_bots: list[Any],
    game: str,
    options: str | None,
    humans: int,
    phase: str,
) -> None:
    """Mid-auction, mid-contest (a menu) and mid-layout: resumed from the move log,
    and a button the old bot drew works on the new one."""
    env = simcord_env
    guild, channel, players = await open_table(env, humans, game, options=options)
    table = env.bot.manager.tables[1]
    seat = table.game.to_act()
    await act(
        players[seat], table.game, seat, [table.game.legal_actions(seat)[-1]]
    )  # the game moves on
    assert table.game.phase == phase
    before = table.game.state_key()
    text = message_text(table_message(channel))
    seat = table.game.to_act()
    old = hand_message(players[seat])

    await restart(env, more_bots, make_settings(db_path, **bot_settings))
    table = env.bot.manager.tables[1]
    assert table.game.state_key() == before
    assert message_text(table_message(channel)) == text
    action = table.game.legal_actions(seat)[0]
    version = table.game.version
    res = await act(players[seat], table.game, seat, [action])
    assert res.response is not None and not res.ephemeral and res.response.id == old.id
    assert table.game.log[version] == (seat, action)
