"""Schema step 5: each player's language."""

from __future__ import annotations

from bot.store.migrations.step import Migration

SQLITE = """
-- Each player's language (bot/present/locales.py): the Discord locale of their latest
-- interaction (``de``, ``en-US`` ...), so the hand DMs, which carry no locale,
-- are written in it.
CREATE TABLE user_locales (
    user_id     INTEGER PRIMARY KEY,
    locale      TEXT    NOT NULL CHECK (length(locale) BETWEEN 1 AND 16),
    updated_at  REAL    NOT NULL
) STRICT;
"""

POSTGRESQL = """
CREATE TABLE user_locales (
    user_id     bigint  PRIMARY KEY,
    locale      text    NOT NULL CHECK (length(locale) BETWEEN 1 AND 16),
    updated_at  double precision NOT NULL
);
"""

STEP = Migration(5, sqlite=SQLITE, postgresql=POSTGRESQL)
