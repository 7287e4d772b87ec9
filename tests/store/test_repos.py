"""Repository contract tests, against a real SQLite file and a real PostgreSQL database."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.store import (
    ActionRepo,
    AISeat,
    ChannelBusy,
    Database,
    DeadlineRepo,
    GuildSettingsRepo,
    HandMessageRepo,
    HumanSeat,
    IntegrityError,
    InvalidTransition,
    LeaseNotHeld,
    NewAction,
    PlayerResult,
    ResultRepo,
    Snapshot,
    SnapshotRepo,
    TableNotActive,
    TableNotFound,
    TableRepo,
    TableRow,
    TransactionRequired,
    VersionConflict,
)
from bot.store.rows import Deadline

from .conftest import FakeClock

GUILD_A, GUILD_B = 1001, 1002


async def new_table(db: Database, channel_id: int = 10, guild_id: int = GUILD_A) -> TableRow:
    return await TableRepo(db).create_lobby(
        guild_id=guild_id,
        channel_id=channel_id,
        creator_id=42,
        game_id="ruff_and_honours",
        preset="cotton",
        seed=1234,
        seats=[HumanSeat(42, "Ann"), None, AISeat("hard", "Bot"), None],
        overrides={"target": 9},
        settings={"turn_timeout": 90},
    )


async def active_table(db: Database, channel_id: int = 10) -> TableRow:
    table = await new_table(db, channel_id)
    await TableRepo(db).set_status(table.id, "active", table.version, first_dealer=3)
    return await TableRepo(db).require(table.id)


# -- tables ---------------------------------------------------------------------------


async def test_create_lobby_round_trips(db: Database, clock: FakeClock) -> None:
    table = await new_table(db)
    assert table.status == "lobby"
    assert table.version == 0
    assert table.message_id is None
    assert table.first_dealer is None
    assert table.seats == (HumanSeat(42, "Ann"), None, AISeat("hard", "Bot"), None)
    assert table.overrides == {"target": 9}
    assert table.settings == {"turn_timeout": 90}
    assert table.created_at == table.updated_at == clock.now
    assert await TableRepo(db).get(table.id) == table
    assert await TableRepo(db).get(table.id + 1) is None

    raw = await db.fetchval("SELECT seats FROM tables WHERE id = ?", (table.id,))
    assert raw == ('[{"name":"Ann","user_id":42},null,{"ai":"hard","name":"Bot"},null]')


async def test_one_open_table_per_channel(db: Database) -> None:
    tables = TableRepo(db)
    first = await new_table(db, channel_id=10)
    with pytest.raises(ChannelBusy):
        await new_table(db, channel_id=10)
    # Another channel is free.
    other = await new_table(db, channel_id=11)
    assert await tables.get_open_by_channel(11) == other

    # The index holds at the SQL level too, not only in the repository.
    with pytest.raises(IntegrityError) as err:
        await db.execute(
            "INSERT INTO tables (guild_id, channel_id, creator_id, game_id, preset, seed,"
            " status, seats, created_at, updated_at)"
            " VALUES (1, 10, 1, 'g', 'p', 0, 'active', '[null,null,null,null]', 0, 0)"
        )
    assert (err.value.kind, err.value.columns) == ("unique", ("channel_id",))

    # Once the first table is over, the channel takes a new one.
    await tables.set_status(first.id, "cancelled")
    assert await tables.get_open_by_channel(10) is None
    again = await new_table(db, channel_id=10)
    assert await tables.get_open_by_channel(10) == again
    assert {t.id for t in await tables.list_unfinished()} == {other.id, again.id}


async def test_status_life_cycle(db: Database) -> None:
    tables = TableRepo(db)
    table = await new_table(db)
    v = await tables.set_status(table.id, "active", 0, first_dealer=2)
    assert v == 1
    started = await tables.require(table.id)
    assert (started.status, started.first_dealer, started.version) == ("active", 2, 1)

    with pytest.raises(InvalidTransition):
        await tables.set_status(table.id, "lobby")
    await tables.set_status(table.id, "finished", 1)
    for target in ("active", "cancelled", "lobby"):
        with pytest.raises(InvalidTransition):
            await tables.set_status(table.id, target)  # type: ignore[arg-type]
    assert (await tables.require(table.id)).status == "finished"
    assert await tables.list_unfinished() == []


async def test_seat_update_is_version_checked(db: Database, clock: FakeClock) -> None:
    tables = TableRepo(db)
    table = await new_table(db)
    seats = [HumanSeat(42, "Ann"), HumanSeat(7, "Bob"), AISeat("hard", "Bot"), None]
    clock.tick(5)
    assert await tables.update_seats(table.id, seats, expected_version=0) == 1
    with pytest.raises(VersionConflict) as err:
        await tables.update_seats(table.id, [None] * 4, expected_version=0)
    assert (err.value.expected, err.value.actual) == (0, 1)

    stored = await tables.require(table.id)
    assert stored.seats == tuple(seats)
    assert stored.version == 1
    assert stored.updated_at == clock.now > stored.created_at

    with pytest.raises(ValueError):
        await tables.update_seats(table.id, [None] * 5)


async def test_set_message_and_bump(db: Database) -> None:
    tables = TableRepo(db)
    table = await new_table(db)
    await tables.set_message(table.id, 555)
    assert (await tables.require(table.id)).message_id == 555
    assert (await tables.require(table.id)).version == 0  # not a game change
    assert await tables.bump_version(table.id) == 1
    assert await tables.bump_version(table.id, expected_version=1) == 2
    with pytest.raises(VersionConflict):
        await tables.bump_version(table.id, expected_version=1)


# -- actions ----------------------------------------------------------------------------


async def test_append_assigns_seq_and_bumps_version(db: Database) -> None:
    actions = ActionRepo(db)
    table = await active_table(db)
    v = await actions.append(table.id, table.version, [NewAction(0, "play:10H", 42)])
    assert v == table.version + 1
    v = await actions.append(table.id, v, [NewAction(1, "play:QH"), NewAction(2, "play:2H", None)])
    assert v == table.version + 3
    log = await actions.list(table.id)
    assert [(a.seq, a.seat, a.action, a.actor_id) for a in log] == [
        (0, 0, "play:10H", 42),
        (1, 1, "play:QH", None),
        (2, 2, "play:2H", None),
    ]
    assert (await TableRepo(db).require(table.id)).version == v
    assert await actions.count(table.id) == 3


async def test_append_with_stale_version_writes_nothing(db: Database) -> None:
    actions = ActionRepo(db)
    table = await active_table(db)
    v = await actions.append(table.id, table.version, [NewAction(0, "play:10H", 42)])

    with pytest.raises(VersionConflict) as err:
        await actions.append(table.id, table.version, [NewAction(1, "play:QH", 7)])
    assert (err.value.table_id, err.value.expected, err.value.actual) == (
        table.id,
        table.version,
        v,
    )
    assert [a.action for a in await actions.list(table.id)] == ["play:10H"]
    assert (await TableRepo(db).require(table.id)).version == v


async def test_append_only_to_active_tables(db: Database) -> None:
    actions = ActionRepo(db)
    lobby = await new_table(db)
    with pytest.raises(TableNotActive):
        await actions.append(lobby.id, lobby.version, [NewAction(0, "play:10H")])
    assert await actions.list(lobby.id) == []
    with pytest.raises(ValueError):
        await actions.append(lobby.id, lobby.version, [])


async def test_append_joins_caller_transaction(db: Database) -> None:
    """Last move + status + results commit together, or not at all."""
    actions, tables, results = ActionRepo(db), TableRepo(db), ResultRepo(db)
    table = await active_table(db)
    with pytest.raises(IntegrityError):
        async with db.transaction():
            v = await actions.append(table.id, table.version, [NewAction(3, "play:AS", 42)])
            await tables.set_status(table.id, "finished", v)
            # Same user twice in one game violates the primary key: all rolls back.
            row = PlayerResult(42, "Ann", 0, True, 9, 4)
            await results.record_game(table.id, GUILD_A, [row, row])
    after = await tables.require(table.id)
    assert (after.status, after.version) == ("active", table.version)
    assert await actions.list(table.id) == []
    assert await results.for_table(table.id) == []


async def test_foreign_keys_are_enforced(db: Database) -> None:
    with pytest.raises(IntegrityError) as err:
        await db.execute("INSERT INTO actions VALUES (999, 0, 0, 'play:2C', NULL, 0)")
    assert err.value.kind == "foreign_key"
    if db.dialect == "sqlite":
        # still the sqlite3 error it always was, with the same message
        assert isinstance(err.value, sqlite3.IntegrityError)
        assert "FOREIGN KEY" in str(err.value)


async def test_check_constraints_hold_in_both_dialects(db: Database) -> None:
    table = await new_table(db)
    for column, value in [("seats", "[null]"), ("seats", "not json"), ("overrides", "[]")]:
        with pytest.raises(IntegrityError) as err:
            await db.execute(f"UPDATE tables SET {column} = ? WHERE id = ?", (value, table.id))
        assert err.value.kind == "check", (column, value)
    assert await TableRepo(db).require(table.id) == table


# -- the per-table lock: what several processes sharing one database rely on -------------


async def test_lock_returns_the_row_and_needs_a_transaction(db: Database) -> None:
    tables = TableRepo(db)
    table = await new_table(db)
    with pytest.raises(TransactionRequired):
        await tables.lock(table.id)
    async with db.transaction():
        assert await tables.lock(table.id) == table
        with pytest.raises(TableNotFound):
            await tables.lock(table.id + 100)


async def test_a_locked_table_makes_another_connection_wait_then_conflict(
    db: Database, location: str, clock: FakeClock
) -> None:
    """Two connections (as two processes would have): the second writer of a table
    waits for the first one's transaction, then sees its version and writes nothing."""
    table = await active_table(db)
    other = await Database.open(location, clock=clock)
    try:
        locked = asyncio.Event()
        release = asyncio.Event()

        async def first() -> int:
            async with db.transaction():
                row = await TableRepo(db).lock(table.id)
                locked.set()
                await release.wait()
                return await ActionRepo(db).append(
                    table.id, row.version, [NewAction(0, "play:10H", 42)]
                )

        async def second() -> int:
            await locked.wait()
            return await ActionRepo(other).append(
                table.id, table.version, [NewAction(0, "play:2C", 7)]
            )

        a = asyncio.create_task(first())
        b = asyncio.create_task(second())
        await locked.wait()
        await asyncio.sleep(0.3)
        assert not b.done(), "the second writer went ahead of the lock"
        release.set()
        assert await a == table.version + 1
        with pytest.raises(VersionConflict) as err:
            await b
        assert (err.value.expected, err.value.actual) == (table.version, table.version + 1)
        assert [x.action for x in await ActionRepo(other).list(table.id)] == ["play:10H"]
    finally:
        await other.close()


