"""``/ruff replay`` of a game of several deals jumps a whole deal in one tap: ⏮ ⏭
beside the trick steps, and a menu of the deals."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import choose_cards, enabled_cards, hand_message, raw_buttons, table_message
from .test_auction_and_layout_refusals import forged_select


async def _play_deals(env: Any, channel: Any, alice: Any) -> Any:
    """alice and three easy AIs play Whist 5-Point to 5 points: several deals."""
    res = await alice.slash(channel, "ruff new", game="whist-5", target=5)
    assert not res.ephemeral
    for _ in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Start")
    table = env.bot.manager.tables[1]
    for _ in range(600):
        if table.game.is_over:
            break
        hand = hand_message(alice)
        cards = enabled_cards(hand)
        if not cards and "Accept the claim" in hand.content:
            await alice.user.click(hand, label="Accept the claim")
            continue
        assert cards, hand.content
        await alice.user.click(hand, label=cards[-1])
    assert table.game.is_over
    return table


def _buttons(message: Any) -> dict[str, tuple[str, bool]]:
    return {
        b["label"]: (b["custom_id"], bool(b.get("disabled")))
        for b in raw_buttons(message.components)
        if b.get("type") == 2
    }


def _deal_menu(message: Any) -> dict[str, Any]:
    (menu,) = [c for c in raw_buttons(message.components) if c.get("type") == 3]
    return menu


def _where(content: str) -> str:
    return content.splitlines()[1].split(" · ")[0]  # "Game 1, deal 2"


@pytest.mark.slow
@pytest.mark.parametrize("bot_settings", [{"seed": 3}])
async def test_replay_jumps_a_deal_in_one_tap(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    await _play_deals(env, channel, alice)
    res = await alice.slash(channel, "ruff replay")
    msg = res.response
    assert res.ephemeral and _where(msg.content) == "Game 1, deal 1"
    menu = _deal_menu(msg)
    deals = [o["label"] for o in menu["options"]]
    assert len(deals) >= 3, deals
    assert deals[:3] == ["Game 1, deal 1", "Game 1, deal 2", "Game 1, deal 3"]
    assert _buttons(msg)["⏮ Deal"][1] is True  # nothing before the first deal

    # ⏭ : the next deal's first trick, in one tap
    res = await alice.click(msg, label="Deal ⏭")
    msg = res.response
    assert _where(msg.content) == "Game 1, deal 2"
    assert "**Trick 1**" in msg.content
    # ▶ then ⏮ : back to this deal's first trick, then ⏮ again to the deal before
    msg = (await alice.click(msg, label="▶")).response
    assert "**Trick 2**" in msg.content and _where(msg.content) == "Game 1, deal 2"
    msg = (await alice.click(msg, label="⏮ Deal")).response
    assert "**Trick 1**" in msg.content and _where(msg.content) == "Game 1, deal 2"
    msg = (await alice.click(msg, label="⏮ Deal")).response
    assert "**Trick 1**" in msg.content and _where(msg.content) == "Game 1, deal 1"

    # the menu: straight to the third deal, shown chosen
    third = next(o["value"] for o in _deal_menu(msg)["options"] if o["label"] == deals[2])
    res = await choose_cards(alice, msg, [third], custom_id=_deal_menu(msg)["custom_id"])
    msg = res.response
    assert _where(msg.content) == "Game 1, deal 3" and "**Trick 1**" in msg.content
    chosen = [o["label"] for o in _deal_menu(msg)["options"] if o.get("default")]
    assert chosen == ["Game 1, deal 3"]
    # a forged value is refused, not a crash
    res = await forged_select(env, alice, msg.message, _deal_menu(msg)["custom_id"], "x")
    assert res.ephemeral and "not one of the choices" in res.response.content
