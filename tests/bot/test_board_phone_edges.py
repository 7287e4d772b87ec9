"""A board's rough edges on a phone (issue #37): the buttons under a board's result
are laid out in rows chosen for a 400 px phone (with four, the next board alone on
top and the deal, the review and sharing under it — never Share wrapped alone;
three in one row, measured by tools/screenshot_boards.py); the turn ping
in a board's DM names the board, not a table the player never sees."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot.features.daily.boards import end_view
from bot.present.i18n import using
from bot.present.render.daily import ChallengeLine, board_turn, challenge_result
from engine import make_rules

from .daily_play import dm_messages, hand_of, latest_board, random_actions
from .dm_play import act


def rows(view: discord.ui.View) -> list[list[str]]:
    """The view's buttons by the row Discord puts them on."""
    by_row: dict[int, list[str]] = {}
    for item in view.children:
        assert isinstance(item, discord.ui.Button)
        assert item.row is not None, f"{item.label} left to wrap where it falls"
        by_row.setdefault(item.row, []).append(str(item.label))
    return [by_row[r] for r in sorted(by_row)]


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_boards_buttons_are_in_rows_chosen_for_a_phone(language: str) -> None:
    with using(language):
        board = rows(end_view(7, "▶ Board 2"))
        last = rows(end_view(7, None))
        challenge = rows(end_view(7, "▶ Board 2", "ch:next:1", share=False))
    assert board[0] == ["▶ Board 2"] and len(board) == 2 and len(board[1]) == 3, board
    assert len(last) == 1 and len(last[0]) == 3, last  # the day done: one row
    assert challenge == [["▶ Board 2", *challenge[0][1:]]] and len(challenge[0]) == 3, challenge


def test_the_turn_ping_names_the_board() -> None:
    assert board_turn("whist-5/default/2026-11-28/2") == "🔔 Board 2/6: your turn."
    assert board_turn("whist-5/default/challenge-3/4") == "🔔 Challenge #3 · board 4: your turn."
    with using("de"):
        assert "Board 2/6" in board_turn("whist-5/default/2026-11-28/2")


class _Member:
    def __init__(self, member: Any, message: discord.Message) -> None:
        from .daily_play import _User

        self.user = _User(member.user, message)
        self.id = member.id


@pytest.mark.slow
@pytest.mark.parametrize("bot_settings", [{"daily_worlds": 8}])
async def test_a_boards_turn_ping_says_board_not_table(simcord_env: Any) -> None:
    env = simcord_env
    env.settle_timeout = 60.0
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "ruff daily", game="whist-5")
    table = latest_board(env, alice.id)
    assert table is not None
    seat = table.seat_of(alice.id)
    assert seat is not None
    rng = random.Random(4)
    pings: list[str] = []
    while table.status == "active" and not pings:
        pings = [m.content for m in dm_messages(alice) if m.content.startswith("🔔")]
        if pings:
            break
        game = table.game
        assert game is not None
        res = await act(
            _Member(alice, hand_of(alice, table, seat)),
            game,
            seat,
            random_actions(game, seat, rng),
        )
        assert res.acknowledged
        await env.settle()
    assert pings, "no turn ping met on this board"
    assert pings[0] == "🔔 Board 1/6: your turn.", pings


def test_a_challenges_comparison_reads_on_a_phone() -> None:
    """The comparison's headline is bold like a board's, and beside the two results
    each board's par: whether a board was played well, not only who won it (not
    against the AI, whose column is the par); every line fits a phone's code block."""
    rules = make_rules("whist-5")
    lines = [ChallengeLine(1, -4, False, -6, False, -3), ChallengeLine(2, -5, False, -4, True, -4)]
    text = challenge_result(rules, 1, "alice", "bob", lines)
    assert text.startswith("🏁 **Challenge #1** · Whist 5-Point\n"), text
    table = text.split("```\n")[1].split("\n```")[0].splitlines()
    assert table[0].split() == ["#", "alice", "bob", "par"], table
    assert table[1].split() == ["1", "-4", "◀", "-6", "-3"], table
    assert table[1].index("-3") + 2 == len(table[0]) == len(table[1]), table  # aligned
    assert all(len(line) <= 34 for line in table), table
    ai = [ChallengeLine(1, -4, False, -6, False)]  # the AI: its column is the par
    assert "par" not in challenge_result(rules, 1, "alice", "the AI", ai)
