"""Each decision explains itself where it is made: Solo Whist's calls with what they
undertake (in the menu of calls), Bid Whist's bid in books, Ruffe and Trump's automatic ruff and "cards over
par", Turnover Bridge's goal in tricks."""

from __future__ import annotations

from typing import Any

import pytest

from bot.present.layout import layout_text as message_text

from .dm_play import open_table
from .helpers import buttons, feed, hand_message, table_message
from .test_text_style_suits import _act

pytestmark = pytest.mark.parametrize("bot_settings", [{"seed": 7}])


async def _until(env: Any, alice: Any, ready: Any) -> Any:
    table = env.bot.manager.tables[1]
    for _ in range(2000):
        if ready(table.game):
            return table
        assert not table.game.is_over, "the game ended first"
        assert await _act(alice), hand_message(alice).content
    raise AssertionError("never reached the position")


async def test_solo_calls_say_what_they_undertake(simcord_env: Any) -> None:
    env = simcord_env
    _, _, (alice,) = await open_table(env, 1, "solo-whist", ai=3)
    await _until(env, alice, lambda g: g.phase == "auction" and g.to_act() == 0)
    dm = hand_message(alice)
    first = dm.content.splitlines()[0]
    assert first.startswith("🟢 **Your call:**") and "menu" in first, first
    menu = next(b for b in buttons(dm) if str(getattr(b, "custom_id", "")).startswith("rh:c:"))
    said = {o.label: o.description for o in menu.options}
    assert said["Solo"] == "5 tricks alone" and said["Misère"] == "no trick, no trumps", said
    assert said["Abundance"] == "9 tricks alone, you name trumps", said


async def test_a_bid_whist_bid_is_said_in_books(simcord_env: Any) -> None:
    env = simcord_env
    _, _, (alice,) = await open_table(env, 1, "bid-whist", ai=3)
    table = await _until(
        env,
        alice,
        lambda g: (
            g.phase == "bidding"
            and g.to_act() == 0
            and any(a.verb == "bid" for a in g.legal_actions(0))
        ),
    )
    lowest = next(a for a in table.game.legal_actions(0) if a.verb == "bid")
    first = hand_message(alice).content.splitlines()[0]
    n = lowest.number  # type: ignore[attr-defined]
    assert f"A bid of {n} is {6 + n} books of 13" in first, first


async def test_ruffe_and_trump_explains_its_ruff_and_par(simcord_env: Any) -> None:
    env = simcord_env
    _, channel, (alice,) = await open_table(env, 1, "ruff-trump-willughby", target=20, ai=3)
    await _until(env, alice, lambda g: g.phase == "play")
    text = message_text(table_message(channel))
    assert "each hand's strongest suit counted for it (ace 11, K Q J 10 ten each" in text, text
    table = await _until(env, alice, lambda g: g.deals_total >= 2 or g.is_over)
    rules = table.game.rules
    par, cards = rules.cards_par, rules.players * rules.tricks_per_deal
    assert par == cards // 2  # two sides: half the cards played
    said = "\n".join(m.content for m in feed(channel))
    assert f"cards over par ({par} of {cards}: only the cards won beyond it score)" in said, said


async def test_turnover_says_first_to_14_tricks(simcord_env: Any) -> None:
    env = simcord_env
    _, channel, _ = await open_table(env, 2, "turnover-bridge")
    text = message_text(table_message(channel))
    assert "first to 14 tricks" in text, text
    assert "game to 1" not in text
