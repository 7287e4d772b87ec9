"""Count a process's round trips to its database, at the driver's edge, for benchmarks.

:func:`install` wraps the drivers' own entry points once per process:

* asyncpg (PostgreSQL): every statement sent to the server and answered — a
  prepared statement's execution (``Connection._do_execute``: a fetch, an execute
  with parameters, an ``executemany`` batch), a simple query (``execute`` without
  parameters: ``BEGIN``, ``COMMIT``, a pool's reset query on release), and a
  statement's preparation when it is not in the connection's statement cache (a
  round trip of its own, also counted apart as ``prepares``: it says whether the
  cached prepared statements are actually reused);
* aiosqlite (SQLite): every hand-off to the database thread (a statement, a commit).

The bot's own code is not touched, so the same counting measures any version of it
(``tools.bench_before_after --this-tools``). With ``RH_TRIPS_LOG=1`` the statements
are also tallied by their text (:func:`by_text`: which statements a click costs).
"""

from __future__ import annotations

import collections
import os
from typing import Any

TRIPS = {"trips": 0, "prepares": 0}
TEXTS: collections.Counter[str] = collections.Counter()
LOG = bool(os.environ.get("RH_TRIPS_LOG"))
_installed = False


def counts() -> dict[str, int]:
    """Round trips and statement preparations so far in this process."""
    return dict(TRIPS)


def by_text(most: int = 40) -> list[tuple[str, int]]:
    """The statements sent most often (``RH_TRIPS_LOG=1``), the start of each text."""
    return TEXTS.most_common(most)


def _tally(text: object) -> None:
    TRIPS["trips"] += 1
    if LOG:
        TEXTS[" ".join(str(text).split())[:100]] += 1


def install() -> None:
    """Start counting (idempotent)."""
    global _installed
    if _installed:
        return
    _installed = True
    _count_asyncpg()
    _count_aiosqlite()


def _count_asyncpg() -> None:
    from asyncpg.connection import Connection

    do_execute = Connection._do_execute
    get_statement = Connection._get_statement
    execute = Connection.execute

    async def counted_do_execute(self: Any, query: str, *args: Any, **kwargs: Any) -> Any:
        _tally(query)
        return await do_execute(self, query, *args, **kwargs)

    async def counted_get_statement(self: Any, query: str, *args: Any, **kwargs: Any) -> Any:
        record_class = kwargs.get("record_class") or self._protocol.get_record_class()
        key = (query, record_class, kwargs.get("ignore_custom_codec", False))
        if kwargs.get("use_cache", True) is False or self._stmt_cache.get(key) is None:
            _tally(f"(prepare) {query}")
            TRIPS["prepares"] += 1
        return await get_statement(self, query, *args, **kwargs)

    async def counted_execute(self: Any, query: str, *args: Any, **kwargs: Any) -> Any:
        if not args:  # the simple query protocol; with parameters it is a _do_execute
            _tally(query)
        return await execute(self, query, *args, **kwargs)

    Connection._do_execute = counted_do_execute  # type: ignore[method-assign]
    Connection._get_statement = counted_get_statement  # type: ignore[method-assign]
    Connection.execute = counted_execute  # type: ignore[method-assign]


def _count_aiosqlite() -> None:
    import aiosqlite

    run = aiosqlite.Connection._execute

    async def counted(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        _tally(
            args[1] if len(args) > 1 and isinstance(args[1], str) else getattr(fn, "__name__", fn)
        )
        return await run(self, fn, *args, **kwargs)

    aiosqlite.Connection._execute = counted  # type: ignore[method-assign]