async def test_racing_lobbies_in_one_channel_from_two_connections(
    db: Database, location: str, clock: FakeClock
) -> None:
    other = await Database.open(location, clock=clock)
    try:
        outcomes = await asyncio.gather(
            new_table(db, channel_id=77), new_table(other, channel_id=77), return_exceptions=True
        )
        assert sorted(type(o).__name__ for o in outcomes) == ["ChannelBusy", "TableRow"]
        assert len(await TableRepo(db).list_unfinished()) == 1
    finally:
        await other.close()


# -- hand messages and deadlines ---------------------------------------------------------


async def test_hand_messages_upsert(db: Database) -> None:
    repo = HandMessageRepo(db)
    table = await active_table(db)
    await repo.set(table.id, 0, channel_id=900, message_id=1)
    await repo.set(table.id, 2, channel_id=902, message_id=2)
    await repo.set(table.id, 0, channel_id=900, message_id=3)  # re-sent hand
    assert [(h.seat, h.message_id) for h in await repo.list(table.id)] == [(0, 3), (2, 2)]
    hand = await repo.get(table.id, 2)
    assert hand is not None and hand.channel_id == 902
    assert await repo.get(table.id, 1) is None
    assert await repo.delete(table.id, 0) == 1
    assert await repo.delete(table.id) == 1
    assert await repo.list(table.id) == []


