"""``LessonRepo``: each player's progress through the lessons (``/ruff lesson``).

One row per player and lesson: how many of the lesson's steps are done and the
actions played so far (the engine's encoding), so a lesson resumes where it was
left, also after a restart; ``finished`` once its last step is done. Lessons are
not games: nothing here is a table, a result or a rating.
"""

from __future__ import annotations

import builtins
import json
from dataclasses import dataclass

from bot.store.db import Row
from bot.store.rows import Repository, dump_json

__all__ = ["LessonRepo", "LessonRow"]


@dataclass(frozen=True, slots=True)
class LessonRow:
    """A player's progress through one lesson."""

    user_id: int
    lesson: str
    step: int  # steps of the script done
    actions: tuple[str, ...]  # every action played so far, in order (engine encoding)
    finished: bool
    updated_at: float


class LessonRepo(Repository):
    """Progress through the lessons, one row per player and lesson."""

    async def get(self, user_id: int, lesson: str) -> LessonRow | None:
        row = await self.db.fetchone(
            "SELECT * FROM lesson_progress WHERE user_id = ? AND lesson = ?", (user_id, lesson)
        )
        return None if row is None else _row(row)

    async def of_user(self, user_id: int) -> builtins.list[LessonRow]:
        """Every lesson ``user_id`` has begun."""
        rows = await self.db.fetchall(
            "SELECT * FROM lesson_progress WHERE user_id = ? ORDER BY lesson", (user_id,)
        )
        return [_row(r) for r in rows]

    async def put(
        self, user_id: int, lesson: str, step: int, actions: tuple[str, ...], finished: bool
    ) -> None:
        """Store the progress (replacing what was stored)."""
        await self.db.execute(
            """
            INSERT INTO lesson_progress (user_id, lesson, step, actions, finished, updated_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, lesson) DO UPDATE SET step = excluded.step,
                actions = excluded.actions, finished = excluded.finished,
                updated_at = excluded.updated_at
            """,
            (user_id, lesson, step, dump_json(list(actions)), int(finished), self.db.clock()),
        )


def _row(row: Row) -> LessonRow:
    return LessonRow(
        user_id=int(row["user_id"]),
        lesson=str(row["lesson"]),
        step=int(row["step"]),
        actions=tuple(str(a) for a in json.loads(row["actions"])),
        finished=bool(row["finished"]),
        updated_at=float(row["updated_at"]),
    )
