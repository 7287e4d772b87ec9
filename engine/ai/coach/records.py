"""A game's record read for a review: the game before its first decision, its deals, the
seats that played in one, the position before any action, and the seed that judges it.
Replays go through the engine (:meth:`engine.game.Game.from_record`, ``apply``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import Play, decode_action
from engine.game import Game

__all__ = [
    "deal_count",
    "decision_seed",
    "played_seats",
    "position_before",
    "record_entries",
    "start_of",
]


def start_of(record: Mapping[str, Any]) -> Game:
    """The game of ``record`` before its first decision: the engine's own replay
    (:meth:`engine.game.Game.from_record`) of the record without its actions."""
    return Game.from_record({**record, "actions": []})


def record_entries(record: Mapping[str, Any]) -> list[tuple[int, str]]:
    """The record's actions as (seat, encoded action), in order."""
    out = []
    for entry in record.get("actions", []):
        seat_text, _, action_text = str(entry).partition(" ")
        out.append((int(seat_text), action_text))
    return out


def deal_count(record: Mapping[str, Any]) -> int:
    """How many deals the record's game has begun (the last may be unfinished)."""
    game = start_of(record)
    for seat, text in record_entries(record):
        game.apply(seat, decode_action(text))
    return game.deals_total


def played_seats(record: Mapping[str, Any], deal: int) -> tuple[int, ...]:
    """The seats that played a card in the ``deal``-th deal (1-based)."""
    game = start_of(record)
    seats: set[int] = set()
    for seat, text in record_entries(record):
        if game.deals_total > deal:
            break
        action = decode_action(text)
        if game.deals_total == deal and isinstance(action, Play):
            seats.add(seat)
        game.apply(seat, action)
    return tuple(sorted(seats))


def decision_seed(record: Mapping[str, Any], index: int) -> int:
    """The seed of the sample that judges the record's ``index``-th decision (a review
    of the same record is the same review)."""
    return (int(record["seed"]) * 1_000_003 + index * 7919) % (1 << 62)


def position_before(record: Mapping[str, Any], index: int) -> tuple[Game, int]:
    """The game before the ``index``-th action of ``record``, and the seat to take it: what
    a puzzle's picture and controls are drawn from (that seat's view only)."""
    entries = record_entries(record)
    if not 0 <= index < len(entries):
        raise ValueError(f"no action {index} in this record")
    game = start_of(record)
    for s, text in entries[:index]:
        game.apply(s, decode_action(text))
    return game, entries[index][0]
