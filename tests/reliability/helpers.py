"""Driving the bot as players would, plus what simcord's one-verb-at-a-time API lacks:
several interactions in flight at once (``race``) and interactions no client would
send (``forge``)."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
from simcord import interactions as sim_interactions
from simcord._settlement import _run_due_virtual_callbacks
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult

from bot.present.layout import layout_text as message_text
from tests.bot.helpers import choose_cards

CARD_LABEL = re.compile("^(10|[2-9JQKA])[♠♥♦♣]\ufe0e?$")  # ♠︎ ♣︎ carry the text style
DECISIONS = (
    "Accept the claim",
    "Show honours",
    "Call “Can-ye?”",
    "Take the stock (ruff)",
)  # an AI claims only what it surely takes


def buttons(message: Any) -> list[Any]:
    """The buttons and menus of a message: in its rows, or in the rows of its layout."""
    found: list[Any] = []

    def walk(items: Any) -> None:
        for item in items:
            if item.type in (discord.ComponentType.button, discord.ComponentType.string_select):
                found.append(item)
            walk(getattr(item, "children", ()) or ())

    walk(message.components)
    return found


def hand_message(member: Any) -> discord.Message | None:
    dm = member.user.dm_channel
    return None if dm is None else dm.last_message


def table_message(channel: Any) -> discord.Message:
    """The channel's newest table message (the bot posts a new one if its message is deleted)."""
    return next(m for m in reversed(channel.history()) if is_table_message(m))


def is_table_message(message: discord.Message) -> bool:
    """A table message: its layout (or, from before the layout, its content) names it."""
    text = message_text(message)
    return "🃏" in text and "table #" in text


def is_my_turn(msg: discord.Message | None) -> bool:
    return msg is not None and "Your turn" in msg.content


@dataclass(frozen=True)
class Move:
    """One thing a player can do from a hand message: a button or a select."""

    custom_id: str
    values: tuple[str, ...] | None = None  # a select's chosen values; None for a button
    # a lay-out's Confirm (its custom_id): the menu and the cards chosen in it first
    menu: tuple[str, tuple[str, ...]] | None = None

    @property
    def version(self) -> int:
        return int(self.custom_id.split(":")[3])

    @property
    def seat(self) -> int:
        return int(self.custom_id.split(":")[4])


def moves(msg: discord.Message) -> list[Move]:
    """Every enabled move on a hand message (decisions first, then cards, lowest last)."""
    out: list[Move] = []
    items = buttons(msg)
    for item in items:
        if item.type == discord.ComponentType.string_select and not item.disabled:
            values = tuple(o.value for o in item.options)[-item.min_values :]
            if item.custom_id.startswith("rh:d:"):  # cards to lay out: the move is their Confirm
                _rh, _d, table, version, seat, *verb = item.custom_id.split(":")
                confirm = f"rh:k:{table}:{version}:{seat}:{verb[0] if verb else 'discard'}:"
                out.append(Move(confirm + ".".join(values), None, (item.custom_id, values)))
            else:
                out.append(Move(item.custom_id, values))
    enabled = [
        b for b in items if b.type == discord.ComponentType.button and not b.disabled and b.label
    ]
    out += [Move(b.custom_id) for b in enabled if b.label in DECISIONS]
    out += [Move(b.custom_id) for b in enabled if CARD_LABEL.match(b.label)]
    return out


async def press(actor: Any, msg: Any, move: Move) -> Any:
    """Make ``move`` on ``msg`` as its owner would: a lay-out's menu choice then its
    Confirm, another menu's choice, or a button."""
    if move.menu is not None:
        return await choose_cards(actor, msg, list(move.menu[1]), custom_id=move.menu[0])
    if move.values is not None:
        return await choose_cards(actor, msg, list(move.values), custom_id=move.custom_id)
    return await actor.click(msg, custom_id=move.custom_id)


