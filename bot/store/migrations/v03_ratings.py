"""Schema step 3: ratings: rating events, each player's rating, the history of changes."""

from __future__ import annotations

from bot.store.migrations.step import Migration

SQLITE = """
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

POSTGRESQL = """
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

STEP = Migration(3, sqlite=SQLITE, postgresql=POSTGRESQL)
