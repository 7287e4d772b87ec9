"""A deal's public notes as typed values: what every seat sees of a claim, a
concession (waiting, or made), a rejected claim and Ruffe and Trump's ruff contest.

``Game.notes`` maps a note's name to its value; :class:`~engine.view.SeatView`
shows them as typed properties (``claim_note``, ``concede_note``, ``conceded``,
``claim_rejected``, ``ruff_contest``). Each value is a :class:`~typing.NamedTuple`:
immutable and typed, and still the plain tuple the notes always were, so
snapshots store the same JSON (a list per note), a note compares equal to the
tuple of its fields, and :meth:`SeatView.note` keeps answering by name.
:func:`typed_note` turns a note read back from a snapshot (plain tuples) into
its type; a name it does not know stays as read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from engine.cards import Card

__all__ = [
    "ClaimNote",
    "ClaimRejected",
    "ConcedeNote",
    "Concession",
    "RuffContestNote",
    "ShownRuff",
    "ruff_contest_of",
    "typed_note",
]


class ClaimNote(NamedTuple):
    """``notes["claim"]``: a claim waiting for answers (the claimer's hand is shown)."""

    seat: int
    tricks: int
    accepted: tuple[int, ...]  # the opponents who accepted so far
    hand: tuple[Card, ...]


class ConcedeNote(NamedTuple):
    """``notes["concede"]``: a concession waiting for the proposer's partner."""

    seat: int
    partner: int
    resume: str  # the phase the game returns to when the partner plays on


class Concession(NamedTuple):
    """``notes["conceded"]``: the game was given up by ``seat`` (the proposer, with his
    partner's agreement where he has one) for his ``side``; kept once the game is over."""

    seat: int
    side: int


class ClaimRejected(NamedTuple):
    """``notes["claim_rejected"]``: where the last claim of the deal was rejected."""

    seat: int
    tricks_left: int  # tricks left in the deal at the claim, the trick in progress included
    trick_cards: int  # cards already in the trick in progress


class ShownRuff(NamedTuple):
    """One entry of ``notes["ruff_shown"]``: a ruff claim shown after the rub."""

    seat: int
    suit: str  # the suit's letter
    cards: tuple[Card, ...]
    value: int
    honest: bool  # the claim was true


@dataclass(frozen=True, slots=True)
class RuffContestNote:
    """Ruffe and Trump's ruff contest so far (``None`` for a step not reached yet)."""

    values: tuple[int, ...] | None = None  # per seat, when the ruff is counted openly
    claims: tuple[tuple[int, int], ...] | None = None  # (seat, value) claimed in turn
    shown: tuple[ShownRuff, ...] | None = None
    winners: tuple[int, ...] | None = None
    points: tuple[int, ...] | None = None  # per side


def _seats(value: Any) -> tuple[int, ...]:
    return tuple(int(v) for v in value)


def _claim(value: Any) -> ClaimNote:
    seat, tricks, accepted, hand = value
    return ClaimNote(int(seat), int(tricks), _seats(accepted), tuple(hand))


def _concede(value: Any) -> ConcedeNote:
    seat, partner, resume = value
    return ConcedeNote(int(seat), int(partner), str(resume))


def _conceded(value: Any) -> Concession:
    seat, side = value
    return Concession(int(seat), int(side))


def _rejected(value: Any) -> ClaimRejected:
    seat, left, cards = value
    return ClaimRejected(int(seat), int(left), int(cards))


def _shown(value: Any) -> tuple[ShownRuff, ...]:
    return tuple(
        ShownRuff(int(seat), str(suit), tuple(cards), int(v), bool(honest))
        for seat, suit, cards, v, honest in value
    )


def _pairs(value: Any) -> tuple[tuple[int, int], ...]:
    return tuple((int(s), int(v)) for s, v in value)


_TYPES: Final[Mapping[str, Callable[[Any], object]]] = {
    "claim": _claim,
    "concede": _concede,
    "conceded": _conceded,
    "tied": _seats,
    "claim_rejected": _rejected,
    "ruff_values": _seats,
    "ruff_claims": _pairs,
    "ruff_shown": _shown,
    "ruff_winners": _seats,
    "ruff_points": _seats,
}


def typed_note(name: str, value: object) -> object:
    """A note read back from a snapshot, as its type (unknown names stay as read)."""
    make = _TYPES.get(name)
    return value if make is None else make(value)


def ruff_contest_of(notes: Mapping[str, object]) -> RuffContestNote | None:
    """The ruff contest's notes, or ``None`` in a deal without one."""
    if not any(
        name in notes
        for name in ("ruff_values", "ruff_claims", "ruff_shown", "ruff_winners", "ruff_points")
    ):
        return None

    def get(name: str) -> Any:
        return notes.get(name)

    return RuffContestNote(
        get("ruff_values"),
        get("ruff_claims"),
        get("ruff_shown"),
        get("ruff_winners"),
        get("ruff_points"),
    )
