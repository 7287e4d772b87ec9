"""The coach through the real bot: the Review button under a deal summary, ``/ruff review``
and ``/ruff puzzle``, end to end — private answers, nothing of a deal in play revealed,
strangers and forged ids refused, reviews and puzzles kept in the database."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.present.render import card_text
from engine import Card

from .helpers import (
    enabled_cards,
    enabled_labels,
    feed,
    find_select,
    forged_click,
    hand_message,
    raw_buttons,
    table_message,
)


def _refused(res: Any, text: str) -> str:
    assert res.ephemeral, res
    content: str = res.response.content
    assert text in content, content
    return content


async def _play_first_deal(env: Any, channel: Any, alice: Any) -> Any:
    """alice (North) and three easy AIs play Whist 5-Point to 15; alice plays her last playable
    card each time (a careless player) until the first deal is over."""
    # a review takes seconds of CPU in its worker thread
    env.settle_timeout = 120.0
    await alice.slash(channel, "ruff new", game="whist-5", target=15)
    for _ in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Start")
    table = env.bot.manager.tables[1]
    for _ in range(60):
        if table.game.deals_total > 1 or table.game.is_over:
            break
        hand = hand_message(alice)
        cards = enabled_cards(hand)
        if not cards and "Accept the claim" in hand.content:
            await alice.user.click(hand, label="Accept the claim")
            continue
        assert cards, hand.content
        await alice.user.click(hand, label=cards[-1])
    assert table.game.deals_total == 2 and not table.game.is_over
    return table


def _rows(db_path: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as con:
        return con.execute(sql).fetchall()


@pytest.mark.parametrize("bot_settings", [{"seed": 7}])
async def test_review_and_puzzle_end_to_end(simcord_env: Any, db_path: Path) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    table = await _play_first_deal(env, channel, alice)
    in_play = {str(c) for c in table.game.hand(0)}  # deal 2's hand: never shown by the coach

    # ---- the Review button under the first deal's summary: alice's review, privately
    summary = next(m for m in feed(channel) if "**Deal 1 of game 1**" in m.content)
    res = await alice.click(summary, label="Review my play")
    assert res.ephemeral and res.acknowledged
    text = res.response.content
    assert "Review of table #1, deal 1" in text and "North" in text, text
    headline = text.splitlines()[1]  # "2 mistakes, 1 inaccuracy — your side took 5 tricks of 13."
    assert "your side took" in headline and "of 13." in headline, text
    counted = re.match(r"(\d+) mistakes?\b", headline)
    assert counted is not None, text  # the careless player's costly cards (the seed fixes the deal)
    flagged = int(counted[1])
    shown = sum(line.startswith("⚠️ ") for line in text.splitlines())
    assert flagged >= 1 and shown == min(flagged, 3), text  # at most three spelled out
    stored = _rows(db_path, "SELECT table_id, deal, seat FROM deal_reviews")
    assert stored == [(1, 1, 0)]
    assert len(_rows(db_path, "SELECT id FROM puzzles WHERE user_id <> 0")) == flagged

    # the same review by command: from the database, the same words
    res = await alice.slash(channel, "ruff review", table=1, deal=1)
    assert res.ephemeral and res.response.content == text
    # the figures behind it, one tap away (not in the review itself)
    assert "±" not in text
    assert [b["custom_id"] for b in raw_buttons(res.response.components)] == ["rc:d:1:1"]
    res = await alice.click(res.response, custom_id="rc:d:1:1")
    assert res.ephemeral and "±" in res.response.content, res.response.content

    # ---- the deal in play is refused, for its player too, and shows nothing of it
    res = await alice.slash(channel, "ruff review", table=1, deal=2)
    content = _refused(res, "still being played")
    assert not any(card_text(Card.parse(c)) in content for c in in_play)
    _refused(
        await alice.slash(channel, "ruff review", table=1, deal=7), "choose a deal from 1 to 2"
    )
    _refused(await alice.slash(channel, "ruff review", table=99), "There is no table #99")
    # ---- a spectator may not review a player's cards
    _refused(await bob.click(summary, label="Review my play"), "Reviews are for the players")
    _refused(
        await bob.slash(channel, "ruff review", table=1, deal=1), "Reviews are for the players"
    )
    # ---- forged ids: refused, nothing stored
    _refused(await forged_click(env, alice, summary, "rc:v:1:x"), "not recognised")
    _refused(await forged_click(env, alice, summary, "rc:p:999:AS"), "not here any more")
    assert _rows(db_path, "SELECT COUNT(*) FROM deal_reviews") == [(1,)]
    assert _rows(db_path, "SELECT COUNT(*) FROM puzzle_attempts") == [(0,)]

    # ---- /ruff puzzle: alice's own flagged position, only what North knew then
    res = await alice.slash(channel, "ruff puzzle")
    assert res.ephemeral
    puzzle = res.response
    assert "**Puzzle #" in puzzle.content and "(from one of your games)" in puzzle.content
    assert "**Which card?**" in puzzle.content
    assert "0 solved, 0 not yet" in puzzle.content
    pid, body = _rows(db_path, "SELECT id, body FROM puzzles ORDER BY id LIMIT 1")[0]
    position = json.loads(body)
    # the position as the table showed it: its picture, and the hand as the hand DM's
    # card buttons (every card; the legal ones green and live), so not listed in the text
    assert [a.filename for a in puzzle.attachments] == ["puzzle.png"]
    assert "Your hand:" not in puzzle.content
    cards = [b for b in raw_buttons(puzzle.components) if b["custom_id"].startswith("rc:p:")]
    assert sorted(b["custom_id"] for b in cards) == sorted(
        f"rc:p:{pid}:{c}" for c in position["hand"]
    )
    live = {b["custom_id"] for b in cards if not b["disabled"]}
    assert live == {f"rc:p:{pid}:{c}" for c in position["legal"]}
    ids = [b["custom_id"] for b in raw_buttons(puzzle.components)]
    assert ids[-2:] == [f"rc:s:{pid}", f"rc:n:{pid}"]
    # a wrong card (the one played in the game) is judged with the figures and counted
    played = Card.parse(position["played"])
    res = await alice.click(puzzle, custom_id=f"rc:p:{pid}:{played}")
    verdict = res.response.content
    assert res.ephemeral and "❌" in verdict and "more on average than" in verdict, verdict
    assert card_text(Card.parse(position["best"])) in verdict
    answered = [b["custom_id"] for b in raw_buttons(res.response.components)]
    assert answered == [f"rc:s:{pid}", f"rc:n:{pid}"]
    assert _rows(db_path, "SELECT solved FROM puzzle_attempts") == [(0,)]
    # the best card solves it
    res = await alice.click(puzzle, custom_id=f"rc:p:{pid}:{position['best']}")
    assert "✅" in res.response.content
    # a right answer too offers the solution (the why) and the next puzzle
    answered = [b["custom_id"] for b in raw_buttons(res.response.components)]
    assert answered == [f"rc:s:{pid}", f"rc:n:{pid}"]
    assert _rows(db_path, "SELECT solved FROM puzzle_attempts") == [(1,)]
    # a card not among the choices is refused and changes nothing
    other = next(
        c for c in (Card.from_index(i) for i in range(52)) if str(c) not in position["legal"]
    )
    _refused(
        await forged_click(env, alice, puzzle.message, f"rc:p:{pid}:{other}"),
        "not one of the choices",
    )
    assert _rows(db_path, "SELECT solved FROM puzzle_attempts") == [(1,)]

    # bob, who has no puzzle of his own, is not served alice's while her game goes on
    _refused(await bob.slash(channel, "ruff puzzle"), "No puzzle is waiting for you")
    res = await forged_click(env, bob, summary, f"rc:p:{pid}:{position['best']}")
    _refused(res, "not here any more")  # nor answered by a forged id
    assert _rows(db_path, "SELECT user_id FROM puzzle_attempts") == [(alice.user.id,)]


@pytest.mark.parametrize("bot_settings", [{"seed": 7}])
async def test_a_review_that_could_outlast_the_token_comes_by_dm(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the queue could keep a review past the interaction's 15-minute token, the
    asker is told at once and the review comes by direct message."""
    import bot.features.coach.coach as coach

    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    await _play_first_deal(env, channel, alice)
    monkeypatch.setattr(coach, "TOKEN_MARGIN", 0.0)  # every wait counts as too long
    res = await alice.slash(channel, "ruff review", table=1, deal=1)
    assert res.ephemeral and "will come by direct message" in res.response.content
    dm = hand_message(alice)  # the bot's latest DM to alice
    assert "Review of table #1, deal 1" in dm.content and "your side took" in dm.content


