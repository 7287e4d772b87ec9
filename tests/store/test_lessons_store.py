"""Lesson progress (migration 10, ``lesson_progress``) and the unrated tables with hints,
on both backends."""

from __future__ import annotations

import pytest

from bot.store import Database, HumanSeat, LessonRepo, RatingRepo, StoreError, TableRepo
from bot.store.migrations import LATEST_VERSION


async def test_lesson_progress_is_stored_replaced_and_read_back(db: Database) -> None:
    assert await db.user_version() == LATEST_VERSION
    repo = LessonRepo(db)
    assert await repo.get(1, "solo-auction") is None
    await repo.put(1, "solo-auction", 2, ("bid:solo", "bid:pass"), False)
    await repo.put(1, "turnover-layouts", 6, ("play:AH",) * 6, True)
    await repo.put(2, "solo-auction", 0, (), False)
    row = await repo.get(1, "solo-auction")
    assert row is not None
    assert (row.step, row.actions, row.finished) == (2, ("bid:solo", "bid:pass"), False)
    await repo.put(1, "solo-auction", 4, ("bid:solo", "bid:pass", "bid:mis", "bid:pass"), False)
    row = await repo.get(1, "solo-auction")
    assert row is not None and row.step == 4 and len(row.actions) == 4
    assert [(r.lesson, r.finished) for r in await repo.of_user(1)] == [
        ("solo-auction", False),
        ("turnover-layouts", True),
    ]


async def test_a_malformed_progress_row_is_refused(db: Database) -> None:
    with pytest.raises((StoreError, Exception)):
        await LessonRepo(db).put(1, "", -1, (), False)  # no name, a negative step
    assert await LessonRepo(db).of_user(1) == []


async def test_a_finished_table_with_hints_is_never_taken_for_unrated(db: Database) -> None:
    tables = TableRepo(db)
    rows = []
    for channel, settings in ((10, {"hints": True}), (11, {})):
        row = await tables.create_lobby(
            guild_id=1,
            channel_id=channel,
            creator_id=5,
            game_id="whist-5",
            preset="default",
            seed=1,
            seats=[HumanSeat(5, "alice"), None, None, None],
            overrides={},
            settings=settings,
        )
        version = await tables.set_status(row.id, "active", row.version, first_dealer=0)
        await tables.set_status(row.id, "finished", version)
        rows.append(row)
    assert await RatingRepo(db).unrated_tables() == [rows[1].id]  # only the one without hints
