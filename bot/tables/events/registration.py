"""An event's registration and its start (docs/events.md, "Running an event"): an
event created, players joining, leaving and choosing partners, checking in (a seat the
AI plays for them is theirs again), the start (round 1 begun) and a cancel. Each
request is decided under the event's lock; the front is told after it."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from bot.store import EventRow, EventTable
from bot.store.events import Format
from bot.tables import commit
from bot.tables.events.rounds import Rounds
from bot.tables.events.seating import playing, round_field
from bot.tables.events.shared import Shared
from bot.tables.events.views import MIN_ENTRANTS, Outcome
from engine import RulesError, make_rules

__all__ = ["Registration"]


class Registration:
    """Registers, starts and cancels events. ``arm_start``: an event's start (and its
    reminder) armed (the director's timers)."""

    def __init__(
        self, shared: Shared, rounds: Rounds, arm_start: Callable[[EventRow], None]
    ) -> None:
        self.shared = shared
        self.svc = shared.svc
        self.repo = shared.repo
        self.rounds = rounds
        self.arm_start = arm_start

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        game_id: str,
        preset: str | None,
        format: Format,
        boards_per_round: int,
        rounds: int,
        minutes_per_board: float,
        start_at: float,
        rated: bool = False,
    ) -> EventRow:
        """A new event, registering; its start armed. ``rated``: its boards count for
        the server's ratings and stats as ordinary games do (else they leave them as
        they are). Raises ``RulesError`` for a game an event cannot be played in (four
        seats in two partnerships)."""
        rules = make_rules(game_id, preset)
        if rules.players != 4 or rules.sides != 2:
            raise RulesError("an event needs a game of four in two partnerships")
        event = await self.repo.create(
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=creator_id,
            game_id=rules.game_id,
            preset=rules.preset,
            format=format,
            boards_per_round=boards_per_round,
            rounds=rounds,
            minutes_per_board=minutes_per_board,
            start_at=start_at,
            seed=random.SystemRandom().randrange(1 << 53),
            rated=rated,
        )
        self.arm_start(event)
        return event

    async def join(self, event_id: int, user_id: int, name: str) -> Outcome:
        """Register; after the start a late joiner plays from the next round (checked in:
        they are here)."""
        async with self.shared.locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None:
                return Outcome.NO_EVENT
            if event.state not in ("registering", "running"):
                return Outcome.NOT_OPEN
            running = event.state == "running"
            if running and event.round >= event.rounds:
                return Outcome.NOT_OPEN  # the last round is under way
            first = event.round + 1 if running else 1
            if not await self.repo.register(event_id, user_id, name, first, running):
                entry = await self.repo.entry(event_id, user_id)
                if entry is not None and entry.left_round is not None and running:
                    return Outcome.NOT_OPEN  # who left stays out
                return Outcome.ALREADY
        await self.shared.front.registration_changed(event)
        return Outcome.LATE if running else Outcome.DONE

    async def leave(self, event_id: int, user_id: int) -> Outcome:
        """Before the start: unregister. After: out from the next round, and the AI
        plays their seat in the current round from now on (marked, scored as an absent
        player's), so they leave its table's thread at once."""
        gone: list[EventTable] = []
        async with self.shared.locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None:
                return Outcome.NO_EVENT
            if event.state == "registering":
                done = await self.repo.unregister(event_id, user_id)
            elif event.state == "running":
                done = await self.repo.leave(event_id, user_id, event.round + 1)
                if done:
                    gone = await self._stand_in(event, user_id)
            else:
                return Outcome.NOT_OPEN
        if not done:
            return Outcome.NOT_IN
        for t in gone:  # out of their table's thread (a Discord call: after the lock)
            await self.shared.front.thread_members(event, t, playing(t))
        await self.shared.front.registration_changed(event)
        return Outcome.DONE

    async def _stand_in(self, event: EventRow, user_id: int) -> list[EventTable]:
        """``user_id`` left: the AI plays their seat in the current round, on the board
        in play from their next turn and on the boards to come; the tables (as they are
        now) whose players changed."""
        out: list[EventTable] = []
        for t in await self.repo.tables(event.id, event.round):
            if user_id not in t.seats:
                continue
            seat = t.seats.index(user_id)
            if await self.repo.stand_in(event.id, t.round, t.number, seat):
                out.append(replace(t, ai_for=t.ai_for | {seat}))
            for b in await self.repo.boards(event.id, event.round):
                if b.table_no != t.number or b.table_id is None or b.done:
                    continue
                table = await self.svc.current_table(b.table_id)
                if table is None:
                    continue
                async with table.lock:
                    if table.status == "active" and await commit.stand_in(self.svc, table, seat):
                        self.shared.front.seats_changed(table)
                self.shared.kick(table)
        return out

    async def choose_partner(self, event_id: int, user_id: int, partner_id: int) -> Outcome:
        """A pairs or Swiss event: ``user_id`` names their partner (both must be
        registered); the pair stands once the partner names them back."""
        async with self.shared.locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None:
                return Outcome.NO_EVENT
            if event.format == "individual":
                return Outcome.NOT_PAIRS
            if event.state == "running":
                mine = await self.repo.entry(event_id, user_id)
                if mine is not None and mine.joined_round <= event.round:
                    return Outcome.NOT_OPEN  # a pair that played stays together
            elif event.state != "registering":
                return Outcome.NOT_OPEN
            if partner_id == user_id:
                return Outcome.SELF
            mine = await self.repo.entry(event_id, user_id)
            theirs = await self.repo.entry(event_id, partner_id)
            if mine is None or theirs is None:
                return Outcome.NOT_IN
            await self.repo.choose_partner(event_id, user_id, partner_id)
        await self.shared.front.registration_changed(event)
        return Outcome.DONE if theirs.partner_id == user_id else Outcome.PARTNER_WAITING

    async def check_in(self, event_id: int, user_id: int) -> Outcome:
        """The player is here: seated from now on; a seat the AI plays for them in the
        current round is theirs again."""
        async with self.shared.locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None:
                return Outcome.NO_EVENT
            if event.state not in ("registering", "running"):
                return Outcome.NOT_OPEN
            entry = await self.repo.entry(event_id, user_id)
            if entry is None:
                return Outcome.NOT_IN
            # in the field of the next round to be seated (a round under way was
            # seated without them: its seat, if any, is theirs again below)
            first = 1 if event.state == "registering" else event.round + 1
            if not await self.repo.check_in(event_id, user_id, first):
                return Outcome.ALREADY
            back = await self._take_back(event, user_id) if event.state == "running" else []
        for t in back:  # back in their table's thread (a Discord call: after the lock)
            await self.shared.front.thread_members(event, t, playing(t))
        await self.shared.front.registration_changed(event)
        return Outcome.DONE

    async def _take_back(self, event: EventRow, user_id: int) -> list[EventTable]:
        """The seat the AI plays for ``user_id`` in the current round is theirs again:
        the table (as it is now), or none."""
        back: list[EventTable] = []
        for t in await self.repo.tables(event.id, event.round):
            if user_id not in t.seats:
                continue
            seat = t.seats.index(user_id)
            await self.repo.take_back(event.id, t.round, t.number, seat)
            back.append(replace(t, ai_for=t.ai_for - {seat}))
            for b in await self.repo.boards(event.id, event.round):
                if b.table_no != t.number or b.table_id is None or b.done:
                    continue
                table = await self.svc.current_table(b.table_id)
                if table is None:
                    continue
                self.shared.away[table.id] = table.away - {seat}  # known here: no second look
                async with table.lock:
                    if table.status == "active" and await commit.reclaim(self.svc, table, seat):
                        self.shared.front.seats_changed(table)  # their live hand at once
                self.shared.kick(table)
        return back

    # ================================================================ start, cancel

    async def start(self, event_id: int) -> Outcome:
        """Round 1 begins now (the start time, or an admin's ``/ruff event start``)."""
        async with self.shared.locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None:
                return Outcome.NO_EVENT
            if event.state != "registering":
                return Outcome.NOT_OPEN
            entries = await self.repo.entries(event_id)
            if len(round_field(event, entries, 1)) < MIN_ENTRANTS:
                return Outcome.TOO_FEW
            begun = await self.rounds.begin_round(event, 1, entries)
        if begun:
            await self.rounds.after_round_begun(event.id, 1)
        return Outcome.DONE

    async def cancel(self, event_id: int) -> Outcome:
        """The event stops; boards in play are played out but count for nothing."""
        async with self.shared.locks[event_id]:
            event = await self.repo.get(event_id)
            if event is None:
                return Outcome.NO_EVENT
            for state in ("registering", "running"):
                if event.state == state and await self.repo.set_state(event_id, state, "cancelled"):
                    break
            else:
                return Outcome.NOT_OPEN
        self.shared.timers.disarm(event_id)
        await self.shared.front.registration_changed(event)
        return Outcome.DONE
