"""Durable changes of a table: the one writer of table rows and of a table's
durable fields (its seats, status, settings, version, message, deadlines and
hand messages). Everything else asks for a change by name here.

Each function is called under the table's lock (except where a table is being
made), touches the engine and the database only (never Discord), and changes the
in-memory table only after the database write succeeded — so a failed write
leaves both exactly as they were. :func:`commit`, the moves of a game, then
publishes the events through the feed (``bot.tables.feed``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence, Set
from dataclasses import replace

from bot.competition.ratings import Team
from bot.store import (
    Deadline,
    LeaseNotHeld,
    NewAction,
    PlayerResult,
    Seat,
    Snapshot,
    StoreError,
    TableRow,
    VersionConflict,
    ratings,
)
from bot.tables.kinds import TableSpec, rules_of
from bot.tables.services import Services
from bot.tables.table import Notice, Table, TableSettings
from engine import Action, Event, Game, board_result, make_rules, new_game

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 8  # a game's snapshot is written every this many actions of its log

__all__ = [
    "adopt_row",
    "change_seats",
    "commit",
    "keep_hand_message",
    "keep_notices",
    "keep_thread",
    "mark_cancelled",
    "mark_set_aside",
    "open_table",
    "reclaim",
    "rematch_spec",
    "results",
    "set_deadline",
    "set_message",
    "stand_in",
    "start",
    "turn_timeout",
]


def turn_timeout(svc: Services, table: Table) -> float:
    """Seconds a human has for a turn at ``table`` (0: no timer)."""
    stored = table.settings.turn_timeout
    return float(svc.settings.turn_timeout if stored is None else stored)


async def commit(
    svc: Services,
    table: Table,
    seat: int,
    actions: Sequence[Action],
    actor_id: int | None,
    *,
    timed_out: bool = False,
) -> list[Event]:
    """Check ``actions`` on a copy of the game, write them durably, adopt the copy,
    then publish the events (:attr:`Services.feed`: the table message, the hands,
    the next turn) — no caller fans out by itself.

    Raises :class:`~engine.IllegalAction` (nothing written) or a store error
    (nothing changed). ``actor_id`` is the user who clicked, ``None`` for the AI.
    ``timed_out``: the AI plays a human's turn whose time ran out — it counts as a
    missed turn, and enough in a row hand the seat to the AI (``afk_takeover_after``);
    a human's own move starts their count again. Both are written with the move.
    """
    game = table.game
    assert game is not None
    trial = game.clone()
    events: list[Event] = []
    for action in actions:
        events.extend(trial.apply(seat, action))  # IllegalAction: nothing written
    entries = [NewAction(seat, a.encode(), actor_id) for a in actions]
    kind = table.kind_rules  # rated or not, and what its end writes
    teams = _rating_teams(table, trial) if trial.is_over and kind.rated else []
    timeout = turn_timeout(svc, table)
    following = None if trial.is_over else trial.to_act()
    away, misses = set(table.away), dict(table.misses)
    afk_changed = timed_out or (actor_id is not None and bool(misses.get(seat)))
    if timed_out:
        misses[seat] = misses.get(seat, 0) + 1
        if misses[seat] >= svc.settings.afk_takeover_after:
            away.add(seat)
    elif afk_changed:
        misses[seat] = 0  # the player is back: consecutive misses start over
    # most moves change neither: no new settings value is built for them
    afk = _afk_settings(table, away, misses) if afk_changed and not trial.is_over else None
    snapshot = _snapshot_due(table, game, trial)
    due: float | None = None
    deadline: Deadline | None = None
    if (
        timeout > 0
        and following is not None
        and table.human(following) is not None
        and following not in away
    ):
        # the turn this move hands to a human starts its timer in the same write: one
        # write to disk, not two, and never a move without it
        due = svc.db.clock() + timeout
        deadline = Deadline(table.id, "turn", following, due)
    lease = svc.sync.fence(table, actor_id)  # several processes: the AI's and timers' lease
    if trial.is_over or afk is not None:
        async with svc.db.transaction():
            version = await _append(svc, table, entries, snapshot, deadline, lease)
            if trial.is_over:
                version = await svc.table_repo.set_status(table.id, "finished", version)
                if kind.board_result:  # a board played alone: its own result
                    await svc.daily_repo.finish(table.id, _board_result(table, trial))
                elif kind.game_result:
                    await svc.result_repo.record_game(
                        table.id, table.guild_id, results(table, trial)
                    )
                end = svc.ends.get(table.kind)
                if end is not None:  # the kind's own end (an event's round result)
                    await end(table, trial)
                await svc.deadline_repo.clear(table.id)
                await svc.snapshot_repo.delete(table.id)
                if teams:  # the rating lands with the result or not at all
                    await ratings.record(
                        svc.rating_repo,
                        table_id=table.id,
                        guild_id=table.guild_id,
                        game_id=table.game_id,
                        teams=teams,
                    )
            elif afk is not None:
                version = await svc.table_repo.update_settings(table.id, afk.to_json(), version)
    else:
        # most moves: the move, its snapshot (if due) and the next turn's deadline in
        # one atomic write (one statement on PostgreSQL)
        version = await _append(svc, table, entries, snapshot, deadline, lease)
    if due is not None and following is not None:
        table.drive.turn_due = (trial.version, following, due)
    table.db_version = version
    table.game = trial
    table.moves.append((game.version, seat, actor_id))
    if afk is not None:
        table.settings = afk
    if trial.is_over:
        table.status = "finished"
    svc.feed.publish(table, events)
    return events


async def _append(
    svc: Services,
    table: Table,
    entries: list[NewAction],
    snapshot: Snapshot | None,
    deadline: Deadline | None,
    lease: str | None,
) -> int:
    """Append the move (with what goes with it); a lost race or lease as the sync says."""
    try:
        return await svc.action_repo.append(
            table.id,
            table.db_version,
            entries,
            snapshot=snapshot,
            deadline=deadline,
            lease_owner=lease,
        )
    except VersionConflict as exc:
        raise svc.sync.conflict(table, exc) from exc  # another process moved first
    except LeaseNotHeld as exc:
        raise svc.sync.lease_lost(table, exc) from exc  # another process runs its AI now


def _snapshot_due(table: Table, game: Game, trial: Game) -> Snapshot | None:
    """The snapshot this move writes: one every :data:`SNAPSHOT_EVERY` actions of the
    log, so a load replays at most that many (the log stays the truth)."""
    if trial.is_over or trial.version // SNAPSHOT_EVERY == game.version // SNAPSHOT_EVERY:
        return None
    body = json.dumps(trial.snapshot(), separators=(",", ":"))
    return Snapshot.of(table.id, trial.version, body)


def _afk_settings(table: Table, away: Set[int], misses: Mapping[int, int]) -> TableSettings | None:
    """The table's settings with who is away and their missed turns; None if unchanged."""
    settings = replace(
        table.settings, away=frozenset(away), misses={k: v for k, v in misses.items() if v}
    )
    return None if settings == table.settings else settings


