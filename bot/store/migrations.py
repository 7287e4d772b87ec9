"""Numbered schema migrations, applied in order at start-up, for both backends.

One history serves SQLite and PostgreSQL: each :class:`Migration` is one numbered
step with the SQL of each dialect (``postgresql`` is left out when the SQLite text
runs unchanged there). A database is always at one version of that single list,
whatever its backend, so ``bot.store.copy`` can move a database between them.

The current version lives in ``PRAGMA user_version`` (SQLite) or in the one-row
table ``schema_version`` (PostgreSQL). Each migration runs in its own
transaction together with the bump of the version, so a failed migration leaves
the database at the previous version. Never edit a migration that has shipped:
append a new one, with both dialects.

Conventions (SQLite / PostgreSQL):

* times are Unix epoch seconds stored as REAL / double precision (``time.time()``);
* Discord snowflakes are INTEGER / bigint (signed 64 bits);
* JSON columns are TEXT on both, checked with ``json_valid`` / ``rh_json_type``,
  so the stored text is byte for byte what the repositories wrote;
* SQLite tables are ``STRICT`` so a wrong type is an error, not a silent coercion;
* constraint and index names are the same on both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

Dialect: TypeAlias = Literal["sqlite", "postgresql"]
DIALECTS: tuple[Dialect, ...] = ("sqlite", "postgresql")

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

V1_POSTGRESQL = """
-- The JSON type of a text ('object', 'array', ...), or NULL if it is not JSON: the
-- CHECKs below then fail as check violations, as json_valid() makes them in SQLite.
CREATE FUNCTION rh_json_type(doc text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
    RETURN jsonb_typeof(doc::jsonb);
EXCEPTION WHEN others THEN
    RETURN NULL;
END
$$;

CREATE TABLE tables (
    id            bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    guild_id      bigint  NOT NULL,
    channel_id    bigint  NOT NULL,
    message_id    bigint,
    creator_id    bigint  NOT NULL,
    game_id       text    NOT NULL CHECK (length(game_id) > 0),
    preset        text    NOT NULL CHECK (length(preset) > 0),
    overrides     text    NOT NULL DEFAULT '{}'
                  CHECK (rh_json_type(overrides) = 'object'),
    seed          bigint  NOT NULL,
    first_dealer  integer CHECK (first_dealer BETWEEN 0 AND 3),
    status        text    NOT NULL DEFAULT 'lobby'
                  CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    seats         text    NOT NULL
                  CHECK (CASE WHEN rh_json_type(seats) = 'array'
                              THEN jsonb_array_length(seats::jsonb) BETWEEN 2 AND 4
                              ELSE false END),
    settings      text    NOT NULL DEFAULT '{}'
                  CHECK (rh_json_type(settings) = 'object'),
    version       bigint  NOT NULL DEFAULT 0 CHECK (version >= 0),
    created_at    double precision NOT NULL,
    updated_at    double precision NOT NULL
);

CREATE UNIQUE INDEX tables_one_open_per_channel
    ON tables (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX tables_unfinished
    ON tables (status) WHERE status IN ('lobby', 'active');
CREATE INDEX tables_by_guild ON tables (guild_id, created_at);

CREATE TABLE actions (
    table_id    bigint  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq         integer NOT NULL CHECK (seq >= 0),
    seat        integer NOT NULL CHECK (seat BETWEEN 0 AND 3),
    action      text    NOT NULL CHECK (length(action) > 0),
    actor_id    bigint,
    created_at  double precision NOT NULL,
    PRIMARY KEY (table_id, seq)
);

CREATE TABLE hand_messages (
    table_id    bigint  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat        integer NOT NULL CHECK (seat BETWEEN 0 AND 3),
    channel_id  bigint  NOT NULL,
    message_id  bigint  NOT NULL,
    PRIMARY KEY (table_id, seat)
);

CREATE TABLE results (
    table_id    bigint  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    guild_id    bigint  NOT NULL,
    user_id     bigint  NOT NULL,
    name        text    NOT NULL,
    side        integer NOT NULL CHECK (side BETWEEN 0 AND 3),
    won         integer NOT NULL CHECK (won IN (0, 1)),
    points      integer NOT NULL,
    opp_points  integer NOT NULL,
    finished_at double precision NOT NULL,
    PRIMARY KEY (table_id, user_id)
);

CREATE INDEX results_by_guild_user ON results (guild_id, user_id);

CREATE TABLE deadlines (
    table_id    bigint  PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    kind        text    NOT NULL CHECK (length(kind) > 0),
    seat        integer CHECK (seat BETWEEN 0 AND 3),
    due_at      double precision NOT NULL
);

CREATE INDEX deadlines_by_due ON deadlines (due_at);
"""


V2 = """
-- Per-server settings an admin changes with /ruff settings (pictures on or off,
-- the table's language ...): one JSON object per server, absent keys = defaults.
CREATE TABLE guild_settings (
    guild_id    INTEGER PRIMARY KEY,
    settings    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(settings) AND json_type(settings) = 'object'),
    updated_at  REAL    NOT NULL
) STRICT;
"""

V2_POSTGRESQL = """
CREATE TABLE guild_settings (
    guild_id    bigint  PRIMARY KEY,
    settings    text    NOT NULL DEFAULT '{}' CHECK (rh_json_type(settings) = 'object'),
    updated_at  double precision NOT NULL
);
"""


V3 = """
-- Ratings (bot/store/ratings.py): one rating event per finished table, the rating of
-- every player (a Discord user, or an AI level) per server and game id, and the
-- change each event made. Written in the transaction that finishes the table.

-- What the rating needs of a finished game, so ratings can be rebuilt from the
-- database alone: the teams (player keys, names, seats) and their ranks (0 = won).
CREATE TABLE rating_events (
    table_id    INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    game_id     TEXT    NOT NULL CHECK (length(game_id) > 0),
    -- JSON list of {"rank": int, "players": [{"key": str, "name": str, "seat": int|null}]}
    teams       TEXT    NOT NULL
                CHECK (json_valid(teams) AND json_type(teams) = 'array'
                       AND json_array_length(teams) >= 2),
    -- 'game': built from the finished game; 'replay': rebuilt later by replaying its
    -- move log; 'results': rebuilt from the results rows (humans only)
    source      TEXT    NOT NULL CHECK (source IN ('game', 'replay', 'results')),
    finished_at REAL    NOT NULL
) STRICT;

CREATE INDEX rating_events_in_order ON rating_events (finished_at, table_id);

-- A player's rating in one server and game id. ``player`` is the decimal user id
-- of a person or 'ai:<level>' of an AI level; mu and sigma are the model's.
CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    game_id     TEXT    NOT NULL CHECK (length(game_id) > 0),
    player      TEXT    NOT NULL CHECK (length(player) > 0),
    name        TEXT    NOT NULL,     -- the name in the player's latest rated game
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL CHECK (sigma > 0),
    games       INTEGER NOT NULL CHECK (games >= 0),
    wins        INTEGER NOT NULL CHECK (wins BETWEEN 0 AND games),
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, game_id, player)
) STRICT;

