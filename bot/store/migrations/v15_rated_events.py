"""Schema step 15: events a server chose to rate."""

from __future__ import annotations

from bot.store.migrations.step import Migration

SQLITE = """
-- An event the server chose to rate (issue #39, bot/store/events.py): its boards count
-- for the ratings and the stats as ordinary games do. Events made before were unrated.
ALTER TABLE events ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
"""

# The SQLite script runs unchanged on PostgreSQL.
STEP = Migration(15, sqlite=SQLITE)
