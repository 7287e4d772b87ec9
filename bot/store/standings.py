"""The standings: finished games' results (the leaderboard's and ``/ruff stats``'
queries) and the ratings with their history and rating events.

Repositories in the style of :mod:`bot.store.tables` (one SQL for both backends);
kept apart from the tables of play so each module stays readable.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.store.db import Row, TransactionRequired
from bot.store.rows import PlayerResult, PlayerStats, Repository, ResultRow, dump_json

_STATS_SQL = """
    SELECT user_id,
           name,
           games,
           wins,
           CAST(100.0 * wins / games AS DOUBLE PRECISION) AS win_pct,
           points,
           ROW_NUMBER() OVER (ORDER BY wins DESC, 1.0 * wins / games DESC,
                                       games DESC, user_id) AS rank
    FROM (
        SELECT r.user_id,
               -- the name from the player's latest game (the later table on a tie)
               (SELECT latest.name FROM results latest
                WHERE latest.guild_id = r.guild_id AND latest.user_id = r.user_id
                ORDER BY latest.finished_at DESC, latest.table_id DESC
                LIMIT 1) AS name,
               COUNT(*) AS games,
               SUM(r.won) AS wins,
               SUM(r.points) AS points
        FROM results r
        WHERE r.guild_id = ?
        GROUP BY r.guild_id, r.user_id
    ) AS totals
