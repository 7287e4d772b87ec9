"""Laying out cards takes one choice and one Confirm: the menu's choice only shows
itself (nothing is laid out), Confirm lays every card out in one commit, and a
wrong count, a stale Confirm or someone else's click is refused with nothing changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.present.render import card_text
from engine import Card, sort_hand
from engine.actions import TakeRuff
from engine.phases.deal import CARD_BY_INDEX

from .dm_play import open_table, selects
from .helpers import DECISIONS, buttons, forged_click, hand_message, raw_buttons
from .test_refusals import Unchanged, assert_refused


def _confirm_ids(components: list[dict[str, Any]]) -> list[str]:
    return [
        str(c["custom_id"])
        for c in raw_buttons(components)
        if str(c.get("custom_id", "")).startswith("rh:k:")
    ]


@pytest.mark.parametrize("bot_settings", [{"seed": 4}])
async def test_laying_out_is_one_choice_and_one_confirm(simcord_env: Any, db_path: Path) -> None:
    env = simcord_env
    _guild, _channel, players = await open_table(env, 4, "ruff-honours-cotton")
    table = env.bot.manager.tables[1]
    game = table.game
    assert game.phase == "ruff", game.phase
    ruffer = game.to_act()
    member = players[ruffer]
    await member.user.click(hand_message(member), label=DECISIONS[TakeRuff])
    assert table.game.phase == "discard" and table.game.to_act() == ruffer
    same = Unchanged(env, db_path)

    dm = hand_message(member)
    (menu,) = selects(dm)
    assert menu.min_values == menu.max_values == 4
    assert not [b for b in buttons(dm) if str(b.custom_id).startswith("rh:k:")], "Confirm first"
    view = table.game.observe(ruffer)
    lowest = sort_hand(list(view.hand), view.trump)[-4:]
    codes = [c.code for c in lowest]

    # tap 1: the choice shows itself with Confirm, and nothing is laid out
    async with same:
        res = await member.user.select(dm, codes, custom_id=menu.custom_id)
        assert res.acknowledged and not res.ephemeral
        shown = res.response
        assert "press **Confirm**" in shown.content
        assert all(card_text(c) in shown.content for c in lowest)
        (confirm,) = _confirm_ids(shown.components)
        chosen = [
            o["value"]
            for row in shown.components
            for c in row["components"]
            if c["type"] == 3
            for o in c["options"]
            if o.get("default")
        ]
        assert sorted(chosen) == sorted(codes), "the menu shows the choice"
    version = table.game.version

    # a wrong count, someone else's click, a stale Confirm: refused, nothing changed
    three = confirm.rsplit(":", 1)[0] + ":" + ".".join(codes[:3])
    async with same:
        assert_refused(
            await forged_click(env, member.user, hand_message(member), three),
            "Choose exactly 4 cards",
        )
    other = players[(ruffer + 1) % 4]
    async with same:
        assert_refused(
            await forged_click(env, other.user, hand_message(other), confirm), "not your hand"
        )
    parts = confirm.split(":")
    assert parts[3] == str(version)
    stale = ":".join([*parts[:3], str(version - 1), *parts[4:]])
    async with same:
        assert_refused(
            await forged_click(env, member.user, hand_message(member), stale),
            "moved on",
            "Already played",
        )
    not_held: Card = next(c for c in CARD_BY_INDEX if c not in view.hand and not c.is_joker)
    forged = confirm.rsplit(":", 1)[0] + ":" + ".".join([*codes[:3], not_held.code])
    async with same:
        assert_refused(
            await forged_click(env, member.user, hand_message(member), forged), "not in your hand"
        )

    # tap 2: Confirm lays all four out, in one commit
    res = await member.user.click(shown, custom_id=confirm)
    assert res.acknowledged and not res.ephemeral
    assert table.game.version == version + 4
    assert not set(lowest) & set(table.game.hand(ruffer))
    assert f"Laid out: {' '.join(card_text(c) for c in lowest)}" in hand_message(member).content
    # a second tap on the same Confirm
    async with same:
        assert_refused(
            await forged_click(env, member.user, hand_message(member), confirm),
            "Already played",
            "moved on",
        )
