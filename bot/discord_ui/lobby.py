"""A table's life outside play: opening it, seats (join, leave, add AI), start,
cancel, rematch, and taking a seat back from the AI.

Each change is made under the table's lock and written durably first; Discord
is answered only after the lock is released, so a slow or retried answer never
holds the table (or its AI and timers) up.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

import discord

from bot.discord_ui.presenter import Presenter
from bot.discord_ui.services import DiscordServices
from bot.discord_ui.shown import shown
from bot.present import layout, render
from bot.present.i18n import _, using
from bot.present.notify import MessageGone, call, release_view
from bot.present.render import seat_names
from bot.present.render.refusals import reason_text
from bot.present.replies import refuse, reply
from bot.store import AISeat, ChannelBusy, HumanSeat, StoreError, TableRow, VersionConflict
from bot.tables import commit
from bot.tables.drivers import Drivers
from bot.tables.kinds import TableKind, TableSpec
from bot.tables.sync import CATCH_UP_TRIES
from bot.tables.table import (
    AI_NAMES,
    Table,
    TableSettings,
    first_free,
    hand_signature,
    parse_options,
    take_hints,
)
from engine import RulesError, make_rules

log = logging.getLogger(__name__)

__all__ = ["Lobby", "jump"]


def jump(row: TableRow | Table) -> str:
    """``table #N`` with a link to its message, when it has one."""
    if not row.message_id:
        return _("table #{table}").format(table=row.id)
    return _("table #{table}").format(table=row.id) + (
        f" — https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.message_id}"
    )


