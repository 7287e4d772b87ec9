"""A player's click on a game control, answered in Discord.

The decision is :func:`bot.tables.act.act`'s (who may act, stale and lost races,
the engine, the durable commit); this module turns its :class:`~bot.tables.act.Outcome`
into the interaction's answer: the player's updated hand, or the outcome's words.
If the commit has to wait (another writer holds the database), the click is
deferred before Discord's 3 s run out and answered once the action is on disk.
The menu of cards to lay out shows the choice with **Confirm** first.

Adding a game or a phase never touches this module: its actions arrive here
already decoded from the button's ``custom_id``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord_ui.presenter import Presenter
from bot.discord_ui.services import DiscordServices
from bot.discord_ui.shown import shown
from bot.present.i18n import _, ngettext, using
from bot.present.notify import release_view
from bot.present.render.common import cards_text
from bot.present.render.refusals import reason_text
from bot.present.replies import refuse, reply
from bot.tables.act import Decided, Outcome, Reason, act, outcome_text
from bot.tables.drivers import Drivers
from bot.tables.table import ACK_WITHIN, Table
from engine import Action, ActionParseError, Card, CardParseError, IllegalAction, decode_action

log = logging.getLogger(__name__)

__all__ = ["Play"]


class Play:
    """Takes game clicks (card, decision and menu) from the components."""

    def __init__(self, svc: DiscordServices, presenter: Presenter, drivers: Drivers) -> None:
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
        """A card or decision button was clicked (or a menu chose several cards):
        :func:`~bot.tables.act.act` decides; the click is answered with the player's
        hand, or the outcome's words."""
        started = time.perf_counter()
        hand: list[tuple[str, discord.ui.View]] = []
        work = asyncio.ensure_future(
            act(
                self.svc,
                table_id,
                interaction.user.id,
                version,
                seat,
                actions,
                decided=self._answer_with_hand(interaction, seat, hand),
            )
        )
        try:
            outcome = await asyncio.wait_for(asyncio.shield(work), ACK_WITHIN)
            deferred = False
        except TimeoutError:
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.defer()
            deferred = True
            outcome = await work
        if not hand:
            await refuse(interaction, outcome_text(outcome))
            return
        content, view = hand[0]
        table = self.svc.tables.get(table_id)
        try:
            if deferred:
                await interaction.edit_original_response(content=content, view=view)
            else:
                await interaction.response.edit_message(content=content, view=view)
        except discord.HTTPException as exc:
            log.info("interaction answer failed (HTTP %s); the move is saved", exc.status)
            if table is not None:
                self.presenter.hands.unanswered(table, seat, interaction)
        finally:
            release_view(view)
        self.svc.note_ack(started)

    def _answer_with_hand(
        self,
        interaction: discord.Interaction[Any],
        seat: int,
        hand: list[tuple[str, discord.ui.View]],
    ) -> Decided:
        """What :func:`act` calls under the lock when the click is to be answered with
        the hand (applied, or stale on the player's own turn): the hand is drawn and
        the clicked copy noted as answered before any other edit of it may go out
        (every other copy follows by signature)."""

        def decided(table: Table, outcome: Outcome) -> None:
            hands = self.presenter.hands
            if outcome.applied:
                shown(table).played_for.pop(seat, None)  # a timed-out turn's note is seen
                content, view = hands.hand(table, seat)
            else:
                with using(hands.language_of_seat(table, seat)):
                    note = outcome_text(outcome)
                content, view = hands.hand(table, seat, note)
            hands.answered(table, seat, interaction, content)
            hand.append((content, view))

        return decided

    async def on_table_action(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        action: Action,
        done: str,
    ) -> None:
        """An action from a button without a version (the table's **Concede**): the same
        :func:`act` as a card, at the version the game is at now; answered privately
        with ``done`` or the outcome's words."""
        started = time.perf_counter()
        outcome = await act(self.svc, table.id, interaction.user.id, None, seat, [action])
        if outcome.reason is Reason.ENDED:
            await refuse(interaction, outcome_text(outcome))
            return
        if outcome.applied:
            await reply(interaction, done)
        else:
            await refuse(interaction, outcome_text(outcome))
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