async def act(member: Any) -> Move | None:
    """If it is ``member``'s turn, make the first sensible move from their DM."""
    msg = hand_message(member)
    if not is_my_turn(msg):
        return None
    assert msg is not None
    options = moves(msg)
    assert options, f"my turn but nothing to press:\n{msg.content}"
    move = options[0]
    res = await press(member.user, msg, move)
    assert res.acknowledged
    return move


# ------------------------------------------------------------------ racing & forging


def _payload(
    env: Any, actor: Any, message: Any, custom_id: str, values: Sequence[str] | None
) -> tuple[Any, dict[str, Any]]:
    """An INTERACTION_CREATE for a component on ``message`` (which need not carry it)."""
    backend = env.backend
    channel_id = message.channel_id if hasattr(message, "channel_id") else message.channel.id
    stored = backend.get_message(channel_id, message.id)
    guild = getattr(actor, "guild", None)
    data: dict[str, Any] = {"custom_id": custom_id}
    if values is None:
        data["component_type"] = ComponentType.BUTTON
    else:
        data["component_type"] = ComponentType.STRING_SELECT
        data["values"] = list(values)
    record, payload = sim_interactions.base_payload(
        backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=stored.channel_id,
        guild_id=guild.id if guild is not None else None,
        user_id=actor.id,
        data=data,
    )
    payload["message"] = dict(serializers.message_payload(backend, stored))
    record.source_message_id = stored.id
    return record, payload


async def race(
    env: Any,
    clicks: Sequence[tuple[Any, Any, str, Sequence[str] | None]],
    *,
    advance: float = 0.0,
    timers_first: int | None = None,
) -> list[InteractionResult]:
    """Deliver several component interactions at once, then settle once.

    ``clicks`` are ``(actor, message, custom_id, values)``; ``actor`` is a
    ``MemberActor`` for guild messages or a ``UserHandle`` for DMs. All the
    INTERACTION_CREATE events are on the gateway before the bot handles any of
    them, like a double click or two players clicking in the same instant.
    ``advance`` also moves the virtual clock by that many seconds, so timers
    falling due race the clicks: by default the clicks are delivered first; with
    ``timers_first=n`` the due timers wake and the bot's tasks get ``n`` turns of
    the event loop before the clicks arrive. (simcord's verbs settle one at a
    time, so this uses its payload builders.)
    """
    env._begin_operation("race")
    try:
        if advance and timers_first is not None:
            env._move_clock(env._virtual_time + advance)
            _run_due_virtual_callbacks(
                env._settlement_state(), env._loop.time() + env.settle_timeout
            )
            for _ in range(timers_first):
                await asyncio.sleep(0)
        records = []
        for actor, message, custom_id, values in clicks:
            record, payload = _payload(env, actor, message, custom_id, values)
            records.append(record)
            env.backend.emit("INTERACTION_CREATE", payload)
        if advance and timers_first is None:
            env._move_clock(env._virtual_time + advance)
        await env._settle_internal(dispatch="INTERACTION_CREATE")
        return [InteractionResult(env, r) for r in records]
    finally:
        env._end_operation()


async def forge(
    env: Any, actor: Any, near: Any, custom_id: str, values: Sequence[str] | None = None
) -> InteractionResult:
    """A click on a component with any ``custom_id``.

    Discord only delivers clicks on components that exist on the message, so the
    component is put on a bot-authored message in ``near``'s channel (as a message
    from an older bot version, or carrying ids someone else's message had, would
    be); the message is removed again afterwards.
    """
    backend = env.backend
    if values is None:
        component: dict[str, Any] = {"type": 2, "style": 2, "label": "?", "custom_id": custom_id}
    else:
        component = {
            "type": 3,
            "custom_id": custom_id,
            "options": [{"label": v, "value": v} for v in dict.fromkeys(values) or ["-"]],
            "min_values": len(values),
            "max_values": max(1, len(values)),
        }
    channel_id = near.channel.id
    forged = backend.create_message(
        channel_id,
        backend.bot_user.id,
        "(forged)",
        components=[{"type": 1, "components": [component]}],
        broadcast=False,
    )
    try:
        (result,) = await race(env, [(actor, forged, custom_id, values)])
    finally:
        backend.delete_message(channel_id, forged.id)
    return result


