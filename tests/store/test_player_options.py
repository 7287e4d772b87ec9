"""Each player's own options (migration 11, ``player_options``), on both backends."""

from __future__ import annotations

from bot.store import Database, PlayerOptionsRepo
from bot.tables.player_options import PlayerOptions


async def test_options_are_stored_merged_and_read_back(db: Database) -> None:
    repo = PlayerOptionsRepo(db)
    assert await repo.get(1) == {} and await repo.get_many([1, 2]) == {}
    assert await repo.update(1, {"auto_play": True}) == {"auto_play": True}
    await repo.update(2, {"auto_play": True, "later": 3})  # keys a later version adds are kept
    assert await repo.update(2, {"auto_play": None}) == {"later": 3}  # None: back to the default
    assert await repo.get_many([1, 2, 3]) == {1: {"auto_play": True}, 2: {"later": 3}}


async def test_a_players_choice_survives_a_new_process(db: Database) -> None:
    await PlayerOptions(PlayerOptionsRepo(db)).repo.update(42, {"auto_play": True})
    later = PlayerOptions(PlayerOptionsRepo(db))  # a new process: nothing in memory
    assert await later.auto_play(42) is True
    assert await later.auto_play(43) is False  # off unless chosen
