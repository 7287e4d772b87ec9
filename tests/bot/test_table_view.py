"""What a player sees of a table in play (issue 13, "a table you can see"):
the picture on the table message and its server switch, the score chart and the
"how it was won" of the final post, the table's thread, turn notices that go away,
and a hand DM one can play from."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from .helpers import button_labels, enabled_cards, find_select, hand_message, table_message


async def _seat_alice_with_ai(env: Any, *, target: int | None = None, name: str = "Card Room") -> tuple[Any, Any, Any, Any]:
    """A guild, its channel, alice (no special rights) and a mod (Manage Server); alice
    opens a table, fills it with AI and starts."""
    guild = env.create_guild(name=name)
    channel = guild.create_text_channel("whist")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    alice = guild.add_member(env.create_user("alice"))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    if target is None:
        await alice.slash(channel, "ruff new")
    else:
        await alice.slash(channel, "ruff new", target=target)
    for level in ("easy", "easy", "easy"):
        await alice.click(table_message(channel), label=f"Add AI ({level})")
    await alice.click(table_message(channel), label="Start")
    return guild, channel, alice, mod


async def _act(member: Any) -> bool:
    """Do the first sensible thing in the member's hand DM if it is their turn."""
    msg = hand_message(member)
    if "Your turn" not in msg.content:
        return False
    select = find_select(msg)
    if select is not None and not select.disabled:
        await member.user.select(msg, [o.value for o in select.options][: select.min_values])
        return True
    labels = button_labels(msg)
    for decision in ("Take the stock (ruff)", "Call “Can-ye?”", "Show honours"):
        if decision in labels:
            await member.user.click(msg, label=decision)
            return True
    cards = enabled_cards(msg)
    assert cards, msg.content
    await member.user.click(msg, label=cards[0])
    return True


def _pictures(message: discord.Message) -> list[discord.Attachment]:
    return [a for a in message.attachments if a.filename.endswith(".png")]


async def test_the_table_message_carries_a_picture_with_alt_text_beside_complete_text(simcord_env: Any) -> None:
    env = simcord_env
    _, channel, alice, _ = await _seat_alice_with_ai(env)
    await _act(alice)
    table = table_message(channel)
    pictures = _pictures(table)
    assert [a.filename for a in pictures] == ["table.png"]
    alt = pictures[0].description or ""
    assert "Trumps" in alt and "Score" in alt
    # the text stays complete: the picture adds, never replaces
    assert "Trumps:" in table.content and "Score:" in table.content and "Tricks this deal" in table.content


async def test_a_server_can_switch_pictures_off_but_only_with_manage_server(simcord_env: Any) -> None:
    env = simcord_env
    guild, channel, alice, mod = await _seat_alice_with_ai(env)
    await _act(alice)
    assert _pictures(table_message(channel))

    res = await alice.slash(channel, "ruff settings", pictures="off")
    assert res.ephemeral and "Manage Server" in res.response.content
    assert await env.bot.manager.services.guild_settings.get(guild.id) == {}
    await _act(alice)
    assert _pictures(table_message(channel)), "a refused switch changes nothing"

    res = await mod.slash(channel, "ruff settings", pictures="off")
    assert res.ephemeral and "pictures: **off**" in res.response.content
    assert await env.bot.manager.services.guild_settings.get(guild.id) == {"pictures": False}
    await _act(alice)
    table = table_message(channel)
    assert not _pictures(table), "switched off: the next change removes the picture"
    assert "Score:" in table.content

    res = await alice.slash(channel, "ruff settings")  # anyone may look
    assert "pictures: **off**" in res.response.content
    res = await mod.slash(channel, "ruff settings", pictures="on")
    assert "pictures: **on**" in res.response.content
    await _act(alice)
    assert _pictures(table_message(channel))


@pytest.mark.parametrize("bot_settings", [{"pictures": False}])
async def test_rh_pictures_off_turns_them_off_for_every_server(simcord_env: Any) -> None:
    env = simcord_env
    _, channel, alice, mod = await _seat_alice_with_ai(env)
    res = await mod.slash(channel, "ruff settings", pictures="on")
    assert "RH_PICTURES" in res.response.content
    for _ in range(3):
        await _act(alice)
    assert not _pictures(table_message(channel))
    assert all(not _pictures(m) for m in channel.history())


async def _play_to_the_end(env: Any, channel: Any, alice: Any) -> None:
    table = env.bot.manager.tables[1]
    for _ in range(600):
        if table.status == "finished":
            break
        assert await _act(alice), "the AI never keeps alice waiting"
    assert table.status == "finished"
    await env.bot.manager.notifier.flush()


