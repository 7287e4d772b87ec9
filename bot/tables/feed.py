"""The feed: where every table's moves go, for every front.

:func:`bot.tables.commit.commit` publishes each move's events here and nowhere
else; moves another process made arrive through the same :meth:`Feed.publish`
(the sync's :class:`~bot.tables.sync.TableLife`), so a listener hears a table's
moves whichever process made them, as long as this process holds a copy of it.

Two kinds of listener:

* bot-wide ones, :meth:`Feed.subscribe`, hear every table in the order the wiring
  subscribed them (the Discord front's presenter first, then the drivers that arm
  the next turn, then the features that follow their tables);
* one table's, :meth:`Feed.watch` (a web page open on that table): called after the
  bot-wide ones, so what they read (the next turn's deadline) is already armed. They
  hear the table wherever it runs: a process that holds a copy of a table another
  process runs follows it while anything watches it (:meth:`watched`) and hands the
  moves it replays to its watchers (:meth:`follow`).

What changes a table without a move — a lobby's seats, its start, a cancel, a seat
taken back from the AI, a turn's deadline now known, a table that enters memory
(opened, a rematch, loaded) or that another process changed — is told through
:meth:`Feed.changed` to the :meth:`Feed.on_change` listeners (the web table, whose
pages show the lobby as it changes).

Every listener is called under the table's lock and must not block: it schedules
what it sends. A watcher that fails is logged and the others still hear the move;
the wiring's listeners are the bot's own, and their failure is the commit's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.tables.table import Table
from engine import Event

log = logging.getLogger(__name__)

__all__ = ["ChangeListener", "Feed", "Listener"]

Listener = Callable[[Table, list[Event]], None]
ChangeListener = Callable[[Table], None]


class Feed:
    """Every commit's events, to the listeners of every table and of each one."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._watchers: dict[int, list[Listener]] = {}
        self._changes: list[ChangeListener] = []

    def subscribe(self, listener: Listener) -> None:
        """Hear every table's moves (the wiring's listeners)."""
        self._listeners.append(listener)

    def watch(self, table_id: int, listener: Listener) -> Callable[[], None]:
        """Hear one table's moves; returns what stops it (call it once)."""
        watchers = self._watchers.setdefault(table_id, [])
        watchers.append(listener)

        def stop() -> None:
            watchers.remove(listener)
            if not watchers and self._watchers.get(table_id) is watchers:
                del self._watchers[table_id]

        return stop

    def watched(self, table_id: int) -> bool:
        """Whether anything listens to this table alone (a front that needs its copy)."""
        return table_id in self._watchers

    def publish(self, table: Table, events: list[Event]) -> None:
        for listener in self._listeners:
            listener(table, events)  # the wiring's own: a failure is the commit's
        self.follow(table, events)

    def follow(self, table: Table, events: list[Event]) -> None:
        """Moves another process made at a table this one does not run (several
        processes, ``bot.cluster``): only the table's own watchers hear them. The
        bot-wide listeners (the Discord front, the drivers) hear the tables this process
        runs: their owner shows and drives the others."""
        for watcher in tuple(self._watchers.get(table.id, ())):
            try:
                watcher(table, events)
            except Exception:
                log.exception("table %s: a watcher of its feed failed", table.id)

    def on_change(self, listener: ChangeListener) -> Callable[[], None]:
        """Hear every change of a table that is not a move (see the module's text);
        returns what stops it (call it once)."""
        self._changes.append(listener)
        return lambda: self._changes.remove(listener)

    def changed(self, table: Table) -> None:
        """``table`` changed without a move, durably: tell who listens (never raises)."""
        for listener in tuple(self._changes):
            try:
                listener(table)
            except Exception:
                log.exception("table %s: a listener of its changes failed", table.id)