async def test_deadlines(db: Database) -> None:
    repo = DeadlineRepo(db)
    t1 = await active_table(db, channel_id=10)
    t2 = await new_table(db, channel_id=11)
    await repo.set(t1.id, "turn", due_at=200.0, seat=1)
    await repo.set(t2.id, "lobby", due_at=100.0)
    await repo.set(t1.id, "turn", due_at=300.0, seat=2)  # next turn replaces the timer
    assert [(d.table_id, d.kind, d.seat, d.due_at) for d in await repo.list()] == [
        (t2.id, "lobby", None, 100.0),
        (t1.id, "turn", 2, 300.0),
    ]
    assert [d.table_id for d in await repo.list_due(250.0)] == [t2.id]
    assert await repo.clear(t2.id) is True
    assert await repo.clear(t2.id) is False
    assert await repo.get(t2.id) is None


# -- results and leaderboard -------------------------------------------------------------


async def finished_game(
    db: Database,
    guild_id: int,
    players: list[tuple[int, str, bool]],
    channel_id: int = 10,
) -> int:
    """Record a finished game: each player is (user_id, name, won)."""
    table = await new_table(db, channel_id=channel_id, guild_id=guild_id)
    await TableRepo(db).set_status(table.id, "active")
    await TableRepo(db).set_status(table.id, "finished")
    await ResultRepo(db).record_game(
        table.id,
        guild_id,
        [
            PlayerResult(
                uid,
                name,
                side=0 if won else 1,
                won=won,
                points=9 if won else 5,
                opp_points=5 if won else 9,
            )
            for uid, name, won in players
        ],
    )
    return table.id


