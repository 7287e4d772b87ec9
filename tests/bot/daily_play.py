"""Playing the daily deals from the DMs, as a member would: helpers for the tests."""

from __future__ import annotations

import random
from typing import Any

import discord

from bot.tables.table import Table
from engine import Game
from engine.actions import Action, Discard
from engine.phases.contest import RuffClaim

from .dm_play import act
from .helpers import DECISIONS

BOARD_CLICKS = 200  # a board takes far fewer clicks than this


def dm_messages(member: Any) -> list[discord.Message]:
    """Every message in the member's DM with the bot, oldest first."""
    return list(member.user.dm_channel.history())


def board_table(env: Any, user_id: int) -> Table | None:
    """The member's board in play (in memory), if any."""
    tables = env.bot.manager.tables
    return next(
        (
            t
            for t in tables.values()
            if t.settings.board and t.status == "active" and t.seat_of(user_id) is not None
        ),
        None,
    )


def latest_board(env: Any, user_id: int) -> Table | None:
    """The member's latest board: in play, or just over (a board may end before its
    player acts at all: the AI's Can-ye at the call point)."""
    tables = [
        t
        for t in env.bot.manager.tables.values()
        if t.settings.board and t.seat_of(user_id) is not None
    ]
    return max(tables, key=lambda t: t.id, default=None)


def hand_of(member: Any, table: Table, seat: int) -> discord.Message:
    channel_id, message_id = table.hand_messages[seat]
    return next(m for m in member.user.dm_channel.history() if m.id == message_id)


def random_actions(game: Game, seat: int, rng: random.Random) -> list[Action]:
    """A random legal choice (no claims), as one click: a lay-out picks its cards at once."""
    legal = [a for a in game.legal_actions(seat) if type(a).__name__ not in ("Claim", "Concede")]
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards:
        view = game.observe(seat)
        return rng.sample(discards, view.to_lay_out)
    claims = [a for a in legal if isinstance(a, RuffClaim)]
    if claims:
        return [rng.choice(claims)]
    return [rng.choice(legal)]


async def play_board(
    env: Any, member: Any, rng: random.Random, script: list[list[Action]] | None = None
) -> tuple[Table, list[list[Action]]]:
    """Play the member's board in play to its end from their DM, by random legal
    clicks (or the ``script`` of another member's clicks); the table and the clicks."""
    table = latest_board(env, member.id)
    assert table is not None, "no board dealt"
    seat = table.seat_of(member.id)
    assert seat is not None
    clicks: list[list[Action]] = []
    while table.status == "active":
        game = table.game
        assert game is not None
        assert game.to_act() == seat or seat in _answering(game), (
            "an AI seat kept the player waiting"
        )
        actions = script[len(clicks)] if script is not None else random_actions(game, seat, rng)
        hand = hand_of(member, table, seat)
        if type(actions[0]) in DECISIONS:  # Can-ye, show honours, a claim's answer
            res = await member.user.click(hand, label=DECISIONS[type(actions[0])])
        else:
            res = await act(_Member(member, hand), game, seat, actions)
        assert res.acknowledged and not res.ephemeral, res
        clicks.append(actions)
        assert len(clicks) < BOARD_CLICKS
    await env.settle()  # the board's result told, the next board dealt
    return table, clicks


def _answering(game: Game) -> list[int]:
    from engine import answering

    return list(answering(game))


class _Member:
    """What :func:`dm_play.act` needs of a member: the user, whose latest DM it reads
    — here the hand message of the table, whatever was posted after it."""

    def __init__(self, member: Any, message: discord.Message) -> None:
        self.user = _User(member.user, message)
        self.id = member.id


class _User:
    def __init__(self, user: Any, message: discord.Message) -> None:
        self._user = user
        self.dm_channel = _Dm(message)

    async def click(self, message: Any, **kwargs: Any) -> Any:
        return await self._user.click(message, **kwargs)

    async def select(self, message: Any, values: Any, **kwargs: Any) -> Any:
        return await self._user.select(message, values, **kwargs)


class _Dm:
    def __init__(self, message: discord.Message) -> None:
        self.last_message = message
