"""Per-server settings and each player's language (``guild_settings``, ``user_locales``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from bot.store.rows import CHUNK, Repository, dump_json


class GuildSettingsRepo(Repository):
    """Per-server settings (``/ruff settings``): one JSON object per server."""

    async def get(self, guild_id: int) -> dict[str, Any]:
        """The server's settings; ``{}`` (every default) for a server that set none."""
        row = await self.db.fetchone(
            "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return {} if row is None else dict(json.loads(row["settings"]))

    async def get_many(self, guild_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """The settings of each of ``guild_ids`` (``{}`` for a server that set none)."""
        ids = sorted(set(guild_ids))
        found: dict[int, dict[str, Any]] = dict.fromkeys(ids, {})
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start : start + CHUNK]
            marks = ", ".join("?" for _ in chunk)
            for row in await self.db.fetchall(
                f"SELECT guild_id, settings FROM guild_settings WHERE guild_id IN ({marks})",
                tuple(chunk),
            ):
                found[int(row["guild_id"])] = dict(json.loads(row["settings"]))
        return {k: dict(v) for k, v in found.items()}

    async def update(self, guild_id: int, changes: Mapping[str, Any]) -> dict[str, Any]:
        """Merge ``changes`` into the server's settings (a ``None`` value removes the
        key: back to the default); returns the settings now stored."""
        async with self.db.atomic():
            settings = await self.get(guild_id)
            for key, value in changes.items():
                if value is None:
                    settings.pop(key, None)
                else:
                    settings[key] = value
            await self.db.execute(
                """
                INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?)
                ON CONFLICT (guild_id)
                DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at
                """,
                (guild_id, dump_json(settings), self.db.clock()),
            )
        return settings


class UserLocaleRepo(Repository):
    """Each player's Discord locale, from their latest interaction (``bot.present.locales``)."""

    async def get_many(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The stored locale of each of ``user_ids`` that has one."""
        ids = sorted(set(user_ids))
        found: dict[int, str] = {}
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start : start + CHUNK]
            marks = ", ".join("?" for _ in chunk)
            rows = await self.db.fetchall(
                f"SELECT user_id, locale FROM user_locales WHERE user_id IN ({marks})",
                tuple(chunk),
            )
            found.update((int(row["user_id"]), str(row["locale"])) for row in rows)
        return found

    async def set(self, user_id: int, locale: str) -> None:
        """Store ``locale`` as ``user_id``'s (replacing the one before)."""
        await self.db.execute(
            """
            INSERT INTO user_locales (user_id, locale, updated_at) VALUES (?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at
            """,
            (user_id, locale[:16], self.db.clock()),
        )
