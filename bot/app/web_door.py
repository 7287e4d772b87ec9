"""The web table's way into a table's life outside play (``bot.web.front.LobbyDoor``):
the very calls the Discord buttons make, and what the Discord front shows after each.

The lobby (bot/discord_ui/lobby.py: ``change_seats``, ``begin``, ``cancel_by``,
``reclaim``, ``open_rematch``) and the hints (bot/features/coach/hints.py: ``refusal``,
``think``) decide under the table's lock without Discord; only their answers are
Discord's. A change made from the web page is shown on the table message as a
button's would be: a start opens the thread and sends every player their hand, as
the Start button does; a rematch posts its table as the Rematch button does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.present.i18n import _
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.app.manager import GameManager

__all__ = ["ManagerDoor"]


class ManagerDoor:
    def __init__(self, manager: GameManager) -> None:
        self.manager = manager

    async def seats(self, table: Table, user_id: int, name: str, verb: str) -> str | None:
        refusal = await self.manager.lobby.change_seats(table, user_id, name, verb)
        if refusal is None:
            self.manager.presenter.schedule_table_edit(table)
        return refusal

    async def start(self, table: Table, user_id: int) -> str | None:
        manager = self.manager
        refusal = await manager.lobby.begin(table, user_id)
        if refusal is not None:
            return refusal
        await manager.presenter.open_thread(table)
        manager.presenter.schedule_table_edit(table)
        await manager.presenter.hands.send_all(table)
        manager.drivers.kick(table)
        return None

    async def cancel(self, table: Table, user_id: int, name: str) -> str | None:
        manager = self.manager
        manages = user_id != table.creator_id and await self._manages(table, user_id)
        refusal = await manager.lobby.cancel_by(table, user_id, manages=manages)
        if refusal is not None:
            return refusal
        manager.presenter.edit_table_to(table, manager.lobby.cancelled_text(table, name))
        manager.presenter.tell_hands(
            table, lambda: _("Table #{table} was cancelled.").format(table=table.id)
        )
        return None

    async def _manages(self, table: Table, user_id: int) -> bool:
        """Whether ``user_id`` has Manage Server in the table's server: the web page
        carries no permissions, the Discord member does. From the client's cache where
        this process holds the server's shard; else (a pages-only process holds none)
        from Discord's REST API: the server (its roles, its owner) and the member."""
        client = self.manager.services.client
        guild = client.get_guild(table.guild_id)
        member = None if guild is None else guild.get_member(user_id)
        if member is None:
            try:
                fetched = guild if guild is not None else await client.fetch_guild(table.guild_id)
                member = await fetched.fetch_member(user_id)
            except discord.HTTPException:  # not a member (any more), or Discord refused
                return False
        return member.guild_permissions.manage_guild

    async def reclaim(self, table: Table, user_id: int) -> str | None:
        manager = self.manager
        refusal = await manager.lobby.reclaim(table, user_id)
        if refusal is None:
            manager.presenter.hands.refresh(table)  # the hand DM: from "away" to the live hand
        return refusal

    async def rematch(self, table_id: int, user_id: int) -> str | None:
        table, refusal = await self.manager.lobby.open_rematch(table_id, user_id)
        if table is None:
            return refusal or _("A rematch needs a finished game.")
        await self.manager.lobby.show_rematch(table)
        return None

    async def hint(self, table: Table, user_id: int, version: int, seat: int) -> tuple[bool, str]:
        hints = self.manager.hints
        refusal = hints.refusal(table, user_id, version, seat)
        if refusal is not None:
            return False, refusal
        return True, await hints.think(table, version, seat)
