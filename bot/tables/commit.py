"""Durable changes of a table: every write of game state goes through here.

Each function is called under the table's lock, touches the engine and the
database only (never Discord), and changes the in-memory table only after the
database write succeeded — so a failed write leaves both exactly as they were.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence

from bot.store import NewAction, PlayerResult, StoreError, VersionConflict, ratings
from bot.tables.services import Services
from bot.tables.table import Table
from engine import Action, Event, Game

log = logging.getLogger(__name__)

__all__ = ["commit", "mark_cancelled", "results", "save_afk", "turn_timeout"]


def turn_timeout(svc: Services, table: Table) -> float:
    """Seconds a human has for a turn at ``table`` (0: no timer)."""
    return float(table.settings.get("turn_timeout", svc.settings.turn_timeout) or 0)


async def commit(
    svc: Services, table: Table, seat: int, actions: Sequence[Action], actor_id: int | None
) -> list[Event]:
    """Check ``actions`` on a copy of the game, write them durably, then adopt the copy.

    Raises :class:`~engine.IllegalAction` (nothing written) or a store error
    (nothing changed). ``actor_id`` is the user who clicked, ``None`` for the AI.
    """
    game = table.game
    assert game is not None
    trial = game.clone()
    events: list[Event] = []
    for action in actions:
        events.extend(trial.apply(seat, action))  # IllegalAction: nothing written
    entries = [NewAction(seat, a.encode(), actor_id) for a in actions]
    teams = _rating_teams(table, trial) if trial.is_over else []
    timeout = turn_timeout(svc, table)
    following = None if trial.is_over else trial.to_act()
    due: float | None = None
    async with svc.db.transaction():
        if svc.cluster is not None:  # several processes: an AI or timer move needs the lease
            await svc.cluster.check(table, actor_id)
        try:
            version = await svc.action_repo.append(table.id, table.db_version, entries)
        except VersionConflict as exc:
            if svc.cluster is None:
                raise
            raise svc.cluster.behind(table, exc.actual) from exc  # another process moved first
        if trial.is_over:
            version = await svc.table_repo.set_status(table.id, "finished", version)
            await svc.result_repo.record_game(table.id, table.guild_id, results(table, trial))
            await svc.deadline_repo.clear(table.id)
            if teams:  # the rating lands with the result or not at all
                await ratings.record(
                    svc.rating_repo,
                    table_id=table.id,
                    guild_id=table.guild_id,
                    game_id=table.game_id,
                    teams=teams,
                )
        elif timeout > 0 and following is not None and not table.ai_plays(following):
            # the turn this move hands to a human starts its timer in the same
            # transaction: one write to disk, not two, and never a move without it
            due = svc.db.clock() + timeout
            await svc.deadline_repo.set(table.id, "turn", due, following)
    if due is not None and following is not None:
        table.turn_due = (trial.version, following, due)
    table.db_version = version
    table.game = trial
    table.moves.append((game.version, seat, actor_id))
    if trial.is_over:
        table.status = "finished"
    return events


def _rating_teams(table: Table, game: Game) -> list[ratings.Team]:
    """The finished game's rating teams; none (the game finishes unrated, and the next
    ``python -m bot.store.ratings rebuild`` rates it from its move log) if working them
    out fails — a rating must never keep a game from finishing."""
    try:
        return ratings.teams_from_game(table.seats, game)
    except Exception:
        log.exception("table %s: could not work out the rating teams; left unrated", table.id)
        return []


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
    except (StoreError, sqlite3.Error):
        log.exception("table %s: could not cancel", table.id)
        return False
    table.db_version = version
    table.status = "cancelled"
    table.stop_tasks()
    svc.tables.retire(table)
    return True


async def save_afk(svc: Services, table: Table) -> None:
    """Persist who is away and their missed turns.

    Best effort: the game never depends on it (after a failed write, a restart
    only forgets a miss or a takeover).
    """
    settings = dict(table.settings)
    settings["away"] = sorted(table.away)
    settings["misses"] = {str(k): v for k, v in sorted(table.misses.items()) if v}
    if settings == table.settings:
        return
    try:
        table.db_version = await svc.table_repo.update_settings(table.id, settings)
    except (StoreError, sqlite3.Error):
        log.warning("table %s: could not save AFK state", table.id, exc_info=True)
        return
    table.settings = settings
