"""Schema step 13: a daily board's share line and a challenge's rematch, each done once."""

from __future__ import annotations

from bot.store.migrations.step import Migration

SQLITE = """
-- What a finished board or a settled challenge did once, kept so a restart or a
-- second process never does it twice (bot.features.daily, bot.features.challenge):
-- when a board's share line was posted in its server (NULL: never), and of which
-- challenge a challenge is the rematch (one rematch per challenge: the unique index).
ALTER TABLE daily_results ADD COLUMN shared_at REAL;
ALTER TABLE daily_challenges ADD COLUMN rematch_of INTEGER REFERENCES daily_challenges (id);
CREATE UNIQUE INDEX daily_challenges_rematch ON daily_challenges (rematch_of);
"""

POSTGRESQL = """
ALTER TABLE daily_results ADD COLUMN shared_at double precision;
ALTER TABLE daily_challenges ADD COLUMN rematch_of bigint REFERENCES daily_challenges (id);
CREATE UNIQUE INDEX daily_challenges_rematch ON daily_challenges (rematch_of);
"""

STEP = Migration(13, sqlite=SQLITE, postgresql=POSTGRESQL)