def _rating_teams(table: Table, game: Game) -> list[Team]:
    """The finished game's rating teams; none (the game finishes unrated, and the next
    ``python -m bot.store.ratings rebuild`` rates it from its move log) if working them
    out fails — a rating must never keep a game from finishing."""
    try:
        return ratings.teams_from_game(table.seats, game)
    except Exception:
        log.exception("table %s: could not work out the rating teams; left unrated", table.id)
        return []


def _board_result(table: Table, game: Game) -> int:
    """The result of a finished board for its one player's seat (``engine.board_result``)."""
    seat = next(s for s in range(len(table.seats)) if table.human(s) is not None)
    return board_result(game, seat)


def results(table: Table, game: Game) -> list[PlayerResult]:
    """One result row per human seat of a finished game.

    ``side`` is the seat's *scoring* side (``Rules.side_of``: its partnership, or
    the seat itself where each plays alone, as in Solo Whist, whose sides of play
    change every deal); ``points`` that side's final score, ``opp_points`` the
    best other score.
    """
    winner = game.match_winner
    rules = game.rules
    rows = []
    for seat in range(len(table.seats)):
        human = table.human(seat)
        if human is None:
            continue
        side = rules.side_of(seat)
        rows.append(
            PlayerResult(
                user_id=human.user_id,
                name=human.name,
                side=side,
                won=side == winner,
                points=game.scores[side],
                opp_points=max((p for s, p in enumerate(game.scores) if s != side), default=0),
            )
        )
    return rows