CREATE INDEX ratings_by_player ON ratings (guild_id, player);

-- The change one finished table made to one player's rating.
CREATE TABLE rating_history (
    table_id     INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    player       TEXT    NOT NULL CHECK (length(player) > 0),
    guild_id     INTEGER NOT NULL,
    game_id      TEXT    NOT NULL,
    won          INTEGER NOT NULL CHECK (won IN (0, 1)),
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    finished_at  REAL    NOT NULL,
    PRIMARY KEY (table_id, player)
) STRICT;

CREATE INDEX rating_history_by_player ON rating_history (guild_id, player, finished_at);
"""

V3_POSTGRESQL = """
CREATE TABLE rating_events (
    table_id    bigint  PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    guild_id    bigint  NOT NULL,
    game_id     text    NOT NULL CHECK (length(game_id) > 0),
    teams       text    NOT NULL
                CHECK (CASE WHEN rh_json_type(teams) = 'array'
                            THEN jsonb_array_length(teams::jsonb) >= 2
                            ELSE false END),
    source      text    NOT NULL CHECK (source IN ('game', 'replay', 'results')),
    finished_at double precision NOT NULL
);

CREATE INDEX rating_events_in_order ON rating_events (finished_at, table_id);

CREATE TABLE ratings (
    guild_id    bigint  NOT NULL,
    game_id     text    NOT NULL CHECK (length(game_id) > 0),
    player      text    NOT NULL CHECK (length(player) > 0),
    name        text    NOT NULL,
    mu          double precision NOT NULL,
    sigma       double precision NOT NULL CHECK (sigma > 0),
    games       integer NOT NULL CHECK (games >= 0),
    wins        integer NOT NULL CHECK (wins BETWEEN 0 AND games),
    updated_at  double precision NOT NULL,
    PRIMARY KEY (guild_id, game_id, player)
);

