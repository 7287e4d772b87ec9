"""Schema step 10: each player's progress through the lessons."""

from __future__ import annotations

from bot.store.migrations.step import Migration

SQLITE = """
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

POSTGRESQL = """
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

STEP = Migration(10, sqlite=SQLITE, postgresql=POSTGRESQL)