async def test_leaderboard_ordering(db: Database, clock: FakeClock) -> None:
    repo = ResultRepo(db)
    # user: (wins, games)  ->  expected order
    # 1: 3/3 (100%)   2: 3/4 (75%)   3: 2/2 (100%)   4: 2/4 (50%)   5: 2/3 (66%)
    # 6: 0/1 and 7: 0/2 -> same wins and win%, more games first (beats the id tie-break)
    record = {1: (3, 3), 2: (3, 4), 3: (2, 2), 4: (2, 4), 5: (2, 3), 6: (0, 1), 7: (0, 2)}
    for uid, (wins, games) in record.items():
        for g in range(games):
            clock.tick()
            await finished_game(db, GUILD_A, [(uid, f"user{uid}", g < wins)])
    board = await repo.leaderboard(GUILD_A, limit=10)
    assert [p.user_id for p in board] == [1, 2, 3, 5, 4, 7, 6]
    assert [p.rank for p in board] == [1, 2, 3, 4, 5, 6, 7]
    top = board[0]
    assert (top.games, top.wins, top.win_pct, top.points) == (3, 3, 100.0, 27)
    assert board[1].win_pct == 75.0
    assert board[1].points == 3 * 9 + 5

    page2 = await repo.leaderboard(GUILD_A, limit=3, offset=3)
    assert [p.user_id for p in page2] == [5, 4, 7]
    assert [p.rank for p in page2] == [4, 5, 6]
    assert await repo.count_players(GUILD_A) == 7

    stats = await repo.player_stats(GUILD_A, 4)
    assert stats is not None
    assert (stats.rank, stats.games, stats.wins, stats.win_pct) == (5, 4, 2, 50.0)
    assert await repo.player_stats(GUILD_A, 999) is None


async def test_leaderboard_is_per_guild(db: Database, clock: FakeClock) -> None:
    repo = ResultRepo(db)
    await finished_game(db, GUILD_A, [(1, "Ann", True), (2, "Bob", False)], channel_id=10)
    clock.tick()
    await finished_game(db, GUILD_B, [(2, "Bob", True), (3, "Cy", True)], channel_id=20)
    clock.tick()
    await finished_game(db, GUILD_B, [(3, "Cy", True)], channel_id=20)

    board_a = await repo.leaderboard(GUILD_A)
    board_b = await repo.leaderboard(GUILD_B)
    assert [(p.user_id, p.games, p.wins) for p in board_a] == [(1, 1, 1), (2, 1, 0)]
    assert [(p.user_id, p.games, p.wins) for p in board_b] == [(3, 2, 2), (2, 1, 1)]
    assert 1 not in {p.user_id for p in board_b}
    assert 3 not in {p.user_id for p in board_a}
    assert await repo.count_players(GUILD_A) == 2
    assert await repo.count_players(GUILD_B) == 2
    assert await repo.player_stats(GUILD_B, 1) is None
    bob_b = await repo.player_stats(GUILD_B, 2)
    assert bob_b is not None and (bob_b.games, bob_b.wins) == (1, 1)
    assert await repo.leaderboard(9999) == []


