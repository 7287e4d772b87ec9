"""``python -m bot``: connect to Discord with DISCORD_TOKEN.

Without a token there is nothing to connect to: the offline demo is a tool of its
own (``make demo``, which is ``python -m tools.demo``: it runs this when a token is
set and the simulated server otherwise).

One process of several (see docs/operations.md, "Several processes on PostgreSQL")::

    python -m bot --shards 0-3 --shard-count 8 [--name bot-0]

holds gateway shards 0..3 of 8 (``RH_SHARDS`` / ``RH_SHARD_COUNT`` /
``RH_PROCESS_NAME`` in the environment do the same; the options win). Several
processes need ``RH_DATABASE`` to be a PostgreSQL URL they share.

Beside them, a process that only serves the web table (the Discord Activity)::

    python -m bot --pages-only [--name web]

logs in over HTTP, connects to no gateway shard and holds no table's lease (see
bot/app/pages.py; ``RH_PAGES_ONLY=on`` does the same). ``--no-web`` keeps a game
process from serving the web table whatever ``RH_WEB_PORT`` says (the launcher gives
it to its game processes when it adds the pages' process).
"""

from __future__ import annotations

import argparse
import logging
import sys

from bot.config import Settings, SettingsError


def _shard_options(args: list[str], settings: Settings) -> tuple[list[str], Settings]:
    """Take ``--shards``, ``--shard-count``, ``--name``, ``--pages-only`` and ``--no-web``
    out of ``args`` into ``settings``."""
    from bot.sharding import parse_shards

    parser = argparse.ArgumentParser(prog="python -m bot", add_help=False)
    parser.add_argument("--shards", help="this process's gateway shards, e.g. 0-3 or 0-1,6")
    parser.add_argument("--shard-count", type=int, help="the bot's total number of shards")
    parser.add_argument("--name", help="this process's stable name in the table leases")
    parser.add_argument(
        "--pages-only", action="store_true", help="serve only the web table: no gateway shard"
    )
    parser.add_argument(
        "--no-web", action="store_true", help="serve no web table (whatever RH_WEB_PORT says)"
    )
    known, rest = parser.parse_known_args(args)
    count = known.shard_count if known.shard_count is not None else settings.shard_count
    if count is not None and count < 1:
        parser.error("--shard-count must be at least 1")
    ids = settings.shard_ids
    if known.shards is not None:
        if count is None:
            parser.error("--shards needs --shard-count (or RH_SHARD_COUNT)")
        try:
            ids = parse_shards(known.shards, count)
        except ValueError as exc:
            parser.error(str(exc))
    elif ids is not None and count is not None and max(ids) >= count:
        parser.error(f"RH_SHARDS names shard {max(ids)}, but there are only {count}")
    if ids is not None and count is None:
        parser.error("RH_SHARDS needs a shard count (--shard-count or RH_SHARD_COUNT)")
    settings = settings.model_copy(
        update={
            "shard_count": count,
            "shard_ids": ids,
            "process_name": known.name or settings.process_name,
            "pages_only": known.pages_only or settings.pages_only,
            "web_port": None if known.no_web else settings.web_port,
        }
    )
    return rest, settings


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    args, settings = _shard_options(args, settings)
    if settings.pages_only:
        from bot.app.pages import refusal

        problem = refusal(settings)
        if problem is not None:
            print(problem, file=sys.stderr)
            return 2
    if not settings.token:
        print(
            "No DISCORD_TOKEN set: nothing to connect to. `make demo` (python -m tools.demo) "
            "plays the offline demo; see README to connect.",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(
        level=getattr(logging, settings.log_level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from bot.app.client import create_bot

    bot = create_bot(settings)
    if settings.pages_only:
        import asyncio

        from bot.app.pages import serve

        asyncio.run(serve(bot, str(settings.token)))
        return 0
    bot.run(str(settings.token), log_handler=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
