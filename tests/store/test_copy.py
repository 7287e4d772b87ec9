"""``python -m bot.store.copy``: a SQLite database copied into PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.competition.ratings import Entrant, Team
from bot.store import (
    ActionRepo,
    AISeat,
    DailyRepo,
    Database,
    DeadlineRepo,
    GuildSettingsRepo,
    HandMessageRepo,
    HumanSeat,
    IntegrityError,
    LessonRepo,
    NewAction,
    PlayerOptionsRepo,
    PlayerResult,
    RatingRepo,
    ResultRepo,
    StoreError,
    TableRepo,
    UserLocaleRepo,
    ratings,
)
from bot.store.copy import TargetNotEmpty, copy_database, run

from .conftest import FakeClock

REPO_ROOT = Path(__file__).resolve().parents[2]
GUILD = 555
BOARD = "whist-5/default/2026-11-28/1"


async def fill(db: Database, clock: FakeClock) -> None:
    """A bot's life in miniature: finished, cancelled, active and lobby tables."""
    tables, actions = TableRepo(db), ActionRepo(db)
    hands, results, deadlines = HandMessageRepo(db), ResultRepo(db), DeadlineRepo(db)
    seats = [HumanSeat(1, "Ann"), AISeat("easy", "Bot"), HumanSeat(2, "Bob"), AISeat("hard", "Cy")]
    for n in range(6):
        clock.tick()
        t = await tables.create_lobby(
            guild_id=GUILD,
            channel_id=100 + n,
            creator_id=1,
            game_id="ruff-honours-cotton",
            preset="cotton1674",
            seed=2**52 + n,
            seats=seats,
            overrides={"target_score": 9} if n % 2 else {},
            settings={"away": [2]} if n == 3 else {},
        )
        await tables.set_message(t.id, 9000 + n)
        if n == 5:
            await deadlines.set(t.id, "lobby", due_at=clock.now + 1800.5)
            continue  # still in the lobby
        v = await tables.set_status(t.id, "active", t.version, first_dealer=n % 4)
        v = await actions.append(
            t.id, v, [NewAction(s, f"play:{s + 2}C", 1 if s == 0 else None) for s in range(4)]
        )
        await hands.set(t.id, 0, channel_id=700, message_id=7000 + n)
        await hands.set(t.id, 2, channel_id=702, message_id=7100 + n)
        if n in (0, 1, 2):
            await tables.set_status(t.id, "finished", v)
            async with db.transaction():
                await results.record_game(
                    t.id,
                    GUILD,
                    [
                        PlayerResult(1, "Ann", 0, n != 1, 9, 4),
                        PlayerResult(2, "Bob", 0, n != 1, 9, 4),
                    ],
                )
                people = (Entrant("1", "Ann", 0), Entrant("2", "Bob", 2))
                machines = (Entrant("ai:easy", "AI easy", 1), Entrant("ai:hard", "AI hard", 3))
                await ratings.record(
                    RatingRepo(db),
                    table_id=t.id,
                    guild_id=GUILD,
                    game_id="ruff-honours-cotton",
                    teams=[Team(int(n == 1), people), Team(int(n != 1), machines)],
                )
        elif n == 3:
            await tables.set_status(t.id, "cancelled", v)
        else:
            await deadlines.set(t.id, "turn", due_at=clock.now + 90.25, seat=2)
    await GuildSettingsRepo(db).update(GUILD, {"pictures": False})
    await UserLocaleRepo(db).set(1001, "de")
    await LessonRepo(db).put(1001, "solo-auction", 4, ("bid:solo", "bid:pass"), False)
    first = int((await db.fetchall("SELECT id FROM tables ORDER BY id"))[0]["id"])
    daily = DailyRepo(db)
    await daily.start(
        board=BOARD,
        user_id=1,
        game_id="whist-5",
        series="2026-11-28",
        number=1,
        guild_id=GUILD,
        channel_id=700,
        name="Ann",
        table_id=first,
    )
    await daily.finish(first, 2)
    await daily.set_par(BOARD, 1)
    await PlayerOptionsRepo(db).update(1001, {"auto_play": True})


async def snapshot(db: Database) -> dict[str, Any]:
    """What the bot reads back, through the repositories."""
    tables, actions = TableRepo(db), ActionRepo(db)
    ids = [r["id"] for r in await db.fetchall("SELECT id FROM tables ORDER BY id")]
    return {
        "tables": [await tables.require(i) for i in ids],
        "unfinished": await tables.list_unfinished(),
        "actions": {i: await actions.list(i) for i in ids},
        "active_logs": await actions.list_active(),
        "hands": await HandMessageRepo(db).list_active(),
        "results": {i: await ResultRepo(db).for_table(i) for i in ids},
        "board": await ResultRepo(db).leaderboard(GUILD),
        "deadlines": await DeadlineRepo(db).list(),
        "guild_settings": await GuildSettingsRepo(db).get(GUILD),
        "user_locales": await UserLocaleRepo(db).get_many([1001]),
        "lessons": [
            (r.lesson, r.step, r.actions, r.finished) for r in await LessonRepo(db).of_user(1001)
        ],
        "player_options": await PlayerOptionsRepo(db).get_many([1001]),
        "ratings": await RatingRepo(db).all(),
        "rating_history": await RatingRepo(db).all_changes(),
        "rating_events": await RatingRepo(db).events(),
        "daily_results": await DailyRepo(db).of_board(BOARD),
        "daily_par": await DailyRepo(db).par([BOARD]),
    }


