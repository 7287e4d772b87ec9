"""Ratings: a skill estimate per player, per server and per game id (openskill).

**The model.** :class:`openskill.models.PlackettLuce`, which rates teams: each
finished table is one *rating event* in which teams of players finish in ranks.
A player's rating is a mean ``mu`` (25 to start) and an uncertainty ``sigma``
(25/3 to start); what is shown and ranked is the conservative value
``mu - 3 sigma`` (openskill's ``ordinal()``, 0 to start), with ``mu`` and
``sigma`` themselves in ``/ruff stats``. ``limit_sigma`` is on: a game never
makes a rating *less* certain, so a win never lowers the shown value. (A loss
can still raise the shown value of a newcomer a little, when the loss was
expected and the game shrank his uncertainty more than his mean: the mean, the
skill estimate proper, never rises after a loss.)

**One event per finished table.** Where a table plays several deals, games or
a match, the rating event is its final result (who won the match), not each
deal. The teams:

* **Partnerships** (2 against 2, fixed for the game): the two partnerships.
* **Each for himself** (Solo Whist, Ruffe and Trump single-hand, 2 and 3
  players, Turnover Bridge): one team per player — except where the sides of
  play of the last deal (one against three in a Solo Whist contract, or a
  proposer and acceptor against two) decided the whole result, i.e. every
  member of each side of play finished level with his partners: then those
  sides are the teams (one against three rates as a team of one against a
  team of three), ranked by their best member.
* **Ranks.** The game's winner (``Game.match_winner``, after the game's own
  tie-breaks) is first, alone; the others follow by games won, then by final
  score; players level on both share a rank (a tie, which openskill rates as
  such). A team *wins* when it is first: that is a player's win for win %.
* **AI seats** are rated too, one rating per AI level (``ai:easy``,
  ``ai:normal``, ``ai:hard``, shown as "AI hard") in each server and game, so
  people can measure themselves against "hard". An empty seat at the start
  was played by normal. An AI level sitting more than once at a table (two
  hard AIs as partners, or on both sides) is rated seat by seat from the same
  starting rating; its new ``mu`` is the old one plus the sum of its seats'
  changes (so a level playing against itself learns nothing from it), its
  ``sigma`` the smallest of its seats' new values; the table counts as one
  game, and as a win only when none of its seats lost. A person whose seat was
  played by the AI while away is rated as the seat's player.

**Storage.** ``rating_events`` keeps each finished table's teams (player keys,
names, seats) and ranks, so ratings can be rebuilt from the database alone;
``ratings`` the current values; ``rating_history`` each table's before/after per
player. :func:`record` writes all three in the transaction that finishes the
table (``bot.tables.commit``): a rating is never half-applied, and a game whose result
is written is rated. Should working out the teams fail (a bug, never a
database error), the game still finishes unrated and the next rebuild rates it
by replaying its move log.

**The maths** (the model, the teams' JSON, what one event does to its players) is
``bot.competition.ratings``, pure; this module turns games into rating events and
stores what the maths computes.

**Rebuild.** ``python -m bot.store.ratings rebuild [--database RH_DATABASE] [--dry-run]``
replays every stored rating event in the order the games finished, from the
starting rating, and replaces the ratings and the history with the result (one
transaction), printing what changed. Incremental and rebuilt values are the
same, to the last bit (the same arithmetic in the same order). Finished tables
without an event (games finished before ratings existed, or a failed rating)
get one first: from replaying their move log in the engine (source
``replay``, exactly as if rated when they finished), or where the log no
longer replays, from their ``results`` rows (source ``results``: people only,
with their sides and who won; the AI seats from the table's seats where the
game's rules still give their sides, a side of AI seats alone winning when no
person's side won; the others ranked by points).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.competition.ratings import (
    MODEL,
    Entrant,
    Skill,
    Team,
    ai_key,
    ranked,
    rate_teams,
    teams_from_json,
    teams_to_json,
)
from bot.store import (
    ActionRepo,
    AISeat,
    Database,
    HumanSeat,
    RatingChange,
    RatingEventRow,
    RatingRepo,
    RatingRow,
    ResultRepo,
    ResultRow,
    Seat,
    StoreError,
    TableRepo,
    TableRow,
)
from engine import Game, make_rules, replay

log = logging.getLogger(__name__)

__all__ = [
    "Outcome",
    "RebuildReport",
    "entrant_of",
    "rate",
    "rebuild",
    "record",
    "teams_from_game",
    "teams_from_results",
]

EMPTY_SEAT_LEVEL: Final = "normal"
"""The AI level that plays a seat left empty when the game started."""


def entrant_of(seat_no: int, seat: Seat | None) -> Entrant:
    """The rated player of one seat: the person, or the AI level (named "AI hard")."""
    if isinstance(seat, HumanSeat):
        return Entrant(str(seat.user_id), seat.name, seat_no)
    level = seat.ai if isinstance(seat, AISeat) else EMPTY_SEAT_LEVEL
    return Entrant(ai_key(level), f"AI {level}", seat_no)


def teams_from_game(seats: Sequence[Seat | None], game: Game) -> list[Team]:
    """The teams and ranks of a finished game (see the module docstring)."""
    if not game.is_over or game.match_winner is None:
        raise ValueError("the game is not over")
    rules = game.rules
    n = len(seats)
    entrants = [entrant_of(i, seats[i]) for i in range(n)]
    winner = game.match_winner

    def side_key(side: int) -> tuple[Any, ...]:
        return (side == winner, game.games_won[side], game.scores[side])

    def seat_key(seat: int) -> tuple[Any, ...]:
        return side_key(rules.side_of(seat))

    groups: list[tuple[tuple[Any, ...], tuple[Entrant, ...]]] = []
    played = [sorted(group) for group in game.seating.sides]
    if (
        not rules.partnerships
        and any(len(group) > 1 for group in played)
        and all(len({game.scores[rules.side_of(s)] for s in group}) == 1 for group in played)
    ):
        # each scores for himself, but the sides of play decided it (a contract)
        for group in played:
            best = max(seat_key(s) for s in group)
            groups.append((best, tuple(entrants[s] for s in group)))
    else:
        members: dict[int, list[int]] = {}
        for seat in range(n):
            members.setdefault(rules.side_of(seat), []).append(seat)
        for side, side_seats in sorted(members.items()):
            groups.append((side_key(side), tuple(entrants[s] for s in side_seats)))
    return ranked(groups)


def teams_from_results(row: TableRow, results: Sequence[ResultRow]) -> list[Team]:
    """The teams of an old finished game from its ``results`` rows (the fallback of
    the rebuild when its move log does not replay).

    People come from the rows (their side, whether it won, its points); AI seats
    from the table's seats, placed by the sides the game's rules give them, when
    those rules can still be made (else the people alone are rated). A side of
    AI seats alone won if no person's side did, and scored the best opposing
    score the rows name (several such sides tie). Winning sides first, the
    others by their points. Empty when fewer than two sides are known (nothing
    to rate).
    """
    side_of: dict[int, int] = {}
    try:
        rules = make_rules(row.game_id, row.preset, row.overrides)
        side_of = {seat: rules.side_of(seat) for seat in range(len(row.seats))}
    except Exception:
        log.debug("table %s: rules no longer made; people only", row.id, exc_info=True)
    standing: dict[int, tuple[Any, ...]] = {r.side: (r.won, r.points) for r in results}
    # a side of AI seats only: it won if no person's side did, with the best
    # opposing score the people's rows name (several such sides tie)
    unknown = (not any(r.won for r in results), max((r.opp_points for r in results), default=0))
    for side in set(side_of.values()) - set(standing):
        standing[side] = unknown
    members: dict[int, list[Entrant]] = {}
    by_user = {r.user_id: r for r in results}
    for seat_no, seat in enumerate(row.seats):
        if isinstance(seat, HumanSeat):
            found = by_user.get(seat.user_id)
            if found is not None:
                members.setdefault(found.side, []).append(
                    Entrant(str(seat.user_id), found.name, seat_no)
                )
        elif seat_no in side_of and side_of[seat_no] in standing:
            members.setdefault(side_of[seat_no], []).append(entrant_of(seat_no, seat))
    for r in results:  # a person no longer in the seat list
        if all(e.key != str(r.user_id) for team in members.values() for e in team):
            members.setdefault(r.side, []).append(Entrant(str(r.user_id), r.name, None))
    if len(members) < 2:
        return []
    return ranked([(standing[side], tuple(players)) for side, players in sorted(members.items())])


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one rating event does: the new ratings and the history rows."""

    ratings: list[RatingRow]
    changes: list[RatingChange]


