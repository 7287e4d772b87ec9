"""The events' director on both backends, its boards played by a stand-in for the
table layer (each board's table row made and finished with a chosen result): Swiss
pairs over five rounds paired as networkx's optimum with no rematch and fair byes; a
pairs barometer event; the time rule skipping what cannot start; a restart between
two boards."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction

import networkx as nx
import pytest

from bot.competition.events import Match, plan_round
from bot.store import (
    Database,
    EventRow,
    EventTable,
    HumanSeat,
    NewAction,
)
from bot.store.events import Format
from bot.tables.events import REMIND_BEFORE, Director, Outcome, StandingsView, swiss_seeding
from bot.tables.events.quiet import QuietFront, event_with_entrants, standalone_director
from bot.tables.events.showing import POSTS_AT_ONCE
from bot.tables.services import Services
from bot.tables.table import Table, TableSettings

from .conftest import FakeClock


class Boards:
    """:class:`EventTables` that deals a board as a bare table row (no game): the test
    finishes it with a result of its choosing."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.open_boards: dict[int, tuple[int, int, int, int]] = {}  # table id -> key

    async def open(
        self,
        event: EventRow,
        table: EventTable,
        board_no: int,
        channel_id: int,
        away: frozenset[int],
        names: Mapping[int, str],
    ) -> Table | None:
        repo = self.svc.table_repo
        async with self.svc.db.transaction():
            row = await repo.create_lobby(
                guild_id=event.guild_id,
                channel_id=channel_id,
                creator_id=event.creator_id,
                game_id=event.game_id,
                preset=event.preset,
                seed=board_no,
                seats=[HumanSeat(u, str(u)) if u is not None else None for u in table.seats],
                settings=TableSettings(away=away).to_json(),  # the AI plays for the absent
            )
            await repo.set_status(row.id, "active", row.version)
            await self.svc.event_repo.set_board_table(
                event.id, table.round, table.number, board_no, row.id
            )
        self.open_boards[row.id] = (event.id, table.round, table.number, board_no)
        return Table.from_row(row)


def _director(
    db: Database, front: QuietFront | None = None
) -> tuple[Director, Boards, QuietFront, Services]:
    front = front or QuietFront()
    director, svc = standalone_director(db, front, Boards)
    assert isinstance(director.tables, Boards)
    return director, director.tables, front, svc


async def _finish(
    svc: Services, director: Director, tables: Boards, table_id: int, result: int
) -> None:
    event_id, round_no, table_no, _board = tables.open_boards.pop(table_id)
    row = await svc.table_repo.require(table_id)
    await svc.event_repo.finish_board(table_id, result)
    await svc.table_repo.set_status(table_id, "finished", row.version)
    await director.advance(event_id, round_no, table_no)


async def _create(
    director: Director,
    fmt: Format,
    rounds: int,
    boards: int,
    minutes: float,
    users: Sequence[int] = (),
) -> int:
    """An event starting in an hour, ``users`` joined and checked in."""
    event = await event_with_entrants(
        director, users, format=fmt, rounds=rounds, boards=boards, minutes=minutes
    )
    return event.id


async def _register_pairs(director: Director, event_id: int, pairs: int) -> list[tuple[int, int]]:
    out = []
    for p in range(pairs):
        a, b = 100 + 2 * p, 101 + 2 * p
        for u in (a, b):
            assert await director.join(event_id, u, f"p{u}") is Outcome.DONE
            assert await director.check_in(event_id, u) is Outcome.DONE
        assert await director.choose_partner(event_id, a, b) is Outcome.PARTNER_WAITING
        assert await director.choose_partner(event_id, b, a) is Outcome.DONE
        out.append((a, b))
    return out