async def mark_cancelled(svc: Services, table: Table) -> bool:
    """Durably cancel ``table`` (status and deadline in one transaction), stop its
    tasks and let it leave memory. False when the write failed (nothing changed)."""
    try:
        async with svc.db.transaction():
            version = await svc.table_repo.set_status(table.id, "cancelled")
            await svc.deadline_repo.clear(table.id)
    except StoreError:
        log.exception("table %s: could not cancel", table.id)
        return False
    table.db_version = version
    table.status = "cancelled"
    table.stop_tasks()
    svc.tables.retire(table)
    svc.feed.changed(table)
    return True


async def reclaim(svc: Services, table: Table, seat: int) -> bool:
    """``seat``'s player takes their seat back from the AI: no longer away, no missed
    turns. False if it was not away (nothing written); a store error changes nothing."""
    settings = _afk_settings(table, table.away - {seat}, {**table.misses, seat: 0})
    if seat not in table.away or settings is None:
        return False
    table.db_version = await svc.table_repo.update_settings(table.id, settings.to_json())
    table.settings = settings
    svc.feed.changed(table)
    return True


async def stand_in(svc: Services, table: Table, seat: int) -> bool:
    """The AI plays ``seat`` from its next turn on, its player gone (an event's leaver),
    as after missed turns: marked away, **Take my seat back** offered. False if it was
    away already (nothing written); a store error changes nothing."""
    settings = _afk_settings(table, table.away | {seat}, table.misses)
    if seat in table.away or settings is None:
        return False
    table.db_version = await svc.table_repo.update_settings(table.id, settings.to_json())
    table.settings = settings
    svc.feed.changed(table)
    return True


async def open_table(svc: Services, spec: TableSpec) -> Table:
    """Open a table of any kind — the one way a table comes to be.

    A kind that opens as a lobby (``ordinary``, ``hints``) is made with ``spec``'s
    seats and waits for players, unless ``spec.start`` (a rematch); any other (a
    board, an event's table) starts at once with them. The table row, its start and
    ``spec.then(table id)`` (the rows that belong with it) are one transaction:
    nothing is half made. What the kind says is set here too: no timer and no
    thread for a kind without them. Raises :class:`~bot.store.ChannelBusy` if the
    channel has an open table, or whatever ``then`` raises (nothing is written)."""
    rules = spec.rules
    kind = rules_of(spec.kind, rated=spec.rated)  # ValueError: a kind no one may rate
    timeout = spec.turn_timeout
    if not kind.timers:
        timeout = 0.0
    elif timeout is None:
        timeout = svc.settings.turn_timeout
    settings = replace(
        TableSettings.from_json(spec.keep),
        turn_timeout=timeout,
        guild_name=spec.guild_name,
        channel_name=spec.channel_name,
        kind=spec.kind,
        board=spec.board,
        event=spec.event,
        rated=spec.rated,
        away=spec.away,  # AFK state belongs to a game, never carried over
        misses={},
    )
    if not kind.thread:
        settings = replace(settings, thread_id=0)
    starts = spec.start or not kind.lobby
    async with svc.db.transaction():
        row = await svc.table_repo.create_lobby(
            guild_id=spec.guild_id,
            channel_id=spec.channel_id,
            creator_id=spec.creator_id,
            game_id=rules.game_id,
            preset=rules.preset,
            seed=svc.new_seed() if spec.seed is None else spec.seed,
            first_dealer=spec.first_dealer,
            seats=list(spec.seats),
            overrides=dict(rules.overrides),
            settings=settings.to_json(),
        )
        version = row.version
        if starts:
            version = await svc.table_repo.set_status(row.id, "active", version)
        await spec.then(row.id)
    table = Table.from_row(row)
    if starts:
        table.game, _deal = new_game(
            rules=table.rules,
            seed=table.seed,
            first_dealer=table.first_dealer,
            record_version=table.record_version,
        )
        table.db_version = version
        table.status = "active"
    return table


def rematch_spec(row: TableRow, creator_id: int) -> TableSpec:
    """A new game of finished ``row``'s players in its channel, of its kind and with
    its settings (its timeout, its names), started at once (``open_table``)."""
    settings = TableSettings.from_json(row.settings)
    return TableSpec(
        kind=settings.kind,
        rules=make_rules(row.game_id, row.preset, row.overrides),
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        creator_id=creator_id,
        seats=list(row.seats),
        guild_name=settings.guild_name,
        channel_name=settings.channel_name,
        board=settings.board,
        turn_timeout=settings.turn_timeout,
        keep=row.settings,
        start=True,
    )


