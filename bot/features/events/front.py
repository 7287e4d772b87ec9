"""The events' Discord front: the registration message and its buttons, a thread per
table each round, the round's seating and standings in the event's channel. What it
shows, the director (``bot/tables/events/``) decides; this module only says it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import discord

from bot.discord_ui.presenter import Presenter, custom_ids
from bot.discord_ui.services import DiscordServices
from bot.present.i18n import LANGUAGES, _, using
from bot.present.notify import MessageGone
from bot.present.picture import Picture
from bot.present.standings_picture import StandingsRow, StandingsScene
from bot.store import EventRow, EventTable
from bot.tables.events import StandingsView, playing
from bot.tables.events.seating import confirmed_pairs, round_field
from bot.tables.table import Table
from engine import make_rules

from . import text

log = logging.getLogger(__name__)

__all__ = ["DiscordEventFront", "PREFIX", "show_registration", "standings_scene"]

PREFIX = "ev"
"""The feature's custom_id prefix: ``ev:<event>:<verb>``."""

MEMBERS_KEPT = 4096  # threads whose members the front remembers (a round of 50 tables: 50)

ButtonMaker = Callable[[int, str, str, discord.ButtonStyle], discord.ui.Item[Any]]


Render = Callable[[EventRow], Awaitable[tuple[str, discord.ui.View | None]]]
"""What an event's registration message says, and its buttons."""


def shows_event(message: discord.Message, event_id: int) -> bool:
    """Whether ``message`` is event ``event_id``'s registration message: its buttons
    carry the event's id (``ev:<event>:<verb>``), and no other message the bot posts
    in a channel does."""
    prefix = f"{PREFIX}:{event_id}:"
    return any(c.startswith(prefix) for c in custom_ids(message))


async def show_registration(
    svc: DiscordServices, event: EventRow, render: Render, *, again: bool = False
) -> int | None:
    """Post ``event``'s registration message (``render`` says it) and keep its id; the
    message's id, None if none is kept. ``again`` (a start-up, where the event has no
    kept message): the one a bot that stopped between posting it and keeping its id
    left is looked for first among the bot's messages of the channel since the event
    was created (read back to then; by its buttons, :func:`shows_event`) and kept,
    brought up to date (its counts, its buttons), instead of a second being posted;
    the copies not kept are deleted. A message posted here is deleted
    again if another (a second process's) was kept meanwhile: one registration
    message an event."""
    if again:
        try:
            own = await svc.notifier.own_since(event.channel_id, event.created_at)
        except (MessageGone, discord.HTTPException) as exc:
            log.info("event %s: its channel's history not read (%s)", event.id, exc)
            own = []
        found = [m for m in own if shows_event(m, event.id)]
        if found:
            newest = found[0]  # newest first
            if await svc.event_repo.set_message(event.id, newest.id):
                log.info("event %s: registration message %s found and kept", event.id, newest.id)
            kept = await svc.event_repo.get(event.id)
            for copy in found:  # a copy another stop left, or one not kept
                if kept is None or copy.id != kept.message_id:
                    with contextlib.suppress(MessageGone, discord.HTTPException):
                        await svc.notifier.delete(event.channel_id, copy.id)
            if kept is None or kept.message_id is None:
                return None
            shown: EventRow = kept
            message_id, channel_id = kept.message_id, kept.channel_id

            async def latest() -> tuple[str, discord.ui.View | None]:
                return await render(await svc.event_repo.get(event.id) or shown)

            svc.notifier.schedule_edit(channel_id, message_id, latest)
            return message_id
    content, view = await render(event)
    message = await svc.notifier.post(event.channel_id, content, view)
    if await svc.event_repo.set_message(event.id, message.id):
        return message.id
    # another process's start-up kept one meanwhile (this one, found by its look, or
    # its own): the kept one is shown
    kept = await svc.event_repo.get(event.id)
    if kept is None or kept.message_id != message.id:
        with contextlib.suppress(MessageGone, discord.HTTPException):
            await svc.notifier.delete(event.channel_id, message.id)
    return None if kept is None else kept.message_id


def standings_scene(
    view: StandingsView, language: str, viewer: int | None = None
) -> StandingsScene:
    """What the standings picture shows: every line of ``view`` (the picture keeps the
    top, :mod:`bot.present.standings_picture`), ``viewer``'s own line marked."""
    event = view.event
    rows = tuple(
        StandingsRow(
            line.label,
            line.name,
            None if line.percent is None else float(line.percent),
            None if line.score is None else float(line.score),
            float(line.completion),
            line.moved,
        )
        for line in view.lines
    )
    mine = next((i for i, line in enumerate(view.lines) if viewer in line.members), None)
    return StandingsScene(
        event_id=event.id,
        game=make_rules(event.game_id, event.preset).title,
        through=view.through,
        rounds=event.rounds,
        final=view.final,
        pairs=event.format != "individual",
        swiss=event.format == "swiss",
        rows=rows,
        mine=mine,
        language=language,
    )


