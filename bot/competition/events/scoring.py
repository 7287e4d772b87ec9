"""Scoring an event: matchpoints per board, running standings, completion, and the
asynchronous event's hidden results.

*Barometer rounds* (individual or pairs): every table of a round plays the same
boards. A table's result on a board is the points north-south made less east-west's
(``engine.boards.board_result`` from seat 0). On each board, north-south at a table
scores 1 for every other table's north-south result it beats and ½ for each it ties,
as a percentage of the other tables that played the board (50 when no other table
did); east-west scores 100 less that. The entrants of a side take its percentage:
both players of a partnership in an individual event, the pair in a pairs event.

* A board the time rule skipped (``ns_result`` None) is left out of the other tables'
  comparison and scores by :func:`.timing.skipped_split` (60/40 by thinking time).
* A seat the AI played for an absent entrant (``substituted``) still gives the table a
  result that counts for everyone else; the absent entrant is marked and scores the
  lesser of the side's percentage and 50 (absence never gains; the AI's play is no
  one's merit). A seat the AI fills because the field is not a multiple of four
  belongs to no entrant and scores nothing.

*Standings* (:func:`standings`): an entrant's score is the average percentage over
the boards scored for it (played, skipped, played for it by the AI); rounds it was not
seated in (before it joined, after it left) do not count. Its completion ratio is the
boards it played itself over the boards of every round from its first seated one to
the last scored. Rank by score; equal scores share a rank ("=1"). An entrant whose
completion is below ``min_completion`` is listed after the others, unranked.

*Asynchronous events* (:func:`async_results`): each entrant plays each board alone
against the AI before a deadline; a board fixes the seat, so results compare directly.
Until the event closes nothing is shown but each entrant's progress; at the close a
board an entrant did not finish scores 25%, the others score against everyone who
finished that board (as above, 50 when alone), and every entrant is ranked on the
average over all the event's boards, so the ranking exists only once every board is
settled.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Final

from .movement import Round
from .timing import STEPBRIDGE, TimeRule, skipped_split

__all__ = [
    "AI_CAP",
    "UNPLAYED",
    "AsyncEntry",
    "AsyncResults",
    "BoardScore",
    "How",
    "Standing",
    "TableResult",
    "async_results",
    "matchpoints",
    "running_standings",
    "score_round",
    "standings",
]

AI_CAP: Final = Fraction(50)  # the most an entrant scores on a board the AI played for it
UNPLAYED: Final = Fraction(25)  # an asynchronous board not finished by the close


class How(StrEnum):
    """How a board's score came about (shown beside it)."""

    PLAYED = "played"
    AI = "ai"  # the AI played the entrant's seat (absent): capped at AI_CAP
    SKIPPED = "skipped"  # the time rule: 60/40 by thinking time
    UNPLAYED = "unplayed"  # an asynchronous board not finished: 25%


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table's board in a round. ``ns_result`` is north-south's points less
    east-west's, or None when the time rule skipped the board; the thinking times are
    each side's seconds in the round at that table (they decide a skipped board)."""

    board: int
    table: int
    ns_result: int | None
    substituted: frozenset[int] = frozenset()  # seats the AI played for an absent entrant
    ns_thinking: float = 0.0
    ew_thinking: float = 0.0


@dataclass(frozen=True, slots=True)
class BoardScore:
    """One entrant's score on one board."""

    round: int
    board: int
    entrant: int
    percent: Fraction  # what counts
    earned: Fraction  # the side's own percentage, before the AI cap
    how: How


def matchpoints(results: Sequence[int]) -> list[Fraction]:
    """Each result's percentage against the others of the same seat: 1 per result
    beaten, ½ per tie, over how many others (50 when alone)."""
    out = []
    for i, mine in enumerate(results):
        others = [r for j, r in enumerate(results) if j != i]
        if not others:
            out.append(Fraction(50))
            continue
        points = sum(
            Fraction(2) if mine > r else Fraction(1) if mine == r else Fraction(0) for r in others
        )
        out.append(points * Fraction(50, len(others)))
    return out


def score_round(
    seating: Round, results: Iterable[TableResult], rule: TimeRule = STEPBRIDGE
) -> tuple[BoardScore, ...]:
    """Every seated entrant's score on every board of the round ``seating``, from each
    table's ``results`` (one per table and board, every table having every board)."""
    tables = {t.number: t for t in seating.tables}
    by_board: dict[int, dict[int, TableResult]] = defaultdict(dict)
    for r in results:
        if r.table not in tables:
            raise ValueError(f"round {seating.number} has no table {r.table}")
        if r.table in by_board[r.board]:
            raise ValueError(f"two results for board {r.board} at table {r.table}")
        by_board[r.board][r.table] = r
    out: list[BoardScore] = []
    for board in sorted(by_board):
        at = by_board[board]
        missing = sorted(set(tables) - set(at))
        if missing:
            raise ValueError(f"board {board} has no result at tables {missing}")
        played = sorted(n for n, r in at.items() if r.ns_result is not None)
        points = matchpoints([at[n].ns_result or 0 for n in played])
        ns_percent = dict(zip(played, points, strict=True))
        for number in sorted(at):
            r, table = at[number], tables[number]
            if r.ns_result is None:
                split = skipped_split(r.ns_thinking, r.ew_thinking, rule)
            else:
                split = (ns_percent[number], 100 - ns_percent[number])
            seen: set[int] = set()
            for seat, who in enumerate(table.seats):
                if who is None or who in seen:
                    continue
                seen.add(who)
                side = seat % 2
                mine = {s for s, w in enumerate(table.seats) if w == who}
                earned = split[side]
                if r.ns_result is None:
                    out.append(BoardScore(seating.number, board, who, earned, earned, How.SKIPPED))
                elif mine & r.substituted:
                    capped = min(earned, AI_CAP)
                    out.append(BoardScore(seating.number, board, who, capped, earned, How.AI))
                else:
                    out.append(BoardScore(seating.number, board, who, earned, earned, How.PLAYED))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Standing:
    """An entrant's line: rank (None when unranked), score, boards, completion."""

    rank: int | None
    tied: bool
    entrant: int
    percent: Fraction  # the average over ``boards``
    boards: int  # boards scored for the entrant
    played: int  # of which it played itself
    completion: Fraction  # played / boards it could have played

    @property
    def label(self) -> str:
        """``"=1"`` for a shared rank, ``"1"``, or ``"-"`` unranked."""
        if self.rank is None:
            return "-"
        return f"={self.rank}" if self.tied else str(self.rank)


