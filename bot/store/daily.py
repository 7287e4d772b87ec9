"""The boards played alone (``/ruff daily``): who started which board, and each
finished board's result; the AI's par of each board. Read by ``bot.features.daily.standings``
(standings) and ``bot.features.daily.boards`` (travellers), written by ``bot.features.daily.boards``
(a start) and ``bot.tables.commit`` (a result, with the board's last move).

Their scoring (matchpoints, standings, percentiles) is ``bot.competition.duplicate``:
the store only stores. One SQL for both backends. A player starts a board once (the primary key); a
result is written once (only over a NULL), so a move replayed, a second process
or a retry never writes it twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.db import Row
from bot.store.rows import CHUNK, Repository

__all__ = [
    "CHALLENGE",
    "EVENT",
    "BoardEntry",
    "Challenge",
    "ChallengeRepo",
    "DailyRepo",
]

_COLUMNS = (
    "board, user_id, game_id, series, number, guild_id, channel_id, name, table_id,"
    " result, by_ai, started_at, finished_at"
)
_READ = _COLUMNS + ", shared_at"  # and what a finished board did once
CHALLENGE = "challenge-"  # the series of a challenge's boards: challenge-<id>
EVENT = "event-"  # an asynchronous event's boards: event-<id>-<seed in hex>


def event_series(event_id: int, seed: int) -> str:
    """The series of an asynchronous event's boards: named by the event and its secret
    seed, so a board's cards cannot be worked out from the event's number."""
    return f"{EVENT}{event_id}-{seed:x}"


def event_of_series(series: str) -> int | None:
    """The event whose boards ``series`` names (None: not an event's)."""
    if not series.startswith(EVENT):
        return None
    head = series[len(EVENT) :].split("-", 1)[0]
    return int(head) if head.isdigit() else None


@dataclass(frozen=True, slots=True)
class BoardEntry:
    """One player's attempt at one board."""

    board: str
    user_id: int
    game_id: str
    series: str
    number: int
    guild_id: int
    channel_id: int
    name: str
    table_id: int | None  # None: never played, the AI's result (a challenge's deadline)
    result: int | None  # None while it is being played
    by_ai: bool  # finished by the AI (a challenge's board abandoned at its deadline)
    started_at: float
    finished_at: float | None
    shared_at: float | None = None  # when its share line was posted in its server

    @property
    def finished(self) -> bool:
        return self.result is not None


def _entry(row: Row) -> BoardEntry:
    result = row["result"]
    finished = row["finished_at"]
    table_id = row["table_id"]
    return BoardEntry(
        board=str(row["board"]),
        user_id=int(row["user_id"]),
        game_id=str(row["game_id"]),
        series=str(row["series"]),
        number=int(row["number"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        name=str(row["name"]),
        table_id=None if table_id is None else int(table_id),
        result=None if result is None else int(result),
        by_ai=bool(row["by_ai"]),
        started_at=float(row["started_at"]),
        finished_at=None if finished is None else float(finished),
        shared_at=None if row["shared_at"] is None else float(row["shared_at"]),
    )


class DailyRepo(Repository):
    """Boards started and finished, per player; the par of each board."""

    async def start(
        self,
        *,
        board: str,
        user_id: int,
        game_id: str,
        series: str,
        number: int,
        guild_id: int,
        channel_id: int,
        name: str,
        table_id: int,
    ) -> None:
        """The player starts ``board`` at ``table_id``; raises
        :class:`~bot.store.IntegrityError` if they started it before."""
        await self.db.execute(
            f"INSERT INTO daily_results ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 0, ?, NULL)",
            (
                board,
                user_id,
                game_id,
                series,
                number,
                guild_id,
                channel_id,
                name,
                table_id,
                self.db.clock(),
            ),
        )

    async def finish(self, table_id: int, result: int, by_ai: bool = False) -> bool:
        """The board played at ``table_id`` ended with ``result`` (``by_ai``: the AI
        finished it); False when it had one already (the first stays) or no board
        is played there."""
        changed = await self.db.execute(
            "UPDATE daily_results SET result = ?, by_ai = ?, finished_at = ?"
            " WHERE table_id = ? AND result IS NULL",
            (result, int(by_ai), self.db.clock(), table_id),
        )
        return changed > 0

    async def by_ai(
        self,
        *,
        board: str,
        user_id: int,
        game_id: str,
        series: str,
        number: int,
        guild_id: int,
        name: str,
        result: int,
    ) -> bool:
        """A board the player never started, played by the AI for them (a challenge's
        deadline); False if they had started it (their attempt stays)."""
        now = self.db.clock()
        changed = await self.db.execute(
            f"INSERT INTO daily_results ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 0, ?, NULL, ?, 1, ?, ?)"
            " ON CONFLICT (board, user_id) DO NOTHING",
            (board, user_id, game_id, series, number, guild_id, name, result, now, now),
        )
        return changed > 0

    async def share(self, table_id: int) -> bool:
        """Mark the finished board at ``table_id`` as posted in its server: True for the
        one caller that marked it (it posts), False if it was marked before (another
        click, another process, before a restart)."""
        changed = await self.db.execute(
            "UPDATE daily_results SET shared_at = ?"
            " WHERE table_id = ? AND result IS NOT NULL AND shared_at IS NULL",
            (self.db.clock(), table_id),
        )
        return changed > 0

    async def unshare(self, table_id: int) -> None:
        """The post could not be made: the board may be posted again."""
        await self.db.execute(
            "UPDATE daily_results SET shared_at = NULL WHERE table_id = ?", (table_id,)
        )

    async def of_table(self, table_id: int) -> BoardEntry | None:
        row = await self.db.fetchone(
            f"SELECT {_READ} FROM daily_results WHERE table_id = ?", (table_id,)
        )
        return None if row is None else _entry(row)

    async def of_player(self, user_id: int, game_id: str, series: str) -> list[BoardEntry]:
        """``user_id``'s boards of ``series``, by number."""
        rows = await self.db.fetchall(
            f"SELECT {_READ} FROM daily_results WHERE user_id = ? AND game_id = ? AND series = ?"
            " ORDER BY number",
            (user_id, game_id, series),
        )
        return [_entry(r) for r in rows]

    async def of_series(self, game_id: str, series: Sequence[str]) -> list[BoardEntry]:
        """Every attempt at the boards of ``game_id`` in the ``series`` given (days)."""
        out: list[BoardEntry] = []
        names = sorted(set(series))
        for start in range(0, len(names), CHUNK):
            chunk = names[start : start + CHUNK]
            marks = ", ".join("?" for _ in chunk)
            rows = await self.db.fetchall(
                f"SELECT {_READ} FROM daily_results WHERE game_id = ? AND series IN ({marks})"
                " ORDER BY board, user_id",
                (game_id, *chunk),
            )
            out.extend(_entry(r) for r in rows)
        return out

    async def of_game(self, game_id: str) -> list[BoardEntry]:
        """Every attempt at every day's board of ``game_id`` (all-time standings; not
        the challenges', nor an asynchronous event's: its results are hidden until it
        closes and ranked there)."""
        rows = await self.db.fetchall(
            f"SELECT {_READ} FROM daily_results WHERE game_id = ? AND series NOT LIKE ?"
            " AND series NOT LIKE ? ORDER BY board, user_id",
            (game_id, CHALLENGE + "%", EVENT + "%"),
        )
        return [_entry(r) for r in rows]

    async def of_board(self, board: str) -> list[BoardEntry]:
        """Every attempt at ``board``."""
        rows = await self.db.fetchall(
            f"SELECT {_READ} FROM daily_results WHERE board = ? ORDER BY user_id", (board,)
        )
        return [_entry(r) for r in rows]

    async def par(self, boards: Sequence[str]) -> dict[str, int]:
        """The par of each of ``boards`` known so far."""
        found: dict[str, int] = {}
        names = sorted(set(boards))
        for start in range(0, len(names), CHUNK):
            chunk = names[start : start + CHUNK]
            marks = ", ".join("?" for _ in chunk)
            rows = await self.db.fetchall(
                f"SELECT board, result FROM daily_par WHERE board IN ({marks})", tuple(chunk)
            )
            found.update((str(r["board"]), int(r["result"])) for r in rows)
        return found

    async def set_par(self, board: str, result: int) -> None:
        """Keep the par of ``board`` (the first one written stays: it is the same anyway)."""
        await self.db.execute(
            "INSERT INTO daily_par (board, result) VALUES (?, ?) ON CONFLICT (board) DO NOTHING",
            (board, result),
        )


# -------------------------------------------------------------------- challenges

_CHALLENGE_COLUMNS = (
    "id, game_id, preset, boards, guild_id, channel_id, challenger_id, challenger_name,"
    " opponent_id, opponent_name, created_at, deadline_at, settled_at, rematch_of"
)


@dataclass(frozen=True, slots=True)
class Challenge:
    """Two players, the same boards (series ``challenge-<id>``), a deadline."""

    id: int
    game_id: str
    preset: str
    boards: int
    guild_id: int
    channel_id: int
    challenger_id: int
    challenger_name: str
    opponent_id: int  # 0: the AI
    opponent_name: str
    created_at: float
    deadline_at: float
    settled_at: float | None
    rematch_of: int | None = None  # the challenge this one is the rematch of

    @property
    def series(self) -> str:
        return f"{CHALLENGE}{self.id}"

    @property
    def players(self) -> tuple[tuple[int, str], ...]:
        """The human players: (user id, name)."""
        both = ((self.challenger_id, self.challenger_name), (self.opponent_id, self.opponent_name))
        return tuple(p for p in both if p[0])


def _challenge(row: Row) -> Challenge:
    settled = row["settled_at"]
    return Challenge(
        id=int(row["id"]),
        game_id=str(row["game_id"]),
        preset=str(row["preset"]),
        boards=int(row["boards"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        challenger_id=int(row["challenger_id"]),
        challenger_name=str(row["challenger_name"]),
        opponent_id=int(row["opponent_id"]),
        opponent_name=str(row["opponent_name"]),
        created_at=float(row["created_at"]),
        deadline_at=float(row["deadline_at"]),
        settled_at=None if settled is None else float(settled),
        rematch_of=None if row["rematch_of"] is None else int(row["rematch_of"]),
    )


class ChallengeRepo(Repository):
    """Challenges: made, read, settled once."""

    async def create(
        self,
        *,
        game_id: str,
        preset: str,
        boards: int,
        guild_id: int,
        channel_id: int,
        challenger: tuple[int, str],
        opponent: tuple[int, str],
        deadline_at: float,
        rematch_of: int | None = None,
    ) -> Challenge:
        """A new challenge; ``rematch_of``: the settled challenge it is the rematch of,
        raising :class:`~bot.store.IntegrityError` if that one has its rematch already
        (two clicks, two processes, a click before a restart: one rematch)."""
        new_id = await self.db.execute_insert(
            f"INSERT INTO daily_challenges ({_CHALLENGE_COLUMNS.split(', ', 1)[1]})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)",
            (
                game_id,
                preset,
                boards,
                guild_id,
                channel_id,
                challenger[0],
                challenger[1],
                opponent[0],
                opponent[1],
                self.db.clock(),
                deadline_at,
                rematch_of,
            ),
        )
        found = await self.get(new_id)
        assert found is not None
        return found

    async def get(self, challenge_id: int) -> Challenge | None:
        row = await self.db.fetchone(
            f"SELECT {_CHALLENGE_COLUMNS} FROM daily_challenges WHERE id = ?", (challenge_id,)
        )
        return None if row is None else _challenge(row)

    async def rematch_of(self, challenge_id: int) -> Challenge | None:
        """The rematch made of ``challenge_id``, if one was."""
        row = await self.db.fetchone(
            f"SELECT {_CHALLENGE_COLUMNS} FROM daily_challenges WHERE rematch_of = ?",
            (challenge_id,),
        )
        return None if row is None else _challenge(row)

    async def open_of(self, user_id: int) -> list[Challenge]:
        """The unsettled challenges ``user_id`` plays in, oldest first."""
        rows = await self.db.fetchall(
            f"SELECT {_CHALLENGE_COLUMNS} FROM daily_challenges WHERE settled_at IS NULL"
            " AND (challenger_id = ? OR opponent_id = ?) ORDER BY id",
            (user_id, user_id),
        )
        return [_challenge(r) for r in rows]

    async def due(self, now: float) -> list[Challenge]:
        """The unsettled challenges whose deadline has passed."""
        rows = await self.db.fetchall(
            f"SELECT {_CHALLENGE_COLUMNS} FROM daily_challenges WHERE settled_at IS NULL"
            " AND deadline_at <= ? ORDER BY id",
            (now,),
        )
        return [_challenge(r) for r in rows]

    async def settle(self, challenge_id: int) -> bool:
        """Mark the challenge settled; False if it was already (only one caller tells)."""
        changed = await self.db.execute(
            "UPDATE daily_challenges SET settled_at = ? WHERE id = ? AND settled_at IS NULL",
            (self.db.clock(), challenge_id),
        )
        return changed > 0
