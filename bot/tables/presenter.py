"""Events out to people: the one fan-out of every commit, whoever made it (a
click, the AI, a timer), to the table message, the hand messages (the DM and
every live "My hand" copy) and the channel's summaries.

Everything here renders from engine views (``bot.present.render`` for text,
``bot.present.controls`` for buttons) and talks to Discord through the
:class:`~bot.present.notify.Notifier`: coalesced edits, posts and DMs that may fail
without touching the game. Nothing here writes game state, except
:meth:`Presenter.repost_table` cancelling a table whose channel is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Callable, Coroutine
from typing import Any

import discord

from bot.present import components as ui
from bot.present import render
from bot.present.controls import hand_controls, hand_in_buttons
from bot.present.i18n import LANGUAGES, _, current, using
from bot.present.notify import KEEP, DMClosed, MessageGone, PictureArg, call, release_view
from bot.present.picture import Picture, picture_key
from bot.present.replies import refuse
from bot.store import HumanSeat, StoreError
from bot.tables import commit
from bot.tables.services import Services
from bot.tables.table import HAND_COPIES, HandCopy, Notice, Table, hand_signature
from engine import DealStarted, Event, Game, SeatView, TrickWon

log = logging.getLogger(__name__)

__all__ = ["PICTURE_SHARE", "Presenter"]

PICTURE_SHARE = 0.25
"""The most of one core table pictures may take, bot-wide: after a picture that took
``t`` seconds to draw, the next waits ``3 t``. A few tables never notice; at a busy
bot the pictures of busy tables skip states instead of taking the AI's CPU."""


