"""100 tables at once, every turn raced: exactly one play per turn, every click answered.

Each round delivers, for every unfinished table and in one burst before the bot
handles any of them: the player to act double-clicking the same move, and
another player of the table clicking one of their own buttons at the same time
(disabled off-turn, so this is what a stale render or a modified client sends).
Tables with AI seats also race those clicks against the AI's moves, which run
in the same burst. The engine, the per-table lock and the version check must
turn every burst into exactly one state change and answer every interaction.

Full games for all 100 tables would cost ~10 000 bursts (several minutes in
simcord); instead all 100 tables run ``ROUNDS`` racing turns side by side (their
clicks delivered ``BURST`` tables at a time), and the first ``FINISH`` tables
(one with AI seats, three with four humans) are then raced to the end of their game.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

import pytest

from bot.present.layout import layout_text as message_text
from engine import Game

from .helpers import (
    Move,
    db_actions,
    hand_message,
    integrity,
    is_my_turn,
    moves,
    race,
    replay_db,
    table_message,
)

pytestmark = pytest.mark.slow  # left out by `make test-fast`

TABLES = 100
ROUNDS = 8
FINISH = 4
# tables per burst: simcord's settle rescans every in-flight task, so one huge burst costs n²
BURST = 20


async def race_in_bursts(env: Any, clicks: list[Any], per_table: list[int]) -> list[Any]:
    """``race`` the clicks of BURST tables at a time (``per_table``: how many clicks each table has)."""
    results: list[Any] = []
    i = 0
    for start in range(0, len(per_table), BURST):
        n = sum(per_table[start : start + BURST])
        results += await race(env, clicks[i : i + n])
        i += n
    return results


STALE_NOTE = "That button was from an earlier turn"


async def open_tables(env: Any, n: int) -> list[dict[str, Any]]:
    guild = env.create_guild(name="Card Club")
    tables = []
    for i in range(n):
        channel = guild.create_text_channel(f"table-{i}")
        humans = 4 if i % 4 else 2  # every fourth table: two humans, two easy AI
        members = [guild.add_member(env.create_user(f"p{i}-{s}")) for s in range(humans)]
        await members[0].slash(channel, "ruff new", target=3)
        tables.append({"channel": channel, "members": members, "id": i + 1})
    # joins and AI seats, raced table against table
    lobby = [table_message(t["channel"]) for t in tables]
    for seat in range(1, 4):
        clicks = []
        for t, msg in zip(tables, lobby, strict=True):
            if seat < len(t["members"]):
                clicks.append((t["members"][seat], msg, f"rh:t:{t['id']}:join", None))
            else:
                clicks.append((t["members"][0], msg, f"rh:t:{t['id']}:ai-easy", None))
        assert all(r.acknowledged for r in await race_in_bursts(env, clicks, [1] * len(tables)))
    starts = [
        (t["members"][0], msg, f"rh:t:{t['id']}:start", None)
        for t, msg in zip(tables, lobby, strict=True)
    ]
    results = await race_in_bursts(env, starts, [1] * len(tables))
    assert all(r.acknowledged and not r.ephemeral for r in results)
    for t in tables:  # held here: a finished table leaves the registry a while after it ends
        t["table"] = env.bot.manager.tables[t["id"]]
    return tables


async def choose_lay_outs(t: dict[str, Any]) -> None:
    """Whoever has cards to lay out chooses them in the menu, so Confirm is on the hand."""
    for member in t["members"]:
        msg = hand_message(member)
        if not is_my_turn(msg):
            continue
        menu = next((m.menu for m in moves(msg) if m.menu is not None), None)
        if menu is not None:
            await member.user.select(msg, list(menu[1]), custom_id=menu[0])


def burst_for(t: dict[str, Any], rng: random.Random) -> list[tuple[Any, Any, str, Any, str]]:
    """The racing clicks of one table this round: (actor, message, custom_id, values, kind)."""
    members = t["members"]
    turn = next((m for m in members if is_my_turn(hand_message(m))), None)
    clicks: list[tuple[Any, Any, str, Any, str]] = []
    if turn is not None:
        msg = hand_message(turn)
        move: Move = (
            moves(msg)[rng.randrange(len(moves(msg)))] if rng.random() < 0.3 else moves(msg)[0]
        )
        clicks += [(turn.user, msg, move.custom_id, move.values, "play")] * 2
    others = [m for m in members if m is not turn and hand_message(m) is not None]
    if others:
        other = rng.choice(others)
        msg = hand_message(other)
        own = [
            b.custom_id
            for row in msg.components
            for b in row.children
            if getattr(b, "custom_id", "").startswith("rh:a:")
        ]
        if own:
            clicks.append((other.user, msg, rng.choice(own), None, "other"))
    return clicks


async def run_rounds(
    env: Any, tables: list[dict[str, Any]], rounds: int, rng: random.Random, tally: Counter[str]
) -> None:
    for _ in range(rounds):
        live = [t for t in tables if t["table"].status == "active"]
        if not live:
            return
        for t in live:  # cards to lay out are chosen first (nothing moves): the race is Confirm
            await choose_lay_outs(t)
        bursts = [burst_for(t, rng) for t in live]
        plan = [(t, c) for t, b in zip(live, bursts, strict=True) for c in b]
        results = await race_in_bursts(
            env, [(a, m, cid, vals) for _, (a, m, cid, vals, _) in plan], [len(b) for b in bursts]
        )
        winners: Counter[tuple[int, str]] = Counter()
        for (t, (_, _, cid, vals, kind)), res in zip(plan, results, strict=True):
            tally["interactions"] += 1
            assert res.acknowledged, f"table {t['id']}: {cid} left unanswered"
            text = res.response.content if res.response else ""
            if kind == "play" and not res.ephemeral and STALE_NOTE not in text:
                laid = cid.rsplit(":", 1)[1].split(".") if cid.startswith("rh:k:") else None
                cards = vals if vals is not None else laid  # a menu's cards, or its Confirm's
                t["accepted"] = t.get("accepted", 0) + (len(cards) if cards is not None else 1)
                winners[t["id"], cid] += 1
                tally["accepted"] += 1
            else:
                tally["refused"] += 1
                assert res.ephemeral or STALE_NOTE in text, text
                if kind == "play":
                    assert "Already played" in text, (
                        f"the loser of a double click was told {text!r}"
                    )
        double_clicks = {(t["id"], c[2]) for t, c in plan if c[4] == "play"}
        assert all(winners[key] == 1 for key in double_clicks), (
            "a double click did not make exactly one move"
        )


def check_table(env: Any, db: str, t: dict[str, Any]) -> Game:
    """The log replays, holds one row per version, and exactly the accepted human plays."""
    table = t["table"]
    rows = db_actions(db, t["id"])
    assert [seq for seq, *_ in rows] == list(range(len(rows)))
    game = table.game
    assert game is not None and game.version == len(rows)
    human_rows = sum(1 for _, _, _, actor in rows if actor is not None)
    assert human_rows == t.get("accepted", 0), (
        f"table {t['id']}: {human_rows} human rows, {t.get('accepted', 0)} accepted clicks"
    )
    assert replay_db(db, t["id"], game).state_key() == game.state_key()
    return game


# No turn timers here (each would be one more parked task for every settle to scan);
# clicks racing timers are in test_afk.py. A long settle timeout: one burst is big.
@pytest.mark.simcord(settle_timeout=120)  # < the fixtures' housekeeping sleeps (3600 s)
async def test_100_tables_racing_clicks(env: Any, db_path: Any) -> None:
    rng = random.Random(2026)
    tally: Counter[str] = Counter()
    started = time.perf_counter()
    tables = await open_tables(env, TABLES)
    await run_rounds(env, tables, ROUNDS, rng, tally)
    for t in tables:
        check_table(env, str(db_path), t)
    assert all(t.get("accepted", 0) >= ROUNDS // 2 for t in tables)

    finish = tables[:FINISH]
    for _ in range(400):
        if all(t["table"].status == "finished" for t in finish):
            break
        await run_rounds(env, finish, 1, rng, tally)
    for t in finish:
        game = check_table(env, str(db_path), t)
        assert game.is_over, f"table {t['id']} did not finish"
        assert "finished" in message_text(table_message(t["channel"]))

    assert integrity(db_path) == "ok"
    assert env.errors == []
    print(
        f"\n{TABLES} tables, {ROUNDS} raced rounds, {FINISH} finished: {tally['interactions']} interactions, "
        f"{tally['accepted']} accepted plays, {tally['refused']} refused, {time.perf_counter() - started:.1f}s"
    )
