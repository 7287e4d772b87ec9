"""A whole game through ``act()`` and the feed, with no Discord object at all: the
table layer decides, a front-neutral listener hears every move, and every refusal
comes back as an outcome with a reason code.

The players here are a web front's would-be users: they read their seat's JSON
projection, pick an action id from it and send it back with the version.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.store import Database, HumanSeat
from bot.tables import commit
from bot.tables.act import Outcome, Reason, act, outcome_text
from bot.tables.aipool import AIPool
from bot.tables.kinds import TableKind, TableSpec
from bot.tables.services import Services
from bot.tables.sync import OneProcess
from bot.tables.table import Table
from engine import Event, Game, GameOver, decode_action, make_rules

USERS = (101, 102, 103, 104)


class Alone:
    """The sync's way back into the table layer, for a process with no tables to
    resume and no other process: nothing is ever asked of it here."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the sync asked the table layer for {name}")


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[Services]:
    settings = Settings(
        database=str(tmp_path / "act.db"), turn_timeout=0.0, lobby_timeout=0.0, ai_mode="inline"
    )
    db = await Database.open(settings.database)
    services = Services(db, settings, AIPool(1, mode="inline"))
    services.sync = OneProcess(Alone())  # type: ignore[arg-type]
    yield services
    await db.close()


async def seated_table(svc: Services, game_id: str) -> Table:
    rules = make_rules(game_id)
    seats = [HumanSeat(u, f"P{u}") for u in USERS[: rules.players]]
    table = await commit.open_table(
        svc,
        TableSpec(
            kind=TableKind.ORDINARY,
            rules=rules,
            guild_id=1,
            channel_id=2,
            creator_id=seats[0].user_id,
            seats=[seats[0]] + [None] * (rules.players - 1),
            guild_name="g",
            channel_name="c",
        ),
    )
    await commit.start(svc, table, seats)
    svc.tables.add(table)
    return table


def turn_of(table: Table) -> tuple[Game, int]:
    """The game and the seat whose turn it is."""
    game = table.game
    assert game is not None
    seat = game.to_act()
    assert seat is not None
    return game, seat


@pytest.mark.parametrize("game_id", ["whist-5", "ruff-honours-cotton", "bid-whist"])
async def test_a_whole_game_through_act_and_the_feed(svc: Services, game_id: str) -> None:
    table = await seated_table(svc, game_id)
    heard: list[tuple[int, list[Event]]] = []
    stop = svc.feed.watch(table.id, lambda t, events: heard.append((t.version, events)))
    rng = random.Random(game_id)
    applied = 0
    while table.status == "active":
        game, seat = turn_of(table)
        state = table.seat_state(seat)
        assert state["version"] == game.version and state["you"]["my_turn"]
        legal = [a["id"] for a in state["you"]["actions"] if a["kind"] == "legal"]
        action = decode_action(rng.choice(legal))
        outcome = await act(svc, table.id, USERS[seat], state["version"], seat, [action])
        assert outcome.applied and outcome.kind == "applied", outcome
        assert outcome.version == table.version > state["version"]
        applied += 1
        assert len(heard) == applied  # the feed heard each move, once
    stop()
    assert table.status == "finished"
    assert any(isinstance(e, GameOver) for _v, events in heard for e in events)
    assert table.public_state()["status"] == "finished"
    stored = await svc.action_repo.list(table.id)
    assert len(stored) == applied


async def test_refusals_come_back_as_reason_codes(svc: Services) -> None:
    table = await seated_table(svc, "whist-5")
    game, seat = turn_of(table)
    other = (seat + 1) % 4
    version = game.version
    legal = game.legal_actions(seat)
    card = legal[0]

    async def outcome_of(user: int, at: int | None, who: int, actions: list[Any]) -> Outcome:
        return await act(svc, table.id, user, at, who, actions)

    assert (await outcome_of(999, version, seat, [card])).reason is Reason.NOT_SEATED
    assert (await outcome_of(USERS[other], version, seat, [card])).reason is Reason.NOT_YOUR_SEAT
    out_of_turn = await outcome_of(USERS[other], version, other, game.legal_actions(seat)[:1])
    assert out_of_turn.reason is Reason.ILLEGAL and out_of_turn.kind == "refused"
    assert out_of_turn.detail and outcome_text(out_of_turn) == out_of_turn.detail
    assert (await outcome_of(USERS[seat], version, seat, [card])).applied
    again = await outcome_of(USERS[seat], version, seat, [card])
    assert again.reason is Reason.ALREADY_PLAYED and again.kind == "lost_race"
    assert outcome_text(again) == "✋ Already played — only your first click counts."
    stale = await outcome_of(USERS[other], version - 1, other, [card])
    assert stale.kind == "stale"
    assert (await act(svc, 12345, USERS[seat], 1, seat, [card])).reason is Reason.ENDED


async def test_a_version_less_action_is_taken_at_the_version_now(svc: Services) -> None:
    table = await seated_table(svc, "whist-5")
    game, seat = turn_of(table)
    before = game.version
    outcome = await act(svc, table.id, USERS[seat], None, seat, game.legal_actions(seat)[:1])
    assert outcome.applied and outcome.version == before + 1


async def test_a_failing_watcher_leaves_the_move_and_the_others_alone(svc: Services) -> None:
    table = await seated_table(svc, "whist-5")
    heard: list[int] = []

    def broken(t: Table, events: list[Event]) -> None:
        raise RuntimeError("a front that fails")

    svc.feed.watch(table.id, broken)
    stop = svc.feed.watch(table.id, lambda t, events: heard.append(t.version))
    game, seat = turn_of(table)
    assert (
        await act(svc, table.id, USERS[seat], game.version, seat, game.legal_actions(seat)[:1])
    ).applied
    assert heard == [table.version]
    stop()
    assert svc.feed.watched(table.id)  # the broken one still listens
