"""Many members of two servers play the same day's boards by random legal clicks,
with a restart in the middle: an independent scorer recomputes every matchpoint and
standing from the stored results and agrees with what the bot shows, and nothing
of a board a member has not finished ever reaches a text that member can see."""

from __future__ import annotations

import functools
import random
import re
import sqlite3
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.competition.duplicate import matchpoints, standings
from bot.features.daily.boards import day_of
from bot.present.render.common import hand_text
from bot.store import DailyRepo
from engine import game_log

from .conftest import make_settings, restart
from .daily_play import board_table, dm_messages, latest_board, play_board

pytestmark = pytest.mark.slow

MEMBERS = int(__import__("os").environ.get("DAILY_MEMBERS", "26"))  # per server
NOON = 1_795_867_200.0  # 2026-11-28 12:00 UTC: the day the test plays, fixed
SETTINGS = {"daily_worlds": 2}


def _fix_day(env: Any) -> None:
    env.bot.manager.daily.clock = lambda: NOON


# ---------------------------------------------------------------- the independent scorer


def _stored(db_path: Path) -> tuple[list[sqlite3.Row], dict[str, int]]:
    con = sqlite3.connect(str(db_path))
    con.row_factory = sqlite3.Row
    try:
        rows = con.execute("SELECT * FROM daily_results").fetchall()
        par = {r["board"]: r["result"] for r in con.execute("SELECT * FROM daily_par")}
    finally:
        con.close()
    return rows, par


def _scorer(rows: list[sqlite3.Row], par: dict[str, int]) -> dict[tuple[str, int], Fraction]:
    """Matchpoints from first principles: against each other result and the par, a win
    scores 1, a tie 1/2; the percentage of the comparisons."""
    out: dict[tuple[str, int], Fraction] = {}
    done = [r for r in rows if r["result"] is not None]
    for r in done:
        others = [
            o["result"] for o in done if o["board"] == r["board"] and o["user_id"] != r["user_id"]
        ]
        if r["board"] in par:
            others.append(par[r["board"]])
        won = sum(1 for o in others if r["result"] > o)
        tied = sum(1 for o in others if r["result"] == o)
        out[(r["board"], r["user_id"])] = (
            Fraction(100 * won, len(others)) + Fraction(50 * tied, len(others))
            if others
            else Fraction(50)
        )
    return out


def _averages(
    rows: list[sqlite3.Row], points: dict[tuple[str, int], Fraction], guild: int | None
) -> dict[int, Fraction]:
    per: dict[int, list[Fraction]] = {}
    for r in rows:
        if r["result"] is not None and (guild is None or r["guild_id"] == guild):
            per.setdefault(r["user_id"], []).append(points[(r["board"], r["user_id"])])
    return {u: sum(v, Fraction(0)) / len(v) for u, v in per.items()}


# ---------------------------------------------------------------- who sees what


class Spoilers:
    """Every text the bot sent, in order, checked against what each member may know:
    no dealt hand of another seat of a board the member has not finished."""

    def __init__(
        self, env: Any, members: dict[int, Any], guild_of: dict[int, int], rooms: dict[int, int]
    ) -> None:
        self.env = env
        self.rooms = rooms  # channel id -> guild id
        self.members = members
        self.guild_of = guild_of  # member id -> guild id
        self.seen = 0
        self.finished: dict[int, set[str]] = {m: set() for m in members}
        self.boards: dict[str, tuple[int, list[str]]] = {}  # key -> (seat, hands as text)
        self.checked = 0

    def learn(self, key: str, seat: int, hands: list[str]) -> None:
        self.boards[key] = (seat, hands)

    def audience(self, path: str) -> list[int]:
        match = re.match(r"/channels/(\d+)/messages", path)
        if match is None:  # an interaction's answer: counted as seen by everyone
            return list(self.members)
        channel = int(match.group(1))
        for member_id, member in self.members.items():
            if member.user.dm_channel.id == channel:
                return [member_id]
        return [m for m, g in self.guild_of.items() if g == self.rooms.get(channel)]

    def check(self) -> None:
        requests = self.env.http_requests
        for req in requests[self.seen :]:
            body = req.json
            content = body.get("content") if isinstance(body, dict) else None
            if content is None and isinstance(body, dict) and isinstance(body.get("data"), dict):
                content = body["data"].get("content")
            if not isinstance(content, str):
                continue
            audience = self.audience(req.path)
            if content.startswith("✅ Board ") and len(audience) == 1:  # a board's result, by DM
                number = content.split()[2]
                self.finished[audience[0]].update(
                    k for k in self.boards if k.endswith("/" + number)
                )
            for member_id in audience:
                for key, (seat, hands) in self.boards.items():
                    if key in self.finished[member_id]:
                        continue
                    for s, hand in enumerate(hands):
                        assert s == seat or hand not in content, (member_id, key, content)
                    self.checked += 1
        self.seen = len(requests)


