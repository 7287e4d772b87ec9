"""Each player's own options (``/ruff options``), kept with
:class:`~bot.store.PlayerOptionsRepo` and cached in memory. They follow the
player to every table and survive a restart.

One option today (the command is ``bot.discord_ui.options``):

* ``auto_play`` — when the player has exactly one legal card, it is played for
  them after a short visible pause (``RH_AUTO_PLAY_DELAY``), through the same
  commit as a click, and their hand message says so (:mod:`bot.tables.autoplay`).
  Off unless the player turns it on.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from bot.store import PlayerOptionsRepo, StoreError

log = logging.getLogger(__name__)

__all__ = ["PlayerOptions"]

CACHED = 16384  # players whose options are kept in memory (a dict, cleared when full)
FRESH = 30.0  # seconds an option read from the store is trusted before it is read again


class PlayerOptions:
    """Reads and changes a player's options; reads are served from memory."""

    def __init__(self, repo: PlayerOptionsRepo) -> None:
        self.repo = repo
        self._cache: dict[int, tuple[float, dict[str, Any]]] = {}

    async def get(self, user_id: int) -> dict[str, Any]:
        """``user_id``'s options (``{}``: every default; also when the store cannot be read).
        Read again after :data:`FRESH` seconds: with several processes, a change made
        through another one reaches the tables here within that time."""
        cached = self._cache.get(user_id)
        if cached is not None and time.monotonic() - cached[0] < FRESH:
            return cached[1]
        try:
            stored = await self.repo.get(user_id)
        except StoreError:
            log.warning("could not read the options of user %s", user_id, exc_info=True)
            return {}
        if len(self._cache) >= CACHED:
            self._cache.clear()
        self._cache[user_id] = (time.monotonic(), stored)
        return stored

    async def auto_play(self, user_id: int) -> bool:
        """Whether ``user_id`` chose to have a single legal card played for them."""
        return bool((await self.get(user_id)).get("auto_play", False))

    async def set_auto_play(self, user_id: int, on: bool) -> None:
        """Turn ``user_id``'s auto-play on or off (off is the default: no entry).
        Raises a store error when it could not be saved (nothing changed)."""
        stored = await self.repo.update(user_id, {"auto_play": True if on else None})
        self._cache[user_id] = (time.monotonic(), stored)