async def _bid_misere_and_play(env: Any, channel: Any, alice: Any) -> Any:
    """alice (North) and three easy AIs at Solo Whist: alice calls Misère at her first
    call, whatever her hand, then plays her last playable card until the deal is over."""
    env.settle_timeout = 120.0
    await alice.slash(channel, "ruff new", game="solo-whist")
    for _ in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Start")
    table = env.bot.manager.tables[1]
    called = False
    for _ in range(80):
        if table.game.deals_total > 1 or table.game.is_over:
            break
        if any("**Deal 1 of game 1**" in m.content for m in feed(channel)):
            break  # each deal is a game: the deal is over
        hand = hand_message(alice)
        labels = enabled_labels(hand)
        menu = find_select(hand)  # the calls' menu, each call with what it undertakes
        offered = [o.value for o in menu.options] if menu is not None else []
        if not called and "bid:mis" in offered:
            await alice.user.select(hand, ["bid:mis"])
            called = True
            continue
        if not called and "Pass" in labels:  # someone bid above Misère already: pass, deal again
            await alice.user.click(hand, label="Pass")
            continue
        if "Accept the claim" in hand.content:
            await alice.user.click(hand, label="Accept the claim")
            continue
        cards = enabled_cards(hand)
        assert cards, hand.content
        await alice.user.click(hand, label=cards[-1])
    assert called
    return table


