"""What the events' director says (``bot.tables.events``): the outcome of a request,
standings and travellers as any front shows them, and the key naming an event's board."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from bot.store import (
    EventRow,
)

log = logging.getLogger(__name__)


MIN_ENTRANTS = 2  # players (individual) or pairs
MIN_COMPLETION = Fraction(1, 2)
"""An entrant who played fewer than this share of their boards themselves (the AI
played the rest) is listed after the ranked ones, unranked."""
REMIND_BEFORE = 600.0  # seconds before the start the not-yet-checked-in are reminded
SWEEP_SLACK = 1.0  # seconds after a round's last start that its tables are swept


def event_key(event_id: int, round_no: int, table_no: int, board_no: int) -> str:
    """``TableSettings.event`` of a board's table."""
    return f"{event_id}/{round_no}/{table_no}/{board_no}"


def thread_to_come(event_id: int, round_no: int, table_no: int) -> int:
    """The channel of a round table's board dealt before its thread is made (the
    director moves it to the thread before showing it): negative, so no Discord
    channel's, and one a round table (the store keeps one open table a channel)."""
    return -(event_id * 10**9 + round_no * 10**5 + table_no)


def parse_event_key(key: str) -> tuple[int, int, int, int]:
    event_id, round_no, table_no, board_no = (int(x) for x in key.split("/"))
    return event_id, round_no, table_no, board_no


class Outcome(StrEnum):
    """What a request to the director came to (the front words it)."""

    DONE = "done"
    LATE = "late"  # joined a running event: plays from the next round
    NO_EVENT = "no_event"
    NOT_OPEN = "not_open"  # finished or cancelled (or not registering, for a start)
    ALREADY = "already"
    NOT_IN = "not_in"
    TOO_FEW = "too_few"
    NOT_PAIRS = "not_pairs"  # a partner asked in an individual event
    SELF = "self"  # one's own partner
    PARTNER_WAITING = "partner_waiting"  # chosen; the partner has not chosen back


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the standings as a front shows it."""

    label: str  # "1", "=2", "-"
    name: str  # a player, or "ann & bob"
    percent: Fraction | None
    score: Fraction | None  # Swiss: match points
    completion: Fraction
    members: tuple[int, ...]
    moved: int | None = None
    """Places gained (negative: lost) since the round before; None where there is no
    rank to compare (the first round, a newcomer, unranked now or then)."""

    @property
    def rank(self) -> int | None:
        """The rank as a number ("=2" is 2); None when unranked ("-")."""
        return int(self.label.lstrip("=")) if self.label.lstrip("=").isdigit() else None


def moved_since(lines: Sequence[Line], before: Sequence[Line]) -> list[Line]:
    """``lines`` with each entrant's movement since ``before`` (the standings a round
    earlier): its rank then less its rank now, where it was ranked both times."""
    earlier = {line.members: line.rank for line in before}
    out = []
    for line in lines:
        then, now = earlier.get(line.members), line.rank
        out.append(replace(line, moved=None if then is None or now is None else then - now))
    return out


@dataclass(frozen=True, slots=True)
class TravellerRow:
    """One table's result on a board: who sat north-south and east-west, north-south's
    points less east-west's (None: skipped by the time rule) and its matchpoints."""

    table: int
    ns: str
    ew: str
    result: int | None
    ns_percent: Fraction | None


@dataclass(frozen=True, slots=True)
class Traveller:
    round: int
    board: int
    rows: tuple[TravellerRow, ...]


@dataclass(frozen=True, slots=True)
class StandingsView:
    event: EventRow
    through: int  # the last scored round (0: none)
    lines: tuple[Line, ...]
    final: bool
    travellers: tuple[Traveller, ...] = ()  # every board's, once the event is finished
