"""What a table is: its kind (``bot.tables.kinds``), and the one constructor
``commit.open_table`` every table comes from. Real SQLite file, the real engine,
moves through ``act()``; no Discord object."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import Settings
from bot.store import AISeat, Database, HumanSeat, TableRow
from bot.tables import commit, privacy
from bot.tables.act import act
from bot.tables.aipool import AIPool
from bot.tables.kinds import TableKind, TableSpec, kind_of
from bot.tables.services import Services
from bot.tables.sync import OneProcess
from bot.tables.table import Table, TableSettings
from engine import Game, decode_action, make_rules

from .test_act import USERS, Alone


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[Services]:
    settings = Settings(
        database=str(tmp_path / "kinds.db"), turn_timeout=45.0, lobby_timeout=0.0, ai_mode="inline"
    )
    db = await Database.open(settings.database)
    services = Services(db, settings, AIPool(1, mode="inline"))
    services.sync = OneProcess(Alone())  # type: ignore[arg-type]
    yield services
    await db.close()


def spec(kind: TableKind, channel: int = 2, **more: object) -> TableSpec:
    rules = make_rules("whist-5")
    fields: dict[str, object] = {
        "seats": [HumanSeat(u, f"P{u}") for u in USERS[: rules.players]],
        "guild_name": "g",
        "channel_name": "c",
        **more,
    }
    return TableSpec(
        kind=kind,
        rules=rules,
        guild_id=1,
        channel_id=channel,
        creator_id=USERS[0],
        **fields,  # type: ignore[arg-type]
    )


async def play_out(svc: Services, table: Table) -> None:
    """Every seat's moves through act(), chosen at random among the legal ones."""
    rng = random.Random(table.id)
    svc.tables.add(table)
    while table.status == "active":
        game = table.game
        assert game is not None
        seat = game.to_act()
        assert seat is not None
        action = rng.choice(game.legal_actions(seat))
        user = USERS[seat]
        outcome = await act(
            svc, table.id, user, game.version, seat, [decode_action(action.encode())]
        )
        if not outcome.applied:
            raise AssertionError(outcome)


def test_rows_from_before_the_kind_are_read_by_their_flags() -> None:
    assert kind_of({}) is TableKind.ORDINARY
    assert kind_of({"hints": True}) is TableKind.HINTS
    assert kind_of({"board": "whist-5/2026-11-28/1"}) is TableKind.BOARD
    assert kind_of({"kind": "event"}) is TableKind.EVENT
    assert kind_of({"kind": "a-kind-of-a-later-version", "hints": True}) is TableKind.HINTS
    # a hints table keeps the flag the standings' SQL leaves unrated games out by
    hints = TableSettings(kind=TableKind.HINTS).to_json()
    assert hints["hints"] is True and hints["kind"] == "hints"
    assert TableSettings.from_json(hints).kind is TableKind.HINTS
    assert "hints" not in TableSettings.from_json(hints).extra
    assert "kind" not in TableSettings().to_json()  # an ordinary table's JSON as before


def test_what_each_kind_does() -> None:
    ordinary, hints, board, event = (k.rules for k in TableKind)
    assert ordinary.rated and event.rated and not hints.rated and not board.rated
    assert hints.hint_button and not ordinary.hint_button
    assert board.board_result and not board.timers and not board.thread
    assert ordinary.lobby and hints.lobby and not board.lobby and not event.lobby


