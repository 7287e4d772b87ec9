"""How the table looks on a phone, measured: ``python -m tools.measure_screens [out_dir]``
(default ``docs/screens``; ``--no-save`` writes the screenshots to a temporary folder).

For each game family (Ruff and Honours, Whist, Solo Whist, Bid Whist, Ruffe and
Trump, Turnover Bridge) the real bot plays against the offline Discord simulator
(simcord): alice opens a table, fills it with easy AI players, starts, and plays
her turns (from her hand DM, as a player would) until the play is mid-trick with
her to play. Then simcord's HTML preview of the channel and of alice's DM is
loaded in headless Chromium (``/usr/bin/chromium``) at 400 px (a phone) and, for
the first family, 960 px, and the script prints, per game:

* ``table@400``: the height at 400 px of the table message, from the top of its
  message (author line) to the bottom of its last button (target <= 450 px);
* ``dm@400``: the same for alice's hand DM on her turn (target <= 400 px);
* ``picture``: the width the picture is shown at in that 400 px page, and, at
  that width, its smallest text (the font's pixel size; and the height of a
  capital H at that size) and its trick cards' width, from the sizes the picture
  module drew with (``Picture.smallest_text``, ``Picture.trick_card_w``,
  ``Picture.layout_card_w``): targets text >= 12 px, trick cards >= 48 px.

Heights come from the DOM: the script drives Chromium over the DevTools protocol
(a websocket, through aiohttp), waits for the page and its images to load, and
reads ``getBoundingClientRect()`` of the message element, its author line and its
last button. The screenshots are taken over the same connection
(``Page.captureScreenshot``): ``table-<game>-400.png`` for each family,
``table-<game>-960.png`` for the first, ``lobby-400.png`` (the thread and the
hand DM are photographed by ``tools/screenshot_screens.py``). The AI seats are
seeded: the same games every run.

``--decisions`` measures the other turns instead: every game id is played, deal
after deal (up to :data:`DECISION_DEALS`), and each time alice meets a decision
of a kind she has not met yet in that game (a turn whose legal actions are not
only cards to play: an auction call, a bid, naming trumps or the direction, the
kitty, the ruff, laying out, Can-ye, declaring a ruff or a rub), her DM's height
at 400 px is measured the same way (target <= 400 px) and, for the photographed
families, shot as ``decision-<game>-<decision>-400.png``. To meet as many as she
can, alice takes the boldest choice on offer (the last button that is not a pass
or a decline), so she wins auctions and names trumps. The table printed: game
id, decision, height.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.discord_ui.shown import shown as shown_of  # noqa: E402
from bot.present.drawing import font  # noqa: E402
from engine import game_ids, make_rules  # noqa: E402
from tools.preview_browser import (  # noqa: E402
    DESKTOP,
    OUT,
    PHONE,
    Browser,
    loaded_page,
    open_preview,
    simulated_bot,
)

# one game id of each family is photographed (the first also at 960 px); every game id
# is measured, the families first
PHOTOGRAPHED = (
    "ruff-honours-cotton",
    "whist-long",
    "solo-whist",
    "bid-whist",
    "ruff-trump-willughby",
    "turnover-bridge",
)
GAMES = (*PHOTOGRAPHED, *(g for g in game_ids() if g not in PHOTOGRAPHED))

# --------------------------------------------------------------- playing to mid-trick


async def _act(alice: Any) -> bool:
    """alice's turn in her hand DM: the first sensible control (a menu, a decision, Pass,
    the last playable card, else the first live action button)."""
    dm = alice.user.dm_channel.last_message if alice.user.dm_channel else None
    if dm is None:
        return False
    items: list[Any] = []

    def walk(components: Any) -> None:
        for c in components:
            if c.type.value in (2, 3):
                items.append(c)
            walk(getattr(c, "children", ()) or ())

    walk(dm.components)
    confirm = next((c for c in items if str(getattr(c, "custom_id", "")).startswith("rh:k:")), None)
    if confirm is not None and not confirm.disabled:  # the cards to lay out are chosen
        await alice.user.click(dm, custom_id=confirm.custom_id)
        return True
    select = next(
        (c for c in items if c.type.value == 3 and not c.disabled and ":t:" not in c.custom_id),
        None,
    )
    if select is not None:
        await alice.user.select(dm, [o.value for o in select.options][: select.min_values])
        return True
    live = [
        c for c in items if c.type.value == 2 and not c.disabled and ":a:" in (c.custom_id or "")
    ]
    decisions = ("Reject the claim", "Play on", "Take the stock (ruff)", "Call “Can-ye?”")
    for label in (*decisions, "Show honours", "Pass"):
        if any(c.label == label for c in live):
            await alice.user.click(dm, label=label)
            return True
    cards = [c for c in live if any(s in (c.label or "") for s in "♠♥♦♣")]
    pick = cards[-1] if cards else (live[0] if live else None)
    if pick is None:  # not alice's turn: nothing of hers is live
        return False
    await alice.user.click(dm, custom_id=pick.custom_id)
    return True


async def _settle(env: Any) -> None:
    for _ in range(20):
        try:
            await env.settle()
            return
        except TimeoutError:
            await asyncio.sleep(0.5)


async def _calmly(env: Any, step: Awaitable[Any]) -> None:
    """A click or command whose answer simcord's settle may outwait on a loaded
    machine (an AI of an earlier table still thinking): done, then settled."""
    try:
        await step
    except TimeoutError:
        await _settle(env)


@dataclass
class Measured:
    game_id: str
    title: str
    table_h: float
    dm_full_h: float
    dm_mid_h: float
    shown_w: float
    smallest: float
    cap: float
    trick_w: float
    layout_w: float


def _slug(title: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in title.lower()).strip("-").replace("--", "-")


async def _dm_height(
    env: Any, alice: Any, width: int, shot: Path | None, height: int = 1400
) -> float:
    """The height of alice's hand DM at ``width``, from its author line to its last
    button; photographed (down to the message's bottom) into ``shot`` if given."""
    dm_msg = alice.user.dm_channel.last_message
    async with loaded_page(env, alice.user.dm_channel, alice.user, width, height) as (
        browser,
        boxes,
    ):
        box = next(b for b in boxes if b["id"] == str(dm_msg.id))
        if shot is not None:
            await browser.shoot(shot, bottom=box["bottom"] + 16)
        return float(box["last_button"] - box["top"])


def _alice_to_play(game: Any) -> bool:
    g = game.game
    return bool(g.phase == "play" and g.to_act() == 0 and not g.is_over)


async def _play_one(
    env: Any,
    bot: Any,
    guild: Any,
    n: int,
    game_id: str,
    out: Path | None,
    first: bool,
) -> Measured:
    """One table of ``game_id``: alice and easy AIs, measured at alice's first card
    to play (a full hand) and mid-trick in trick 2 or later. ``out``: where the
    screenshots go (None: none)."""
    rules = make_rules(game_id)
    title = rules.title
    slug = _slug(title)
    channel = guild.create_text_channel(game_id)
    alice = guild.add_member(env.create_user(f"alice{n}" if n else "alice"))
    await _calmly(env, alice.slash(channel, "ruff new", game=game_id))
    for _ in range(rules.players - 1):
        await _calmly(env, alice.click(channel.last_message, label="Add AI (easy)"))
    if first and out is not None:
        await env.settle()
        await bot.manager.services.notifier.flush()
        async with (
            open_preview(env, channel, alice, PHONE, 900) as url,
            Browser(PHONE, 900) as browser,
        ):
            await browser.open(url)
            await browser.shoot(out / "lobby-400.png")
    await _calmly(env, alice.click(channel.last_message, label="Start"))
    tid = max(bot.manager.tables)
    game = bot.manager.tables[tid]
    dm_full = 0.0
    for _ in range(400):
        g = game.game
        if _alice_to_play(game) and not dm_full:  # her first card: a full hand
            await _settle(env)
            await bot.manager.services.notifier.flush()
            await env.settle()
            if _alice_to_play(game):
                shot = out / f"dm-{slug}-400.png" if out is not None else None
                dm_full = await _dm_height(env, alice, PHONE, shot)
                if first and out is not None:
                    await _dm_height(env, alice, DESKTOP, out / f"dm-{slug}-960.png")
            continue
        if g.phase == "play" and g.trick_no >= 2 and g.to_act() == 0 and len(g.trick) >= 1:
            break
        if g.is_over:
            raise SystemExit(f"{title}: the game ended before a mid-trick turn of alice's")
        try:
            if not await _act(alice):
                await env.advance_time(1)
        except TimeoutError:  # a searching AI or a picture took longer than simcord waits
            await asyncio.sleep(0.5)
    await _settle(env)
    await bot.manager.services.notifier.flush()
    await env.settle()
    table_msg = next(m for m in channel.history() if m.id == game.message_id)
    table_h = 0.0
    shown_w = 0.0
    for width in (PHONE, DESKTOP) if first else (PHONE,):
        async with (
            open_preview(env, channel, alice, width, 1400) as url,
            Browser(width, 1400) as browser,
        ):
            boxes = await browser.open(url)
            box = next(b for b in boxes if b["id"] == str(table_msg.id))
            if width == PHONE:
                table_h = box["last_button"] - box["top"]
                shown_w = box["image_width"]
            if out is not None:
                await browser.shoot(out / f"table-{slug}-{width}.png")
    dm_mid = await _dm_height(env, alice, PHONE, None)
    picture = shown_of(game).pictures.last
    assert picture is not None, "the table shows no picture"
    scale = shown_w / picture.width  # the sizes as the 400 px page shows them
    cap = font(picture.smallest_text).getbbox("H")
    return Measured(
        game_id,
        title,
        table_h,
        dm_full,
        dm_mid,
        shown_w,
        picture.smallest_text * scale,
        (cap[3] - cap[1]) * scale,
        picture.trick_card_w * scale,
        picture.layout_card_w * scale,
    )


# --------------------------------------------------------------- decision turns

DECISION_DEALS = 6  # deals played per game id looking for alice's decisions


def _decision(game: Any) -> str:
    """The kind of decision alice faces now (the phase's name; ``play+honours`` for
    an honours call offered beside the cards), or "" when she has none."""
    g = game.game
    if g.is_over or g.to_act() != 0:
        return ""
    legal = g.legal_actions(0)
    if g.phase != "play":
        return str(g.phase) if legal else ""
    if any(a.verb not in ("play", "claim") for a in legal):
        return "play+honours"
    return ""


async def _decide(alice: Any) -> bool:
    """alice's decision, the boldest one: the last option of a menu of choices (the
    highest call or bid), else the last live choice button that is not a pass or a
    decline (green), else what :func:`_act` does."""
    dm = alice.user.dm_channel.last_message if alice.user.dm_channel else None
    if dm is None:
        return False
    menu = next(
        (
            c
            for row in dm.components
            for c in getattr(row, "children", ()) or ()
            if c.type.value == 3 and not c.disabled and (c.custom_id or "").startswith("rh:c:")
        ),
        None,
    )
    if menu is not None:
        await alice.user.select(dm, [menu.options[-1].value])
        return True
    bold = [
        c
        for row in dm.components
        for c in getattr(row, "children", ()) or ()
        if c.type.value == 2
        and not c.disabled
        and ":a:" in (c.custom_id or "")
        and c.style.value == 3  # success: not a pass, a decline or a card
        and not any(s in (c.label or "") for s in "♠♥♦♣")
        and getattr(c, "emoji", None) is None
    ]
    if bold:
        await alice.user.click(dm, custom_id=bold[-1].custom_id)
        return True
    return await _act(alice)


@dataclass
class Decision:
    game_id: str
    decision: str
    height: float


async def _decisions_of(
    env: Any, bot: Any, guild: Any, n: int, game_id: str, out: Path | None
) -> list[Decision]:
    """Every kind of decision alice meets in up to :data:`DECISION_DEALS` deals of
    ``game_id``, each measured (and photographed into ``out``) the first time."""
    rules = make_rules(game_id)
    channel = guild.create_text_channel(f"{game_id}-decisions")
    alice = guild.add_member(env.create_user(f"alice{n}" if n else "alice"))
    await _calmly(env, alice.slash(channel, "ruff new", game=game_id))
    for _ in range(rules.players - 1):
        await _calmly(env, alice.click(channel.last_message, label="Add AI (easy)"))
    await _calmly(env, alice.click(channel.last_message, label="Start"))
    tid = max(bot.manager.tables)
    game = bot.manager.tables[tid]
    found: list[Decision] = []
    seen: set[str] = set()
    for _ in range(400 * DECISION_DEALS):
        g = game.game
        if g.is_over or g.deal_no > DECISION_DEALS:
            break
        kind = _decision(game)
        if kind and kind not in seen:
            await _settle(env)
            await bot.manager.services.notifier.flush()
            await env.settle()
            if _decision(game) == kind:
                seen.add(kind)
                shot = out / f"decision-{_slug(game_id)}-{kind}-400.png" if out else None
                found.append(Decision(game_id, kind, await _dm_height(env, alice, PHONE, shot)))
        try:
            step = _decide(alice) if kind else _act(alice)
            if not await step:
                await env.advance_time(1)
        except TimeoutError:
            await asyncio.sleep(0.5)
    return found


async def decisions(out: Path, games: list[str]) -> list[Decision]:
    """Measure every game id's decision DMs at 400 px and print the table."""
    out.mkdir(parents=True, exist_ok=True)
    results: list[Decision] = []
    async with simulated_bot(**SETTINGS) as (bot, env, guild):
        for n, game_id in enumerate(games):
            shots = out if game_id in PHOTOGRAPHED else None
            results.extend(await _decisions_of(env, bot, guild, n, game_id, shots))
            print(f"# {game_id}: {len(results)} decisions so far", flush=True)
    print(f"{'game':<22} {'decision':<14} {'dm@400':>7}")
    for d in results:
        flag = "" if d.height <= 400 else "  over 400"
        print(f"{d.game_id:<22} {d.decision:<14} {d.height:>5.0f}px{flag}")
    print("target: a decision DM <= 400 px at 400 px, from its author line to its last button")
    return results


SETTINGS: dict[str, Any] = {
    "turn_timeout": 90.0,
    "lobby_timeout": 0.0,
    "table_edit_interval": 0.0,
    "ai_worlds": 16,
}
"""The bot's settings for both measurements, over ``tools.preview_browser.SETTINGS``."""


async def main(out: Path, games: list[str]) -> list[Measured]:
    out.mkdir(parents=True, exist_ok=True)
    results: list[Measured] = []
    async with simulated_bot(**SETTINGS) as (bot, env, guild):
        for n, game_id in enumerate(games):
            photographed = out if game_id in PHOTOGRAPHED else None
            results.append(await _play_one(env, bot, guild, n, game_id, photographed, n == 0))
    print(
        f"{'game':<22} {'table@400':>9} {'dm@400 full':>11} {'dm@400 mid':>10} {'pic shown':>9}"
        f" {'text@shown':>10} {'H@shown':>7} {'card@shown':>10} {'layout@shown':>12}"
    )
    for m in results:
        print(
            f"{m.game_id:<22} {m.table_h:>7.0f}px {m.dm_full_h:>9.0f}px {m.dm_mid_h:>8.0f}px"
            f" {m.shown_w:>7.0f}px {m.smallest:>8.2f}px {m.cap:>5.1f}px {m.trick_w:>8.1f}px"
            f" {m.layout_w:>10.1f}px" + ("" if m.layout_w else " (none)")
        )
    print(
        "targets: table <= 450 px, DM <= 400 px (full: alice's first card, a full hand; mid: "
        "trick 2 or later), text >= 12 px, trick cards >= 48 px at the width the 400 px page"
        " shows the picture"
    )
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=OUT)
    parser.add_argument("--no-save", action="store_true", help="screenshots to a temporary folder")
    parser.add_argument(
        "--game", action="append", choices=game_ids(), help="only this game id (repeatable)"
    )
    parser.add_argument(
        "--decisions", action="store_true", help="measure the decision DMs instead of play turns"
    )
    args = parser.parse_args()
    chosen = args.game or list(GAMES)
    run = decisions if args.decisions else main
    if args.no_save:
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(run(Path(folder), chosen))
    else:
        asyncio.run(run(args.out, chosen))
