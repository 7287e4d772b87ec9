"""The hand messages: each player's private hand, by DM with card buttons, and the
ephemeral "My hand" copies a player asks for (when DMs are closed, or to see it in
the channel) — sent, kept current as the game moves, and told when it ends. A new
deal's hand comes as a new DM (a notification) and the deal before's is deleted, so
a player's DM holds one hand, never a stub per deal.

Each hand is rendered from its own seat's view only, in its player's language;
edits are coalesced by the notifier and rendered when they go out, so a burst of
moves renders each hand once and an unchanged hand sends nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_ui.services import DiscordServices
from bot.discord_ui.shown import shown
from bot.present import render
from bot.present.controls import hand_controls, hand_in_buttons, hint_button, look_buttons
from bot.present.i18n import _, using
from bot.present.notify import DMClosed, MessageGone, call, release_view
from bot.present.replies import refuse
from bot.store import StoreError
from bot.tables import commit
from bot.tables.events import parse_event_key
from bot.tables.kinds import TableKind
from bot.tables.table import HAND_COPIES, Table, hand_signature, turn_deadline
from engine import Card, SeatView

log = logging.getLogger(__name__)

__all__ = ["Hands"]

COPY_STOPS_BEFORE = 60.0  # a My hand copy says it stopped this long before its token expires
COPY_EDIT_WAIT = 5.0  # seconds to let an edit in flight finish before saying it stopped


HAND_COPY_MARGIN = 10.0  # stop editing a copy this long before its token expires (seconds)


@dataclass
class HandCopy:
    """A player's ephemeral "My hand" copy: just what editing it later takes.

    Not the ``discord.Interaction``: the follow-up webhook (application id and
    token), the message id and when the token expires (epoch seconds).
    """

    webhook: discord.Webhook
    message_id: int
    expires: float
    sig: str = ""  # what it shows now (see ``hand_signature``)
    task: asyncio.Task[None] | None = None  # the edit in flight, if any

    @classmethod
    def of(cls, interaction: discord.Interaction[Any], message_id: int, sig: str) -> HandCopy:
        return cls(interaction.followup, message_id, interaction.expires_at.timestamp(), sig)

    def expired(self) -> bool:
        return discord.utils.utcnow().timestamp() >= self.expires - HAND_COPY_MARGIN


class Hands:
    """Sends every player's hand and keeps each copy of it current."""

    def __init__(self, svc: DiscordServices) -> None:
        self.svc = svc
        self.notifier = svc.notifier
        # each tracked My hand copy's timer to say it stopped (by message id)
        self._stoppers: dict[int, asyncio.Task[None]] = {}

    def language_of_seat(self, table: Table, seat: int) -> str:
        """The language of ``seat``'s private messages: its player's latest Discord locale."""
        human = table.human(seat)
        return table.language if human is None else self.svc.user_locales.language(human.user_id)

    def hand(
        self, table: Table, seat: int, note: str = "", chosen: Sequence[Card] = ()
    ) -> tuple[str, discord.ui.View]:
        """``seat``'s hand message: text and controls, from its own view only, in its
        player's language (``chosen``: cards chosen to lay out, awaiting Confirm)."""
        content, _sig, controls = self._hand_now(table, seat, note, chosen)
        return content, controls()

    def _hand_now(
        self, table: Table, seat: int, note: str = "", chosen: Sequence[Card] = ()
    ) -> tuple[str, str, Callable[[], discord.ui.View]]:
        """``seat``'s hand message as the game stands, in its player's language: the
        text, its signature (:func:`hand_signature`), and its controls, built only when
        called (an unchanged hand sends nothing and needs none)."""
        game = table.game
        assert game is not None
        language = self.language_of_seat(table, seat)
        version = game.version
        key: tuple[Any, ...]
        if seat in table.away and not game.is_over:
            # the AI plays for its absent player: the message says so and follows nothing
            # of the game, so it is drawn once for the whole absence, not once a move
            key = self._away_key(table, seat, language)
        else:
            how = ""
            if game.is_over:
                with using(language):
                    how = shown(table).how_won_here()
            # the same hand at the same move is drawn once: a click's answer and its DM's
            # edit, a "My hand" copy and the DM; a game that is over once more when its
            # "how it was won" line arrives (``Presenter.post_final``), after its last move
            key = (
                game,
                version,
                language,
                note,
                table.away,
                shown(table).played_for.get(seat),
                table.message_id,
                turn_deadline(table, seat),  # a turn's deadline may be known after its move
                how,
            )
        drawn = shown(table).hands_drawn.get(seat)
        if drawn is not None and drawn[0] == key:
            _key, content, sig, view, away = drawn
        else:
            with using(language):
                content, view, away = self._hand_text(table, seat, note)
                sig = hand_signature(table, seat, content)
            shown(table).hands_drawn[seat] = (key, content, sig, view, away)

        def controls() -> discord.ui.View:
            with using(language):
                ui = hand_controls(table.id, version, view, away=away, chosen=chosen)
                if table.kind.rules.hint_button and view.my_turn and not away:
                    hint_button(ui, table.id, version, seat)  # a table with hints, your turn
                if table.kind is TableKind.BOARD and view.phase != "over":  # no table message: here
                    look_buttons(ui, table.id)
                return ui

        return content, sig, controls

    @staticmethod
    def _away_key(table: Table, seat: int, language: str) -> tuple[Any, ...]:
        """What the message of a seat the AI plays for is drawn from: nothing of the
        game (:func:`~bot.present.render.away_message`), so no move changes it."""
        return ("away", language, table.away, table.message_id, shown(table).played_for.get(seat))

    @staticmethod
    def _hand_text(table: Table, seat: int, note: str = "") -> tuple[str, SeatView, bool]:
        assert table.game is not None
        view = table.view(seat)
        away = seat in table.away and view.phase != "over"
        if view.phase == "over" and table.kind is TableKind.BOARD:  # its result message follows
            return _("🏁 The board is over — its result follows."), view, False
        if away:  # nothing of the game: the AI's moves are not theirs to follow card by card
            return (
                render.away_message(table.info(), view, shown(table).played_for.get(seat, "")),
                view,
                True,
            )
        if view.phase == "over" and not note:
            note = shown(table).how_won_here()
            if not note and not table.kind_rules.rematch:  # no Rematch to point to
                note = _("See the table for the final summary.")
        played_for = shown(table).played_for.get(seat)
        if played_for and view.phase != "over":
            note = f"{played_for}\n{note}" if note else played_for
        over = ""
        if view.phase == "over" and table.settings.event:  # one board of an event
            event_id, _round, _table, board = parse_event_key(table.settings.event)
            over = _("🏁 Board {board} of Event #{id} is over.").format(board=board, id=event_id)
            note = "\n".join(
                x
                for x in (
                    note,
                    _(
                        "It counts for the event (not who won it here): the standings come "
                        "in the event's channel when the round is over."
                    ),
                )
                if x
            )
        text = render.hand_message(
            table.info(),
            view,
            note,
            in_buttons=hand_in_buttons(view, False),
            deadline=turn_deadline(table, seat) if view.my_turn else None,
            over=over,
        )
        return text, view, False

    async def show(
        self, interaction: discord.Interaction[Any], table: Table, note: str = ""
    ) -> None:
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

    async def send_all_quietly(self, table: Table) -> None:
        await self.send_all(table)

    async def send_all(self, table: Table) -> set[int]:
        """DM every human their new hand; returns the user ids whose DMs are closed."""
        closed: set[int] = set()
        assert table.game is not None
        seats = [s for s in range(len(table.seats)) if table.human(s) is not None]
        # the players' languages, kept for their DMs after a restart (bot/present/locales.py)
        await self.svc.user_locales.save(
            h.user_id for s in seats if (h := table.human(s)) is not None
        )
        results = await asyncio.gather(
            *(self._send_hand(table, s) for s in seats), return_exceptions=True
        )
        for seat, result in zip(seats, results, strict=True):
            human = table.human(seat)
            assert human is not None
            if result is False:
                closed.add(human.user_id)
            elif isinstance(result, BaseException):
                log.warning("sending the hand to seat %s failed: %r", seat, result)
        # sent here for a table another process may run (a start or rematch from a web
        # page on the pages' process): its owner learns the DMs now, to edit them
        await self.svc.sync.hands_sent(table)
        return closed

    async def _send_hand(self, table: Table, seat: int) -> bool:
        human = table.human(seat)
        assert human is not None
        content, sig, controls = self._hand_now(table, seat)
        old = table.hand_messages.get(seat)
        try:
            message = await self.notifier.dm(human.user_id, content, controls())
        except DMClosed:
            if seat not in shown(table).dm_closed:
                shown(table).dm_closed.add(seat)
                with using(table.language):
                    warning = _(
                        "⚠️ {player}, I can't DM you your hand (DMs closed). Press **My hand** on table #{table} to play."
                    ).format(player=f"<@{human.user_id}>", table=table.id)
                with contextlib.suppress(MessageGone, discord.HTTPException):
                    await self.notifier.post(table.feed_id, warning)
            self._refresh_copies(table, seat)
            return False
        self._refresh_copies(table, seat)
        shown(table).dm_closed.discard(seat)
        table.hand_messages[seat] = (message.channel.id, message.id)
        shown(table).hand_sig[seat] = sig
        await commit.keep_hand_message(self.svc, table, seat, message.channel.id, message.id)
        if old is not None and old[1] != message.id:  # the deal before: gone, not a stub
            self.svc.own(self._delete_quietly(*old), name=f"delete-hand-{old[1]}")
        return True

    async def _delete_quietly(self, channel_id: int, message_id: int) -> None:
        try:
            await self.notifier.delete(channel_id, message_id)
        except (MessageGone, discord.HTTPException) as exc:
            log.info("could not delete an earlier hand message %s: %r", message_id, exc)

    def refresh(self, table: Table, skip: int | None = None, force: bool = False) -> None:
        """Edit hand messages whose content changed (turn arrived, hand changed): the
        DM and every live "My hand" copy. ``skip``: a seat whose DM was just answered
        in place (its copies are still brought up to date)."""
        if table.game is None or (table.kind is TableKind.BOARD and table.status == "finished"):
            return  # a finished board's DM is its result message now (bot/features/daily)
        for seat in range(len(table.seats)):
            if table.human(seat) is None:
                continue
            self._refresh_copies(table, seat)
            if seat == skip:
                continue
            target = table.hand_messages.get(seat)
            if target is None:
                continue
            if force:
                shown(table).hand_sig.pop(seat, None)  # shown again whatever it showed
            elif seat in table.away and self._away_shown(table, seat):
                continue  # "the AI plays for you", shown already: a move changes nothing of it

            tries = [0]

            def make(
                seat: int = seat, tries: list[int] = tries
            ) -> tuple[str, discord.ui.View | None] | None:
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
                if tries[0] == 1 and shown(table).hand_sig.get(seat) == sig:
                    return None
                shown(table).hand_sig[seat] = sig
                return content, controls()

            async def gone(seat: int = seat, target: tuple[int, int] = target) -> None:
                # The DM hand message is unreachable (deleted, or the DM channel reset): send a new one.
                if table.hand_messages.get(seat) != target or table.status != "active":
                    return
                del table.hand_messages[seat]
                try:
                    await self._send_hand(table, seat)
                except (StoreError, discord.HTTPException) as exc:
                    log.warning(
                        "table %s: could not resend seat %s's hand: %r", table.id, seat, exc
                    )

            self.notifier.schedule_edit(target[0], target[1], make, gone)

    def _away_shown(self, table: Table, seat: int) -> bool:
        """Whether the DM of ``seat``, which the AI plays for, shows its message for this
        absence as it stands: the key it was drawn from compared, nothing drawn or built
        (a move at a table with absent players costs them nothing; an event's no-shows
        are three seats of a table)."""
        if table.game is None or table.game.is_over:
            return False  # the end shows their hand and the result
        drawn = shown(table).hands_drawn.get(seat)
        return (
            drawn is not None
            and drawn[0] == self._away_key(table, seat, self.language_of_seat(table, seat))
            and shown(table).hand_sig.get(seat) == drawn[2]
        )

    def track_copy(self, table: Table, seat: int, copy: HandCopy) -> None:
        """Keep ``copy`` (a hand just shown or answered ephemerally) up to date from now on,
        until a minute before its token expires: then it says it stopped (:meth:`_stop_later`)."""
        copies = shown(table).fallback.setdefault(seat, {})
        old = copies.pop(copy.message_id, None)
        if old is not None:
            copy.task = old.task  # an edit in flight renders the latest state when it loops
        copies[copy.message_id] = copy
        while len(copies) > HAND_COPIES:  # the oldest is let go: it says so at once
            oldest = copies.pop(next(iter(copies)))
            self.svc.own(self._say_stopped(table, seat, oldest), name="hand-copy-stopped")
        earlier = self._stoppers.pop(copy.message_id, None)
        if earlier is not None and not earlier.done():
            earlier.cancel()  # a fresher token: its own timer replaces the one before
        self._stoppers[copy.message_id] = self.svc.own(
            self._stop_later(table, seat, copy), name=f"hand-copy-{copy.message_id}"
        )

    async def _stop_later(self, table: Table, seat: int, copy: HandCopy) -> None:
        """A minute before ``copy``'s interaction token expires (15 minutes after it was
        shown or last clicked), edit it to say it has stopped updating, so it never goes
        stale silently; a click on it meanwhile gave it a fresh token and a new timer."""
        now = discord.utils.utcnow().timestamp()
        await asyncio.sleep(max(0.0, copy.expires - COPY_STOPS_BEFORE - now))
        if self._stoppers.get(copy.message_id) is asyncio.current_task():
            del self._stoppers[copy.message_id]
        copies = shown(table).fallback.get(seat, {})
        if copies.get(copy.message_id) is not copy:
            return  # replaced by a fresher copy of the same message, or let go already
        del copies[copy.message_id]
        if not copies:
            shown(table).fallback.pop(seat, None)
        await self._say_stopped(table, seat, copy)

    async def _say_stopped(self, table: Table, seat: int, copy: HandCopy) -> None:
        """Edit ``copy`` to say it no longer follows the game (its buttons removed)."""
        copy.expires = 0.0  # an edit loop still running on it ends
        if copy.task is not None and not copy.task.done():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(copy.task), COPY_EDIT_WAIT)
        if table.human(seat) is None:
            return
        with using(self.language_of_seat(table, seat)):
            text = _(
                "⌛ This copy of your hand has stopped updating (Discord lets a private reply "
                "be edited for 15 minutes) — use `/ruff hand` or **My hand** on table #{table} "
                "again."
            ).format(table=table.id)

        def edit() -> Coroutine[Any, Any, Any]:
            return copy.webhook.edit_message(copy.message_id, content=text, view=None)

        try:
            await call(edit, f"table {table.id} seat {seat} My hand copy stops")
        except discord.HTTPException as exc:
            log.info(
                "table %s: could not mark a My hand copy stopped (HTTP %s)", table.id, exc.status
            )

    def answered(
        self, table: Table, seat: int, interaction: discord.Interaction[Any], content: str
    ) -> None:
        """Note that the copy of ``seat``'s hand that was clicked now shows ``content``."""
        message = interaction.message
        if message is None:
            return
        sig = hand_signature(table, seat, content)
        dm = table.hand_messages.get(seat)
        if dm is not None and dm[1] == message.id:
            shown(table).hand_sig[seat] = sig
        elif message.flags.ephemeral:
            self.track_copy(
                table, seat, HandCopy.of(interaction, message.id, sig)
            )  # a fresh token: 15 more minutes

    def unanswered(self, table: Table, seat: int, interaction: discord.Interaction[Any]) -> None:
        """The answer to a click did not arrive: its copy shows an older state; edit it."""
        message = interaction.message
        if message is None:
            return
        dm = table.hand_messages.get(seat)
        if dm is not None and dm[1] == message.id:
            shown(table).hand_sig.pop(seat, None)
        else:
            shown(table).fallback.get(seat, {}).pop(message.id, None)
        self.refresh(table)

    def refresh_copies(self, table: Table) -> None:
        """Bring every live "My hand" copy this process showed up to date (and nothing
        else: the DMs and the table message are the owning process's)."""
        for seat in list(shown(table).fallback):
            self._refresh_copies(table, seat)

    def _refresh_copies(self, table: Table, seat: int) -> None:
        """Bring ``seat``'s live "My hand" copies up to date; forget expired ones."""
        copies = shown(table).fallback.get(seat)
        if not copies:
            return
        for message_id, copy in list(copies.items()):
            if copy.expired():
                del copies[message_id]
            elif copy.task is None or copy.task.done():
                copy.task = self.svc.own(self._edit_copy(table, seat, copy))
        if not copies:
            del shown(table).fallback[seat]

    @staticmethod
    def _copy_edit(
        copy: HandCopy, content: str, view: discord.ui.View
    ) -> Callable[[], Coroutine[Any, Any, Any]]:
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
                await call(
                    self._copy_edit(copy, content, view),
                    f"table {table.id} seat {seat} My hand copy",
                )
            except discord.HTTPException as exc:
                log.info(
                    "table %s: could not edit seat %s's My hand copy (HTTP %s)",
                    table.id,
                    seat,
                    exc.status,
                )
                if isinstance(exc, discord.NotFound):
                    break  # token expired or message gone: the player presses My hand again
                return
            finally:
                release_view(view)
            copy.sig = sig
        copies = shown(table).fallback.get(seat, {})
        if copies.get(copy.message_id) is copy:
            del copies[copy.message_id]
