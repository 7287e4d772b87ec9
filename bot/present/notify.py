"""Talking to Discord on the game's behalf: posts, DMs, edits — with fallbacks.

The game never depends on one of these calls succeeding: state is already
durable when they run. Table edits are coalesced (at most one per
``min_interval`` per message) so busy tables never hit channel rate limits;
transient failures (429, 5xx) are retried by discord.py's own HTTP client and
nowhere else; a call that gets no answer is given up after :data:`CALL_TIMEOUT`;
closed DMs (50007) and deleted messages (10008) are reported to the caller as
:class:`DMClosed` and :class:`MessageGone`. Everything kept here is bounded.

A post or an edit may carry one PNG (a :class:`~bot.present.picture.Picture`, sent as a
``discord.File`` with its alt text). An edit that carries a picture replaces
the message's image (``attachments=[file]``); ``picture=None`` removes it;
:data:`KEEP` (the default) leaves the attachments alone. A coalesced edit's
rendering may return ``(content, view)`` as before, or ``(content, view,
picture)``, or be a coroutine function returning either, so the picture can be
drawn off the event loop (``bot.present.picture.PictureCache``) while the edit waits.

The view may be a Components V2 layout (``discord.ui.LayoutView``, the table
message of :mod:`bot.present.layout`): then no content is sent (``content`` is only
what the layout says, the edit's signature) and its media gallery points at the
picture by file name, so an edit that keeps the picture keeps the attachment the
gallery names. Once V2, always V2: Discord keeps the flag, and every edit sends a layout.
"""

from __future__ import annotations

import asyncio
import datetime
import functools
import inspect
import io
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final, Literal, TypeAlias, TypeVar

import aiohttp
import discord

from bot.present.picture import Picture

log = logging.getLogger(__name__)
T = TypeVar("T")

CANNOT_DM = 50007
UNKNOWN_MESSAGE = 10008
UNKNOWN_CHANNEL = 10003
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013


class _Keep(Enum):
    KEEP = "keep"


KEEP: Final = _Keep.KEEP
"""An edit that leaves the message's attachments as they are."""

PictureArg: TypeAlias = Picture | None | Literal[_Keep.KEEP]
AnyView: TypeAlias = discord.ui.View | discord.ui.LayoutView
"""A classic view (rows of buttons) or a Components V2 layout."""
Rendering: TypeAlias = tuple[str, AnyView | None] | tuple[str, AnyView | None, PictureArg]
"""What a coalesced edit's render function returns: content and view, and optionally the
picture to show (``None``: no picture; :data:`KEEP` or a 2-tuple keeps whatever image the
message has). A picture equal (by key) to the one the message already shows is not
uploaded again: the edit keeps the attachment."""
RenderFn: TypeAlias = Callable[[], Rendering | None | Awaitable[Rendering | None]]
"""A coalesced edit's render function; ``None`` when, by the time it runs, the
message already shows what it would (then nothing is sent)."""


def picture_file(picture: Picture) -> discord.File:
    """A fresh ``discord.File`` for a picture (a File is read once per request)."""
    return discord.File(
        io.BytesIO(picture.png), filename=picture.filename, description=picture.description
    )


def _attachments(kwargs: dict[str, Any], picture: PictureArg) -> None:
    if picture is KEEP:
        return
    kwargs["attachments"] = [] if picture is None else [picture_file(picture)]


def _picture_key(picture: Picture) -> int:
    """What tells two pictures apart, kept per message: a hash, not the scene itself
    (thousands of messages' scenes, kept for this, held megabytes)."""
    return hash((picture.key, len(picture.png), picture.filename))


def _signature(content: str, picture: PictureArg) -> int:
    """What an edit shows: equal signatures need no edit."""
    if picture is KEEP:
        return hash((content, "keep"))
    if picture is None:
        return hash((content, None))
    return hash((content, picture.key, len(picture.png)))


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
    reads: int = 0
    """Reads of a channel's history or of the active threads (a table message or a
    thread looked for: its id was never kept)."""
    failures: int = 0
    by_channel_edits: OrderedDict[int, deque[float]] = field(default_factory=OrderedDict)
    """Recent edit times per channel: the last :data:`HISTORY` of at most
    :data:`HISTORY` * 16 channels (oldest channel dropped first)."""

    def note_edit(self, channel_id: int, at: float) -> None:
        times = self.by_channel_edits.get(channel_id)
        if times is None:
            times = self.by_channel_edits[channel_id] = deque(maxlen=HISTORY)
            if len(self.by_channel_edits) > HISTORY * 16:
                self.by_channel_edits.popitem(last=False)
        times.append(at)