CREATE INDEX ratings_by_player ON ratings (guild_id, player);

CREATE TABLE rating_history (
    table_id     bigint  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    player       text    NOT NULL CHECK (length(player) > 0),
    guild_id     bigint  NOT NULL,
    game_id      text    NOT NULL,
    won          integer NOT NULL CHECK (won IN (0, 1)),
    mu_before    double precision NOT NULL,
    sigma_before double precision NOT NULL,
    mu_after     double precision NOT NULL,
    sigma_after  double precision NOT NULL,
    finished_at  double precision NOT NULL,
    PRIMARY KEY (table_id, player)
);

CREATE INDEX rating_history_by_player ON rating_history (guild_id, player, finished_at);
"""


V4 = """
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

V4_POSTGRESQL = """
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


V5 = """
-- Each player's language (bot/present/locales.py): the Discord locale of their latest
-- interaction (``de``, ``en-US`` ...), so the hand DMs, which carry no locale,
-- are written in it.
CREATE TABLE user_locales (
    user_id     INTEGER PRIMARY KEY,
    locale      TEXT    NOT NULL CHECK (length(locale) BETWEEN 1 AND 16),
    updated_at  REAL    NOT NULL
) STRICT;
"""

V5_POSTGRESQL = """
CREATE TABLE user_locales (
    user_id     bigint  PRIMARY KEY,
    locale      text    NOT NULL CHECK (length(locale) BETWEEN 1 AND 16),
    updated_at  double precision NOT NULL
);
"""


V6 = """
-- The version of the engine's records a table's game replays under (engine.records):
-- 1 for every table created before version 2 changed a draw (Bid Whist's first
-- dealer), so their logs replay as they were played.
ALTER TABLE tables ADD COLUMN record_version INTEGER NOT NULL DEFAULT 1
    CHECK (record_version >= 1);
"""


V7 = """
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

V7_POSTGRESQL = """
CREATE TABLE table_snapshots (
    table_id    bigint  PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    seq         integer NOT NULL CHECK (seq >= 0),
    body        text    NOT NULL,
    digest      text    NOT NULL,
    created_at  double precision NOT NULL
);
"""


V10 = """
-- Each player's progress through the lessons (/ruff lesson, bot.store.lessons): the
-- steps done and the actions played so far (a JSON list of the engine's encodings).
CREATE TABLE lesson_progress (
    user_id     INTEGER NOT NULL,
    lesson      TEXT    NOT NULL CHECK (length(lesson) BETWEEN 1 AND 40),
    step        INTEGER NOT NULL CHECK (step >= 0),
    actions     TEXT    NOT NULL DEFAULT '[]'
                CHECK (json_valid(actions) AND json_type(actions) = 'array'),
    finished    INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (user_id, lesson)
) STRICT;
"""

V10_POSTGRESQL = """
CREATE TABLE lesson_progress (
    user_id     bigint  NOT NULL,
    lesson      text    NOT NULL CHECK (length(lesson) BETWEEN 1 AND 40),
    step        integer NOT NULL CHECK (step >= 0),
    actions     text    NOT NULL DEFAULT '[]' CHECK (rh_json_type(actions) = 'array'),
    finished    integer NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
    updated_at  double precision NOT NULL,
    PRIMARY KEY (user_id, lesson)
);
"""


