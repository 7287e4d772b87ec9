"""A puzzle of every kind of decision can be answered through the real bot: a card, a
call, trumps, a ruff's lay-out and Bid Whist's kitty. A wrong answer is recorded (and
the puzzle comes back only after the others), **Show the solution** and **Next puzzle**
work under every answer.

Each position is a real one: an AI game of the engine, reviewed by the engine, made
into a puzzle by the bot's own :func:`puzzle_of`, kept by the bot's store for a table
of the player's."""

from __future__ import annotations

import functools
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.features.coach.review_pool import puzzle_of
from bot.store import CoachRepo
from engine import new_game
from engine.ai import ReviewBudget, get_player, review_deal
from engine.records import to_record

from .helpers import raw_buttons, table_message

BUDGET = ReviewBudget(worlds=8, more_worlds=16)

# (game id, decision kind): where an AI game of the engine has such a decision
KINDS = [
    ("whist-5", "card"),
    ("solo-whist", "call"),
    ("ruff-honours-cotton", "lay-out"),
    ("bid-whist", "kitty"),
    ("bid-whist", "trump"),
]


@functools.cache
def _puzzle(game_id: str, kind: str) -> dict[str, Any]:
    """The first decision of ``kind`` in the first deal of easy AI games (seeds 0, 1 …)
    with a choice worse than the best by more than a flag's size, as the bot's puzzle."""
    easy = get_player("easy")
    for seed in range(20):
        game, _ = new_game(game_id, seed=seed)
        rng = random.Random(seed)
        while game.deals_total == 1 and not game.is_over:
            seat = game.to_act()
            assert seat is not None
            game.apply(seat, easy.choose(game.observe(seat), game.legal_actions(seat), rng))
        record = to_record(game)
        for seat in range(4):
            try:
                review = review_deal(record, 1, seat, BUDGET)
            except ValueError:
                continue
            for d in review.decisions:
                # the best choice's value less the worst's (an answer is judged against
                # the best: bot.present.render.review.is_correct)
                values = [o.value for o in d.options]
                best = [o.value for o in d.options if o.choice == d.best]
                gap = best[0] - min(values) if values and best else 0.0
                if d.kind == kind and gap > (d.threshold or review.threshold):
                    return puzzle_of(record, review, d)
    raise AssertionError(f"no {kind} decision found in {game_id}")


def _rows(db_path: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as con:
        return con.execute(sql).fetchall()


@pytest.mark.parametrize(("game_id", "kind"), KINDS)
async def test_a_puzzle_of_every_kind_is_answered(
    simcord_env: Any, db_path: Path, game_id: str, kind: str
) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "ruff new", game=game_id)
    assert table_message(channel) is not None
    table_id = next(iter(env.bot.manager.tables))
    body = _puzzle(game_id, kind)
    assert body["decision_kind"] == kind
    # two positions of alice's: the puzzle under test, and a second one to move on to
    await CoachRepo(env.bot.db).keep_review(
        table_id,
        1,
        0,
        {"decisions": []},
        [
            (guild.id, alice.id, int(body["index"]), body),
            (guild.id, alice.id, 10_000, _puzzle("whist-5", "card")),
        ],
    )
    first, second = [pid for (pid,) in _rows(db_path, "SELECT id FROM puzzles ORDER BY id")]

    res = await alice.slash(channel, "ruff puzzle")
    assert res.ephemeral, res
    puzzle = res.response
    assert f"**Puzzle #{first}**" in puzzle.content, puzzle.content
    ids = [b["custom_id"] for b in raw_buttons(puzzle.components)]
    legal = list(body["legal"])
    if kind == "card":
        answers = [f"rc:p:{first}:{code}" for code in legal]
    else:
        answers = [f"rc:p:{first}:o{i}" for i in range(len(legal))]
    assert ids == [*answers[:20], f"rc:s:{first}", f"rc:n:{first}"], ids
    assert all(len(i) <= 100 for i in ids)
    values = dict((code, value) for code, value in body["options"])
    best = legal.index(body["best"]) if body["best"] in legal else 0
    worst = min(
        range(len(legal)),
        key=lambda i: values.get(body["stands_for"].get(legal[i], legal[i]), 0.0),
    )

    # a wrong answer: judged, recorded, and the solution offered under it
    res = await alice.click(puzzle, custom_id=answers[worst])
    assert res.ephemeral and "❌" in res.response.content, res.response.content
    assert "Something went wrong" not in res.response.content
    assert _rows(db_path, "SELECT puzzle_id, solved FROM puzzle_attempts") == [(first, 0)]
    after = [b["custom_id"] for b in raw_buttons(res.response.components)]
    assert after == [f"rc:s:{first}", f"rc:n:{first}"]
    res = await alice.click(res.response, custom_id=f"rc:s:{first}")
    assert "💡 The solution:" in res.response.content, res.response.content
    assert _rows(db_path, "SELECT puzzle_id, solved FROM puzzle_attempts") == [(first, 0)]

    # Next puzzle moves on to the other one, not back to the one answered wrong
    res = await alice.click(res.response, custom_id=f"rc:n:{first}")
    assert f"**Puzzle #{second}**" in res.response.content, res.response.content
    other = raw_buttons(res.response.components)[0]["custom_id"]
    res = await alice.click(res.response, custom_id=other)
    assert res.response.content.startswith(("✅", "❌")), res.response.content
    # and with nothing new left, the one answered wrong comes back: now solved
    res = await alice.slash(channel, "ruff puzzle")
    assert f"**Puzzle #{first}**" in res.response.content, res.response.content
    res = await alice.click(res.response, custom_id=answers[best])
    assert "✅" in res.response.content, res.response.content
    assert (first, 1) in _rows(db_path, "SELECT puzzle_id, solved FROM puzzle_attempts")
    stored = json.loads(_rows(db_path, f"SELECT body FROM puzzles WHERE id = {first}")[0][0])
    assert stored["legal"] == legal