class Lobby:
    """Opens tables and handles the buttons on the table message."""

    def __init__(self, svc: DiscordServices, presenter: Presenter, drivers: Drivers) -> None:
        self.svc = svc
        self.presenter = presenter
        self.drivers = drivers

    # ================================================================ /ruff new

    async def new_table(
        self,
        interaction: discord.Interaction[Any],
        game_id: str,
        preset: str | None,
        target: int | None,
        options: str | None,
    ) -> None:
        """``/ruff new``: open a lobby in this channel, the invoker in the first seat."""
        if interaction.guild is None or interaction.channel is None:
            await refuse(
                interaction, _("Tables live in server channels — run `/ruff new` in a server.")
            )
            return
        perms = interaction.app_permissions
        missing = [
            name
            for name, ok in (
                (_("View Channel"), perms.view_channel),
                (_("Send Messages"), perms.send_messages),
                (_("Read Message History"), perms.read_message_history),
            )
            if not ok
        ]
        if missing:
            await refuse(
                interaction,
                _("I can't run a table here: I need {permissions} in this channel.").format(
                    permissions=", ".join(missing)
                ),
            )
            return
        try:
            overrides = parse_options(options)
            hints = take_hints(overrides)
            if target is not None:
                overrides["target_score"] = str(target)
            rules = make_rules(game_id, preset, overrides)
        except RulesError as exc:
            await refuse(interaction, f"⚠️ {reason_text(str(exc))}")
            return
        svc = self.svc
        existing = await svc.table_repo.get_open_by_channel(interaction.channel.id)
        if existing is not None:
            await refuse(
                interaction,
                _("This channel already has a table: {table}").format(table=jump(existing)),
            )
            return
        svc.tables.forget_ended()
        user = interaction.user
        try:
            table = await commit.open_table(
                svc,
                TableSpec(
                    kind=TableKind.HINTS if hints else TableKind.ORDINARY,
                    rules=rules,
                    guild_id=interaction.guild.id,
                    channel_id=interaction.channel.id,
                    creator_id=user.id,
                    seats=[HumanSeat(user.id, user.display_name)] + [None] * (rules.players - 1),
                    guild_name=interaction.guild.name,
                    channel_name=getattr(interaction.channel, "name", ""),
                ),
            )
        except ChannelBusy:
            existing = await svc.table_repo.get_open_by_channel(interaction.channel.id)
            await refuse(
                interaction,
                _("This channel already has a table: {table}").format(table=jump(existing))
                if existing
                else _("This channel already has a table."),
            )
            return
        table.language = await svc.server_settings.language(interaction.guild.id)
        svc.tables.add(table)
        self.drivers.arm_lobby_timer(
            table
        )  # before any Discord call: an unanswered lobby still expires
        _text, lobby_view = self.presenter.table_message(table)  # the server's language
        try:
            await interaction.response.send_message(
                view=lobby_view, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as exc:
            # Nobody saw the table: free the channel rather than block it until expiry.
            log.warning("could not post table %s (HTTP %s); cancelling it", table.id, exc.status)
            async with table.lock:
                await commit.mark_cancelled(svc, table)
            return
        finally:
            release_view(lobby_view)
        try:
            message = await call(interaction.original_response, f"table {table.id} message")
        except discord.HTTPException as exc:
            log.warning(
                "table %s: could not fetch its message (HTTP %s); adopted on the next click",
                table.id,
                exc.status,
            )
            return
        await commit.set_message(svc, table, message.id)

    # ================================================================ table buttons

    async def on_table_button(
        self, interaction: discord.Interaction[Any], table_id: int, verb: str
    ) -> None:
        started = time.perf_counter()
        table = await self.svc.current_table(table_id)  # several processes: loaded or caught up
        if verb == "rematch":
            await self._rematch(interaction, table_id)
            return
        if table is None or table.status not in ("lobby", "active"):
            await refuse(interaction, _("This table has ended."))
            return
        self.presenter.refresh_classic(table, interaction.message)
        if verb == "reclaim" and interaction.guild is None:
            await self._reclaim(interaction, table)  # from the hand DM: the seat check is enough
            self.svc.note_ack(started)
            return
        if interaction.guild is None or interaction.guild.id != table.guild_id:
            await refuse(interaction, _("That table belongs to another server."))
            return
        if verb == "hand":
            await self.presenter.hands.show(interaction, table)
        elif verb == "reclaim":
            await self._reclaim(interaction, table)
        elif verb == "cancel":
            await self.cancel(interaction, table, respond_by_edit=True)
        elif table.status != "lobby":
            await refuse(interaction, _("The game has already started."))
        elif verb == "start":
            await self._start(interaction, table)
        else:
            await self._lobby_change(interaction, table, verb)
        self.svc.note_ack(started)

    async def _lobby_change(
        self, interaction: discord.Interaction[Any], table: Table, verb: str
    ) -> None:
        refusal = await self.change_seats(
            table, interaction.user.id, interaction.user.display_name, verb
        )
        # Discord calls only after the lock: a slow answer never holds the table up
        if refusal is not None:
            await refuse(interaction, refusal)
            return
        await self._adopt_message(table, interaction)
        _text, lobby_view = self.presenter.table_message(table)
        try:
            await interaction.response.edit_message(
                content=None, view=lobby_view, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as exc:
            log.info(
                "lobby answer failed (HTTP %s); the seat change is saved, redrawing", exc.status
            )
            self.presenter.schedule_table_edit(table)
        finally:
            release_view(lobby_view)

    async def change_seats(self, table: Table, user_id: int, name: str, verb: str) -> str | None:
        """Join, leave or add an AI (``verb``) for ``user_id`` (seated as ``name``) under
        the lock, durably; the refusal, if any — for every front. A copy
        that lost a race to another process catches up and the change is decided again
        on the table as it is now (as a click in play is)."""
        for _try in range(CATCH_UP_TRIES):
            try:
                return await self._change_seats_once(table, user_id, name, verb)
            except VersionConflict:
                await self.svc.sync.catch_up(table)
        return _("The table changed meanwhile — try again.")

    async def _change_seats_once(
        self, table: Table, user_id: int, name: str, verb: str
    ) -> str | None:
        async with table.lock:
            if table.status != "lobby":
                return _("The game has already started.")
            seats = list(table.seats)
            mine = table.seat_of(user_id)
            if verb == "join":
                if mine is not None:
                    return _("You already sit {seat}.").format(seat=seat_names(len(seats))[mine])
                free = first_free(seats)
                if free is None:
                    return _("The table is full.")
                seats[free] = HumanSeat(user_id, name)
            elif verb == "leave":
                if mine is None:
                    return _("You are not at this table.")
                if user_id == table.creator_id:
                    return _("You opened this table: use Cancel to close it.")
                seats[mine] = None
            elif verb.startswith("ai-"):
                if mine is None:
                    return _("Only players at the table can add AI players.")
                free = first_free(seats)
                if free is None:
                    return _("The table is full.")
                used = {s.name for s in seats if isinstance(s, AISeat)}
                name = next(n for n in AI_NAMES if n not in used)
                seats[free] = AISeat(verb[3:], name)  # type: ignore[arg-type]
            await commit.change_seats(self.svc, table, seats)  # VersionConflict: lost a race
            return None

    async def _adopt_message(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        """If the table's message id was never learnt, take it from a click on its buttons."""
        if (
            table.message_id is None
            and interaction.message is not None
            and interaction.guild is not None
        ):
            with contextlib.suppress(StoreError):
                await commit.set_message(self.svc, table, interaction.message.id)

    # ================================================================ start

    async def _start(self, interaction: discord.Interaction[Any], table: Table) -> None:
        user = interaction.user
        refusal = await self.begin(table, user.id)
        # Discord calls only after the lock: the game is durable and its AI may move meanwhile
        if refusal is not None:
            await refuse(interaction, refusal)
            return
        await self._adopt_message(table, interaction)
        _text, table_view = self.presenter.table_message(table)  # the picture follows
        try:
            await interaction.response.edit_message(
                content=None, view=table_view, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as exc:
            log.info("start answer failed (HTTP %s); the game has started, redrawing", exc.status)
        finally:
            release_view(table_view)
        await self.presenter.open_thread(table)
        self.presenter.schedule_table_edit(table)  # the picture, and the thread's link
        closed = await self.presenter.hands.send_all(table)
        if user.id in closed:
            await reply(
                interaction,
                _(
                    "I can't DM you (your DMs are closed for this server). Press **My hand** on the table to play."
                ),
            )
        self.drivers.kick(table)

    async def begin(self, table: Table, user_id: int) -> str | None:
        """Fill empty seats with AI and start the game, under the lock, durably; the
        refusal, if any — for every front. A copy that lost a race catches up and decides again."""
        for _try in range(CATCH_UP_TRIES):
            try:
                return await self._begin_once(table, user_id)
            except VersionConflict:
                await self.svc.sync.catch_up(table)
        return _("The table changed meanwhile — try again.")

    async def _begin_once(self, table: Table, user_id: int) -> str | None:
        async with table.lock:
            if table.status != "lobby":
                return _("The game has already started.")
            full = all(s is not None for s in table.seats)
            if user_id != table.creator_id and table.seat_of(user_id) is None:
                return _("You are not at this table — only its players can start it.")
            if user_id != table.creator_id and not full:
                return _("Only the opener can start before every seat is filled.")
            seats = list(table.seats)
            used = {s.name for s in seats if isinstance(s, AISeat)}
            for i, seat in enumerate(seats):
                if seat is None:
                    name = next(n for n in AI_NAMES if n not in used)
                    used.add(name)
                    seats[i] = AISeat("normal", name)
            await commit.start(self.svc, table, seats)
            return None

    # ================================================================ cancel

    async def cancel_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/ruff cancel``: end this channel's table (opener or Manage Server)."""
        channel_id = interaction.channel.id if interaction.channel else None
        table = self.svc.tables.open_in_channel(channel_id)
        if table is None:
            await refuse(interaction, _("There is no open table in this channel."))
            return
        await self.cancel(interaction, table, respond_by_edit=False)

    async def cancel(
        self, interaction: discord.Interaction[Any], table: Table, respond_by_edit: bool
    ) -> None:
        """Cancel ``table`` (its opener or Manage Server), from its button or ``/ruff cancel``."""
        user = interaction.user
        perms = getattr(user, "guild_permissions", None)
        refusal = await self.cancel_by(
            table, user.id, manages=perms is not None and perms.manage_guild
        )
        # Discord calls only after the lock
        if refusal is not None:
            await refuse(interaction, refusal)
            return
        text = self.cancelled_text(table, user.display_name)
        if respond_by_edit:
            try:
                # a cancelled table shows no picture of a game that is not played
                await interaction.response.edit_message(
                    content=None, view=layout.text_layout(text), attachments=[]
                )
            except discord.HTTPException as exc:
                log.info("cancel answer failed (HTTP %s); the table is cancelled", exc.status)
                self.presenter.edit_table_to(table, text)
        else:
            await reply(interaction, _("Table #{table} cancelled.").format(table=table.id))
            if table.message_id:
                with contextlib.suppress(MessageGone, discord.HTTPException):
                    await self.svc.notifier.edit(
                        table.channel_id, table.message_id, text, layout.text_layout(text), None
                    )
        self.presenter.tell_hands(
            table, lambda: _("Table #{table} was cancelled.").format(table=table.id)
        )

    async def cancel_by(self, table: Table, user_id: int, manages: bool) -> str | None:
        """Cancel ``table`` for ``user_id`` (``manages``: they have Manage Server) under
        the lock, durably; the refusal, if any — for every front."""
        if user_id != table.creator_id and not manages:
            return _("Only the table's opener or someone with Manage Server can cancel it.")
        async with table.lock:
            ended = table.status not in ("lobby", "active")
            saved = not ended and await commit.mark_cancelled(self.svc, table)
        if ended:
            return _("This table has already ended.")
        if not saved:
            return _(
                "Something went wrong saving that — the table is still open, please try again."
            )
        return None

    def cancelled_text(self, table: Table, name: str) -> str:
        """The table message of a table ``name`` cancelled, in the server's language."""
        with using(table.language):
            return (
                render.header(table.info()) + "\n" + _("❌ Cancelled by {user}.").format(user=name)
            )

    # ================================================================ rematch

    async def _rematch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        row = await self.svc.table_repo.get(table_id)
        if (
            row is not None
            and row.status == "finished"
            and (interaction.guild is None or interaction.guild.id != row.guild_id)
        ):
            await refuse(interaction, _("That table belongs to another server."))
            return
        table, refusal = await self.open_rematch(table_id, interaction.user.id)
        if table is None:
            await refuse(interaction, refusal or _("A rematch needs a finished game."))
            return
        # The game is durable now: every Discord call below may fail without stalling it.
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.edit_message(
                view=layout.without_buttons(interaction.message)
            )
        await self.show_rematch(table)

    async def open_rematch(self, table_id: int, user_id: int) -> tuple[Table | None, str | None]:
        """A new game of finished ``table_id``'s players in its channel, for one of them,
        durably and in memory; (the table, None) or (None, the refusal) — for every front."""
        svc = self.svc
        row = await svc.table_repo.get(table_id)
        if row is None or row.status != "finished":
            return None, _("A rematch needs a finished game.")
        if not TableSettings.from_json(row.settings).kind.rules.rematch:
            return None, _("This was an event's board: the event goes on by itself, no rematch.")
        if not any(isinstance(s, HumanSeat) and s.user_id == user_id for s in row.seats):
            return None, _("Only players of that game can start a rematch.")
        existing = await svc.table_repo.get_open_by_channel(row.channel_id)
        if existing is not None:
            return None, _("This channel already has a table: {table}").format(table=jump(existing))
        try:
            table = await commit.open_table(svc, commit.rematch_spec(row, user_id))
        except ChannelBusy:
            return None, _("This channel already has a table.")
        table.language = await svc.server_settings.language(row.guild_id)
        svc.tables.add(table)
        return table, None

    async def show_rematch(self, table: Table) -> None:
        """Post a rematch's table message, open its thread, send the hands, let it play."""
        svc = self.svc
        try:
            text, view = self.presenter.table_message(table)
            message = await svc.notifier.post(table.channel_id, text, view)
        except (MessageGone, discord.HTTPException) as exc:
            log.warning("table %s: could not post the rematch table: %s", table.id, exc)
        else:
            async with table.lock:
                await commit.set_message(svc, table, message.id)
            await self.presenter.open_thread(table)
            self.presenter.schedule_table_edit(table)
        await self.presenter.hands.send_all(table)
        self.drivers.kick(table)

    # ================================================================ take my seat back

    async def _reclaim(self, interaction: discord.Interaction[Any], table: Table) -> None:
        refusal = await self.reclaim(table, interaction.user.id)
        if refusal is not None:
            await refuse(interaction, refusal)
            return
        seat = table.seat_of(interaction.user.id)
        assert seat is not None
        with using(
            self.presenter.hands.language_of_seat(table, seat)
        ):  # a hand message: the player's language
            note = _("✅ Welcome back — your seat is yours again.")
        if interaction.guild is None and table.game is not None:
            # pressed on the hand DM: that message becomes the live hand again
            content, view = self.presenter.hands.hand(table, seat, note)
            try:
                await interaction.response.edit_message(content=content, view=view)
            except discord.HTTPException as exc:
                log.info(
                    "could not answer a reclaim (HTTP %s); the seat is back all the same",
                    exc.status,
                )
                self.presenter.hands.refresh(table, force=True)
                return
            finally:
                release_view(view)
            shown(table).hand_sig[seat] = hand_signature(table, seat, content)
            self.presenter.hands.refresh(table, skip=seat)
            return
        self.presenter.hands.refresh(table)  # the hand DM goes back from "away" to the live hand
        await self.presenter.hands.show(interaction, table, note=note)

    async def reclaim(self, table: Table, user_id: int) -> str | None:
        """Give ``user_id`` their seat back from the AI, under the lock, durably, and let
        the table go on (its message redrawn, the turn's timer armed); the refusal, if
        any — for every front."""
        seat = table.seat_of(user_id)
        if seat is None:
            return _("You are not playing at this table.")
        async with table.lock:
            was_away = seat in table.away
            if was_away:
                try:
                    await commit.reclaim(self.svc, table, seat)
                except StoreError:
                    log.exception("table %s: could not give seat %s back", table.id, seat)
                    saved = False
                else:
                    saved = True
        if was_away and not saved:
            return _("Something went wrong saving that — nothing changed, please try again.")
        if not was_away:
            return _("Your seat is already yours — play on!")
        self.presenter.schedule_table_edit(table)
        self.drivers.kick(
            table
        )  # before answering: the turn timer must run even if the answer fails
        return None
