"""The coach's data: deal reviews kept with the game, puzzles, and who solved them
(``deal_reviews``, ``puzzles``, ``puzzle_attempts``).

A review is computed once (``bot/features/coach/coach.py``) and kept: a finished deal
never changes, so the stored body is the answer to every later request. A
puzzle is one flagged decision of a review: the position as its seat saw it and
the verdict, as JSON the presenter reads (``bot/present/render/review.py``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.store.rows import Repository, dump_json

__all__ = ["CoachRepo", "PuzzleRow"]


@dataclass(frozen=True, slots=True)
class PuzzleRow:
    """One puzzle: whose decision it was, where, and its stored position."""

    id: int
    guild_id: int
    user_id: int
    table_id: int
    deal: int
    seat: int
    action: int
    body: dict[str, Any]


def _puzzle(row: Any) -> PuzzleRow:
    return PuzzleRow(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        user_id=int(row["user_id"]),
        table_id=int(row["table_id"]),
        deal=int(row["deal"]),
        seat=int(row["seat"]),
        action=int(row["action"]),
        body=dict(json.loads(row["body"])),
    )


_PUZZLE_COLUMNS = "p.id, p.guild_id, p.user_id, p.table_id, p.deal, p.seat, p.action, p.body"


class CoachRepo(Repository):
    """Reviews, puzzles and puzzle attempts."""

    async def review(self, table_id: int, deal: int, seat: int) -> dict[str, Any] | None:
        """The stored review of ``seat`` in ``deal`` of the table, if one was made."""
        row = await self.db.fetchone(
            "SELECT body FROM deal_reviews WHERE table_id = ? AND deal = ? AND seat = ?",
            (table_id, deal, seat),
        )
        return None if row is None else dict(json.loads(row["body"]))

    async def keep_review(
        self,
        table_id: int,
        deal: int,
        seat: int,
        body: dict[str, Any],
        puzzles: list[tuple[int, int, int, dict[str, Any]]],
    ) -> None:
        """Store a review and the puzzles made of it, ``(guild, user, action, body)`` each,
        in one transaction (a review stored twice keeps the first)."""
        now = self.db.clock()
        async with self.db.atomic():
            await self.db.execute(
                "INSERT INTO deal_reviews (table_id, deal, seat, body, created_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, deal, seat) DO NOTHING",
                (table_id, deal, seat, dump_json(body), now),
            )
            for guild_id, user_id, action, puzzle in puzzles:
                await self.db.execute(
                    "INSERT INTO puzzles"
                    " (guild_id, user_id, table_id, deal, seat, action, body, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (table_id, seat, action) DO NOTHING",
                    (guild_id, user_id, table_id, deal, seat, action, dump_json(puzzle), now),
                )

    async def puzzle(self, puzzle_id: int) -> PuzzleRow | None:
        row = await self.db.fetchone(
            f"SELECT {_PUZZLE_COLUMNS} FROM puzzles p WHERE p.id = ?", (puzzle_id,)
        )
        return None if row is None else _puzzle(row)

    async def next_puzzle(
        self, guild_id: int, user_id: int, after: int | None = None
    ) -> PuzzleRow | None:
        """A puzzle for ``user_id``, ``None`` when none is left; in this order:

        1. the oldest of their own they have not tried;
        2. the oldest of the server's others they have not tried, from a game that is
           over and is not a board (:mod:`bot.tables.privacy`: a finished game's record
           is public, so its positions reveal nothing; a board's cards are its own
           player's, always);
        3. again, their own tried and not yet solved, the longest untouched first.

        ``after`` (the puzzle just shown) is served again only when it is the only one
        left, so **Next puzzle** moves on even from a puzzle answered wrong."""
        skip = -1 if after is None else after
        row = await self.db.fetchone(
            f"SELECT {_PUZZLE_COLUMNS} FROM puzzles p WHERE p.guild_id = ? AND p.user_id = ?"
            " AND p.id <> ? AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a"
            " WHERE a.puzzle_id = p.id AND a.user_id = ?)"
            " ORDER BY p.id LIMIT 1",
            (guild_id, user_id, skip, user_id),
        )
        if row is None:
            row = await self.db.fetchone(
                f"SELECT {_PUZZLE_COLUMNS} FROM puzzles p WHERE p.guild_id = ? AND p.user_id <> ?"
                " AND p.id <> ?"
                " AND EXISTS (SELECT 1 FROM tables t WHERE t.id = p.table_id"
                " AND t.status = 'finished')"
                " AND NOT EXISTS (SELECT 1 FROM daily_results d WHERE d.table_id = p.table_id)"
                " AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a"
                " WHERE a.puzzle_id = p.id AND a.user_id = ?)"
                " ORDER BY p.id LIMIT 1",
                (guild_id, user_id, skip, user_id),
            )
        if row is None:
            row = await self.db.fetchone(
                f"SELECT {_PUZZLE_COLUMNS} FROM puzzles p JOIN puzzle_attempts a"
                " ON a.puzzle_id = p.id AND a.user_id = ?"
                " WHERE p.guild_id = ? AND p.user_id = ? AND a.solved = 0"
                " ORDER BY CASE WHEN p.id = ? THEN 1 ELSE 0 END, a.created_at, p.id LIMIT 1",
                (user_id, guild_id, user_id, skip),
            )
        if row is None and after is not None:
            return await self.next_puzzle(guild_id, user_id)  # the one just shown is all
        return None if row is None else _puzzle(row)

    async def attempt(self, puzzle_id: int, user_id: int, solved: bool, answer: str) -> None:
        """Record ``user_id``'s answer; a solved puzzle stays solved."""
        await self.db.execute(
            "INSERT INTO puzzle_attempts (puzzle_id, user_id, solved, answer, created_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (puzzle_id, user_id) DO UPDATE SET"
            " solved = CASE WHEN puzzle_attempts.solved = 1 THEN 1 ELSE excluded.solved END,"
            " answer = excluded.answer, created_at = excluded.created_at",
            (puzzle_id, user_id, 1 if solved else 0, answer, self.db.clock()),
        )

    async def give_up(self, puzzle_id: int, user_id: int) -> None:
        """``user_id`` asked for the solution: tried and not solved, unless already
        answered (an answer, right or wrong, is kept as it was)."""
        await self.db.execute(
            "INSERT INTO puzzle_attempts (puzzle_id, user_id, solved, answer, created_at)"
            " VALUES (?, ?, 0, '-', ?) ON CONFLICT (puzzle_id, user_id) DO NOTHING",
            (puzzle_id, user_id, self.db.clock()),
        )

    async def tally(self, guild_id: int, user_id: int) -> tuple[int, int, int]:
        """``user_id``'s puzzles in the server: (solved, tried but unsolved, own left untried)."""
        row = await self.db.fetchone(
            "SELECT"
            " COALESCE(SUM(CASE WHEN a.solved = 1 THEN 1 ELSE 0 END), 0) AS solved,"
            " COALESCE(SUM(CASE WHEN a.solved = 0 THEN 1 ELSE 0 END), 0) AS unsolved"
            " FROM puzzle_attempts a JOIN puzzles p ON p.id = a.puzzle_id"
            " WHERE p.guild_id = ? AND a.user_id = ?",
            (guild_id, user_id),
        )
        left = await self.db.fetchval(
            "SELECT COUNT(*) FROM puzzles p WHERE guild_id = ? AND user_id = ?"
            " AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a"
            " WHERE a.puzzle_id = p.id AND a.user_id = ?)",
            (guild_id, user_id, user_id),
        )
        solved = int(row["solved"]) if row is not None else 0
        unsolved = int(row["unsolved"]) if row is not None else 0
        return solved, unsolved, int(left or 0)
