"""Malformed, forged, foreign and out-of-place input: every one is answered with a
refusal, logged at debug level, and leaves the database byte-for-byte unchanged."""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
from simcord.backend.errors import SetupError

from bot.competition.ratings import Entrant, Team
from bot.store import HumanSeat, PlayerResult, RatingRepo, ResultRepo, TableRepo, ratings

from .helpers import act, dump, forge, hand_message, is_my_turn, open_table, table_message

pytestmark = pytest.mark.slow  # left out by `make test-fast`

LONG = "x" * 3000


async def world(env: Any) -> dict[str, Any]:
    a = env.create_guild(name="Guild A")
    b = env.create_guild(name="Guild B")
    w: dict[str, Any] = {
        "a": a,
        "b": b,
        "chan": a.create_text_channel("whist"),
        "spare": a.create_text_channel("spare"),
    }
    w["chan_b"] = b.create_text_channel("elsewhere")
    w["alice"] = a.add_member(env.create_user("alice"))
    w["bob"] = a.add_member(env.create_user("bob"))
    w["carol"] = a.add_member(env.create_user("carol"))
    w["dave"] = b.add_member(env.create_user("dave"))
    w["alice_b"] = b.add_member(w["alice"].user)  # alice is in both servers
    await open_table(w["chan"], w["alice"], joiners=[w["bob"]], ai=("easy", "easy"))
    game = env.bot.manager.tables[1].game
    while game.phase != "play" or game.to_act() not in (0, 1):  # into the card play, a human to act
        assert await act(w["alice"]) or await act(w["bob"]), "nobody could act"
        game = env.bot.manager.tables[1].game
    # a finished game of alice's in guild A (table 2), with her result
    db = env.bot.db
    repo = TableRepo(db)
    row = await repo.create_lobby(
        guild_id=a.id,
        channel_id=w["spare"].id,
        creator_id=w["alice"].id,
        game_id="ruff-honours-cotton",
        preset="cotton1674",
        seed=1,
        seats=[HumanSeat(w["alice"].id, "alice"), None, None, None],
    )
    await repo.set_status(row.id, "active")
    await repo.set_status(row.id, "finished")
    async with db.transaction():  # the result and its rating, as the bot writes them
        await ResultRepo(db).record_game(
            row.id, a.id, [PlayerResult(w["alice"].id, "alice", 0, True, 9, 4)]
        )
        await ratings.record(
            RatingRepo(db),
            table_id=row.id,
            guild_id=a.id,
            game_id="ruff-honours-cotton",
            teams=[
                Team(
                    0,
                    (Entrant(str(w["alice"].id), "alice", 0), Entrant("ai:normal", "AI normal", 2)),
                ),
                Team(
                    1, (Entrant("ai:normal", "AI normal", 1), Entrant("ai:normal", "AI normal", 3))
                ),
            ],
        )
    res = await w["dave"].slash(w["chan_b"], "ruff rules")  # a message in guild B to click from
    w["msg_b"] = res.response.message if res.response and res.response.message else None
    return w


