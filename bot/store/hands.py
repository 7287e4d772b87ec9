"""The hand DMs of each table (``hand_messages``): edited, not sent anew, after a restart."""

from __future__ import annotations

import builtins

from bot.store.rows import HandMessage, Repository


class HandMessageRepo(Repository):
    """The DM hand message of each seat."""

    async def set(self, table_id: int, seat: int, channel_id: int, message_id: int) -> None:
        """Record (or replace) the seat's hand message."""
        await self.db.execute(
            """
            INSERT INTO hand_messages (table_id, seat, channel_id, message_id)
            VALUES (?, ?, ?, ?)
            ON CONFLICT (table_id, seat)
            DO UPDATE SET channel_id = excluded.channel_id, message_id = excluded.message_id
            """,
            (table_id, seat, channel_id, message_id),
        )

    async def get(self, table_id: int, seat: int) -> HandMessage | None:
        """The seat's hand message, or None."""
        row = await self.db.fetchone(
            "SELECT * FROM hand_messages WHERE table_id = ? AND seat = ?", (table_id, seat)
        )
        return None if row is None else HandMessage(**dict(row))

    async def list(self, table_id: int) -> builtins.list[HandMessage]:
        """Every recorded hand message of the table, by seat."""
        rows = await self.db.fetchall(
            "SELECT * FROM hand_messages WHERE table_id = ? ORDER BY seat", (table_id,)
        )
        return [HandMessage(**dict(r)) for r in rows]

    async def list_active(self) -> dict[int, builtins.list[HandMessage]]:
        """The hand messages of every active table, by table id, in one query (for resume)."""
        rows = await self.db.fetchall(
            "SELECT h.* FROM hand_messages h JOIN tables t ON t.id = h.table_id"
            " WHERE t.status = 'active' ORDER BY h.table_id, h.seat"
        )
        found: dict[int, builtins.list[HandMessage]] = {}
        for r in rows:
            found.setdefault(r["table_id"], []).append(HandMessage(**dict(r)))
        return found

    async def delete(self, table_id: int, seat: int | None = None) -> int:
        """Forget one seat's hand message, or all of the table's; returns rows removed."""
        if seat is None:
            return await self.db.execute(
                "DELETE FROM hand_messages WHERE table_id = ?", (table_id,)
            )
        return await self.db.execute(
            "DELETE FROM hand_messages WHERE table_id = ? AND seat = ?", (table_id, seat)
        )
