"""A lobby whose seats are all taken offers what can still happen: Start."""

from __future__ import annotations

from typing import Any

from bot.present.layout import layout_text as message_text

from .helpers import button_labels, table_message


async def test_a_full_lobby_offers_start_and_says_so(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "ruff new")
    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Add AI (easy)")
    open_lobby = table_message(channel)
    assert "Join" in button_labels(open_lobby) and "Join** to take a seat" in message_text(
        open_lobby
    )
    await alice.click(open_lobby, label="Add AI (normal)")

    lobby = table_message(channel)
    labels = button_labels(lobby)
    assert "Start" in labels
    assert "Join" not in labels and not any(label.startswith("Add AI") for label in labels)
    assert "The table is full — the opener can **Start**." in message_text(lobby)
    assert "Join" not in message_text(lobby)

    await bob.click(lobby, label="Leave")  # a seat free again: Join and Add AI come back
    lobby = table_message(channel)
    assert "Join" in button_labels(lobby) and "Add AI (easy)" in button_labels(lobby)
    assert "The table is full" not in message_text(lobby)