async def test_leaderboard_shows_latest_name(db: Database, clock: FakeClock) -> None:
    await finished_game(db, GUILD_A, [(1, "Old Name", True)])
    clock.tick()
    await finished_game(db, GUILD_A, [(1, "New Name", False)])
    clock.tick()
    (only,) = await ResultRepo(db).leaderboard(GUILD_A)
    assert (only.name, only.games, only.wins) == ("New Name", 2, 1)


async def test_record_game_round_trips(db: Database, clock: FakeClock) -> None:
    table_id = await finished_game(db, GUILD_A, [(1, "Ann", True), (2, "Bob", False)])
    rows = await ResultRepo(db).for_table(table_id)
    assert [(r.user_id, r.side, r.won, r.points, r.opp_points) for r in rows] == [
        (1, 0, True, 9, 5),
        (2, 1, False, 5, 9),
    ]
    assert all(r.finished_at == clock.now and r.guild_id == GUILD_A for r in rows)
    if db.dialect == "sqlite":
        assert await db.fetchval("PRAGMA integrity_check") == "ok"


async def test_last_table_is_the_latest_finished_game_of_the_player_in_the_guild(
    db: Database, clock: FakeClock
) -> None:
    repo = ResultRepo(db)
    first = await finished_game(db, GUILD_A, [(1, "Ann", True), (2, "Bob", False)], channel_id=10)
    clock.tick()
    elsewhere = await finished_game(db, GUILD_B, [(1, "Ann", False)], channel_id=20)
    clock.tick()
    second = await finished_game(db, GUILD_A, [(2, "Bob", True)], channel_id=11)
    assert await repo.last_table(GUILD_A, 1) == first  # Ann's later game was in another guild
    assert await repo.last_table(GUILD_B, 1) == elsewhere
    assert await repo.last_table(GUILD_A, 2) == second
    assert await repo.last_table(GUILD_A, 3) is None


async def test_guild_settings_start_empty_merge_and_reset(db: Database) -> None:
    settings = GuildSettingsRepo(db)
    assert await settings.get(42) == {}
    assert await settings.update(42, {"pictures": False}) == {"pictures": False}
    assert await settings.update(42, {"language": "de"}) == {"pictures": False, "language": "de"}
    assert await settings.get(43) == {}, "one server's settings are its own"
    assert await settings.update(42, {"pictures": None}) == {"language": "de"}, (
        "None = back to the default"
    )
    assert await settings.get(42) == {"language": "de"}


# -- snapshots ------------------------------------------------------------------------


async def test_snapshots_are_kept_one_per_table_and_go_with_it(db: Database) -> None:
    repo = SnapshotRepo(db)
    a = await active_table(db, channel_id=10)
    b = await active_table(db, channel_id=11)
    lobby = await new_table(db, channel_id=12)
    assert await repo.get(a.id) is None and await repo.list_active() == {}
    await repo.put(Snapshot.of(a.id, 8, '{"x": 1}'))
    await repo.put(Snapshot.of(a.id, 16, '{"x": 2}'))  # replaces the older one
    await repo.put(Snapshot.of(b.id, 8, '{"y": 1}'))
    await repo.put(Snapshot.of(lobby.id, 8, "{}"))
    got = await repo.get(a.id)
    assert got == Snapshot.of(a.id, 16, '{"x": 2}') and got.intact
    assert not Snapshot(a.id, 16, '{"x": 3}', got.digest).intact
    assert set(await repo.list_active()) == {a.id, b.id}  # only games in play
    assert set(await repo.get_many([a.id, lobby.id, 999])) == {a.id, lobby.id}
    await repo.delete(a.id)
    assert await repo.get(a.id) is None and set(await repo.list_active()) == {b.id}