@pytest.mark.slow
@pytest.mark.parametrize("bot_settings", [{"seed": 3}])
async def test_a_bad_call_is_reviewed_and_becomes_a_puzzle(simcord_env: Any, db_path: Path) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("solo")
    alice = guild.add_member(env.create_user("alice"))
    table = await _bid_misere_and_play(env, channel, alice)
    in_play = {str(c) for c in table.game.hand(0)} if table.game.deals_total > 1 else set()
    res = await alice.slash(channel, "ruff review", table=1, deal=1)
    text = res.response.content
    assert res.ephemeral and "Before the play: you chose Misère" in text, text
    assert text.splitlines()[2].startswith("⚠️ "), text  # the costliest, flagged first
    assert not any(card_text(Card.parse(c)) in text for c in in_play)
    # ---- the call is a puzzle: the calls as the auction DM shows them (the pass a
    # button, the calls in the menu with what each undertakes), answered from there
    res = await alice.slash(channel, "ruff puzzle")
    puzzle = res.response
    assert "Before the play" in puzzle.content and "What do you choose?" in puzzle.content
    pid, body = _rows(db_path, "SELECT id, body FROM puzzles ORDER BY id LIMIT 1")[0]
    position = json.loads(body)
    assert position["played"] == "bid:mis" and position["kind"] == "call"
    menu = next(b for b in raw_buttons(puzzle.components) if b["type"] == 3)
    assert menu["custom_id"] == f"rc:c:{pid}:0"
    offered = [o["value"] for o in menu["options"]]
    shown = [b for b in raw_buttons(puzzle.components) if b["custom_id"].startswith("rc:p:")]
    assert sorted(
        offered + [position["legal"][int(b["custom_id"].rsplit("o", 1)[1])] for b in shown]
    ) == sorted(position["legal"])
    assert "Misère" in [o["label"] for o in menu["options"]]
    assert all(o.get("description") for o in menu["options"])  # what each call undertakes
    res = await alice.select(puzzle, ["bid:mis"], custom_id=f"rc:c:{pid}:0")
    assert "❌" in res.response.content and "Misère" in res.response.content
    answered = [b["custom_id"] for b in raw_buttons(res.response.components)]
    assert answered == [f"rc:s:{pid}", f"rc:n:{pid}"]
    best = position["best"]
    if best in offered:
        res = await alice.select(puzzle, [best], custom_id=f"rc:c:{pid}:0")
    else:
        res = await alice.click(puzzle, custom_id=f"rc:p:{pid}:o{position['legal'].index(best)}")
    assert "✅" in res.response.content
    assert _rows(db_path, "SELECT solved FROM puzzle_attempts") == [(1,)]
    # a place past the choices is refused and changes nothing
    res = await forged_click(env, alice, puzzle.message, f"rc:p:{pid}:o{len(position['legal'])}")
    _refused(res, "not one of the choices")
    assert _rows(db_path, "SELECT solved FROM puzzle_attempts") == [(1,)]