async def test_the_final_post_has_the_score_chart_and_says_who_won_and_how(simcord_env: Any) -> None:
    env = simcord_env
    _, channel, alice, _ = await _seat_alice_with_ai(env, target=2)
    await _play_to_the_end(env, channel, alice)
    await env.settle()
    feed = [m for c in [channel, *channel.threads] for m in c.history()]
    final = next(m for m in feed if m.content.startswith("🃏 Table #") and "How " in m.content)
    assert [a.filename for a in final.attachments] == ["score.png"]
    assert "score chart" in (final.attachments[0].description or "")
    assert "scored in" in final.content
    assert any(word in final.content for word in ("on tricks", "honours", "Can-ye", "contract"))
    table = table_message(channel)
    assert "finished" in table.content and "How " in table.content
    assert "Rematch" in button_labels(table)
    dm = hand_message(alice).content
    assert "The game is over — you " in dm and "How " in dm


async def test_each_table_gets_a_thread_where_summaries_go_and_the_table_stays_current(simcord_env: Any) -> None:
    env = simcord_env
    _, channel, alice, _ = await _seat_alice_with_ai(env, target=2)
    threads = channel.threads
    assert len(threads) == 1, "a thread started from the table message"
    thread = threads[0]
    assert "Table #1" in (thread.name or "")
    table = env.bot.manager.tables[1]
    assert table.thread_id == thread.id
    assert (await env.bot.manager.table_repo.get(1)).settings["thread_id"] == thread.id  # kept over a restart
    await _play_to_the_end(env, channel, alice)
    await env.settle()
    in_channel = [m.content for m in channel.history() if m.type is not discord.MessageType.thread_created]
    in_thread = [m.content for m in thread.history()]
    assert any("**Deal 1 of game 1**" in c for c in in_thread), "deal summaries go to the thread"
    assert not any("**Deal 1 of game 1**" in c for c in in_channel)
    assert len(in_channel) == 1 and "finished" in in_channel[0], "the channel holds just the table, kept current"


async def test_without_thread_permission_the_channel_is_used(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="No Threads")
    channel = guild.create_text_channel(
        "whist", overwrites={env.bot.user: discord.PermissionOverwrite(create_public_threads=False)}
    )
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "ruff new", target=2)
    for _ in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Start")
    assert channel.threads == []
    assert env.bot.manager.tables[1].settings["thread_id"] == 0
    await _play_to_the_end(env, channel, alice)
    await env.settle()
    assert any("**Deal 1 of game 1**" in m.content for m in channel.history())


@pytest.mark.parametrize("bot_settings", [{"turn_timeout": 90.0}])
async def test_a_turn_ping_with_a_relative_deadline_is_removed_once_you_play(simcord_env: Any) -> None:
    env = simcord_env
    _, channel, alice, _ = await _seat_alice_with_ai(env)
    thread = channel.threads[0]
    table = env.bot.manager.tables[1]
    await env.settle()
    pings = [m for m in thread.history() if m.content.startswith("🔔")]
    assert len(pings) == 1, [(m.content, table.game.version, table.game.to_act(), table.notices) for m in pings]
    ping = pings[0].content
    assert f"<@{alice.id}>" in ping and "your turn at table #1" in ping
    assert re.search(r"<t:\d+:R>", ping), ping
    assert int(re.search(r"<t:(\d+):R>", ping).group(1)) == pytest.approx(table.deadline, abs=2)  # type: ignore[union-attr]
    assert not any(m.content.startswith("🔔") for m in channel.history()), "pings go to the thread"
    version = table.version
    await _act(alice)
    await env.settle()
    assert all(
        not m.content.startswith("🔔") or table.game.to_act() == 0 and table.version > version
        for m in thread.history()
    ), "the ping of a turn that has passed is deleted"
    assert len([m for m in thread.history() if m.content.startswith("🔔")]) <= 1


@pytest.mark.parametrize("bot_settings", [{"turn_timeout": 60.0}])
async def test_the_warning_near_the_deadline_goes_once_the_player_moves(simcord_env: Any) -> None:
    env = simcord_env
    _, channel, alice, _ = await _seat_alice_with_ai(env)
    thread = channel.threads[0]
    await env.advance_time(41)
    notes = [m.content for m in thread.history() if m.content.startswith(("🔔", "⏳"))]
    assert len(notes) == 2 and notes[1].startswith(f"⏳ <@{alice.id}>, your turn at table #1 ends <t:"), notes
    await _act(alice)
    await env.settle()
    table = env.bot.manager.tables[1]
    left = [(m.content, m.id) for m in thread.history() if m.content.startswith(("🔔", "⏳"))]
    assert not any(c.startswith("⏳") for c, _ in left), "the warning is removed once the player moves"
    assert all(table.game.to_act() == 0 for _ in left), "only a ping of a turn still waiting is left"
