"""Schema step 16: the round from which an event entrant's check-in counts."""

from __future__ import annotations

from bot.store.migrations.step import Migration

SQLITE = """
-- The first round an entrant is in the field as checked in (issue #39,
-- bot/store/events.py, EventEntry.here): 1 for a check-in before the start, the next
-- round for one during a round (that round was seated without them). A Swiss round's
-- bye is worked out again at every standings from who was in that round's field, so
-- a partner who checked in later must not make a missed round a bye. NULL: checked in
-- before this step, counted from round 1 as then.
ALTER TABLE event_entries ADD COLUMN checked_in_round INTEGER;
"""

# The SQLite script runs unchanged on PostgreSQL.
STEP = Migration(16, sqlite=SQLITE)
