"""The move log (``actions``) and its snapshots: what was played, in order, and a
game state every few moves so a start replays only the tail; the log stays the truth."""

from __future__ import annotations

import builtins
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from bot.store.db import Row, see_through
from bot.store.deadlines import DeadlineRepo
from bot.store.rows import (
    CHUNK,
    ActionRow,
    Deadline,
    LeaseNotHeld,
    NewAction,
    Repository,
    TableNotActive,
    TableNotFound,
    VersionConflict,
)

# The move in one statement (PostgreSQL): $1 actions at $2 (now) to table $3 at version
# $4, fenced by the lease of $5 (NULL: no lease needed); $6..$8 the actions' seats,
# codes and actors; $9..$11 the snapshot (NULL: none); $12..$14 the deadline (NULL: none).
# Data-modifying CTEs all run, once; each writes only if "bumped" has its row.
_APPEND_PG = (
    "WITH bumped AS ("
    " UPDATE tables SET version = version + $1, updated_at = $2"
    " WHERE id = $3 AND version = $4 AND status = 'active'"
    " AND ($5::text IS NULL OR EXISTS (SELECT 1 FROM table_leases"
    " WHERE table_id = $3 AND owner = $5::text FOR SHARE))"
    " RETURNING version),"
    " added AS ("
    " INSERT INTO actions (table_id, seq, seat, action, actor_id, created_at)"
    " SELECT $3, n.next_seq + u.i - 1, u.seat, u.action, u.actor_id, $2"
    " FROM bumped,"
    " (SELECT COALESCE(MAX(seq) + 1, 0) AS next_seq FROM actions WHERE table_id = $3) n,"
    " unnest($6::integer[], $7::text[], $8::bigint[])"
    " WITH ORDINALITY AS u(seat, action, actor_id, i)"
    " RETURNING 1),"
    " snapped AS ("
    " INSERT INTO table_snapshots (table_id, seq, body, digest, created_at)"
    " SELECT $3, $9::integer, $10::text, $11::text, $2 FROM bumped WHERE $9::integer IS NOT NULL"
    " ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq, body = excluded.body,"
    " digest = excluded.digest, created_at = excluded.created_at"
    " RETURNING 1),"
    " timed AS ("
    " INSERT INTO deadlines (table_id, kind, seat, due_at)"
    " SELECT $3, $12::text, $13::integer, $14::double precision FROM bumped"
    " WHERE $12::text IS NOT NULL"
    " ON CONFLICT (table_id) DO UPDATE SET kind = excluded.kind, seat = excluded.seat,"
    " due_at = excluded.due_at"
    " RETURNING 1)"
    " SELECT (SELECT version FROM bumped) AS version, (SELECT COUNT(*) FROM added) AS n,"
    " (SELECT COUNT(*) FROM snapped) AS snapped, (SELECT COUNT(*) FROM timed) AS timed"
)


# the log's columns in ActionRow's order: a row becomes an ActionRow by position
_ACTION_COLUMNS = "table_id, seq, seat, action, actor_id, created_at"


