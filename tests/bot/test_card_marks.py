"""Cards a player tells apart on a phone: each card button carries its suit's emoji
(four colours: ♠ and ♣ differ at a glance), with the text labels when the emojis
cannot be set up; off turn the hand is a readable line of text, not grey buttons;
Turnover Bridge's layout cards come by the rows of the layout where the rows allow, marked ▲."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import discord
import pytest
from PIL import Image

from bot.present import suit_emojis
from bot.present.controls import hand_controls
from bot.present.render import card_label
from bot.present.render.common import rank_label
from engine import Card, Play, Suit, make_rules, new_game

from .conftest import make_settings, restart
from .helpers import buttons, hand_cards, hand_message, table_message

SUIT_OF_EMOJI = {name: suit for suit, name in suit_emojis.NAMES.items()}


async def _table_with_alice(env: Any) -> tuple[Any, Any]:
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "ruff new", game="whist-5")
    for _ in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Start")
    return channel, alice


def _card_buttons(message: discord.Message) -> list[Any]:
    return [b for b in buttons(message) if ":play:" in str(b.custom_id)]


def _pip_colour(png: bytes) -> tuple[int, int, int]:
    """The colour at the centre of an emoji (inside the pip of every suit)."""
    im = Image.open(io.BytesIO(png)).convert("RGB")
    r, g, b = im.getpixel((im.width // 2, int(im.height * 0.55)))
    return r, g, b


def test_the_four_suit_emojis_have_four_colours() -> None:
    colours = {suit: _pip_colour(suit_emojis.suit_png(suit)) for suit in Suit}
    spades, clubs = colours[Suit.SPADES], colours[Suit.CLUBS]
    assert max(spades) < 60, spades  # black
    assert clubs[1] > clubs[0] + 60 and clubs[1] > clubs[2] + 40, clubs  # green
    hearts, diamonds = colours[Suit.HEARTS], colours[Suit.DIAMONDS]
    assert hearts[0] > 150 and hearts[1] < 80, hearts  # red
    assert diamonds[0] > 180 and 80 < diamonds[1] < 160, diamonds  # orange
    assert len(set(colours.values())) == 4


@pytest.mark.parametrize("bot_settings", [{"seed": 5, "card_emojis": True}])
async def test_every_card_button_carries_its_suits_emoji(
    simcord_env: Any, more_bots: list[Any]
) -> None:
    env = simcord_env
    channel, alice = await _table_with_alice(env)
    uploaded = {e.name: e.id for e in env.backend.application_emojis.values()}
    assert set(uploaded) == set(suit_emojis.NAMES.values()), "uploaded once at start-up"
    table = env.bot.manager.tables[1]
    seen: set[Suit] = set()
    for _ in range(40):
        game = table.game
        if game.to_act() == 0:
            break
        await env.advance_time(1)
    msg = hand_message(alice)
    cards = _card_buttons(msg)
    assert cards, msg.content
    for b in cards:
        card = Card.parse(str(b.custom_id).rsplit(":", 1)[1])
        assert b.emoji is not None and b.emoji.id == uploaded[suit_emojis.NAMES[card.suit]]
        assert SUIT_OF_EMOJI[b.emoji.name] is card.suit
        assert b.label == rank_label(card)  # the rank beside the suit's colour
        seen.add(card.suit)
    assert len(seen) >= 3
    # the bot started again: the same emojis, none uploaded twice
    await restart(env, more_bots, make_settings(Path(env.bot.settings.database), card_emojis=True))
    assert len(env.backend.application_emojis) == 4


@pytest.mark.parametrize("bot_settings", [{"seed": 5}])
async def test_the_text_labels_when_the_emojis_cannot_be_uploaded(
    simcord_env: Any, db_path: Path, more_bots: list[Any]
) -> None:
    env = simcord_env
    env.inject_error("*", "/applications/*/emojis", status=403, code=50013, times=None)
    await restart(env, more_bots, make_settings(db_path, seed=5, card_emojis=True))
    channel, alice = await _table_with_alice(env)
    assert not env.backend.application_emojis
    table = env.bot.manager.tables[1]
    for _ in range(40):
        if table.game.to_act() == 0:
            break
        await env.advance_time(1)
    cards = _card_buttons(hand_message(alice))
    assert cards
    for b in cards:
        card = Card.parse(str(b.custom_id).rsplit(":", 1)[1])
        assert b.emoji is None and b.label == card_label(card)  # "A♠︎": the suit in the text


@pytest.mark.parametrize("bot_settings", [{"seed": 5, "ai_delay": 10.0}])
async def test_off_turn_the_hand_is_a_line_of_text_not_grey_buttons(simcord_env: Any) -> None:
    env = simcord_env
    channel, alice = await _table_with_alice(env)
    table = env.bot.manager.tables[1]
    for _ in range(40):  # the AI moves wait for the clock: alice's turn comes and goes
        if table.game.to_act() != 0:
            break
        view = table.game.observe(0)
        card = next(a for a in view.legal if isinstance(a, Play)).card
        await alice.user.click(
            hand_message(alice), custom_id=f"rh:a:1:{table.game.version}:0:play:{card.code}"
        )
    assert table.game.to_act() != 0
    msg = hand_message(alice)
    assert "Not your turn" in msg.content
    assert [b for b in buttons(msg) if b.disabled] == [], "no grey disabled buttons"
    line = next(ln for ln in msg.content.splitlines() if ln.startswith("Your hand"))
    assert sorted(c.code for c in hand_cards(msg)) == sorted(c.code for c in table.game.hand(0)), (
        line
    )
    # grouped by suit: each suit once, its ranks after it
    groups = line.split(": ", 1)[1].split(" · ")
    symbols = [g.split(" ")[0] for g in groups]
    assert len(symbols) == len(set(symbols)) == len({c.suit for c in table.game.hand(0)})
    # the turn comes back: the cards are buttons again
    for _ in range(40):
        if table.game.to_act() == 0:
            break
        await env.advance_time(10)
    assert table.game.to_act() == 0 and _card_buttons(hand_message(alice))


def _rows(view: Any) -> list[list[dict[str, Any]]]:
    return [row["components"] for row in view.to_components()]


@pytest.mark.parametrize("layout", ["seed004", "pagat"])
def test_turnover_layout_cards_one_row_per_layout_row(layout: str) -> None:
    game, _ = new_game(rules=make_rules("turnover-bridge", None, {"layout": layout}), seed=7)
    checked = 0
    for _ in range(12):
        seat = game.to_act()
        view = game.observe(seat)
        rows = _rows(hand_controls(1, game.version, view))
        assert len(rows) <= 5 and all(len(r) <= 5 for r in rows)
        labels = [c["label"] for r in rows for c in r]
        assert not any("(layout)" in x for x in labels)
        piles = view.layouts[seat]
        per_row = 5 if len(piles) == 9 else (len(piles) + 1) // 2
        layout_rows = [
            {p.up for p in piles[i : i + per_row] if p.up is not None and not p.fresh}
            for i in range(0, len(piles), per_row)
        ]
        marked = [r for r in rows if r and all(c["label"].startswith("▲") for c in r)]
        hand_rows = [
            r
            for r in rows
            if any(":play:" in c["custom_id"] for c in r)
            and not any(c["label"].startswith("▲") for c in r)
        ]
        shown = [{Card.parse(c["custom_id"].rsplit(":", 1)[1]) for c in r} for r in marked]
        # every marked row lies within one row of the layout where the five rows allow
        # (else the layout's cards flow in layout order), and the layout's rows come in order
        owners = [[i for i, lr in enumerate(layout_rows) if s <= lr] for s in shown]
        if all(owners):
            assert [o[0] for o in owners] == sorted(o[0] for o in owners)
        else:
            order = [p.up for p in piles if p.up is not None and not p.fresh]
            flat = [Card.parse(c["custom_id"].rsplit(":", 1)[1]) for r in marked for c in r]
            assert flat == [c for c in order if c in flat]
        assert set().union(*shown) == set().union(*layout_rows)
        # the layout's rows follow the hand's; a hand row holds one suit where rows allow
        assert rows[: len(hand_rows)] == hand_rows
        for r in hand_rows:
            suits = {Card.parse(c["custom_id"].rsplit(":", 1)[1]).suit for c in r}
            if len(hand_rows) >= len({c.suit for c in view.hand}):
                assert len(suits) == 1, r
        checked += 1
        game.apply(seat, sorted(view.legal, key=str)[0])
    assert checked == 12
