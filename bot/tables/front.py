"""What the table layer tells the front that shows its tables, between moves.

A move reaches every front through the feed (``bot.tables.feed``). What happens
without a move — a turn's ping and warning, a deadline now known, the AI or
auto-play playing a human's turn (the move itself is in the feed; *why* it was
made is said here), a lobby that expired, a table loaded at start-up or changed
by another process, a table this version cannot load — is said through
:class:`Front`. The drivers and the start-up speak to it; the Discord front
(``bot.discord_ui.presenter.Presenter``) is the one the wiring hands them, and it
decides the words and where they go. Every method is called on the event loop
and must not block: it schedules what it sends (the ``async`` ones are awaited
off any table's lock).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.store import TableRow
from bot.tables.table import Table
from engine import Action

__all__ = ["Front"]


class Front(Protocol):
    def ping(self, table: Table, seat: int, due: float | None, waited: bool = False) -> None:
        """``seat``'s turn began (``waited``: it has waited the ping delay); ``due``
        is when it times out (None: no timer)."""

    def warning(self, table: Table, seat: int, version: int, due: float) -> None:
        """``seat``'s turn at ``version`` times out soon, at ``due``."""

    def deadline_known(self, table: Table) -> None:
        """A turn's deadline was set after its hand was shown: show it now."""

    def timed_out(
        self, table: Table, seat: int, actions: Sequence[Action], misses: int, takeover: bool
    ) -> None:
        """The AI played ``actions`` for ``seat``, whose time ran out (``misses`` in a
        row; ``takeover``: the AI keeps the seat until its player takes it back).
        Called under the table's lock, right after the commit."""

    def auto_played(self, table: Table, seat: int, action: Action) -> None:
        """``action``, ``seat``'s only legal card, was played for them (their option).
        Called under the table's lock, right after the commit."""

    async def lobby_expired(self, table: Table) -> None:
        """The lobby closed before it started (the table is cancelled)."""

    def redraw(self, table: Table) -> None:
        """A table just loaded (start-up, a takeover): show what it is now, and no
        notice of a turn that passed meanwhile."""

    def changed(self, table: Table) -> None:
        """Another process changed the table's seats or settings (who is away)."""

    def follow_copies(self, table: Table) -> None:
        """Another process moved a table this one does not run: only what this
        process itself showed of it (a private copy of a hand) follows."""

    async def set_aside(self, row: TableRow) -> None:
        """This version cannot load ``row``'s game: say so once, where it is played."""