async def test_an_ordinary_table_opens_as_a_lobby_and_a_rematch_starts(svc: Services) -> None:
    rules = make_rules("whist-5")
    lobby = await commit.open_table(
        svc, spec(TableKind.ORDINARY, seats=[HumanSeat(USERS[0], "P")] + [None] * 3)
    )
    assert lobby.status == "lobby" and lobby.game is None
    assert lobby.settings.turn_timeout == 45.0  # the bot's default, stored
    await commit.mark_cancelled(svc, lobby)
    full = await commit.open_table(svc, spec(TableKind.HINTS))
    assert full.status == "lobby"  # a lobby kind waits for its start, seats full or not
    await commit.mark_cancelled(svc, full)
    table = await commit.open_table(svc, spec(TableKind.HINTS, start=True))
    assert table.status == "active" and table.kind is TableKind.HINTS
    await play_out(svc, table)
    row = await svc.table_repo.get(table.id)
    assert row is not None and row.status == "finished"
    again = await commit.open_table(svc, commit.rematch_spec(row, USERS[1]))
    assert again.status == "active" and again.kind is TableKind.HINTS
    assert again.seats == table.seats and again.rules == rules and again.creator_id == USERS[1]


async def test_a_hints_table_is_not_rated_an_ordinary_one_is(svc: Services) -> None:
    plain = await commit.open_table(svc, spec(TableKind.ORDINARY, start=True))
    await play_out(svc, plain)
    hints = await commit.open_table(svc, spec(TableKind.HINTS, channel=3, start=True))
    await play_out(svc, hints)
    assert await svc.rating_repo.event(plain.id) is not None
    assert await svc.rating_repo.event(hints.id) is None
    assert len(await svc.result_repo.for_table(hints.id)) == 4  # its result is still kept


async def test_an_event_table_writes_its_own_end_with_the_last_move(svc: Services) -> None:
    ended: list[tuple[int, bool]] = []

    async def end(table: Table, game: Game) -> None:
        ended.append((table.id, game.is_over))

    svc.ends[TableKind.EVENT] = end
    table = await commit.open_table(svc, spec(TableKind.EVENT))
    assert table.status == "active"  # an event's table starts seated
    await play_out(svc, table)
    assert ended == [(table.id, True)]
    assert await svc.rating_repo.event(table.id) is not None  # rated
    assert len(await svc.result_repo.for_table(table.id)) == 4


async def test_an_event_end_that_fails_leaves_the_game_unfinished(svc: Services) -> None:
    async def end(table: Table, game: Game) -> None:
        raise RuntimeError("the round could not be written")

    svc.ends[TableKind.EVENT] = end
    table = await commit.open_table(svc, spec(TableKind.EVENT))
    with pytest.raises(RuntimeError):
        await play_out(svc, table)
    row = await svc.table_repo.get(table.id)
    assert row is not None and row.status == "active"  # one transaction: no half end
    assert await svc.result_repo.for_table(table.id) == []
    assert await svc.rating_repo.event(table.id) is None


async def test_a_board_starts_at_once_without_timer_or_thread(svc: Services) -> None:
    rules = make_rules("whist-5")
    seats = [HumanSeat(USERS[0], "P")] + [AISeat("fixed", f"AI{i}") for i in range(3)]
    kept: list[int] = []

    async def then(table_id: int) -> None:
        kept.append(table_id)

    table = await commit.open_table(
        svc,
        TableSpec(
            kind=TableKind.BOARD,
            rules=rules,
            guild_id=1,
            channel_id=9,
            creator_id=USERS[0],
            seats=seats,
            guild_name="Board 1 of 3",
            seed=7,
            first_dealer=2,
            board="whist-5/2026-11-28/1",
            then=then,
        ),
    )
    assert kept == [table.id] and table.status == "active" and table.first_dealer == 2
    assert table.settings.turn_timeout == 0.0 and table.settings.thread_id == 0
    assert commit.turn_timeout(svc, table) == 0.0
    row = await svc.table_repo.get(table.id)
    assert isinstance(row, TableRow) and row.settings["board"] == "whist-5/2026-11-28/1"
    assert privacy.is_board(row) and not privacy.deal_visible_to(row, USERS[1])


async def test_a_failing_then_opens_nothing(svc: Services) -> None:
    async def then(table_id: int) -> None:
        raise RuntimeError("the board's row could not be written")

    with pytest.raises(RuntimeError):
        await commit.open_table(svc, spec(TableKind.EVENT, then=then))
    assert await svc.table_repo.get_open_by_channel(2) is None