class ActionRepo(Repository):
    """The per-table move log."""

    async def append(
        self,
        table_id: int,
        expected_version: int,
        entries: Iterable[NewAction],
        *,
        snapshot: Snapshot | None = None,
        deadline: Deadline | None = None,
        lease_owner: str | None = None,
    ) -> int:
        """Append ``entries`` to the log and bump the version by one per entry.

        Atomic on its own (or inside the caller's transaction): checks the table is
        ``active`` and at ``expected_version`` (and, given ``lease_owner``, that this
        owner holds the table's lease), inserts the actions with consecutive ``seq``
        numbers, bumps the version, and writes what goes with the move: the game's
        ``snapshot`` in place of the previous one, and the table's ``deadline`` (the
        next turn's timer). Raises :class:`LeaseNotHeld`, :class:`VersionConflict`,
        :class:`TableNotActive` or :class:`TableNotFound` having written nothing.
        Returns the new version.

        On PostgreSQL this is one statement, and outside a transaction its own
        transaction: one round trip to the server for the whole move.
        """
        batch = list(entries)
        if not batch:
            raise ValueError("append() needs at least one action")
        if self.db.dialect == "postgresql":
            return await self._append_in_one_statement(
                table_id, expected_version, batch, snapshot, deadline, lease_owner
            )
        async with self.db.atomic():
            if lease_owner is not None:
                owner = await self.db.fetchval(
                    "SELECT owner FROM table_leases WHERE table_id = ?", (table_id,)
                )
                if owner != lease_owner:
                    raise LeaseNotHeld(table_id, owner)
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
            if snapshot is not None:
                await SnapshotRepo(self.db).put(snapshot)
            if deadline is not None:
                await DeadlineRepo(self.db).set(
                    table_id, deadline.kind, deadline.due_at, deadline.seat
                )
            return expected_version + len(batch)

    async def _append_in_one_statement(
        self,
        table_id: int,
        expected_version: int,
        batch: builtins.list[NewAction],
        snapshot: Snapshot | None,
        deadline: Deadline | None,
        lease_owner: str | None,
    ) -> int:
        """:meth:`append` on PostgreSQL in one round trip: the version is bumped only if
        the row is ``active`` at ``expected_version`` and (given ``lease_owner``) the
        lease row names that owner — the UPDATE locks the table row and the lease row
        is read ``FOR SHARE``, so a concurrent append waits, then finds the version
        moved, and a process claiming the lease waits for this move — and the
        actions, the snapshot and the deadline are written only if it was. The text
        is the same for every move (parts left out get NULL), so the server keeps one
        prepared statement per connection. Outside a transaction the statement is its
        own: it is seen through even if the caller is cancelled. A refusal reads the
        row once more to say why."""
        now = self.db.clock()
        params = (
            len(batch),
            now,
            table_id,
            expected_version,
            lease_owner,
            [e.seat for e in batch],
            [e.action for e in batch],
            [e.actor_id for e in batch],
            None if snapshot is None else snapshot.seq,
            None if snapshot is None else snapshot.body,
            None if snapshot is None else snapshot.digest,
            None if deadline is None else deadline.kind,
            None if deadline is None else deadline.seat,
            None if deadline is None else deadline.due_at,
        )
        if self.db.in_transaction:
            row = await self.db.fetchone(_APPEND_PG, params)
        else:
            row = await see_through(self.db.fetchone(_APPEND_PG, params))
        if row is not None and row["version"] is not None:
            assert row["n"] == len(batch)
            return int(row["version"])
        found = await self.db.fetchone(
            "SELECT version, status, (SELECT owner FROM table_leases WHERE table_id = ?) AS owner"
            " FROM tables WHERE id = ?",
            (table_id, table_id),
        )
        if found is None:
            raise TableNotFound(table_id)
        if lease_owner is not None and found["owner"] != lease_owner:
            raise LeaseNotHeld(table_id, found["owner"])
        if found["version"] != expected_version:
            raise VersionConflict(table_id, expected_version, found["version"])
        raise TableNotActive(table_id, found["status"])

    async def list(self, table_id: int) -> builtins.list[ActionRow]:
        """Every action of the table, in ``seq`` order."""
        rows = await self.db.fetchall(
            f"SELECT {_ACTION_COLUMNS} FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
        )
        return [ActionRow(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

    async def list_active(self, tail: int | None = None) -> dict[int, builtins.list[ActionRow]]:
        """The logs of every active table, by table id, in one query (for resume).

        With ``tail``, of a table with a snapshot only what a start needs: the actions
        from ``tail`` before its snapshot's position on (those after it to replay, the
        others to check the snapshot against and to know the latest moves); the whole
        log of a table without one."""
        if tail is None:
            rows = await self.db.fetchall(
                f"SELECT {_ACTION_COLUMNS} FROM actions"
                " WHERE table_id IN (SELECT id FROM tables WHERE status = 'active')"
                " ORDER BY table_id, seq"
            )
        else:
            columns = ", ".join(f"a.{c}" for c in _ACTION_COLUMNS.split(", "))
            rows = await self.db.fetchall(
                f"SELECT {columns} FROM actions a JOIN tables t ON t.id = a.table_id"
                " LEFT JOIN table_snapshots s ON s.table_id = a.table_id"
                " WHERE t.status = 'active' AND a.seq >= COALESCE(s.seq, 0) - ?"
                " ORDER BY a.table_id, a.seq",
                (tail,),
            )
        logs: dict[int, builtins.list[ActionRow]] = {}
        for r in rows:
            action = ActionRow(r[0], r[1], r[2], r[3], r[4], r[5])
            found = logs.get(action.table_id)
            if found is None:
                logs[action.table_id] = [action]
            else:
                found.append(action)
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
