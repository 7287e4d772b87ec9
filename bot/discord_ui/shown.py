"""What the Discord front keeps about each table beside the game: its messages'
caches, the turn's notices, the private "My hand" copies, the latest public lines.

It rides with the table in memory (``Table.front``, opaque to the table layer) and
is made on first use by :func:`shown`, so a table loaded from the database (a
restart, another process's table) starts with its stored notices and rebuilds the
rest as it is shown again.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.present.i18n import current
from bot.present.picture import PictureCache
from bot.tables.table import Notice, Table
from engine import SeatView

__all__ = ["Shown", "shown"]

log = logging.getLogger(__name__)


@dataclass
class Shown:
    """What the table's messages show beside the game (``bot.discord_ui.presenter``):
    caches and message ids, rebuilt or re-read after a restart."""

    recent: deque[str] = field(default_factory=lambda: deque(maxlen=3))  # the latest public lines
    hand_sig: dict[int, str] = field(
        default_factory=dict
    )  # seat -> what its DM shows (``hand_signature``)
    dm_closed: set[int] = field(default_factory=set)
    # seat -> message id -> the live private "My hand" copies (newest last, bounded): the
    # front's own records of them (``bot.discord_ui.hands.HandCopy``)
    fallback: dict[int, dict[int, Any]] = field(default_factory=dict)
    pictures: PictureCache = field(
        default_factory=PictureCache
    )  # the table message's picture, by its key
    how_won: str = ""  # the end of the game: who won and how (set once the match is over)
    how_won_in: dict[str, str] = field(
        default_factory=dict
    )  # how_won in each language read so far (the table's, the hand DMs')
    # how_won drawn in the language of the moment (set with it: :meth:`how_won_here`)
    sum_up: Callable[[], str] | None = None
    played_for: dict[int, str] = field(
        default_factory=dict
    )  # seat -> what the AI played on its timed-out turn
    notices: list[Notice] = field(default_factory=list)  # the turn's live notices
    pinged: tuple[int, int] | None = None  # (seat, version) of the last turn ping sent
    # seat -> its hand message as last drawn, and what it was drawn from (bot.discord_ui.hands)
    hands_drawn: dict[int, tuple[Any, str, str, SeatView, bool]] = field(default_factory=dict)

    def how_won_here(self) -> str:
        """:attr:`how_won` in the language of the moment: drawn the first time it is
        read in that language (the table's at the end, each hand DM's in its player's),
        not in every language the bot speaks at every game's end."""
        language = current()
        line = self.how_won_in.get(language)
        if line is None and self.sum_up is not None:
            try:
                line = self.how_won_in[language] = self.sum_up()
            except Exception:
                log.exception("could not say how the game was won in %s", language)
                self.sum_up = None
        return self.how_won if line is None else line

    def follows(self) -> bool:
        """True while this process keeps an ephemeral "My hand" copy of a seat current:
        the table's moves made elsewhere must reach it (``bot.cluster``)."""
        return any(self.fallback.values())


def shown(table: Table) -> Shown:
    """The Discord front's state of ``table``, made on first use (with the turn's
    notices its settings kept, so a restart can still delete them)."""
    front = table.front
    if not isinstance(front, Shown):
        front = Shown(notices=list(table.settings.notices))
        table.front = front
    return front
