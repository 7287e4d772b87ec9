"""Schema step 6: the engine record version a table's game replays under."""

from __future__ import annotations

from bot.store.migrations.step import Migration

SQLITE = """
-- The version of the engine's records a table's game replays under (engine.records):
-- 1 for every table created before version 2 changed a draw (Bid Whist's first
-- dealer), so their logs replay as they were played.
ALTER TABLE tables ADD COLUMN record_version INTEGER NOT NULL DEFAULT 1
    CHECK (record_version >= 1);
"""

# The SQLite script runs unchanged on PostgreSQL.
STEP = Migration(6, sqlite=SQLITE)
