"""What a player sees of a table in play (issue 13, "a table you can see"):
the picture on the table message and its server switch, the score chart and the
"how it was won" of the final post, the table's thread, turn notices that go away,
and a hand DM one can play from."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord_ui.shown import shown as shown_of
from bot.present import render
from bot.present.controls import card_rows, hand_controls
from bot.present.layout import layout_text as message_text
from engine import Card, Suit, sort_hand
from engine.actions import Play, TakeRuff
from engine.cards import full_deck

from .conftest import make_settings, restart
from .helpers import (
    button_labels,
    choose_cards,
    enabled_cards,
    find_select,
    hand_message,
    label_to_card,
    table_message,
)


async def _seat_alice_with_ai(
    env: Any, *, target: int | None = None, name: str = "Card Room"
) -> tuple[Any, Any, Any, Any]:
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
        await choose_cards(member.user, msg, [o.value for o in select.options][: select.min_values])
        return True
    labels = button_labels(msg)
    for decision in ("Accept the claim", "Take the stock (ruff)", "Call “Can-ye?”", "Show honours"):
        if decision in labels:
            await member.user.click(msg, label=decision)
            return True
    cards = enabled_cards(msg)
    assert cards, msg.content
    await member.user.click(msg, label=cards[0])
    return True


def _pictures(message: discord.Message) -> list[discord.Attachment]:
    return [a for a in message.attachments if a.filename.endswith(".png")]


async def test_the_table_message_carries_a_picture_with_alt_text_beside_complete_text(
    simcord_env: Any,
) -> None:
    env = simcord_env
    _, channel, alice, _ = await _seat_alice_with_ai(env)
    await _act(alice)
    table = table_message(channel)
    pictures = _pictures(table)
    assert [a.filename for a in pictures] == ["table.png"]
    alt = pictures[0].description or ""
    assert "Trumps" in alt and "Score" in alt
    # the layout's alt text says all the table shows: trumps, scores, tricks
    words = message_text(table)
    assert "Trumps:" in words and "Score:" in words and "Tricks this deal" in words


async def test_a_cancelled_game_keeps_no_picture(simcord_env: Any) -> None:
    env = simcord_env
    _, channel, alice, _ = await _seat_alice_with_ai(env)
    await _act(alice)
    await env.settle()
    assert _pictures(table_message(channel)), "a game in play shows its picture"
    await alice.slash(channel, "ruff cancel")
    await env.settle()
    message = table_message(channel)
    assert "Cancelled by" in message_text(message) and not _pictures(message)


async def test_a_server_can_switch_pictures_off_but_only_with_manage_server(
    simcord_env: Any,
) -> None:
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
    assert "Score:" in message_text(table)

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
    await env.bot.manager.services.notifier.flush()


# a fixed table seed: a game to 5 can end in its first deal, and a one-deal game has
# no chart (its curve is one point); this seed's game takes several deals
@pytest.mark.parametrize("bot_settings", [{"seed": 11}])
async def test_the_final_post_has_the_score_chart_and_says_who_won_and_how(
    simcord_env: Any,
) -> None:
    env = simcord_env
    _, channel, alice, _ = await _seat_alice_with_ai(env, target=5)
    await _play_to_the_end(env, channel, alice)
    await env.settle()
    feed = [m for c in [channel, *channel.threads] for m in c.history()]
    final = next(m for m in feed if m.content.startswith("🃏 Table #") and "How " in m.content)
    deals = sum(1 for m in feed if "**Deal " in m.content and " of game " in m.content)
    assert deals >= 2, deals  # a game of several deals: its curve is worth a chart
    assert [a.filename for a in final.attachments] == ["score.png"]
    assert "score chart" in (final.attachments[0].description or "")
    assert "scored in" in final.content
    assert any(word in final.content for word in ("on tricks", "honours", "Can-ye", "contract"))
    table = table_message(channel)
    assert "finished" in message_text(table) and "How " in message_text(table)
    assert "Rematch" in button_labels(table)
    dm = hand_message(alice).content
    assert "The game is over — you " in dm and "How " in dm


# A fixed deal that scores for someone: with a random one the first deal may score for
# nobody (six tricks each, no honours), and the target-1 game then takes a second deal.
@pytest.mark.parametrize("bot_settings", [{"seed": 3}])
async def test_a_one_deal_game_ends_without_a_score_chart(simcord_env: Any) -> None:
    """A game decided in its first deal has no curve to show: the final post says who
    won and how, with no chart (issue #37: a one-deal chart of 5 px text)."""
    env = simcord_env
    _, channel, alice, _ = await _seat_alice_with_ai(env, target=1)
    await _play_to_the_end(env, channel, alice)
    await env.settle()
    feed = [m for c in [channel, *channel.threads] for m in c.history()]
    final = next(m for m in feed if m.content.startswith("🃏 Table #") and "How " in m.content)
    deals = sum(1 for m in feed if "**Deal " in m.content and " of game " in m.content)
    assert deals == 1, deals
    assert final.attachments == [], [a.filename for a in final.attachments]
    assert "scored in" in final.content
    assert not any(a.filename == "score.png" for m in feed for a in m.attachments)


async def test_each_table_gets_a_thread_where_summaries_go_and_the_table_stays_current(
    simcord_env: Any,
) -> None:
    env = simcord_env
    _, channel, alice, _ = await _seat_alice_with_ai(env, target=2)
    threads = channel.threads
    assert len(threads) == 1, "a thread started from the table message"
    thread = threads[0]
    assert "Table #1" in (thread.name or "")
    table = env.bot.manager.tables[1]
    assert table.thread_id == thread.id
    assert (await env.bot.manager.services.table_repo.get(1)).settings[
        "thread_id"
    ] == thread.id  # kept over a restart
    await _play_to_the_end(env, channel, alice)
    await env.settle()
    in_channel = [
        message_text(m)
        for m in channel.history()
        if m.type is not discord.MessageType.thread_created
    ]
    in_thread = [m.content for m in thread.history()]
    assert any("**Deal 1 of game 1**" in c for c in in_thread), "deal summaries go to the thread"
    assert not any("**Deal 1 of game 1**" in c for c in in_channel)
    assert len(in_channel) == 1 and "finished" in in_channel[0], (
        "the channel holds just the table, kept current"
    )


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
    assert env.bot.manager.tables[1].settings.thread_id == 0
    await _play_to_the_end(env, channel, alice)
    await env.settle()
    assert any("**Deal 1 of game 1**" in m.content for m in channel.history())


@pytest.mark.parametrize("bot_settings", [{"turn_timeout": 90.0, "turn_ping_delay": 10.0}])
async def test_a_turn_ping_with_a_relative_deadline_is_removed_once_you_play(
    simcord_env: Any,
) -> None:
    env = simcord_env
    _, channel, alice, _ = await _seat_alice_with_ai(env)
    thread = channel.threads[0]
    table = env.bot.manager.tables[1]
    await env.settle()
    await env.advance_time(5)
    assert not any(m.content.startswith("🔔") for m in thread.history()), (
        "no ping while the player may be looking"
    )
    await env.advance_time(6)
    pings = [m for m in thread.history() if m.content.startswith("🔔")]
    assert len(pings) == 1, [
        (m.content, table.game.version, table.game.to_act(), shown_of(table).notices) for m in pings
    ]
    ping = pings[0].content
    assert f"<@{alice.id}>" in ping and "your turn at table #1" in ping
    assert re.search(r"<t:\d+:R>", ping), ping
    assert int(re.search(r"<t:(\d+):R>", ping).group(1)) == pytest.approx(
        table.drive.deadline, abs=2
    )  # type: ignore[union-attr]
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
    assert len(notes) == 2 and notes[1].startswith(
        f"⏳ <@{alice.id}>, your turn at table #1 ends <t:"
    ), notes
    await _act(alice)
    await env.settle()
    table = env.bot.manager.tables[1]
    left = [(m.content, m.id) for m in thread.history() if m.content.startswith(("🔔", "⏳"))]
    assert not any(c.startswith("⏳") for c, _ in left), (
        "the warning is removed once the player moves"
    )
    assert all(table.game.to_act() == 0 for _ in left), (
        "only a ping of a turn still waiting is left"
    )


@pytest.mark.parametrize("bot_settings", [{"turn_timeout": 90.0, "turn_ping_delay": 10.0}])
async def test_a_player_who_moves_within_the_ping_delay_is_never_pinged(simcord_env: Any) -> None:
    env = simcord_env
    _, channel, alice, _ = await _seat_alice_with_ai(env)
    thread = channel.threads[0]
    table = env.bot.manager.tables[1]
    for _ in range(3):  # three turns of hers, each played 4 s into it
        await env.settle()
        assert table.game is not None and table.game.to_act() == 0
        await env.advance_time(4)
        await _act(alice)
    await env.settle()
    await env.advance_time(4)
    assert not any(m.content.startswith("🔔") for m in thread.history())
    await env.advance_time(7)  # her fourth turn now waits 11 s: pinged
    assert [m.content for m in thread.history() if m.content.startswith("🔔")][:1], (
        "pinged once she is away"
    )


@pytest.mark.parametrize(
    "bot_settings", [{"turn_timeout": 90.0, "turn_ping_delay": 10.0, "seed": 9}]
)
async def test_a_player_who_wins_the_trick_then_looks_away_is_pinged_to_lead(
    simcord_env: Any,
) -> None:
    """Her click wins the trick and the lead is hers at once; she does not lead for the
    ping delay: she has looked away since her click, so the ping comes as for any turn."""
    env = simcord_env
    _, channel, alice, _ = await _seat_alice_with_ai(env)
    thread = channel.threads[0]
    for _ in range(3):
        await env.settle()
        await env.advance_time(4)
        await _act(alice)
    await env.settle()
    dm = hand_message(alice).content
    assert "Your turn — lead" in dm and "won by **you**" in dm, dm  # (this seed's deal)
    await env.advance_time(9)
    assert not [m for m in thread.history() if m.content.startswith("🔔")]
    await env.advance_time(2)
    pings = [m.content for m in thread.history() if m.content.startswith("🔔")]
    assert len(pings) == 1 and f"<@{alice.id}>" in pings[0], pings


# ---------------------------------------------------------------- buttons and the ruff's menu (pure)


def _card_of_label(label: str) -> Card:
    return label_to_card(label)


def test_card_rows_one_suit_a_row_long_suits_split_and_packed_to_fit() -> None:
    suits = {s: [c for c in sort_hand(full_deck(), None) if c.suit is s] for s in Suit}
    s, h, d, c = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
    hand = suits[s][:7] + suits[h][:3] + suits[d][:2] + suits[c][:1]
    rows = card_rows(hand, 4)
    assert [len(r) for r in rows] == [4, 3, 3, 3], (
        "7 spades split 4 + 3; the two shortest suits share a row"
    )
    assert {x.suit for x in rows[0]} == {x.suit for x in rows[1]} == {s}
    assert {x.suit for x in rows[2]} == {h}
    hand = suits[s][:4] + suits[h][:3] + suits[d][:3] + suits[c][:3]
    assert [[x.suit for x in r] for r in card_rows(hand, 4)] == [[s] * 4, [h] * 3, [d] * 3, [c] * 3]


def test_card_buttons_colour_means_playable_rows_by_suit_trumps_first() -> None:
    from engine import new_game

    game, _ = new_game(seed=4)
    checked = 0
    while not game.is_over and checked < 30:
        seat = game.to_act()
        assert seat is not None
        view = game.observe(seat)
        if game.phase == "play":
            rows = hand_controls(1, game.version, view).to_components()
            legal = {a.card for a in view.legal if isinstance(a, Play)}
            rows = [
                r for r in rows if all(":play:" in b.get("custom_id", "") for b in r["components"])
            ]  # not the claim row
            cards = [
                (b, _card_of_label(b["label"]))
                for row in rows
                for b in row["components"]
                if b["type"] == 2
            ]
            assert {card for b, card in cards if not b["disabled"]} == legal
            for b, card in cards:
                want = (
                    discord.ButtonStyle.success if card in legal else discord.ButtonStyle.secondary
                )
                assert b["style"] == want.value, (b, card)  # one colour: "you may play this"
            suit_rows = [
                [_card_of_label(b["label"]).suit for b in row["components"]] for row in rows
            ]
            per_suit = Counter(card.suit for _, card in cards)
            if sum(-(-n // 5) for n in per_suit.values()) <= 4:  # room for a row (or two) per suit
                assert all(len(set(r)) == 1 for r in suit_rows)
                if view.trump in {card.suit for _, card in cards}:
                    assert suit_rows[0][0] is view.trump, "trumps first"
            checked += 1
        game.apply(seat, view.legal[-1])
    assert checked >= 10


def test_the_ruff_menu_offers_the_lowest_non_trumps_first_with_descriptions() -> None:
    from engine import new_game

    game, _ = new_game(seed=4)
    seat = game.to_act()
    assert game.phase == "ruff" and seat is not None
    game.apply(seat, TakeRuff())
    view = game.observe(seat)
    assert view.phase == "discard"
    (row,) = hand_controls(1, game.version, view).to_components()
    (menu,) = row["components"]
    options = menu["options"]
    cards = [Card.parse(o["value"]) for o in options]
    trumps = [c for c in cards if c.suit is view.trump]
    plain = [c for c in cards if c.suit is not view.trump]
    assert cards == plain + trumps, "non-trumps first, trumps last"
    assert [int(c.rank) for c in plain] == sorted(int(c.rank) for c in plain), "lowest first"
    for option, card in zip(options, cards, strict=True):
        if card.suit is view.trump:
            honour = card.rank.label in "AKQJ"
            assert option["description"] == ("trump · honour" if honour else "trump")
        else:
            assert option["description"] == card.suit.name.lower()
    assert menu["min_values"] == menu["max_values"] == 4


@pytest.mark.parametrize("bot_settings", [{"turn_timeout": 60.0}])
async def test_the_hand_dm_says_what_to_do_first_and_what_the_ai_played_for_you(
    simcord_env: Any,
) -> None:
    env = simcord_env
    _, channel, alice, _ = await _seat_alice_with_ai(env)
    table = env.bot.manager.tables[1]
    dm = hand_message(alice).content
    assert dm.splitlines()[0].startswith("🟢 **Your turn"), dm
    version = table.version
    await env.advance_time(61)  # her time runs out: the AI plays her turn
    await env.settle()
    assert table.version > version
    seat, action = table.game.log[version]
    assert seat == 0
    dm = hand_message(alice).content
    note = next(line for line in dm.splitlines() if line.startswith("⏰ Your time ran out"))
    assert note.startswith(f"⏰ Your time ran out: the AI played **{render.action_label(action)}")
    for _ in range(40):  # play on until she clicks: then the note goes
        if await _act(alice):
            break
        await env.advance_time(1)
    await env.settle()
    assert "Your time ran out" not in hand_message(alice).content


@pytest.mark.parametrize("bot_settings", [{"turn_timeout": 90.0}])
async def test_a_ping_left_by_a_restart_is_deleted_once_its_turn_passes(
    simcord_env: Any, db_path: Path, bot_settings: dict[str, Any], more_bots: list[Any]
) -> None:
    env = simcord_env
    _, channel, alice, _ = await _seat_alice_with_ai(env)
    thread = channel.threads[0]
    await env.settle()
    pings = [m.id for m in thread.history() if m.content.startswith("🔔")]
    assert len(pings) == 1
    await restart(env, more_bots, make_settings(db_path, **bot_settings))
    await env.settle()
    assert [m.id for m in thread.history() if m.content.startswith("🔔")] == pings, (
        "still her turn: kept, not doubled"
    )
    await _act(alice)
    await env.settle()
    left = [m.id for m in thread.history() if m.content.startswith("🔔")]
    assert pings[0] not in left, "the old bot's ping is deleted by the new one once she played"


async def test_pictures_that_wait_for_the_painter_are_drawn_once_each_of_the_latest_state(
    simcord_env: Any,
) -> None:
    """While the painter rests (pictures take at most a quarter of a core), a move's
    edit goes out with its text and the picture waits, once per table however many
    moves; the waiting pictures are then drawn of each table's latest state, and a
    table that left memory meanwhile is skipped."""
    from bot.present.picture import picture_key

    env = simcord_env
    _, channel, alice, _ = await _seat_alice_with_ai(env)
    await _act(alice)
    await env.settle()
    manager = env.bot.manager
    presenter = manager.presenter
    table = manager.tables.open_in_channel(channel.id)
    assert table is not None
    loop = asyncio.get_running_loop()
    presenter._rested_at = loop.time() + 3600  # resting after a long picture
    first = shown_of(table).pictures.last
    moved = 0
    while (
        moved < 2 and not table.game.is_over
    ):  # the game moves on: the text goes, the picture waits
        moved += await _act(alice)
        await env.settle()
    assert moved == 2
    assert shown_of(table).pictures.last is first  # nothing drawn yet
    assert list(presenter._redraw) == [table.id]  # once, however many changes
    assert presenter._redrawing is not None
    presenter._redrawing.cancel()  # the resting worker: its work is done below, in the test's time
    presenter._redrawing = None
    presenter._redraw[999_999] = None  # a table that ended and left memory meanwhile
    presenter._rested_at = 0.0  # rested
    await presenter._draw_waiting()
    assert not presenter._redraw
    info = table.info()
    assert shown_of(table).pictures.last is not None
    assert shown_of(table).pictures.last.key == picture_key(
        info, table.game.observe(0), info.names
    )  # the latest
    await env.settle()
    assert (
        _pictures(table_message(channel))[0].description
        == shown_of(table).pictures.last.description
    )
