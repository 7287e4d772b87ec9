"""Who may see the cards of a game: one rule for every text that shows a deal.

Records, replays, reviews and puzzles all ask :func:`deal_visible_to` (the store's
puzzle query asks the same in SQL, :meth:`bot.store.CoachRepo.next_puzzle`):

* a **board** (a daily board, a challenge board: its kind, ``bot.tables.kinds``) is dealt
  to many players, each alone; its cards are its own player's and nobody else's,
  ever — whoever else has not played the board yet must not see it, and whoever
  has sees it in their own result;
* any other table's cards are its players' while it runs (each their own seat's,
  through the game), and the server's once the game is over (its record is
  public then).
"""

from __future__ import annotations

from bot.store import HumanSeat, TableRow
from bot.tables.kinds import TableKind, kind_of

__all__ = ["deal_visible_to", "is_board", "plays_at"]


def is_board(row: TableRow) -> bool:
    """A table that plays one board of a series (daily deals, a challenge)."""
    return kind_of(row.settings) is TableKind.BOARD


def plays_at(row: TableRow, user_id: int) -> bool:
    """Whether ``user_id`` holds a seat of the table."""
    return any(isinstance(s, HumanSeat) and s.user_id == user_id for s in row.seats)


def deal_visible_to(row: TableRow, user_id: int) -> bool:
    """Whether ``user_id`` may see the table's deals whole (a position, a record, a
    replay): its own player always; anyone else only once the game is over, and
    never for a board."""
    if plays_at(row, user_id):
        return True
    return not is_board(row) and row.status == "finished"
