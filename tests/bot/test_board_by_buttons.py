"""A day of boards and a challenge played by buttons only, as a player on a phone
meets them (issue #37, findings 1, 2 and 6): each board ends in ONE message (its DM,
edited) with ▶ the next board, the deal, the review and sharing; no game-over line,
summary, chart or internal AI level; the board's DM keeps Last trick and This deal;
a challenge is answered, played, compared and rematched by buttons; a click by anyone
else, or on a forged id, gets a short private answer and changes nothing."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot.features.daily.boards import day_of
from bot.store import ChallengeRepo, DailyRepo
from engine import BOARDS_PER_DAY

from .daily_play import dm_messages, hand_of, latest_board, play_board, random_actions
from .dm_play import act
from .helpers import forged_click, labels_of

pytestmark = pytest.mark.slow  # whole boards through the simulator

SETTLE = 60.0  # seconds a settle may wait: the boards' AI searches on a loaded machine

NOT_ON_A_BOARD = ("game is over", "AI fixed", "Review my play", "How ", "Deal 1 of game")


def labels(message: discord.Message) -> list[str]:
    return [
        str(c.label)
        for row in message.components
        for c in getattr(row, "children", [])
        if isinstance(c, discord.Button)
    ]


def board_message(member: Any, table: Any) -> discord.Message:
    seat = table.seat_of(member.id)
    return hand_of(member, table, seat)


@pytest.mark.parametrize("bot_settings", [{"daily_worlds": 8}])
async def test_a_whole_day_by_buttons_one_message_per_board(simcord_env: Any) -> None:
    env = simcord_env
    env.settle_timeout = SETTLE
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    res = await alice.slash(channel, "ruff daily", game="whist-5")
    assert "https://discord.com/channels/@me/" in res.response.content  # the board, one tap away
    rng = random.Random(7)
    seen: set[int] = set()
    for number in range(1, BOARDS_PER_DAY + 1):
        table, _clicks = await play_board(env, alice, rng)
        assert table.settings.board.endswith(f"/{number}") and table.id not in seen
        seen.add(table.id)
        await env.settle()
        done = board_message(alice, table)
        text = done.content
        assert text.startswith(f"✅ **Board {number}/{BOARDS_PER_DAY}** · **"), text
        assert "par " in text and "alice (you)" in text
        # one message per board, and nothing else left in the DM (a turn's ping goes)
        others = [m for m in dm_messages(alice) if not m.content.startswith("🔔")]
        assert len(others) == number, [m.content[:40] for m in others]
        assert not any(m.attachments for m in others)  # no chart, no picture
        for message in others:
            assert not any(bad in message.content for bad in NOT_ON_A_BOARD), message.content
        buttons = labels(done)
        assert {"The deal", "Review", "Share"} <= set(buttons), buttons
        if number == 1:
            deal = await alice.user.click(done, label="The deal")
            assert deal.ephemeral and "**The deal**" in deal.response.content
            env.settle_timeout = 120.0  # a review takes seconds of CPU in its worker
            review = await alice.user.click(done, label="Review")
            answer = review.response.content
            assert review.ephemeral and "per server" not in answer, answer
            assert "Review of table" in answer or "no decision worth judging" in answer, answer
            env.settle_timeout = SETTLE
            share = await alice.user.click(done, label="Share")
            assert share.ephemeral and "board 1/6" in share.response.content
            assert "♠" not in share.response.content and "+" not in share.response.content
            # bob may not use alice's board's buttons, even forged onto his own DM
            await bob.slash(channel, "ruff daily", game="whist-5")  # bob's own DM
            bobs = dm_messages(bob)[0]
            for verb in ("next", "review", "deal", "share", "post"):
                refused = await forged_click(env, bob.user, bobs, f"dy:{verb}:{table.id}")
                assert refused.ephemeral and "not your board" in refused.response.content
            day = table.settings.board.split("/")[2]
            assert len(await DailyRepo(env.bot.db).of_player(bob.id, "whist-5", day)) == 1
            assert len(await DailyRepo(env.bot.db).of_player(alice.id, "whist-5", day)) == 1
        if number < BOARDS_PER_DAY:
            assert f"▶ Board {number + 1}" in buttons and "Day done" not in text
            res = await alice.user.click(done, label=f"▶ Board {number + 1}")
            assert res.acknowledged
            await env.settle()
            nxt = latest_board(env, alice.id)
            assert nxt is not None and nxt.settings.board.endswith(f"/{number + 1}")
            spent = board_message(alice, table)
            assert f"▶ Board {number + 1}" not in labels(spent) and "Review" in labels(spent)
        else:
            assert not any(b.startswith("▶") for b in buttons)
            assert "🏁 Day done: **" in text and "/ruff daily standings:today" in text
    day = day_of(env.bot.manager.daily.clock())
    entries = await DailyRepo(env.bot.db).of_player(alice.id, "whist-5", day)
    assert [e.number for e in entries] == list(range(1, BOARDS_PER_DAY + 1))


@pytest.mark.parametrize("bot_settings", [{"daily_worlds": 8}])
async def test_a_boards_dm_shows_the_tricks_after_an_ai_lead(simcord_env: Any) -> None:
    """Once an AI leads, the trick before is named (who won it) and Last trick on the
    board's DM shows its cards."""
    env = simcord_env
    env.settle_timeout = SETTLE
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "ruff daily", game="whist-5")
    table = latest_board(env, alice.id)
    assert table is not None
    seat = table.seat_of(alice.id)
    assert seat is not None
    rng = random.Random(3)
    checked = False
    while table.status == "active" and not checked:
        game = table.game
        assert game is not None
        view = game.observe(seat)
        hand = hand_of(alice, table, seat)
        if view.my_turn and view.trick and view.completed_tricks and view.trick[0][0] != seat:
            won = len(view.completed_tricks)
            assert f"Trick {won} won by" in hand.content, hand.content
            assert {"Last trick", "This deal"} <= set(labels(hand))
            last = await alice.user.click(hand, label="Last trick")
            assert last.ephemeral and f"{won}" in last.response.content
            cards = view.completed_tricks[-1][1]
            shown = last.response.content
            assert all(str(c.rank.label) in shown for c in cards), shown
            whole = await alice.user.click(hand, label="This deal")
            assert whole.ephemeral and whole.response.content
            # with the scores, but no Concede: a board played alone never offers it
            assert "Score:" in whole.response.content
            assert "Concede" not in labels_of(whole.response.components)
            checked = True
            break
        actions = random_actions(game, seat, rng)
        res = await act(_Member(alice, hand), game, seat, actions)
        assert res.acknowledged
        await env.settle()
    assert checked, "no AI lead met on this board"