class Presenter:
    """Renders tables and hands and keeps every message that shows them current."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.notifier = svc.notifier
        self._drawing = asyncio.Lock()  # one table picture drawn at a time, bot-wide
        # tables whose picture waits for the drawing slot, oldest first (ids only: a
        # table that ends and leaves memory meanwhile is not kept alive by the wait)
        self._redraw: dict[int, None] = {}
        self._redrawing: asyncio.Task[None] | None = None
        self._rested_at = 0.0  # loop time from which the next picture may be drawn

    # ================================================================ the fan-out

    def after(self, table: Table, events: list[Event], actor_seat: int | None) -> None:
        """Show the events of one commit: public lines, summaries, hand messages and
        the table message. ``actor_seat``: a seat whose clicked copy the click's own
        answer already shows (its other copies still follow)."""
        info = table.info()
        with using(table.language):  # public: the server's language
            self._after(table, info, events, actor_seat)

    def _after(self, table: Table, info: render.TableInfo, events: list[Event], actor_seat: int | None) -> None:
        if any(isinstance(e, render.SUMMARY_EVENTS) for e in events):
            summary = render.deal_summary(info, events)
            if table.status == "finished" and table.game is not None:
                self.svc.own(self.post_final(table, table.game, summary or ""))
            elif summary:
                self.svc.own(self.post_quietly(table, summary))
        # A trick or a deal ends: the lines of earlier ones go. This commit's own lines
        # stay (a layout card turned up by the trick's last card), except those of a
        # deal that ended in it.
        new_deal = max((i for i, e in enumerate(events) if isinstance(e, DealStarted)), default=-1)
        if new_deal >= 0 or any(isinstance(e, TrickWon) for e in events):
            table.shown.recent.clear()
        table.shown.recent.extend(render.event_lines(info, events[new_deal + 1 :]))
        if table.status != "finished" and new_deal >= 0:
            self.svc.own(self.send_hands_quietly(table))
        else:
            self.refresh_hands(table, skip=actor_seat)
        self.clear_notices(table)
        self.schedule_table_edit(table)

    async def post_quietly(self, table: Table, content: str, picture: Picture | None = None) -> None:
        """Post in the table's thread (or channel); a failure is logged, never raised."""
        await self._post(table, content, picture)

    async def _post(self, table: Table, content: str, picture: Picture | None = None) -> discord.Message | None:
        try:
            return await self.notifier.post(table.feed_id, content, None, picture)
        except (MessageGone, discord.HTTPException) as exc:
            log.warning("could not post at table %s: %s", table.id, exc)
            return None

    async def post_final(self, table: Table, game: Game, summary: str) -> None:
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
            points, chart = await self.svc.painter.summary(game.to_record(), info, game.n_players, wanted)
            for language in LANGUAGES:  # the table's, and each hand DM's in its player's language
                with using(language):
                    table.shown.how_won_in[language] = render.how_won(info, game.observe(0), points)
            how = table.shown.how_won_in.get(table.language, "")
        except Exception:
            log.exception("table %s: could not sum up the finished game", table.id)
        table.shown.how_won = how
        text = "\n".join(x for x in (summary, how) if x)
        if text:
            with using(table.language):
                text = render.fit(text.splitlines())
            await self.post_quietly(table, text, chart)
        self.schedule_table_edit(table)
        self.refresh_hands(table)

    # ================================================================ the table's thread

    async def open_thread(self, table: Table) -> None:
        """A game began: start a public thread from the table message, once per table.

        Deal summaries, turn pings and notices go there (:attr:`Table.feed_id`), so
        the channel keeps the live table message in view, with the thread's link
        under it; spectators follow the thread and never see a hand. Where the bot
        may not create threads (no *Create Public Threads*), everything goes to the
        channel as before; the choice is stored with the table (``thread_id``, 0 for
        none), so a restart keeps it. Never raises."""
        if table.settings.thread_id is not None or table.message_id is None:
            return
        with using(table.language):
            name = _("Table #{table} · {title}").format(table=table.id, title=table.rules.title)
        try:
            thread_id = await self.notifier.create_thread(table.channel_id, table.message_id, name)
        except (MessageGone, discord.HTTPException) as exc:
            log.info("table %s: no thread (%s); summaries go to the channel", table.id, exc)
            thread_id = 0
        async with table.lock:
            await commit.keep_thread(self.svc, table, thread_id)

    # ================================================================ turn notices

    def turn_ping(self, table: Table, seat: int, deadline: float | None) -> None:
        """The human at ``seat`` is to act: a short ping in the table's thread, with the
        deadline as a Discord relative time; deleted once the turn has passed
        (:meth:`clear_notices`). None when the same player just acted by a click and
        still has the turn (laying out after taking the ruff): they are looking."""
        human = table.human(seat)
        if human is None or table.game is None:
            return
        if table.shown.pinged == (seat, table.version) or any(n[:2] == (seat, table.version) for n in table.shown.notices):
            return  # pinged already (before a restart, too)
        table.shown.pinged = (seat, table.version)
        if table.moves and table.moves[-1][1] == seat and table.moves[-1][2] is not None:
            return
        with using(table.language):
            when = _(" — the AI plays for you {time}").format(time=f"<t:{int(deadline)}:R>") if deadline else ""
            text = _("🔔 {player}, your turn at table #{table}{when}.").format(
                player=f"<@{human.user_id}>", table=table.id, when=when
            )
        self.svc.own(self._post_notice(table, seat, table.version, text))

    def turn_warning(self, table: Table, seat: int, version: int, deadline: float) -> None:
        """Time is running out on ``seat``'s turn: a second ping, gone once they move."""
        human = table.human(seat)
        if human is None:
            return
        with using(table.language):
            text = _("⏳ {player}, your turn at table #{table} ends {time} — then the AI plays it.").format(
                player=f"<@{human.user_id}>", table=table.id, time=f"<t:{int(deadline)}:R>"
            )
        self.svc.own(self._post_notice(table, seat, version, text))

    async def _post_notice(self, table: Table, seat: int, version: int, text: str) -> None:
        message = await self._post(table, text)
        if message is None:
            return
        notice = Notice(seat, version, message.channel.id, message.id)
        table.shown.notices.append(notice)
        self.clear_notices(table)  # the turn may have passed while the post was on its way
        if notice in table.shown.notices:
            self.svc.own(self._save_notices(table))

    def clear_notices(self, table: Table) -> None:
        """Delete the turn notices whose turn has passed (the player moved, the AI
        played for them, the game ended)."""
        game = table.game
        live = table.status == "active" and game is not None and not game.is_over
        keep: list[Notice] = []
        for notice in table.shown.notices:
            seat, version, channel_id, message_id = notice
            if live and game is not None and game.version == version and game.to_act() == seat:
                keep.append(notice)
            else:
                self.svc.own(self._delete_quietly(channel_id, message_id))
        if len(keep) != len(table.shown.notices):
            table.shown.notices[:] = keep
            self.svc.own(self._save_notices(table))

    async def _save_notices(self, table: Table) -> None:
        """Keep the live notices' ids with the table (its settings), so a restart can
        still delete them once their turn passes; best effort."""
        async with table.lock:
            await commit.keep_notices(self.svc, table)

    async def _delete_quietly(self, channel_id: int, message_id: int) -> None:
        try:
            await self.notifier.delete(channel_id, message_id)
        except discord.HTTPException as exc:
            log.info("could not delete notice %s (HTTP %s)", message_id, exc.status)

    # ================================================================ the table message

    def lobby_text(self, table: Table, note: str = "") -> str:
        with using(table.language):
            return self._lobby_text(table, note)

    def _lobby_text(self, table: Table, note: str) -> str:
        creator = table.human(0)
        opener = next(
            (s.name for s in table.seats if isinstance(s, HumanSeat) and s.user_id == table.creator_id),
            creator.name if creator else _("someone"),
        )
        return render.lobby_text(table.info(), opener, note)

    def table_text(self, table: Table) -> str:
        with using(table.language):
            return self._table_text(table)

    def _table_text(self, table: Table) -> str:
        game = table.game
        if game is None:
            return self.lobby_text(table)
        view = game.observe(0)
        if game.is_over:
            return render.final_text(table.info(), view, table.shown.how_won)
        return render.table_text(table.info(), view, list(table.shown.recent))

    def table_view(self, table: Table) -> discord.ui.View | None:
        with using(table.language):
            return self._table_view(table)

    def _table_view(self, table: Table) -> discord.ui.View | None:
        if table.status == "finished":
            return ui.finished_view(table.id)
        if table.status == "cancelled":
            return None
        if table.status == "lobby":
            return ui.lobby_view(table.id)
        return ui.table_view(table.id, show_reclaim=bool(table.away))

    def schedule_table_edit(self, table: Table) -> None:
        """Bring the table message up to date (coalesced and rate-limited by the notifier)."""
        if table.message_id is None:
            return

        async def make() -> tuple[str, discord.ui.View | None, PictureArg]:
            game = table.game  # the text and the picture show the same state
            text, view = self.table_text(table), self.table_view(table)
            return text, view, await self.table_picture(table, game)

        async def gone() -> None:
            await self.repost_table(table)

        self.notifier.schedule_edit(table.channel_id, table.message_id, make, gone)

    async def table_picture(self, table: Table, game: Game | None) -> PictureArg:
        """The picture of ``game`` for the table message: drawn off the event loop and
        only when what it shows changed (the table's :class:`~bot.present.picture.PictureCache`);
        ``None`` in the lobby, for an ended table, or where pictures are switched off;
        :data:`~bot.present.notify.KEEP` if drawing failed (the text is complete anyway).
        Its words (seat names ...) are in the table's language."""
        with using(table.language):
            return await self._table_picture(table, game)

    async def _table_picture(self, table: Table, game: Game | None) -> PictureArg:
        if game is None or table.status not in ("active", "finished"):
            return None
        if not await self.svc.server_settings.pictures(table.guild_id):
            return None
        info = table.info()
        view = game.observe(0)
        last = table.shown.pictures.last
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
            return KEEP
        try:
            async with self._drawing:
                return await self._draw(table, info, view)
        except Exception:
            log.exception("table %s: could not draw its picture", table.id)
            return KEEP

    async def _draw(self, table: Table, info: render.TableInfo, view: SeatView) -> Picture:
        """Draw (in the painter's process), then set the rest that keeps pictures
        within their share of a core. Call holding the drawing slot."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            return await table.shown.pictures.get(info, view, info.names, self.svc.painter.table)
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
            self.notifier.schedule_edit(table.channel_id, table.message_id, lambda: (text, None, None))

    def tell_hands(self, table: Table, text: str | Callable[[], str]) -> None:
        """Replace every hand DM of ``table`` with ``text`` (the table was cancelled);
        a callable is called in each player's language (the texts of bot/present/i18n.py)."""
        self.clear_notices(table)
        for seat, (channel_id, message_id) in list(table.shown.hand_msgs.items()):
            with using(self.language_of_seat(table, seat)):
                shown = text() if callable(text) else text
            self.notifier.schedule_edit(channel_id, message_id, self._fixed(shown))

    @staticmethod
    def _fixed(text: str) -> Callable[[], tuple[str, None]]:
        return lambda: (text, None)

    def language_of_seat(self, table: Table, seat: int) -> str:
        """The language of ``seat``'s private messages: its player's latest Discord locale."""
        human = table.human(seat)
        return table.language if human is None else self.svc.user_locales.language(human.user_id)

    async def repost_table(self, table: Table) -> None:
        """The table message was deleted: post a fresh one, or cancel if the channel is gone."""
        if table.status not in ("active", "lobby"):
            return
        game = table.game
        text, view = self.table_text(table), self.table_view(table)
        picture = await self.table_picture(table, game)
        try:
            message = await self.notifier.post(
                table.channel_id, text, view, picture if isinstance(picture, Picture) else None
            )
        except MessageGone:
            log.warning("table %s: channel unusable, cancelling", table.id)
            async with table.lock:
                if table.status not in ("active", "lobby"):
                    return
                if not await commit.mark_cancelled(self.svc, table):
                    return
            self.tell_hands(table, lambda: _("Table #{table} was cancelled: its channel is gone.").format(table=table.id))
            return
        except discord.HTTPException as exc:
            log.warning("table %s: could not repost its message (HTTP %s); the next change retries", table.id, exc.status)
            return
        await commit.set_message(self.svc, table, message.id)

    # ================================================================ hand messages

    def hand(self, table: Table, seat: int, note: str = "") -> tuple[str, discord.ui.View]:
        """``seat``'s hand message: text and controls, from its own view only, in its
        player's language."""
        content, _sig, controls = self._hand_now(table, seat, note)
        return content, controls()

    def _hand_now(self, table: Table, seat: int, note: str = "") -> tuple[str, str, Callable[[], discord.ui.View]]:
        """``seat``'s hand message as the game stands, in its player's language: the
        text, its signature (:func:`hand_signature`), and its controls, built only when
        called (an unchanged hand sends nothing and needs none)."""
        game = table.game
        assert game is not None
        language = self.language_of_seat(table, seat)
        with using(language):
            content, view, away = self._hand_text(table, seat, note)
            sig = hand_signature(table, seat, content)
        version = game.version

        def controls() -> discord.ui.View:
            with using(language):
                return hand_controls(table.id, version, view, away=away)

        return content, sig, controls

    @staticmethod
    def _hand_text(table: Table, seat: int, note: str = "") -> tuple[str, SeatView, bool]:
        assert table.game is not None
        view = table.game.observe(seat)
        away = seat in table.away and view.phase != "over"
        if view.phase == "over" and not note:
            note = table.shown.how_won_in.get(current(), table.shown.how_won)
        played_for = table.shown.played_for.get(seat)
        if played_for and view.phase != "over":
            note = f"{played_for}\n{note}" if note else played_for
        text = render.hand_message(table.info(), view, note, away=away, in_buttons=hand_in_buttons(view, away))
        return text, view, away

    async def show_hand(self, interaction: discord.Interaction[Any], table: Table, note: str = "") -> None:
        """Answer with the clicker's hand as an ephemeral "My hand" copy, kept current."""
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await refuse(interaction, _("You are not playing at this table."))
            return
        if table.game is None:
            await refuse(interaction, _("The game has not started yet."))
            return
        content, sig, controls = self._hand_now(table, seat, note)
        view = controls()
        try:
            response = await interaction.response.send_message(content, view=view, ephemeral=True)
        except discord.HTTPException as exc:
            log.info("could not show a hand (HTTP %s)", exc.status)
            return
        finally:
            release_view(view)
        if response.message_id is not None:
            self.track_copy(table, seat, HandCopy.of(interaction, response.message_id, sig))

    async def send_hands_quietly(self, table: Table) -> None:
        await self.send_hands(table)

    async def send_hands(self, table: Table) -> set[int]:
        """DM every human their new hand; returns the user ids whose DMs are closed."""
        closed: set[int] = set()
        assert table.game is not None
        seats = [s for s in range(len(table.seats)) if table.human(s) is not None]
        # the players' languages, kept for their DMs after a restart (bot/present/locales.py)
        await self.svc.user_locales.save(h.user_id for s in seats if (h := table.human(s)) is not None)
        results = await asyncio.gather(*(self._send_hand(table, s) for s in seats), return_exceptions=True)
        for seat, result in zip(seats, results, strict=True):
            human = table.human(seat)
            assert human is not None
            if result is False:
                closed.add(human.user_id)
            elif isinstance(result, BaseException):
                log.warning("sending the hand to seat %s failed: %r", seat, result)
        return closed

    async def _send_hand(self, table: Table, seat: int) -> bool:
        human = table.human(seat)
        assert human is not None
        content, sig, controls = self._hand_now(table, seat)
        old = table.shown.hand_msgs.get(seat)
        try:
            message = await self.notifier.dm(human.user_id, content, controls())
        except DMClosed:
            if seat not in table.shown.dm_closed:
                table.shown.dm_closed.add(seat)
                with using(table.language):
                    warning = _(
                        "⚠️ {player}, I can't DM you your hand (DMs closed). Press **My hand** on table #{table} to play."
                    ).format(player=f"<@{human.user_id}>", table=table.id)
                with contextlib.suppress(MessageGone, discord.HTTPException):
                    await self.notifier.post(table.feed_id, warning)
            self._refresh_copies(table, seat)
            return False
        self._refresh_copies(table, seat)
        table.shown.dm_closed.discard(seat)
        table.shown.hand_msgs[seat] = (message.channel.id, message.id)
        table.shown.hand_sig[seat] = sig
        await commit.keep_hand_message(self.svc, table, seat, message.channel.id, message.id)
        if old is not None and old[1] != message.id:
            with using(self.language_of_seat(table, seat)):
                earlier = _("(an earlier deal — your current hand is below)")
            self.notifier.schedule_edit(old[0], old[1], lambda: (earlier, None))
        return True

    def refresh_hands(self, table: Table, skip: int | None = None, force: bool = False) -> None:
        """Edit hand messages whose content changed (turn arrived, hand changed): the
        DM and every live "My hand" copy. ``skip``: a seat whose DM was just answered
        in place (its copies are still brought up to date)."""
        if table.game is None:
            return
        for seat in range(len(table.seats)):
            if table.human(seat) is None:
                continue
            self._refresh_copies(table, seat)
            if seat == skip:
                continue
            target = table.shown.hand_msgs.get(seat)
            if target is None:
                continue
            if force:
                table.shown.hand_sig.pop(seat, None)  # shown again whatever it showed

            tries = [0]

            def make(seat: int = seat, tries: list[int] = tries) -> tuple[str, discord.ui.View | None] | None:
                # Rendered when the edit goes out, not now: a click's answer does not
                # wait for every other hand's text, a burst of moves renders each hand
                # once, and an unchanged hand (its owner's DM just answered in place,
                # a move it cannot see) sends nothing. Called again only when its edit
                # failed (the notifier retries it): then it is sent whatever the
                # signature says, since the message does not show it.
                if table.game is None:
                    return None
                tries[0] += 1
                content, sig, controls = self._hand_now(table, seat)
                if tries[0] == 1 and table.shown.hand_sig.get(seat) == sig:
                    return None
                table.shown.hand_sig[seat] = sig
                return content, controls()

            async def gone(seat: int = seat, target: tuple[int, int] = target) -> None:
                # The DM hand message is unreachable (deleted, or the DM channel reset): send a new one.
                if table.shown.hand_msgs.get(seat) != target or table.status != "active":
                    return
                del table.shown.hand_msgs[seat]
                try:
                    await self._send_hand(table, seat)
                except (StoreError, sqlite3.Error, discord.HTTPException) as exc:
                    log.warning("table %s: could not resend seat %s's hand: %r", table.id, seat, exc)

            self.notifier.schedule_edit(target[0], target[1], make, gone)

    # ---------------------------------------------------------------- "My hand" copies

    def track_copy(self, table: Table, seat: int, copy: HandCopy) -> None:
        """Keep ``copy`` (a hand just shown or answered ephemerally) up to date from now on."""
        copies = table.shown.fallback.setdefault(seat, {})
        old = copies.pop(copy.message_id, None)
        if old is not None:
            copy.task = old.task  # an edit in flight renders the latest state when it loops
        copies[copy.message_id] = copy
        while len(copies) > HAND_COPIES:
            del copies[next(iter(copies))]

    def answered(self, table: Table, seat: int, interaction: discord.Interaction[Any], content: str) -> None:
        """Note that the copy of ``seat``'s hand that was clicked now shows ``content``."""
        message = interaction.message
        if message is None:
            return
        sig = hand_signature(table, seat, content)
        dm = table.shown.hand_msgs.get(seat)
        if dm is not None and dm[1] == message.id:
            table.shown.hand_sig[seat] = sig
        elif message.flags.ephemeral:
            self.track_copy(table, seat, HandCopy.of(interaction, message.id, sig))  # a fresh token: 15 more minutes

    def unanswered(self, table: Table, seat: int, interaction: discord.Interaction[Any]) -> None:
        """The answer to a click did not arrive: its copy shows an older state; edit it."""
        message = interaction.message
        if message is None:
            return
        dm = table.shown.hand_msgs.get(seat)
        if dm is not None and dm[1] == message.id:
            table.shown.hand_sig.pop(seat, None)
        else:
            table.shown.fallback.get(seat, {}).pop(message.id, None)
        self.refresh_hands(table)

    def _refresh_copies(self, table: Table, seat: int) -> None:
        """Bring ``seat``'s live "My hand" copies up to date; forget expired ones."""
        copies = table.shown.fallback.get(seat)
        if not copies:
            return
        for message_id, copy in list(copies.items()):
            if copy.expired():
                del copies[message_id]
            elif copy.task is None or copy.task.done():
                copy.task = self.svc.own(self._edit_copy(table, seat, copy))
        if not copies:
            del table.shown.fallback[seat]

    @staticmethod
    def _copy_edit(copy: HandCopy, content: str, view: discord.ui.View) -> Callable[[], Coroutine[Any, Any, Any]]:
        def edit() -> Coroutine[Any, Any, Any]:
            return copy.webhook.edit_message(copy.message_id, content=content, view=view)

        return edit

    async def _edit_copy(self, table: Table, seat: int, copy: HandCopy) -> None:
        """Edit one ephemeral copy until it shows the current state (one edit in flight per copy)."""
        while table.game is not None and not copy.expired():
            content, sig, controls = self._hand_now(table, seat)
            if sig == copy.sig:
                return
            view = controls()
            try:
                await call(self._copy_edit(copy, content, view), f"table {table.id} seat {seat} My hand copy")
            except discord.HTTPException as exc:
                log.info("table %s: could not edit seat %s's My hand copy (HTTP %s)", table.id, seat, exc.status)
                if isinstance(exc, discord.NotFound):
                    break  # token expired or message gone: the player presses My hand again
                return
            finally:
                release_view(view)
            copy.sig = sig
        copies = table.shown.fallback.get(seat, {})
        if copies.get(copy.message_id) is copy:
            del copies[copy.message_id]