"""


def _stats(row: Row) -> PlayerStats:
    return PlayerStats(
        rank=row["rank"],
        user_id=row["user_id"],
        name=row["name"],
        games=row["games"],
        wins=row["wins"],
        win_pct=row["win_pct"],
        points=row["points"],
    )


class ResultRepo(Repository):
    """Finished games' results per human player, and the per-guild leaderboard."""

    async def record_game(self, table_id: int, guild_id: int, rows: Iterable[PlayerResult]) -> None:
        """Store one row per human player of a finished game, all or nothing.

        A user may appear once per game; recording the same game twice raises
        :class:`~bot.store.IntegrityError` (on SQLite also a ``sqlite3.IntegrityError``).
        """
        now = self.db.clock()
        await self.db.executemany(
            """
            INSERT INTO results (table_id, guild_id, user_id, name, side, won, points,
                                 opp_points, finished_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                (
                    table_id,
                    guild_id,
                    r.user_id,
                    r.name,
                    r.side,
                    int(r.won),
                    r.points,
                    r.opp_points,
                    now,
                )
                for r in rows
            ],
        )

    async def leaderboard(
        self, guild_id: int, limit: int = 10, offset: int = 0
    ) -> list[PlayerStats]:
        """One page of the guild's players: by wins, then win %, then games played."""
        rows = await self.db.fetchall(
            f"{_STATS_SQL} ORDER BY rank LIMIT ? OFFSET ?", (guild_id, limit, offset)
        )
        return [_stats(r) for r in rows]

    async def count_players(self, guild_id: int) -> int:
        """How many distinct players have a result in the guild (for paging)."""
        return int(
            await self.db.fetchval(
                "SELECT COUNT(DISTINCT user_id) FROM results WHERE guild_id = ?", (guild_id,)
            )
        )

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """The player's totals and leaderboard rank in the guild, or None if unplayed."""
        row = await self.db.fetchone(
            f"SELECT * FROM ({_STATS_SQL}) AS board WHERE user_id = ?", (guild_id, user_id)
        )
        return None if row is None else _stats(row)

    async def for_table(self, table_id: int) -> list[ResultRow]:
        """The stored results of one game."""
        rows = await self.db.fetchall(
            "SELECT * FROM results WHERE table_id = ? ORDER BY side, user_id", (table_id,)
        )
        return [
            ResultRow(
                table_id=r["table_id"],
                guild_id=r["guild_id"],
                user_id=r["user_id"],
                name=r["name"],
                side=r["side"],
                won=bool(r["won"]),
                points=r["points"],
                opp_points=r["opp_points"],
                finished_at=r["finished_at"],
            )
            for r in rows
        ]

    async def last_table(self, guild_id: int, user_id: int) -> int | None:
        """The id of the latest finished game ``user_id`` played in the guild, or None."""
        value = await self.db.fetchval(
            "SELECT table_id FROM results WHERE guild_id = ? AND user_id = ?"
            " ORDER BY finished_at DESC, table_id DESC LIMIT 1",
            (guild_id, user_id),
        )
        return None if value is None else int(value)


# -- ratings ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One player's rating in one server and game id (``bot.competition.ratings`` computes it).

    ``player`` is the player's key: a person's decimal user id, or ``ai:<level>``.
    ``rank`` is the 1-based place on the game's leaderboard when the query ranks
    (players with at least the minimum number of games), else None.
    """

    guild_id: int
    game_id: str
    player: str
    name: str
    mu: float
    sigma: float
    games: int
    wins: int
    updated_at: float
    rank: int | None = None

    @property
    def conservative(self) -> float:
        """``mu - 3 sigma``: the value shown and ranked (the leaderboard's order)."""
        return self.mu - CONSERVATIVE_SIGMAS * self.sigma


CONSERVATIVE_SIGMAS = 3
"""How many sigmas the shown rating stays below mu (openskill's ``ordinal()``)."""


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one finished table did to one player's rating."""

    table_id: int
    player: str
    guild_id: int
    game_id: str
    won: bool
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    finished_at: float

    @property
    def before(self) -> float:
        """The shown (conservative) rating before the game."""
        return self.mu_before - CONSERVATIVE_SIGMAS * self.sigma_before

    @property
    def after(self) -> float:
        """The shown (conservative) rating after the game."""
        return self.mu_after - CONSERVATIVE_SIGMAS * self.sigma_after


@dataclass(frozen=True, slots=True)
class RatingEventRow:
    """A finished table as the ratings see it: its teams and their ranks (JSON)."""

    table_id: int
    guild_id: int
    game_id: str
    teams: list[dict[str, Any]]
    """``[{"rank": 0, "players": [{"key": "123", "name": "alice", "seat": 0}, ...]}, ...]``"""
    source: str
    """``game``, ``replay`` or ``results`` (how it was made; see ``bot.store.ratings``)."""
    finished_at: float


_CONSERVATIVE_SQL = f"(mu - {CONSERVATIVE_SIGMAS} * sigma)"
_RANKED_SQL = f"""
    SELECT *, ROW_NUMBER() OVER (ORDER BY {_CONSERVATIVE_SQL} DESC, games DESC, player) AS rank
    FROM ratings
    WHERE guild_id = ? AND game_id = ? AND games >= ?
"""


def _rating(row: Row, ranked: bool = False) -> RatingRow:
    return RatingRow(
        guild_id=row["guild_id"],
        game_id=row["game_id"],
        player=row["player"],
        name=row["name"],
        mu=row["mu"],
        sigma=row["sigma"],
        games=row["games"],
        wins=row["wins"],
        updated_at=row["updated_at"],
        rank=row["rank"] if ranked else None,
    )


def _change(row: Row) -> RatingChange:
    return RatingChange(
        table_id=row["table_id"],
        player=row["player"],
        guild_id=row["guild_id"],
        game_id=row["game_id"],
        won=bool(row["won"]),
        mu_before=row["mu_before"],
        sigma_before=row["sigma_before"],
        mu_after=row["mu_after"],
        sigma_after=row["sigma_after"],
        finished_at=row["finished_at"],
    )


def _event(row: Row) -> RatingEventRow:
    return RatingEventRow(
        table_id=row["table_id"],
        guild_id=row["guild_id"],
        game_id=row["game_id"],
        teams=json.loads(row["teams"]),
        source=row["source"],
        finished_at=row["finished_at"],
    )


_RATING_COLUMNS = "guild_id, game_id, player, name, mu, sigma, games, wins, updated_at"
_CHANGE_COLUMNS = (
    "table_id, player, guild_id, game_id, won, mu_before, sigma_before, mu_after,"
    " sigma_after, finished_at"
)


def _rating_params(r: RatingRow) -> tuple[Any, ...]:
    return (r.guild_id, r.game_id, r.player, r.name, r.mu, r.sigma, r.games, r.wins, r.updated_at)


def _change_params(c: RatingChange) -> tuple[Any, ...]:
    return (
        c.table_id,
        c.player,
        c.guild_id,
        c.game_id,
        int(c.won),
        c.mu_before,
        c.sigma_before,
        c.mu_after,
        c.sigma_after,
        c.finished_at,
    )


class RatingRepo(Repository):
    """Ratings per server, game id and player; their history; the rating events.

    The arithmetic lives in :mod:`bot.competition.ratings` (games become events in
    :mod:`bot.store.ratings`); this class stores and ranks.
    """

    async def lock(
        self,
        guild_id: int,
        game_id: str,
        players: Mapping[str, str],
        mu: float,
        sigma: float,
    ) -> dict[str, RatingRow]:
        """The ratings of ``players`` (key -> name), locked until the transaction ends.

        A player without a rating gets a row at (``mu``, ``sigma``) with no games
        first, so that two transactions rating the same new player (an AI level
        at two tables finishing at once) cannot both start from the default: the
        second waits for the first's row lock on PostgreSQL. Raises
        :class:`TransactionRequired` outside a transaction.
        """
        if not self.db.in_transaction:
            raise TransactionRequired("lock() needs a transaction: the lock ends with it")
        keys = sorted(players)  # one order everywhere: no lock-order deadlock
        now = self.db.clock()
        await self.db.executemany(
            f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?)"
            " ON CONFLICT (guild_id, game_id, player) DO NOTHING",
            [(guild_id, game_id, k, players[k], mu, sigma, now) for k in keys],
        )
        marks = ", ".join("?" for _ in keys)
        rows = await self.db.fetchall(
            f"SELECT * FROM ratings WHERE guild_id = ? AND game_id = ? AND player IN ({marks})"
            f" ORDER BY player{self.db.for_update}",
            (guild_id, game_id, *keys),
        )
        return {r["player"]: _rating(r) for r in rows}

    async def save(self, ratings: Iterable[RatingRow]) -> None:
        """Insert or replace these ratings."""
        await self.db.executemany(
            f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, game_id, player) DO UPDATE SET name = excluded.name,"
            " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
            " wins = excluded.wins, updated_at = excluded.updated_at",
            [_rating_params(r) for r in ratings],
        )

    async def add_changes(self, changes: Iterable[RatingChange]) -> None:
        """Record what a finished table did to each of its players' ratings."""
        await self.db.executemany(
            f"INSERT INTO rating_history ({_CHANGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [_change_params(c) for c in changes],
        )

    async def add_event(self, event: RatingEventRow) -> None:
        """Store a finished table's teams and ranks (one per table)."""
        await self.db.execute(
            "INSERT INTO rating_events (table_id, guild_id, game_id, teams, source, finished_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (
                event.table_id,
                event.guild_id,
                event.game_id,
                dump_json(event.teams),
                event.source,
                event.finished_at,
            ),
        )

    async def events(self) -> builtins.list[RatingEventRow]:
        """Every rating event, in the order the games finished (the order to rate them)."""
        rows = await self.db.fetchall("SELECT * FROM rating_events ORDER BY finished_at, table_id")
        return [_event(r) for r in rows]

    async def event(self, table_id: int) -> RatingEventRow | None:
        """The rating event of one finished table, or None."""
        row = await self.db.fetchone("SELECT * FROM rating_events WHERE table_id = ?", (table_id,))
        return None if row is None else _event(row)

    async def unrated_tables(self) -> builtins.list[int]:
        """Finished tables without a rating event (finished before ratings existed),
        not counting the tables of a kind never rated (``bot.tables.kinds``): played
        with hints (their settings' ``hints``), a board played alone (``board``), an
        event's board (``event``) unless the server chose to rate the event
        (``rated``)."""
        if self.db.dialect == "postgresql":
            hinted = "COALESCE((t.settings::jsonb ->> 'hints')::boolean, false)"
            board = "COALESCE(t.settings::jsonb ->> 'board', '') <> ''"
            event = "COALESCE(t.settings::jsonb ->> 'event', '') <> ''"
            rated = "COALESCE((t.settings::jsonb ->> 'rated')::boolean, false)"
        else:
            hinted = "COALESCE(json_extract(t.settings, '$.hints'), 0)"
            board = "COALESCE(json_extract(t.settings, '$.board'), '') <> ''"
            event = "COALESCE(json_extract(t.settings, '$.event'), '') <> ''"
            rated = "COALESCE(json_extract(t.settings, '$.rated'), 0)"
        rows = await self.db.fetchall(
            "SELECT id FROM tables t WHERE status = 'finished'"
            " AND NOT EXISTS (SELECT 1 FROM rating_events e WHERE e.table_id = t.id)"
            f" AND NOT {hinted} AND NOT {board} AND NOT ({event} AND NOT {rated})"
            " ORDER BY id"
        )
        return [int(r[0]) for r in rows]

    async def all(self) -> builtins.list[RatingRow]:
        """Every rating of every server (for the rebuild's comparison)."""
        rows = await self.db.fetchall("SELECT * FROM ratings ORDER BY guild_id, game_id, player")
        return [_rating(r) for r in rows]

    async def all_changes(self) -> builtins.list[RatingChange]:
        """The whole rating history, in table and player order."""
        rows = await self.db.fetchall("SELECT * FROM rating_history ORDER BY table_id, player")
        return [_change(r) for r in rows]

    async def lock_all(self) -> None:
        """Keep every other writer of ratings waiting until the transaction ends (the
        rebuild: a game finishing meanwhile is rated after it, from its result).

        PostgreSQL: ``LOCK TABLE``; SQLite's write transaction already excludes
        every other writer. Raises :class:`TransactionRequired` outside a transaction.
        """
        if not self.db.in_transaction:
            raise TransactionRequired("lock_all() needs a transaction: the lock ends with it")
        if self.db.dialect == "postgresql":
            await self.db.execute(
                "LOCK TABLE rating_events, ratings, rating_history IN EXCLUSIVE MODE"
            )

    async def replace_all(
        self, ratings: Iterable[RatingRow], changes: Iterable[RatingChange]
    ) -> None:
        """Replace every rating and the whole history (the rebuild), all or nothing."""
        async with self.db.atomic():
            await self.db.execute("DELETE FROM rating_history")
            await self.db.execute("DELETE FROM ratings")
            await self.save(ratings)
            await self.add_changes(changes)

    async def leaderboard(
        self, guild_id: int, game_id: str, min_games: int, limit: int = 10, offset: int = 0
    ) -> builtins.list[RatingRow]:
        """One page of the game's ranked players (at least ``min_games``), best first."""
        rows = await self.db.fetchall(
            f"{_RANKED_SQL} ORDER BY rank LIMIT ? OFFSET ?",
            (guild_id, game_id, min_games, limit, offset),
        )
        return [_rating(r, ranked=True) for r in rows]

    async def count_ranked(self, guild_id: int, game_id: str, min_games: int) -> int:
        """How many players of the game have at least ``min_games``."""
        return int(
            await self.db.fetchval(
                "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game_id = ? AND games >= ?",
                (guild_id, game_id, min_games),
            )
        )

    async def provisional(
        self, guild_id: int, game_id: str, min_games: int, limit: int = 10
    ) -> tuple[builtins.list[RatingRow], int]:
        """Players with at least one game but fewer than ``min_games`` (best first, at
        most ``limit``), and how many there are in all."""
        where = "WHERE guild_id = ? AND game_id = ? AND games > 0 AND games < ?"
        params = (guild_id, game_id, min_games)
        rows = await self.db.fetchall(
            f"SELECT * FROM ratings {where} ORDER BY {_CONSERVATIVE_SQL} DESC, games DESC, player"
            " LIMIT ?",
            (*params, limit),
        )
        total = int(await self.db.fetchval(f"SELECT COUNT(*) FROM ratings {where}", params))
        return [_rating(r) for r in rows], total

    async def get(
        self, guild_id: int, game_id: str, player: str, min_games: int = 0
    ) -> RatingRow | None:
        """The player's rating in the game, with its rank if it has ``min_games``."""
        row = await self.db.fetchone(
            f"SELECT * FROM ({_RANKED_SQL}) AS board WHERE player = ?",
            (guild_id, game_id, min_games, player),
        )
        if row is not None:
            return _rating(row, ranked=True)
        row = await self.db.fetchone(
            "SELECT * FROM ratings WHERE guild_id = ? AND game_id = ? AND player = ? AND games > 0",
            (guild_id, game_id, player),
        )
        return None if row is None else _rating(row)

    async def for_player(self, guild_id: int, player: str) -> builtins.list[RatingRow]:
        """The player's ratings in every game of the server, most games first."""
        rows = await self.db.fetchall(
            "SELECT * FROM ratings WHERE guild_id = ? AND player = ? AND games > 0"
            " ORDER BY games DESC, updated_at DESC, game_id",
            (guild_id, player),
        )
        return [_rating(r) for r in rows]

    async def history(
        self, guild_id: int, player: str, game_id: str | None = None, limit: int = 5
    ) -> builtins.list[RatingChange]:
        """The player's latest rating changes in the server (in one game if named), newest first."""
        if game_id is None:
            rows = await self.db.fetchall(
                "SELECT * FROM rating_history WHERE guild_id = ? AND player = ?"
                " ORDER BY finished_at DESC, table_id DESC LIMIT ?",
                (guild_id, player, limit),
            )
        else:
            rows = await self.db.fetchall(
                "SELECT * FROM rating_history WHERE guild_id = ? AND player = ? AND game_id = ?"
                " ORDER BY finished_at DESC, table_id DESC LIMIT ?",
                (guild_id, player, game_id, limit),
            )
        return [_change(r) for r in rows]

    async def for_table(self, table_id: int) -> builtins.list[RatingChange]:
        """What one finished table did to its players' ratings."""
        rows = await self.db.fetchall(
            "SELECT * FROM rating_history WHERE table_id = ? ORDER BY player", (table_id,)
        )
        return [_change(r) for r in rows]

    async def games(self, guild_id: int) -> builtins.list[tuple[str, int]]:
        """The game ids rated in the server with their number of rated games, most first."""
        rows = await self.db.fetchall(
            "SELECT game_id, COUNT(*) AS n FROM rating_events WHERE guild_id = ?"
            " GROUP BY game_id ORDER BY n DESC, MAX(finished_at) DESC, game_id",
            (guild_id,),
        )
        return [(r["game_id"], int(r["n"])) for r in rows]
