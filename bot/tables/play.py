"""A player's click on a game control: lock → engine → store → answer.

The pipeline of one click, and nothing else:

1. who and which table (not seated, someone else's hand: refused, nothing read);
2. under the table's lock: a stale version or an illegal action is refused;
   otherwise :func:`~bot.tables.commit.commit` checks the actions in the engine and
   writes them durably; :meth:`~bot.tables.drivers.Drivers.committed` fans them out;
3. after the lock: the click is answered with the player's updated hand. If the
   commit has to wait (another writer holds the database), the click is
   deferred before Discord's 3 s run out and answered once the action is on disk.

Adding a game or a phase never touches this module: its actions arrive here
already decoded from the button's ``custom_id``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Sequence
from typing import Any

import discord

from bot.present.i18n import _, ngettext, using
from bot.present.notify import release_view
from bot.present.render.common import cards_text
from bot.present.render.refusals import reason_text
from bot.present.replies import refuse, reply
from bot.store import StoreError
from bot.tables import commit
from bot.tables.drivers import Drivers
from bot.tables.presenter import Presenter
from bot.tables.services import Services
from bot.tables.sync import CATCH_UP_TRIES, TableBehind
from bot.tables.table import ACK_WITHIN, Table
from engine import Action, ActionParseError, Card, CardParseError, IllegalAction, decode_action

log = logging.getLogger(__name__)

__all__ = ["Play"]

Answer = str | tuple[str, discord.ui.View]  # a refusal, or the hand to answer with


class Play:
    """Takes game clicks (card, decision and menu) from the components."""

    def __init__(self, svc: Services, presenter: Presenter, drivers: Drivers) -> None:
        self.svc = svc
        self.presenter = presenter
        self.drivers = drivers

    async def on_action(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        seat: int,
        actions: Sequence[Action],
    ) -> None:
        """A card or decision button was clicked (or a menu chose several cards)."""
        started = time.perf_counter()
        table = await self.svc.current_table(table_id)  # several processes: loaded or caught up
        if table is None or table.status != "active" or table.game is None:
            lost = (
                _lost_race(table, version, seat, interaction.user.id) if table is not None else None
            )
            await refuse(
                interaction, lost or _("This game has ended.")
            )  # lost: a double click on the last card
            return
        mine = table.seat_of(interaction.user.id)
        if mine is None:
            log.debug(
                "user %s clicked a control of table %s, where they do not sit",
                interaction.user.id,
                table_id,
            )
            await refuse(interaction, _("You are not playing at this table."))
            return
        if mine != seat:
            log.debug(
                "user %s clicked seat %s's control at table %s", interaction.user.id, seat, table_id
            )
            await refuse(interaction, _("That is not your hand."))
            return
        work = asyncio.ensure_future(
            self._apply_current(table, seat, version, actions, interaction)
        )
        try:
            outcome = await asyncio.wait_for(asyncio.shield(work), ACK_WITHIN)
            deferred = False
        except TimeoutError:
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.defer()
            deferred = True
            outcome = await work
        if isinstance(outcome, str):
            await refuse(interaction, outcome)
            return
        content, view = outcome
        try:
            if deferred:
                await interaction.edit_original_response(content=content, view=view)
            else:
                await interaction.response.edit_message(content=content, view=view)
        except discord.HTTPException as exc:
            log.info("interaction answer failed (HTTP %s); the move is saved", exc.status)
            self.presenter.hands.unanswered(table, seat, interaction)
        finally:
            release_view(view)
        self.svc.note_ack(started)

    async def on_table_action(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        action: Action,
        done: str,
    ) -> None:
        """An action from a button without a version (the table's **Concede**): the same
        path as a card (lock → engine → store → fan-out, :meth:`_apply`) at the version
        the game is at now; answered privately with ``done`` or the refusal."""
        started = time.perf_counter()
        outcome: Answer = _("The table is busy — nothing changed, please try again.")
        for _try in range(CATCH_UP_TRIES):
            game = table.game
            if table.status != "active" or game is None:
                await refuse(interaction, _("This game has ended."))
                return
            try:
                outcome = await self._apply(table, seat, game.version, [action], interaction)
                break
            except TableBehind:
                # another process moved the table first: catch up, then the action
                # is checked again at the version the game is at now
                await self.svc.sync.catch_up(table)
        if isinstance(outcome, str):
            await refuse(interaction, outcome)
        else:
            await reply(interaction, done)
        self.svc.note_ack(started)

    async def on_pick(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        seat: int,
        verb: str,
        values: Sequence[str],
        confirmed: bool = False,
    ) -> None:
        """The cards to lay out: chosen in the menu (``confirmed`` False), the hand
        message shows the choice with **Confirm** and nothing is laid out yet; its
        **Confirm** (``confirmed``) lays them all out, one ``<verb>:<card>`` action each,
        all or nothing (the engine checks them together on a copy, one commit)."""
        try:
            cards = [Card.parse(v) for v in values]
            actions = [decode_action(f"{verb}:{c.code}") for c in cards]
        except (CardParseError, ActionParseError):
            await refuse(interaction, _("That is not a card."))
            return
        if not cards:
            await refuse(interaction, _("Choose the cards to lay out."))
            return
        if len(set(cards)) != len(cards):
            await refuse(interaction, _("Choose different cards."))
            return
        table = self.svc.tables.get(table_id)
        game = table.game if table else None
        if (
            table is not None
            and game is not None
            and game.version == version
            and game.to_act() == seat
            and table.seat_of(interaction.user.id) == seat
        ):
            view = game.observe(seat)
            # as many as the menu offers when fewer may go now (no-trump jokers first)
            need = min(view.to_lay_out, sum(1 for a in view.legal if a.verb == verb))
            if need and len(cards) != need:
                await refuse(
                    interaction,
                    ngettext(
                        "Choose exactly {n} card to lay out.",
                        "Choose exactly {n} cards to lay out.",
                        need,
                    ).format(n=need),
                )
                return
            if not confirmed and seat not in table.away:
                await self._show_choice(interaction, table, seat, actions, cards)
                return
        await self.on_action(interaction, table_id, version, seat, actions)

    async def _show_choice(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        actions: Sequence[Action],
        cards: Sequence[Card],
    ) -> None:
        """Answer a menu's choice of cards with the hand showing it and **Confirm**: the
        engine checks the choice on a copy first (a card it would refuse is refused now,
        not after Confirm); nothing is stored, nothing changes."""
        game = table.game
        assert game is not None
        trial = game.clone()
        try:
            for action in actions:
                trial.apply(seat, action)
        except IllegalAction as exc:
            await refuse(interaction, reason_text(exc.reason))
            return
        hands = self.presenter.hands
        with using(hands.language_of_seat(table, seat)):
            note = _(
                "You chose {cards} — press **Confirm** to lay them out, or choose again."
            ).format(cards=cards_text(cards))
        content, view = hands.hand(table, seat, note, chosen=cards)
        try:
            await interaction.response.edit_message(content=content, view=view)
        except discord.HTTPException as exc:
            log.info("could not show the chosen cards (HTTP %s); nothing changed", exc.status)
        finally:
            release_view(view)

    async def _apply_current(
        self,
        table: Table,
        seat: int,
        version: int,
        actions: Sequence[Action],
        interaction: discord.Interaction[Any],
    ) -> Answer:
        """:meth:`_apply`; again after catching up when another process moved the table
        between this copy's read and the commit's row lock (the click is then checked
        against the current game: applied once, or refused). In one process the first
        try is the only one."""
        sync = self.svc.sync
        for _try in range(CATCH_UP_TRIES):
            if table.game is None or version > table.game.version:
                # the button is newer than this copy, whose notification is still on its way
                await sync.catch_up(table)
            try:
                return await self._apply(table, seat, version, actions, interaction)
            except TableBehind:
                await sync.catch_up(table)
        return _("The table is busy — nothing changed, please try again.")

    async def _apply(
        self,
        table: Table,
        seat: int,
        version: int,
        actions: Sequence[Action],
        interaction: discord.Interaction[Any],
    ) -> Answer:
        """Under the lock: check and commit a click's actions durably, then fan out.

        Returns the refusal to show, or the hand to answer the click with (the clicked
        copy is already counted as showing it; see :meth:`Presenter.unanswered`).
        """
        user_id = interaction.user.id
        async with table.lock:
            game = table.game
            if table.status != "active" or game is None:
                return _lost_race(table, version, seat, user_id) or _("This game has ended.")
            if version != game.version:
                lost = _lost_race(table, version, seat, user_id)
                if lost is not None:
                    return lost
                if game.to_act() == seat and seat not in table.away:
                    with using(self.presenter.hands.language_of_seat(table, seat)):
                        note = _("That button was from an earlier turn — here is your hand now.")
                    content, view = self.presenter.hands.hand(table, seat, note)
                    self.presenter.hands.answered(table, seat, interaction, content)
                    return content, view
                return _("That hand has moved on — those buttons are from an earlier turn.")
            if seat in table.away:
                return _(
                    "The AI is playing for you — press **Take my seat back** (on your hand or the table) first."
                )
            try:
                await commit.commit(self.svc, table, seat, actions, user_id)
            except IllegalAction as exc:
                return reason_text(exc.reason)
            except TableBehind:
                raise  # another process moved first: caught up and checked again
            except (StoreError, sqlite3.Error):
                log.exception("could not store an action at table %s", table.id)
                return _("Something went wrong saving that — nothing changed, please try again.")
            # the commit has published the events: every other copy of this hand (the
            # DM or a My hand copy) follows by signature when its edit goes out, so the
            # clicked copy is noted as answered before this returns to the event loop
            table.shown.played_for.pop(seat, None)  # the note of a timed-out turn has been seen
            content, view = self.presenter.hands.hand(table, seat)
            self.presenter.hands.answered(table, seat, interaction, content)
            return content, view


def _lost_race(table: Table, version: int, seat: int, user_id: int) -> str | None:
    """What to tell a click on ``seat``'s turn at ``version`` that someone else already took."""
    for before, who, actor in table.moves:
        if before == version and who == seat:
            if actor == user_id:
                return _("✋ Already played — only your first click counts.")
            if actor is None:
                return _("⏰ Too late — the AI already played that turn for you.")
    return None
