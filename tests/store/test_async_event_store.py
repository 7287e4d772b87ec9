"""The asynchronous event on both backends: migration 14 widens the format in place
(an event made before it is kept), the director's close happens once at the deadline
(re-armed from the store as at a restart), results stay hidden before it, a board not
finished by then scores 25%, and a board finished after the deadline does not count."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from bot.config import Settings
from bot.store import (
    DailyRepo,
    Database,
    EventRepo,
    EventRow,
    IntegrityError,
    TableRepo,
)
from bot.store.daily import event_series
from bot.store.migrations import MIGRATIONS
from bot.tables.aipool import AIPool
from bot.tables.events import AsyncDirector, Outcome, Step, parse_deadline
from bot.tables.events.quiet import QuietFront
from bot.tables.services import Services
from bot.tables.sync import OneProcess

from .conftest import FakeClock
from .event_process import BareBoards, KeptAsyncFront, cluster_process, spawn

LEASE = 3.0  # seconds: a dead process's tables are taken over this soon (PostgreSQL)


async def _until(what: Callable[[], bool], seconds: float = 5.0) -> None:
    async with asyncio.timeout(seconds):
        while not what():
            await asyncio.sleep(0.01)


def _director(
    db: Database, sweep_every: float | None = None
) -> tuple[AsyncDirector, BareBoards, KeptAsyncFront, Services]:
    settings = Settings(database="unused.db")
    if sweep_every is not None:
        settings = Settings(database="unused.db", event_sweep_every=sweep_every)
    svc = Services(db, settings, AIPool(1, mode="inline"))
    svc.sync = OneProcess(None)  # type: ignore[arg-type]  # no table is resumed here
    boards, front = BareBoards(svc), KeptAsyncFront()
    return AsyncDirector(svc, boards, front), boards, front, svc  # type: ignore[arg-type]


async def test_migration_14_widens_the_format_and_keeps_an_older_event(
    location: str, clock: FakeClock
) -> None:
    old = await Database.open(location, migrations=MIGRATIONS[:13], clock=clock)
    try:
        with pytest.raises(IntegrityError):  # version 13: three formats
            await EventRepo(old).db.execute(
                "INSERT INTO events (guild_id, channel_id, creator_id, game_id, preset, format,"
                " boards_per_round, rounds, minutes_per_board, start_at, state, round, seed,"
                " created_at) VALUES (1, 2, 3, 'whist-5', 'default', 'async', 2, 1, 60, 0,"
                " 'registering', 0, 5, 0)"
            )
        await old.execute(
            "INSERT INTO events (guild_id, channel_id, creator_id, game_id, preset, format,"
            " boards_per_round, rounds, minutes_per_board, start_at, state, round, seed,"
            " created_at) VALUES (1, 2, 3, 'whist-5', 'default', 'pairs', 2, 3, 8, 0,"
            " 'registering', 0, 5, 0)"
        )
        kept_id = int(await old.fetchval("SELECT id FROM events WHERE format = 'pairs'"))
        await old.execute(
            "INSERT INTO event_entries (event_id, user_id, name, checked_in, joined_round,"
            " created_at) VALUES (?, 10, 'ann', 0, 1, 0)",
            (kept_id,),
        )
    finally:
        await old.close()
    db = await Database.open(location, clock=clock)
    try:
        repo = EventRepo(db)
        kept = await repo.get(kept_id)
        assert kept is not None and kept.format == "pairs" and kept.deadline_at is None
        assert [e.name for e in await repo.entries(kept_id)] == ["ann"]  # no cascade lost it
        made = await repo.create(
            guild_id=1,
            channel_id=2,
            creator_id=3,
            game_id="whist-5",
            preset="default",
            format="async",
            boards_per_round=3,
            rounds=1,
            minutes_per_board=60,
            start_at=clock(),
            seed=9,
            deadline_at=clock() + 3600,
        )
        assert made.format == "async" and made.deadline_at == clock() + 3600
        with pytest.raises(IntegrityError) as caught:  # still four formats only
            await db.execute("UPDATE events SET format = 'teams' WHERE id = ?", (made.id,))
        assert caught.value.kind == "check"
    finally:
        await db.close()


async def test_results_hidden_until_the_deadline_closes_it_once(
    db: Database, clock: FakeClock
) -> None:
    director, boards, front, svc = _director(db)
    event = await director.create(
        guild_id=1,
        channel_id=2,
        creator_id=3,
        game_id="whist-5",
        preset=None,
        boards=2,
        start_at=clock() + 600,
        deadline=3600,
    )
    assert event.format == "async" and event.deadline_at == clock() + 600 + 3600
    with pytest.raises(ValueError):
        await director.create(
            guild_id=1,
            channel_id=2,
            creator_id=3,
            game_id="whist-5",
            preset=None,
            boards=2,
            start_at=clock(),
            deadline=60,
        )
    assert await director.join(event.id, 10, "ann") is Outcome.DONE
    assert await director.join(event.id, 10, "ann") is Outcome.ALREADY
    assert (await director.play(event.id, 10, "ann", 1, enter=True)).step is Step.NOT_YET
    clock.tick(600)
    await director.resume()  # as at a restart: the opening is due at once
    await _until(lambda: bool(front.opens))
    assert front.opens == [(10,)]
    assert (await director.play(event.id, 11, "bob", 1, enter=False)).step is Step.NOT_IN
    for user, name in ((10, "ann"), (11, "bob"), (12, "cat"), (13, "dan")):
        dealt = await director.play(event.id, user, name, 1, enter=True)
        assert dealt.step is Step.DEALT and dealt.number == 1
    assert await director.leave(event.id, 13) is Outcome.ALREADY  # begun: stays in
    assert await director.join(event.id, 14, "eve") is Outcome.DONE  # enters, plays none
    tables = {(u, n): t for u, n, t in boards.dealt}
    daily = DailyRepo(db)
    for user, result in ((10, 3), (11, 1), (12, 1)):
        assert await daily.finish(tables[(user, 1)], result)
    for user, name in ((10, "ann"), (11, "bob")):
        dealt = await director.play(event.id, user, name, 1, enter=False)
        assert dealt.step is Step.DEALT and dealt.number == 2
    tables = {(u, n): t for u, n, t in boards.dealt}
    assert await daily.finish(tables[(10, 2)], -2)
    assert (await director.play(event.id, 10, "ann", 1, enter=False)).step is Step.ALL_PLAYED
    before = await director.standings(event.id)
    assert not before.closed and before.travellers == ()
    assert all(line.percent is None and line.label == "" for line in before.lines)
    assert {line.name: line.done for line in before.lines} == {
        "ann": 2,
        "bob": 1,
        "cat": 1,
        "dan": 0,
        "eve": 0,
    }
    assert not await director.close(event.id)  # not yet
    clock.tick(3600)
    assert (await director.play(event.id, 11, "bob", 1, enter=False)).step is Step.CLOSED
    assert await daily.finish(tables[(11, 2)], 5)  # after the deadline: does not count
    await director.resume()  # as at a restart: the close is due at once
    await _until(lambda: bool(front.closes))
    assert len(front.closes) == 1
    assert not await director.close(event.id)  # once
    view = front.closes[0]
    percent = {line.name: line.percent for line in view.lines}
    # board 1: ann +3 beats 2; bob and cat +1 tie, beat nobody else; dan, eve 25%
    # board 2: ann alone (50); bob's came after the deadline: 25%, like cat, dan, eve
    assert percent == {
        "ann": (Fraction(100) + Fraction(50)) / 2,
        "bob": (Fraction(25) + Fraction(25)) / 2,
        "cat": (Fraction(25) + Fraction(25)) / 2,
        "dan": Fraction(25),
        "eve": Fraction(25),
    }
    assert [line.label for line in view.lines][0] == "1"
    assert view.travellers[1].unplayed == 4 and [r.name for r in view.travellers[1].rows] == ["ann"]
    event_row = await EventRepo(db).get(event.id)
    assert event_row is not None and event_row.state == "finished"
    assert event_series(event.id, event.seed).startswith(f"event-{event.id}-")
    assert await director.join(event.id, 15, "fay") is Outcome.NOT_OPEN
    await director.close_timers()
    assert await TableRepo(db).get(tables[(10, 1)]) is not None


def test_a_deadline_is_read_from_hours_and_days() -> None:
    assert parse_deadline("24h") == 24 * 3600
    assert parse_deadline("3d") == 3 * 86400
    assert parse_deadline("1d 12h") == 36 * 3600
    assert parse_deadline("1d12h30m") == 36 * 3600 + 1800
    assert parse_deadline("90 min") == 5400
    assert parse_deadline("36") == 36 * 3600  # a bare number: hours
    assert parse_deadline("1,5d") == 36 * 3600
    for bad in ("", "soon", "24x", "h", "3d tomorrow", "-2h", "1d-2h"):
        assert parse_deadline(bad) is None, bad


async def test_a_cancelled_async_event_stops_and_ranks_nothing(
    db: Database, clock: FakeClock
) -> None:
    director, _boards, front, _svc = _director(db)
    event = await director.create(
        guild_id=1,
        channel_id=2,
        creator_id=3,
        game_id="whist-5",
        preset=None,
        boards=1,
        start_at=clock(),
        deadline=7200,
    )
    assert await director.start(event.id) is Outcome.DONE
    assert await director.start(event.id) is Outcome.NOT_OPEN  # opened once
    assert (await director.play(event.id, 10, "ann", 1, enter=True)).step is Step.DEALT
    assert await director.cancel(event.id) is Outcome.DONE
    assert await director.cancel(event.id) is Outcome.NOT_OPEN
    assert director.armed(event.id) == frozenset()  # its close is disarmed
    assert (await director.play(event.id, 10, "ann", 1, enter=True)).step is Step.CLOSED
    clock.tick(7200)
    assert not await director.close(event.id) and front.closes == []
    row = await EventRepo(db).get(event.id)
    assert row is not None and row.state == "cancelled"


async def _new_async_event(director: AsyncDirector, clock: FakeClock) -> EventRow:
    """A two-board asynchronous event from now for an hour (its start armed)."""
    return await director.create(
        guild_id=1,
        channel_id=2,
        creator_id=3,
        game_id="whist-5",
        preset=None,
        boards=2,
        start_at=clock(),
        deadline=3600,
    )


async def _async_event(director: AsyncDirector, clock: FakeClock) -> EventRow:
    """A two-board asynchronous event open from now for an hour."""
    event = await _new_async_event(director, clock)
    assert await director.start(event.id) is Outcome.DONE
    return event


async def test_the_close_happens_once_in_whichever_process_is_alive(
    location: str, clock: FakeClock
) -> None:
    """Two processes on one store: B was started before A made the event, so only A
    armed its close. A stops before the deadline; B finds the event at its next sweep
    (no restart) and closes it: the results told once, ann's board in play at 25%.
    With both alive, closing at once, exactly one of them closes it."""
    db_a = await Database.open(location, clock=clock)
    db_b = await Database.open(location, clock=clock)
    try:
        a, a_boards, front_a, _ = _director(db_a)
        b, _b_boards, front_b, _ = _director(db_b)
        await b.resume()  # up before the event exists
        assert b.sweeping  # it looks again, regularly
        await a.resume()
        first = await _async_event(a, clock)
        assert (await a.play(first.id, 10, "ann", 1, enter=True)).step is Step.DEALT
        assert (await a.play(first.id, 11, "bob", 1, enter=True)).step is Step.DEALT
        ((_, _, _ann_table), (_, _, bob_table)) = a_boards.dealt
        assert await DailyRepo(db_a).finish(bob_table, 2)
        assert b.armed(first.id) == frozenset()  # B knows nothing of it yet
        await a.close_timers()  # A's process is gone
        clock.tick(3600)
        await b.sweep()
        assert b.armed(first.id) == {"close"}  # found: its close armed here, due at once
        await _until(lambda: bool(front_b.closes))
        assert len(front_b.closes) == 1 and front_a.closes == []
        percent = {line.name: line.percent for line in front_b.closes[0].lines}
        # bob alone on board 1 (50), neither on board 2 (25); ann's board 1 in play: 25
        assert percent == {"bob": Fraction(75, 2), "ann": Fraction(25)}
        row = await EventRepo(db_b).get(first.id)
        assert row is not None and row.state == "finished"
        assert not await b.close(first.id) and not await a.close(first.id)  # once

        # both alive at the deadline, each closing: one claims it, the other does not
        second = await _async_event(b, clock)
        clock.tick(3600)
        closed = await asyncio.gather(a.close(second.id), b.close(second.id))
        assert sorted(closed) == [False, True]
        assert len(front_a.closes) + len(front_b.closes) == 2  # one for each event
        await b.close_timers()
        assert not b.sweeping
    finally:
        await db_a.close()
        await db_b.close()


async def test_the_running_sweep_closes_an_event_whose_maker_stopped(location: str) -> None:
    """The sweep as it runs, not called by the test: B is up (its sweep every 50 ms)
    before A makes an asynchronous event; A stops before the deadline, its close timer
    gone with it. B's own sweep finds the event, arms its close, and at the deadline
    closes it: the results told once, by B. (Real time: the event's deadline is a few
    seconds away, its opening an hour minus that ago.)"""
    db_a = await Database.open(location)
    db_b = await Database.open(location)
    try:
        a, a_boards, front_a, _ = _director(db_a)
        b, _b_boards, front_b, _ = _director(db_b, sweep_every=0.05)
        await b.resume()  # up before the event exists: nothing to arm yet
        event = await a.create(
            guild_id=1,
            channel_id=2,
            creator_id=3,
            game_id="whist-5",
            preset=None,
            boards=2,
            start_at=time.time() - 3600 + 3,  # open, its deadline 3 s away
            deadline=3600,
        )
        assert await a.start(event.id) is Outcome.DONE
        assert (await a.play(event.id, 10, "ann", 1, enter=True)).step is Step.DEALT
        ((_, _, ann_table),) = a_boards.dealt
        assert await DailyRepo(db_a).finish(ann_table, 2)
        await a.close_timers()  # A's process is gone, its close timer with it
        for _ in range(200):  # up to 10 s
            if front_b.closes:
                break
            await asyncio.sleep(0.05)
        assert len(front_b.closes) == 1 and front_a.closes == []
        percent = {line.name: line.percent for line in front_b.closes[0].lines}
        assert percent == {"ann": Fraction(75, 2)}  # board 1 alone (50), board 2 unplayed (25)
        row = await EventRepo(db_b).get(event.id)
        assert row is not None and row.state == "finished"
        await b.close_timers()
    finally:
        await db_a.close()
        await db_b.close()


async def test_a_board_in_play_in_a_process_gone_is_stopped_by_the_one_that_closes(
    location: str, clock: FakeClock
) -> None:
    """A deals ann's and bob's boards and stops before the deadline, ann's board in
    play; B closes the event: ann's board is stopped in the store (cancelled, ann
    told), not left open for A's next start-up to bring back and play after the
    close. Bob's board, finished, is left as it is."""
    db_a = await Database.open(location, clock=clock)
    db_b = await Database.open(location, clock=clock)
    try:
        a, a_boards, front_a, _ = _director(db_a)
        b, _b_boards, front_b, _ = _director(db_b)
        event = await _async_event(a, clock)
        assert (await a.play(event.id, 10, "ann", 1, enter=True)).step is Step.DEALT
        assert (await a.play(event.id, 11, "bob", 1, enter=True)).step is Step.DEALT
        ((_, _, ann_table), (_, _, bob_table)) = a_boards.dealt
        for table_id in (ann_table, bob_table):  # in play (the double deals a lobby)
            await TableRepo(db_a).set_status(table_id, "active")
        assert await DailyRepo(db_a).finish(bob_table, 2)
        await TableRepo(db_a).set_status(bob_table, "finished")
        await a.close_timers()  # A's process is gone
        clock.tick(3600)
        assert await b.close(event.id)
        rows = TableRepo(db_b)
        ann_row, bob_row = await rows.require(ann_table), await rows.require(bob_table)
        assert (ann_row.status, bob_row.status) == ("cancelled", "finished")
        assert front_b.stopped == [ann_table] and front_a.stopped == []
        percent = {line.name: line.percent for line in front_b.closes[0].lines}
        assert percent == {"bob": Fraction(75, 2), "ann": Fraction(25)}  # ann's board: 25
        await b.close_timers()
    finally:
        await db_a.close()
        await db_b.close()


