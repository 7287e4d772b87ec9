"""Nothing of a daily board reaches a member before they have played it — not through a
server mate's puzzles, records or reviews (the case of issue #34).

alice plays the day's six boards in the server and has each one reviewed (the reviews
flag decisions, which become her puzzles); bob, in the same server, has played board 1,
has board 2 in play and boards 3–6 not started. Every text bob can reach — his DMs,
the channel, his own commands' answers, ``/ruff puzzle`` included — is scanned for the
cards of the boards he has not finished: none is there."""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.features.daily.boards import day_of
from bot.present.render import card_text
from engine import Card, board, start_board

from .daily_play import board_table, latest_board, play_board
from .helpers import forged_click, sent_contents

pytestmark = pytest.mark.slow

NOON = 1_795_867_200.0  # 2026-11-28 12:00 UTC
GAME = "ruff-honours-cotton"
CARD = re.compile(r"(?:10|[2-9AKQJ])[♠♥♦♣]")


def _hidden_hands(day: str, finished: set[int], in_play: int, seat_in_play: int) -> list[set[str]]:
    """The dealt hands bob may not know, as sets of card texts: every seat of a board
    he has not started, every other seat of the one he is playing."""
    hidden: list[set[str]] = []
    for number in range(1, 7):
        if number in finished:
            continue
        game, _ = start_board(board(GAME, None, day, number))
        for seat in range(4):
            if number == in_play and seat == seat_in_play:
                continue
            hidden.append({card_text(c).replace("\ufe0e", "") for c in game.observe(seat).hand})
    return hidden


def _leaks(text: str, hidden: list[set[str]]) -> list[str]:
    """Lines of ``text`` that show five or more cards, every one of one hidden hand."""
    found = []
    for line in text.splitlines():
        cards = {m.group(0) for m in CARD.finditer(line.replace("\ufe0e", ""))}
        if len(cards) >= 5 and any(cards <= hand for hand in hidden):
            found.append(line)
    return found


def _rows(db_path: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as con:
        return con.execute(sql).fetchall()


@pytest.mark.parametrize("bot_settings", [{"daily_worlds": 2}])
async def test_a_server_mate_s_board_puzzles_never_reach_a_member_who_has_not_played_it(
    simcord_env: Any, db_path: Path
) -> None:
    env = simcord_env
    env.settle_timeout = 60.0
    env.bot.manager.daily.clock = lambda: NOON
    day = day_of(NOON)
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    rng = random.Random(5)

    # ---- alice: the six boards, each reviewed in the server
    boards: list[int] = []
    for _ in range(6):
        res = await alice.slash(channel, "ruff daily")
        assert "in your DMs" in res.response.content, res.response.content
        table, _clicks = await play_board(env, alice, rng)
        boards.append(table.id)
        res = await alice.slash(channel, "ruff review", table=table.id)
        assert res.ephemeral, res
    puzzles = _rows(db_path, "SELECT id, table_id FROM puzzles WHERE user_id <> 0")
    assert puzzles, "alice's reviews flagged nothing: the case needs her puzzles"
    assert {t for _p, t in puzzles} <= set(boards)

    # ---- bob: board 1 played, board 2 in play
    start = len(env.http_requests)
    await bob.slash(channel, "ruff daily")
    await play_board(env, bob, rng)
    res = await bob.slash(channel, "ruff daily")
    assert "Board 2 of 6" in res.response.content, res.response.content
    table = board_table(env, bob.id)
    assert table is not None and latest_board(env, bob.id) is table
    seat = table.seat_of(bob.id)
    assert seat is not None
    await env.settle()

    # /ruff puzzle: alice's positions are hers (every one is of a board)
    res = await bob.slash(channel, "ruff puzzle")
    assert res.ephemeral and "No puzzle is waiting for you" in res.response.content, (
        res.response.content
    )
    # a forged answer, solution or next-puzzle button for one of them: refused, nothing kept
    pid = puzzles[0][0]
    dm = list(bob.user.dm_channel.history())[-1]
    for custom_id in (f"rc:p:{pid}:o0", f"rc:s:{pid}", f"rc:p:{pid}:AS"):
        res = await forged_click(env, bob.user, dm, custom_id)
        assert res.ephemeral and "not here any more" in res.response.content, res.response.content
    res = await forged_click(env, bob.user, dm, f"rc:n:{pid}")
    assert res.ephemeral and "Puzzle #" not in res.response.content, res.response.content
    assert _rows(db_path, f"SELECT * FROM puzzle_attempts WHERE user_id = {bob.id}") == []
    # the records and reviews of alice's boards: as if they were not there
    for table_id in boards[1:]:
        res = await bob.slash(channel, "ruff record", table=table_id)
        assert "There is no table" in res.response.content, res.response.content
        res = await bob.slash(channel, "ruff review", table=table_id)
        assert res.ephemeral and "did not play there" in res.response.content
    await env.settle()

    # ---- every text bob could reach: nothing of boards 2-6 but his own hand of board 2
    hidden = _hidden_hands(day, {1}, 2, seat)
    seen = [text for _method, _path, text in sent_contents(env, start)]
    seen += [m.content for m in channel.history()]
    seen += [m.content for m in bob.user.dm_channel.history()]
    assert len(seen) > 10
    leaks = [line for text in seen for line in _leaks(text, hidden)]
    assert leaks == []
    # the scan itself finds a hidden hand where it is shown
    assert _leaks("Your hand: " + " ".join(sorted(hidden[0])), hidden)
    assert not _leaks("Your hand: " + " ".join(card_text(Card.parse(c)) for c in ["AS"]), hidden)
