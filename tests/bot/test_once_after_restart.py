"""What a finished board or challenge does once stays done across a restart (issue #37):
**Post it in the server** posts a board's line once, **Rematch** makes one rematch of a
challenge — a click before the restart and one after (another player's, or the same
button forged) never both act; the store's conditional write decides, not memory."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.store import ChallengeRepo, DailyRepo

from .conftest import make_settings, restart
from .daily_play import dm_messages, play_board
from .helpers import forged_click, raw_buttons

pytestmark = pytest.mark.slow  # whole boards through the simulator


def labels(message: discord.Message) -> list[str]:
    return [
        str(c.label)
        for row in message.components
        for c in getattr(row, "children", [])
        if isinstance(c, discord.Button)
    ]


def comparison(member: Any) -> discord.Message:
    return next(m for m in dm_messages(member) if m.content.startswith("🏁 **Challenge #1**"))


@pytest.mark.parametrize("bot_settings", [{"daily_worlds": 8}])
async def test_a_post_and_a_rematch_happen_once_across_a_restart(
    simcord_env: Any, db_path: Path, bot_settings: dict[str, Any], more_bots: list[Any]
) -> None:
    env = simcord_env
    env.settle_timeout = 60.0
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    rng = random.Random(5)

    # a daily board, ended, shared and posted in the server
    await alice.slash(channel, "ruff daily", game="whist-5")
    board, _ = await play_board(env, alice, rng)
    done = next(
        m for m in dm_messages(alice) if m.id == board.hand_messages[board.seat_of(alice.id)][1]
    )
    share = await alice.user.click(done, label="Share")
    post_id = f"dy:post:{board.id}"
    assert [b["custom_id"] for b in raw_buttons(share.response.components)] == [post_id]
    posted = await alice.user.click(share.response, custom_id=post_id)
    assert "Posted in" in posted.response.content
    ours = [m for m in channel.history() if m.content.startswith("**alice**: ")]
    assert len(ours) == 1

    # a one-board challenge between alice and bob, played, compared; bob asks a rematch
    await alice.slash(channel, "ruff challenge", opponent=bob.user, game="whist-5", boards=1)
    invite = next(m for m in dm_messages(bob) if "challenges you" in m.content)
    await bob.user.click(invite, label="▶ Play")
    await env.settle()
    for member in (alice, bob):
        await play_board(env, member, rng)
    await env.settle()
    assert labels(comparison(alice)) == labels(comparison(bob)) == ["Rematch"]
    asked = await bob.user.click(comparison(bob), label="Rematch")
    await env.settle()
    told = asked.followups[0].content
    assert "Challenge #2 against alice" in told and "alice has your invitation" in told, told
    assert (await ChallengeRepo(env.bot.db).get(2)) is not None  # the rematch

    await restart(env, more_bots, make_settings(db_path, **bot_settings))

    # after the restart: no second post, by the button or a forged click
    again = await alice.user.click(done, label="Share")
    assert again.ephemeral and raw_buttons(again.response.components) == []
    forged = await forged_click(env, alice.user, done, f"dy:post:{board.id}")
    assert forged.ephemeral and "Already posted" in forged.response.content
    ours = [m for m in channel.history() if m.content.startswith("**alice**: ")]
    assert len(ours) == 1
    entry = await DailyRepo(env.bot.db).of_table(board.id)
    assert entry is not None and entry.shared_at is not None

    # after the restart: alice's Rematch (still on her comparison) makes no second one
    twice = await alice.user.click(comparison(alice), label="Rematch")
    assert twice.ephemeral and "already" in twice.response.content
    assert "challenge #2" in twice.response.content
    repo = ChallengeRepo(env.bot.db)
    assert await repo.get(3) is None
    rematch = await repo.get(2)
    assert rematch is not None and rematch.rematch_of == 1 and rematch.challenger_id == bob.id
    invites = [m for m in dm_messages(alice) if "challenges you" in m.content]
    assert len(invites) == 1
