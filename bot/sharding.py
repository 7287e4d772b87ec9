"""Gateway shards: which process holds which shards, and which shard a server is on.

Discord delivers a server's events (its slash commands, its table buttons) on the
shard ``(guild_id >> 22) % shard_count``, and **every DM — so every click on a
hand-DM button — only on shard 0**. A large deployment runs several processes,
each holding a range of shards (``python -m bot --shards 0-3 --shard-count 8``,
or ``RH_SHARDS`` / ``RH_SHARD_COUNT``); :mod:`bot.app.launch` splits the shards
over N processes. Replies and message edits are plain HTTP and go out from any
process, and any process can take any click (:mod:`bot.cluster.sync`), so a DM click
taken by shard 0's process plays on a table another process owns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.config import Settings

__all__ = [
    "format_shards",
    "holds_guild",
    "parse_shards",
    "shard_of",
    "split_shards",
]


def shard_of(guild_id: int, shard_count: int) -> int:
    """The gateway shard that receives ``guild_id``'s events."""
    return (guild_id >> 22) % shard_count


def parse_shards(text: str, shard_count: int | None = None) -> tuple[int, ...]:
    """``"0-3"``, ``"4"``, ``"0-1,6-7"`` -> the shard ids, sorted and distinct.

    Raises ValueError for anything else, for an empty range, or (with
    ``shard_count``) for an id outside ``0..shard_count-1``.
    """
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        first, sep, last = part.partition("-")
        try:
            low = int(first)
            high = int(last) if sep else low
        except ValueError:
            raise ValueError(f"shards are numbers or ranges like 0-3, got {part!r}") from None
        if low < 0 or high < low:
            raise ValueError(f"not a shard range: {part!r}")
        ids.update(range(low, high + 1))
    if not ids:
        raise ValueError("no shards given")
    if shard_count is not None and max(ids) >= shard_count:
        raise ValueError(f"shard {max(ids)} does not exist with a shard count of {shard_count}")
    return tuple(sorted(ids))


def format_shards(ids: Iterable[int]) -> str:
    """The shortest ``parse_shards`` text for ``ids``: ``(0, 1, 2, 5)`` -> ``"0-2,5"``."""
    out: list[str] = []
    run: list[int] = []
    for i in sorted(set(ids)):
        if run and i == run[-1] + 1:
            run.append(i)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [i]
    if run:
        out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ",".join(out)


def split_shards(shard_count: int, processes: int) -> list[tuple[int, ...]]:
    """``shard_count`` shards over ``processes`` processes: contiguous ranges whose sizes
    differ by at most one, the larger ones last — process 0 holds shard 0 and so takes
    every DM (every hand-DM click), so it gets a range no larger than the others'."""
    if processes < 1:
        raise ValueError("at least one process")
    if shard_count < processes:
        raise ValueError(
            f"{processes} processes need at least {processes} shards, not {shard_count}"
        )
    base, extra = divmod(shard_count, processes)
    ranges: list[tuple[int, ...]] = []
    start = 0
    for p in range(processes):
        size = base + (1 if p >= processes - extra else 0)
        ranges.append(tuple(range(start, start + size)))
        start += size
    return ranges


def holds_guild(settings: Settings, guild_id: int) -> bool:
    """True if this process holds the shard of ``guild_id`` (always, unsharded)."""
    if settings.shard_count is None or settings.shard_ids is None:
        return True
    return shard_of(guild_id, settings.shard_count) in settings.shard_ids


def sharded(settings: Settings) -> bool:
    return settings.shard_count is not None


def syncs_commands(shard_ids: Sequence[int] | None) -> bool:
    """Only the process holding shard 0 syncs the slash commands (once, not N times)."""
    return shard_ids is None or 0 in shard_ids