def component_cases(env: Any, w: dict[str, Any]) -> list[tuple[str, Any, Any, str, Any, str]]:
    """(name, actor, message, custom_id, select values, expected answer fragment)."""
    game = env.bot.manager.tables[1].game
    v = game.version
    to_act = game.to_act()
    alice, bob, carol = w["alice"], w["bob"], w["carol"]
    mover, waiter = (alice, bob) if to_act == 0 else (bob, alice)
    m_seat, w_seat = (0, 1) if to_act == 0 else (1, 0)
    hand_m, hand_w = hand_message(mover), hand_message(waiter)
    table = table_message(w["chan"])
    mine = [c.code for c in game.hand(m_seat)]
    theirs = [c.code for c in game.hand(w_seat)]
    not_held = next(c for c in theirs if c not in mine)
    return [
        ("garbage id", alice, table, "rh:zzz", None, "not recognised"),
        ("unknown table verb", alice, table, "rh:t:1:explode", None, "not recognised"),
        ("not a card", mover.user, hand_m, f"rh:a:1:{v}:{m_seat}:play:ZZ", None, "not recognised"),
        (
            "seat out of range",
            mover.user,
            hand_m,
            f"rh:a:1:{v}:9:play:{mine[0]}",
            None,
            "not recognised",
        ),
        ("non-numeric version", mover.user, hand_m, f"rh:d:1:x:{m_seat}", ["2H"], "not recognised"),
        (
            "huge table id",
            mover.user,
            hand_m,
            f"rh:a:{'9' * 20}:0:0:play:{mine[0]}",
            None,
            "not recognised",
        ),
        ("bad leaderboard page", alice, table, "rh:lb:abc", None, "not recognised"),
        (
            "unknown action verb",
            mover.user,
            hand_m,
            f"rh:a:1:{v}:{m_seat}:explode",
            None,
            "not recognised",
        ),
        (
            "another seat's control",
            waiter.user,
            hand_w,
            f"rh:a:1:{v}:{m_seat}:play:{mine[0]}",
            None,
            "not your hand",
        ),
        (
            "a table I do not sit at",
            carol.user,
            hand_m,
            f"rh:a:1:{v}:0:play:{mine[0]}",
            None,
            "not playing at this table",
        ),
        (
            "an unknown game",
            mover.user,
            hand_m,
            f"rh:a:999:0:{m_seat}:play:{mine[0]}",
            None,
            "has ended",
        ),
        (
            "a card I do not hold",
            mover.user,
            hand_m,
            f"rh:a:1:{v}:{m_seat}:play:{not_held}",
            None,
            "",
        ),
        ("out of turn", waiter.user, hand_w, f"rh:a:1:{v}:{w_seat}:play:{theirs[0]}", None, ""),
        (
            "discard: not cards",
            mover.user,
            hand_m,
            f"rh:d:1:{v}:{m_seat}",
            ["XX", "YY"],
            "not a card",
        ),
        (
            "discard: duplicates",
            mover.user,
            hand_m,
            f"rh:d:1:{v}:{m_seat}",
            [mine[0], mine[0]],
            "different cards",
        ),
        ("discard: empty", mover.user, hand_m, f"rh:d:1:{v}:{m_seat}", [], "Choose the cards"),
        ("discard: wrong phase", mover.user, hand_m, f"rh:d:1:{v}:{m_seat}", mine[:4], ""),
        (
            "table button from another server",
            w["dave"],
            w["msg_b"],
            "rh:t:1:cancel",
            None,
            "another server",
        ),
        (
            "rematch from another server",
            w["alice_b"],
            w["msg_b"],
            "rh:t:2:rematch",
            None,
            "another server",
        ),
        (
            "cancel by a bystander",
            carol,
            table,
            "rh:t:1:cancel",
            None,
            "opener or someone with Manage Server",
        ),
        (
            "cancel by a seated non-opener",
            bob,
            table,
            "rh:t:1:cancel",
            None,
            "opener or someone with Manage Server",
        ),
        ("start a running game", bob, table, "rh:t:1:start", None, "already started"),
        ("join a running game", carol, table, "rh:t:1:join", None, "already started"),
        ("add AI to a running game", alice, table, "rh:t:1:ai-hard", None, "already started"),
        (
            "rematch of a running game",
            alice,
            table,
            "rh:t:1:rematch",
            None,
            "needs a finished game",
        ),
        ("rematch by a non-player", carol, table, "rh:t:2:rematch", None, "Only players"),
        (
            "rematch of an unknown table",
            alice,
            table,
            "rh:t:77:rematch",
            None,
            "needs a finished game",
        ),
        (
            "reclaim by a bystander",
            carol,
            table,
            "rh:t:1:reclaim",
            None,
            "not playing at this table",
        ),
        ("reclaim a seat that is mine", alice, table, "rh:t:1:reclaim", None, "already yours"),
        ("my hand, not seated", carol, table, "rh:t:1:hand", None, "not playing at this table"),
        ("button of an unknown table", alice, table, "rh:t:424242:join", None, "has ended"),
    ]