V8 = """
-- Boards played alone against the AI (bot.tables.daily): one row per player and
-- board, made when the player starts it (one attempt per board) and finished once.
-- ``board`` is the board's name (engine.boards: game/preset/series/number),
-- ``series`` the day (YYYY-MM-DD); ``guild_id`` 0 where it was played without a
-- server; ``result`` the player's margin on the board (engine.board_result).
CREATE TABLE daily_results (
    board        TEXT    NOT NULL CHECK (length(board) > 0),
    user_id      INTEGER NOT NULL,
    game_id      TEXT    NOT NULL,
    series       TEXT    NOT NULL,
    number       INTEGER NOT NULL CHECK (number >= 1),
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,                -- where /ruff daily was typed (0: none)
    name         TEXT    NOT NULL,
    table_id     INTEGER UNIQUE REFERENCES tables (id),  -- NULL: never played (the AI's)
    result       INTEGER,                         -- NULL until the board is finished
    by_ai        INTEGER NOT NULL DEFAULT 0 CHECK (by_ai IN (0, 1)),  -- finished by the AI
    started_at   REAL    NOT NULL,
    finished_at  REAL,
    PRIMARY KEY (board, user_id)
) STRICT;
CREATE INDEX daily_results_series ON daily_results (game_id, series);
CREATE INDEX daily_results_user ON daily_results (user_id, game_id, series);
-- The AI's own result in the player's seat of each board (its par), once computed.
CREATE TABLE daily_par (
    board        TEXT    PRIMARY KEY,
    result       INTEGER NOT NULL
) STRICT;
-- A challenge: the same boards (series ``challenge-<id>``) for two players, each
-- played alone by the deadline; opponent_id 0 is the AI (its results are the par).
CREATE TABLE daily_challenges (
    id              INTEGER PRIMARY KEY,
    game_id         TEXT    NOT NULL,
    preset          TEXT    NOT NULL,
    boards          INTEGER NOT NULL CHECK (boards BETWEEN 1 AND 6),
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    challenger_id   INTEGER NOT NULL,
    challenger_name TEXT    NOT NULL,
    opponent_id     INTEGER NOT NULL,
    opponent_name   TEXT    NOT NULL,
    created_at      REAL    NOT NULL,
    deadline_at     REAL    NOT NULL,
    settled_at      REAL
) STRICT;
CREATE INDEX daily_challenges_open ON daily_challenges (settled_at, deadline_at);
"""

V8_POSTGRESQL = """
CREATE TABLE daily_results (
    board        text    NOT NULL CHECK (length(board) > 0),
    user_id      bigint  NOT NULL,
    game_id      text    NOT NULL,
    series       text    NOT NULL,
    number       integer NOT NULL CHECK (number >= 1),
    guild_id     bigint  NOT NULL,
    channel_id   bigint  NOT NULL,
    name         text    NOT NULL,
    table_id     bigint  UNIQUE REFERENCES tables (id),
    result       integer,
    by_ai        integer NOT NULL DEFAULT 0 CHECK (by_ai IN (0, 1)),
    started_at   double precision NOT NULL,
    finished_at  double precision,
    PRIMARY KEY (board, user_id)
);
CREATE INDEX daily_results_series ON daily_results (game_id, series);
CREATE INDEX daily_results_user ON daily_results (user_id, game_id, series);
CREATE TABLE daily_par (
    board        text    PRIMARY KEY,
    result       integer NOT NULL
);
CREATE TABLE daily_challenges (
    id              bigint  GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    game_id         text    NOT NULL,
    preset          text    NOT NULL,
    boards          integer NOT NULL CHECK (boards BETWEEN 1 AND 6),
    guild_id        bigint  NOT NULL,
    channel_id      bigint  NOT NULL,
    challenger_id   bigint  NOT NULL,
    challenger_name text    NOT NULL,
    opponent_id     bigint  NOT NULL,
    opponent_name   text    NOT NULL,
    created_at      double precision NOT NULL,
    deadline_at     double precision NOT NULL,
    settled_at      double precision
);
CREATE INDEX daily_challenges_open ON daily_challenges (settled_at, deadline_at);
"""


V11 = """
-- Each player's own options (/ruff options: auto-play a single legal card, ...),
-- one JSON object per Discord user, the same at every table (bot/store/player_options.py).
CREATE TABLE player_options (
    user_id     INTEGER PRIMARY KEY,
    options     TEXT    NOT NULL,
    updated_at  REAL    NOT NULL
) STRICT;
"""

V11_POSTGRESQL = """
CREATE TABLE player_options (
    user_id     bigint  PRIMARY KEY,
    options     text    NOT NULL,
    updated_at  double precision NOT NULL
);
"""


