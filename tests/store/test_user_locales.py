"""The players' locales (migration 5, ``user_locales``), on both backends."""

from __future__ import annotations

from bot.store import Database, UserLocaleRepo
from bot.tables.user_locales import UserLocales


async def test_user_locales_are_stored_replaced_and_read_back(db: Database) -> None:
    repo = UserLocaleRepo(db)
    assert await repo.get_many([1, 2]) == {}
    await repo.set(1, "de")
    await repo.set(2, "en-US")
    await repo.set(1, "en-GB")  # the latest interaction wins
    assert await repo.get_many([1, 2, 3]) == {1: "en-GB", 2: "en-US"}
    assert await repo.get_many([]) == {}


async def test_a_players_language_survives_a_new_process(db: Database) -> None:
    """What one bot process remembered, the next one reads back (the DMs of a resumed table)."""
    first = UserLocales(UserLocaleRepo(db))
    first.remember(42, "de")
    assert first.language(42) == "de"
    assert await UserLocaleRepo(db).get_many([42]) == {}  # remembered, not yet stored
    await first.save([42, 43])
    assert await UserLocaleRepo(db).get_many([42, 43]) == {42: "de"}
    later = UserLocales(UserLocaleRepo(db))
    assert later.language(42) == "en"  # not loaded yet: English
    await later.load([42, 43])
    assert later.language(42) == "de" and later.language(43) == "en"
