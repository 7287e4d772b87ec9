"""Each player's language, for the texts that reach them outside an interaction.

The Discord side (the first step of an interaction, the slash commands'
translator) is ``bot.present.locales``.

An interaction carries its user's Discord locale, so an ephemeral answer is
written in it (:func:`bot.present.i18n.enter`). A DM carries none: the hand DMs, the
"your time ran out" notes and the like are written in the locale of the
player's *latest* interaction, which :meth:`UserLocales.remember` keeps in
memory. It reaches the database (``user_locales``, migration 5) when it
matters, so it survives a restart: :meth:`UserLocales.save` when the players of
a table get their hands (a game starts, a new deal, a rematch). Writing it on
every click would make a refused click change the database, which a refusal
never does. A player the bot has never heard from reads English.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from bot.present.i18n import DEFAULT, enter, language_of
from bot.store import StoreError, UserLocaleRepo

log = logging.getLogger(__name__)

__all__ = ["UserLocales"]

CACHED = 65536  # players whose locale is kept in memory (a dict, cleared when full)


class UserLocales:
    """The Discord locale of each player's latest interaction; reads from memory."""

    def __init__(self, repo: UserLocaleRepo) -> None:
        self.repo = repo
        self._cache: dict[int, str] = {}
        self._stored: dict[int, str] = {}  # what the database holds, as far as this process knows
        self._read: set[int] = set()  # players whose stored locale was read (found or not)

    def language(self, user_id: int) -> str:
        """The bot language to write to ``user_id`` in (English for a player not yet seen)."""
        return language_of(self._cache.get(user_id, DEFAULT))

    def remember(self, user_id: int, locale: str) -> None:
        """``user_id`` just interacted with ``locale``: use it for them from now on."""
        if not locale or self._cache.get(user_id) == locale:
            return
        if len(self._cache) >= CACHED:
            self._cache.clear()
            self._stored.clear()
            self._read.clear()
        self._cache[user_id] = locale

    async def save(self, user_ids: Iterable[int]) -> None:
        """Store the locales of ``user_ids`` that changed since they were last stored
        (a table's players, as they get their hands). A failed write is logged; the
        locale is used from memory all the same, and written on the next save."""
        for user_id in set(user_ids):
            locale = self._cache.get(user_id)
            if locale is None or self._stored.get(user_id) == locale:
                continue
            try:
                await self.repo.set(user_id, locale)
            except StoreError:
                log.warning("could not store the locale of user %s", user_id, exc_info=True)
                continue
            self._stored[user_id] = locale

    async def load(self, user_ids: Iterable[int]) -> None:
        """Read the stored locales of ``user_ids`` not in memory (the players of the
        tables resumed after a restart)."""
        missing = [u for u in set(user_ids) if u not in self._cache and u not in self._read]
        if not missing:
            return
        if len(self._read) + len(missing) > CACHED:
            self._read.clear()
        try:
            stored = await self.repo.get_many(missing)
        except StoreError:
            log.warning(
                "could not read the players' locales; they read English until they click",
                exc_info=True,
            )
            return
        self._cache.update(stored)
        self._stored.update(stored)
        self._read.update(missing)

    async def enter(self, interaction: Any) -> str:
        """An interaction arrived: answer it in its user's language and remember that
        locale for their DMs. Returns the bot language."""
        language = enter(interaction)
        locale = getattr(interaction, "locale", None)
        user = getattr(interaction, "user", None)
        if locale is not None and user is not None:
            self.remember(user.id, str(getattr(locale, "value", locale)))
        return language