async def change_seats(svc: Services, table: Table, seats: Sequence[Seat | None]) -> None:
    """Seat the lobby anew (join, leave, an AI added). Raises
    :class:`~bot.store.VersionConflict` if the table changed meanwhile."""
    table.db_version = await svc.table_repo.update_seats(table.id, seats, table.db_version)
    table.seats = list(seats)
    svc.feed.changed(table)


async def start(svc: Services, table: Table, seats: Sequence[Seat | None]) -> None:
    """Start the lobby's game with ``seats`` (its empty seats filled by AI): seats,
    status and the lobby's deadline in one transaction."""
    game, _deal = new_game(
        rules=table.rules,
        seed=table.seed,
        first_dealer=table.first_dealer,
        record_version=table.record_version,
    )
    version = table.db_version
    async with svc.db.transaction():
        if list(seats) != table.seats:
            version = await svc.table_repo.update_seats(table.id, seats, version)
        version = await svc.table_repo.set_status(table.id, "active", version)
        await svc.deadline_repo.clear(table.id)
    table.db_version = version
    table.seats = list(seats)
    table.status = "active"
    table.game = game
    table.drive.cancel_timer()
    svc.feed.changed(table)


async def set_message(svc: Services, table: Table, message_id: int) -> None:
    """Keep the id of the table's public message (the row's version does not change)."""
    await svc.table_repo.set_message(table.id, message_id)
    table.message_id = message_id


async def move_table(svc: Services, table: Table, channel_id: int) -> None:
    """The table plays in ``channel_id`` from now on (an event's board dealt before its
    thread was made, moved there before it is shown; the row's version does not
    change)."""
    await svc.table_repo.set_channel(table.id, channel_id)
    table.channel_id = channel_id


async def keep_thread(svc: Services, table: Table, thread_id: int) -> None:
    """Keep the table's thread (0: none, the channel is used); best effort — it is used
    from now on, stored or not."""
    settings = replace(table.settings, thread_id=thread_id)
    try:
        table.db_version = await svc.table_repo.update_settings(table.id, settings.to_json())
    except StoreError:
        log.warning("table %s: could not store its thread", table.id, exc_info=True)
    table.settings = settings


async def keep_notices(svc: Services, table: Table, notices: Sequence[Notice]) -> None:
    """Keep the turn's live ``notices`` with the table, so a restart can still delete
    them once their turn passes; best effort."""
    if table.status not in ("active", "finished") or table.settings.notices == tuple(notices):
        return
    settings = replace(table.settings, notices=tuple(notices))
    try:
        table.db_version = await svc.table_repo.update_settings(table.id, settings.to_json())
    except StoreError:
        log.info("table %s: could not store its turn notices", table.id, exc_info=True)
        return
    table.settings = settings


async def set_deadline(
    svc: Services, table: Table, kind: str, due: float, seat: int | None = None
) -> None:
    """Keep the table's lobby or turn deadline, so a restart re-arms its timer."""
    await svc.deadline_repo.set(table.id, kind, due, seat)


async def keep_hand_message(
    svc: Services, table: Table, seat: int, channel_id: int, message_id: int
) -> None:
    """Keep the id of ``seat``'s hand DM, so it is edited (not sent anew) after a restart."""
    await svc.hand_repo.set(table.id, seat, channel_id, message_id)


async def mark_set_aside(svc: Services, row: TableRow, mark: str) -> bool:
    """Note on a table this version could not load that its channel was told (once per
    ``mark``). False if it was noted already or the write failed (nothing changed)."""
    settings = TableSettings.from_json(row.settings)
    if settings.set_aside_notice == mark:
        return False
    try:
        await svc.table_repo.update_settings(
            row.id, replace(settings, set_aside_notice=mark).to_json()
        )
    except StoreError:
        log.warning("table %s: could not record the set-aside notice", row.id, exc_info=True)
        return False
    return True


def adopt_row(table: Table, row: TableRow, game: Game | None, deadline: Deadline | None) -> None:
    """Bring a copy of a table up to ``row`` (written by another process) and the game
    replayed to it (several processes, ``bot.cluster``)."""
    table.game = game
    table.seats = list(row.seats)
    table.settings = TableSettings.from_json(row.settings)
    table.first_dealer = row.first_dealer
    table.message_id = row.message_id
    table.status = row.status
    table.db_version = row.version
    seat = game.to_act() if game is not None else None
    if (
        game is not None
        and seat is not None
        and deadline is not None
        and deadline.kind == "turn"
        and deadline.seat == seat
    ):
        table.drive.turn_due = (game.version, seat, deadline.due_at)
