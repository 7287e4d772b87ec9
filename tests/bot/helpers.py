"""Helpers for driving tables through simcord as players would."""

from __future__ import annotations

import copy
import random
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
from simcord.components import walk_components

from bot.present.layout import layout_text as message_text
from bot.present.render import card_label
from bot.store import ActionRepo, TableRepo
from engine import Card, Game, SeatView, sort_hand
from engine.actions import (
    Action,
    CallCanYe,
    DeclineRuff,
    Discard,
    Pass,
    Play,
    ShowHonours,
    TakeRuff,
)
from engine.claims import AcceptClaim, RejectClaim

CARD_LABEL = re.compile("^(10|[2-9JQKA])[♠♥♦♣]\ufe0e?$")  # ♠︎ ♣︎ carry the text style
SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
SEAT_NAMES = ("North", "East", "South", "West")
DECISIONS = {
    TakeRuff: "Take the stock (ruff)",
    DeclineRuff: "Decline the ruff",
    CallCanYe: "Call “Can-ye?”",
    ShowHonours: "Show honours",
    Pass: "Pass",
    AcceptClaim: "Accept the claim",
    RejectClaim: "Reject the claim",
}


def label_to_card(label: str) -> Card:
    label = label.replace("\ufe0e", "")  # the text style of ♠︎ and ♣︎
    return Card.parse(label[:-1] + SUITS[label[-1]])


def buttons(message: discord.Message) -> list[Any]:
    """The buttons and menus of a message: in its rows, or in the rows of its layout."""
    found: list[Any] = []

    def walk(items: Any) -> None:
        for item in items:
            if item.type in (discord.ComponentType.button, discord.ComponentType.string_select):
                found.append(item)
            walk(getattr(item, "children", ()) or ())

    walk(message.components)
    return found


