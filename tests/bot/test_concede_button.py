"""Concede is offered only where the rules let a side concede: at a partnership or
two-handed table, never where everyone plays for himself (Solo Whist), where the
button could only be refused (issue #37, finding 10). It is under This deal's private
answer, for a player (the table message keeps one row of buttons for a phone)."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import button_labels, forged_click, labels_of, table_message, world_state


@pytest.mark.parametrize(
    ("game_id", "offered"),
    [("solo-whist", False), ("whist-5", True), ("ruff-honours-cotton", True)],
)
async def test_concede_is_offered_only_where_a_side_may_concede(
    simcord_env: Any, db_path: Any, game_id: str, offered: bool
) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "ruff new", game=game_id)
    for _ in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Start")
    labels = button_labels(table_message(channel))
    assert labels == ["My hand", "Last trick", "This deal"], labels
    deal = await alice.click(table_message(channel), label="This deal")
    assert deal.ephemeral and "Score:" in deal.response.content
    offers = labels_of(deal.response.components)
    assert offers == (["Concede"] if offered else []), offers
    if offered:  # it asks first, as it did from the table
        asked = await alice.click(deal.response, label="Concede")
        assert asked.ephemeral and "Confirm" in labels_of(asked.response.components)
    if not offered:
        # an old or forged Concede button: a short private refusal, nothing changed
        before = world_state(env, db_path)
        res = await forged_click(env, alice, table_message(channel), "rh:t:1:concede")
        assert res.ephemeral and "each for himself" in res.response.content, res.response.content
        assert world_state(env, db_path) == before