class _Member:
    def __init__(self, member: Any, message: discord.Message) -> None:
        from .daily_play import _User

        self.user = _User(member.user, message)
        self.id = member.id


@pytest.mark.parametrize("bot_settings", [{"daily_worlds": 8}])
async def test_a_challenge_by_buttons_declined_and_rematched(simcord_env: Any) -> None:
    env = simcord_env
    env.settle_timeout = SETTLE
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    await alice.slash(channel, "ruff challenge", opponent=bob.user, game="whist-5", boards=2)
    invite = next(m for m in dm_messages(bob) if "challenges you" in m.content)
    assert labels(invite) == ["▶ Play", "Decline"]
    # carol's forged Play, alice's Decline: refused, nothing dealt
    await carol.slash(channel, "ruff daily", game="whist-5")  # carol's own DM
    refused = await forged_click(env, carol.user, dm_messages(carol)[0], "ch:play:1")
    assert refused.ephemeral and "not yours" in refused.response.content
    refused = await forged_click(env, alice.user, dm_messages(alice)[0], "ch:decline:1")
    assert refused.ephemeral and "Only the invited player" in refused.response.content
    res = await bob.user.click(invite, label="▶ Play")
    await env.settle()
    bob_board = latest_board(env, bob.id)
    assert bob_board is not None and bob_board.settings.board.endswith("/challenge-1/1")
    invite = next(m for m in dm_messages(bob) if m.id == invite.id)
    assert labels(invite) == []  # answered
    rng = random.Random(11)
    for member in (alice, bob):
        table, _ = await play_board(env, member, rng)
        done = board_message(member, table)
        assert done.content.startswith("✅ **Board 1/2** · **"), done.content
        assert "Challenge #1" in done.content
        assert "▶ Board 2" in labels(done) and "Share" not in labels(done)
        await member.user.click(done, label="▶ Board 2")
        await env.settle()
        second = latest_board(env, member.id)
        assert second is not None and second.settings.board.endswith("/challenge-1/2")
        await play_board(env, member, rng)
    await env.settle()
    entries = await DailyRepo(env.bot.db).of_series("whist-5", ["challenge-1"])
    results = {(e.user_id, e.number): e.result for e in entries}
    for member in (alice, bob):
        result = [m for m in dm_messages(member) if m.content.startswith("🏁 **Challenge #1**")]
        assert len(result) == 1
        shown = result[0].content
        assert "```" in shown and "alice" in shown and "bob" in shown
        for n in (1, 2):
            a, b = results[(alice.id, n)], results[(bob.id, n)]
            assert a is not None and b is not None
            row = next(line for line in shown.splitlines() if line.startswith(f"{n} "))
            assert f"{a:+d}" in row and f"{b:+d}" in row
            assert ("◀" in row) == (a != b)
        assert labels(result[0]) == ["Rematch"]
    comparison = next(m for m in dm_messages(bob) if m.content.startswith("🏁 **Challenge #1**"))
    refused = await forged_click(env, carol.user, dm_messages(carol)[0], "ch:rematch:1")
    assert refused.ephemeral and "not yours" in refused.response.content
    res = await bob.user.click(comparison, label="Rematch")
    await env.settle()
    again = await ChallengeRepo(env.bot.db).get(2)
    assert again is not None and again.challenger_id == bob.id and again.opponent_id == alice.id
    board = latest_board(env, bob.id)
    assert board is not None and board.settings.board.endswith("/challenge-2/1")
    mine = next(m for m in dm_messages(alice) if m.content.startswith("🏁 **Challenge #1**"))
    twice = await alice.user.click(mine, label="Rematch")
    assert twice.ephemeral and "already" in twice.response.content
    invite = next(m for m in dm_messages(alice) if "challenge #2" in m.content)
    res = await alice.user.click(invite, label="Decline")
    assert "You declined" in res.response.content
    declined = await ChallengeRepo(env.bot.db).get(2)
    assert declined is not None and declined.settled_at is not None
    assert any("alice declined your challenge #2" in m.content for m in dm_messages(bob))
    again_click = await forged_click(env, alice.user, invite, "ch:play:2")
    assert again_click.ephemeral and "is over" in again_click.response.content
    assert latest_board(env, alice.id) is not None
    assert not (latest_board(env, alice.id).settings.board or "").endswith("/challenge-2/1")  # type: ignore[union-attr]


