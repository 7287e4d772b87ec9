"""Start-up: bring every unfinished table back from the database.

Loads the rows, the action logs, the snapshots and the hand messages in a few
queries (not per table), restores each game from its snapshot and replays only
the tail of its log (the whole log when a snapshot is missing, damaged or does
not match the log: the log is the truth), re-arms the stored turn and lobby
timers, and brings the messages up to date. The servers' settings and the
players' languages are read for every table at once first, so no table waits
for a query of its own; ``resume()`` returns once every table takes clicks, and
the messages are redrawn after it, a few tables at a time. A table whose log
does not replay with this version of the engine is *set aside*, never
destroyed: it stays in the database unchanged, the admin is told in the log and
its channel once, and it loads again on a later start whose version replays it.

Finished tables without a rating (games finished before ratings existed, or
one whose rating failed) are rated in the background after the tables are
back, by a rebuild of the ratings (:func:`bot.store.ratings.rebuild`), so an
upgraded bot's leaderboard keeps its history without anyone running the
command.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence

from bot.store import (
    ActionRow,
    Deadline,
    HandMessage,
    HumanSeat,
    Snapshot,
    StoreError,
    TableRow,
    ratings,
)
from bot.tables import commit
from bot.tables.drivers import Drivers
from bot.tables.front import Front
from bot.tables.kinds import TableKind
from bot.tables.services import Services
from bot.tables.table import MOVES_KEPT, SET_ASIDE_MARK, Table
from engine import Event, Game, IllegalAction, RecordError, RulesError, decode_action

log = logging.getLogger(__name__)

__all__ = ["Resume", "restore"]

# The resumed tables' messages are brought up to date this many tables at a time, with
# this pause between (seconds): drawing them all at once held every click up behind them.
REDRAW_BATCH = 10
REDRAW_PAUSE = 0.02


class WholeLogNeeded(Exception):
    """A table was loaded with only the tail of its log, and its snapshot could not be
    used: its whole log is to be read and replayed."""


def restore(table: Table, actions: Sequence[ActionRow], snapshot: Snapshot) -> Game | None:
    """The game of ``table`` from its stored ``snapshot`` and the actions logged after
    it; None (replay the log instead) unless the snapshot is intact, is of this
    table's game and agrees with the log. ``actions``: the whole log, or its tail
    from at or before the snapshot's position (a start reads only that, see
    :meth:`~bot.store.ActionRepo.list_active`): the snapshot's own log must have
    ``seq`` entries and agree with every logged action they share."""
    logged = actions[-1].seq + 1 if actions else 0
    first = actions[0].seq if actions else 0
    if not snapshot.intact or not 0 < snapshot.seq <= logged or first > snapshot.seq:
        log.warning("table %s: its snapshot is damaged or ahead of its log; replayed", table.id)
        return None
    try:
        data = json.loads(snapshot.body)
        own: list[str] = data["log"]
        if len(own) != snapshot.seq or any(
            own[a.seq] != f"{a.seat} {a.action}" for a in actions if a.seq < snapshot.seq
        ):
            log.warning("table %s: its snapshot is not of its log; the log is replayed", table.id)
            return None
        game = Game.from_snapshot(data)
        if (game.rules, game.seed, game.first_dealer_choice, game.record_version) != (
            table.rules,
            table.seed,
            table.first_dealer,
            table.record_version,
        ):
            log.warning("table %s: its snapshot is of another game; the log is replayed", table.id)
            return None
        for a in actions:
            if a.seq >= snapshot.seq:
                game.apply(a.seat, decode_action(a.action))
    except Exception:  # a snapshot this version cannot read: the log is the truth
        log.warning(
            "table %s: its snapshot does not load; the log is replayed", table.id, exc_info=True
        )
        return None
    return game


class Resume:
    """Loads unfinished tables at start-up; the :class:`~bot.tables.sync.TableLife` a
    sync calls back into (a table taken over, moves made by another process)."""

    def __init__(self, svc: Services, front: Front, drivers: Drivers) -> None:
        self.svc = svc
        self.front = front
        self.drivers = drivers
        self.set_aside: dict[int, str] = {}  # tables this version could not load: why

    async def resume(self) -> int:
        """Bring back the unfinished tables this process runs (all of them, in one
        process: :meth:`resume_all`; with several, those the sync claims)."""
        return await self.svc.sync.start()

    async def resume_all(self) -> int:
        """Load every unfinished table and bring it back to life; returns how many."""
        svc = self.svc
        rows = await svc.table_repo.list_unfinished()
        # of a table with a snapshot, only the tail of its log: what is replayed after
        # the snapshot and the latest moves it remembers
        logs = await svc.action_repo.list_active(tail=MOVES_KEPT)
        snapshots = await svc.snapshot_repo.list_active()
        hand_msgs = await svc.hand_repo.list_active()
        deadlines = {d.table_id: d for d in await svc.deadline_repo.list()}
        await svc.server_settings.preload(row.guild_id for row in rows)
        await svc.user_locales.load(
            s.user_id for row in rows for s in row.seats if isinstance(s, HumanSeat)
        )
        back: list[Table] = []
        for row in rows:
            if await self.bring_back(
                row,
                logs.get(row.id, []),
                hand_msgs.get(row.id, []),
                deadlines.get(row.id),
                snapshots.get(row.id),
                redraw=False,
            ):
                back.append(self.svc.tables[row.id])
        log.info("resumed %d unfinished table(s)", len(back))
        # every table takes clicks now; their messages are brought up to date after,
        # a few at a time
        svc.own(self._redraw_all(back), name="redraw-resumed")
        svc.own(self.rate_old_games_quietly(), name="rate-old-games")
        return len(back)

    async def _redraw_all(self, tables: list[Table]) -> None:
        """Bring the messages of the tables just resumed up to date, a few tables at a
        time, pausing between (clicks meanwhile are answered at once)."""
        for done, table in enumerate(tables, 1):
            if self.svc.tables.get(table.id) is table and table.status in ("lobby", "active"):
                self.redraw(table)
            if done % REDRAW_BATCH == 0:
                await asyncio.sleep(REDRAW_PAUSE)

    def redraw(self, table: Table) -> None:
        """Bring a table just loaded to what it shows: its table message (reposted if it
        went while we were down), its hands, and no ping of a turn that passed."""
        self.front.redraw(table)

    async def bring_back(
        self,
        row: TableRow,
        actions: list[ActionRow],
        hand_msgs: list[HandMessage],
        deadline: Deadline | None,
        snapshot: Snapshot | None = None,
        *,
        redraw: bool = True,
    ) -> bool:
        """Load one unfinished table, re-arm its stored timer and bring its messages up
        to date (at start-up, and when another process's table is taken over); False
        if it was set aside. ``redraw=False``: the caller brings the messages up to
        date later (:meth:`redraw`)."""
        try:
            try:
                table = self._load(row, actions, snapshot)
            except WholeLogNeeded:
                actions = await self.svc.action_repo.list(row.id)
                table = self._load(row, actions)
        except (RulesError, RecordError, IllegalAction, ValueError) as exc:
            await self._set_aside(row, exc)
            return False
        await self.speak(table)
        self.svc.tables.add(table)
        if table.status == "active" and table.game is not None:
            for hm in hand_msgs:
                table.hand_messages[hm.seat] = (hm.channel_id, hm.message_id)
        if redraw:
            self.redraw(table)
        if table.status == "lobby":
            self.drivers.arm_lobby_timer(
                table, deadline.due_at if deadline and deadline.kind == "lobby" else None
            )
        elif table.game is not None:
            last = actions[-1].created_at if actions else 0.0
            due = self.drivers.resumed_due(table, deadline, last)
            if table.kind is TableKind.EVENT and table.message_id is None:
                # an event's board dealt and never shown when the bot stopped: nobody
                # has seen their hand, so the turn waiting gets its whole time, not what
                # was left of a clock stored before the stop (it would run out unseen);
                # the director shows the board and starts the clock again then
                # (Director.resume at start-up; taken over from another process: the
                # director's Services.taken_over hook)
                due = None
            self.drivers.kick(table, due=due)
        return True

    async def taken_over(self, table: Table) -> None:
        """A table this process just took over from another (several processes): each
        feature's :attr:`~bot.tables.services.Services.taken_over`, in turn; one that
        fails is logged and the others still run."""
        for hook in tuple(self.svc.taken_over):
            try:
                await hook(table)
            except Exception:
                log.exception("table %s: a feature's takeover failed", table.id)

    async def speak(self, table: Table) -> None:
        """Set the languages of a table loaded from the database: its server's for the
        table, and its players' stored ones for their DMs (a DM carries no locale)."""
        table.language = await self.svc.server_settings.language(table.guild_id)
        await self.svc.user_locales.load(s.user_id for s in table.seats if isinstance(s, HumanSeat))

    def load_table(
        self, row: TableRow, actions: list[ActionRow], snapshot: Snapshot | None = None
    ) -> Table:
        """The in-memory table of ``row`` (bot/cluster/sync.py: a copy of another process's table)."""
        return self._load(row, actions, snapshot)

    def load_game(
        self, row: TableRow, actions: list[ActionRow], snapshot: Snapshot | None = None
    ) -> Game | None:
        """Just the game of ``row``, replayed from ``actions``."""
        return self._load(row, actions, snapshot).game

    async def rate_old_games_quietly(self) -> None:
        await self.rate_old_games()

    # ================================================================ for a sync

    def publish(self, table: Table, events: list[Event]) -> None:
        """Moves another process made: through the same feed as this process's own."""
        self.svc.feed.publish(table, events)

    def changed(self, table: Table) -> None:
        """Seats or settings (who is away) changed in another process."""
        self.front.changed(table)
        self.svc.feed.changed(table)
        if table.game is not None:
            self.drivers.kick(table)  # the AI plays for a seat now away, or stops

    def follow_copies(self, table: Table) -> None:
        """Moves another process made at a table this one does not run: only the "My
        hand" copies this process showed are edited (the owner shows everything else)."""
        self.front.follow_copies(table)

    def rearm(self, table: Table) -> None:
        """Start the AI or the turn timer a waiting turn needs, if it is not running."""
        self.drivers.rearm(table)

    def arm(self, table: Table, deadline: Deadline | None, last_action_at: float = 0.0) -> None:
        """Arm a table just taken over from its stored lobby or turn deadline."""
        if table.status == "lobby":
            self.drivers.arm_lobby_timer(
                table,
                deadline.due_at if deadline is not None and deadline.kind == "lobby" else None,
            )
        elif table.status == "active" and table.game is not None:
            due = (
                self.drivers.resumed_due(table, deadline, last_action_at)
                if deadline is not None
                else None
            )
            self.drivers.kick(table, due=due)

    async def rate_old_games(self) -> int:
        """Rebuild the ratings if some finished table has none; returns how many got one."""
        try:
            if not await self.svc.rating_repo.unrated_tables():
                return 0
            report = await ratings.rebuild(self.svc.db)
        except StoreError:
            log.exception("could not rate the games finished before ratings")
            return 0
        log.info(
            "rated %d finished game(s) that had no rating; %d rating(s) changed",
            len(report.added),
            len(report.changed),
        )
        return len(report.added)

    @staticmethod
    def _load(row: TableRow, actions: list[ActionRow], snapshot: Snapshot | None = None) -> Table:
        """The in-memory table of ``row``, its game restored from ``snapshot`` and the
        rest of ``actions``, or replayed from ``actions`` alone."""
        table = Table.from_row(row)
        if table.status == "active":
            game = None if snapshot is None else restore(table, actions, snapshot)
            if snapshot is not None and game is None and (not actions or actions[0].seq > 0):
                raise WholeLogNeeded(row.id)  # only a tail was read: the whole log replays
            table.game = game if game is not None else Game.from_record(row.record(actions))
            # the last moves, as if this process had just made them: the second half
            # of a double click is told "Already played" after a restart, or in a
            # process that loads the table for it
            for move in actions[-(table.moves.maxlen or 0) :]:
                table.moves.append((move.seq, move.seat, move.actor_id))
        return table

    async def _set_aside(self, row: TableRow, exc: Exception) -> None:
        """A table this version cannot load: keep it in the database unchanged (it loads
        again on a later start, once a version that replays its log runs), log it for
        the admin, and tell its channel once per code version."""
        self.set_aside[row.id] = f"{type(exc).__name__}: {exc}"
        log.warning(
            "table %s (channel %s) set aside: this version cannot load it (%s: %s); it is kept "
            "unchanged in the database and loads again on a start whose version replays it",
            row.id,
            row.channel_id,
            type(exc).__name__,
            exc,
        )
        if await commit.mark_set_aside(self.svc, row, SET_ASIDE_MARK):
            self.svc.own(self.front.set_aside(row))
