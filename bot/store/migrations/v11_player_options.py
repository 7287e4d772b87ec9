"""Schema step 11: each player's own options (/ruff options)."""

from __future__ import annotations

from bot.store.migrations.step import Migration

SQLITE = """
-- Each player's own options (/ruff options: auto-play a single legal card, ...),
-- one JSON object per Discord user, the same at every table (bot/store/player_options.py).
CREATE TABLE player_options (
    user_id     INTEGER PRIMARY KEY,
    options     TEXT    NOT NULL,
    updated_at  REAL    NOT NULL
) STRICT;
"""

POSTGRESQL = """
CREATE TABLE player_options (
    user_id     bigint  PRIMARY KEY,
    options     text    NOT NULL,
    updated_at  double precision NOT NULL
);
"""

STEP = Migration(11, sqlite=SQLITE, postgresql=POSTGRESQL)
