"""Who sits where at an event's table: confirmed partnerships, a pairs table's seats
as players, a table's seats as the scoring's entrants, and the Swiss seeding."""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence

from bot.store import (
    EventEntry,
    EventRow,
    EventTable,
)

log = logging.getLogger(__name__)


def confirmed_pairs(entries: Sequence[EventEntry]) -> list[tuple[int, int]]:
    """The confirmed partnerships (each named the other), in registration order."""
    chosen = {e.user_id: e.partner_id for e in entries}
    out = []
    seen: set[int] = set()
    for e in entries:
        p = e.partner_id
        if p is None or e.user_id in seen or chosen.get(p) != e.user_id:
            continue
        seen |= {e.user_id, p}
        out.append((e.user_id, p))
    return out


def round_field(event: EventRow, entries: Sequence[EventEntry], round_no: int) -> list[int]:
    """Who is seated in round ``round_no``: players (individual) or pairs (their lower
    id), in registration order. Round 1 seats every registered player (the AI plays
    for who has not checked in); later rounds those checked in for that round
    (:meth:`EventEntry.here`). A Swiss pair in the field and at no table has the bye."""
    playing = [e for e in entries if e.plays(round_no) and (round_no == 1 or e.here(round_no))]
    if event.format == "individual":
        return [e.user_id for e in playing]
    return [min(a, b) for a, b in confirmed_pairs(playing)]


def partners_of(entries: Sequence[EventEntry]) -> dict[int, int]:
    out: dict[int, int] = {}
    for a, b in confirmed_pairs(entries):
        out[a], out[b] = b, a
    return out


def user_seats(seats: Sequence[int | None], partner: Mapping[int, int]) -> list[int | None]:
    """A pairs table's seats (a pair's id at both seats of its side) as players: the
    pair's lower id at seat 0 or 1, the partner opposite."""
    out: list[int | None] = [None] * 4
    for side in (0, 1):
        pair = seats[side]
        if pair is not None:
            out[side], out[side + 2] = pair, partner[pair]
    return out


def entrant_seats(
    event: EventRow, table: EventTable
) -> tuple[int | None, int | None, int | None, int | None]:
    """A kept table's seats as the scoring's entrants: players, or pairs (lower id)."""
    s = table.seats
    if event.format == "individual":
        return s[0], s[1], s[2], s[3]
    ns = None if s[0] is None or s[2] is None else min(s[0], s[2])
    ew = None if s[1] is None or s[3] is None else min(s[1], s[3])
    return ns, ew, ns, ew


def swiss_seeding(event: EventRow, pairs: Sequence[int]) -> list[int]:
    """The Swiss seeding order: a draw seeded by the event."""
    order = sorted(pairs)
    random.Random(f"swiss:{event.seed}").shuffle(order)
    return order


def playing(table: EventTable) -> frozenset[int]:
    """The players who play at a round's table themselves: its seated players but
    those the AI plays for as no-shows (until they take their seat back). Its thread
    holds them."""
    return frozenset(
        u for s, u in enumerate(table.seats) if u is not None and s not in table.ai_for
    )
