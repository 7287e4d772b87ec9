"""Copy a database into another: ``python -m bot.store.copy SQLITE_PATH postgresql://...``.

The way to move a bot from its SQLite file to PostgreSQL: stop the bot, run this,
set ``RH_DATABASE`` to the URL, start the bot. Every table, move log, hand
message, result, timer and rating is copied with its ids, so unfinished games resume
and old buttons keep working.

* Both databases are opened as the bot opens them, so both are migrated to this
  version's schema first (the source file too, as a bot start would).
* The whole copy is one transaction on the target: it lands entirely or not at
  all. The source is read inside one transaction too (on SQLite that also keeps
  a bot that was left running from writing meanwhile).
* A target that already holds data is refused (exit status 2, nothing changed),
  so running the command twice cannot duplicate or mix anything; ``--replace``
  empties the target first, in the same transaction.
* Afterwards the row counts of source and target are compared, and PostgreSQL's
  id sequence is moved past the copied ids, so new tables get new ids.

Either side may be either backend (a SQLite file can be copied to another file).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.store.db import Database, StoreError, is_postgresql_url

log = logging.getLogger(__name__)

COLUMNS: dict[str, tuple[str, ...]] = {
    "tables": (
        "id",
        "guild_id",
        "channel_id",
        "message_id",
        "creator_id",
        "game_id",
        "preset",
        "overrides",
        "seed",
        "first_dealer",
        "status",
        "seats",
        "settings",
        "version",
        "created_at",
        "updated_at",
        "record_version",
    ),
    "actions": ("table_id", "seq", "seat", "action", "actor_id", "created_at"),
    "hand_messages": ("table_id", "seat", "channel_id", "message_id"),
    "results": (
        "table_id",
        "guild_id",
        "user_id",
        "name",
        "side",
        "won",
        "points",
        "opp_points",
        "finished_at",
    ),
    "deadlines": ("table_id", "kind", "seat", "due_at"),
    "guild_settings": ("guild_id", "settings", "updated_at"),
    "user_locales": ("user_id", "locale", "updated_at"),
    "lesson_progress": ("user_id", "lesson", "step", "actions", "finished", "updated_at"),
    "player_options": ("user_id", "options", "updated_at"),
    "rating_events": ("table_id", "guild_id", "game_id", "teams", "source", "finished_at"),
    "ratings": (
        "guild_id",
        "game_id",
        "player",
        "name",
        "mu",
        "sigma",
        "games",
        "wins",
        "updated_at",
    ),
    "rating_history": (
        "table_id",
        "player",
        "guild_id",
        "game_id",
        "won",
        "mu_before",
        "sigma_before",
        "mu_after",
        "sigma_after",
        "finished_at",
    ),
    "daily_results": (
        "board",
        "user_id",
        "game_id",
        "series",
        "number",
        "guild_id",
        "channel_id",
        "name",
        "table_id",
        "result",
        "by_ai",
        "started_at",
        "finished_at",
        "shared_at",
    ),
    "daily_par": ("board", "result"),
    "daily_challenges": (
        "id",
        "game_id",
        "preset",
        "boards",
        "guild_id",
        "channel_id",
        "challenger_id",
        "challenger_name",
        "opponent_id",
        "opponent_name",
        "created_at",
        "deadline_at",
        "settled_at",
        "rematch_of",
    ),
}
"""Every table of the schema, parents before children, with its columns."""

ORDER: dict[str, str] = {
    "tables": "id",
    "actions": "table_id, seq",
    "hand_messages": "table_id, seat",
    "results": "table_id, user_id",
    "deadlines": "table_id",
    "guild_settings": "guild_id",
    "user_locales": "user_id",
    "lesson_progress": "user_id, lesson",
    "player_options": "user_id",
    "rating_events": "table_id",
    "ratings": "guild_id, game_id, player",
    "rating_history": "table_id, player",
    "daily_results": "board, user_id",
    "daily_par": "board",
    "daily_challenges": "id",
}

BATCH = 1000


class TargetNotEmpty(StoreError):
    """The target database already holds data (pass ``replace=True`` to empty it)."""

    def __init__(self, counts: dict[str, int]) -> None:
        held = ", ".join(f"{n} {t}" for t, n in counts.items() if n)
        super().__init__(f"the target database is not empty ({held})")
        self.counts = counts


class CopyMismatch(StoreError):
    """After copying, the target's row counts differ from the source's (rolled back)."""


async def _counts(db: Database) -> dict[str, int]:
    return {t: int(await db.fetchval(f"SELECT COUNT(*) FROM {t}")) for t in COLUMNS}


async def copy_database(
    source: Database, target: Database, *, replace: bool = False
) -> dict[str, int]:
    """Copy every row of ``source`` into ``target``; return the rows copied per table.

    Both must be open (so at the same, latest, schema version). Raises
    :class:`TargetNotEmpty` if the target holds data and ``replace`` is false, and
    :class:`CopyMismatch` if the counts do not match afterwards; either way the
    target is left as it was.
    """
    if source.path == target.path and source.dialect == target.dialect:
        raise StoreError("the source and the target are the same database")
    source_version, target_version = await source.user_version(), await target.user_version()
    if source_version != target_version:
        raise StoreError(
            f"schema versions differ: source {source_version}, target {target_version}"
        )
    async with source.transaction(), target.transaction():
        existing = await _counts(target)
        if any(existing.values()):
            if not replace:
                raise TargetNotEmpty(existing)
            log.info("emptying the target first (%s)", existing)
            for table in reversed(COLUMNS):
                await target.execute(f"DELETE FROM {table}")
        for table, columns in COLUMNS.items():
            names = ", ".join(columns)
            marks = ", ".join("?" for _ in columns)
            rows = await source.fetchall(f"SELECT {names} FROM {table} ORDER BY {ORDER[table]}")
            for start in range(0, len(rows), BATCH):
                await target.executemany(
                    f"INSERT INTO {table} ({names}) VALUES ({marks})",
                    [tuple(r[c] for c in columns) for r in rows[start : start + BATCH]],
                )
        if target.dialect == "postgresql":
            # explicit ids do not move the identity sequence: put it past them
            for keyed in ("tables", "daily_challenges"):
                await target.fetchval(
                    f"SELECT setval(pg_get_serial_sequence('{keyed}', 'id'),"
                    f" COALESCE((SELECT MAX(id) FROM {keyed}), 0) + 1, false)"
                )
        copied, expected = await _counts(target), await _counts(source)
        if copied != expected:
            raise CopyMismatch(f"copied {copied}, the source has {expected}")
    return copied


async def run(source: str, target: str, *, replace: bool = False) -> dict[str, int]:
    """Open both databases (migrating them), copy, close."""
    if not is_postgresql_url(source) and (source == ":memory:" or not Path(source).is_file()):
        raise StoreError(f"no SQLite database at {source!r}")
    src = await Database.open(source)
    try:
        dst = await Database.open(target)
        try:
            return await copy_database(src, dst, replace=replace)
        finally:
            await dst.close()
    finally:
        await src.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.store.copy",
        description="Copy the bot's database (e.g. its SQLite file) into another "
        "(e.g. PostgreSQL). Stop the bot first.",
    )
    parser.add_argument("source", help="the database to copy: a SQLite file path")
    parser.add_argument("target", help="where to copy it: postgresql://user:password@host:port/db")
    parser.add_argument(
        "--replace",
        action="store_true",
        help="empty the target first if it already holds data (default: refuse)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        copied = asyncio.run(run(args.source, args.target, replace=args.replace))
    except TargetNotEmpty as exc:
        print(
            f"refused: {exc}; nothing was changed. Pass --replace to empty it first.",
            file=sys.stderr,
        )
        return 2
    except StoreError as exc:
        print(f"copy failed, nothing was changed: {exc}", file=sys.stderr)
        return 1
    print("copied " + ", ".join(f"{n} {t}" for t, n in copied.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
