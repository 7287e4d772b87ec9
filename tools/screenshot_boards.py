"""Screenshots of a daily board's end, a challenge from invitation to rematch and
today's standings at 400 px: ``python -m tools.screenshot_boards [out_dir]``
(default ``docs/screens``).

The real bot against simcord: alice plays today's first Whist 5-Point board from
her DM (the first card button each turn), then she and bob (his last card
button) play a two-board challenge the same way, every board dealt by its button;
bob presses **Rematch** under the comparison and alice's own Rematch is pressed
after it; five more players' results are written to the store and alice reads
today's standings. Alice's board DM on her first turn after an AI's lead
(``board-play``), the board's result message (its DM, edited: ``board-end``),
bob's invitation (``challenge-invite``), alice's first challenge board's result
(``challenge-board-end``), the comparison (``challenge-result``), bob's answer
to Rematch (``challenge-rematch``), alice's invitation to it
(``challenge-rematch-invite``) and the standings (``standings-today``) are then
each DMed again, as they were with their buttons, to a reader of their own and
photographed at 400 px through :mod:`tools.preview_browser`; each one's height is
printed, and the rows its buttons are drawn on, with their widths.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord  # noqa: E402

from bot.store import DailyRepo  # noqa: E402
from engine import boards_of, make_rules  # noqa: E402
from tools.preview_browser import OUT, PHONE, loaded_page, simulated_bot  # noqa: E402

Shot = tuple[str, discord.ui.View]
"""A message to photograph: its text and its buttons."""


def _board(bot: Any, user_id: int) -> Any:
    tables = [
        t
        for t in bot.manager.tables.values()
        if t.settings.board and t.seat_of(user_id) is not None
    ]
    return max(tables, key=lambda t: t.id)


def _shot(message: discord.Message) -> Shot:
    return message.content, discord.ui.View.from_message(message, timeout=None)


def _message(member: Any, message_id: int) -> discord.Message:
    return next(m for m in member.user.dm_channel.history() if m.id == message_id)


async def _play(
    env: Any, bot: Any, member: Any, pick: int = 0, seen: list[Shot] | None = None
) -> discord.Message:
    """Play the member's latest board to its end by its ``pick``-th card button; its DM.
    ``seen`` gets the DM as it was on the first turn after an AI's lead, once the
    first trick was done (the winner line, Last trick and This deal)."""
    table = _board(bot, member.id)
    seat = table.seat_of(member.id)
    for _ in range(200):
        if table.status != "active":
            break
        hand = _message(member, table.hand_messages[seat][1])
        view = table.game.observe(seat)
        if (
            seen is not None
            and not seen
            and view.my_turn
            and view.trick
            and view.completed_tricks
            and view.trick[0][0] != seat
        ):
            seen.append((hand.content, discord.ui.View.from_message(hand, timeout=None)))
        ids = [
            c.custom_id
            for row in hand.components
            for c in getattr(row, "children", [])
            if isinstance(c, discord.Button)
            and c.custom_id
            and c.custom_id.startswith("rh:a:")
            and not c.disabled
        ]
        if ids:
            await member.user.click(hand, custom_id=ids[pick])
        await env.settle()
    await env.settle()
    return _message(member, table.hand_messages[seat][1])


ROWS_JS = r"""
(() => {
  const ms = document.querySelectorAll('.channel-message[data-message-id]');
  const m = ms[ms.length - 1];
  const rows = {};
  for (const b of m.querySelectorAll('.message-components button')) {
    const r = b.getBoundingClientRect();
    const top = Math.round(r.top);
    (rows[top] = rows[top] || []).push(b.innerText.trim() + ' ' + Math.round(r.width) + 'px');
  }
  return JSON.stringify(Object.keys(rows).sort((a, b) => a - b).map(k => rows[k]));
})()
"""
"""The last message's buttons by the row they are drawn on, each with its width."""


async def _shoot(env: Any, bot: Any, reader: Any, shot: Shot, path: Path) -> float:
    content, view = shot
    await bot.manager.services.notifier.dm(reader.user.id, content, view)
    await bot.manager.services.notifier.flush()
    async with loaded_page(env, reader.user.dm_channel, reader.user, PHONE, 1400) as (
        browser,
        boxes,
    ):
        box = boxes[-1]
        rows = json.loads(await browser.evaluate(ROWS_JS))
        if rows:
            print(f"{path.name}: button rows {rows}", flush=True)
        await browser.shoot(path, bottom=box["bottom"] + 16)
        return float(box["bottom"] - box["top"])


