"""Each player's own options (``/ruff options``): one JSON object per Discord user,
the same at every table and in every server (``player_options``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from bot.store.rows import CHUNK, Repository, dump_json


class PlayerOptionsRepo(Repository):
    """A player's options, stored as one JSON object; keys a later version adds are kept."""

    async def get(self, user_id: int) -> dict[str, Any]:
        """``user_id``'s options; ``{}`` (every default) for a player who set none."""
        row = await self.db.fetchone(
            "SELECT options FROM player_options WHERE user_id = ?", (user_id,)
        )
        return {} if row is None else dict(json.loads(row["options"]))

    async def get_many(self, user_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """The options of each of ``user_ids`` that set any."""
        ids = sorted(set(user_ids))
        found: dict[int, dict[str, Any]] = {}
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start : start + CHUNK]
            marks = ", ".join("?" for _ in chunk)
            for row in await self.db.fetchall(
                f"SELECT user_id, options FROM player_options WHERE user_id IN ({marks})",
                tuple(chunk),
            ):
                found[int(row["user_id"])] = dict(json.loads(row["options"]))
        return found

    async def update(self, user_id: int, changes: Mapping[str, Any]) -> dict[str, Any]:
        """Merge ``changes`` into ``user_id``'s options (a ``None`` value removes the key:
        back to the default); returns the options now stored."""
        async with self.db.atomic():
            options = await self.get(user_id)
            for key, value in changes.items():
                if value is None:
                    options.pop(key, None)
                else:
                    options[key] = value
            await self.db.execute(
                """
                INSERT INTO player_options (user_id, options, updated_at) VALUES (?, ?, ?)
                ON CONFLICT (user_id)
                DO UPDATE SET options = excluded.options, updated_at = excluded.updated_at
                """,
                (user_id, dump_json(options), self.db.clock()),
            )
        return options
