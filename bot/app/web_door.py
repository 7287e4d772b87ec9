"""The web table's way into the lobby (``bot.web.front.LobbyDoor``), over the
table layer's own seat rules, and what the Discord front shows after each change.

The lobby (bot/discord_ui/lobby.py: ``change_seats``, ``begin``) decides seat changes and the start under the
table's lock without Discord; only its answers are Discord's. A change made from
the web page is shown on the table message as a button's would be, and a start
opens the thread and sends every player their hand, as the Start button does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
