"""An event's scoring: each board's matchpoints against the same seat at the other
tables, the Swiss record, the standings after each round and every board's
traveller once the event is over (read from the store; the director writes)."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from bot.competition.events import (
    BoardScore,
    Match,
    Round,
    Standing,
    SwissStanding,
    TableResult,
    matchpoints,
    score_round,
    standings,
    swiss_standings,
)
from bot.competition.events import Table as Seating
from bot.store import (
    EventBoard,
    EventEntry,
    EventRow,
    EventTable,
)
from bot.tables.events.seating import (
    confirmed_pairs,
    entrant_seats,
    partners_of,
    round_field,
    swiss_seeding,
)
from bot.tables.events.views import (
    MIN_COMPLETION,
    Line,
    StandingsView,
    Traveller,
    TravellerRow,
    moved_since,
)
from bot.tables.services import Services


class EventScoring:
    """Reads an event's results and works out what they score."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.repo = svc.event_repo

    async def substituted(self, b: EventBoard, table: EventTable) -> frozenset[int]:
        """The seats of players whose cards the AI played on the board (absent, or
        out of time)."""
        if b.table_id is None:
            return frozenset()
        out = set()
        for action in await self.svc.action_repo.list(b.table_id):
            if action.actor_id is None and table.seats[action.seat] is not None:
                out.add(action.seat)
        return frozenset(out)

    async def scores(self, event: EventRow, through: int) -> list[BoardScore]:
        """Every entrant's board scores in the scored rounds up to ``through``."""
        tables = await self.repo.tables(event.id)
        boards = await self.repo.boards(event.id)
        # pure, and a round of 50 tables takes tens of ms (exact fractions): in a thread,
        # as the movement, so the loop answers clicks meanwhile (a round change's scoring
        # held it for every round so far, twice: the standings and the ones before)
        return await asyncio.to_thread(round_scores, event, tables, boards, through)

    async def swiss_record(
        self, event: EventRow, entries: Sequence[EventEntry], before: int
    ) -> tuple[list[Match], dict[int, Fraction]]:
        """The Swiss matches of the rounds before ``before`` (byes included) and each
        pair's average board percentage."""
        tables = await self.repo.tables(event.id)
        boards = await self.repo.boards(event.id)
        matches: list[Match] = []
        for n in range(1, before):
            seated = set()
            for t in (t for t in tables if t.round == n):
                ns, ew = entrant_seats(event, t)[:2]
                assert ns is not None and ew is not None
                seated |= {ns, ew}
                net = sum(
                    b.ns_result or 0
                    for b in boards
                    if b.round == n and b.table_no == t.number and not b.skipped
                )
                matches.append(Match(n, ns, ew, net))
            # the bye: a pair in the round's field as it was seated and at no table (a
            # pair left out for a partner not checked in missed the round: nothing)
            for p in sorted(set(round_field(event, entries, n)) - seated):
                matches.append(Match(n, p, None))
        scores = await self.scores(event, before - 1)
        percent = {s.entrant: s.percent for s in await asyncio.to_thread(standings, scores)}
        return matches, percent

    async def standings(self, event_id: int) -> StandingsView:
        """The standings after the last scored round (the final results once finished)."""
        event = await self.repo.get(event_id)
        assert event is not None
        rounds = await self.repo.rounds(event_id)
        through = max((r.number for r in rounds if r.state == "scored"), default=0)
        entries = await self.repo.entries(event_id)
        names = {e.user_id: e.name for e in entries}
        partner = partners_of(entries)

        def name(entrant: int) -> str:
            if event.format == "individual":
                return names.get(entrant, str(entrant))
            other = partner.get(entrant)
            return " & ".join(names.get(u, str(u)) for u in (entrant, other) if u is not None)

        def members(entrant: int) -> tuple[int, ...]:
            if event.format == "individual" or entrant not in partner:
                return (entrant,)
            return (entrant, partner[entrant])

        scores = await self.scores(event, through)
        lines = await self._lines(event, entries, through, name, members, scores)
        if through > 1:  # each line's movement since the round before (its scores: these)
            before = [s for s in scores if s.round < through]
            lines = moved_since(
                lines, await self._lines(event, entries, through - 1, name, members, before)
            )
        final = event.state == "finished"
        travellers = await self._travellers(event, names) if final else ()
        return StandingsView(event, through, tuple(lines), final, travellers)

    async def _lines(
        self,
        event: EventRow,
        entries: Sequence[EventEntry],
        through: int,
        name: Callable[[int], str],
        members: Callable[[int], tuple[int, ...]],
        scores: Sequence[BoardScore],
    ) -> list[Line]:
        """The standings' lines after round ``through`` (``scores``: its rounds')."""
        table: tuple[Standing, ...] = await asyncio.to_thread(standings, scores, MIN_COMPLETION)
        lines: list[Line]
        if event.format == "swiss":
            matches, percent = await self.swiss_record(event, entries, through + 1)
            seeding = swiss_seeding(event, [min(a, b) for a, b in confirmed_pairs(entries)])
            completion = {s.entrant: s.completion for s in table}
            swiss: tuple[SwissStanding, ...] = swiss_standings(seeding, matches, percent)
            lines = [
                Line(
                    s.label,
                    name(s.pair),
                    s.percent,
                    s.score,
                    completion.get(s.pair, Fraction(0)),
                    members(s.pair),
                )
                for s in swiss
                if s.played or s.byes
            ]
        else:
            lines = [
                Line(s.label, name(s.entrant), s.percent, None, s.completion, members(s.entrant))
                for s in table
            ]
        return lines

    async def _travellers(self, event: EventRow, names: Mapping[int, str]) -> tuple[Traveller, ...]:
        """Every board's results at every table (shown once the event is over)."""
        tables = {(t.round, t.number): t for t in await self.repo.tables(event.id)}
        by_board: dict[tuple[int, int], list[EventBoard]] = defaultdict(list)
        for b in await self.repo.boards(event.id):
            by_board[(b.round, b.board)].append(b)

        def side(t: EventTable, s: int) -> str:
            who = [t.seats[s], t.seats[s + 2]]
            return "–".join(names.get(u, "?") if u is not None else "AI" for u in who)

        out = []
        for (round_no, board_no), rows in sorted(by_board.items()):
            played = [b for b in rows if not b.skipped and b.ns_result is not None]
            percent = dict(
                zip(
                    (b.table_no for b in played),
                    matchpoints([b.ns_result or 0 for b in played]),
                    strict=True,
                )
            )
            out.append(
                Traveller(
                    round_no,
                    board_no,
                    tuple(
                        TravellerRow(
                            b.table_no,
                            side(tables[(round_no, b.table_no)], 0),
                            side(tables[(round_no, b.table_no)], 1),
                            None if b.skipped else b.ns_result,
                            percent.get(b.table_no),
                        )
                        for b in sorted(rows, key=lambda b: b.table_no)
                    ),
                )
            )
        return tuple(out)


def round_scores(
    event: EventRow, tables: Sequence[EventTable], boards: Sequence[EventBoard], through: int
) -> list[BoardScore]:
    """Every entrant's board scores in rounds 1..``through`` of ``event`` (its round
    tables and boards as stored): pure."""
    out: list[BoardScore] = []
    for n in range(1, through + 1):
        mine = [t for t in tables if t.round == n]
        if not mine:
            continue
        seating = Round(n, tuple(Seating(t.number, entrant_seats(event, t)) for t in mine))
        results = [
            TableResult(
                board=b.board,
                table=b.table_no,
                ns_result=None if b.skipped else b.ns_result,
                substituted=b.substituted,  # kept when the round closed
                ns_thinking=b.ns_thinking,
                ew_thinking=b.ew_thinking,
            )
            for b in boards
            if b.round == n
        ]
        out.extend(score_round(seating, results))
    return out
