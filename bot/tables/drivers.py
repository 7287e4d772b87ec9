"""What moves a table when no click does: the AI's turns, the turn timer of an
absent player, the lobby's expiry — all supervised, so a failed step (a locked
database, a crashed AI worker) is retried with backoff and the table always
moves on.

:meth:`Drivers.committed` is the feed's listener that follows every commit (a
click's, the AI's, a timer's) once the front has shown it: the next turn is
armed — the AI for an AI seat, the turn timer for a human. What happens between
moves (a ping, a warning, a turn the AI played for an absent player, an expired
lobby) is told to the front that shows the table (``bot.tables.front``), which
words it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.store import Deadline, StoreError
from bot.tables import commit
from bot.tables.autoplay import AutoPlay
from bot.tables.front import Front
from bot.tables.services import Services
from bot.tables.table import TURN_WARNING_LEFT, TURN_WARNING_MIN, Table, retry_backoff
from engine import (
    CLAIM,
    CONCEDE,
    Action,
    Event,
    Game,
    IllegalAction,
    RefuseConcession,
    RejectClaim,
    answering,
)

log = logging.getLogger(__name__)

__all__ = ["Drivers", "acting_seat"]

DEADLINE_SLACK = 10.0
"""Seconds a stored turn deadline may be reckoned before the move that wrote it (see
:meth:`Drivers.resumed_due`). A deadline is only ever rewritten by the next human turn,
at least a move later, so no earlier turn's passes for the current one: with the exact
comparison it had, every restart gave every waiting player a fresh full turn and
wrote all their deadlines again, a thousand writes as the tables came back."""


def acting_seat(table: Table, game: Game) -> int | None:
    """The seat to drive now: ``game.to_act()``, except that while a claim or
    concession waits for several seats an AI among them answers first (at once)."""
    for seat in answering(game):
        if table.ai_plays(seat):
            return seat
    return game.to_act()


class Drivers:
    """AI moves and timers, one set per table, owned by the table's tasks."""

    def __init__(self, svc: Services, front: Front) -> None:
        self.svc = svc
        self.front = front
        self.autoplay = AutoPlay(svc, front)

    # ================================================================ after every commit

    def committed(self, table: Table, events: list[Event]) -> None:
        """Arm what the next turn needs, or wind the table down if the game is over.
        A listener of the feed (subscribed by the wiring after the presenter, which has
        shown the move by then): called under the table's lock for every commit,
        whoever made it."""
        if table.status == "finished":
            # never cancel the task we run in (the AI driver commits through here too)
            table.stop_tasks(keep_ai=asyncio.current_task() is table.drive.ai_task)
            self.svc.tables.retire(table)
            return
        if self.svc.sync.may_drive(table):
            # several processes: the table's owner arms the next turn
            self.kick(table)

    def kick(self, table: Table, due: float | None = None) -> None:
        """After every turn change: run the AI for an AI seat, else arm the human's turn timer."""
        if self.svc.closing or table.status != "active" or table.game is None or table.game.is_over:
            return
        if not self.svc.sync.may_drive(table):
            return  # another process runs this table's AI and timers
        seat = acting_seat(table, table.game)
        if seat is None:
            return
        if table.ai_plays(seat):
            table.drive.cancel_timer()
            if table.drive.ai_task is None or table.drive.ai_task.done():
                table.drive.ai_task = asyncio.create_task(
                    self._drive_ai(table), name=f"ai-{table.id}"
                )
        else:
            self.arm_turn_timer(table, seat, due)
            timeout = self.turn_timeout(table)
            if due is None and timeout > 0:
                due = self.svc.now() + timeout
            self._ping_later(table, seat, due)
            self.autoplay.arm(table, seat)  # a lone legal card, for those who chose it

    def rearm(self, table: Table) -> None:
        """The safety net under :meth:`kick`: a turn that waits for the AI or a turn
        timer that is not running (a step skipped meanwhile, e.g. a lost and re-claimed
        lease) gets it, so a table never stalls."""
        game = table.game
        if game is None or table.status != "active" or game.is_over:
            return
        seat = acting_seat(table, game)
        if seat is None:
            return
        if table.ai_plays(seat):
            idle = table.drive.ai_task is None or table.drive.ai_task.done()
        else:
            idle = self.turn_timeout(table) > 0 and (
                table.drive.timer_task is None or table.drive.timer_task.done()
            )
        if idle:
            log.info(
                "table %s: re-arming its %s",
                table.id,
                "AI" if table.ai_plays(seat) else "turn timer",
            )
            self.kick(table)

    def _ping_later(self, table: Table, seat: int, due: float | None) -> None:
        """Ping the human at ``seat`` if they have not moved ``turn_ping_delay``
        seconds into their turn. A player who is watching the game moves sooner and
        is never pinged (a ping per trick would be noise, and two REST calls a turn:
        the post and its deletion); one who looked away is called back with most of
        the turn time left. Replaced by the next turn's (``Table.cancel_timer``)."""
        delay = self.svc.settings.turn_ping_delay
        if delay < 0:
            return  # pings switched off
        if delay == 0:
            self.front.ping(table, seat, due)
            return
        version = table.version

        async def later() -> None:
            await asyncio.sleep(delay)
            if self._turn_is(table, seat, version):
                self.front.ping(table, seat, due, waited=True)

        table.drive.ping_task = asyncio.create_task(later(), name=f"ping-{table.id}")

    # ================================================================ the AI

    async def _drive_ai(self, table: Table) -> None:
        """Play the AI seats' turns until a human is to act. Supervised: a failed step
        (e.g. "database is locked" during the commit) is retried with backoff, so the
        table always moves on."""
        failures = 0
        while not self.svc.closing:
            try:
                if not await self._ai_step(table):
                    return
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                failures += 1
                delay = retry_backoff(failures)
                log.warning(
                    "AI move at table %s failed (%s: %s); retrying in %.2f s (attempt %d)",
                    table.id,
                    type(exc).__name__,
                    exc,
                    delay,
                    failures,
                    exc_info=not isinstance(exc, StoreError),
                )
                await asyncio.sleep(delay)

    async def _ai_step(self, table: Table) -> bool:
        """One AI move; False when there is nothing (more) for the AI to do."""
        if table.status != "active" or table.game is None or table.game.is_over:
            return False
        game = table.game
        seat = acting_seat(table, game)
        if seat is None or not table.ai_plays(seat):
            self.kick(table)
            return False
        if self.svc.settings.ai_delay > 0:
            await asyncio.sleep(self.svc.settings.ai_delay)
        if table.game is not game:
            return True
        version = game.version
        view = table.view(seat)
        action = await self.svc.ai.choose(
            table.ai_level(seat), view, view.legal, f"{table.seed}:ai:{version}"
        )
        async with table.lock:
            if (
                table.game is not game
                or game.version != version
                or table.status != "active"
                or not table.ai_plays(seat)  # the player took the seat back meanwhile
            ):
                return True
            try:
                await commit.commit(self.svc, table, seat, [action], None)
            except IllegalAction:
                log.exception(
                    "AI chose an illegal action at table %s; playing the first legal one", table.id
                )
                await commit.commit(self.svc, table, seat, [view.legal[0]], None)
        return True

    async def _choose_turn(self, table: Table, game: Game, seat: int) -> list[Action]:
        """The AI's play for a human's timed-out turn: its actions until the turn
        passes (laying out several cards is one turn)."""
        if game.phase in (CLAIM, CONCEDE):  # an unanswered claim or concession: no, play on
            return [RejectClaim() if game.phase == CLAIM else RefuseConcession()]
        level = table.ai_level(seat)
        trial = game.clone()
        actions: list[Action] = []
        while True:
            view = trial.observe(seat)
            legal = list(view.legal)
            action = await self.svc.ai.choose(
                level, view, legal, f"{table.seed}:ai:{game.version}:{len(actions)}"
            )
            try:
                trial.apply(seat, action)
            except IllegalAction:
                log.exception(
                    "AI chose an illegal action at table %s; playing the first legal one", table.id
                )
                action = legal[0]
                trial.apply(seat, action)
            actions.append(action)
            if trial.is_over or trial.to_act() != seat or not trial.observe(seat).to_lay_out:
                return actions

    # ================================================================ the turn timer

    def turn_timeout(self, table: Table) -> float:
        return commit.turn_timeout(self.svc, table)

    def resumed_due(
        self, table: Table, deadline: Deadline | None, last_action_at: float
    ) -> float | None:
        """The stored turn deadline if it belongs to the turn now waiting, else None.

        A deadline set well before the latest action is from an earlier turn: that
        turn gets a fresh timeout instead. The move that begins a human's turn writes
        its deadline with it, reckoned from a clock read just before the write (which
        may queue for the database): up to :data:`DEADLINE_SLACK` older than the move.
        """
        game = table.game
        if (
            deadline is None
            or deadline.kind != "turn"
            or game is None
            or deadline.seat != game.to_act()
        ):
            return None
        set_at = deadline.due_at - self.turn_timeout(table)
        return deadline.due_at if set_at + DEADLINE_SLACK >= last_action_at else None

    def arm_turn_timer(self, table: Table, seat: int, due: float | None = None) -> None:
        """Start the AFK timer of ``seat``'s turn, replacing the table's previous timer.

        ``due`` (epoch seconds, ``utcnow`` clock) re-arms a stored deadline after a
        restart; otherwise the turn gets the full timeout. A public reminder goes out
        when a third of the time is left; on expiry the AI plays the turn, and after
        ``afk_takeover_after`` expiries in a row it keeps the seat until the player
        presses **Take my seat back**.
        """
        timeout = self.turn_timeout(table)
        if timeout <= 0:
            return
        stored = table.drive.turn_due
        if due is None and stored is not None and stored[:2] == (table.version, seat):
            due, stored_already = stored[2], True  # written with the move that began this turn
        else:
            stored_already = False
        table.drive.cancel_timer()
        table.drive.timer_task = asyncio.create_task(
            self._turn_timer(
                table, seat, table.version, timeout, due, store=not stored_already and due is None
            ),
            name=f"turn-{table.id}",
        )
        if not stored_already:
            # a turn not begun by a move (a game's first, after a start or a take-back):
            # its hand message was drawn before the deadline was known; it shows it now
            table.drive.deadline = due if due is not None else self.svc.now() + timeout
            self.front.deadline_known(table)
            self.svc.feed.changed(table)

    async def _turn_timer(
        self,
        table: Table,
        seat: int,
        version: int,
        timeout: float,
        due: float | None,
        store: bool = True,
    ) -> None:
        now = self.svc.now()
        if due is None:
            due = table.drive.deadline if table.drive.deadline is not None else now + timeout
        if store:
            try:
                await commit.set_deadline(self.svc, table, "turn", due, seat)
            except StoreError:
                log.warning("table %s: could not store the turn deadline", table.id, exc_info=True)
        table.drive.deadline = due
        left = timeout * TURN_WARNING_LEFT
        if timeout >= TURN_WARNING_MIN and due - now > left:
            await asyncio.sleep(due - left - now)
            if self._turn_is(table, seat, version):
                self.front.warning(table, seat, version, due)
        await asyncio.sleep(max(0.0, due - self.svc.now()))
        # Shielded: cancelling the timer (a click arrived) must never cut a commit in half.
        await asyncio.shield(self._turn_expired(table, seat, version))

    @staticmethod
    def _turn_is(table: Table, seat: int, version: int) -> bool:
        """True while the game still waits for the human at ``seat`` at ``version``."""
        game = table.game
        return (
            table.status == "active"
            and game is not None
            and game.version == version
            and game.to_act() == seat
            and not table.ai_plays(seat)
        )

    async def _turn_expired(self, table: Table, seat: int, version: int) -> None:
        """Time is up: the AI plays ``seat``'s turn, unless a click got there first."""
        try:
            game = table.game
            if game is None or not self._turn_is(table, seat, version):
                return
            actions = await self._choose_turn(table, game, seat)
            async with table.lock:
                # Re-check under the lock: a click, a reclaim or a cancel may have won.
                if table.game is not game or not self._turn_is(table, seat, version):
                    return
                await commit.commit(self.svc, table, seat, actions, None, timed_out=True)
                self.front.timed_out(
                    table, seat, actions, table.misses.get(seat, 0), seat in table.away
                )
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            # Supervised: retry the expiry soon with backoff (not a whole new turn).
            table.drive.timer_failures += 1
            delay = retry_backoff(table.drive.timer_failures)
            log.warning(
                "turn timer of table %s failed (%s: %s); retrying in %.2f s",
                table.id,
                type(exc).__name__,
                exc,
                delay,
                exc_info=not isinstance(exc, StoreError),
            )
            if self._turn_is(table, seat, version) and not self.svc.closing:
                self.arm_turn_timer(table, seat, due=self.svc.now() + delay)
        else:
            table.drive.timer_failures = 0

    # ================================================================ the lobby timer

    def arm_lobby_timer(self, table: Table, due: float | None = None) -> None:
        """Expire the lobby (freeing the channel) if it has not started by ``due``."""
        if not self.svc.sync.may_drive(table):
            return  # another process runs this table's timers
        timeout = self.svc.settings.lobby_timeout
        if timeout <= 0:
            return
        table.drive.cancel_timer()
        table.drive.timer_task = asyncio.create_task(
            self._lobby_timer(table, timeout, due), name=f"lobby-{table.id}"
        )

    async def _lobby_timer(self, table: Table, timeout: float, due: float | None) -> None:
        if due is None:
            due = self.svc.now() + timeout
            try:
                await commit.set_deadline(self.svc, table, "lobby", due)
            except StoreError:
                log.warning("table %s: could not store the lobby deadline", table.id, exc_info=True)
        await asyncio.sleep(max(0.0, due - self.svc.now()))
        async with table.lock:
            if table.status != "lobby":
                return
            if not await commit.mark_cancelled(self.svc, table):
                return
        await self.front.lobby_expired(table)

    # ================================================================ shutting down

    def running(self) -> list[asyncio.Task[Any]]:
        """Cancel every table's AI and timer task; the tasks, to wait for."""
        stopping: list[asyncio.Task[Any]] = []
        for table in self.svc.tables.values():
            for task in (table.drive.ai_task, table.drive.timer_task, table.drive.ping_task):
                if task is not None and not task.done():
                    task.cancel()
                    stopping.append(task)
        return stopping
