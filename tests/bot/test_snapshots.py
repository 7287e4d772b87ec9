"""Snapshots: a restart restores each game from its stored snapshot and replays only
the tail of its log; the log stays the truth, so a snapshot that is damaged, stale
or of another game is ignored and the whole log replayed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import bot.tables.resume as resume_module
from bot.store import Snapshot, SnapshotRepo
from bot.tables.commit import SNAPSHOT_EVERY
from bot.tables.table import MOVES_KEPT
from engine import Game

from .conftest import make_settings, restart
from .helpers import act_on, choose, hand_message, replay_from_db, table_message


async def _play_until(env: Any, players: dict[int, Any], actions: int) -> None:
    table = env.bot.manager.tables[1]
    while table.game.version < actions:
        seat = table.game.to_act()
        assert seat in players, "the AI seats never wait"
        member = players[seat]
        await act_on(member.user, hand_message(member), choose(table.game.observe(seat)))


def _damaged(snapshot: Snapshot, how: str) -> Snapshot:
    """``snapshot`` as a broken database or an older bug might have left it."""
    if how == "intact":
        return snapshot
    if how == "digest":  # the body changed after its digest was taken
        return Snapshot(snapshot.table_id, snapshot.seq, snapshot.body[:-9] + "}}", snapshot.digest)
    data = json.loads(snapshot.body)
    if how == "stale":  # a snapshot of an earlier position filed under a later one
        data["log"] = data["log"][:-1]
        data["state"]["to_play"] = (data["state"]["to_play"] + 1) % 4
    elif how == "other game":  # another seed's game, same log
        data["record"]["seed"] += 1
    elif how == "ahead":  # filed under a position the log has not reached
        return Snapshot.of(snapshot.table_id, snapshot.seq + 100, snapshot.body)
    return Snapshot.of(snapshot.table_id, snapshot.seq, json.dumps(data))


@pytest.mark.parametrize("how", ["intact", "digest", "stale", "other game", "ahead"])
@pytest.mark.parametrize("bot_settings", [{"seed": 11}])
async def test_a_restart_restores_from_a_snapshot_that_matches_the_log_and_replays_otherwise(
    simcord_env: Any,
    db_path: Path,
    bot_settings: dict[str, Any],
    more_bots: list[Any],
    monkeypatch: pytest.MonkeyPatch,
    how: str,
) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("ruff")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    players = {0: alice, 1: bob}
    await alice.slash(channel, "ruff new", target=3)
    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Start")
    await _play_until(env, players, 2 * SNAPSHOT_EVERY + 3)

    table = env.bot.manager.tables[1]
    repo = SnapshotRepo(env.bot.db)
    stored = await repo.get(1)
    assert stored is not None and stored.intact
    # written with the move that reached a multiple of SNAPSHOT_EVERY, of the game then
    assert stored.seq == table.game.version // SNAPSHOT_EVERY * SNAPSHOT_EVERY
    at_seq = Game.from_snapshot(json.loads(stored.body))
    assert at_seq.version == stored.seq
    assert at_seq.log == table.game.log[: stored.seq]
    replayed = Game.from_record(table.game.to_record() | {"actions": []})
    for seat, action in table.game.log[: stored.seq]:
        replayed.apply(seat, action)
    assert at_seq.state_key() == replayed.state_key()  # the snapshot is the log's state there

    await repo.put(_damaged(stored, how))
    before = table.game.state_key()
    used: list[bool] = []
    read_from: list[int] = []
    real_restore = resume_module.restore

    def restore(*args: Any) -> Game | None:
        game = real_restore(*args)
        used.append(game is not None)
        read_from.append(args[1][0].seq if args[1] else -1)
        return game

    monkeypatch.setattr(resume_module, "restore", restore)
    await restart(env, more_bots, make_settings(db_path, **bot_settings))

    assert used == [how == "intact"]
    if how != "ahead":
        # the start read only the tail of the log: the latest moves before the snapshot
        # (to check it against them) and those after it (replayed)
        assert read_from == [stored.seq - MOVES_KEPT]
    table = env.bot.manager.tables[1]
    assert table.game.state_key() == before
    assert (await replay_from_db(env.bot.db, table)).state_key() == before

    # the game goes on from the restored state, and its end forgets the snapshot
    while not table.game.is_over:
        await _play_until(env, players, table.game.version + 1)
    assert await SnapshotRepo(env.bot.db).get(1) is None
    assert (await replay_from_db(env.bot.db, table)).state_key() == table.game.state_key()