@pytest.mark.parametrize("pairs", [12, 11])
async def test_swiss_pairs_meet_no_one_twice_and_are_paired_as_the_optimum(
    db: Database, pairs: int
) -> None:
    director, tables, front, svc = _director(db)
    event_id = await _create(director, "swiss", 5, 2, 30)
    await _register_pairs(director, event_id, pairs)
    assert await director.start(event_id) is Outcome.DONE
    rng = random.Random(pairs)
    met: Counter[tuple[int, int]] = Counter()
    byes: Counter[int] = Counter()
    matches: list[Match] = []
    event = await svc.event_repo.get(event_id)
    assert event is not None
    field = [min(100 + 2 * p, 101 + 2 * p) for p in range(pairs)]
    order = swiss_seeding(event, field)
    for round_no in range(1, 6):
        # the pairing the director made is the matching of most weight
        # with each pair's board percentage as the last standings showed it
        percent: dict[int, Fraction] = {}
        if front.scored:
            percent = {
                min(line.members): line.percent
                for line in front.scored[-1].lines
                if line.percent is not None
            }
        plan = plan_round(order, matches, percent)
        graph: nx.Graph[int] = nx.Graph()
        for (a, b), w in plan.weights.items():
            graph.add_edge(a, b, weight=w)
        best = nx.max_weight_matching(graph, maxcardinality=True)
        best_weight = sum(
            plan.weights[(a, b) if (a, b) in plan.weights else (b, a)] for a, b in best
        )
        seated = await svc.event_repo.tables(event_id, round_no)
        made = [(min(t.seats[0], t.seats[2]), min(t.seats[1], t.seats[3])) for t in seated]  # type: ignore[type-var]
        weight = sum(plan.weights[(a, b) if (a, b) in plan.weights else (b, a)] for a, b in made)
        assert weight == best_weight
        assert len(made) == pairs // 2
        in_round = {p for m in made for p in m}
        bye = set(field) - in_round
        assert len(bye) == pairs % 2 and bye == ({plan.bye} if plan.bye else set())
        for p in bye:
            byes[p] += 1
            matches.append(Match(round_no, p, None))
        nets: dict[tuple[int, int], int] = Counter()
        # play the round: each table's boards, one after the other
        while this_round := [t for t, k in tables.open_boards.items() if k[1] == round_no]:
            table_id = this_round[0]
            _e, _r, table_no, _b = tables.open_boards[table_id]
            result = rng.choice([-2, -1, 0, 1, 2, 3])
            nets[made[table_no - 1]] += result
            await _finish(svc, director, tables, table_id, result)
        for ns, ew in made:
            met[(min(ns, ew), max(ns, ew))] += 1
            matches.append(Match(round_no, ns, ew, nets[(ns, ew)]))
        # the next plan is checked with the percentages the director used
        view = front.scored[-1]
        assert view.through == round_no
    assert max(met.values()) == 1  # no rematch
    assert all(n <= 1 for n in byes.values()) and sum(byes.values()) == 5 * (pairs % 2)
    final = front.scored[-1]
    assert final.final and len(final.lines) == pairs
    points = [line.score for line in final.lines]
    assert points == sorted(points, reverse=True)  # type: ignore[type-var]
    assert sum(points, Fraction(0)) == Fraction(5 * (pairs // 2) + 5 * (pairs % 2))  # type: ignore[arg-type]
    event = await svc.event_repo.get(event_id)
    assert event is not None and event.state == "finished"


async def test_a_swiss_pair_left_out_for_a_partner_not_checked_in_gets_no_bye(
    db: Database,
) -> None:
    """A pair whose second player never checked in plays round 1 (the AI for that
    player) and is not seated in round 2: it gets nothing for round 2, as a pair that
    misses a round (docs/events.md), while the pair with the round's real bye gets its
    point. Seen in a walkthrough's final results: such a pair was given a bye too and
    won the event on 2 points, 0% of its boards played."""
    director, tables, front, svc = _director(db)
    event_id = await _create(director, "swiss", 2, 1, 30)
    await _register_pairs(director, event_id, 3)
    for u in (106, 107):
        assert await director.join(event_id, u, f"p{u}") is Outcome.DONE
    assert await director.check_in(event_id, 106) is Outcome.DONE  # 107 never does
    assert await director.choose_partner(event_id, 106, 107) is Outcome.PARTNER_WAITING
    assert await director.choose_partner(event_id, 107, 106) is Outcome.DONE
    assert await director.start(event_id) is Outcome.DONE
    round1 = await svc.event_repo.tables(event_id, 1)
    assert 106 in {u for t in round1 for u in t.seats}  # round 1 seats every pair
    for table_id in list(tables.open_boards):
        await _finish(svc, director, tables, table_id, 2)  # NS wins each match
    round2 = await svc.event_repo.tables(event_id, 2)
    assert len(round2) == 1 and 106 not in round2[0].seats  # three pairs: one bye
    for table_id in list(tables.open_boards):
        await _finish(svc, director, tables, table_id, 0)  # a draw
    final = front.scored[-1]
    assert final.final
    points = {min(line.members): line.score for line in final.lines}
    ns_round1 = {min(u for u in t.seats[0::2] if u is not None) for t in round1}
    assert points[106] == (1 if 106 in ns_round1 else 0)  # round 1's match only
    # two matches in round 1, one in round 2 (½ each side) and one real bye
    assert sum(points.values(), Fraction(0)) == 4  # type: ignore[arg-type]


async def test_the_time_rule_skips_what_cannot_start_and_scores_it_by_thinking_time(
    db: Database, clock: FakeClock
) -> None:
    director, tables, front, svc = _director(db)
    # 3 boards, 1 minute each
    event_id = await _create(director, "individual", 1, 3, 1.0, range(10, 18))
    assert await director.start(event_id) is Outcome.DONE
    assert len(tables.open_boards) == 2  # board 1 at both tables
    first = sorted(tables.open_boards)
    # table 1's board 1: east-west think longer (10 s a move against 2 s)
    row = await svc.table_repo.require(first[0])
    version = row.version
    for seat, wait in ((0, 2), (1, 10), (2, 2), (3, 10)):
        clock.tick(wait)
        version = await svc.action_repo.append(first[0], version, [NewAction(seat, "p:AS", 1)])
    clock.tick(60)  # 74 s in: board 2 may still start (the last start is at 132 s)
    await _finish(svc, director, tables, first[0], 1)
    assert len(tables.open_boards) == 2  # board 2 dealt at table 1
    clock.tick(70)  # 144 s: too late for any board to start
    second = max(tables.open_boards)
    await _finish(svc, director, tables, second, 2)  # table 1's board 2
    assert front.skipped == [(1, (3,))]
    await _finish(svc, director, tables, first[1], -1)  # table 2's board 1
    assert front.skipped == [(1, (3,)), (2, (2, 3))]
    view = front.scored[-1]
    assert view.final
    boards = await svc.event_repo.boards(event_id, 1)
    skipped = {(b.table_no, b.board): (b.ns_thinking, b.ew_thinking) for b in boards if b.skipped}
    # the time before each move (the first has none): north-south 2 s, east-west 10 + 10 s
    assert skipped[(1, 3)] == (2.0, 20.0)
    assert skipped[(2, 2)] == skipped[(2, 3)] == (0.0, 0.0)  # nobody thought: 50/50


async def test_a_late_join_a_leave_and_refusals_change_only_what_they_should(db: Database) -> None:
    director, tables, front, svc = _director(db)
    event_id = await _create(director, "individual", 2, 1, 30)
    assert await director.start(event_id) is Outcome.TOO_FEW
    for u in (10, 11, 12, 13, 14):
        assert await director.join(event_id, u, f"u{u}") is Outcome.DONE
    assert await director.join(event_id, 10, "u10") is Outcome.ALREADY
    assert await director.choose_partner(event_id, 10, 11) is Outcome.NOT_PAIRS
    assert await director.leave(event_id, 14) is Outcome.DONE
    assert await director.leave(event_id, 14) is Outcome.NOT_IN
    assert await director.check_in(event_id, 99) is Outcome.NOT_IN
    assert await director.start(999) is Outcome.NO_EVENT
    assert await director.start(event_id) is Outcome.DONE
    assert await director.start(event_id) is Outcome.NOT_OPEN
    assert await director.join(event_id, 20, "late") is Outcome.LATE
    round1 = await svc.event_repo.tables(event_id, 1)
    assert {u for t in round1 for u in t.seats if u is not None} == {10, 11, 12, 13}
    assert all(t.ai_for == {s for s, u in enumerate(t.seats) if u is not None} for t in round1)
    for u in (10, 11, 12):
        assert await director.check_in(event_id, u) is Outcome.DONE
    assert await director.leave(event_id, 12) is Outcome.DONE  # out from round 2
    for table_id in list(tables.open_boards):
        await _finish(svc, director, tables, table_id, 0)
    round2 = await svc.event_repo.tables(event_id, 2)
    assert {u for t in round2 for u in t.seats if u is not None} == {10, 11, 20}
    assert await director.join(event_id, 21, "too late") is Outcome.NOT_OPEN  # the last round
    assert await director.cancel(event_id) is Outcome.DONE
    assert await director.cancel(event_id) is Outcome.NOT_OPEN


async def test_a_restart_between_boards_deals_the_next_one(db: Database) -> None:
    director, tables, front, svc = _director(db)
    event_id = await _create(director, "pairs", 1, 2, 30)
    await _register_pairs(director, event_id, 3)  # odd: an AI pair at the last table
    assert await director.start(event_id) is Outcome.DONE
    seated = await svc.event_repo.tables(event_id, 1)
    assert len(seated) == 2 and seated[-1].seats.count(None) == 2
    assert len(tables.open_boards) == 2
    # a board ends while the bot is down: its result is kept, its table not moved on
    table_id = next(iter(tables.open_boards))
    row = await svc.table_repo.require(table_id)
    await svc.event_repo.finish_board(table_id, 3)
    await svc.table_repo.set_status(table_id, "finished", row.version)
    tables.open_boards.pop(table_id)
    again, tables2, front2, svc2 = _director(db)
    again.tables = tables2
    tables2.open_boards = {}
    await again.resume()
    assert len(tables2.open_boards) == 1  # the next board, dealt at start-up
    while tables.open_boards or tables2.open_boards:
        which = tables if tables.open_boards else tables2
        await _finish(svc2, again, which, next(iter(which.open_boards)), 1)
    assert front2.scored and front2.scored[-1].final
    await director.close()
    await again.close()


async def test_who_has_not_checked_in_is_reminded_before_the_start(db: Database) -> None:
    director, tables, front, svc = _director(db)
    await event_with_entrants(  # the reminder is an hour away
        director, (10, 11, 12), minutes=5, starts_in=REMIND_BEFORE + 3600, checked_in=(11,)
    )
    await asyncio.sleep(0)
    assert front.reminded == []  # an hour before the reminder: nothing yet
    await director.close()
    near = await event_with_entrants(  # nearer than the reminder's lead
        director, (10, 11, 12), minutes=5, starts_in=REMIND_BEFORE / 2, checked_in=(11,)
    )
    told = len(front.reminded)
    await director.resume()  # re-armed (as at a restart): the reminder is due at once
    async with asyncio.timeout(10):
        while len(front.reminded) == told:
            await asyncio.sleep(0.01)
    assert front.reminded[-1] == (near.id, (10, 12))  # 11 checked in: not reminded
    assert all(event_id == near.id for event_id, _users in front.reminded)
    await director.close()


class SlowFront(QuietFront):
    """A front whose posts of a dealt board hang until let go (Discord slow, rate
    limited, fifty tables to show)."""

    def __init__(self) -> None:
        super().__init__()
        self.hold = False
        self.shown: list[int] = []
        self.go = asyncio.Event()

    async def board_opened(self, event: EventRow, table: Table, *, again: bool = False) -> None:
        if self.hold:
            await self.go.wait()
        self.shown.append(table.id)


async def test_a_join_does_not_wait_for_a_round_change_s_posts(db: Database) -> None:
    front = SlowFront()
    director, tables, _front, svc = _director(db, front)
    event_id = await _create(director, "individual", 3, 1, 30, range(10, 18))
    assert await director.start(event_id) is Outcome.DONE
    await asyncio.sleep(0)
    first, last = list(tables.open_boards)
    await _finish(svc, director, tables, first, 10)
    front.hold = True  # round 2's tables are shown slowly
    change = asyncio.create_task(_finish(svc, director, tables, last, -10))
    for _ in range(500):  # round 2 being dealt, its posts hanging
        if any(key[1] == 2 for key in tables.open_boards.values()):
            break
        await asyncio.sleep(0.01)
    assert not change.done()
    try:  # a late joiner and a check-in are answered meanwhile (they wait for no post)
        assert await asyncio.wait_for(director.join(event_id, 30, "late"), 5) is Outcome.LATE
        assert await asyncio.wait_for(director.check_in(event_id, 30), 5) is Outcome.ALREADY
    finally:
        front.go.set()
        await change
    assert len(tables.open_boards) == 2  # round 2's two boards dealt
    assert len(front.shown) == 4  # every dealt board shown in the end


class SlowNoticeFront(QuietFront):
    """A front whose "boards skipped" notice hangs until let go."""

    def __init__(self) -> None:
        super().__init__()
        self.go = asyncio.Event()

    async def boards_skipped(
        self, event: EventRow, table: EventTable, boards: Sequence[int]
    ) -> None:
        await self.go.wait()
        await super().boards_skipped(event, table, boards)


async def test_a_join_does_not_wait_for_the_boards_skipped_notice(
    db: Database, clock: FakeClock
) -> None:
    front = SlowNoticeFront()
    director, tables, _front, svc = _director(db, front)
    # 3 boards, 1 minute each
    event_id = await _create(director, "individual", 2, 3, 1.0, range(10, 18))
    assert await director.start(event_id) is Outcome.DONE
    first = sorted(tables.open_boards)[0]
    clock.tick(150)  # past the round's last start: table 1's boards 2 and 3 are skipped
    notice = asyncio.create_task(_finish(svc, director, tables, first, 1))
    for _ in range(500):  # the skip written, its notice hanging
        boards = await svc.event_repo.boards(event_id, 1)
        if any(b.skipped for b in boards):
            break
        await asyncio.sleep(0.01)
    assert not notice.done()
    try:  # a late joiner and a check-in are answered meanwhile (they wait for no post)
        assert await asyncio.wait_for(director.join(event_id, 30, "late"), 5) is Outcome.LATE
        assert await asyncio.wait_for(director.check_in(event_id, 30), 5) is Outcome.ALREADY
    finally:
        front.go.set()
        await notice
    assert front.skipped == [(1, (2, 3))]  # the notice was posted in the end


class CountingFront(QuietFront):
    """A front whose threads and table posts take a while, counting how many are under
    way at once, and what happened in which order."""

    def __init__(self, tables: Boards | None = None) -> None:
        super().__init__()
        self.threads = self.shows = 0
        self.most_threads = self.most_shows = 0
        self.shown: list[int] = []
        self.tables = tables
        self.dealt_at_first_call: int | None = None  # boards dealt when Discord was first called
        self.steps: list[str] = []  # "thread" / "shown", in order
        self.again = 0  # threads asked for and boards shown "again" (Discord read first)
        self.dealt_when_scored: int | None = None  # boards open when the standings were told

    def _called(self) -> None:
        if self.dealt_at_first_call is None and self.tables is not None:
            self.dealt_at_first_call = len(self.tables.open_boards)

    async def table_channel(
        self, event: EventRow, table: EventTable, names: Mapping[int, str], *, again: bool = False
    ) -> int:
        self._called()
        self.again += again
        self.threads += 1
        self.most_threads = max(self.most_threads, self.threads)
        await asyncio.sleep(0.01)  # Discord's answer
        self.threads -= 1
        self.steps.append("thread")
        return await super().table_channel(event, table, names, again=again)

    async def board_opened(self, event: EventRow, table: Table, *, again: bool = False) -> None:
        self._called()
        self.again += again
        self.shows += 1
        self.most_shows = max(self.most_shows, self.shows)
        await asyncio.sleep(0.01)
        self.shows -= 1
        self.shown.append(table.id)
        self.steps.append("shown")

    async def round_begun(
        self, event: EventRow, round_no: int, tables: Sequence[EventTable], names: Mapping[int, str]
    ) -> None:
        self._called()
        await asyncio.sleep(0.01)

    async def round_scored(self, view: StandingsView) -> None:
        if self.tables is not None:  # the picture drawn, the post's answer: a while
            for _ in range(500):  # (up to 5 s) during which the next round is dealt
                if len(self.tables.open_boards) == 12:
                    break
                await asyncio.sleep(0.01)
            self.dealt_when_scored = len(self.tables.open_boards)
        await super().round_scored(view)


async def test_a_round_s_threads_and_boards_are_posted_a_few_tables_at_a_time(
    db: Database,
) -> None:
    """Fifty tables' threads and posts one after the other kept the last table waiting
    close to a minute (tools/bench_event_tables.py); a few at a time, never all. Every
    table is dealt before the first Discord call (playable whatever Discord takes), and
    each is shown as soon as its own thread is made, not after every thread of the
    round."""
    front = CountingFront()
    director, tables, _front, _svc = _director(db, front)
    front.tables = tables
    event_id = await _create(director, "individual", 2, 1, 30, range(100, 100 + 4 * 12))
    assert await director.start(event_id) is Outcome.DONE
    assert len(tables.open_boards) == 12  # every table dealt ...
    assert len(front.shown) == 12  # ... and shown once start returned
    assert front.most_threads == POSTS_AT_ONCE < 12
    assert 1 < front.most_shows <= POSTS_AT_ONCE
    assert front.dealt_at_first_call == 12  # no table waited on Discord to be dealt
    # table by table: the first tables are shown before the last threads are made
    assert front.steps.index("shown") < len(front.steps) - 1 - front.steps[::-1].index("thread")
    for table_id in front.shown:  # each table moved to its own thread (from the channel)
        row = await _svc.table_repo.require(table_id)
        assert row.channel_id != 2

    # the round change: round 2's tables are dealt while round 1's standings are being
    # posted, not after them (nor after any other Discord call)
    front.dealt_at_first_call = None
    for table_id in list(tables.open_boards):
        await _finish(_svc, director, tables, table_id, 1)
    assert len(front.scored) == 1
    assert front.dealt_when_scored == 12  # round 2's twelve tables, dealt meanwhile
    assert len(front.shown) == 24
    # a round dealt and shown by the running process never looks in Discord for a
    # thread or a table message a stopped process left (no read on a round's path)
    assert front.again == 0


async def test_a_swiss_round_missed_stays_missed_when_the_partner_checks_in_later(
    db: Database,
) -> None:
    """107 does not check in before the start: round 2 leaves the pair 106 & 107 out.
    107 checks in during round 2, so the pair plays round 3. Its round 2 stays a round
    missed, not a bye: the standings are worked out again after every round, from who
    was in each round's field then, not from who is checked in now."""
    director, tables, front, svc = _director(db)
    event_id = await _create(director, "swiss", 3, 1, 30)
    await _register_pairs(director, event_id, 3)
    for u in (106, 107):
        assert await director.join(event_id, u, f"p{u}") is Outcome.DONE
    assert await director.check_in(event_id, 106) is Outcome.DONE
    assert await director.choose_partner(event_id, 106, 107) is Outcome.PARTNER_WAITING
    assert await director.choose_partner(event_id, 107, 106) is Outcome.DONE
    assert await director.start(event_id) is Outcome.DONE
    for table_id in list(tables.open_boards):
        await _finish(svc, director, tables, table_id, 2)  # NS wins each match
    round2 = await svc.event_repo.tables(event_id, 2)
    assert len(round2) == 1 and 106 not in round2[0].seats
    assert await director.check_in(event_id, 107) is Outcome.DONE  # during round 2
    for table_id in list(tables.open_boards):
        await _finish(svc, director, tables, table_id, 2)
    round3 = await svc.event_repo.tables(event_id, 3)
    assert len(round3) == 2 and 106 in {u for t in round3 for u in t.seats}  # back
    for table_id in list(tables.open_boards):
        await _finish(svc, director, tables, table_id, 2)
    final = front.scored[-1]
    assert final.final
    points = {min(line.members): line.score for line in final.lines}
    # 106's pair scores the rounds 1 and 3 it won sitting north-south; round 2 nothing
    rounds_won = sum(
        106 in t.seats[0::2] for t in (*await svc.event_repo.tables(event_id, 1), *round3)
    )
    assert points[106] == rounds_won
    # round 1: two matches; round 2: one match and one real bye; round 3: two matches
    assert sum(points.values(), Fraction(0)) == 6  # type: ignore[arg-type]
