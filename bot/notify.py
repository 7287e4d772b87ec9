"""Talking to Discord on the game's behalf: posts, DMs, edits — with fallbacks.

The game never depends on one of these calls succeeding: state is already
durable when they run. Table edits are coalesced (at most one per
``min_interval`` per message) so busy tables never hit channel rate limits;
transient failures (429, 5xx) are retried with backoff; closed DMs (50007) and
deleted messages (10008) are reported to the caller instead of raised.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

log = logging.getLogger(__name__)

CANNOT_DM = 50007
UNKNOWN_MESSAGE = 10008
UNKNOWN_CHANNEL = 10003
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013


class DMClosed(Exception):
    """The user does not accept DMs from the bot."""


class MessageGone(Exception):
    """The message (or its channel) no longer exists or cannot be reached."""


@dataclass
class CallStats:
    """Counts of REST calls made through the notifier (for benchmarks)."""

    sends: int = 0
    edits: int = 0
    dms: int = 0
    failures: int = 0
    by_channel_edits: dict[int, list[float]] = field(default_factory=dict)


RETRY_BASE_DELAY = 0.5
"""Seconds before the first retry; doubled for each further one (tests shrink it)."""


async def with_retry(make_call: Callable[[], Awaitable[Any]], what: str, tries: int = 3) -> Any:
    """Run a Discord call, retrying 429 and 5xx with exponential backoff."""
    delay = RETRY_BASE_DELAY
    for attempt in range(1, tries + 1):
        try:
            return await make_call()
        except discord.HTTPException as exc:
            transient = exc.status == 429 or exc.status >= 500
            if not transient or attempt == tries:
                raise
            retry_after = getattr(exc, "retry_after", None)
            wait = float(retry_after) if isinstance(retry_after, (int, float)) else delay
            log.info("%s failed with HTTP %s; retry %d in %.1fs", what, exc.status, attempt, wait)
            await asyncio.sleep(wait)
            delay *= 2
    raise AssertionError("unreachable")  # pragma: no cover


class Notifier:
    """Channel posts, DMs and message edits for the game manager."""

    def __init__(self, client: discord.Client, min_interval: float = 1.0) -> None:
        self.client = client
        self.min_interval = min_interval
        self.stats = CallStats()
        self._pending: dict[tuple[int, int], Callable[[], tuple[str, discord.ui.View | None]]] = {}
        self._editors: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._on_gone: dict[tuple[int, int], Callable[[], Awaitable[None]]] = {}
        self._recent: dict[tuple[int, int], tuple[float, int | None]] = {}  # last edit: (time, hash(content))
        self._dm_channels: dict[int, int] = {}

    # -------------------------------------------------------------- plain calls

    def _clock(self) -> float:
        return asyncio.get_running_loop().time()

    async def post(
        self, channel_id: int, content: str, view: discord.ui.View | None = None
    ) -> discord.Message:
        """Post a message; raises :class:`MessageGone` if the channel is unusable."""
        channel = self.client.get_partial_messageable(channel_id)
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": _mentions()}
        if view is not None:
            kwargs["view"] = view
        try:
            msg = await with_retry(lambda: channel.send(**kwargs), f"post to {channel_id}")
        except discord.HTTPException as exc:
            self.stats.failures += 1
            if exc.status in (403, 404):
                raise MessageGone(str(exc)) from exc
            raise
        self.stats.sends += 1
        return msg  # type: ignore[no-any-return]

    async def dm(
        self, user_id: int, content: str, view: discord.ui.View | None = None
    ) -> discord.Message:
        """DM a user; raises :class:`DMClosed` if they do not accept DMs."""
        kwargs: dict[str, Any] = {"content": content}
        if view is not None:
            kwargs["view"] = view
        try:
            channel_id = self._dm_channels.get(user_id)
            if channel_id is None:
                dm = await with_retry(
                    lambda: self.client.create_dm(discord.Object(id=user_id)), f"open DM {user_id}"
                )
                channel_id = self._dm_channels[user_id] = dm.id
            channel = self.client.get_partial_messageable(channel_id)
            msg = await with_retry(lambda: channel.send(**kwargs), f"DM to {user_id}")
        except discord.HTTPException as exc:
            self.stats.failures += 1
            if exc.status in (403, 404) or getattr(exc, "code", 0) == CANNOT_DM:
                raise DMClosed(str(exc)) from exc
            raise
        self.stats.dms += 1
        return msg  # type: ignore[no-any-return]

    async def edit(
        self, channel_id: int, message_id: int, content: str, view: discord.ui.View | None
    ) -> None:
        """Edit a message now; raises :class:`MessageGone` if it was deleted."""
        partial = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await with_retry(
                lambda: partial.edit(content=content, view=view, allowed_mentions=_mentions()),
                f"edit {message_id}",
            )
        except discord.HTTPException as exc:
            self.stats.failures += 1
            if exc.status in (403, 404):
                raise MessageGone(str(exc)) from exc
            raise
        self.stats.edits += 1
        self.stats.by_channel_edits.setdefault(channel_id, []).append(self._clock())

    # -------------------------------------------------------------- coalesced edits

    def schedule_edit(
        self,
        channel_id: int,
        message_id: int,
        render: Callable[[], tuple[str, discord.ui.View | None]],
        on_gone: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Edit a message soon with the *latest* rendering; at most one edit per interval.

        Later calls before the edit runs replace the pending rendering, so a burst
        of moves costs one edit. ``on_gone`` runs if the message was deleted.
        """
        key = (channel_id, message_id)
        self._pending[key] = render
        if on_gone is not None:
            self._on_gone[key] = on_gone
        task = self._editors.get(key)
        if task is None or task.done():
            if len(self._recent) > 512:
                self._forget_idle()
            self._editors[key] = asyncio.create_task(self._edit_loop(key), name=f"edit-{message_id}")

    async def _edit_loop(self, key: tuple[int, int]) -> None:
        # The task lives only while an edit is pending: the interval since a
        # message's last edit is kept in ``_recent``, so an idle message costs no
        # sleeping task (hundreds of tables each have a table and four hand messages).
        channel_id, message_id = key
        recent = self._recent.get(key)
        # within the interval of its last edit the message still shows that content
        last_hash = recent[1] if recent and self._clock() - recent[0] < self.min_interval else None
        try:
            while key in self._pending:
                recent = self._recent.get(key)
                wait = recent[0] + self.min_interval - self._clock() if recent else 0.0
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue
                render = self._pending.pop(key)
                content, view = render()
                if hash(content) == last_hash:
                    continue
                try:
                    await self.edit(channel_id, message_id, content, view)
                    last_hash = hash(content)
                except MessageGone:
                    callback = self._on_gone.pop(key, None)
                    self._pending.pop(key, None)
                    if callback is not None:
                        await callback()
                    return
                except discord.HTTPException as exc:
                    log.warning("table edit failed (HTTP %s); the next change retries", exc.status)
                self._recent[key] = (self._clock(), last_hash)
        finally:
            self._editors.pop(key, None)
            if key not in self._pending:
                self._on_gone.pop(key, None)  # re-registered by the next schedule_edit

    def _forget_idle(self) -> None:
        """Drop the last-edit records that no longer hold back an edit."""
        horizon = self._clock() - self.min_interval
        for key in [k for k, (at, _) in self._recent.items() if at < horizon and k not in self._editors]:
            del self._recent[key]

    async def flush(self) -> None:
        """Wait for every pending coalesced edit (used at shutdown and in tests)."""
        while self._editors:
            await asyncio.gather(*list(self._editors.values()), return_exceptions=True)

    def cancel_all(self) -> None:
        for task in list(self._editors.values()):
            task.cancel()
        self._editors.clear()
        self._pending.clear()
        self._recent.clear()
        self._on_gone.clear()


def _mentions() -> discord.AllowedMentions:
    """Mentions render as names but only users are ever pinged (never @everyone)."""
    return discord.AllowedMentions(everyone=False, roles=False, users=True)
