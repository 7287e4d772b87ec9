"""Events out to people: the one fan-out of every commit, whoever made it (a
click, the AI, a timer), to the table message (text and picture), the channel's
(or thread's) summaries and the final result — and through :class:`Hands` and
:class:`Notices` to the hand messages and the turn pings.

Everything here renders from engine views (``bot.present.render`` for text,
``bot.present.controls`` for buttons) and talks to Discord through the
:class:`~bot.present.notify.Notifier`: coalesced edits, posts and DMs that may fail
without touching the game. What it keeps (message ids, the thread) it asks
``bot.tables.commit`` to write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.discord_ui.hands import Hands
from bot.discord_ui.notices import Notices
from bot.discord_ui.services import DiscordServices
from bot.discord_ui.shown import shown
from bot.present import layout, render
from bot.present.coach_components import review_view
from bot.present.components import table_id_for
from bot.present.i18n import _, ngettext, using
from bot.present.layout import TableLayout
from bot.present.notify import DMClosed, MessageGone, PictureArg
from bot.present.picture import Picture, picture_key
from bot.store import HumanSeat, TableRow
from bot.tables import commit
from bot.tables.kinds import TableKind
from bot.tables.table import Table, first_free
from engine import Action, DealScored, DealStarted, Event, Game, SeatView, TrickWon

log = logging.getLogger(__name__)

__all__ = ["PICTURE_SHARE", "Presenter", "custom_ids", "posted_after", "shows_table"]

PICTURE_SHARE = 0.25
"""The most of one core table pictures may take, bot-wide: after a picture that took
``t`` seconds to draw, the next waits ``3 t``. A few tables never notice; at a busy
bot the pictures of busy tables skip states instead of taking the AI's CPU."""


TABLE_VERBS = ("hand", "start", "rematch")
"""The buttons by which a table message is known: My hand in play, Start in the
lobby, Rematch at the end; each carries the table's id (``rh:t:<table>:<verb>``), and
no other message in a table's channel does (a hand and its controls are DMs or
private answers)."""


def custom_ids(message: discord.Message) -> set[str]:
    """The custom_ids of ``message``'s buttons and selects (in rows and sections)."""
    found: set[str] = set()
    stack: list[Any] = list(message.components)
    while stack:
        component = stack.pop()
        custom_id = getattr(component, "custom_id", None)
        if isinstance(custom_id, str):
            found.add(custom_id)
        stack.extend(getattr(component, "children", None) or ())
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            stack.append(accessory)
    return found


def posted_after(message_id: int | None, since: float) -> float:
    """The moment a post looked for was tried after: ``since`` (a table's or an event's
    creation), or the time of ``message_id`` (the message it replaced, deleted since,
    whose id carries the moment it was posted) if that is later."""
    if message_id is None:
        return since
    return max(since, discord.utils.snowflake_time(message_id).timestamp())


def shows_table(message: discord.Message, table_id: int) -> bool:
    """Whether ``message`` is a table message of table ``table_id`` (by its buttons)."""
    wanted = {table_id_for(table_id, verb) for verb in TABLE_VERBS}
    return not wanted.isdisjoint(custom_ids(message))