async def _standings(env: Any, bot: Any, guild: Any, reader: Any, channel: Any) -> str:
    """Today's standings as ``reader`` reads them, among five more players of the
    server (their results written straight to the store): two who finished the day
    level (a tie), one who finished it alone, two still playing."""
    repo = DailyRepo(bot.db)
    rules = make_rules("whist-5")
    day = bot.manager.daily.today()
    boards = boards_of(rules.game_id, rules.preset, day)
    field = {
        "carol": [3, 1, -2, 4, 0, 2],
        "dave": [3, 1, -2, 4, 0, 2],
        "erin": [1, -1, 0, 2, 2, -3],
        "frank": [5, 2, 1],
        "grace-from-the-bridge-club": [0, 0],
    }
    for k, (name, results) in enumerate(field.items()):
        for the_board, result in zip(boards, results, strict=False):
            await repo.by_ai(
                board=the_board.key,
                user_id=900 + k,
                game_id=rules.game_id,
                series=day,
                number=the_board.number,
                guild_id=guild.id,
                name=name,
                result=result,
            )
    res = await reader.slash(channel, "ruff daily", game="whist-5", standings="today")
    return str(res.response.content)


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    async with simulated_bot(
        settle_timeout=60.0,  # the boards' AI searches on a loaded machine
        turn_timeout=0.0,
        turn_ping_delay=3600.0,
        daily_worlds=8,
        card_emojis=False,
    ) as (bot, env, guild):
        channel = guild.create_text_channel("cards")
        alice = guild.add_member(env.create_user("alice"))
        bob = guild.add_member(env.create_user("bob"))
        await bob.slash(channel, "ruff daily", game="whist-5")
        await _play(env, bot, bob)  # a traveller with two results
        await alice.slash(channel, "ruff daily", game="whist-5")
        seen: list[Shot] = []
        board_end = await _play(env, bot, alice, seen=seen)
        board_end_shot = _shot(board_end)
        await alice.slash(channel, "ruff challenge", opponent=bob.user, game="whist-5", boards=2)
        invite = next(m for m in bob.user.dm_channel.history() if "challenges you" in m.content)
        invitation = (invite.content, discord.ui.View.from_message(invite, timeout=None))
        await bob.user.click(invite, label="▶ Play")
        await env.settle()
        challenge_end: Shot | None = None
        for member, pick in ((alice, 0), (bob, -1)):
            done = await _play(env, bot, member, pick)
            challenge_end = challenge_end or _shot(done)
            await member.user.click(done, label="▶ Board 2")
            await env.settle()
            await _play(env, bot, member, pick)
        await env.settle()
        result = next(
            m
            for m in alice.user.dm_channel.history()
            if m.content.startswith("🏁 **Challenge #1**")
        )
        compared = _shot(result)
        # the rematch: bob asks it, alice is invited, alice's own Rematch says so
        theirs = next(
            m for m in bob.user.dm_channel.history() if m.content.startswith("🏁 **Challenge #1**")
        )
        asked = await bob.user.click(theirs, label="Rematch")
        await env.settle()
        rematch_answer = (asked.followups[0].content, discord.ui.View(timeout=None))
        rematch_invite = next(
            m for m in alice.user.dm_channel.history() if "challenge #2" in m.content
        )
        twice = await alice.user.click(result, label="Rematch")
        print(f"alice's Rematch after bob's: {twice.response.content!r}", flush=True)
        standings = await _standings(env, bot, guild, alice, channel)
        shots = {
            "board-play": seen[0],
            "board-end": board_end_shot,
            "challenge-invite": invitation,
            "challenge-board-end": challenge_end,
            "challenge-result": compared,
            "challenge-rematch": rematch_answer,
            "challenge-rematch-invite": _shot(rematch_invite),
            "standings-today": (standings, discord.ui.View(timeout=None)),
        }
        for name, shot in shots.items():
            if shot is None:
                continue
            reader = guild.add_member(env.create_user(f"reader-{name}"))
            path = out / f"{name}-{PHONE}.png"
            height = await _shoot(env, bot, reader, shot, path)
            print(f"{path}: {height:.0f} px high at {PHONE} px", flush=True)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