@pytest.mark.parametrize("bot_settings", [SETTINGS])
async def test_fifty_members_of_two_servers_play_the_same_boards(
    simcord_env: Any, db_path: Path, more_bots: list[Any]
) -> None:
    started = time.perf_counter()
    env = simcord_env
    # settle polling every 2 ms, not 50 (as the reliability suite does)
    env._settle_internal = functools.partial(env._settle_internal, idle=0.002)
    _fix_day(env)
    guilds = [env.create_guild(name=f"Room {k}") for k in (1, 2)]
    channels = [g.create_text_channel("cards") for g in guilds]
    members: dict[int, Any] = {}
    guild_of: dict[int, int] = {}
    where: dict[int, Any] = {}
    for k, (guild, channel) in enumerate(zip(guilds, channels, strict=True)):
        for i in range(MEMBERS):
            member = guild.add_member(env.create_user(f"p{k}{i:02d}"))
            members[member.id] = member
            guild_of[member.id] = guild.id
            where[member.id] = channel
    rooms = {c.id: g.id for g, c in zip(guilds, channels, strict=True)}
    spoilers = Spoilers(env, members, guild_of, rooms)
    day = day_of(NOON)
    rng = random.Random(7)
    order = list(members.values())
    rng.shuffle(order)

    def learn(member: Any) -> None:
        table = latest_board(env, member.id)
        assert table is not None and table.game is not None, [
            m.content[:80] for m in dm_messages(member)[-4:]
        ]
        if table.settings.board not in spoilers.boards:
            deal = game_log(table.game.to_record()).deals[0]
            hands = [hand_text(h, deal.trump) for h in deal.hands]
            spoilers.learn(table.settings.board, table.seat_of(member.id) or 0, hands)

    async def play_one(member: Any) -> None:
        res = await member.slash(where[member.id], "ruff daily")
        assert res.ephemeral and "in your DMs" in res.response.content, res
        learn(member)
        await play_board(env, member, rng)
        spoilers.check()

    half = len(order) // 2
    for member in order[:half]:
        await play_one(member)
    # one member half-way through a board when the bot restarts
    middle = order[half]
    await middle.slash(where[middle.id], "ruff daily")
    learn(middle)
    table = board_table(env, middle.id)
    assert table is not None
    seat = table.seat_of(middle.id)
    await env.settle()
    spoilers.check()
    await restart(env, more_bots, make_settings(db_path, **SETTINGS))
    _fix_day(env)
    again = board_table(env, middle.id)
    assert again is not None and again.seat_of(middle.id) == seat
    await play_board(env, middle, rng)
    spoilers.check()
    for member in order[half + 1 :]:
        await play_one(member)
    # a few go on to their second board; one plays the whole day
    for member in order[:4]:
        await play_one(member)
    keen = order[0]
    while True:  # to the day's last board
        res = await keen.slash(where[keen.id], "ruff daily")
        spoilers.check()
        if "in your DMs" not in res.response.content:
            assert "You have played all 6" in res.response.content
            break
        learn(keen)
        await play_board(env, keen, rng)
        spoilers.check()
    await env.settle()
    spoilers.check()

    # the independent scorer agrees with the bot's matchpoints and standings, exactly
    rows, par = _stored(db_path)
    assert len([r for r in rows if r["result"] is not None]) >= MEMBERS * 2 + 8
    assert set(par) >= {r["board"] for r in rows}
    mine = _scorer(rows, par)
    repo = DailyRepo(env.bot.db)
    entries = await repo.of_series("ruff-honours-cotton", [day])
    points = matchpoints(entries, await repo.par(sorted({e.board for e in entries})))
    assert points == mine
    for guild in guilds:
        ours = _averages(rows, mine, guild.id)
        theirs = {s.user_id: s.score for s in standings(entries, points, guild.id)}
        assert theirs == ours
        # and what a member reads: the server's standings, each score to a tenth
        reader = next(m for m in members.values() if guild_of[m.id] == guild.id)
        res = await reader.slash(where[reader.id], "ruff daily", standings="today")
        shown = res.response.content
        for user_id, score in ours.items():
            assert f"{members[user_id].name} — {float(score):.1f}%" in shown, shown
    # the day's score of the one who played every board went to their channel, nothing else
    posts = [m.content for m in where[keen.id].history()]
    assert len(posts) == 1 and posts[0].startswith(f"🃏 {keen.name} finished today's")
    everyone = _averages(rows, mine, None)
    assert f"{float(everyone[keen.id]):.1f}%" in posts[0]
    assert spoilers.checked > 1000
    print(
        f"{len(members)} members, {spoilers.checked} checks, {time.perf_counter() - started:.1f} s"
    )