def raw_buttons(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Children of raw component rows (a ``ResponseMessage``'s components)."""
    return [child for row in components for child in row.get("components", [])]


def enabled_cards(message: discord.Message) -> list[str]:
    return [
        b.label
        for b in buttons(message)
        if b.type == discord.ComponentType.button
        and not b.disabled
        and b.label
        and CARD_LABEL.match(b.label)
    ]


def card_labels(message: discord.Message) -> list[str]:
    return [
        b.label
        for b in buttons(message)
        if b.type == discord.ComponentType.button and b.label and CARD_LABEL.match(b.label)
    ]


def button_labels(message: discord.Message) -> list[str]:
    return [b.label for b in buttons(message) if getattr(b, "label", None)]


def enabled_labels(message: discord.Message) -> list[str]:
    return [
        b.label
        for b in buttons(message)
        if b.type == discord.ComponentType.button and not b.disabled and getattr(b, "label", None)
    ]


def find_select(message: discord.Message) -> Any | None:
    return next(
        (b for b in buttons(message) if b.type == discord.ComponentType.string_select), None
    )


def hand_message(user: Any) -> discord.Message:
    """The latest DM the bot sent this user (the current hand)."""
    dm = user.user.dm_channel
    assert dm is not None, "the bot never DMed this user"
    msg = dm.last_message
    assert msg is not None
    return msg


def feed(channel: Any) -> list[discord.Message]:
    """What players read of their tables: the channel and the tables' threads, oldest first
    (the "thread started" notes left out)."""
    messages = [m for c in (channel, *channel.threads) for m in c.history()]
    return sorted(
        (m for m in messages if m.type is not discord.MessageType.thread_created),
        key=lambda m: m.id,
    )


def table_message(channel: Any) -> discord.Message:
    """The public table message (the first message of the table in the channel)."""
    return next(m for m in channel.history() if is_table_message(m))


def raw_text(components: list[dict[str, Any]]) -> str:
    """The words of raw components (a ``ResponseMessage``'s layout): its text displays."""
    return "\n".join(
        str(c.get("content", "")) for c in walk_components(components) if c.get("type") == 10
    )


def is_table_message(message: discord.Message) -> bool:
    """A table message: its layout (or, from before the layout, its content) names it."""
    text = message_text(message)
    return "🃏" in text and "table #" in text


JOKER_LABELS = ("Big Joker", "Little Joker")


def hand_line(message: discord.Message) -> str:
    """The hand as the ``Your hand (n): ♠ A K · ♥ 10 2`` line shows it; where the text
    does not list it (the card buttons show the whole hand), the same line built
    from the card buttons, in their order (one row per suit, in the deal's order)."""
    line = next((ln for ln in message.content.splitlines() if ln.startswith("Your hand")), None)
    if line is not None:
        return line
    groups: list[str] = []
    suit = None
    for b in buttons(message):
        label = b.label or ""
        if label in JOKER_LABELS:
            groups.append(label)
            suit = None
        elif CARD_LABEL.match(label):
            rank, symbol = label.rstrip("\ufe0e")[:-1], label.rstrip("\ufe0e")[-1]
            if symbol != suit:
                groups.append(f"{symbol} {rank}")
                suit = symbol
            else:
                groups[-1] += f" {rank}"
    return (
        f"Your hand ({len(card_labels(message)) + sum(g in JOKER_LABELS for g in groups)}): "
        + " · ".join(groups)
    )


def hand_cards(message: discord.Message | str) -> list[Card]:
    """The cards of a hand message: listed on its ``Your hand (n): ♠ A K · ♥ 10 2``
    line, or, where the message's card buttons show the whole hand and the text does
    not list it again, its card buttons (not face-up layout cards)."""
    content = message if isinstance(message, str) else message.content
    line = next((ln for ln in content.splitlines() if ln.startswith("Your hand")), None)
    if line is None:
        assert not isinstance(message, str), f"no 'Your hand' line in {content!r}"
        return [label_to_card(label) for label in card_labels(message) if "layout" not in label]
    groups = line.split(": ", 1)[1]
    cards: list[Card] = []
    if groups == "(no cards)":
        return cards
    for group in groups.split(" · "):
        symbol, *ranks = group.split(" ")
        cards.extend(label_to_card(rank + symbol) for rank in ranks)
    return cards


def choose(view: SeatView) -> list[Action]:
    """A deterministic player: ruff, lay out the lowest cards, call honours, play the top card.

    Decisions are taken from the engine's legal actions in the order the hand
    message shows them (sorted for display), so the test can click the same thing.
    """
    legal = view.legal
    kinds = {type(a) for a in legal}
    if AcceptClaim in kinds:  # an AI claimed what it surely takes
        return [AcceptClaim()]
    if TakeRuff in kinds:
        return [TakeRuff()]
    if Discard in kinds:
        cards = sort_hand([a.card for a in legal if isinstance(a, Discard)], view.trump)
        return [Discard(c) for c in cards[-4:]]
    for kind in (ShowHonours, CallCanYe, Pass):
        if kind in kinds:
            return [next(a for a in legal if isinstance(a, kind))]
    plays = sort_hand([a.card for a in legal if isinstance(a, Play)], view.trump)
    return [Play(plays[0])]


def db_dump(path: Path | str) -> list[str]:
    """Every row of the database as SQL, through a separate connection."""
    con = sqlite3.connect(str(path))
    try:
        return list(con.iterdump())
    finally:
        con.close()


def sent_contents(env: Any, start: int = 0) -> Iterator[tuple[str, str, str]]:
    """(method, path, content) of every message body the bot sent since request ``start``."""
    for req in env.http_requests[start:]:
        body = req.json
        if not isinstance(body, dict):
            continue
        if isinstance(body.get("data"), dict) and "content" not in body:
            body = body["data"]
        content = body.get("content")
        words = [content] if isinstance(content, str) else []
        # a Components V2 layout: its text displays and its media's alt texts
        for component in walk_components(body.get("components") or []):
            if component.get("type") == 10:
                words.append(str(component.get("content", "")))
            for item in component.get("items") or ():
                if isinstance(item, dict) and item.get("description"):
                    words.append(str(item["description"]))
        if words:
            yield req.method, req.path, "\n".join(words)


async def replay_from_db(db: Any, table: Any) -> Game:
    """The game rebuilt from the stored seed and move log alone."""
    row = await TableRepo(db).get(table.id)
    assert row is not None
    actions = await ActionRepo(db).list(table.id)
    return Game.from_record(row.record(actions))


async def act_on(actor: Any, message: Any, actions: list[Action]) -> Any:
    """Click (or select) ``actions`` on a hand message, as its owner would.

    ``actor`` is what can see the message: ``member.user`` for a DM, the member
    for an ephemeral reply in the channel.
    """
    first = actions[0]
    if isinstance(first, Discard):
        return await choose_cards(
            actor, message, [a.card.code for a in actions if isinstance(a, Discard)]
        )
    if isinstance(first, Play):
        return await actor.click(message, label=card_label(first.card))
    return await actor.click(message, label=DECISIONS[type(first)])


def labels_of(components: list[dict[str, Any]], *, enabled_only: bool = False) -> list[str]:
    """Button labels of raw components (an ephemeral ``ResponseMessage``)."""
    return [
        c["label"]
        for c in raw_buttons(components)
        if c.get("type") == 2 and c.get("label") and not (enabled_only and c.get("disabled"))
    ]


def world_state(env: Any, db_path: Path | str) -> tuple[dict[int, str | None], list[str]]:
    """Every table's engine state and the whole database, to show that nothing changed."""
    tables = env.bot.manager.tables
    keys = {tid: (t.game.state_key() if t.game else None) for tid, t in tables.items()}
    return keys, db_dump(db_path)


async def forged_click(env: Any, actor: Any, message: Any, custom_id: str) -> Any:
    """Click a button carrying ``custom_id`` on ``message``, though the bot never drew it.

    Simulates a tampered client sending a well-formed id: the only way to reach the
    bot's own checks behind disabled buttons. The stored message is restored after.
    """
    stored = env.backend.get_message(message.channel.id, message.id)
    saved = copy.deepcopy(stored.components)
    button = next((c for c in walk_components(stored.components) if c.get("type") == 2), None)
    if button is None:  # a message without buttons (a hand off turn): give it one
        button = {"type": 2, "style": 2, "label": "·"}
        stored.components = [*stored.components, {"type": 1, "components": [button]}][-5:]
    button["custom_id"] = custom_id
    button["disabled"] = False
    try:
        return await actor.click(message, custom_id=custom_id)
    finally:
        if stored.components and custom_id in str(stored.components):
            stored.components = saved  # the bot did not redraw it: undo the forgery


def table_seed(settings_seed: int, nth: int = 1) -> int:
    """The engine seed of the ``nth`` table a bot with ``Settings(seed=settings_seed)`` opens."""
    rng = random.Random(settings_seed)
    for _ in range(nth - 1):
        rng.randrange(1, 2**53)
    return rng.randrange(1, 2**53)


async def choose_cards(actor: Any, message: Any, values: list[str], **kwargs: Any) -> Any:
    """Choose in a hand's menu as a player does: a menu of cards to lay out takes two
    taps, the choice, then its **Confirm**; any other menu, the choice alone. Returns
    the last answer (a refused choice is not confirmed)."""
    res = await actor.select(message, values, **kwargs)
    shown = res.response
    if shown is None:
        return res
    confirm = next(
        (
            c.get("custom_id")
            for c in raw_buttons(shown.components)
            if str(c.get("custom_id", "")).startswith("rh:k:")
        ),
        None,
    )
    if confirm is None:
        return res
    return await actor.click(shown, custom_id=confirm)
