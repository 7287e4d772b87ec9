"""Turn and lobby deadlines (``deadlines``): a restart re-arms the timers from them."""

from __future__ import annotations

import builtins

from bot.store.rows import Deadline, Repository


class DeadlineRepo(Repository):
    """Turn and lobby timers that survive a restart (one per table)."""

    async def set(self, table_id: int, kind: str, due_at: float, seat: int | None = None) -> None:
        """Set (or replace) the table's deadline."""
        await self.db.execute(
            """
            INSERT INTO deadlines (table_id, kind, seat, due_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (table_id)
            DO UPDATE SET kind = excluded.kind, seat = excluded.seat, due_at = excluded.due_at
            """,
            (table_id, kind, seat, due_at),
        )

    async def get(self, table_id: int) -> Deadline | None:
        """The table's deadline, or None."""
        row = await self.db.fetchone("SELECT * FROM deadlines WHERE table_id = ?", (table_id,))
        return None if row is None else Deadline(**dict(row))

    async def clear(self, table_id: int) -> bool:
        """Remove the table's deadline; True if there was one."""
        return bool(await self.db.execute("DELETE FROM deadlines WHERE table_id = ?", (table_id,)))

    async def list(self) -> builtins.list[Deadline]:
        """Every pending deadline, soonest first (to re-arm timers at start-up)."""
        rows = await self.db.fetchall("SELECT * FROM deadlines ORDER BY due_at, table_id")
        return [Deadline(**dict(r)) for r in rows]

    async def list_due(self, now: float) -> builtins.list[Deadline]:
        """Deadlines with ``due_at <= now``, soonest first."""
        rows = await self.db.fetchall(
            "SELECT * FROM deadlines WHERE due_at <= ? ORDER BY due_at, table_id", (now,)
        )
        return [Deadline(**dict(r)) for r in rows]
