"""Bad input at Bid Whist: a short private refusal, and nothing changes.

A bid out of turn, a bid that does not outrank (a forged id: the button is never
drawn), a stale bid button after the auction moved on, naming trumps when not the
declarer, naming a direction for a suit bid, laying out the wrong number of kitty
cards or a card not held. "Nothing changes" is the strict check of
``test_refusals``: every table's engine state and a dump of the whole database.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from .dm_play import open_table, selects
from .helpers import choose_cards, enabled_labels, find_select, forged_click, hand_message
from .test_auction_and_layout_refusals import _cid
from .test_refusals import Unchanged, assert_refused


async def select_count(env: Any, actor: Any, message: Any, values: list[str]) -> Any:
    """Choose ``values`` in the message's card menu as if it let one choose that many
    (a tampered client: the bot's menu asks for exactly the kitty's count)."""
    stored = env.backend.get_message(message.channel.id, message.id)
    saved = copy.deepcopy(stored.components)
    menu = next(c for row in stored.components for c in row["components"] if c.get("type") == 3)
    menu["min_values"] = menu["max_values"] = len(values)
    have = {o["value"] for o in menu["options"]}
    menu["options"] += [{"label": v, "value": v} for v in values if v not in have]
    try:
        return await choose_cards(actor, message, values, custom_id=menu["custom_id"])
    finally:
        stored.components = saved


@pytest.mark.parametrize("bot_settings", [{"seed": 5}])
async def test_bid_whist_bad_bids_names_and_kitty_are_refused(
    simcord_env: Any, db_path: Path
) -> None:
    env = simcord_env
    guild, channel, players = await open_table(env, 4, "bid-whist")
    table = env.bot.manager.tables[1]
    same = Unchanged(env, db_path)
    first = table.game.to_act()
    second, third, last = ((first + k) % 4 for k in (1, 2, 3))
    start = table.game.version

    def dm(seat: int) -> Any:
        return hand_message(players[seat])

    # a bid out of turn, from the bidder's own DM (no live buttons there)
    async with same:
        res = await forged_click(
            env, players[second].user, dm(second), _cid(table, second, "bid:4u")
        )
        assert_refused(res, "not your turn to bid")
    async with same:  # someone else's seat
        res = await forged_click(
            env, players[second].user, dm(second), _cid(table, first, "bid:4u")
        )
        assert_refused(res, "not your hand")

    res = await players[first].user.select(dm(first), ["bid:4d"])  # from the menu of bids
    assert not res.ephemeral and table.game.version == start + 1
    offered = [o.label for o in find_select(dm(second)).options]
    assert enabled_labels(dm(second)) + offered[:2] == [
        "Pass",
        "4 no trump",
        "5 uptown",
    ]  # only what outranks
    # bids that do not outrank 4 downtown: never drawn, so only a forged id sends them
    for code in ("4u", "4d", "3n"):
        async with same:
            res = await forged_click(
                env, players[second].user, dm(second), _cid(table, second, f"bid:{code}")
            )
            assert_refused(res, "Your bid must outrank 4 downtown")
    async with same:  # below the lowest bid
        res = await forged_click(
            env, players[second].user, dm(second), _cid(table, second, "bid:2n")
        )
        assert_refused(res, "Bids run from 3 to 7")

    await players[second].user.click(dm(second), label="Pass")
    # stale buttons: the first bidder's from before his bid, the second's from before its pass
    async with same:
        res = await forged_click(
            env, players[first].user, dm(first), _cid(table, first, "bid:5u", start)
        )
        assert_refused(res, "Already played", "moved on")
    async with same:
        res = await forged_click(
            env, players[second].user, dm(second), _cid(table, second, "bid:5n", start + 1)
        )
        assert_refused(res, "Already played", "moved on")
    await players[third].user.click(dm(third), label="Pass")
    await players[last].user.click(dm(last), label="Pass")
    game = table.game
    assert game.phase == "name" and game.to_act() == first and game.observe(0).contract == "4d"

    # naming trumps when not the declarer; a direction for a suit bid; a bid now
    for seat in (second, third, last):
        async with same:
            res = await forged_click(
                env, players[seat].user, dm(seat), _cid(table, seat, "trump:S")
            )
            assert_refused(res, "Only the declarer names the contract")
    async with same:
        res = await forged_click(
            env, players[first].user, dm(first), _cid(table, first, "dir:down")
        )
        assert_refused(res, "A suit bid names the trump suit")
    async with same:
        res = await forged_click(env, players[first].user, dm(first), _cid(table, first, "bid:7n"))
        assert_refused(res, "There is no bidding now")
    res = await players[first].user.click(dm(first), label="Trumps: ♣\ufe0e")
    assert not res.ephemeral and table.game.phase == "kitty"

    # the kitty: exactly six cards of the eighteen, each held
    message = dm(first)
    menu = selects(message)[0]
    assert menu.min_values == menu.max_values == 6 and len(menu.options) == 18
    codes = [o.value for o in menu.options]
    for count in (5, 7):
        async with same:
            res = await select_count(env, players[first].user, message, codes[-count:])
            assert_refused(res, "Choose exactly 6 cards to lay out")
    held = {c.code for c in table.game.hand(first)}
    missing = next(code for code in ("BJ", "LJ", "AS", "2S", "AH", "2H") if code not in held)
    async with same:
        res = await select_count(env, players[first].user, message, [*codes[-5:], missing])
        assert_refused(res, "not in your hand")
    async with same:  # the kitty is the declarer's alone to lay out
        res = await forged_click(
            env, players[second].user, dm(second), _cid(table, second, f"discard:{codes[0]}")
        )
        assert_refused(res, "Only the declarer lays out the kitty")
    res = await choose_cards(players[first].user, message, codes[-6:])
    assert not res.ephemeral and table.game.phase == "play"
    assert sorted(c.code for c in table.game.observe(first).my_discards) == sorted(codes[-6:])


@pytest.mark.parametrize("bot_settings", [{"seed": 7}])
async def test_no_trump_declarer_lays_out_his_jokers_first(simcord_env: Any, db_path: Path) -> None:
    """``nt_jokers = bidder_discards``: the menu offers the jokers alone (choose them
    all), then the rest of the hand for the other cards."""
    env = simcord_env
    guild, channel, players = await open_table(
        env, 4, "bid-whist", options="nt_jokers=bidder_discards"
    )
    table = env.bot.manager.tables[1]
    holder = None
    while table.game.phase == "bidding":
        seat = table.game.to_act()
        jokers = [c for c in table.game.hand(seat) if c.is_joker]
        if holder is None and (jokers or "Pass" not in enabled_labels(hand_message(players[seat]))):
            holder = seat  # bids 3 no trump, from the menu of bids
            await players[seat].user.select(hand_message(players[seat]), ["bid:3n"])
        else:
            await players[seat].user.click(hand_message(players[seat]), label="Pass")
    assert holder is not None and table.game.to_act() == holder
    await players[holder].user.click(
        hand_message(players[holder]), label="Downtown (low cards win)"
    )
    jokers = sorted((c for c in table.game.hand(holder) if c.is_joker), key=lambda c: -c.index)
    assert jokers, "the declarer holds a joker"
    message = hand_message(players[holder])
    assert "In no trump your jokers go out first." in message.content
    menu = selects(message)[0]
    assert [o.label for o in menu.options] == [
        {"BJ": "Big Joker", "LJ": "Little Joker"}[c.code] for c in jokers
    ]
    assert menu.min_values == len(jokers)
    res = await choose_cards(players[holder].user, message, [c.code for c in jokers])
    assert not res.ephemeral and not any(c.is_joker for c in table.game.hand(holder))
    message = hand_message(players[holder])
    menu = selects(message)[0]
    assert menu.min_values == 6 - len(jokers) and len(menu.options) == 18 - len(jokers)
    res = await choose_cards(
        players[holder].user, message, [o.value for o in menu.options][-menu.min_values :]
    )
    assert not res.ephemeral and table.game.phase == "play"
