"""Duplicate scoring of boards played alone (``/ruff daily``, ``/ruff challenge``):
each result matchpointed against every other result on its board and the board's
par, a period's standings, and where a score stands among everyone's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

__all__ = ["Entry", "Standing", "matchpoints", "percentile", "standings"]


class Entry(Protocol):
    """One player's attempt at one board (the store's ``BoardEntry``)."""

    @property
    def board(self) -> str: ...
    @property
    def user_id(self) -> int: ...
    @property
    def guild_id(self) -> int | None: ...
    @property
    def name(self) -> str: ...
    @property
    def started_at(self) -> float: ...
    @property
    def result(self) -> int | None: ...  # None until the board is finished


def matchpoints(
    entries: Sequence[Entry], par: Mapping[str, int]
) -> dict[tuple[str, int], Fraction]:
    """Each finished entry's matchpoints on its board, as a percentage: against every
    other finished result on that board and the board's par (the AI in the same seat),
    a better result 1, an equal one ½, over how many they are (50 when none)."""
    by_board: dict[str, list[Entry]] = {}
    for entry in entries:
        if entry.result is not None:
            by_board.setdefault(entry.board, []).append(entry)
    out: dict[tuple[str, int], Fraction] = {}
    for board, played in by_board.items():
        known = par.get(board)
        for entry in played:
            mine = entry.result
            assert mine is not None
            field = [e.result for e in played if e is not entry and e.result is not None]
            if known is not None:
                field.append(known)
            out[(board, entry.user_id)] = _share(mine, field)
    return out


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in a period's standings."""

    rank: int
    user_id: int
    name: str
    boards: int
    score: Fraction  # the average of their boards' matchpoints, in percent


def standings(
    entries: Sequence[Entry],
    points: Mapping[tuple[str, int], Fraction],
    guild_id: int | None = None,
) -> list[Standing]:
    """The players' average matchpoints over their finished boards among ``entries``
    (those played in ``guild_id`` only, when given), best first; ties share a rank."""
    mine: dict[int, list[Fraction]] = {}
    names: dict[int, tuple[float, str]] = {}
    for entry in entries:
        if entry.result is None or (guild_id is not None and entry.guild_id != guild_id):
            continue
        mine.setdefault(entry.user_id, []).append(points[(entry.board, entry.user_id)])
        latest = names.get(entry.user_id)
        if latest is None or entry.started_at >= latest[0]:
            names[entry.user_id] = (entry.started_at, entry.name)
    rows = sorted(
        ((sum(v, Fraction(0)) / len(v), len(v), user) for user, v in mine.items()),
        key=lambda r: (-r[0], -r[1], r[2]),
    )
    out: list[Standing] = []
    for i, (score, boards, user) in enumerate(rows):
        rank = out[-1].rank if out and out[-1].score == score else i + 1
        out.append(Standing(rank, user, names[user][1], boards, score))
    return out


def percentile(scores: Mapping[int, Fraction], user_id: int) -> Fraction | None:
    """Where ``user_id``'s score stands among everyone's (all servers), in percent: the
    share of the others they beat, a tie counting half (100 when alone)."""
    mine = scores.get(user_id)
    if mine is None:
        return None
    others = [s for u, s in scores.items() if u != user_id]
    if not others:
        return Fraction(100)
    return _share(mine, others)


def _share(mine: int | Fraction, field: Sequence[int | Fraction]) -> Fraction:
    """``mine`` against each of ``field``: 2 for better, 1 for equal, as a percentage
    of the most it could score (50 against nobody)."""
    if not field:
        return Fraction(50)
    points = sum(
        Fraction(2) if mine > r else Fraction(1) if mine == r else Fraction(0) for r in field
    )
    return points * Fraction(50, len(field))