def _fresh(guild_id: int, game_id: str, key: str, name: str, now: float) -> RatingRow:
    return RatingRow(guild_id, game_id, key, name, MODEL.mu, MODEL.sigma, 0, 0, now)


def rate(
    event: RatingEventRow, current: Mapping[str, RatingRow], now: float | None = None
) -> Outcome:
    """Rate one event from the players' ``current`` ratings (a missing one starts fresh).

    Pure: the same inputs give the same floats, which is what makes the rebuild
    equal the incremental values. ``now`` stamps ``updated_at`` (default: the
    event's ``finished_at``).
    """
    stamp = event.finished_at if now is None else now
    teams = teams_from_json(event.teams)
    if len(teams) < 2:
        return Outcome([], [])
    before: dict[str, RatingRow] = {}
    names: dict[str, str] = {}
    for team in teams:
        for e in team.players:
            names[e.key] = e.name
            if e.key not in before:
                found = current.get(e.key)
                before[e.key] = (
                    found
                    if found is not None
                    else _fresh(event.guild_id, event.game_id, e.key, e.name, stamp)
                )
    new = rate_teams(teams, {k: Skill(r.mu, r.sigma) for k, r in before.items()})
    ratings: list[RatingRow] = []
    changes: list[RatingChange] = []
    for key in sorted(before):
        old = before[key]
        after = new[key]
        ratings.append(
            RatingRow(
                guild_id=event.guild_id,
                game_id=event.game_id,
                player=key,
                name=names[key],
                mu=after.mu,
                sigma=after.sigma,
                games=old.games + 1,
                wins=old.wins + int(after.won),
                updated_at=stamp,
            )
        )
        changes.append(
            RatingChange(
                table_id=event.table_id,
                player=key,
                guild_id=event.guild_id,
                game_id=event.game_id,
                won=after.won,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=after.mu,
                sigma_after=after.sigma,
                finished_at=event.finished_at,
            )
        )
    return Outcome(ratings, changes)


