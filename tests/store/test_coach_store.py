"""The coach's repository (migration 9: ``deal_reviews``, ``puzzles``, ``puzzle_attempts``),
on both backends: a review kept once, puzzles served own-first then the server's
(from finished games only), attempts counted, a solved puzzle staying solved."""

from __future__ import annotations

from bot.store import CoachRepo, Database, HumanSeat, TableRepo


async def _table(db: Database, guild_id: int, channel_id: int) -> int:
    row = await TableRepo(db).create_lobby(
        guild_id=guild_id,
        channel_id=channel_id,
        creator_id=1,
        game_id="whist-5",
        preset="default",
        seed=7,
        seats=[HumanSeat(1, "Ann"), HumanSeat(2, "Bob"), None, None],
    )
    return row.id


async def test_reviews_are_kept_once_and_read_back(db: Database) -> None:
    repo = CoachRepo(db)
    table = await _table(db, 10, 100)
    assert await repo.review(table, 1, 0) is None
    body = {"deal": 1, "decisions": [{"cost": 1.25}], "unit": "tricks"}
    await repo.keep_review(table, 1, 0, body, [(10, 1, 5, {"legal": ["AS", "2S"], "n": 1})])
    await repo.keep_review(table, 1, 0, {"deal": 1, "other": True}, [(10, 1, 5, {"n": 2})])
    assert await repo.review(table, 1, 0) == body  # the first review stays
    assert await repo.review(table, 1, 1) is None and await repo.review(table, 2, 0) is None
    found = await repo.next_puzzle(10, 1)
    assert found is not None and found.body == {"legal": ["AS", "2S"], "n": 1}
    assert (found.table_id, found.deal, found.seat, found.action) == (table, 1, 0, 5)


async def test_puzzles_own_first_then_the_servers_and_attempts_counted(db: Database) -> None:
    repo = CoachRepo(db)
    table = await _table(db, 10, 100)
    elsewhere = await _table(db, 20, 200)
    await repo.keep_review(
        table, 1, 0, {}, [(10, 1, 3, {"k": "ann-1"}), (10, 1, 9, {"k": "ann-2"})]
    )
    await repo.keep_review(table, 1, 1, {}, [(10, 2, 4, {"k": "bob-1"})])
    await repo.keep_review(elsewhere, 1, 0, {}, [(20, 3, 4, {"k": "other-server"})])

    ann_1 = await repo.next_puzzle(10, 1)
    assert ann_1 is not None and ann_1.body["k"] == "ann-1"
    await repo.attempt(ann_1.id, 1, False, "2S")
    assert await repo.tally(10, 1) == (0, 1, 1)
    # answered wrong: the next is another (her new one), the wrong one comes back after
    ann_2 = await repo.next_puzzle(10, 1, after=ann_1.id)
    assert ann_2 is not None and ann_2.body["k"] == "ann-2"
    await repo.attempt(ann_2.id, 1, True, "KH")
    assert await repo.tally(10, 1) == (1, 1, 0)
    again = await repo.next_puzzle(10, 1, after=ann_2.id)  # unsolved: still hers to solve
    assert again is not None and again.id == ann_1.id
    # the one just shown is served again only when it is all there is
    assert await repo.next_puzzle(10, 1, after=ann_1.id) == again
    await repo.give_up(ann_1.id, 1)  # asking for the solution keeps an answer as it was
    await repo.attempt(ann_1.id, 1, True, "AS")
    await repo.attempt(ann_1.id, 1, False, "3S")  # a solved puzzle stays solved
    await repo.give_up(ann_1.id, 1)
    assert await repo.tally(10, 1) == (2, 0, 0)
    # none of her own left: one of the server's (never another server's)
    assert await repo.next_puzzle(10, 1) is None  # bob's game is not over yet
    tables = TableRepo(db)
    await tables.set_status(table, "active")
    await tables.set_status(table, "finished")
    bobs = await repo.next_puzzle(10, 1)
    assert bobs is not None and bobs.body["k"] == "bob-1" and bobs.user_id == 2
    await repo.give_up(bobs.id, 1)  # the solution shown: tried, not solved
    assert await repo.next_puzzle(10, 1) is None  # tried them all
    assert await repo.tally(10, 1) == (2, 1, 0)
    assert await repo.next_puzzle(30, 1) is None
    assert (await repo.puzzle(bobs.id)) == bobs
    assert await repo.puzzle(10_000) is None


async def test_a_board_s_puzzles_are_its_player_s_alone(db: Database) -> None:
    """A board (daily or challenge) is dealt to many players: its positions are never
    served to anyone but the one who played it, even once that table is finished."""
    repo = CoachRepo(db)
    board_table = await _table(db, 10, 100)
    tables = TableRepo(db)
    await tables.set_status(board_table, "active")
    await tables.set_status(board_table, "finished")
    await db.execute(
        "INSERT INTO daily_results (board, user_id, game_id, series, number, guild_id,"
        " channel_id, name, table_id, result, by_ai, started_at, finished_at)"
        " VALUES ('whist-5/default/2026-11-28/1', 1, 'whist-5', '2026-11-28', 1, 10, 100,"
        " 'ann', ?, 3, 0, 0, 1)",
        (board_table,),
    )
    await repo.keep_review(board_table, 1, 0, {}, [(10, 1, 3, {"k": "ann-board"})])
    own = await repo.next_puzzle(10, 1)
    assert own is not None and own.body["k"] == "ann-board"
    assert await repo.next_puzzle(10, 2) is None  # bob: never ann's board
