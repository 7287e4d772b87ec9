"""Schema step 4: table leases for several processes (and, on PostgreSQL, the
``rh_tables`` announcements of every table change)."""

from __future__ import annotations

from bot.store.migrations.step import Migration

SQLITE = """
-- Several bot processes on one database (bot/cluster/sync.py): the process that runs a
-- table's AI moves and timers holds its lease until ``expires_at`` (epoch
-- seconds) and renews it; a lease that ran out may be claimed by any process.
-- No foreign key: a lease outlives nothing (it is deleted when its table ends,
-- and one of a table that is gone is simply never renewed).
CREATE TABLE table_leases (
    table_id    INTEGER PRIMARY KEY,
    owner       TEXT    NOT NULL CHECK (length(owner) > 0),   -- the process id
    expires_at  REAL    NOT NULL,
    claimed_at  REAL    NOT NULL
) STRICT;

CREATE INDEX table_leases_by_owner ON table_leases (owner);
"""

POSTGRESQL = """
CREATE TABLE table_leases (
    table_id    bigint  PRIMARY KEY,
    owner       text    NOT NULL CHECK (length(owner) > 0),
    expires_at  double precision NOT NULL,
    claimed_at  double precision NOT NULL
);

CREATE INDEX table_leases_by_owner ON table_leases (owner);

-- Every change of a table's version is announced, when its transaction commits,
-- on the channel ``rh_tables`` as "<table id>:<version>:<status>", so every
-- process learns at once that its copy of the table is behind (LISTEN/NOTIFY:
-- no broker beside the database). A new table is announced too.
CREATE FUNCTION rh_announce_table() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('rh_tables', NEW.id || ':' || NEW.version || ':' || NEW.status);
    RETURN NULL;
END
$$;

CREATE TRIGGER tables_announce_insert AFTER INSERT ON tables
    FOR EACH ROW EXECUTE FUNCTION rh_announce_table();
CREATE TRIGGER tables_announce_update AFTER UPDATE ON tables
    FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version
                       OR OLD.message_id IS DISTINCT FROM NEW.message_id)
    EXECUTE FUNCTION rh_announce_table();
"""

STEP = Migration(4, sqlite=SQLITE, postgresql=POSTGRESQL)