async def test_a_board_taken_over_after_the_close_is_stopped_by_the_process_that_takes_it(
    pg_url: str, clock: FakeClock, tmp_path: Path
) -> None:
    """Two bot processes on PostgreSQL with the cluster's real leases: A (an OS process
    of its own, ``event_process_main.py``) deals ann's board and is killed
    (``SIGKILL``) shortly before the deadline, its lease on the board still held at the
    close: B closes the event and leaves the board to its owner (its sweep too). Once
    the lease runs out B takes the board over and stops it there and then (cancelled,
    ann told), not at its next sweep, rather than leaving it to be played on after the
    close."""
    settings = Settings(database=pg_url, lease_seconds=LEASE)
    b = await cluster_process(pg_url, 1, QuietFront(), settings, clock)
    # A, guild 1's shard: an asynchronous event open for an hour from now, ann's board
    # dealt and in play, A holding its lease as it runs it
    a = await spawn(pg_url, "async-board", LEASE, log=tmp_path / "a.log")
    try:
        front_b = KeptAsyncFront()
        b_async = AsyncDirector(b.svc, BareBoards(b.svc), front_b)  # type: ignore[arg-type]
        event_id, ann_table = a.said["event"], a.said["table"]
        owner = await b.db.fetchval(
            "SELECT owner FROM table_leases WHERE table_id = ?", (ann_table,)
        )
        assert str(owner).startswith("p0#")  # A's lease
        assert (
            await a.kill() == -signal.SIGKILL
        )  # A is gone; its lease runs out LEASE seconds after its last renewal
        clock.now = time.time() + 3600  # the deadline passed (A opened it before now)
        assert await b_async.close(event_id)
        assert (await TableRepo(b.db).require(ann_table)).status == "active"  # left to A
        assert front_b.stopped == []
        await b_async.sweep()  # still A's lease: left alone
        assert (await TableRepo(b.db).require(ann_table)).status == "active"
        for _ in range(400):  # the lease runs out: B takes the board over (no sweep)
            if front_b.stopped:
                break
            await asyncio.sleep(0.05)
        assert b.cluster.adoptions == 1
        assert (await TableRepo(b.db).require(ann_table)).status == "cancelled"
        assert front_b.stopped == [ann_table]  # ann told
        await b_async.sweep()
        assert front_b.stopped == [ann_table]  # once
        await b_async.close_timers()
    finally:
        await a.kill()
        await b.stop()
