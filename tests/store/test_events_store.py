"""``EventRepo`` on both backends: an event's registrations, rounds, tables and
boards; everything that must happen once happens once."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from bot.store import Database, EventRepo, HumanSeat, IntegrityError, TableRepo

from .conftest import FakeClock

_CHANNELS = itertools.count(20_000)


async def _event(repo: EventRepo) -> int:
    event = await repo.create(
        guild_id=1,
        channel_id=2,
        creator_id=3,
        game_id="whist-5",
        preset="default",
        format="individual",
        boards_per_round=2,
        rounds=3,
        minutes_per_board=7.5,
        start_at=1_700_000_600.0,
        seed=42,
    )
    assert event.state == "registering" and event.round == 0
    assert list(event.boards_of(2)) == [3, 4]
    return event.id


async def _table(db: Database) -> int:
    row = await TableRepo(db).create_lobby(
        guild_id=1,
        channel_id=next(_CHANNELS),
        creator_id=3,
        game_id="whist-5",
        preset="default",
        seed=7,
        seats=[HumanSeat(3, "c"), None, None, None],
    )
    return row.id


async def test_registration_is_once_per_player_and_a_leave_frees_a_partner(db: Database) -> None:
    repo = EventRepo(db)
    event_id = await _event(repo)
    assert await repo.register(event_id, 10, "ann", 1, False)
    assert not await repo.register(event_id, 10, "ann", 1, False)  # a double join: nothing
    assert await repo.register(event_id, 11, "bob", 1, False)
    assert await repo.choose_partner(event_id, 10, 11)
    assert await repo.choose_partner(event_id, 11, 10)
    assert await repo.check_in(event_id, 10, 1)
    assert not await repo.check_in(event_id, 10, 2)  # the first check-in stays
    assert await repo.unregister(event_id, 11)
    entries = await repo.entries(event_id)
    assert [(e.user_id, e.partner_id, e.checked_in) for e in entries] == [(10, None, True)]
    assert await repo.register(event_id, 12, "cat", 3, True)  # a late joiner
    late = await repo.entry(event_id, 12)
    assert late is not None and not late.plays(2) and late.plays(3)
    assert await repo.leave(event_id, 10, 3)
    ann = await repo.entry(event_id, 10)
    assert ann is not None and ann.plays(2) and not ann.plays(3)
    assert [e.id for e in await repo.of_guild(1, open_only=True)] == [event_id]
    # a table's players only (an empty seat is None), in registration order
    some = await repo.entries(event_id, (12, None, 10, 99))
    assert [(e.user_id, e.name) for e in some] == [(10, "ann"), (12, "cat")]
    assert await repo.entries(event_id, (None, 99)) == []


async def test_a_round_begins_once_with_its_tables_and_boards(
    db: Database, clock: FakeClock
) -> None:
    repo = EventRepo(db)
    event_id = await _event(repo)
    seats = [((10, 11, 12, None), frozenset({2})), ((13, 14, 15, 16), frozenset())]
    begun = await asyncio.gather(
        repo.start_round(event_id, 1, seats, [1, 2]), repo.start_round(event_id, 1, seats, [1, 2])
    )
    assert sorted(begun) == [False, True]
    event = await repo.get(event_id)
    assert event is not None and event.state == "running" and event.round == 1
    tables = await repo.tables(event_id, 1)
    assert [(t.number, t.seats, t.ai_for) for t in tables] == [
        (1, (10, 11, 12, None), frozenset({2})),
        (2, (13, 14, 15, 16), frozenset()),
    ]
    await repo.take_back(event_id, 1, 1, 2)
    await repo.set_thread(event_id, 1, 1, 555)
    table = (await repo.tables(event_id, 1))[0]
    assert table.ai_for == frozenset() and table.thread_id == 555
    # a leaver's seat is the AI's for the round's boards to come, once
    assert await repo.stand_in(event_id, 1, 2, 3)
    assert not await repo.stand_in(event_id, 1, 2, 3)
    assert not await repo.stand_in(event_id, 1, 9, 0)  # no such table
    assert (await repo.tables(event_id, 1))[1].ai_for == frozenset({3})
    await repo.take_back(event_id, 1, 2, 3)
    assert (await repo.tables(event_id, 1))[1].ai_for == frozenset()
    boards = await repo.boards(event_id, 1)
    assert [(b.table_no, b.board, b.done) for b in boards] == [
        (1, 1, False),
        (1, 2, False),
        (2, 1, False),
        (2, 2, False),
    ]
    # one table of the round, as a table moving on reads it
    assert await repo.table(event_id, 1, 2) == (await repo.tables(event_id, 1))[1]
    assert await repo.table(event_id, 1, 9) is None
    assert await repo.table(event_id, 2, 1) is None
    # one table's boards of the round, as a table moving on reads them
    assert [(b.table_no, b.board) for b in await repo.boards(event_id, 1, 2)] == [(2, 1), (2, 2)]
    assert await repo.boards(event_id, 1, 9) == []
    # a board is dealt once, its result written once
    table_id = await _table(db)
    async with db.transaction():
        await repo.set_board_table(event_id, 1, 1, 1, table_id)
    with pytest.raises(IntegrityError):
        async with db.transaction():
            await repo.set_board_table(event_id, 1, 1, 1, await _table(db))
    clock.tick(30)
    assert await repo.finish_board(table_id, 7, frozenset({2}))
    assert not await repo.finish_board(table_id, -7)
    await repo.set_substituted(table_id, frozenset({0, 2}))
    done = await repo.board_of_table(table_id)
    assert done is not None and done.ns_result == 7 and done.substituted == frozenset({0, 2})
    assert done.finished_at == clock.now
    # a board not dealt may be skipped, once; a dealt one never
    assert not await repo.skip_board(event_id, 1, 1, 1, 1.0, 2.0)
    assert await repo.skip_board(event_id, 1, 1, 2, 10.0, 20.0)
    assert not await repo.skip_board(event_id, 1, 1, 2, 10.0, 20.0)
    skipped = [b for b in await repo.boards(event_id, 1) if b.skipped]
    assert [(b.board, b.ns_result, b.ns_thinking, b.ew_thinking) for b in skipped] == [
        (2, None, 10.0, 20.0)
    ]
    # the round is done once every board is (played, skipped or voided), and not before
    assert not await repo.round_done(event_id, 1)  # table 2's boards are still to play
    assert await repo.skip_board(event_id, 1, 2, 1, 0.0, 0.0)
    assert not await repo.round_done(event_id, 1)
    voided = await _table(db)
    async with db.transaction():
        await repo.set_board_table(event_id, 1, 2, 2, voided)
    assert not await repo.round_done(event_id, 1)  # dealt, not over
    assert await repo.void_board(voided, 1.0, 1.0)
    assert await repo.round_done(event_id, 1)
    assert not await repo.round_done(event_id, 2)  # a round not begun has no boards
    # the round is scored once; the next begins only after this one
    assert not await repo.start_round(event_id, 3, seats, [5, 6])
    assert (
        sum(await asyncio.gather(repo.score_round(event_id, 1), repo.score_round(event_id, 1))) == 1
    )
    assert await repo.start_round(event_id, 2, seats[:1], [3, 4])
    assert [r.state for r in await repo.rounds(event_id)] == ["scored", "playing"]
    assert await repo.finish(event_id, 2)
    assert not await repo.finish(event_id, 2)
    event = await repo.get(event_id)
    assert event is not None and event.state == "finished"
    assert await repo.unfinished() == []


async def test_a_cancel_is_from_one_state_only(db: Database) -> None:
    repo = EventRepo(db)
    event_id = await _event(repo)
    assert await repo.set_message(event_id, 99)
    assert not await repo.set_message(event_id, 98)  # kept once: a second is not kept
    assert await repo.set_state(event_id, "registering", "cancelled")
    assert not await repo.set_state(event_id, "registering", "running")
    event = await repo.get(event_id)
    assert event is not None and event.state == "cancelled" and event.message_id == 99
