"""Numbered schema migrations, applied in order at start-up, for both backends.

One history serves SQLite and PostgreSQL: each :class:`Migration` is one numbered
step with the SQL of each dialect (``postgresql`` is left out when the SQLite text
runs unchanged there). A database is always at one version of that single list,
whatever its backend, so ``bot.store.copy`` can move a database between them.

One module a step, named after its number (``v01_tables.py``, ``v02_guild_settings.py``
...), holds that step's SQL for SQLite and for PostgreSQL together; :class:`Migration` is
in ``step.py``; this module puts the steps in order. A new step is a new module, listed
at the end of :data:`MIGRATIONS`.

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

from bot.store.migrations import (
    v01_tables,
    v02_guild_settings,
    v03_ratings,
    v04_table_leases,
    v05_user_locales,
    v06_record_version,
    v07_table_snapshots,
    v08_daily,
    v09_coach,
    v10_lesson_progress,
    v11_player_options,
    v12_events,
    v13_daily_shares,
    v14_async_events,
    v15_rated_events,
    v16_checked_in_round,
)
from bot.store.migrations.step import DIALECTS, Dialect, Migration, MigrationLike, as_migration

__all__ = [
    "DIALECTS",
    "LATEST_VERSION",
    "MIGRATIONS",
    "Dialect",
    "Migration",
    "MigrationLike",
    "as_migration",
]

MIGRATIONS: list[Migration] = [
    v01_tables.STEP,
    v02_guild_settings.STEP,
    v03_ratings.STEP,
    v04_table_leases.STEP,
    v05_user_locales.STEP,
    v06_record_version.STEP,
    v07_table_snapshots.STEP,
    v08_daily.STEP,
    v09_coach.STEP,
    v10_lesson_progress.STEP,
    v11_player_options.STEP,
    v12_events.STEP,
    v13_daily_shares.STEP,
    v14_async_events.STEP,
    v15_rated_events.STEP,
    v16_checked_in_round.STEP,
]
"""The schema history, versions 1, 2, 3... in order."""

LATEST_VERSION = MIGRATIONS[-1].version
