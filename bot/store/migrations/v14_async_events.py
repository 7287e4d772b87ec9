"""Schema step 14: the asynchronous event format and its deadline."""

from __future__ import annotations

from bot.store.migrations.step import Migration

SQLITE = """
-- The asynchronous event (issue #39, bot/tables/events/asynchronous.py): each entrant
-- plays the event's boards alone against the AI (their rows are daily_results', series
-- ``event-<id>-<seed>``) until ``deadline_at``; NULL for the live formats.
-- A fourth format: SQLite cannot alter a CHECK, and rebuilding ``events`` would cascade
-- to its children (foreign keys are on), so the CHECK is widened in place, the way
-- SQLite's documentation gives for loosening a constraint (every stored row satisfies
-- the wider one): the table's SQL edited in sqlite_schema, then the schema reloaded
-- (RESET); the ALTER below bumps the schema cookie, so other connections reload too.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
   SET sql = replace(sql, 'CHECK (format IN (''individual'', ''pairs'', ''swiss''))',
                     'CHECK (format IN (''individual'', ''pairs'', ''swiss'', ''async''))')
 WHERE type = 'table' AND name = 'events';
PRAGMA writable_schema = RESET;
ALTER TABLE events ADD COLUMN deadline_at REAL;
"""

POSTGRESQL = """
ALTER TABLE events DROP CONSTRAINT events_format_check;
ALTER TABLE events ADD CONSTRAINT events_format_check
    CHECK (format IN ('individual', 'pairs', 'swiss', 'async'));
ALTER TABLE events ADD COLUMN deadline_at double precision;
"""

STEP = Migration(14, sqlite=SQLITE, postgresql=POSTGRESQL)
