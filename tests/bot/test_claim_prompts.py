"""A claim's private question lives only as long as its moment: once a card is played
it says so and loses its buttons, and a late Confirm is answered as a question that has
passed, not "Already played". **Claim all** is offered only where it surely holds, never
"Claim all (12)" at the second trick. Real bot (simcord), real SQLite, real engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.store import ActionRepo
from engine.ai.strategies.claims import certain_claim
from engine.claims import remaining_tricks

from .helpers import (
    act_on,
    button_labels,
    choose,
    forged_click,
    hand_message,
    labels_of,
    raw_buttons,
)
from .test_claims import _open, _play_to

pytestmark = pytest.mark.parametrize("bot_settings", [{"seed": 11}])


async def test_a_passed_claim_question_loses_its_buttons_and_a_late_confirm_says_so(
    simcord_env: Any, db_path: Path
) -> None:
    env = simcord_env
    _, _channel, (alice,) = await _open(env, ["alice"], 3)
    table = await _play_to(
        env,
        [alice],
        lambda t: t.game.to_act() == 0 and t.game.phase == "play" and t.game.trick_no == 2,
    )
    game = table.game
    left = remaining_tricks(game)
    assert left == 12 and certain_claim(game.observe(0)) is None
    hand = hand_message(alice)
    claims = [label for label in button_labels(hand) if label.startswith("Claim")]
    assert claims == ["Claim…"], claims  # no "Claim all (12)" at the second trick

    # the question: how many tricks, with a Confirm for each count
    asked = await alice.user.click(hand, label="Claim…")
    question = asked.response
    assert question.ephemeral and f"All {left}" in labels_of(question.components)
    all_left = next(
        b["custom_id"] for b in raw_buttons(question.components) if b["label"] == f"All {left}"
    )

    # alice plays a card instead: the question says its moment passed, without buttons
    await act_on(alice.user, hand_message(alice), choose(table.game.observe(0)))
    await env.settle()
    shown = asked.response  # the question as the player's client shows it now
    assert shown is not None and shown.id == question.id
    content = shown.content
    assert content.startswith("⌛ That claim question has passed"), content
    assert raw_buttons(shown.components) == [], shown.components

    # a late Confirm (a client that still shows the buttons): the same words, nothing claimed
    res = await forged_click(env, alice.user, question.message, all_left)
    assert res.response is not None, res
    assert "That claim question has passed" in res.response.content, res.response.content
    assert raw_buttons(res.response.components) == []
    assert "Already played" not in res.response.content
    moves = [a.action for a in await ActionRepo(env.bot.db).list(table.id)]
    assert not any(m.startswith("claim") for m in moves)
