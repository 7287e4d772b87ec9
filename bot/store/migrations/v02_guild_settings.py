"""Schema step 2: per-server settings (/ruff settings)."""

from __future__ import annotations

from bot.store.migrations.step import Migration

SQLITE = """
-- Per-server settings an admin changes with /ruff settings (pictures on or off,
-- the table's language ...): one JSON object per server, absent keys = defaults.
CREATE TABLE guild_settings (
    guild_id    INTEGER PRIMARY KEY,
    settings    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(settings) AND json_type(settings) = 'object'),
    updated_at  REAL    NOT NULL
) STRICT;
"""

POSTGRESQL = """
CREATE TABLE guild_settings (
    guild_id    bigint  PRIMARY KEY,
    settings    text    NOT NULL DEFAULT '{}' CHECK (rh_json_type(settings) = 'object'),
    updated_at  double precision NOT NULL
);
"""

STEP = Migration(2, sqlite=SQLITE, postgresql=POSTGRESQL)