SLASH_CASES: list[tuple[str, str, str, dict[str, Any], str]] = [
    # (name, actor key, channel key, command + options, expected answer fragment)
    ("second table in a channel", "bob", "chan", {"cmd": "ruff new"}, "already has a table"),
    (
        "unknown preset",
        "carol",
        "spare",
        {"cmd": "ruff new", "preset": "bogus"},
        "unknown preset 'bogus'",
    ),
    (
        "longest preset Discord allows",
        "carol",
        "spare",
        {"cmd": "ruff new", "preset": "y" * 40},
        "unknown preset",
    ),
    (
        "options without '='",
        "carol",
        "spare",
        {"cmd": "ruff new", "options": "ruff_mandatory"},
        "name=value",
    ),
    ("unknown option", "carol", "spare", {"cmd": "ruff new", "options": "nonsense=1"}, "nonsense"),
    (
        "bad option value",
        "carol",
        "spare",
        {"cmd": "ruff new", "options": "ruff_mandatory=perhaps"},
        "ruff_mandatory",
    ),
    (
        "cancel by a bystander",
        "carol",
        "chan",
        {"cmd": "ruff cancel"},
        "opener or someone with Manage Server",
    ),
    ("cancel where there is no table", "alice", "spare", {"cmd": "ruff cancel"}, "no open table"),
    (
        "rules of an unknown preset",
        "carol",
        "spare",
        {"cmd": "ruff rules", "game": "whist-5", "preset": "bogus"},
        "unknown preset",
    ),
    (
        "my hand in another server",
        "dave",
        "chan_b",
        {"cmd": "ruff hand"},
        "not playing at any table",
    ),
    (
        "alice's hand from guild B",
        "alice_b",
        "chan_b",
        {"cmd": "ruff hand"},
        "not playing at any table",
    ),
    (
        "stats of guild A asked in guild B",
        "alice_b",
        "chan_b",
        {"cmd": "ruff stats", "user": "alice_b"},
        "has not finished a game here",
    ),
    (
        "leaderboard of guild B",
        "dave",
        "chan_b",
        {"cmd": "ruff leaderboard"},
        "No finished games yet",
    ),
]


async def test_every_bad_input_is_refused_and_changes_nothing(
    env: Any, db_path: Any, caplog: pytest.LogCaptureFixture
) -> None:
    w = await world(env)
    assert w["msg_b"] is not None
    assert is_my_turn(hand_message(w["alice"])) or is_my_turn(hand_message(w["bob"]))
    caplog.set_level(logging.DEBUG, logger="bot")
    report = []
    for name, actor, message, custom_id, values, expect in component_cases(env, w):
        before = dump(db_path)
        caplog.clear()
        res = await forge(env, actor, message, custom_id, values)
        assert res.acknowledged, f"{name}: not answered"
        assert res.ephemeral, f"{name}: answer is public"
        text = res.response.content if res.response else ""
        assert expect.lower() in text.lower(), f"{name}: {text!r}"
        assert dump(db_path) == before, f"{name}: the database changed"
        debug = [
            r for r in caplog.records if r.name.startswith("bot") and r.levelno == logging.DEBUG
        ]
        assert debug, f"{name}: not logged at debug level"
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING], (
            f"{name}: logged as a problem"
        )
        report.append((name, text))
    for name, actor_key, channel_key, options, expect in SLASH_CASES:
        options = dict(options)
        command = options.pop("cmd")
        if "user" in options:
            options["user"] = w[options["user"]]
        before = dump(db_path)
        res = await w[actor_key].slash(w[channel_key], command, **options)
        assert res.acknowledged, f"{name}: not answered"
        text = res.response.content if res.response else ""
        assert expect.lower() in text.lower(), f"{name}: {text!r}"
        assert len(text) <= 2000
        if command != "ruff leaderboard":
            assert res.ephemeral, f"{name}: answer is public"
        assert dump(db_path) == before, f"{name}: the database changed"
        report.append((name, text))
    assert env.errors == []
    print("\n" + "\n".join(f"{n:<40} {t.splitlines()[0][:90]}" for n, t in report))


async def test_options_discord_itself_refuses(env: Any) -> None:
    """Range-limited options never reach the bot (Discord's client checks them)."""
    w = await world(env)
    for options in (
        {"target": 0},
        {"target": 100},
        {"options": ""},
        {"options": "x" * 301},
        {"preset": LONG},
    ):
        with pytest.raises(SetupError):
            await w["carol"].slash(w["spare"], "ruff new", **options)
    with pytest.raises(SetupError):
        await w["alice"].slash(w["chan"], "ruff leaderboard", page=0)
    with pytest.raises(SetupError):
        await w["alice"].slash(w["chan"], "ruff rules", preset=LONG)


async def test_manage_server_may_cancel_and_a_foreign_server_never_sees_scores(
    env: Any, db_path: Any
) -> None:
    w = await world(env)
    mod = w["a"].add_member(
        env.create_user("mod"),
        roles=[w["a"].create_role("admins", permissions=discord.Permissions(manage_guild=True))],
    )
    res = await w["alice"].slash(w["chan"], "ruff leaderboard")
    assert "alice" in res.response.content and "Guild A" in res.response.content
    res = await mod.slash(w["chan"], "ruff cancel")
    assert res.acknowledged and "cancelled" in res.response.content
    assert env.bot.manager.tables[1].status == "cancelled"
    res = await w["dave"].slash(w["chan_b"], "ruff leaderboard")
    assert "alice" not in res.response.content
