"""``/ruff event create format:async``: an asynchronous event. Members play the event's
boards alone against the AI in their DMs, one after the other from a button, until a
deadline; nobody sees anyone else's result or the boards' cards before it closes; the
deadline (passing after a restart) closes it, a board in play is stopped, and the
final standings posted equal an independent scorer's (unplayed boards 25%)."""

from __future__ import annotations

import random
import re
import sqlite3
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.store import DailyRepo, EventRepo, TableRepo

from .conftest import make_settings, restart
from .daily_play import board_table, dm_messages, latest_board, play_board
from .helpers import forged_click, is_table_message

pytestmark = pytest.mark.slow  # whole boards through the simulator

FAST = {"daily_worlds": 8}  # the fixed AI's deals a decision: a short test
HOURS_36 = 36 * 3600


@pytest.fixture
def bot_settings() -> dict[str, Any]:
    return dict(FAST)


def _event_message(channel: Any) -> discord.Message:
    return next(m for m in channel.history() if m.content.startswith("🏆 **Event #1**"))


def _buttons(message: discord.Message) -> list[str]:
    return [str(c.label) for row in message.components for c in getattr(row, "children", [])]


def _independent_standings(db_path: Path, boards: int) -> dict[int, Fraction]:
    """Each entrant's score from the stored rows, by docs/events.md's rules for the
    asynchronous format, written here without the bot's code: on each board, 1 for each
    other entrant's result beaten and ½ a tie, as a percentage (50 alone); a board not
    finished before the deadline 25%; the average over all the event's boards."""
    con = sqlite3.connect(db_path)
    con.row_factory = sqlite3.Row
    deadline = con.execute("SELECT deadline_at FROM events WHERE id = 1").fetchone()[0]
    entrants = [r["user_id"] for r in con.execute("SELECT user_id FROM event_entries")]
    results: dict[int, dict[int, int]] = defaultdict(dict)
    for r in con.execute("SELECT * FROM daily_results WHERE series LIKE 'event-1-%'"):
        if r["result"] is not None and r["finished_at"] < deadline:
            results[r["number"]][r["user_id"]] = r["result"]
    out = {}
    for user in entrants:
        total = Fraction(0)
        for number in range(1, boards + 1):
            mine = results[number].get(user)
            if mine is None:
                total += 25
                continue
            others = [v for u, v in results[number].items() if u != user]
            if not others:
                total += 50
                continue
            points = sum(
                Fraction(1) if mine > o else Fraction(1, 2) if mine == o else Fraction(0)
                for o in others
            )
            total += 100 * points / len(others)
        out[user] = total / boards
    return out


def _seen_by(member: Any, channel: Any) -> list[str]:
    """Every text a member can read: the event's channel and their own DMs."""
    texts = [m.content for m in channel.history(viewer=member)]
    dm = member.user.dm_channel
    if dm is not None:
        texts += [m.content for m in dm.history()]
    return texts