async def record(
    repo: RatingRepo,
    *,
    table_id: int,
    guild_id: int,
    game_id: str,
    teams: Sequence[Team],
    source: str = "game",
) -> Outcome:
    """Rate a finished table and store its event, new ratings and history.

    Call it inside the transaction that records the game's result: the
    players' rows are locked first (so a concurrent table cannot rate from the
    same old values), then everything is written in that transaction.
    """
    if len(teams) < 2:
        return Outcome([], [])
    players = {e.key: e.name for t in teams for e in t.players}
    current = await repo.lock(guild_id, game_id, players, MODEL.mu, MODEL.sigma)
    # the event's time is taken once the rows are locked: rating order = finish order
    event = RatingEventRow(
        table_id, guild_id, game_id, teams_to_json(teams), source, repo.db.clock()
    )
    outcome = rate(event, {k: r for k, r in current.items() if r.games > 0})
    await repo.add_event(event)
    await repo.save(outcome.ratings)
    await repo.add_changes(outcome.changes)
    return outcome


# ---------------------------------------------------------------- the rebuild


@dataclass(frozen=True, slots=True)
class RebuildReport:
    """What a rebuild found and did."""

    events: int
    """Rating events rated (every finished table that could be rated)."""
    added: list[RatingEventRow]
    """Events made during this rebuild for tables that had none."""
    unratable: list[int]
    """Finished tables that could not be rated (no result to rate)."""
    before: dict[tuple[int, str, str], RatingRow]
    after: dict[tuple[int, str, str], RatingRow]
    written: bool

    @property
    def changed(self) -> list[tuple[RatingRow | None, RatingRow | None]]:
        """(old, new) for every rating that differs, appeared or went away."""
        out: list[tuple[RatingRow | None, RatingRow | None]] = []
        for key in sorted(self.before.keys() | self.after.keys()):
            old, new = self.before.get(key), self.after.get(key)
            if (
                old is None
                or new is None
                or (old.mu, old.sigma, old.games, old.wins)
                != (
                    new.mu,
                    new.sigma,
                    new.games,
                    new.wins,
                )
            ):
                out.append((old, new))
        return out


def replay_all(events: Sequence[RatingEventRow]) -> tuple[list[RatingRow], list[RatingChange]]:
    """Every rating and the whole history from ``events`` (in finish order) alone."""
    state: dict[tuple[int, str, str], RatingRow] = {}
    history: list[RatingChange] = []
    for event in events:
        keys = {e.key for t in teams_from_json(event.teams) for e in t.players}
        current = {
            k: state[(event.guild_id, event.game_id, k)]
            for k in keys
            if (event.guild_id, event.game_id, k) in state
        }
        outcome = rate(event, current)
        for r in outcome.ratings:
            state[(r.guild_id, r.game_id, r.player)] = r
        history.extend(outcome.changes)
    return [state[k] for k in sorted(state)], history