class Presenter:
    """Renders tables and hands and keeps every message that shows them current."""

    def __init__(self, svc: DiscordServices) -> None:
        self.svc = svc
        self.notifier = svc.notifier
        self.hands = Hands(svc)  # the players' hand messages
        self.notices = Notices(svc)  # the turn's pings and warnings
        self._drawing = asyncio.Lock()  # one table picture drawn at a time, bot-wide
        # tables whose picture waits for the drawing slot, oldest first (ids only: a
        # table that ends and leaves memory meanwhile is not kept alive by the wait)
        self._redraw: dict[int, None] = {}
        self._redrawing: asyncio.Task[None] | None = None
        self._rested_at = 0.0  # loop time from which the next picture may be drawn
        self._posting: set[int] = set()  # tables whose table message is being posted

    # ================================================================ the fan-out

    # ================================================================ the table layer's Front

    def ping(self, table: Table, seat: int, due: float | None, waited: bool = False) -> None:
        self.notices.ping(table, seat, due, waited=waited)

    def warning(self, table: Table, seat: int, version: int, due: float) -> None:
        self.notices.warning(table, seat, version, due)

    def deadline_known(self, table: Table) -> None:
        self.hands.refresh(table)

    def timed_out(
        self, table: Table, seat: int, actions: Sequence[Action], misses: int, takeover: bool
    ) -> None:
        """What the player's hand says next (drawn when its edit goes out), and the
        table's line (a takeover also in the channel)."""
        game = table.game
        with using(self.hands.language_of_seat(table, seat)):
            played = ", ".join(
                render.action_label(a, game.rules if game else None) for a in actions
            )
            shown(table).played_for[seat] = _(
                "⏰ Your time ran out: the AI played **{played}** for you."
            ).format(played=played)
        if table.status != "active":
            return
        with using(table.language):  # public: the server's language
            self._say_timeout(table, seat, misses, takeover)

    def _say_timeout(self, table: Table, seat: int, misses: int, takeover: bool) -> None:
        human = table.human(seat)
        who = human.name if human else render.seat_names(len(table.seats))[seat]
        if takeover:
            shown(table).recent.append(
                _("⏰ {who} is away: the AI plays for them.").format(who=who)
            )
            mention = f"<@{human.user_id}>" if human else who
            self.svc.own(
                self.post_quietly(
                    table,
                    ngettext(
                        "⏰ {player} missed {n} turn in a row: the AI plays for them until they "
                        "press **Take my seat back** on table #{table}.",
                        "⏰ {player} missed {n} turns in a row: the AI plays for them until they "
                        "press **Take my seat back** on table #{table}.",
                        misses,
                    ).format(player=mention, n=misses, table=table.id),
                )
            )
        else:
            shown(table).recent.append(
                _("⏰ {who} ran out of time: the AI played for them.").format(who=who)
            )

    def auto_played(self, table: Table, seat: int, action: Action) -> None:
        game = table.game
        with using(self.hands.language_of_seat(table, seat)):
            shown(table).played_for[seat] = _(
                "▶ Auto-play: **{card}** was your only legal card, so it was played for you "
                "(`/ruff options` to turn this off)."
            ).format(card=render.action_label(action, game.rules if game else None))

    async def lobby_expired(self, table: Table) -> None:
        if not table.message_id:
            return
        with using(table.language):
            text = (
                render.header(table.info()) + "\n" + _("⌛ This table expired before it started.")
            )
        with contextlib.suppress(MessageGone, discord.HTTPException):
            await self.notifier.edit(
                table.channel_id, table.message_id, text, layout.text_layout(text)
            )

    def redraw(self, table: Table) -> None:
        if (
            table.message_id is None
            and table.kind.rules.lobby
            and table.status in ("lobby", "active")
        ):
            # loaded with no table message kept: the bot stopped (or the process
            # that ran it died) between posting it and keeping its id, or before
            # posting it; found in its channel and kept, else posted. (Only a kind
            # opened as a lobby has its table message posted here: an event's board
            # is shown by its director, a board played alone has none.)
            self.svc.own(self.repost_table(table))
        elif (
            table.status == "active"
            and table.kind.rules.thread
            and table.settings.thread_id is None
            and table.message_id is not None
        ):
            # a game whose thread was never kept: the bot stopped after the start,
            # before or after making it (found, it is kept; else made now)
            self.svc.own(self.open_thread(table, look=True))
        self.schedule_table_edit(table)
        if table.status == "active" and table.game is not None:
            self.hands.refresh(table, force=True)
            self.notices.clear(table)

    def changed(self, table: Table) -> None:
        self.schedule_table_edit(table)
        if table.game is not None:
            self.hands.refresh(table)

    def follow_copies(self, table: Table) -> None:
        self.hands.refresh_copies(table)

    async def set_aside(self, row: TableRow) -> None:
        with using(await self.svc.server_settings.language(row.guild_id)):
            text = _(
                "⚠️ Table #{table} is set aside: this version of the bot cannot load its game. "
                "Nothing is lost — the game is kept as it was and comes back when the bot is updated."
            ).format(table=row.id)
        try:
            await self.notifier.post(row.channel_id, text)
        except (discord.HTTPException, DMClosed, MessageGone):
            log.warning(
                "table %s: could not tell the channel it was set aside", row.id, exc_info=True
            )

    # ================================================================ the feed

    def committed(self, table: Table, events: list[Event]) -> None:
        """A listener of the feed: show every commit of a table this process drives
        (several processes: the table's owner shows it, once)."""
        if self.svc.sync.may_drive(table):
            self.after(table, events, None)

    def after(self, table: Table, events: list[Event], actor_seat: int | None) -> None:
        """Show the events of one commit: public lines, summaries, hand messages and
        the table message. ``actor_seat``: a seat whose clicked copy the click's own
        answer already shows (its other copies still follow)."""
        info = table.info()
        with using(table.language):  # public: the server's language
            self._after(table, info, events, actor_seat)

    def _after(
        self, table: Table, info: render.TableInfo, events: list[Event], actor_seat: int | None
    ) -> None:
        # a board played alone ends in one message of its own (bot/features/daily)
        if table.kind is not TableKind.BOARD and any(
            isinstance(e, render.SUMMARY_EVENTS) for e in events
        ):
            over = table.game is not None and table.game.is_over
            tied = table.game.observe(0).tied if over and table.game is not None else ()
            summary = render.deal_summary(info, events, tied)
            review = _review_button(table, events)
            if table.status == "finished" and table.game is not None:
                self.svc.own(self.post_final(table, table.game, summary or "", review))
            elif summary:
                self.svc.own(self.post_quietly(table, summary, view=review))
        # A trick or a deal ends: the lines of earlier ones go. This commit's own lines
        # stay (a layout card turned up by the trick's last card), except those of a
        # deal that ended in it.
        new_deal = max((i for i, e in enumerate(events) if isinstance(e, DealStarted)), default=-1)
        if new_deal >= 0 or any(isinstance(e, TrickWon) for e in events):
            shown(table).recent.clear()
        shown(table).recent.extend(render.event_lines(info, events[new_deal + 1 :]))
        if table.status != "finished" and new_deal >= 0:
            self.svc.own(self.hands.send_all_quietly(table))
        else:
            self.hands.refresh(table, skip=actor_seat)
        self.notices.clear(table)
        self.schedule_table_edit(table)

    async def post_quietly(
        self,
        table: Table,
        content: str,
        picture: Picture | None = None,
        view: discord.ui.View | None = None,
    ) -> None:
        """Post in the table's thread (or channel); a failure is logged, never raised."""
        await self._post(table, content, picture, view)

    async def _post(
        self,
        table: Table,
        content: str,
        picture: Picture | None = None,
        view: discord.ui.View | None = None,
    ) -> discord.Message | None:
        try:
            return await self.notifier.post(table.feed_id, content, view, picture)
        except (MessageGone, discord.HTTPException) as exc:
            log.warning("could not post at table %s: %s", table.id, exc)
            return None

    async def post_final(
        self, table: Table, game: Game, summary: str, review: discord.ui.View | None = None
    ) -> None:
        """The end of the match: the last summary, who won and how, and the score chart.

        The deal-by-deal history is replayed from the game's record off the event
        loop; the same history gives the chart and the "how" line, which the final
        table and every hand DM then show too."""
        info = table.info()
        chart: Picture | None = None
        how = ""
        try:
            wanted = await self.svc.server_settings.pictures(table.guild_id)
            # the chart is drawn in the painter's process: its words follow info.language
            points, chart = await self.svc.painter.summary(
                game.to_record(), info, game.n_players, wanted
            )
            final = game.observe(0)  # the game is over: one view for every language

            def sum_up() -> str:  # in the language of the moment
                return render.how_won(info, final, points)

            shown(table).how_won_in.clear()
            shown(table).sum_up = sum_up
            # the table's language now; a hand DM's in its player's when it is drawn
            with using(table.language):
                how = shown(table).how_won_here()
        except Exception:
            log.exception("table %s: could not sum up the finished game", table.id)
        shown(table).how_won = how
        text = "\n".join(x for x in (summary, how) if x and not (x == how and how in summary))
        if text:
            with using(table.language):
                text = render.fit(text.splitlines())
            await self.post_quietly(table, text, chart, review)
        self.schedule_table_edit(table)
        self.hands.refresh(table)

    # ================================================================ the table's thread

    async def open_thread(self, table: Table, *, look: bool = False) -> None:
        """A game began: start a public thread from the table message, once per table.

        Deal summaries, turn pings and notices go there (:attr:`Table.feed_id`), so
        the channel keeps the live table message in view, with the thread's link
        under it; spectators follow the thread and never see a hand. Where the bot
        may not create threads (no *Create Public Threads*), everything goes to the
        channel as before; the choice is stored with the table (``thread_id``, 0 for
        none), so a restart keeps it. ``look`` (a table loaded with none kept): the
        thread started from the table message, if the bot stopped after making it, is
        kept (one thread a message: Discord would refuse a second). Never raises."""
        if table.settings.thread_id is not None or table.message_id is None:
            return
        with using(table.language):
            name = _("Table #{table} · {title}").format(table=table.id, title=table.rules.title)
        try:
            found = (
                await self.notifier.thread_of(table.channel_id, table.message_id) if look else None
            )
            thread_id = found or await self.notifier.create_thread(
                table.channel_id, table.message_id, name
            )
        except (MessageGone, discord.HTTPException) as exc:
            log.info("table %s: no thread (%s); summaries go to the channel", table.id, exc)
            thread_id = 0
        async with table.lock:
            await commit.keep_thread(self.svc, table, thread_id)

    # ================================================================ the table message

    def _lobby_text(self, table: Table, note: str) -> str:
        creator = table.human(0)
        opener = next(
            (
                s.name
                for s in table.seats
                if isinstance(s, HumanSeat) and s.user_id == table.creator_id
            ),
            creator.name if creator else _("someone"),
        )
        return render.lobby_text(table.info(), opener, note)

    def layout(self, table: Table, picture: Picture | None = None) -> TableLayout:
        """What the table message shows (:mod:`bot.present.layout`): the lobby, the game
        in play (``picture`` first, else the compact text table) or the final table."""
        with using(table.language):
            return self._layout(table, picture)

    def _layout(self, table: Table, picture: Picture | None) -> TableLayout:
        game = table.game
        if game is None or table.status == "lobby":
            return TableLayout(
                lines=(),
                table=self._lobby_text(table, ""),
                buttons=layout.lobby_buttons(table.id, full=first_free(table.seats) is None),
            )
        info = table.info()
        view = table.view(0)
        recent = list(shown(table).recent)
        if game.is_over or table.status != "active":
            rematch = table.kind_rules.rematch and table.status == "finished"
            final = render.final_text(info, view, shown(table).how_won, rematch).splitlines()
            return TableLayout(
                lines=tuple(final),
                buttons=(
                    layout.finished_buttons(table.id, rematch) if table.status == "finished" else ()
                ),
                picture=picture,
                alt=render.alt_text(info, view, recent),
            )
        return TableLayout(
            lines=tuple(
                render.table_lines(
                    info, view, recent, self._deadline(table), pictured=picture is not None
                )
            ),
            buttons=layout.play_buttons(table.id, show_reclaim=bool(table.away)),
            picture=picture,
            alt=render.alt_text(info, view, recent),
            # shown only where there is no picture: not drawn for every edit that has one
            table=render.compact_table(info, view) if picture is None else "",
        )

    @staticmethod
    def _deadline(table: Table) -> float | None:
        """When the turn of the human to act ends (the AI plays it then), if known."""
        game = table.game
        seat = game.to_act() if game is not None else None
        if game is None or seat is None or table.human(seat) is None or table.ai_plays(seat):
            return None
        due = table.drive.turn_due
        if due is not None and due[:2] == (game.version, seat):
            return due[2]
        return table.drive.deadline

    def table_message(self, table: Table, picture: Picture | None = None) -> tuple[str, Any]:
        """The table message as it is sent: its signature (what it says and its buttons:
        an edit that changes neither is not sent) and its ``LayoutView`` (release it
        once sent)."""
        shown = self.layout(table, picture)
        return shown.signature(), shown.view()

    def schedule_table_edit(self, table: Table) -> None:
        """Bring the table message up to date (coalesced and rate-limited by the notifier)."""
        if table.message_id is None:
            return

        async def make() -> tuple[str, Any, PictureArg]:
            game = table.game  # the text and the picture show the same state
            picture = await self.table_picture(table, game)
            text, view = self.table_message(table, picture)
            return text, view, picture

        async def gone() -> None:
            await self.repost_table(table)

        self.notifier.schedule_edit(table.channel_id, table.message_id, make, gone)

    def refresh_classic(self, table: Table, message: discord.Message | None) -> None:
        """A button of the table message was pressed on a message from before the table
        message became a layout (plain content, rows of buttons): its buttons still
        answer, and the message is redrawn as a layout now, once (every later edit
        keeps it a layout)."""
        if (
            message is not None
            and message.id == table.message_id
            and not message.flags.components_v2
            and table.status in ("lobby", "active", "finished")
        ):
            self.schedule_table_edit(table)

    async def table_picture(self, table: Table, game: Game | None) -> Picture | None:
        """The picture of ``game`` for the table message: drawn off the event loop and
        only when what it shows changed (the table's :class:`~bot.present.picture.PictureCache`);
        ``None`` in the lobby, for an ended table, or where pictures are switched off.
        While another picture is being drawn, or if drawing failed, the last one drawn
        (the notifier does not upload it again; the layout's gallery names it), or
        ``None`` if there is none yet (the layout then shows its compact text table).
        Its words (seat names ...) are in the table's language."""
        with using(table.language):
            return await self._table_picture(table, game)

    async def _table_picture(self, table: Table, game: Game | None) -> Picture | None:
        if game is None or table.status not in ("active", "finished"):
            return None
        if not await self.svc.server_settings.pictures(table.guild_id):
            return None
        info = table.info()
        view = game.observe(0) if game is not table.game else table.view(0)
        last = shown(table).pictures.last
        if last is not None and last.key == picture_key(info, view, info.names):
            return last
        if self._drawing.locked() or asyncio.get_running_loop().time() < self._rested_at:
            # Another table's picture is being drawn, or the painter is resting: this
            # edit goes out now with the text (the old picture stays) and the picture
            # follows when the drawing slot is free — text edits never queue behind
            # drawing, and however many tables are busy pictures cost at most
            # PICTURE_SHARE of a core (a busy table's in-between states are skipped).
            self._redraw.setdefault(table.id)
            if self._redrawing is None or self._redrawing.done():
                self._redrawing = self.svc.own(self._draw_waiting(), name="pictures")
            return last
        try:
            async with self._drawing:
                return await self._draw(table, info, view)
        except Exception:
            log.exception("table %s: could not draw its picture", table.id)
            return shown(table).pictures.last

    async def _draw(self, table: Table, info: render.TableInfo, view: SeatView) -> Picture:
        """Draw (in the painter's process), then set the rest that keeps pictures
        within their share of a core. Call holding the drawing slot."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            return await shown(table).pictures.get(info, view, info.names, self.svc.painter.table)
        finally:
            took = loop.time() - started
            if self.svc.painter.mode == "process":  # threads (tests, demo): nothing to share
                self._rested_at = loop.time() + took * (1.0 / PICTURE_SHARE - 1.0)

    async def _draw_waiting(self) -> None:
        """Draw the waiting tables' latest pictures, oldest first, each when the drawing
        slot is free and the painter has rested, then edit them in. One task for the
        whole bot; a table no longer in memory (ended a while ago) is skipped."""
        loop = asyncio.get_running_loop()
        while self._redraw:
            async with self._drawing:
                rest = self._rested_at - loop.time()
                if rest > 0:
                    await asyncio.sleep(rest)
                table_id = next(iter(self._redraw), None)
                if table_id is None:
                    return
                table = self.svc.tables.get(table_id)
                game = table.game if table is not None else None
                try:
                    if table is None or game is None or table.status not in ("active", "finished"):
                        continue
                    with using(table.language):  # drawn for the public table
                        await self._draw(table, table.info(), game.observe(0))
                except Exception:
                    log.exception("table %s: could not draw its picture", table_id)
                    continue
                finally:
                    # waiting until drawn: a change meanwhile is drawn by the edit below
                    self._redraw.pop(table_id, None)
            self.schedule_table_edit(table)

    def edit_table_to(self, table: Table, text: str) -> None:
        """Replace the table message with ``text``, no buttons and no picture (the table has ended)."""
        if table.message_id:
            self.notifier.schedule_edit(
                table.channel_id, table.message_id, lambda: (text, layout.text_layout(text), None)
            )

    def tell_hands(self, table: Table, text: str | Callable[[], str]) -> None:
        """Replace every hand DM of ``table`` with ``text`` (the table was cancelled);
        a callable is called in each player's language (the texts of bot/present/i18n.py)."""
        self.notices.clear(table)
        for seat, (channel_id, message_id) in list(table.hand_messages.items()):
            with using(self.hands.language_of_seat(table, seat)):
                shown = text() if callable(text) else text
            self.notifier.schedule_edit(channel_id, message_id, self._fixed(shown))

    @staticmethod
    def _fixed(text: str) -> Callable[[], tuple[str, None]]:
        return lambda: (text, None)

    async def repost_table(self, table: Table, *, look: bool = True) -> None:
        """Post the table message: it was deleted, or none of it was kept. ``look``
        (unless the table was just dealt by this process, whose own post this is):
        first look for one in its channel (:meth:`adopt_table`), in case a post went
        out and its id was never kept. If the channel is gone, cancel the table.
        One at a time per table."""
        if table.status not in ("active", "lobby") or table.id in self._posting:
            return
        self._posting.add(table.id)
        try:
            if not (look and await self.adopt_table(table)):
                await self._post_table(table)
        finally:
            self._posting.discard(table.id)

    async def adopt_table(self, table: Table) -> bool:
        """Find the table message of ``table`` that is in its channel (or thread) and
        not kept — the bot stopped, or the process that showed the table died, between
        posting it and keeping its id — among the bot's messages of the channel since
        the table was opened (or its last table message, deleted since, was posted:
        :func:`posted_after`), read back to then (one read, a few in a busy channel:
        :meth:`~bot.present.notify.Notifier.own_since`); keep its id and bring it up
        to date (its buttons are the live ones again); older copies, if any, are
        deleted: one table message a table. False if there is none (or the channel
        cannot be read)."""
        try:
            row = await self.svc.table_repo.require(table.id)
            since = posted_after(table.message_id, row.created_at)
            own = await self.notifier.own_since(table.channel_id, since)
        except (MessageGone, discord.HTTPException) as exc:
            log.info("table %s: its channel's history not read (%s)", table.id, exc)
            return False
        found = [m for m in own if m.id != table.message_id and shows_table(m, table.id)]
        if not found:
            return False
        newest, *older = found  # newest first
        await commit.set_message(self.svc, table, newest.id)
        log.info("table %s: its table message %s found and kept", table.id, newest.id)
        for copy in older:
            with contextlib.suppress(MessageGone, discord.HTTPException):
                await self.notifier.delete(table.channel_id, copy.id)
        self.schedule_table_edit(table)
        self.hands.refresh(table)  # their link to the table message
        return True

    async def _post_table(self, table: Table) -> None:
        picture = await self.table_picture(table, table.game)
        text, view = self.table_message(table, picture)
        try:
            message = await self.notifier.post(table.channel_id, text, view, picture)
        except MessageGone:
            log.warning("table %s: channel unusable, cancelling", table.id)
            async with table.lock:
                if table.status not in ("active", "lobby"):
                    return
                if not await commit.mark_cancelled(self.svc, table):
                    return
            self.tell_hands(
                table,
                lambda: _("Table #{table} was cancelled: its channel is gone.").format(
                    table=table.id
                ),
            )
            return
        except discord.HTTPException as exc:
            log.warning(
                "table %s: could not repost its message (HTTP %s); the next change retries",
                table.id,
                exc.status,
            )
            return
        await commit.set_message(self.svc, table, message.id)


def _review_button(table: Table, events: list[Event]) -> discord.ui.View | None:
    """The Review button under a summary that ends a deal (its number at the table:
    the deal before a new one this commit started, else the last one)."""
    game = table.game
    scored = [i for i, e in enumerate(events) if isinstance(e, DealScored)]
    if game is None or not scored:
        return None
    began = any(isinstance(e, DealStarted) for e in events[scored[-1] :])
    with using(table.language):
        return review_view(table.id, game.deals_total - (1 if began else 0))
