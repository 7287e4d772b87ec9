"""Events out to people: the one fan-out of every commit, whoever made it (a
click, the AI, a timer), to the table message, the hand messages (the DM and
every live "My hand" copy) and the channel's summaries.

Everything here renders from engine views (``bot.render`` for text,
``bot.controls`` for buttons) and talks to Discord through the
:class:`~bot.notify.Notifier`: coalesced edits, posts and DMs that may fail
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

from engine import SeatView
from engine.events import DealStarted, Event, TrickWon

from . import components as ui
from . import render
from .commit import mark_cancelled
from .controls import hand_controls
from .notify import DMClosed, MessageGone, call
from .replies import refuse
from .services import Services
from .store import HumanSeat, StoreError
from .tables import HAND_COPIES, HandCopy, Table, hand_signature

log = logging.getLogger(__name__)

__all__ = ["Presenter"]


class Presenter:
    """Renders tables and hands and keeps every message that shows them current."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.notifier = svc.notifier

    # ================================================================ the fan-out

    def after(self, table: Table, events: list[Event], actor_seat: int | None) -> None:
        """Show the events of one commit: public lines, summaries, hand messages and
        the table message. ``actor_seat``: a seat whose clicked copy the click's own
        answer already shows (its other copies still follow)."""
        info = table.info()
        if any(isinstance(e, render.SUMMARY_EVENTS) for e in events):
            summary = render.deal_summary(info, events)
            if summary:
                self.svc.own(self.post_quietly(table, summary))
        # A trick or a deal ends: the lines of earlier ones go. This commit's own lines
        # stay (a layout card turned up by the trick's last card), except those of a
        # deal that ended in it.
        new_deal = max((i for i, e in enumerate(events) if isinstance(e, DealStarted)), default=-1)
        if new_deal >= 0 or any(isinstance(e, TrickWon) for e in events):
            table.recent.clear()
        table.recent.extend(render.event_lines(info, events[new_deal + 1 :]))
        if table.status != "finished" and new_deal >= 0:
            self.svc.own(self.send_hands_quietly(table))
        else:
            self.refresh_hands(table, skip=actor_seat)
        self.schedule_table_edit(table)

    async def post_quietly(self, table: Table, content: str) -> None:
        """Post in the table's channel; a failure is logged, never raised."""
        try:
            await self.notifier.post(table.channel_id, content)
        except (MessageGone, discord.HTTPException) as exc:
            log.warning("could not post at table %s: %s", table.id, exc)

    # ================================================================ the table message

    def lobby_text(self, table: Table, note: str = "") -> str:
        creator = table.human(0)
        opener = next(
            (s.name for s in table.seats if isinstance(s, HumanSeat) and s.user_id == table.creator_id),
            creator.name if creator else "someone",
        )
        return render.lobby_text(table.info(), opener, note)

    def table_text(self, table: Table) -> str:
        game = table.game
        if game is None:
            return self.lobby_text(table)
        view = game.observe(0)
        if game.is_over:
            return render.final_text(table.info(), view)
        return render.table_text(table.info(), view, list(table.recent))

    def table_view(self, table: Table) -> discord.ui.View | None:
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

        def make() -> tuple[str, discord.ui.View | None]:
            return self.table_text(table), self.table_view(table)

        async def gone() -> None:
            await self.repost_table(table)

        self.notifier.schedule_edit(table.channel_id, table.message_id, make, gone)

    def edit_table_to(self, table: Table, text: str) -> None:
        """Replace the table message with ``text`` and no buttons (the table has ended)."""
        if table.message_id:
            self.notifier.schedule_edit(table.channel_id, table.message_id, lambda: (text, None))

    def tell_hands(self, table: Table, text: str) -> None:
        """Replace every hand DM of ``table`` with ``text`` (the table was cancelled)."""
        for channel_id, message_id in list(table.hand_msgs.values()):
            self.notifier.schedule_edit(channel_id, message_id, lambda: (text, None))

    async def repost_table(self, table: Table) -> None:
        """The table message was deleted: post a fresh one, or cancel if the channel is gone."""
        if table.status not in ("active", "lobby"):
            return
        try:
            message = await self.notifier.post(table.channel_id, self.table_text(table), self.table_view(table))
        except MessageGone:
            log.warning("table %s: channel unusable, cancelling", table.id)
            async with table.lock:
                if table.status not in ("active", "lobby"):
                    return
                if not await mark_cancelled(self.svc, table):
                    return
            self.tell_hands(table, f"Table #{table.id} was cancelled: its channel is gone.")
            return
        except discord.HTTPException as exc:
            log.warning("table %s: could not repost its message (HTTP %s); the next change retries", table.id, exc.status)
            return
        table.message_id = message.id
        await self.svc.table_repo.set_message(table.id, message.id)

    # ================================================================ hand messages

    def hand(self, table: Table, seat: int, note: str = "") -> tuple[str, discord.ui.View]:
        """``seat``'s hand message: text and controls, from its own view only."""
        assert table.game is not None
        content, view, away = self._hand_text(table, seat, note)
        return content, hand_controls(table.id, table.game.version, view, away=away)

    def hand_text(self, table: Table, seat: int) -> str:
        """The text of ``seat``'s hand message: enough to tell whether it changed
        (building the buttons costs far more, so they are built only to send)."""
        return self._hand_text(table, seat)[0]

    @staticmethod
    def _hand_text(table: Table, seat: int, note: str = "") -> tuple[str, SeatView, bool]:
        assert table.game is not None
        view = table.game.observe(seat)
        away = seat in table.away and view.phase != "over"
        return render.hand_message(table.info(), view, note, away=away), view, away

    async def show_hand(self, interaction: discord.Interaction[Any], table: Table, note: str = "") -> None:
        """Answer with the clicker's hand as an ephemeral "My hand" copy, kept current."""
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await refuse(interaction, "You are not playing at this table.")
            return
        if table.game is None:
            await refuse(interaction, "The game has not started yet.")
            return
        content, view = self.hand(table, seat, note)
        try:
            response = await interaction.response.send_message(content, view=view, ephemeral=True)
        except discord.HTTPException as exc:
            log.info("could not show a hand (HTTP %s)", exc.status)
            return
        if response.message_id is not None:
            self.track_copy(table, seat, HandCopy.of(interaction, response.message_id, hand_signature(table, seat, content)))

    async def send_hands_quietly(self, table: Table) -> None:
        await self.send_hands(table)

    async def send_hands(self, table: Table) -> set[int]:
        """DM every human their new hand; returns the user ids whose DMs are closed."""
        closed: set[int] = set()
        assert table.game is not None
        seats = [s for s in range(len(table.seats)) if table.human(s) is not None]
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
        content, view = self.hand(table, seat)
        old = table.hand_msgs.get(seat)
        try:
            message = await self.notifier.dm(human.user_id, content, view)
        except DMClosed:
            if seat not in table.dm_closed:
                table.dm_closed.add(seat)
                with contextlib.suppress(MessageGone, discord.HTTPException):
                    await self.notifier.post(
                        table.channel_id,
                        f"⚠️ <@{human.user_id}>, I can't DM you your hand (DMs closed). "
                        f"Press **My hand** on table #{table.id} to play.",
                    )
            self._refresh_copies(table, seat)
            return False
        self._refresh_copies(table, seat)
        table.dm_closed.discard(seat)
        table.hand_msgs[seat] = (message.channel.id, message.id)
        table.hand_sig[seat] = hand_signature(table, seat, content)
        await self.svc.hand_repo.set(table.id, seat, message.channel.id, message.id)
        if old is not None and old[1] != message.id:
            self.notifier.schedule_edit(old[0], old[1], lambda: ("(an earlier deal — your current hand is below)", None))
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
            sig = hand_signature(table, seat, self.hand_text(table, seat))
            if not force and table.hand_sig.get(seat) == sig:
                continue
            table.hand_sig[seat] = sig
            target = table.hand_msgs.get(seat)
            if target is None:
                continue

            def make(seat: int = seat) -> tuple[str, discord.ui.View | None]:
                return self.hand(table, seat)

            async def gone(seat: int = seat, target: tuple[int, int] = target) -> None:
                # The DM hand message is unreachable (deleted, or the DM channel reset): send a new one.
                if table.hand_msgs.get(seat) != target or table.status != "active":
                    return
                del table.hand_msgs[seat]
                try:
                    await self._send_hand(table, seat)
                except (StoreError, sqlite3.Error, discord.HTTPException) as exc:
                    log.warning("table %s: could not resend seat %s's hand: %r", table.id, seat, exc)

            self.notifier.schedule_edit(target[0], target[1], make, gone)

    # ---------------------------------------------------------------- "My hand" copies

    def track_copy(self, table: Table, seat: int, copy: HandCopy) -> None:
        """Keep ``copy`` (a hand just shown or answered ephemerally) up to date from now on."""
        copies = table.fallback.setdefault(seat, {})
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
        dm = table.hand_msgs.get(seat)
        if dm is not None and dm[1] == message.id:
            table.hand_sig[seat] = sig
        elif message.flags.ephemeral:
            self.track_copy(table, seat, HandCopy.of(interaction, message.id, sig))  # a fresh token: 15 more minutes

    def unanswered(self, table: Table, seat: int, interaction: discord.Interaction[Any]) -> None:
        """The answer to a click did not arrive: its copy shows an older state; edit it."""
        message = interaction.message
        if message is None:
            return
        dm = table.hand_msgs.get(seat)
        if dm is not None and dm[1] == message.id:
            table.hand_sig.pop(seat, None)
        else:
            table.fallback.get(seat, {}).pop(message.id, None)
        self.refresh_hands(table)

    def _refresh_copies(self, table: Table, seat: int) -> None:
        """Bring ``seat``'s live "My hand" copies up to date; forget expired ones."""
        copies = table.fallback.get(seat)
        if not copies:
            return
        for message_id, copy in list(copies.items()):
            if copy.expired():
                del copies[message_id]
            elif copy.task is None or copy.task.done():
                copy.task = self.svc.own(self._edit_copy(table, seat, copy))
        if not copies:
            del table.fallback[seat]

    @staticmethod
    def _copy_edit(copy: HandCopy, content: str, view: discord.ui.View) -> Callable[[], Coroutine[Any, Any, Any]]:
        def edit() -> Coroutine[Any, Any, Any]:
            return copy.webhook.edit_message(copy.message_id, content=content, view=view)

        return edit

    async def _edit_copy(self, table: Table, seat: int, copy: HandCopy) -> None:
        """Edit one ephemeral copy until it shows the current state (one edit in flight per copy)."""
        while table.game is not None and not copy.expired():
            sig = hand_signature(table, seat, self.hand_text(table, seat))
            if sig == copy.sig:
                return
            content, view = self.hand(table, seat)
            try:
                await call(self._copy_edit(copy, content, view), f"table {table.id} seat {seat} My hand copy")
            except discord.HTTPException as exc:
                log.info("table %s: could not edit seat %s's My hand copy (HTTP %s)", table.id, seat, exc.status)
                if isinstance(exc, discord.NotFound):
                    break  # token expired or message gone: the player presses My hand again
                return
            copy.sig = sig
        copies = table.fallback.get(seat, {})
        if copies.get(copy.message_id) is copy:
            del copies[copy.message_id]