LOOK_CAP = 500
"""The most messages one look for a post whose id was never kept reads (five
requests): it reads back to the moment before the post, so the post is found if
fewer than this came after it (before: the channel's latest 50)."""

SINCE_SLACK = 60.0
"""Seconds a look starts before the moment it is given: our clock and Discord's (the
messages' ids carry its time) may differ by this much."""

ARCHIVED_LOOKED = 100
"""The archived threads of a channel listed, of each kind, when a thread made and not
kept is looked for (Discord's most a request; they come last archived first)."""

CALL_TIMEOUT = 30.0
"""Seconds one Discord call may take, discord.py's own retries included.

discord.py retries 429 (waiting out ``retry_after``) and 500/502/504 itself, but
sets no timeout of its own (aiohttp's default is five minutes): a Discord that
never answers would hold the caller that long. Past this the call is given up,
never repeated (a POST that timed out may have been delivered)."""

RECENT_SWEEP: Final = 512  # last-edit records kept before idle ones are swept out
EDIT_ATTEMPTS = 5
EDIT_BACKOFF = 0.5
EDIT_BACKOFF_CAP = 8.0
"""A coalesced edit that fails (after discord.py's own retries) is rendered again
after 0.5, 1, 2, 4, 8 s, then left to the next change; see ``_edit_loop``."""

HISTORY = 64
"""Edit times kept per channel for the benchmarks' rate figures (a bounded window)."""

DM_CHANNEL_CACHE = 4096
"""DM channel ids remembered (least recently used dropped first)."""

PICTURES_KEPT = 4096
"""Messages whose current picture key is remembered (so an unchanged picture is not
uploaded again); least recently edited dropped first."""


class Unreachable(discord.HTTPException):
    """Discord did not answer: the call timed out or the connection dropped.

    A :class:`discord.HTTPException` with ``status`` 0, so callers that already
    treat a failed call as "not delivered" handle this one the same way.
    """

    def __init__(self, what: str, cause: BaseException) -> None:
        Exception.__init__(self, f"{what}: Discord did not answer ({type(cause).__name__})")
        self.response = None
        self.status = 0
        self.code = 0
        self.text = str(cause)


async def call(make_call: Callable[[], Awaitable[T]], what: str) -> T:
    """Run one Discord call once, under :data:`CALL_TIMEOUT`.

    No retry here: discord.py's HTTP client is the one retry layer (429 and
    5xx). Timeouts and transport errors become :class:`Unreachable`.
    """
    try:
        async with asyncio.timeout(CALL_TIMEOUT):
            return await make_call()
    except TimeoutError as exc:
        raise Unreachable(what, exc) from exc
    except aiohttp.ClientError as exc:
        raise Unreachable(what, exc) from exc


def release_view(view: AnyView | None) -> None:
    """Empty a view that has been sent and will not be used again.

    A view and its buttons point at each other, so a spent view is garbage only
    the cyclic collector can free, and that collector stops the event loop: at
    200 tables (``python -m tools.bench``) the spent views of every edit and DM were
    most of what it collected. Emptied, the view and its buttons are freed at
    once. Every view of the bot is fully dynamic (:class:`~bot.present.components.RHButton`,
    :class:`~bot.present.components.RHSelect`), so discord.py keeps none of them after sending: clicks
    are routed by ``custom_id``, never through a view object. Every place that
    sends one calls this once the call is over (the table and hand messages here,
    the click answers, the lobby, the leaderboard pages, the replay, the My hand copies).
    """
    if view is None:
        return
    # A Components V2 layout nests: the view holds a container, the container its
    # rows and the rows their buttons, each child pointing back at its parent and
    # at the view. Emptying the view alone left every container, row and button of
    # a table message to the collector (``python -m tools.bench --garbage``: 28
    # objects a move, its longest pauses); every link is cut here instead.
    walk = getattr(view, "walk_children", None)
    items = list(walk()) if walk is not None else list(view.children)
    view.clear_items()
    for item in items:
        children = getattr(item, "_children", None)
        if isinstance(children, list):
            children.clear()
        item._parent = None
        item._view = None