async def test_an_async_event_from_creation_to_the_deadline(
    simcord_env: Any, db_path: Path, more_bots: list[Any]
) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("events")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    tess = guild.add_member(env.create_user("tess"), roles=[mods])
    ann, bob, cat, dan = (
        guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat", "dan")
    )
    elsewhere = env.create_guild(name="Other Room")
    other = elsewhere.create_text_channel("cards")
    eve = elsewhere.add_member(env.create_user("eve"))

    create = {"game": "whist-5", "format": "async", "boards": 2}
    for given, said in (
        ("soon", "can't read the deadline 'soon'"),
        ("30m", "from 1 hour to 14 days; '30m' is not"),
        ("15d", "from 1 hour to 14 days; '15d' is not"),
    ):
        res = await tess.slash(channel, "ruff event create", deadline=given, **create)
        assert res.ephemeral and said in res.response.content, res.response.content
    res = await ann.slash(channel, "ruff event create", deadline="36h", **create)
    assert res.ephemeral and "Manage Server" in res.response.content
    assert await EventRepo(env.bot.db).get(1) is None  # the refusals made nothing
    res = await tess.slash(channel, "ruff event create", deadline="36h", starts_in=60, **create)
    assert "Event #1 opens" in res.response.content, res.response.content
    message = _event_message(channel)
    assert "Asynchronous · 2 boards alone against the AI" in message.content
    assert _buttons(message) == ["Join", "Leave"]
    for m in (ann, cat):
        res = await m.click(_event_message(channel), label="Join")
        assert res.ephemeral and "You are in" in res.response.content
    res = await cat.click(_event_message(channel), label="Join")
    assert "nothing changed" in res.response.content
    res = await tess.slash(channel, "ruff event start")
    assert "The event is open" in res.response.content, res.response.content
    await env.settle()
    assert any(
        m.content.startswith("🏆 Event #1 is open") and f"<@{ann.id}>" in m.content
        for m in channel.history()
    )
    assert _buttons(_event_message(channel)) == ["▶ Play", "Leave"]

    # ann: board 1 from the channel, board 2 from the button under board 1's result
    res = await ann.click(_event_message(channel), label="▶ Play")
    assert res.ephemeral and "Event #1: board 1 of 2 (Whist 5-Point)" in res.response.content
    res = await ann.click(_event_message(channel), label="▶ Play")  # twice: resumed
    assert "Your board 1 of 2 of event #1 is in play" in res.response.content
    first, _clicks = await play_board(env, ann, random.Random(1))
    done = next(m for m in dm_messages(ann) if m.content.startswith("✅ **Board 1/2**"))
    assert _buttons(done) == ["▶ Board 2", "The deal", "Review"]
    assert "the others' results when it closes" in done.content
    for verb in ("share", "post", "next"):  # the daily boards' buttons, forged: refused
        res = await forged_click(env, ann.user, done, f"dy:{verb}:{first.id}")
        assert res.ephemeral and "%" not in res.response.content, res.response.content
    res = await ann.user.click(done, label="▶ Board 2")
    assert res.acknowledged
    second, _clicks = await play_board(env, ann, random.Random(2))
    assert first.seed != second.seed and second.settings.board.endswith("/2")
    res = await ann.click(_event_message(channel), label="▶ Play")
    assert "You have played every board of event #1" in res.response.content
    res = await forged_click(env, ann.user, done, "ev:1:play")  # board 1's spent ▶, forged
    assert res.ephemeral and "played every board" in res.response.content
    assert (
        len(
            await DailyRepo(env.bot.db).of_player(
                ann.id, "whist-5", first.settings.board.split("/")[2]
            )
        )
        == 2
    )

    # bob enters with ▶ Play, plays board 1 (the same deal as ann's), begins board 2
    res = await bob.click(_event_message(channel), label="▶ Play")
    assert "board 1 of 2" in res.response.content
    mine, _clicks = await play_board(env, bob, random.Random(3))
    assert mine.seed == first.seed and mine.seat_of(bob.id) == first.seat_of(ann.id)
    res = await bob.user.click(
        next(m for m in dm_messages(bob) if m.content.startswith("✅ **Board 1/2**")),
        label="▶ Board 2",
    )
    in_play = board_table(env, bob.id)
    assert in_play is not None and in_play.settings.board.endswith("/2")

    # bad input: another server's member, a forged event, leaving after playing
    res = await forged_click(env, eve, await eve.send(other, "hello"), "ev:1:play")
    assert res.ephemeral and "no such event" in res.response.content
    res = await forged_click(env, dan.user, await dan.send_dm("hello"), "ev:1:play")
    assert res.ephemeral and "You are not in event #1" in res.response.content
    res = await eve.slash(other, "ruff event standings", event=1)
    assert "no such event" in res.response.content
    res = await forged_click(env, ann, _event_message(channel), "ev:999:play")
    assert res.ephemeral and "no such event" in res.response.content
    res = await bob.click(_event_message(channel), label="Leave")
    assert "you stay in" in res.response.content
    res = await forged_click(env, cat, _event_message(channel), "ev:1:checkin")
    assert "no check-in" in res.response.content

    entrants = {e.user_id for e in await EventRepo(env.bot.db).entries(1)}
    assert entrants == {ann.id, bob.id, cat.id}  # the refusals entered nobody

    # before the close: who has played, no score; nobody sees anyone else's result
    res = await dan.slash(channel, "ruff event standings")
    before = res.response.content
    assert "3 entrants · all 2 boards played: 1 · begun: 1 · not begun: 1" in before, before
    assert "ann 2/2 · bob 1/2 · cat 0/2" in before and "%" not in before
    names = {m.id: m.user.name for m in (ann, bob, cat)}
    results = {
        (e.user_id, e.number): e.result
        for e in await DailyRepo(env.bot.db).of_series(
            "whist-5", [first.settings.board.split("/")[2]]
        )
    }
    for member in (tess, ann, bob, cat, dan):
        seen = _seen_by(member, channel)
        # the channel shows no table and no card: the boards are in each player's DM
        for m in channel.history(viewer=member):
            assert not is_table_message(m) and "🂠" not in m.content
        assert not any("final results" in t or "traveller" in t for t in seen)
        for t in seen:  # no other entrant named beside a result, in DMs or the channel
            for (user, _n), result in results.items():
                if user != member.id and result is not None:
                    assert f"{names[user]} — " not in t, (member.user.name, t)
        dm = member.user.dm_channel
        own = [] if dm is None else [m.content for m in dm.history()]
        for other_id, name in names.items():
            if other_id != member.id:
                assert not any(name in t for t in own), (member.user.name, name)

    # every board's cards went only to its own player's DM
    for table in env.bot.manager.tables.values():
        if not table.settings.board:
            continue
        (player,) = [s.user_id for s in table.seats if hasattr(s, "user_id")]
        dm = {ann.id: ann, bob.id: bob}[player].user.dm_channel
        assert {channel_id for channel_id, _m in table.hand_messages.values()} == {dm.id}

    # a restart, then the deadline passes: the event closes by itself
    new = await restart(env, more_bots, make_settings(db_path, **FAST))
    await env.settle()
    event = await EventRepo(new.db).get(1)
    assert event is not None and event.state == "running" and event.deadline_at is not None
    await env.advance_time(event.deadline_at - env.now().timestamp() + 1)
    await env.settle()
    event = await EventRepo(new.db).get(1)
    assert event is not None and event.state == "finished"
    row = await TableRepo(new.db).get(in_play.id)
    assert row is not None and row.status == "cancelled"  # bob's board 2: stopped, 25%
    hand = latest_board(env, bob.id)
    assert hand is None or hand.status != "active"
    assert any("closed before this board was finished" in m.content for m in dm_messages(bob))

    posts = [m.content for m in channel.history()]
    final = next(p for p in posts if p.startswith("🏁 **Event #1: final results**"))
    shown: dict[str, tuple[str, float, str]] = {}
    for line in final.splitlines()[1:]:
        match = re.match(r"`\s*(=?\d+|-)` (\w+) — ([\d.]+)% · (\d)/2", line)
        if match:
            shown[match[2]] = (match[1], float(match[3]), match[4])
    expected = _independent_standings(db_path, 2)
    assert set(shown) == {"ann", "bob", "cat"}, final
    for user, score in expected.items():
        assert shown[names[user]][1] == round(float(score), 1), (names[user], final)
    assert shown["cat"][1] == 25.0 and shown["cat"][2] == "0"
    assert [shown[n][2] for n in ("ann", "bob")] == ["2", "1"]
    order = sorted(shown, key=lambda n: -shown[n][1])
    assert list(shown) == order  # ranked best first
    travellers = next(p for p in posts if p.startswith("📋 **Event #1"))
    for (user, number), result in results.items():
        if result is not None:
            block = travellers.split(f"**Board {number}**")[1].split("**Board")[0]
            assert re.search(rf"`\s*{re.escape(f'{result:+d}')}` {names[user]} — ", block), (
                travellers
            )
    assert "1 entrant did not finish it (25%)" in travellers  # board 1: cat
    # each entrant's last result DM says the event closed: bob's board 1 offered
    # **▶ Board 2** (refused once closed) and ann's said when it would close
    await new.manager.services.notifier.flush()
    await env.settle()
    for member, board in ((bob, 1), (ann, 2)):
        last = next(
            m for m in dm_messages(member) if m.content.startswith(f"✅ **Board {board}/2**")
        )
        assert _buttons(last) == ["The deal", "Review"], _buttons(last)
        lines = last.content.splitlines()
        assert lines[1:] == [
            "-# Event #1 · Whist 5-Point",
            "Event #1 has closed: the results are in its channel.",
        ], last.content
    assert _buttons(_event_message(channel)) == []
    res = await bob.slash(channel, "ruff event standings")
    assert res.response.content == final
    res = await forged_click(env, bob, _event_message(channel), "ev:1:play")
    assert res.ephemeral and "Event #1 is closed" in res.response.content
    assert (
        len(
            await DailyRepo(new.db).of_player(bob.id, "whist-5", first.settings.board.split("/")[2])
        )
        == 2
    )
    # the event's boards are not the daily deals': not in the all-time standings
    res = await ann.slash(channel, "ruff daily", game="whist-5", standings="all")
    assert "ann" not in res.response.content
