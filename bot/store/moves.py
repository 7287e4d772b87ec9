"""The move log (``actions``) and its snapshots: what was played, in order, and a
game state every few moves so a start replays only the tail; the log stays the truth."""

from __future__ import annotations

import builtins
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from bot.store.db import Row
from bot.store.rows import (
    CHUNK,
    ActionRow,
    NewAction,
    Repository,
    TableNotActive,
    TableNotFound,
    VersionConflict,
)


def _action_row(r: Row) -> ActionRow:
    return ActionRow(
        table_id=r["table_id"],
        seq=r["seq"],
        seat=r["seat"],
        action=r["action"],
        actor_id=r["actor_id"],
        created_at=r["created_at"],
    )


class ActionRepo(Repository):
    """The per-table move log."""

    async def append(
        self, table_id: int, expected_version: int, entries: Iterable[NewAction]
    ) -> int:
        """Append ``entries`` to the log and bump the version by one per entry.

        In one transaction (or the caller's): checks the table is ``active`` and at
        ``expected_version``, inserts the actions with consecutive ``seq`` numbers
        and bumps the version. Raises :class:`VersionConflict`,
        :class:`TableNotActive` or :class:`TableNotFound` having written nothing.
        Returns the new version.
        """
        batch = list(entries)
        if not batch:
            raise ValueError("append() needs at least one action")
        if self.db.dialect == "postgresql":
            return await self._append_in_one_statement(table_id, expected_version, batch)
        async with self.db.atomic():
            # one query (locking the table row): its version, status and next seq
            row = await self.db.fetchone(
                "SELECT version, status,"
                " (SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE table_id = ?) AS next_seq"
                f" FROM tables WHERE id = ?{self.db.for_update}",
                (table_id, table_id),
            )
            if row is None:
                raise TableNotFound(table_id)
            if row["version"] != expected_version:
                raise VersionConflict(table_id, expected_version, row["version"])
            if row["status"] != "active":
                raise TableNotActive(table_id, row["status"])
            next_seq = int(row["next_seq"])
            now = self.db.clock()
            await self.db.executemany(
                "INSERT INTO actions (table_id, seq, seat, action, actor_id, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (table_id, next_seq + i, e.seat, e.action, e.actor_id, now)
                    for i, e in enumerate(batch)
                ],
            )
            await self.db.execute(
                "UPDATE tables SET version = version + ?, updated_at = ? WHERE id = ?",
                (len(batch), now, table_id),
            )
            return expected_version + len(batch)

    async def _append_in_one_statement(
        self, table_id: int, expected_version: int, batch: builtins.list[NewAction]
    ) -> int:
        """:meth:`append` on PostgreSQL in one round trip: the version is bumped only if
        the row is ``active`` at ``expected_version`` (the UPDATE locks it, and a
        concurrent append waits, then finds the version moved), and the actions are
        inserted only if it was. A refusal reads the row once more to say why."""
        now = self.db.clock()
        row = await self.db.fetchone(
            "WITH bumped AS ("
            " UPDATE tables SET version = version + ?, updated_at = ?"
            " WHERE id = ? AND version = ? AND status = 'active' RETURNING version),"
            " added AS ("
            " INSERT INTO actions (table_id, seq, seat, action, actor_id, created_at)"
            " SELECT ?, n.next_seq + u.i - 1, u.seat, u.action, u.actor_id, ?"
            " FROM bumped,"
            " (SELECT COALESCE(MAX(seq) + 1, 0) AS next_seq FROM actions WHERE table_id = ?) n,"
            " unnest(?::integer[], ?::text[], ?::bigint[])"
            " WITH ORDINALITY AS u(seat, action, actor_id, i)"
            " RETURNING 1)"
            " SELECT (SELECT version FROM bumped) AS version, (SELECT COUNT(*) FROM added) AS n",
            (
                len(batch),
                now,
                table_id,
                expected_version,
                table_id,
                now,
                table_id,
                [e.seat for e in batch],
                [e.action for e in batch],
                [e.actor_id for e in batch],
            ),
        )
        if row is not None and row["version"] is not None:
            assert row["n"] == len(batch)
            return int(row["version"])
        found = await self.db.fetchone(
            "SELECT version, status FROM tables WHERE id = ?", (table_id,)
        )
        if found is None:
            raise TableNotFound(table_id)
        if found["version"] != expected_version:
            raise VersionConflict(table_id, expected_version, found["version"])
        raise TableNotActive(table_id, found["status"])

    async def list(self, table_id: int) -> builtins.list[ActionRow]:
        """Every action of the table, in ``seq`` order."""
        rows = await self.db.fetchall(
            "SELECT * FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
        )
        return [_action_row(r) for r in rows]

    async def list_active(self) -> dict[int, builtins.list[ActionRow]]:
        """The logs of every active table, by table id, in one query (for resume)."""
        rows = await self.db.fetchall(
            "SELECT a.* FROM actions a JOIN tables t ON t.id = a.table_id"
            " WHERE t.status = 'active' ORDER BY a.table_id, a.seq"
        )
        logs: dict[int, builtins.list[ActionRow]] = {}
        for r in rows:
            logs.setdefault(r["table_id"], []).append(_action_row(r))
        return logs

    async def count(self, table_id: int) -> int:
        """How many actions the table has logged."""
        return int(
            await self.db.fetchval("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table_id,))
        )


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A stored snapshot of a table's game: it covers the first ``seq`` actions."""

    table_id: int
    seq: int
    body: str
    """The engine snapshot as JSON (``engine.records.snapshot``)."""
    digest: str
    """The sha256 of ``body``, hex."""

    @classmethod
    def of(cls, table_id: int, seq: int, body: str) -> Snapshot:
        """A snapshot to store: its digest computed."""
        return cls(table_id, seq, body, hashlib.sha256(body.encode()).hexdigest())

    @property
    def intact(self) -> bool:
        """True if the body is the one its digest was computed from."""
        return hashlib.sha256(self.body.encode()).hexdigest() == self.digest


def _snapshot(r: Row) -> Snapshot:
    return Snapshot(r["table_id"], r["seq"], r["body"], r["digest"])


class SnapshotRepo(Repository):
    """One snapshot per game in play, so a load replays only the tail of its log."""

    async def put(self, snapshot: Snapshot) -> None:
        """Store ``snapshot`` in place of the table's previous one."""
        await self.db.execute(
            "INSERT INTO table_snapshots (table_id, seq, body, digest, created_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq,"
            " body = excluded.body, digest = excluded.digest, created_at = excluded.created_at",
            (snapshot.table_id, snapshot.seq, snapshot.body, snapshot.digest, self.db.clock()),
        )

    async def delete(self, table_id: int) -> None:
        """Forget the table's snapshot (its game is over)."""
        await self.db.execute("DELETE FROM table_snapshots WHERE table_id = ?", (table_id,))

    async def get(self, table_id: int) -> Snapshot | None:
        """The table's snapshot, or None."""
        row = await self.db.fetchone(
            "SELECT * FROM table_snapshots WHERE table_id = ?", (table_id,)
        )
        return None if row is None else _snapshot(row)

    async def get_many(self, table_ids: Iterable[int]) -> dict[int, Snapshot]:
        """The snapshots of ``table_ids`` that have one, by table id."""
        ids = sorted(set(table_ids))
        found: dict[int, Snapshot] = {}
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start : start + CHUNK]
            marks = ", ".join("?" for _ in chunk)
            for r in await self.db.fetchall(
                f"SELECT * FROM table_snapshots WHERE table_id IN ({marks})", tuple(chunk)
            ):
                found[r["table_id"]] = _snapshot(r)
        return found

    async def list_active(self) -> dict[int, Snapshot]:
        """The snapshots of every active table, by table id, in one query (for resume)."""
        rows = await self.db.fetchall(
            "SELECT s.* FROM table_snapshots s JOIN tables t ON t.id = s.table_id"
            " WHERE t.status = 'active'"
        )
        return {r["table_id"]: _snapshot(r) for r in rows}