V9 = """
-- The coach (bot/store/coach.py): a finished deal's review for one seat, kept with
-- the game; the puzzles made of its flagged decisions; who solved which.
CREATE TABLE deal_reviews (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    deal        INTEGER NOT NULL CHECK (deal >= 1),
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    body        TEXT    NOT NULL CHECK (json_valid(body) AND json_type(body) = 'object'),
    created_at  REAL    NOT NULL,
    PRIMARY KEY (table_id, deal, seat)
) STRICT;

CREATE TABLE puzzles (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    deal        INTEGER NOT NULL CHECK (deal >= 1),
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    action      INTEGER NOT NULL CHECK (action >= 0),
    body        TEXT    NOT NULL CHECK (json_valid(body) AND json_type(body) = 'object'),
    created_at  REAL    NOT NULL,
    CONSTRAINT puzzles_position UNIQUE (table_id, seat, action)
) STRICT;
CREATE INDEX puzzles_by_guild ON puzzles (guild_id, user_id);

CREATE TABLE puzzle_attempts (
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    solved      INTEGER NOT NULL CHECK (solved IN (0, 1)),
    answer      TEXT    NOT NULL CHECK (length(answer) BETWEEN 1 AND 8),
    created_at  REAL    NOT NULL,
    PRIMARY KEY (puzzle_id, user_id)
) STRICT;
"""

V9_POSTGRESQL = """
CREATE TABLE deal_reviews (
    table_id    bigint  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    deal        integer NOT NULL CHECK (deal >= 1),
    seat        integer NOT NULL CHECK (seat BETWEEN 0 AND 3),
    body        text    NOT NULL CHECK (rh_json_type(body) = 'object'),
    created_at  double precision NOT NULL,
    PRIMARY KEY (table_id, deal, seat)
);

CREATE TABLE puzzles (
    id          bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    guild_id    bigint  NOT NULL,
    user_id     bigint  NOT NULL,
    table_id    bigint  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    deal        integer NOT NULL CHECK (deal >= 1),
    seat        integer NOT NULL CHECK (seat BETWEEN 0 AND 3),
    action      integer NOT NULL CHECK (action >= 0),
    body        text    NOT NULL CHECK (rh_json_type(body) = 'object'),
    created_at  double precision NOT NULL,
    CONSTRAINT puzzles_position UNIQUE (table_id, seat, action)
);
CREATE INDEX puzzles_by_guild ON puzzles (guild_id, user_id);

CREATE TABLE puzzle_attempts (
    puzzle_id   bigint  NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    user_id     bigint  NOT NULL,
    solved      integer NOT NULL CHECK (solved IN (0, 1)),
    answer      text    NOT NULL CHECK (length(answer) BETWEEN 1 AND 8),
    created_at  double precision NOT NULL,
    PRIMARY KEY (puzzle_id, user_id)
);
"""


V12 = """
-- Events with no director (issue #39, bot/store/events.py): an event of one server, its
-- registrations, rounds, tables (one per group of four a round) and boards (one row
-- per table and board of a round: the table-layer table that plays it, its result).
CREATE TABLE events (
    id                 INTEGER PRIMARY KEY,
    guild_id           INTEGER NOT NULL,
    channel_id         INTEGER NOT NULL,
    creator_id         INTEGER NOT NULL,
    game_id            TEXT    NOT NULL,
    preset             TEXT    NOT NULL,
    format             TEXT    NOT NULL CHECK (format IN ('individual', 'pairs', 'swiss')),
    boards_per_round   INTEGER NOT NULL CHECK (boards_per_round BETWEEN 1 AND 12),
    rounds             INTEGER NOT NULL CHECK (rounds BETWEEN 1 AND 20),
    minutes_per_board  REAL    NOT NULL CHECK (minutes_per_board > 0),
    start_at           REAL    NOT NULL,
    state              TEXT    NOT NULL
                       CHECK (state IN ('registering', 'running', 'finished', 'cancelled')),
    round              INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),
    message_id         INTEGER,
    seed               INTEGER NOT NULL,
    created_at         REAL    NOT NULL
) STRICT;
CREATE INDEX events_by_guild ON events (guild_id, state);

CREATE TABLE event_entries (
    event_id      INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    partner_id    INTEGER,
    checked_in    INTEGER NOT NULL DEFAULT 0 CHECK (checked_in IN (0, 1)),
    joined_round  INTEGER NOT NULL CHECK (joined_round >= 1),
    left_round    INTEGER,
    created_at    REAL    NOT NULL,
    PRIMARY KEY (event_id, user_id)
) STRICT;

CREATE TABLE event_rounds (
    event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL CHECK (number >= 1),
    started_at  REAL    NOT NULL,
    state       TEXT    NOT NULL CHECK (state IN ('playing', 'scored')),
    PRIMARY KEY (event_id, number)
) STRICT;

CREATE TABLE event_tables (
    event_id   INTEGER NOT NULL,
    round      INTEGER NOT NULL,
    number     INTEGER NOT NULL CHECK (number >= 1),
    seats      TEXT    NOT NULL CHECK (json_valid(seats) AND json_type(seats) = 'array'),
    ai_for     TEXT    NOT NULL DEFAULT '[]'
               CHECK (json_valid(ai_for) AND json_type(ai_for) = 'array'),
    thread_id  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (event_id, round, number),
    FOREIGN KEY (event_id, round) REFERENCES event_rounds (event_id, number) ON DELETE CASCADE
) STRICT;

CREATE TABLE event_boards (
    event_id     INTEGER NOT NULL,
    round        INTEGER NOT NULL,
    table_no     INTEGER NOT NULL,
    board        INTEGER NOT NULL CHECK (board >= 1),
    table_id     INTEGER UNIQUE REFERENCES tables (id) ON DELETE SET NULL,
    ns_result    INTEGER,
    skipped      INTEGER NOT NULL DEFAULT 0 CHECK (skipped IN (0, 1)),
    substituted  TEXT    NOT NULL DEFAULT '[]'
                 CHECK (json_valid(substituted) AND json_type(substituted) = 'array'),
    ns_thinking  REAL    NOT NULL DEFAULT 0,
    ew_thinking  REAL    NOT NULL DEFAULT 0,
    finished_at  REAL,
    PRIMARY KEY (event_id, round, table_no, board),
    FOREIGN KEY (event_id, round, table_no)
        REFERENCES event_tables (event_id, round, number) ON DELETE CASCADE
) STRICT;
"""

