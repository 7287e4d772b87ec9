"""Turn notices: a short ping in the table's thread when a human is to act (after a
delay, with the deadline as a Discord relative time) and a warning when their time
runs low — each deleted once its turn has passed, also after a restart (their ids
are kept with the table).
"""

from __future__ import annotations

import logging

import discord

from bot.discord_ui.services import DiscordServices
from bot.discord_ui.shown import shown
from bot.present.i18n import _, using
from bot.present.notify import MessageGone
from bot.present.render.daily import board_turn
from bot.tables import commit
from bot.tables.kinds import TableKind
from bot.tables.table import Notice, Table

log = logging.getLogger(__name__)

__all__ = ["Notices"]


class Notices:
    """The turn's short-lived posts."""

    def __init__(self, svc: DiscordServices) -> None:
        self.svc = svc
        self.notifier = svc.notifier

    async def _post(self, table: Table, content: str) -> discord.Message | None:
        try:
            return await self.notifier.post(table.feed_id, content, None)
        except (MessageGone, discord.HTTPException) as exc:
            log.warning("could not post at table %s: %s", table.id, exc)
            return None

    def ping(
        self, table: Table, seat: int, deadline: float | None, *, waited: bool = False
    ) -> None:
        """The human at ``seat`` is to act: a short ping in the table's thread, with the
        deadline as a Discord relative time; deleted once the turn has passed
        (:meth:`clear`). An immediate ping (``waited`` false) is left out when the same
        player just acted by a click and still has the turn (laying out after taking the
        ruff, leading after winning the trick): they are looking. One sent after the
        ping delay (``waited``) always goes: they have looked away since."""
        human = table.human(seat)
        if human is None or table.game is None:
            return
        if table.kind is TableKind.EVENT and table.message_id is None:
            return  # an event's board dealt, its thread still being made: no hand to play yet
        if shown(table).pinged == (seat, table.version) or any(
            n[:2] == (seat, table.version) for n in shown(table).notices
        ):
            return  # pinged already (before a restart, too)
        shown(table).pinged = (seat, table.version)
        if (
            not waited
            and table.moves
            and table.moves[-1][1] == seat
            and table.moves[-1][2] is not None
        ):
            return
        with using(table.language):
            when = (
                _(" — the AI plays for you {time}").format(time=f"<t:{int(deadline)}:R>")
                if deadline
                else ""
            )
            if table.kind is TableKind.BOARD:  # in its player's DM, where no table is seen
                text = board_turn(table.settings.board)
            else:
                text = _("🔔 {player}, your turn at table #{table}{when}.").format(
                    player=f"<@{human.user_id}>", table=table.id, when=when
                )
        self.svc.own(self._post_notice(table, seat, table.version, text))

    def warning(self, table: Table, seat: int, version: int, deadline: float) -> None:
        """Time is running out on ``seat``'s turn: a second ping, gone once they move."""
        human = table.human(seat)
        if human is None:
            return
        with using(table.language):
            text = _(
                "⏳ {player}, your turn at table #{table} ends {time} — then the AI plays it."
            ).format(player=f"<@{human.user_id}>", table=table.id, time=f"<t:{int(deadline)}:R>")
        self.svc.own(self._post_notice(table, seat, version, text))

    async def _post_notice(self, table: Table, seat: int, version: int, text: str) -> None:
        message = await self._post(table, text)
        if message is None:
            return
        notice = Notice(seat, version, message.channel.id, message.id)
        shown(table).notices.append(notice)
        self.clear(table)  # the turn may have passed while the post was on its way
        if notice in shown(table).notices:
            self.svc.own(self._save_notices(table))

    def clear(self, table: Table) -> None:
        """Delete the turn notices whose turn has passed (the player moved, the AI
        played for them, the game ended)."""
        game = table.game
        live = table.status == "active" and game is not None and not game.is_over
        keep: list[Notice] = []
        for notice in shown(table).notices:
            seat, version, channel_id, message_id = notice
            if live and game is not None and game.version == version and game.to_act() == seat:
                keep.append(notice)
            else:
                self.svc.own(self._delete_quietly(channel_id, message_id))
        if len(keep) != len(shown(table).notices):
            shown(table).notices[:] = keep
            self.svc.own(self._save_notices(table))

    async def _save_notices(self, table: Table) -> None:
        """Keep the live notices' ids with the table (its settings), so a restart can
        still delete them once their turn passes; best effort."""
        async with table.lock:
            await commit.keep_notices(self.svc, table, shown(table).notices)

    async def _delete_quietly(self, channel_id: int, message_id: int) -> None:
        try:
            await self.notifier.delete(channel_id, message_id)
        except discord.HTTPException as exc:
            log.info("could not delete notice %s (HTTP %s)", message_id, exc.status)
