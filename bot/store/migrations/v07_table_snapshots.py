"""Schema step 7: snapshots of games in play, so a start replays only the log's tail."""

from __future__ import annotations

from bot.store.migrations.step import Migration

SQLITE = """
-- A snapshot of each game in play (engine.records.snapshot), written with a move
-- every few moves, so a start (or a copy loaded by another process) replays only
-- the tail of the log. The log stays the truth: ``seq`` is how many actions the
-- snapshot covers and its body carries them, ``digest`` is the body's sha256; a
-- snapshot whose actions are not the first ``seq`` of the table's log, or whose
-- digest does not match, is ignored and the whole log replayed.
CREATE TABLE table_snapshots (
    table_id    INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    body        TEXT    NOT NULL,
    digest      TEXT    NOT NULL,
    created_at  REAL    NOT NULL
) STRICT;
"""

POSTGRESQL = """
CREATE TABLE table_snapshots (
    table_id    bigint  PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    seq         integer NOT NULL CHECK (seq >= 0),
    body        text    NOT NULL,
    digest      text    NOT NULL,
    created_at  double precision NOT NULL
);
"""

STEP = Migration(7, sqlite=SQLITE, postgresql=POSTGRESQL)