def _rank(lines: list[Standing]) -> list[Standing]:
    """Ranks for ``lines`` sorted best first (equal ``percent``, equal rank)."""
    out: list[Standing] = []
    for i, line in enumerate(lines):
        rank = out[-1].rank if out and out[-1].percent == line.percent else i + 1
        out.append(
            Standing(
                rank, False, line.entrant, line.percent, line.boards, line.played, line.completion
            )
        )
    count = Counter(line.rank for line in out)
    return [
        Standing(
            line.rank,
            count[line.rank] > 1,
            line.entrant,
            line.percent,
            line.boards,
            line.played,
            line.completion,
        )
        for line in out
    ]


def standings(
    scores: Iterable[BoardScore], min_completion: Fraction = Fraction(0)
) -> tuple[Standing, ...]:
    """The standings over ``scores`` (any rounds so far): best first, the ranked, then
    the unranked (completion below ``min_completion``); ties of score ordered by more
    boards, then entrant id."""
    scores = list(scores)
    boards_of_round: dict[int, set[int]] = defaultdict(set)
    mine: dict[int, list[BoardScore]] = defaultdict(list)
    for s in scores:
        boards_of_round[s.round].add(s.board)
        mine[s.entrant].append(s)
    lines = []
    for who, own in mine.items():
        first = min(s.round for s in own)
        possible = sum(len(b) for r, b in boards_of_round.items() if r >= first)
        played = sum(1 for s in own if s.how is How.PLAYED)
        lines.append(
            Standing(
                None,
                False,
                who,
                sum((s.percent for s in own), Fraction(0)) / len(own),
                len(own),
                played,
                Fraction(played, possible),
            )
        )
    lines.sort(key=lambda s: (-s.percent, -s.boards, s.entrant))
    ranked = _rank([s for s in lines if s.completion >= min_completion])
    return (*ranked, *(s for s in lines if s.completion < min_completion))


def running_standings(
    scores: Iterable[BoardScore], min_completion: Fraction = Fraction(0)
) -> dict[int, tuple[Standing, ...]]:
    """The standings after each round: round number -> standings through that round."""
    scores = list(scores)
    return {
        r: standings([s for s in scores if s.round <= r], min_completion)
        for r in sorted({s.round for s in scores})
    }


# ------------------------------------------------------------------ asynchronous


@dataclass(frozen=True, slots=True)
class AsyncEntry:
    """An entrant's board in an asynchronous event: its result (the seat's points less
    the best other side's), or None while not finished."""

    entrant: int
    board: int
    result: int | None


@dataclass(frozen=True, slots=True)
class AsyncResults:
    """What may be shown: each entrant's boards finished, always; the scores and
    standings only once the event has closed (None until then)."""

    progress: Mapping[int, int]
    boards: int
    scores: tuple[BoardScore, ...] | None
    standings: tuple[Standing, ...] | None

    def all_played(self) -> bool:
        """Every entrant has finished every board (the event may close early)."""
        return all(done == self.boards for done in self.progress.values())


def async_results(
    entrants: Iterable[int],
    boards: Sequence[int],
    entries: Iterable[AsyncEntry],
    closed: bool,
) -> AsyncResults:
    """The results of an asynchronous event over ``boards`` for ``entrants``, hidden
    (progress only) until ``closed``."""
    boards = list(dict.fromkeys(boards))
    on_board = set(boards)
    result: dict[tuple[int, int], int] = {}
    people = list(dict.fromkeys(entrants))
    for e in entries:
        if e.board not in on_board:
            raise ValueError(f"board {e.board} is not one of the event's")
        if e.result is not None:
            result[(e.entrant, e.board)] = e.result
            if e.entrant not in people:
                people.append(e.entrant)
    progress = {who: sum(1 for b in boards if (who, b) in result) for who in people}
    if not closed:
        return AsyncResults(progress, len(boards), None, None)
    scores: list[BoardScore] = []
    for board in boards:
        finished = [who for who in people if (who, board) in result]
        points = matchpoints([result[(who, board)] for who in finished])
        percent = dict(zip(finished, points, strict=True))
        for who in people:
            if who in percent:
                scores.append(BoardScore(1, board, who, percent[who], percent[who], How.PLAYED))
            else:
                scores.append(BoardScore(1, board, who, UNPLAYED, UNPLAYED, How.UNPLAYED))
    return AsyncResults(progress, len(boards), tuple(scores), standings(scores))