async def _event_for(db: Database, table_id: int) -> RatingEventRow | None:
    """A rating event for an old finished table: replayed, else from its results."""
    row = await TableRepo(db).require(table_id)
    results = await ResultRepo(db).for_table(table_id)
    finished_at = max((r.finished_at for r in results), default=row.updated_at)
    teams: list[Team] = []
    source = "replay"
    try:
        actions = await ActionRepo(db).list(table_id)
        game = replay(row.record(actions))
        teams = teams_from_game(row.seats, game)
    except Exception:
        log.info(
            "table %s: its log does not replay; rated from its results", table_id, exc_info=True
        )
        source = "results"
        teams = teams_from_results(row, results)
    if len(teams) < 2:
        return None
    return RatingEventRow(
        table_id, row.guild_id, row.game_id, teams_to_json(teams), source, finished_at
    )


async def rebuild(db: Database, *, dry_run: bool = False) -> RebuildReport:
    """Recompute every rating from the stored rating events (see the module docstring).

    Finished tables without an event get one first. Everything is written in
    one transaction; with ``dry_run`` the same work is done and rolled back.
    """
    repo = RatingRepo(db)
    added: list[RatingEventRow] = []
    unratable: list[int] = []
    for table_id in await repo.unrated_tables():  # replays happen outside the transaction
        event = await _event_for(db, table_id)
        if event is None:
            unratable.append(table_id)
        else:
            added.append(event)
    try:
        async with db.transaction():
            await repo.lock_all()
            before = {(r.guild_id, r.game_id, r.player): r for r in await repo.all()}
            known = {e.table_id for e in await repo.events()}
            for event in added:
                if event.table_id not in known:
                    await repo.add_event(event)
            events = await repo.events()
            ratings, history = replay_all(events)
            await repo.replace_all(ratings, history)
            report = RebuildReport(
                len(events),
                added,
                unratable,
                before,
                {(r.guild_id, r.game_id, r.player): r for r in ratings},
                not dry_run,
            )
            if dry_run:
                raise _DryRun(report)
    except _DryRun as done:
        return done.report
    return report


class _DryRun(Exception):
    """Rolls the dry run's transaction back, carrying its report out."""

    def __init__(self, report: RebuildReport) -> None:
        super().__init__("dry run")
        self.report = report


def _describe(row: RatingRow) -> str:
    return (
        f"{row.conservative:6.2f} (μ {row.mu:.2f}, σ {row.sigma:.2f}), "
        f"{row.games} game{'' if row.games == 1 else 's'}, {row.wins} win{'' if row.wins == 1 else 's'}"
    )


def report_lines(report: RebuildReport) -> list[str]:
    """The rebuild's report as text lines (what the command prints)."""
    lines = [
        f"{report.events} rated game{'' if report.events == 1 else 's'}"
        f" ({len(report.added)} rated for the first time),"
        f" {len(report.after)} rating{'' if len(report.after) == 1 else 's'}."
    ]
    for event in report.added:
        lines.append(
            f"  table #{event.table_id}: rated from its {'move log' if event.source == 'replay' else 'results'}"
        )
    for table_id in report.unratable:
        lines.append(f"  table #{table_id}: nothing to rate (fewer than two sides known)")
    changed = report.changed
    for old, new in changed:
        some = new or old
        assert some is not None
        where = f"server {some.guild_id} {some.game_id} {some.name} ({some.player})"
        if old is None:
            assert new is not None
            lines.append(f"  new      {where}: {_describe(new)}")
        elif new is None:
            lines.append(f"  removed  {where}: was {_describe(old)}")
        else:
            lines.append(f"  changed  {where}: {_describe(old)} -> {_describe(new)}")
    verb = "would change" if not report.written else "changed"
    lines.append(f"{len(changed)} rating{'' if len(changed) == 1 else 's'} {verb}.")
    return lines


async def _main(location: str, dry_run: bool) -> int:
    db = await Database.open(location)
    try:
        report = await rebuild(db, dry_run=dry_run)
    finally:
        await db.close()
    print("\n".join(line for line in report_lines(report) if line))
    if dry_run:
        print("(dry run: nothing written)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.store.ratings rebuild [--database ...] [--dry-run]``."""
    from bot.config import Settings

    parser = argparse.ArgumentParser(
        prog="python -m bot.store.ratings", description="Ratings maintenance."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    cmd = sub.add_parser(
        "rebuild",
        help="recompute every rating from the stored game results, in finish order",
    )
    cmd.add_argument(
        "--database",
        default=None,
        help="a SQLite path or postgresql:// URL (default: RH_DATABASE, else data/ruff.db)",
    )
    cmd.add_argument("--dry-run", action="store_true", help="show what would change, write nothing")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    location = args.database or Settings.from_env().database
    try:
        return asyncio.run(_main(location, args.dry_run))
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