V12_POSTGRESQL = """
CREATE TABLE events (
    id                 bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    guild_id           bigint  NOT NULL,
    channel_id         bigint  NOT NULL,
    creator_id         bigint  NOT NULL,
    game_id            text    NOT NULL,
    preset             text    NOT NULL,
    format             text    NOT NULL CHECK (format IN ('individual', 'pairs', 'swiss')),
    boards_per_round   integer NOT NULL CHECK (boards_per_round BETWEEN 1 AND 12),
    rounds             integer NOT NULL CHECK (rounds BETWEEN 1 AND 20),
    minutes_per_board  double precision NOT NULL CHECK (minutes_per_board > 0),
    start_at           double precision NOT NULL,
    state              text    NOT NULL
                       CHECK (state IN ('registering', 'running', 'finished', 'cancelled')),
    round              integer NOT NULL DEFAULT 0 CHECK (round >= 0),
    message_id         bigint,
    seed               bigint  NOT NULL,
    created_at         double precision NOT NULL
);
CREATE INDEX events_by_guild ON events (guild_id, state);

CREATE TABLE event_entries (
    event_id      bigint  NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    user_id       bigint  NOT NULL,
    name          text    NOT NULL,
    partner_id    bigint,
    checked_in    integer NOT NULL DEFAULT 0 CHECK (checked_in IN (0, 1)),
    joined_round  integer NOT NULL CHECK (joined_round >= 1),
    left_round    integer,
    created_at    double precision NOT NULL,
    PRIMARY KEY (event_id, user_id)
);

CREATE TABLE event_rounds (
    event_id    bigint  NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    number      integer NOT NULL CHECK (number >= 1),
    started_at  double precision NOT NULL,
    state       text    NOT NULL CHECK (state IN ('playing', 'scored')),
    PRIMARY KEY (event_id, number)
);

CREATE TABLE event_tables (
    event_id   bigint  NOT NULL,
    round      integer NOT NULL,
    number     integer NOT NULL CHECK (number >= 1),
    seats      text    NOT NULL CHECK (rh_json_type(seats) = 'array'),
    ai_for     text    NOT NULL DEFAULT '[]' CHECK (rh_json_type(ai_for) = 'array'),
    thread_id  bigint  NOT NULL DEFAULT 0,
    PRIMARY KEY (event_id, round, number),
    FOREIGN KEY (event_id, round) REFERENCES event_rounds (event_id, number) ON DELETE CASCADE
);

CREATE TABLE event_boards (
    event_id     bigint  NOT NULL,
    round        integer NOT NULL,
    table_no     integer NOT NULL,
    board        integer NOT NULL CHECK (board >= 1),
    table_id     bigint  UNIQUE REFERENCES tables (id) ON DELETE SET NULL,
    ns_result    integer,
    skipped      integer NOT NULL DEFAULT 0 CHECK (skipped IN (0, 1)),
    substituted  text    NOT NULL DEFAULT '[]' CHECK (rh_json_type(substituted) = 'array'),
    ns_thinking  double precision NOT NULL DEFAULT 0,
    ew_thinking  double precision NOT NULL DEFAULT 0,
    finished_at  double precision,
    PRIMARY KEY (event_id, round, table_no, board),
    FOREIGN KEY (event_id, round, table_no)
        REFERENCES event_tables (event_id, round, number) ON DELETE CASCADE
);
"""


