"""An event's timers and restarts: its start and the reminder before it, each round's
sweep at its last start, and :meth:`Lifecycle.resume` at start-up, which arms them
again from the store and moves every running event's tables on."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.competition.events import RoundClock
from bot.store import EventRow
from bot.tables.events.rounds import Rounds
from bot.tables.events.shared import Shared
from bot.tables.events.showing import Showing
from bot.tables.events.views import REMIND_BEFORE, SWEEP_SLACK, Outcome

__all__ = ["Lifecycle"]


class Lifecycle:
    """Arms, re-arms and stops the director's timers. ``start``: an event's start
    (the director's, at its start time)."""

    def __init__(
        self,
        shared: Shared,
        rounds: Rounds,
        showing: Showing,
        start: Callable[[int], Awaitable[Outcome]],
    ) -> None:
        self.shared = shared
        self.repo = shared.repo
        self.rounds = rounds
        self.showing = showing
        self.start = start

    async def resume(self) -> None:
        """At start-up: arm every registering event's start; move every running event's
        tables on (a board that ended while the bot was down, a board not yet dealt) and
        arm its round's sweep."""
        for event in await self.repo.unfinished():
            if event.format == "async":  # AsyncDirector's (asynchronous.py)
                continue
            if event.state == "registering":
                self.arm_start(event)
                continue
            rounds = {r.number: r for r in await self.repo.rounds(event.id)}
            current = rounds.get(event.round)
            if current is None:
                continue
            if current.state == "scored":  # the bot stopped between two rounds
                async with self.shared.locks[event.id]:
                    entries = await self.repo.entries(event.id)
                    begun = await self.rounds.begin_round(event, event.round + 1, entries)
                if begun:
                    await self.rounds.after_round_begun(event.id, event.round + 1)
                continue
            self.arm_sweep(event, event.round)
            for t in await self.repo.tables(event.id, event.round):
                await self.rounds.advance_quietly(event.id, event.round, t.number)
            # an open board whose table resumed: its end moves it on; one dealt and not
            # yet shown when the bot stopped (no table message): shown now
            await self.showing.show_unshown(event)

    async def close(self) -> None:
        """The director stops: no more changes nor takeovers heard, every timer
        cancelled."""
        self.rounds.close()
        self.showing.close()
        self.shared.timers.cancel_all()

    def arm_start(self, event: EventRow) -> None:
        """The event's start at its start time (a start with too few entrants is told
        and waits), and the reminder before it."""

        async def at_start() -> None:
            await asyncio.sleep(max(0.0, event.start_at - self.shared.clock()))
            outcome = await self.start(event.id)
            if outcome is Outcome.TOO_FEW:
                registered = len(await self.repo.entries(event.id))
                await self.shared.front.not_started(event, registered)

        self.shared.timers.arm(event.id, "start", at_start())
        if self.shared.clock() < event.start_at:
            self.shared.timers.arm(event.id, "remind", self._remind_later(event))

    async def _remind_later(self, event: EventRow) -> None:
        """Remind who registered and has not checked in, :data:`REMIND_BEFORE` before
        the start (at once when the start is nearer; never after it)."""
        await asyncio.sleep(max(0.0, event.start_at - REMIND_BEFORE - self.shared.clock()))
        current = await self.repo.get(event.id)
        if current is None or current.state != "registering":
            return
        absent = [e.user_id for e in await self.repo.entries(event.id) if not e.checked_in]
        if absent:
            await self.shared.front.remind(current, absent)

    def arm_sweep(self, event: EventRow, round_no: int) -> None:
        """At the round's last start: every table that may start no board has what is
        left skipped (a table between boards, one whose dealing failed)."""

        async def sweep() -> None:
            rounds = {r.number: r for r in await self.repo.rounds(event.id)}
            if round_no not in rounds:
                return
            clock = RoundClock(
                rounds[round_no].started_at, event.minutes_per_board, event.boards_per_round
            )
            await asyncio.sleep(max(0.0, clock.last_start - self.shared.clock()) + SWEEP_SLACK)
            for t in await self.repo.tables(event.id, round_no):
                await self.rounds.advance_quietly(event.id, round_no, t.number)

        self.shared.timers.arm(event.id, f"sweep-{round_no}", sweep())