async def test_guild_settings_are_read_many_at_once(db: Database) -> None:
    repo = GuildSettingsRepo(db)
    await repo.update(GUILD_A, {"pictures": False})
    assert await repo.get_many([GUILD_A, GUILD_B]) == {GUILD_A: {"pictures": False}, GUILD_B: {}}


async def test_appends_racing_at_one_version_write_one_move(db: Database) -> None:
    actions = ActionRepo(db)
    table = await active_table(db)
    v = await actions.append(table.id, table.version, [NewAction(0, "play:10H", 42)])

    async def move(seat: int) -> int | None:
        try:
            async with db.transaction():
                return await actions.append(
                    table.id, v, [NewAction(seat, "play:QH", seat), NewAction(seat, "play:2H")]
                )
        except VersionConflict:
            return None

    won = await asyncio.gather(*(move(s) for s in range(4)))
    assert sorted(w for w in won if w is not None) == [v + 2]  # exactly one, the others refused
    log = await actions.list(table.id)
    assert [a.seq for a in log] == [0, 1, 2]
    assert {a.seat for a in log[1:]} == {won.index(v + 2)}
    with pytest.raises(TableNotFound):
        await actions.append(table.id + 999, 0, [NewAction(0, "play:10H")])


async def test_a_move_lands_with_its_snapshot_and_deadline_or_not_at_all(db: Database) -> None:
    """The move as one write (one statement on PostgreSQL, outside any transaction):
    of appends racing at one version with their snapshots and turn deadlines, one
    lands whole and the others leave nothing of theirs; the same on both backends."""
    actions, snapshots, deadlines = ActionRepo(db), SnapshotRepo(db), DeadlineRepo(db)
    table = await active_table(db)

    async def move(seat: int) -> int | None:
        try:
            return await actions.append(
                table.id,
                table.version,
                [NewAction(seat, f"play:{seat + 2}H", seat)],
                snapshot=Snapshot.of(table.id, 1, f'{{"by": {seat}}}'),
                deadline=Deadline(table.id, "turn", (seat + 1) % 4, 1000.0 + seat),
            )
        except VersionConflict:
            return None

    won = await asyncio.gather(*(move(s) for s in range(4)))
    assert sorted(w for w in won if w is not None) == [table.version + 1]
    winner = won.index(table.version + 1)
    assert [(a.seq, a.seat) for a in await actions.list(table.id)] == [(0, winner)]
    snap = await snapshots.get(table.id)
    assert snap is not None and snap.intact and (snap.seq, snap.body) == (1, f'{{"by": {winner}}}')
    assert await deadlines.get(table.id) == Deadline(
        table.id, "turn", (winner + 1) % 4, 1000.0 + winner
    )
    assert (await TableRepo(db).require(table.id)).version == table.version + 1

    # a move without a snapshot or deadline leaves the stored ones as they are
    v = await actions.append(table.id, table.version + 1, [NewAction(1, "play:QH", None)])
    assert v == table.version + 2
    assert (await snapshots.get(table.id)) == snap
    assert (await deadlines.get(table.id)) is not None


async def test_a_move_fenced_by_a_lease_lands_only_for_its_holder(db: Database) -> None:
    actions = ActionRepo(db)
    table = await active_table(db)
    with pytest.raises(LeaseNotHeld):  # nobody holds the lease
        await actions.append(table.id, table.version, [NewAction(0, "play:10H")], lease_owner="a")
    await db.execute(
        "INSERT INTO table_leases (table_id, owner, expires_at, claimed_at) VALUES (?, ?, ?, ?)",
        (table.id, "a", 0.0, 0.0),  # run out long ago, but claimed by nobody since: still a's
    )
    with pytest.raises(LeaseNotHeld) as err:
        await actions.append(
            table.id,
            table.version,
            [NewAction(0, "play:10H")],
            lease_owner="b",
            deadline=Deadline(table.id, "turn", 1, 5.0),
        )
    assert err.value.owner == "a"
    assert await actions.list(table.id) == []
    assert await DeadlineRepo(db).get(table.id) is None
    assert (await TableRepo(db).require(table.id)).version == table.version
    v = await actions.append(table.id, table.version, [NewAction(0, "play:10H")], lease_owner="a")
    assert v == table.version + 1 and len(await actions.list(table.id)) == 1