V13 = """
-- What a finished board or a settled challenge did once, kept so a restart or a
-- second process never does it twice (bot.features.daily, bot.features.challenge):
-- when a board's share line was posted in its server (NULL: never), and of which
-- challenge a challenge is the rematch (one rematch per challenge: the unique index).
ALTER TABLE daily_results ADD COLUMN shared_at REAL;
ALTER TABLE daily_challenges ADD COLUMN rematch_of INTEGER REFERENCES daily_challenges (id);
CREATE UNIQUE INDEX daily_challenges_rematch ON daily_challenges (rematch_of);
"""

V13_POSTGRESQL = """
ALTER TABLE daily_results ADD COLUMN shared_at double precision;
ALTER TABLE daily_challenges ADD COLUMN rematch_of bigint REFERENCES daily_challenges (id);
CREATE UNIQUE INDEX daily_challenges_rematch ON daily_challenges (rematch_of);
"""

V15 = """
-- An event the server chose to rate (issue #39, bot/store/events.py): its boards count
-- for the ratings and the stats as ordinary games do. Events made before were unrated.
ALTER TABLE events ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
"""


V14 = """
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

V14_POSTGRESQL = """
ALTER TABLE events DROP CONSTRAINT events_format_check;
ALTER TABLE events ADD CONSTRAINT events_format_check
    CHECK (format IN ('individual', 'pairs', 'swiss', 'async'));
ALTER TABLE events ADD COLUMN deadline_at double precision;
"""


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered step of the schema history, in every dialect."""

    version: int
    sqlite: str
    """The SQL script for SQLite."""
    postgresql: str | None = None
    """The SQL script for PostgreSQL; None when the SQLite script runs unchanged."""

    def sql(self, dialect: Dialect) -> str:
        """The script of this step for ``dialect``."""
        if dialect == "postgresql" and self.postgresql is not None:
            return self.postgresql
        return self.sqlite


MigrationLike: TypeAlias = Migration | tuple[int, str]
"""A :class:`Migration`, or ``(version, sql)`` for a step whose SQL is the same in both."""


def as_migration(step: MigrationLike) -> Migration:
    """Normalise a ``(version, sql)`` pair to a :class:`Migration`."""
    if isinstance(step, Migration):
        return step
    version, sql = step
    return Migration(version, sql)


MIGRATIONS: list[Migration] = [
    Migration(1, sqlite=V1, postgresql=V1_POSTGRESQL),
    Migration(2, sqlite=V2, postgresql=V2_POSTGRESQL),
    Migration(3, sqlite=V3, postgresql=V3_POSTGRESQL),
    Migration(4, sqlite=V4, postgresql=V4_POSTGRESQL),
    Migration(5, sqlite=V5, postgresql=V5_POSTGRESQL),
    Migration(6, sqlite=V6),
    Migration(7, sqlite=V7, postgresql=V7_POSTGRESQL),
    Migration(8, sqlite=V8, postgresql=V8_POSTGRESQL),
    Migration(9, sqlite=V9, postgresql=V9_POSTGRESQL),
    Migration(10, sqlite=V10, postgresql=V10_POSTGRESQL),
    Migration(11, sqlite=V11, postgresql=V11_POSTGRESQL),
    Migration(12, sqlite=V12, postgresql=V12_POSTGRESQL),
    Migration(13, sqlite=V13, postgresql=V13_POSTGRESQL),
    Migration(14, sqlite=V14, postgresql=V14_POSTGRESQL),
    Migration(15, sqlite=V15),
]
"""The schema history, versions 1, 2, 3... in order."""

LATEST_VERSION = MIGRATIONS[-1].version
