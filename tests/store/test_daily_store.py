"""``DailyRepo`` on both backends: a board started once per player, its result
written once, the par kept once, the queries the standings read."""

from __future__ import annotations

import asyncio
import itertools
from fractions import Fraction

import pytest

from bot.competition.duplicate import matchpoints, percentile, standings
from bot.store import ChallengeRepo, DailyRepo, Database, HumanSeat, IntegrityError, TableRepo

from .conftest import FakeClock

_CHANNELS = itertools.count(10_000)


async def _table(db: Database, user: int) -> int:
    row = await TableRepo(db).create_lobby(
        guild_id=1,
        channel_id=next(_CHANNELS),  # a DM
        creator_id=user,
        game_id="whist-5",
        preset="default",
        seed=7,
        seats=[HumanSeat(user, f"p{user}"), None, None, None],
    )
    return row.id


async def _start(
    db: Database, user: int, board: str = "whist-5/default/2026-11-28/1", guild: int = 1
) -> int:
    table_id = await _table(db, user)
    await DailyRepo(db).start(
        board=board,
        user_id=user,
        game_id="whist-5",
        series="2026-11-28",
        number=int(board.rsplit("/", 1)[1]),
        guild_id=guild,
        channel_id=5,
        name=f"p{user}",
        table_id=table_id,
    )
    return table_id


async def test_a_board_is_started_once_and_its_result_written_once(
    db: Database, clock: FakeClock
) -> None:
    repo = DailyRepo(db)
    table_id = await _start(db, 1)
    with pytest.raises(IntegrityError):
        await _start(db, 1)  # the same board again: refused
    entry = await repo.of_table(table_id)
    assert entry is not None and entry.result is None and not entry.finished
    clock.tick()
    assert await repo.finish(table_id, 3)
    assert not await repo.finish(table_id, -5)  # a second write changes nothing
    entry = await repo.of_table(table_id)
    assert entry is not None and entry.result == 3 and entry.finished_at == clock.now
    assert [e.number for e in await repo.of_player(1, "whist-5", "2026-11-28")] == [1]


async def test_concurrent_finishes_write_one_result(db: Database) -> None:
    repo = DailyRepo(db)
    table_id = await _start(db, 1)
    written = await asyncio.gather(*(repo.finish(table_id, r) for r in (1, 2, 3, 4)))
    assert sum(written) == 1
    entry = await repo.of_table(table_id)
    assert entry is not None and entry.result in (1, 2, 3, 4)


async def test_par_is_kept_once(db: Database) -> None:
    repo = DailyRepo(db)
    await repo.set_par("b/1", 2)
    await repo.set_par("b/1", 5)
    assert await repo.par(["b/1", "b/2"]) == {"b/1": 2}


async def test_standings_read_from_the_store(db: Database) -> None:
    repo = DailyRepo(db)
    results = {1: 3, 2: 1, 3: 1, 4: -2}
    for user, result in results.items():
        table_id = await _start(db, user, guild=1 if user < 4 else 2)
        await repo.finish(table_id, result)
    await _start(db, 5)  # still playing: in nobody's field
    board = "whist-5/default/2026-11-28/1"
    await repo.set_par(board, 1)
    entries = await repo.of_series("whist-5", ["2026-11-28"])
    assert len(entries) == 5 and entries == await repo.of_board(board)
    points = matchpoints(entries, await repo.par([board]))
    # user 2 against 3, 1, -2 and the par 1: one win, two ties -> 2 of 4 = 50%
    assert points[(board, 2)] == Fraction(50)
    assert points[(board, 1)] == Fraction(100) and points[(board, 4)] == Fraction(0)
    server = standings(entries, points, 1)
    assert [(s.rank, s.user_id) for s in server] == [(1, 1), (2, 2), (2, 3)]
    everyone = {s.user_id: s.score for s in standings(entries, points)}
    assert percentile(everyone, 2) == Fraction(50)  # beats 4, ties 3, loses to 1


async def test_a_challenge_is_settled_once_and_the_ai_fills_boards_never_started(
    db: Database, clock: FakeClock
) -> None:
    repo = ChallengeRepo(db)
    made = await repo.create(
        game_id="whist-5",
        preset="default",
        boards=2,
        guild_id=1,
        channel_id=5,
        challenger=(1, "Ann"),
        opponent=(2, "Bob"),
        deadline_at=clock.now + 100,
    )
    assert made.series == f"challenge-{made.id}" and made.players == ((1, "Ann"), (2, "Bob"))
    assert [c.id for c in await repo.open_of(2)] == [made.id]
    assert await repo.due(clock.now) == []
    clock.tick(101)
    assert [c.id for c in await repo.due(clock.now)] == [made.id]
    daily = DailyRepo(db)
    key = f"whist-5/default/{made.series}/1"
    args = {"board": key, "user_id": 2, "game_id": "whist-5", "series": made.series, "number": 1}
    assert await daily.by_ai(**args, guild_id=1, name="Bob", result=3)
    assert not await daily.by_ai(**args, guild_id=1, name="Bob", result=-3)  # once
    (entry,) = await daily.of_board(key)
    assert entry.by_ai and entry.result == 3 and entry.table_id is None
    assert await repo.settle(made.id) and not await repo.settle(made.id)
    assert await repo.open_of(2) == [] and await repo.due(clock.now) == []
    assert await daily.of_game("whist-5") == []  # a challenge's boards are not the days'


async def test_a_board_is_posted_once_and_a_challenge_rematched_once(
    db: Database, clock: FakeClock
) -> None:
    """The marks a restart or a second process must see: two racing shares of a
    finished board, one wins; a post that failed may be tried again; two rematches of
    one challenge, one is made."""
    repo = DailyRepo(db)
    table_id = await _start(db, 1)
    assert not await repo.share(table_id)  # still being played: nothing to post
    await repo.finish(table_id, 3)
    first, second = await asyncio.gather(repo.share(table_id), repo.share(table_id))
    assert sorted([first, second]) == [False, True]
    entry = await repo.of_table(table_id)
    assert entry is not None and entry.shared_at == clock()
    await repo.unshare(table_id)  # the post failed
    assert await repo.share(table_id) and not await repo.share(table_id)

    challenges = ChallengeRepo(db)

    async def make(rematch_of: int | None) -> int:
        made = await challenges.create(
            game_id="whist-5",
            preset="default",
            boards=2,
            guild_id=1,
            channel_id=5,
            challenger=(1, "p1"),
            opponent=(2, "p2"),
            deadline_at=clock() + 60,
            rematch_of=rematch_of,
        )
        return made.id

    old = await make(None)
    assert await challenges.rematch_of(old) is None
    outcomes = await asyncio.gather(make(old), make(old), return_exceptions=True)
    made = [o for o in outcomes if isinstance(o, int)]
    assert len(made) == 1 and sum(isinstance(o, IntegrityError) for o in outcomes) == 1
    rematch = await challenges.rematch_of(old)
    assert rematch is not None and rematch.id == made[0] and rematch.rematch_of == old
    assert (await challenges.get(old)) is not None and (
        await challenges.get(old)
    ).rematch_of is None  # type: ignore[union-attr]