class DiscordEventFront:
    """:class:`~bot.tables.events.EventFront` on Discord."""

    def __init__(self, svc: DiscordServices, presenter: Presenter, button: ButtonMaker) -> None:
        self.svc = svc
        self.presenter = presenter
        self.button = button  # the feature's DynamicItem (made in build)
        # who the bot put in each table thread it knows (the latest threads): a change
        # of who plays there adds or removes only the difference
        self._members: OrderedDict[int, set[int]] = OrderedDict()
        # the event channels' threads being listed (a start-up showing a round's
        # tables at once asks for them together: one read)
        # (channel, archived) -> its threads being listed, shared by the tables asking
        self._listing: dict[tuple[int, bool], asyncio.Future[list[tuple[int, str, bool]]]] = {}

    async def _language(self, event: EventRow) -> str:
        return await self.svc.server_settings.language(event.guild_id)

    def view(self, event: EventRow) -> discord.ui.View | None:
        """The registration message's buttons (none once the event is over)."""
        if event.state not in ("registering", "running"):
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(self.button(event.id, "join", _("Join"), discord.ButtonStyle.success))
        view.add_item(self.button(event.id, "checkin", _("Check in"), discord.ButtonStyle.primary))
        if event.format != "individual":
            view.add_item(
                self.button(event.id, "partner", _("Choose partner"), discord.ButtonStyle.secondary)
            )
        view.add_item(self.button(event.id, "leave", _("Leave"), discord.ButtonStyle.secondary))
        return view

    async def registration_message(self, event: EventRow) -> tuple[str, discord.ui.View | None]:
        entries = await self.svc.event_repo.entries(event.id)
        with using(await self._language(event)):
            return text.registration(event, entries), self.view(event)

    async def post_registration(self, event: EventRow, *, again: bool = False) -> int | None:
        """Show the registration message (:func:`show_registration`; ``again`` at a
        start-up where its id was never kept)."""
        return await show_registration(self.svc, event, self.registration_message, again=again)

    async def registration_changed(self, event: EventRow) -> None:
        current = await self.svc.event_repo.get(event.id)
        if current is None or current.message_id is None:
            return

        async def render() -> tuple[str, discord.ui.View | None]:
            latest = await self.svc.event_repo.get(event.id)
            return await self.registration_message(latest or current)

        self.svc.notifier.schedule_edit(current.channel_id, current.message_id, render)

    async def _post(
        self, channel_id: int, content: str, picture: Picture | None = None
    ) -> discord.Message | None:
        """Post ``content`` (in pieces when long: a large field's seating, standings,
        reminder; ``picture`` with the first); the first message, or None if the
        channel is unusable."""
        first: discord.Message | None = None
        for part in text.pieces(content):
            try:
                message = await self.svc.notifier.post(
                    channel_id, part, picture=None if first else picture
                )
            except (MessageGone, discord.HTTPException) as exc:
                log.warning("event: could not post in %s: %s", channel_id, exc)
                return first
            first = first or message
        return first

    # ------------------------------------------------------------ EventFront

    async def table_channel(
        self, event: EventRow, table: EventTable, names: Mapping[int, str], *, again: bool = False
    ) -> int:
        """A private thread for the round's table with only its players (and the bot)
        in it: every table of a round plays the same boards at once, so another
        table's play must stay unseen until the board is over for everyone. Where the
        bot may not make private threads, a public thread started from a message naming
        the seats; the event's channel where it may make no thread at all (then one
        table at a time can play there: the others wait for the sweep). ``again`` (a
        start-up, a takeover): the thread a process that stopped made and never kept
        is looked for first (:meth:`_made_thread`), and kept rather than made twice."""
        with using(await self._language(event)):
            post, name = text.table_post(event, table, names), text.thread_name(event, table)
            private_note = text.private_note()
        players = sorted(playing(table))  # who the AI plays for joins on taking it back
        if again:
            made = await self._made_thread(event, table, players, f"{post}\n{private_note}")
            if made is not None:
                return made
        try:
            thread = await self.svc.notifier.create_private_thread(event.channel_id, name, players)
        except (MessageGone, discord.HTTPException) as exc:
            log.warning(
                "event %s: no private thread for table %s (%s); a public one",
                event.id,
                table.number,
                exc,
            )
            return await self._public_thread(event, table, post, name, again=again)
        self._note_members(thread, set(players))
        await asyncio.gather(
            self.svc.event_repo.set_thread(event.id, table.round, table.number, thread),
            self._post(thread, f"{post}\n{private_note}"),
        )
        return thread

    async def _made_thread(
        self, event: EventRow, table: EventTable, players: Sequence[int], first: str
    ) -> int | None:
        """The round table's thread, if one was made and its id never kept (the bot
        stopped, or the process that showed the table died, in between): found among
        the event channel's active threads the bot started, or where none is among
        its archived ones (then opened again), by its name (in any of
        the bot's languages: the server's may have changed meanwhile). Kept now; a
        private one gets the players it may have missed and its first words if it
        has none of the bot's yet. None if there is none (or they cannot be listed)."""
        wanted = set()
        for language in LANGUAGES:
            with using(language):
                wanted.add(text.thread_name(event, table)[:100])
        found: list[tuple[int, bool]] = []
        archived = False
        for archived in (False, True):  # the archived ones only where no active one is
            try:
                threads = await self._threads_of(event, archived=archived)
            except (MessageGone, discord.HTTPException) as exc:
                log.info("event %s: its threads not listed (%s)", event.id, exc)
                return None
            found = sorted((tid, private) for tid, name, private in threads if name in wanted)
            if found:
                break
        if not found:
            return None
        thread, private = found[0]  # the first made (one, unless an older version made two)
        if archived:  # archived while the bot was down (a day without a message): opened
            try:
                await self.svc.notifier.unarchive(thread)
            except (MessageGone, discord.HTTPException) as exc:
                log.info("event %s: thread %s not opened again (%s)", event.id, thread, exc)
                return None
        await self.svc.event_repo.set_thread(event.id, table.round, table.number, thread)
        log.info("event %s: table %s's thread %s found and kept", event.id, table.number, thread)
        if not private:
            return thread  # public, started from the message naming the seats
        for user in players:  # adding a member again changes nothing
            with contextlib.suppress(MessageGone, discord.HTTPException):
                await self.svc.notifier.thread_member(thread, user, True)
        self._note_members(thread, set(players))
        try:
            made = discord.utils.snowflake_time(thread).timestamp()  # the thread's id says
            said = await self.svc.notifier.own_since(thread, made)
        except (MessageGone, discord.HTTPException):
            return thread  # unknown: better no first words than twice
        if not said:
            await self._post(thread, first)
        return thread

    async def _threads_of(
        self, event: EventRow, *, archived: bool = False
    ) -> list[tuple[int, str, bool]]:
        """The active (or ``archived``) threads the bot started in the event's channel
        (one read shared by every table that asks while it is under way)."""
        key = (event.channel_id, archived)
        listing = self._listing.get(key)
        if listing is None:
            notifier = self.svc.notifier
            listing = asyncio.ensure_future(
                notifier.own_archived_threads(event.channel_id)
                if archived
                else notifier.own_threads(event.guild_id, event.channel_id)
            )
            self._listing[key] = listing
            listing.add_done_callback(lambda _done: self._listing.pop(key, None))
        return await asyncio.shield(listing)

    def _note_members(self, thread_id: int, members: set[int]) -> None:
        self._members[thread_id] = members
        self._members.move_to_end(thread_id)
        while len(self._members) > MEMBERS_KEPT:
            self._members.popitem(last=False)

    async def thread_members(
        self, event: EventRow, table: EventTable, players: frozenset[int]
    ) -> None:
        """The table's thread holds exactly ``players`` (and the bot): who plays at
        the table now joins, who no longer does leaves. Adds and removals are made
        only where they change something (after a restart, where nobody knows: each
        player is added or removed once, which changes nothing where it was so)."""
        thread = table.thread_id
        if not thread or thread == event.channel_id:
            return  # no thread: the table plays in the channel
        known = self._members.get(thread)
        seated = {u for u in table.seats if u is not None}
        add = players - known if known is not None else set(players)
        remove = (known if known is not None else seated) - players
        kept = set(players)
        for user, member in [
            *((u, True) for u in sorted(add)),
            *((u, False) for u in sorted(remove)),
        ]:
            try:
                await self.svc.notifier.thread_member(thread, user, member)
            except (MessageGone, discord.HTTPException) as exc:
                # refused (a public thread, where removing needs Manage Threads) or
                # gone: the thread's members stay as they are; no more calls for it
                log.info(
                    "event %s: thread %s's members left as they are (%s %s: %s)",
                    event.id,
                    thread,
                    "adding" if member else "removing",
                    user,
                    exc,
                )
                kept = set(known if known is not None else seated)
                break
        self._note_members(thread, kept)

    async def _public_thread(
        self, event: EventRow, table: EventTable, post: str, name: str, *, again: bool = False
    ) -> int:
        """A public thread started from a message naming the seats. ``again``: that
        message, if a process that stopped posted it and made no thread from it, is
        the one the thread starts from (one such message a table)."""
        starter = await self._starter(event, table.round, post) if again else None
        if starter is None:
            message = await self._post(event.channel_id, post)
            if message is None:
                return event.channel_id
            starter = message.id
        try:
            thread = await self.svc.notifier.create_thread(event.channel_id, starter, name)
        except (MessageGone, discord.HTTPException) as exc:
            log.warning("event %s: no thread for table %s: %s", event.id, table.number, exc)
            return event.channel_id
        await self.svc.event_repo.set_thread(event.id, table.round, table.number, thread)
        return thread

    async def _starter(self, event: EventRow, round_no: int, post: str) -> int | None:
        """The bot's message naming a table's seats, among its messages of the event
        channel since round ``round_no`` began, that no thread was started from
        (one read); None if there is none."""
        first = text.pieces(post)[0]
        rounds = {r.number: r for r in await self.svc.event_repo.rounds(event.id)}
        begun = rounds[round_no].started_at if round_no in rounds else event.created_at
        try:
            own = await self.svc.notifier.own_since(event.channel_id, begun)
        except (MessageGone, discord.HTTPException):
            return None
        return next((m.id for m in own if m.content == first and not m.flags.has_thread), None)

    async def board_opened(self, event: EventRow, table: Table, *, again: bool = False) -> None:
        table.language = await self._language(event)
        # again (a start-up, a takeover): the table message a process that stopped
        # posted and never kept is found and kept, not posted twice
        await self.presenter.repost_table(table, look=again)
        await self.presenter.hands.send_all(table)  # after: a hand links to the table

    def seats_changed(self, table: Table) -> None:
        # the table message (who the AI plays for, Take my seat back) and the hand DMs:
        # a seat back gets its live hand at once, a seat lost says the AI plays it
        self.presenter.changed(table)

    async def cancelled(self, event: EventRow) -> None:
        """Said in the event's channel when it is cancelled (the registration message,
        maybe far up, only changes to "Cancelled"), so its players, some in the
        middle of a board, know."""
        with using(await self._language(event)):
            body = text.cancelled(event)
        await self._post(event.channel_id, body)

    async def round_begun(
        self,
        event: EventRow,
        round_no: int,
        tables: Sequence[EventTable],
        names: Mapping[int, str],
    ) -> None:
        entries = [e for e in await self.svc.event_repo.entries(event.id) if e.plays(round_no)]
        seated = {u for t in tables for u in t.seats}
        # who is in the event this round: one who left is not "not seated"
        names = {u: n for u, n in names.items() if u in seated or u in {e.user_id for e in entries}}
        bye: list[tuple[int, int]] = []
        if event.format == "swiss":  # a pair in the round's field and at no table: its bye
            out = set(round_field(event, entries, round_no)) - seated
            bye = [(a, b) for a, b in confirmed_pairs(entries) if min(a, b) in out]
        with using(await self._language(event)):
            body = text.round_begun(event, round_no, tables, names, bye)
        await self._post(event.channel_id, body)
        await self.registration_changed(event)

    async def boards_skipped(
        self, event: EventRow, table: EventTable, boards: Sequence[int]
    ) -> None:
        with using(await self._language(event)):
            body = text.skipped(boards)
        await self._post(table.thread_id or event.channel_id, body)

    async def standings_picture(
        self, view: StandingsView, viewer: int | None = None
    ) -> Picture | None:
        """The standings as a picture (drawn by the painter, off the loop), ``viewer``'s
        own line highlighted; None where there is nothing to show or the drawing failed
        (the text says it all)."""
        if not view.lines:
            return None
        scene = standings_scene(view, await self._language(view.event), viewer)
        try:
            return await self.svc.painter.standings(scene)
        except Exception:  # a picture is a nicety: never what keeps the standings unsaid
            log.exception("event %s: the standings picture was not drawn", view.event.id)
            return None

    async def round_scored(self, view: StandingsView) -> None:
        with using(await self._language(view.event)):
            body = text.standings(view)
            travellers = text.travellers(view) if view.travellers else []
        # the standings, the picture with their first part (in pieces for a large
        # field), then once the event is over every board's results
        picture = await self.standings_picture(view)
        await self._post(view.event.channel_id, body, picture)
        for part in travellers:
            await self._post(view.event.channel_id, part)

    async def not_started(self, event: EventRow, registered: int) -> None:
        with using(await self._language(event)):
            body = text.not_started(event, registered)
        await self._post(event.channel_id, body)

    async def remind(self, event: EventRow, users: Sequence[int]) -> None:
        with using(await self._language(event)):
            body = text.reminder(event, users)
        await self._post(event.channel_id, body)