@pytest.mark.parametrize("bot_settings", [{"daily_worlds": 8}])
async def test_a_boards_review_in_the_dm_is_the_coachs_with_details(simcord_env: Any) -> None:
    """A board's **Review** is the coach's one review (as at a server table): the same
    words, and **Details** under it that answers in the DM (no "per server"); nobody
    else gets a board's review or its figures, even with a forged id."""
    env = simcord_env
    env.settle_timeout = SETTLE
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "ruff daily", game="whist-5")
    table, _clicks = await play_board(env, alice, random.Random(7))
    await env.settle()
    done = board_message(alice, table)
    env.settle_timeout = 120.0  # a review takes seconds of CPU in its worker
    review = await alice.user.click(done, label="Review")
    answer = review.response.content
    assert review.ephemeral and f"Review of table #{table.id}" in answer, answer
    under = [c["label"] for row in review.response.components for c in row["components"]]
    assert under == ["Details"], under
    details = await alice.user.click(review.response, label="Details")
    figures = details.response.content
    assert details.ephemeral and "per server" not in figures, figures
    assert "Single dummy:" in figures, figures
    # its puzzles are alice's alone: in no server's pool
    rows = await env.bot.db.fetchall(
        "SELECT guild_id, user_id FROM puzzles WHERE table_id = ?", (table.id,)
    )
    assert all(g == 0 and u == alice.id for g, u in rows), rows
    # bob, in his own DM, may not read alice's board's review or its figures
    await bob.slash(channel, "ruff daily", game="whist-5")
    bobs = dm_messages(bob)[0]
    for cid in (f"rc:d:{table.id}:1", f"rc:v:{table.id}:1"):
        refused = await forged_click(env, bob.user, bobs, cid)
        assert refused.ephemeral and "not your board" in refused.response.content, cid
