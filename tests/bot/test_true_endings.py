"""Endings that state the true reason: a tie named as a tie (and every tied line of
the score chart ringed), a Bid Whist game lost at the limit said so."""

from __future__ import annotations

from typing import Any

import pytest

from bot.present.chart import deal_history
from bot.present.layout import layout_text as message_text

from .dm_play import open_table
from .helpers import feed, hand_message, table_message
from .test_text_style_suits import _act

SEATS = ("North", "East", "South", "West")


async def _play_alone(env: Any, alice: Any) -> Any:
    table = env.bot.manager.tables[1]
    for _ in range(3000):
        if table.game.is_over:
            return table
        assert await _act(alice), hand_message(alice).content
    raise AssertionError("the game does not end")


@pytest.mark.parametrize("bot_settings", [{"seed": 3}])
async def test_a_solo_tie_is_named_as_a_tie(simcord_env: Any) -> None:
    env = simcord_env
    _, channel, (alice,) = await open_table(env, 1, "solo-whist", ai=3)
    table = await _play_alone(env, alice)
    scores = table.game.scores
    best = max(scores)
    tied = [s for s in range(4) if scores[s] == best]
    assert len(tied) > 1, f"seed 3 no longer ends tied: {scores}"
    final = message_text(table_message(channel))
    line = next(x for x in final.splitlines() if " share first place with " in x)
    assert all(SEATS[seat] in line.split(" share first place")[0] for seat in tied), line
    assert f" share first place with {best} " in line
    assert "wins with" not in final and " wins" not in final
    thread = "\n".join(m.content for m in channel.threads[0].history())
    assert thread.count(line) == 1, thread  # said once, and no "How East won"
    assert "How " not in thread
    points = deal_history(table.game.to_record())
    assert set(points[-1].tied) == set(tied)  # the chart rings every tied line


@pytest.mark.parametrize("bot_settings", [{"seed": 3}])
async def test_a_bid_whist_game_lost_at_the_limit_says_so(simcord_env: Any) -> None:
    env = simcord_env
    _, channel, (alice,) = await open_table(env, 1, "bid-whist", options="target_score=7", ai=3)
    table = await _play_alone(env, alice)
    scores = table.game.scores
    assert min(scores) <= -7, f"seed 3 no longer ends at the limit: {scores}"
    said = "\n".join(m.content for m in feed(channel))
    assert "the limit of -7 was reached" in said, said[-800:]
    assert "scored in no deal" not in said