@pytest.fixture
async def source(db_path: Path, clock: FakeClock) -> Path:
    db = await Database.open(db_path, clock=clock)
    try:
        await fill(db, clock)
    finally:
        await db.close()
    return db_path


async def test_copy_sqlite_into_postgresql(source: Path, pg_url: str, clock: FakeClock) -> None:
    copied = await run(str(source), pg_url)
    assert copied == {
        "tables": 6,
        "actions": 20,
        "hand_messages": 10,
        "results": 6,
        "deadlines": 2,
        "guild_settings": 1,
        "user_locales": 1,
        "lesson_progress": 1,
        "player_options": 1,
        "rating_events": 3,
        "ratings": 4,
        "rating_history": 12,
        "daily_results": 1,
        "daily_par": 1,
        "daily_challenges": 0,
    }

    src = await Database.open(source)
    dst = await Database.open(pg_url, clock=clock)
    try:
        assert dst.dialect == "postgresql"
        before = await snapshot(src)
        assert await snapshot(dst) == before
        assert [p.user_id for p in before["board"]] == [1, 2]

        # new tables continue after the copied ids; the copied games go on
        clock.tick()
        fresh = await TableRepo(dst).create_lobby(
            guild_id=GUILD,
            channel_id=999,
            creator_id=3,
            game_id="whist-5",
            preset="default",
            seed=1,
        )
        assert fresh.id == max(t.id for t in before["tables"]) + 1
        active = next(t for t in before["unfinished"] if t.status == "active")
        v = await ActionRepo(dst).append(active.id, active.version, [NewAction(0, "play:AS", 1)])
        assert v == active.version + 1
        assert [a.seq for a in await ActionRepo(dst).list(active.id)] == [0, 1, 2, 3, 4]
    finally:
        await src.close()
        await dst.close()


async def test_a_second_copy_is_refused_unless_replace(source: Path, pg_url: str) -> None:
    await run(str(source), pg_url)
    dst = await Database.open(pg_url)
    try:
        await TableRepo(dst).set_message(1, 4242)  # the target moved on since
        with pytest.raises(TargetNotEmpty) as err:
            await run(str(source), pg_url)
        assert err.value.counts["tables"] == 6
        assert (await TableRepo(dst).require(1)).message_id == 4242  # untouched
        assert await dst.fetchval("SELECT COUNT(*) FROM actions") == 20  # nothing doubled

        copied = await run(str(source), pg_url, replace=True)
        assert copied["actions"] == 20
        assert (await TableRepo(dst).require(1)).message_id == 9000  # the source's again
        src = await Database.open(source)
        try:
            assert await snapshot(dst) == await snapshot(src)
        finally:
            await src.close()
    finally:
        await dst.close()


async def test_a_failed_copy_leaves_the_target_empty(source: Path, pg_url: str) -> None:
    src = await Database.open(source)
    dst = await Database.open(pg_url)
    try:
        # a source row the target refuses (PostgreSQL checks the JSON)
        await src.execute("PRAGMA ignore_check_constraints = ON")
        await src.execute("UPDATE tables SET seats = '[1]' WHERE id = 6")
        await src.execute("PRAGMA ignore_check_constraints = OFF")
        with pytest.raises(IntegrityError) as err:
            await copy_database(src, dst)
        assert (err.value.kind, err.value.table) == ("check", "tables")
        assert await dst.fetchval("SELECT COUNT(*) FROM tables") == 0
        assert await dst.fetchval("SELECT COUNT(*) FROM actions") == 0
    finally:
        await src.close()
        await dst.close()


async def test_a_missing_source_is_refused_not_created(tmp_path: Path, pg_url: str) -> None:
    missing = tmp_path / "nope.db"
    with pytest.raises(StoreError, match="no SQLite database"):
        await run(str(missing), pg_url)
    assert not missing.exists()


def test_command_line(source: Path, pg_url: str) -> None:
    def copy(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot.store.copy", str(source), pg_url, *extra],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )

    first = copy()
    assert first.returncode == 0, first.stderr
    assert (
        "copied 6 tables, 20 actions, 10 hand_messages, 6 results, 2 deadlines, 1 guild_settings"
        in first.stdout
    )
    again = copy()
    assert again.returncode == 2
    assert "not empty" in again.stderr and "--replace" in again.stderr
    replaced = copy("--replace")
    assert replaced.returncode == 0, replaced.stderr