class Notifier:
    """Channel posts, DMs and message edits for the game manager."""

    def __init__(self, client: discord.Client, min_interval: float = 1.0) -> None:
        self.client = client
        self.min_interval = min_interval
        self.stats = CallStats()
        self._pending: dict[tuple[int, int], RenderFn] = {}
        self._editors: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._on_gone: dict[tuple[int, int], Callable[[], Awaitable[None]]] = {}
        self._recent: dict[
            tuple[int, int], tuple[float, int | None]
        ] = {}  # last edit: (time, signature)
        # _recent is swept when it grows past this; after a sweep, to twice what is
        # left, so that a bot with many live messages does not sweep at every edit
        self._sweep_above = RECENT_SWEEP
        self._dm_channels: OrderedDict[int, int] = OrderedDict()
        self._backing_off: set[tuple[int, int]] = set()  # editors pausing after a failed edit
        self._shown: OrderedDict[tuple[int, int], int] = (
            OrderedDict()
        )  # picture key each message shows

    # -------------------------------------------------------------- plain calls

    def _clock(self) -> float:
        return asyncio.get_running_loop().time()

    async def _call(
        self, make_call: Callable[[], Awaitable[T]], what: str, gone: tuple[int, ...] = (403, 404)
    ) -> T:
        """:func:`call`, counted in :attr:`stats` when it fails: a refusal whose status is
        in ``gone`` (the message, channel or thread is gone, or the bot may not) raises
        :class:`MessageGone`; any other failure is raised as it is."""
        try:
            return await call(make_call, what)
        except discord.HTTPException as exc:
            self.stats.failures += 1
            if exc.status in gone:
                raise MessageGone(str(exc)) from exc
            raise

    async def post(
        self,
        channel_id: int,
        content: str,
        view: AnyView | None = None,
        picture: Picture | None = None,
    ) -> discord.Message:
        """Post a message (with ``picture`` attached, if given); raises
        :class:`MessageGone` if the channel is unusable."""
        channel = self.client.get_partial_messageable(channel_id)
        kwargs: dict[str, Any] = {
            "content": _content(content, view),
            "allowed_mentions": _mentions(),
        }
        if view is not None:
            kwargs["view"] = view
        if picture is not None:
            kwargs["file"] = picture_file(picture)
        try:
            msg = await self._call(lambda: channel.send(**kwargs), f"post to {channel_id}")
        finally:
            release_view(view)
        self.stats.sends += 1
        if picture is not None:
            self._note_picture((channel_id, msg.id), picture)
        return msg

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
                dm = await call(
                    lambda: self.client.create_dm(discord.Object(id=user_id)), f"open DM {user_id}"
                )
                channel_id = self._dm_channels[user_id] = dm.id
                if len(self._dm_channels) > DM_CHANNEL_CACHE:
                    self._dm_channels.popitem(last=False)
            else:
                self._dm_channels.move_to_end(user_id)
            channel = self.client.get_partial_messageable(channel_id)
            msg = await call(lambda: channel.send(**kwargs), f"DM to {user_id}")
        except discord.HTTPException as exc:
            self.stats.failures += 1
            if exc.status in (403, 404) or getattr(exc, "code", 0) == CANNOT_DM:
                raise DMClosed(str(exc)) from exc
            raise
        finally:
            release_view(view)
        self.stats.dms += 1
        return msg

    async def edit(
        self,
        channel_id: int,
        message_id: int,
        content: str,
        view: AnyView | None,
        picture: PictureArg = KEEP,
    ) -> None:
        """Edit a message now; raises :class:`MessageGone` if it was deleted.

        ``picture`` replaces the message's image; ``None`` removes it; :data:`KEEP`
        leaves the attachments alone.
        """
        partial = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        kwargs: dict[str, Any] = {
            "content": _content(content, view),
            "view": view,
            "allowed_mentions": _mentions(),
        }
        key = (channel_id, message_id)
        if isinstance(picture, Picture) and self._shown.get(key) == _picture_key(picture):
            picture = KEEP  # the message already shows this picture: no second upload
        _attachments(kwargs, picture)
        try:
            await self._call(lambda: partial.edit(**kwargs), f"edit {message_id}")
        finally:
            release_view(view)
        self.stats.edits += 1
        self.stats.note_edit(channel_id, self._clock())
        if picture is None:
            self._shown.pop(key, None)
        elif picture is not KEEP:
            self._note_picture(key, picture)

    def _note_picture(self, key: tuple[int, int], picture: Picture) -> None:
        self._shown[key] = _picture_key(picture)
        self._shown.move_to_end(key)
        while len(self._shown) > PICTURES_KEPT:
            self._shown.popitem(last=False)

    async def create_thread(self, channel_id: int, message_id: int, name: str) -> int:
        """Start a public thread from a message; returns the thread's id.

        Raises :class:`MessageGone` when the bot may not (no *Create Public
        Threads*, a thread already started there, the message gone)."""
        http = (
            self.client.http
        )  # the route itself: a partial message has no guild to build a Thread with
        thread = await self._call(
            lambda: http.start_thread_with_message(
                channel_id, message_id, name=name[:100], auto_archive_duration=1440
            ),
            f"thread on {message_id}",
            gone=(400, 403, 404),
        )
        self.stats.sends += 1
        return int(thread["id"])

    async def create_private_thread(
        self, channel_id: int, name: str, members: Iterable[int]
    ) -> int:
        """Start a private thread in a channel (no one may invite others) and add
        ``members`` to it; returns the thread's id. Only its members, and who may
        manage threads, can see it.

        Raises :class:`MessageGone` when the bot may not (no *Create Private
        Threads*, or no *Send Messages in Threads* to add a member)."""
        http = self.client.http
        try:
            thread = await call(
                lambda: http.start_thread_without_message(
                    channel_id,
                    name=name[:100],
                    auto_archive_duration=1440,
                    type=discord.ChannelType.private_thread.value,
                    invitable=False,
                ),
                f"private thread in {channel_id}",
            )
            thread_id = int(thread["id"])
            # the members at once, not one after the other: four round trips' wait
            # becomes one (each is its own request all the same)
            await asyncio.gather(
                *(
                    call(
                        functools.partial(http.add_user_to_thread, thread_id, user_id),
                        f"add {user_id} to {thread_id}",
                    )
                    for user_id in members
                )
            )
        except discord.HTTPException as exc:
            self.stats.failures += 1
            if exc.status in (400, 403, 404):
                raise MessageGone(str(exc)) from exc
            raise
        self.stats.sends += 1
        return thread_id

    async def thread_member(self, thread_id: int, user_id: int, member: bool) -> None:
        """Add ``user_id`` to a thread (``member``) or remove them from it; adding a
        member or removing a non-member changes nothing. Raises :class:`MessageGone`
        when the bot may not (a private thread's creator may remove its members;
        another thread needs *Manage Threads*) or the thread is gone."""
        http = self.client.http
        if member:
            request = functools.partial(http.add_user_to_thread, thread_id, user_id)
        else:
            request = functools.partial(http.remove_user_from_thread, thread_id, user_id)
        what = f"{'add' if member else 'remove'} {user_id} {'to' if member else 'from'} {thread_id}"
        await self._call(request, what, gone=(400, 403, 404))
        self.stats.edits += 1

    async def own_since(
        self, channel_id: int, since: float, cap: int = LOOK_CAP
    ) -> list[discord.Message]:
        """The bot's own messages of a channel or thread posted after ``since`` (a Unix
        time: the moment just before the post looked for was tried;
        :data:`SINCE_SLACK` earlier, for the difference between our clock and
        Discord's), newest first: read back from the newest to that moment (so a quiet
        channel costs one request however old the moment), at most ``cap`` messages
        (a request a hundred). A read of the channel's history,
        which Discord limits as any other call: made only where an id was never
        kept, never on a move's path. Raises :class:`MessageGone` where the bot may
        not read it (no *Read Message History*) or it is gone."""
        channel = self.client.get_partial_messageable(channel_id)
        me = self.client.user
        moment = datetime.datetime.fromtimestamp(max(0.0, since - SINCE_SLACK), datetime.UTC)
        after = discord.Object(discord.utils.time_snowflake(moment))

        async def read() -> list[discord.Message]:
            return [
                m
                async for m in channel.history(limit=cap, after=after, oldest_first=False)
                if me is not None and m.author.id == me.id
            ]

        found = await self._call(read, f"history of {channel_id}")
        self.stats.reads += 1
        return sorted(found, key=lambda m: m.id, reverse=True)

    async def thread_of(self, channel_id: int, message_id: int) -> int | None:
        """The thread started from message ``message_id`` of ``channel_id``, if there is
        one (Discord gives such a thread the message's id): one request. None if there
        is none or it cannot be seen."""
        http = self.client.http
        try:
            found = await call(lambda: http.get_channel(message_id), f"thread of {message_id}")
        except discord.HTTPException as exc:
            if exc.status in (403, 404):
                return None
            self.stats.failures += 1
            raise
        self.stats.reads += 1
        if str(found.get("parent_id")) != str(channel_id) or int(found.get("type", -1)) not in (
            discord.ChannelType.public_thread.value,
            discord.ChannelType.private_thread.value,
        ):
            return None
        return int(found["id"])

    async def own_threads(self, guild_id: int, parent_id: int) -> list[tuple[int, str, bool]]:
        """The active threads of channel ``parent_id`` the bot started, as (id, name,
        private): one request (the guild's active threads; an archived thread is not
        among them). Raises :class:`MessageGone` where the bot may not list them."""
        http = self.client.http
        me = self.client.user
        listing = await self._call(
            lambda: http.get_active_threads(guild_id), f"active threads of {guild_id}"
        )
        self.stats.reads += 1
        return [
            (
                int(t["id"]),
                str(t.get("name", "")),
                int(t["type"]) == discord.ChannelType.private_thread.value,
            )
            for t in listing.get("threads", [])
            if str(t.get("parent_id")) == str(parent_id)
            and me is not None
            and str(t.get("owner_id")) == str(me.id)
        ]

    async def own_archived_threads(self, parent_id: int) -> list[tuple[int, str, bool]]:
        """The archived threads of channel ``parent_id`` the bot started (a thread
        archives itself after a day without a message), as (id, name, private): the
        private ones it is a member of and the public ones, the latest
        :data:`ARCHIVED_LOOKED` archived of each (two requests; Discord lists them
        last archived first). Raises :class:`MessageGone` where the bot may not list
        them (no *Read Message History*)."""
        http = self.client.http
        me = self.client.user
        found: list[tuple[int, str, bool]] = []
        for private, listing in (
            (True, functools.partial(http.get_joined_private_archived_threads, parent_id)),
            (False, functools.partial(http.get_public_archived_threads, parent_id)),
        ):
            answer = await self._call(
                functools.partial(listing, limit=ARCHIVED_LOOKED),
                f"archived threads of {parent_id}",
            )
            self.stats.reads += 1
            found.extend(
                (int(t["id"]), str(t.get("name", "")), private)
                for t in answer.get("threads", [])
                if me is not None and str(t.get("owner_id")) == str(me.id)
            )
        return found

    async def unarchive(self, thread_id: int) -> None:
        """Open an archived thread again (the bot's own; one request). Raises
        :class:`MessageGone` where it may not (a locked thread) or it is gone."""
        http = self.client.http
        await self._call(
            functools.partial(http.edit_channel, thread_id, archived=False),
            f"unarchive {thread_id}",
            gone=(400, 403, 404),
        )
        self.stats.edits += 1

    async def delete(self, channel_id: int, message_id: int) -> None:
        """Delete a message of the bot's; a message already gone is not an error."""
        partial = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await call(partial.delete, f"delete {message_id}")
        except discord.NotFound:
            return
        except discord.HTTPException:
            self.stats.failures += 1
            raise

    # -------------------------------------------------------------- coalesced edits

    def schedule_edit(
        self,
        channel_id: int,
        message_id: int,
        render: RenderFn,
        on_gone: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Edit a message soon with the *latest* rendering; at most one edit per interval.

        Later calls before the edit runs replace the pending rendering, so a burst
        of moves costs one edit. ``on_gone`` runs if the message was deleted.
        ``render`` returns ``(content, view)`` or ``(content, view, picture)``
        (see :data:`Rendering`), directly or as a coroutine, or ``None`` to send
        nothing.
        """
        key = (channel_id, message_id)
        self._pending[key] = render
        if on_gone is not None:
            self._on_gone[key] = on_gone
        task = self._editors.get(key)
        if task is not None and key in self._backing_off:
            # a newer change ends the pause after a failed edit: try it now
            task.cancel()
            self._backing_off.discard(key)
            task = None
        if task is None or task.done():
            if len(self._recent) > self._sweep_above:
                self._forget_idle()
                self._sweep_above = max(RECENT_SWEEP, 2 * len(self._recent))
            self._editors[key] = asyncio.create_task(
                self._edit_loop(key), name=f"edit-{message_id}"
            )

    async def _edit_loop(self, key: tuple[int, int]) -> None:
        # The task lives only while an edit is pending: the interval since a
        # message's last edit is kept in ``_recent``, so an idle message costs no
        # sleeping task (hundreds of tables each have a table and four hand messages).
        channel_id, message_id = key
        recent = self._recent.get(key)
        # within the interval of its last edit the message still shows that content
        last_hash = recent[1] if recent and self._clock() - recent[0] < self.min_interval else None
        failures = 0
        try:
            while key in self._pending:
                recent = self._recent.get(key)
                wait = recent[0] + self.min_interval - self._clock() if recent else 0.0
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue
                render = self._pending.pop(key)
                rendered = await _rendered(render)
                if rendered is None:
                    continue
                content, view, picture = rendered
                signature = _signature(content, picture)
                if signature == last_hash:
                    release_view(view)  # the message shows this already: not sent
                    continue
                try:
                    await self.edit(channel_id, message_id, content, view, picture)
                    last_hash = signature
                except MessageGone:
                    callback = self._on_gone.pop(key, None)
                    self._pending.pop(key, None)
                    if callback is not None:
                        await callback()
                    return
                except discord.HTTPException as exc:
                    # discord.py has already retried what it retries. The message
                    # must still come to show the latest state (a hand DM on its
                    # owner's turn may see no other change), so it is rendered
                    # again after a growing pause (cut short by a newer change,
                    # see schedule_edit); after EDIT_ATTEMPTS failures with nothing new,
                    # it waits for the next change.
                    failures += 1
                    self._recent[key] = (self._clock(), None)
                    last_hash = None
                    if key in self._pending:
                        continue  # a newer change is already queued
                    if failures > EDIT_ATTEMPTS:
                        log.warning(
                            "message %s: %d edits failed (last HTTP %s); it shows an older state "
                            "until the next change",
                            message_id,
                            failures,
                            exc.status,
                        )
                        return
                    log.info(
                        "message %s: edit failed (HTTP %s); rendered again soon",
                        message_id,
                        exc.status,
                    )
                    self._backing_off.add(key)
                    try:
                        await asyncio.sleep(
                            min(EDIT_BACKOFF_CAP, EDIT_BACKOFF * 2 ** (failures - 1))
                        )
                    finally:
                        self._backing_off.discard(key)
                    self._pending.setdefault(key, render)
                    continue
                failures = 0
                self._recent[key] = (self._clock(), last_hash)
        finally:
            if self._editors.get(key) is asyncio.current_task():
                del self._editors[key]
            if key not in self._pending:
                self._on_gone.pop(key, None)  # re-registered by the next schedule_edit

    def _forget_idle(self) -> None:
        """Drop the last-edit records that no longer hold back an edit."""
        horizon = self._clock() - self.min_interval
        for key in [
            k for k, (at, _) in self._recent.items() if at < horizon and k not in self._editors
        ]:
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
        self._backing_off.clear()
        self._shown.clear()


async def _rendered(
    render: RenderFn,
) -> tuple[str, AnyView | None, PictureArg] | None:
    result = render()
    if inspect.isawaitable(result):
        result = await result
    if result is None:
        return None
    if len(result) == 2:
        return result[0], result[1], KEEP
    return result[0], result[1], result[2]


def _content(content: str, view: AnyView | None) -> str | None:
    """What is sent as the message's content: nothing beside a Components V2 layout
    (``content`` is then what the layout says, the edit's signature), which also
    clears the content of a message from before the layout."""
    if view is not None and view.has_components_v2():
        return None
    return content


def _mentions() -> discord.AllowedMentions:
    """Mentions render as names but only users are ever pinged (never @everyone)."""
    return discord.AllowedMentions(everyone=False, roles=False, users=True)
