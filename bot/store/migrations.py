"""Numbered schema migrations, applied in order at start-up.

The current schema version lives in ``PRAGMA user_version``. Each migration runs in
its own transaction together with the bump of ``user_version``, so a failed
migration leaves the database at the previous version. Never edit a migration
that has shipped: append a new one.

Conventions:

* times are Unix epoch seconds stored as REAL (``time.time()``);
* Discord snowflakes are INTEGER (they fit in SQLite's signed 64 bits);
* JSON columns are TEXT checked with ``json_valid``;
* tables are ``STRICT`` so a wrong type is an error, not a silent coercion.
"""

from __future__ import annotations

V1 = """
-- One row per game table: a lobby that becomes a game, then finishes or is cancelled.
CREATE TABLE tables (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    message_id    INTEGER,                       -- the public table message, once posted
    creator_id    INTEGER NOT NULL,
    game_id       TEXT    NOT NULL CHECK (length(game_id) > 0),
    preset        TEXT    NOT NULL CHECK (length(preset) > 0),
    overrides     TEXT    NOT NULL DEFAULT '{}'
                  CHECK (json_valid(overrides) AND json_type(overrides) = 'object'),
    seed          INTEGER NOT NULL,
    first_dealer  INTEGER CHECK (first_dealer BETWEEN 0 AND 3),
    status        TEXT    NOT NULL DEFAULT 'lobby'
                  CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    -- JSON list, one entry per seat: null, {"user_id": int, "name": str}
    -- or {"ai": "easy"|"normal"|"hard", "name": str}. Four seats, except the
    -- 2- and 3-handed Ruff and Trump variants (RULES.md section 4).
    seats         TEXT    NOT NULL
                  CHECK (json_valid(seats) AND json_type(seats) = 'array'
                         AND json_array_length(seats) BETWEEN 2 AND 4),
    settings      TEXT    NOT NULL DEFAULT '{}'
                  CHECK (json_valid(settings) AND json_type(settings) = 'object'),
    -- Bumped on every accepted change; buttons carry it and are checked on arrival.
    version       INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL
) STRICT;

-- At most one open (lobby or active) table per channel.
CREATE UNIQUE INDEX tables_one_open_per_channel
    ON tables (channel_id) WHERE status IN ('lobby', 'active');
-- Start-up scan for tables to resume.
CREATE INDEX tables_unfinished
    ON tables (status) WHERE status IN ('lobby', 'active');
CREATE INDEX tables_by_guild ON tables (guild_id, created_at);

-- The move log: seed + actions replayed through the engine rebuild the game.
CREATE TABLE actions (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    action      TEXT    NOT NULL CHECK (length(action) > 0),   -- engine encoding, e.g. "play:10H"
    actor_id    INTEGER,                                       -- Discord user id; NULL for AI
    created_at  REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
) STRICT, WITHOUT ROWID;

-- The DM hand message of each seat, so it can be edited after a restart.
CREATE TABLE hand_messages (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
) STRICT, WITHOUT ROWID;

-- One row per human player per finished game (AI seats are not ranked).
CREATE TABLE results (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    side        INTEGER NOT NULL CHECK (side BETWEEN 0 AND 3),
    won         INTEGER NOT NULL CHECK (won IN (0, 1)),
    points      INTEGER NOT NULL,     -- the player's side's final score
    opp_points  INTEGER NOT NULL,     -- the best opposing score
    finished_at REAL    NOT NULL,
    PRIMARY KEY (table_id, user_id)
) STRICT;

CREATE INDEX results_by_guild_user ON results (guild_id, user_id);

-- Turn and lobby timers that must survive a restart: at most one per table.
CREATE TABLE deadlines (
    table_id    INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL CHECK (length(kind) > 0),     -- e.g. 'turn', 'lobby'
    seat        INTEGER CHECK (seat BETWEEN 0 AND 3),
    due_at      REAL    NOT NULL
) STRICT;

CREATE INDEX deadlines_by_due ON deadlines (due_at);
"""

MIGRATIONS: list[tuple[int, str]] = [
    (1, V1),
]
"""``(version, sql)`` pairs, versions 1, 2, 3... in order."""

LATEST_VERSION = MIGRATIONS[-1][0]
