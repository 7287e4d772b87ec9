"""Settings from the environment (and a ``.env`` file if present).

The token is held in a :class:`Secret` so it never appears in a repr or a log line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


class Secret(str):
    """A string that hides itself in ``repr``/``str``-formatting of containers."""

    def __repr__(self) -> str:
        return "Secret('***')" if self else "Secret('')"


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError:
        raise SystemExit(f"{name} must be a number, got {raw!r}") from None


def _int_or_none(name: str, what: str = "a Discord id (digits)") -> int | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise SystemExit(f"{name} must be {what}, got {raw!r}") from None


def _bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise SystemExit(f"{name} must be on or off (true/false, 1/0), got {raw!r}")


def _ai_mode() -> str:
    mode = os.environ.get("RH_AI_MODE", "process").strip().lower() or "process"
    if mode not in ("process", "thread", "inline"):
        raise SystemExit(f"RH_AI_MODE must be process, thread or inline, got {mode!r}")
    return mode


def _shards(name: str) -> tuple[int, ...] | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    from bot.sharding import parse_shards

    try:
        return parse_shards(raw)
    except ValueError as exc:
        raise SystemExit(f"{name}: {exc}") from None


@dataclass(frozen=True)
class Settings:
    """Everything the bot can be configured with. See ``.env.example``."""

    token: Secret = field(default_factory=lambda: Secret(""))
    database: str = "data/ruff.db"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    ai_delay: float = 1.0
    turn_timeout: float = 90.0
    turn_ping_delay: float = 10.0  # a human's turn pings them only if they have not moved by then (<0: never)
    lobby_timeout: float = 1800.0
    afk_takeover_after: int = 2
    table_edit_interval: float = 1.0
    ai_mode: str = "process"  # where AI searches run: process (default) | thread | inline (tests)
    ai_workers: int | None = None  # AI worker processes; None = CPUs - 1 (at least 1)
    ai_worlds: int | None = None  # bound searches by worlds, not time (tests: reproducible)
    seed: int | None = None  # fixes the table seeds (tests, demo); None = unpredictable
    pictures: bool = True  # attach a picture of the table (and the final score chart)
    painter_mode: str = "process"  # where pictures are drawn: process (with a process AI pool) | thread
    # several processes (bot/sharding.py, bot/cluster/sync.py): this process's gateway shards
    # of ``shard_count`` (None: one process holding every shard)
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None
    lease_seconds: float = 15.0  # a table's AI/timer lease on PostgreSQL; renewed every third of it
    process_name: str | None = None  # this process in the leases (None: host:pid:random)

    @classmethod
    def from_env(cls, env_file: str | None = ".env") -> Settings:
        """Read settings; values in the real environment win over the ``.env`` file."""
        if env_file and Path(env_file).is_file():
            try:
                from dotenv import load_dotenv

                load_dotenv(env_file, override=False)
            except ImportError:  # pragma: no cover - python-dotenv is a dependency
                pass
        return cls(
            token=Secret(os.environ.get("DISCORD_TOKEN", "").strip()),
            database=os.environ.get("RH_DATABASE", "data/ruff.db").strip() or "data/ruff.db",
            dev_guild_id=_int_or_none("RH_DEV_GUILD_ID"),
            log_level=os.environ.get("RH_LOG_LEVEL", "INFO").strip().upper() or "INFO",
            ai_delay=_float("RH_AI_DELAY", 1.0),
            turn_timeout=_float("RH_TURN_TIMEOUT", 90.0),
            turn_ping_delay=_float("RH_TURN_PING_DELAY", 10.0),
            lobby_timeout=_float("RH_LOBBY_TIMEOUT", 1800.0),
            ai_mode=_ai_mode(),
            ai_workers=_int_or_none("RH_AI_WORKERS", "a number of processes"),
            pictures=_bool("RH_PICTURES", True),
            shard_count=_int_or_none("RH_SHARD_COUNT", "a number of shards"),
            shard_ids=_shards("RH_SHARDS"),
            lease_seconds=_float("RH_LEASE_SECONDS", 15.0),
            process_name=os.environ.get("RH_PROCESS_NAME", "").strip() or None,
        )
