"""What a table *is*: its :class:`TableKind`, and :class:`TableSpec`, what
:func:`bot.tables.commit.open_table` opens.

Every table is opened by ``open_table(svc, spec)`` and what differs between
tables (rated or not, a result of its own, timers, a thread, the Hint button) is
asked of its kind (:attr:`TableKind.rules`), never read off flags of its
settings. The kinds (``docs/table-state.md``, "Kinds of table"):

* ``ordinary`` — a table opened with ``/ruff new`` (or its rematch): a lobby in a
  server channel, turn timers, a thread, rated, its result on the leaderboard;
* ``hints`` — the same with ``options: hints:on``: the Hint button in the hand
  DMs, and therefore never rated (its result is kept, marked unrated);
* ``board`` — one board of a series (a daily board, a challenge board) played
  alone in its player's DM against the fixed AI: started at once, no timer, no
  thread, its result is the board's own (matchpoints), never rated, and its cards
  are its player's only (``bot.tables.privacy``);
* ``event`` — one board of a tournament's table (an event's round), dealt in the
  thread the event opened for that table: starts seated (absent players' seats
  played by the AI, marked away), on the turn timer, unrated; its result is
  the event's, written in the same transaction by the end the event director
  registers for the kind (``Services.ends``, ``bot.tables.events``). An event the
  server chose to rate (``/ruff event create rated:``) opens its boards
  ``rated`` (:func:`rules_of`): rated and recorded among the server's results as
  an ordinary game is, its result the event's as well.

The kind is stored in the table's settings (``"kind"``); rows written before it
existed are read by their old flags (``"board"``: a board, ``"hints"``: hints).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from bot.store import Seat
from engine import Rules

__all__ = ["KindRules", "TableKind", "TableSpec", "kind_of", "rules_of"]


@dataclass(frozen=True, slots=True)
class KindRules:
    """What a kind of table does differently."""

    rated: bool
    """Its finished game changes the players' ratings."""
    board_result: bool
    """Its end writes the board's own result (``DailyRepo.finish``), not a game result."""
    game_result: bool
    """Its end records the game among the server's results (stats, the leaderboard's
    games); an event's board is kept by the event instead (its kind's end)."""
    hint_button: bool
    """Its hand DMs offer the Hint button."""
    timers: bool
    """A human's turn runs on the turn timer (else the table waits for its player)."""
    thread: bool
    """Its public message gets a thread for the deal summaries and pings."""
    lobby: bool
    """It opens as a lobby that players join (else it starts at once, seated)."""
    concede: bool
    """Its players are offered Concede (under This deal); a board played alone in a DM
    never offered it: its result is the board's score against the field."""
    may_be_rated: bool = False
    """Its opener may choose to rate it (an event's boards: the server's choice)."""
    rematch: bool = True
    """Its finished game offers Rematch (the same players again, in its channel); a
    board's or an event's is one deal of something larger, which its own flow goes on
    with (the next board, the next round), never replayed as a game of its own."""


class TableKind(StrEnum):
    """The kind of a table (the value is what its settings store)."""

    ORDINARY = "ordinary"
    HINTS = "hints"
    BOARD = "board"
    EVENT = "event"

    @property
    def rules(self) -> KindRules:
        return _RULES[self]


_RULES: dict[TableKind, KindRules] = {
    TableKind.ORDINARY: KindRules(
        rated=True,
        board_result=False,
        game_result=True,
        hint_button=False,
        timers=True,
        thread=True,
        lobby=True,
        concede=True,
    ),
    TableKind.HINTS: KindRules(
        rated=False,
        board_result=False,
        game_result=True,
        hint_button=True,
        timers=True,
        thread=True,
        lobby=True,
        concede=True,
    ),
    TableKind.BOARD: KindRules(
        rated=False,
        board_result=True,
        game_result=False,
        hint_button=False,
        timers=False,
        thread=False,
        lobby=False,
        concede=False,
        rematch=False,
    ),
    # an event's board: played in the thread the event opened for its table (so no
    # thread of its own), on the turn timer, unrated unless the server chose to rate
    # the event (issue #39: "ratings unchanged by events unless the server chooses");
    # its result is the event's, written by its kind's end
    TableKind.EVENT: KindRules(
        rated=False,
        board_result=False,
        game_result=False,
        hint_button=False,
        timers=True,
        thread=False,
        lobby=False,
        concede=True,
        may_be_rated=True,
        rematch=False,
    ),
}


def rules_of(kind: TableKind, rated: bool = False) -> KindRules:
    """What a table of ``kind`` does; ``rated`` (a kind that may be rated: an event
    the server chose to rate) makes its finished game rated and recorded among the
    server's results, as an ordinary game's is. Raises ``ValueError`` for a kind
    that may not be rated."""
    rules = _RULES[kind]
    if not rated:
        return rules
    if not rules.may_be_rated:
        raise ValueError(f"a {kind.value} table cannot be rated by choice")
    return replace(rules, rated=True, game_result=True)


def kind_of(settings: Mapping[str, Any]) -> TableKind:
    """The kind of a table from its stored settings (JSON); rows older than the
    ``"kind"`` key by their flags."""
    stored = settings.get("kind")
    if stored:
        try:
            return TableKind(str(stored))
        except ValueError:
            pass  # a kind of a later version: treated as the nearest we know below
    if settings.get("board"):
        return TableKind.BOARD
    if settings.get("hints") is True:
        return TableKind.HINTS
    return TableKind.ORDINARY


async def _nothing(_table_id: int) -> None:
    return None


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A table to open (``bot.tables.commit.open_table``): what it is, where, whose.

    ``seats`` are the seats it opens with (a lobby: its opener and empty seats);
    a kind that does not open as a lobby starts at once with them. ``seed``: None
    draws a new one. ``names`` are the guild and channel names its hand DMs show
    (a board: its label). ``board``: the key of the board a ``board`` table plays.
    ``then(table id)`` writes the rows that belong with the table (a board's row,
    an event's pairing) in the same transaction; it may raise to open nothing.
    ``keep``: stored settings carried over (a rematch keeps its table's thread).
    """

    kind: TableKind
    rules: Rules
    guild_id: int
    channel_id: int
    creator_id: int
    seats: Sequence[Seat | None]
    guild_name: str = ""
    channel_name: str = ""
    seed: int | None = None
    first_dealer: int | None = None
    board: str = ""
    event: str = ""
    """The key of the event board an ``event`` table plays (``bot.tables.events``)."""
    away: frozenset[int] = frozenset()
    """Seats the AI plays for from the start until their player takes them back (an
    event's no-shows)."""
    rated: bool = False
    """Rate it, where its kind lets the opener choose (an event the server rates)."""
    turn_timeout: float | None = None
    """Seconds a human has for a turn (None: the bot's default; a kind without timers: 0)."""
    keep: Mapping[str, Any] = field(default_factory=dict)
    start: bool = False
    """Start a lobby kind's game at once with ``seats`` (a rematch)."""
    then: Callable[[int], Awaitable[None]] = _nothing
