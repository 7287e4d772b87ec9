"""Ratings in the database, on SQLite and PostgreSQL: written with the game's result
or not at all, rebuilt from the stored results to the same values, ranked with a
minimum number of games; ``python -m bot.store.ratings rebuild``."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from bot.competition.ratings import MIN_GAMES, MODEL, teams_from_json
from bot.store import (
    ActionRepo,
    AISeat,
    Database,
    HumanSeat,
    NewAction,
    RatingRepo,
    RatingRow,
    ResultRepo,
    Seat,
    TableRepo,
    TableRow,
    TransactionRequired,
    ratings,
)
from bot.tables.commit import results
from bot.tables.table import Table
from engine import Game, make_rules
from engine.game import new_game

from .conftest import FakeClock

GUILD, OTHER_GUILD = 501, 502
REPO_ROOT = Path(__file__).resolve().parents[2]


def play(game_id: str, seed: int, overrides: Mapping[str, object] | None = None) -> Game:
    game, _ = new_game(rules=make_rules(game_id, None, overrides), seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act()
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


async def store_game(
    db: Database,
    game: Game,
    seats: list[Seat | None],
    *,
    channel_id: int,
    guild_id: int = GUILD,
    rate: bool = True,
) -> TableRow:
    """Store a played game as the bot does: the lobby, the move log, then the result
    (and, with ``rate``, its rating) in one transaction."""
    rules = game.rules
    tables = TableRepo(db)
    row = await tables.create_lobby(
        guild_id=guild_id,
        channel_id=channel_id,
        creator_id=1,
        game_id=rules.game_id,
        preset=rules.preset,
        seed=game.seed,
        seats=seats,
        overrides=dict(rules.overrides),
    )
    version = await tables.set_status(row.id, "active")
    entries = []
    for entry in game.to_record()["actions"]:
        seat, action = entry.split(" ", 1)
        entries.append(NewAction(int(seat), action))
    async with db.transaction():
        version = await ActionRepo(db).append(row.id, version, entries)
        await tables.set_status(row.id, "finished", version)
        table = Table.from_row(await tables.require(row.id))
        await ResultRepo(db).record_game(row.id, guild_id, results(table, game))
        if rate:
            await ratings.record(
                RatingRepo(db),
                table_id=row.id,
                guild_id=guild_id,
                game_id=rules.game_id,
                teams=ratings.teams_from_game(seats, game),
            )
    return await tables.require(row.id)


def seats_for(rng: random.Random, n: int) -> list[Seat | None]:
    pool: list[Seat | None] = [HumanSeat(uid, f"user{uid}") for uid in range(1, 7)]
    pool += [AISeat("hard", "Hal"), AISeat("easy", "Eve"), None]
    return rng.sample(pool, n)


GAMES: list[tuple[str, dict[str, object], int]] = [
    ("ruff-honours-cotton", {}, 4),
    ("solo-whist", {}, 4),
    ("ruff-trump-willughby", {"players": "3"}, 3),
    ("turnover-bridge", {}, 2),
    ("whist-5", {}, 4),
]


async def play_many(
    db: Database, clock: FakeClock, count: int, rate: bool = True
) -> list[TableRow]:
    rng = random.Random(2024)
    rows = []
    for i in range(count):
        game_id, overrides, n = GAMES[i % len(GAMES)]
        game = play(game_id, rng.randrange(1, 10_000), overrides)
        clock.tick(60)
        rows.append(await store_game(db, game, seats_for(rng, n), channel_id=100 + i, rate=rate))
    return rows


def snapshot(rows: list[RatingRow]) -> dict[tuple[int, str, str], tuple[object, ...]]:
    return {
        (r.guild_id, r.game_id, r.player): (r.name, r.mu, r.sigma, r.games, r.wins) for r in rows
    }


# ---------------------------------------------------------------- written with the result


async def test_a_rating_is_written_with_the_result_or_not_at_all(
    db: Database, clock: FakeClock
) -> None:
    game = play("ruff-honours-cotton", 5)  # side 1 wins
    seats: list[Seat | None] = [
        HumanSeat(1, "ann"),
        HumanSeat(2, "bob"),
        AISeat("hard", "Hal"),
        None,
    ]
    repo = RatingRepo(db)
    row = await TableRepo(db).create_lobby(
        guild_id=GUILD,
        channel_id=1,
        creator_id=1,
        game_id="ruff-honours-cotton",
        preset="cotton1674",
        seed=5,
        seats=seats,
    )
    teams = ratings.teams_from_game(seats, game)
    with pytest.raises(RuntimeError):
        async with db.transaction():
            await ratings.record(
                repo, table_id=row.id, guild_id=GUILD, game_id="ruff-honours-cotton", teams=teams
            )
            raise RuntimeError("the result's write failed")
    assert await repo.all() == [] and await repo.events() == [] and await repo.all_changes() == []
    with pytest.raises(TransactionRequired):
        await repo.lock(GUILD, "ruff-honours-cotton", {"1": "ann"}, MODEL.mu, MODEL.sigma)

    clock.tick(5)
    async with db.transaction():
        outcome = await ratings.record(
            repo, table_id=row.id, guild_id=GUILD, game_id="ruff-honours-cotton", teams=teams
        )
    stored = {r.player: r for r in await repo.all()}
    assert set(stored) == {"1", "2", "ai:hard", "ai:normal"}
    assert snapshot(list(stored.values())) == snapshot(outcome.ratings)
    assert stored["2"].wins == 1 and stored["2"].mu > MODEL.mu  # bob (seat 1) won
    assert stored["ai:hard"].wins == 0 and stored["ai:hard"].name == "AI hard"
    event = await repo.event(row.id)
    assert event is not None and event.source == "game" and event.finished_at == clock.now
    assert teams_from_json(event.teams) == teams
    changes = await repo.for_table(row.id)
    assert [(c.player, c.won) for c in changes] == [
        ("1", False),
        ("2", True),
        ("ai:hard", False),
        ("ai:normal", True),
    ]
    assert all(c.mu_before == MODEL.mu and c.sigma_before == MODEL.sigma for c in changes)


async def test_rebuild_equals_the_incremental_values(db: Database, clock: FakeClock) -> None:
    await play_many(db, clock, 15)
    repo = RatingRepo(db)
    incremental, history = await repo.all(), await repo.all_changes()
    assert any(r.player == "ai:hard" for r in incremental)
    assert {r.game_id for r in incremental} == {g for g, _, _ in GAMES}

    clock.tick(3600)
    report = await ratings.rebuild(db)
    assert report.events == 15 and report.added == [] and report.changed == []
    assert snapshot(await repo.all()) == snapshot(incremental)
    assert await repo.all_changes() == history

    # a rating lost or tampered with comes back from the stored results
    await db.execute("UPDATE ratings SET mu = mu + 1 WHERE player = 'ai:hard'")
    await db.execute("DELETE FROM ratings WHERE player = '1'")
    preview = await ratings.rebuild(db, dry_run=True)
    assert not preview.written and len(preview.changed) == len(
        [r for r in incremental if r.player in ("1", "ai:hard")]
    )
    assert (
        await db.fetchval("SELECT COUNT(*) FROM ratings WHERE player = '1'") == 0
    )  # dry run: nothing written
    report = await ratings.rebuild(db)
    assert report.written and snapshot(await repo.all()) == snapshot(incremental)


async def test_rebuild_rates_games_finished_before_ratings(db: Database, clock: FakeClock) -> None:
    rated = await play_many(db, clock, 5)
    incremental = snapshot(await RatingRepo(db).all())
    # the same games again in another server, finished without a rating (as before migration 3)
    rng = random.Random(2024)
    old = []
    for i in range(5):
        game_id, overrides, n = GAMES[i % len(GAMES)]
        game = play(game_id, rng.randrange(1, 10_000), overrides)
        clock.tick(60)
        old.append(
            await store_game(
                db, game, seats_for(rng, n), channel_id=200 + i, guild_id=OTHER_GUILD, rate=False
            )
        )
    # and one whose move log is gone: rated from its results rows
    tables = TableRepo(db)
    lost = await tables.create_lobby(
        guild_id=OTHER_GUILD,
        channel_id=300,
        creator_id=1,
        game_id="ruff-honours-cotton",
        preset="cotton1674",
        seed=9,
        seats=[
            HumanSeat(1, "user1"),
            AISeat("hard", "Hal"),
            HumanSeat(3, "user3"),
            HumanSeat(4, "user4"),
        ],
    )
    await tables.set_status(lost.id, "active")
    await tables.set_status(lost.id, "finished")
    clock.tick(60)
    await ResultRepo(db).record_game(
        lost.id,
        OTHER_GUILD,
        [
            ratings_result(1, "user1", 0, True),
            ratings_result(3, "user3", 0, True),
            ratings_result(4, "user4", 1, False),
        ],
    )
    repo = RatingRepo(db)
    assert await repo.unrated_tables() == [t.id for t in old] + [lost.id]

    report = await ratings.rebuild(db)
    assert [e.table_id for e in report.added] == [t.id for t in old] + [lost.id]
    assert [e.source for e in report.added] == ["replay"] * 5 + ["results"]
    assert await repo.unrated_tables() == []
    after = snapshot(await repo.all())
    # replayed, the old games rate exactly as the same games rated when they finished
    assert {(g, p): v for (guild, g, p), v in after.items() if guild == GUILD} == {
        (g, p): v for (guild, g, p), v in incremental.items()
    }
    for mine, theirs in zip(rated, old, strict=True):
        first, second = await repo.event(mine.id), await repo.event(theirs.id)
        assert first is not None and second is not None and first.teams == second.teams
    # from results: the people and the AI on its side by the rules, winners first
    event = await repo.event(lost.id)
    assert event is not None
    teams = {t.rank: sorted(e.key for e in t.players) for t in teams_from_json(event.teams)}
    assert teams == {0: ["1", "3"], 1: ["4", "ai:hard"]}
    # rebuilding again changes nothing
    again = await ratings.rebuild(db)
    assert again.added == [] and again.changed == []


def ratings_result(user_id: int, name: str, side: int, won: bool) -> object:
    from bot.store import PlayerResult

    return PlayerResult(user_id, name, side, won, 9 if won else 4, 4 if won else 9)


# ---------------------------------------------------------------- the leaderboard


def row(
    player: str, mu: float, sigma: float, games: int, wins: int, game_id: str = "whist-5"
) -> RatingRow:
    return RatingRow(GUILD, game_id, player, f"name{player}", mu, sigma, games, wins, 0.0)


async def test_leaderboard_ranks_by_conservative_rating_with_a_minimum_of_games(
    db: Database,
) -> None:
    repo = RatingRepo(db)
    await repo.save(
        [
            row("1", 30.0, 5.0, 10, 7),  # 15
            row("2", 35.0, 8.0, 2, 2),  # 11, too few games
            row("ai:hard", 27.0, 3.0, 40, 25),  # 18
            row("3", 24.0, 3.0, 3, 1),  # 15, fewer games than "1"
            row("4", 20.0, 2.0, MIN_GAMES, 0),  # 14
            row("5", 25.0, 8.0, 0, 0),  # a row without games is never shown
            row("9", 40.0, 1.0, 50, 50, game_id="ruff-honours-cotton"),  # another game
            RatingRow(OTHER_GUILD, "whist-5", "7", "x", 50.0, 1.0, 9, 9, 0.0),  # another server
        ]
    )
    board = await repo.leaderboard(GUILD, "whist-5", MIN_GAMES)
    assert [(r.rank, r.player) for r in board] == [(1, "ai:hard"), (2, "1"), (3, "3"), (4, "4")]
    assert [
        r.player for r in await repo.leaderboard(GUILD, "whist-5", MIN_GAMES, limit=2, offset=2)
    ] == ["3", "4"]
    assert await repo.count_ranked(GUILD, "whist-5", MIN_GAMES) == 4
    provisional, total = await repo.provisional(GUILD, "whist-5", MIN_GAMES)
    assert [r.player for r in provisional] == ["2"] and total == 1
    found = await repo.get(GUILD, "whist-5", "3", MIN_GAMES)
    assert found is not None and found.rank == 3 and found.conservative == 15.0
    found = await repo.get(GUILD, "whist-5", "2", MIN_GAMES)
    assert found is not None and found.rank is None and found.games == 2
    assert await repo.get(GUILD, "whist-5", "5", MIN_GAMES) is None
    assert await repo.get(OTHER_GUILD, "whist-5", "1", MIN_GAMES) is None
    assert [r.game_id for r in await repo.for_player(GUILD, "9")] == ["ruff-honours-cotton"]


async def test_history_and_games_played(db: Database, clock: FakeClock) -> None:
    rows = await play_many(db, clock, 10)
    repo = RatingRepo(db)
    played = await repo.games(GUILD)
    assert sum(n for _, n in played) == 10 and played[0][1] == 2
    for player in ("1", "ai:hard"):
        history = await repo.history(GUILD, player, limit=3)
        assert len(history) <= 3
        assert [c.finished_at for c in history] == sorted(
            (c.finished_at for c in history), reverse=True
        )
        rating = {r.game_id: r for r in await repo.for_player(GUILD, player)}
        for game_id, r in rating.items():
            latest = (await repo.history(GUILD, player, game_id, limit=1))[0]
            assert (latest.mu_after, latest.sigma_after) == (r.mu, r.sigma)
    assert {c.table_id for c in await repo.all_changes()} == {r.id for r in rows}


# ---------------------------------------------------------------- the command


def test_the_rebuild_command_prints_what_changed(tmp_path: Path) -> None:
    import asyncio

    path = tmp_path / "ruff.db"

    async def setup() -> None:
        clock = FakeClock()
        db = await Database.open(str(path), clock=clock)
        try:
            await play_many(db, clock, 3)
            await db.execute(
                "UPDATE ratings SET mu = 1.0 WHERE game_id = 'solo-whist' AND player ="
                " (SELECT MIN(player) FROM ratings WHERE game_id = 'solo-whist')"
            )
        finally:
            await db.close()

    asyncio.run(setup())
    run = [sys.executable, "-m", "bot.store.ratings", "rebuild", "--database", str(path)]
    dry = subprocess.run(
        [*run, "--dry-run"], capture_output=True, text=True, cwd=REPO_ROOT, timeout=120
    )
    assert dry.returncode == 0, dry.stderr
    assert "3 rated games" in dry.stdout and "changed  server 501" in dry.stdout
    assert "1 rating would change." in dry.stdout and "dry run" in dry.stdout
    done = subprocess.run(run, capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)
    assert done.returncode == 0 and "1 rating changed." in done.stdout
    again = subprocess.run(run, capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)
    assert "0 ratings changed." in again.stdout


async def test_a_rebuild_rates_only_the_kinds_that_are_rated(db: Database) -> None:
    """A daily board and an unrated event's board are never rated, not even by a
    rebuild; an event the server chose to rate has its boards rated like any game."""
    from bot.tables.kinds import TableKind
    from bot.tables.table import TableSettings

    tables = TableRepo(db)
    made = {}
    for name, settings in (
        ("daily", TableSettings(kind=TableKind.BOARD, board="2026-11-29/whist-5/1")),
        ("event", TableSettings(kind=TableKind.EVENT, event="1/1/1/1")),
        ("rated event", TableSettings(kind=TableKind.EVENT, event="2/1/1/1", rated=True)),
        ("ordinary", TableSettings()),
    ):
        row = await tables.create_lobby(
            guild_id=OTHER_GUILD,
            channel_id=400 + len(made),
            creator_id=1,
            game_id="whist-5",
            preset="default",
            seed=1,
            seats=[HumanSeat(1, "user1"), None, None, None],
            settings=settings.to_json(),
        )
        version = await tables.set_status(row.id, "active", row.version)
        await tables.set_status(row.id, "finished", version)
        made[name] = row.id
    assert await RatingRepo(db).unrated_tables() == [made["rated event"], made["ordinary"]]
