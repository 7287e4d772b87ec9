"""Helpers for driving tables through simcord as players would."""

from __future__ import annotations

import re
from typing import Any

import discord

from engine import Card

CARD_LABEL = re.compile(r"^(10|[2-9JQKA])[♠♥♦♣]$")
SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def label_to_card(label: str) -> Card:
    return Card.parse(label[:-1] + SUITS[label[-1]])


def buttons(message: discord.Message) -> list[Any]:
    return [child for row in message.components for child in getattr(row, "children", [])]


def enabled_cards(message: discord.Message) -> list[str]:
    return [
        b.label
        for b in buttons(message)
        if b.type == discord.ComponentType.button and not b.disabled and b.label and CARD_LABEL.match(b.label)
    ]


def button_labels(message: discord.Message) -> list[str]:
    return [b.label for b in buttons(message) if getattr(b, "label", None)]


def find_select(message: discord.Message) -> Any | None:
    return next((b for b in buttons(message) if b.type == discord.ComponentType.string_select), None)


def hand_message(user: Any) -> discord.Message:
    """The latest DM the bot sent this user (the current hand)."""
    dm = user.user.dm_channel
    assert dm is not None, "the bot never DMed this user"
    msg = dm.last_message
    assert msg is not None
    return msg