# ------------------------------------------------------------------ database


def dump(path: Path | str) -> list[str]:
    """The whole database as SQL, through a separate connection."""
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def integrity(path: Path | str) -> str:
    conn = sqlite3.connect(path)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


def db_actions(path: Path | str, table_id: int) -> list[tuple[int, int, str, int | None]]:
    conn = sqlite3.connect(path)
    try:
        return [
            (r[0], r[1], r[2], r[3])
            for r in conn.execute(
                "SELECT seq, seat, action, actor_id FROM actions WHERE table_id = ? ORDER BY seq",
                (table_id,),
            )
        ]
    finally:
        conn.close()


def replay_db(path: Path | str, table_id: int, game: Any) -> Any:
    """The game rebuilt from its seed and the action log on disk (``game`` gives the rules)."""
    from engine import Game

    actions = [f"{seat} {action}" for _, seat, action, _ in db_actions(path, table_id)]
    return Game.from_record({**game.to_record(), "actions": actions})


def table_status(path: Path | str, table_id: int) -> str:
    conn = sqlite3.connect(path)
    try:
        return str(
            conn.execute("SELECT status FROM tables WHERE id = ?", (table_id,)).fetchone()[0]
        )
    finally:
        conn.close()


# ------------------------------------------------------------------ tables


async def open_table(
    channel: Any, opener: Any, joiners: Sequence[Any] = (), ai: Sequence[str] = (), **options: Any
) -> None:
    """``/ruff new`` by ``opener``, the others join, AI seats fill the rest, Start."""
    res = await opener.slash(channel, "ruff new", **options)
    assert res.acknowledged and not res.ephemeral, res.response.content if res.response else res
    for member in joiners:
        assert (await member.click(table_message(channel), label="Join")).acknowledged
    for level in ai:
        assert (await opener.click(table_message(channel), label=f"Add AI ({level})")).acknowledged
    res = await opener.click(table_message(channel), label="Start")
    assert res.acknowledged and not res.ephemeral


def posts(channel: Any) -> list[str]:
    """Every message in the channel and its tables' threads but the table message
    itself (and the "thread started" notes), oldest first."""
    messages = sorted(
        (m for c in (channel, *channel.threads) for m in c.history()), key=lambda m: m.id
    )
    return [
        m.content
        for m in messages
        if not is_table_message(m) and m.type is discord.MessageType.default
    ]


# ------------------------------------------------------------------ faults in the database itself


class InsertFault:
    """Makes the database itself refuse to log table ``table_id``'s action number ``seq``.

    A trigger, written by another connection as an operator or a failing disk
    would act: the bot's real store runs and gets a real ``sqlite3`` error from
    SQLite (nothing in the bot is replaced). ``clear()`` lifts the fault.
    """

    def __init__(self, path: Path | str, table_id: int, seq: int) -> None:
        self.path = path
        conn = sqlite3.connect(path, timeout=10)
        try:
            conn.execute(
                "CREATE TRIGGER injected_fault BEFORE INSERT ON actions"
                f" WHEN NEW.table_id = {int(table_id)} AND NEW.seq = {int(seq)}"
                " BEGIN SELECT RAISE(ABORT, 'injected fault: disk I/O error'); END"
            )
            conn.commit()
        finally:
            conn.close()

    def clear(self) -> None:
        conn = sqlite3.connect(self.path, timeout=10)
        try:
            conn.execute("DROP TRIGGER IF EXISTS injected_fault")
            conn.commit()
        finally:
            conn.close()
