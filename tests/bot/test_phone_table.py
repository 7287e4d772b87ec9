"""A table made for the phone: the table message is one Components V2 layout (the
picture first, above the container, then two short lines and one row of buttons);
Last trick and This deal (with the scores; an older message's Scores too) answer
privately with public information only; with
pictures off the layout carries a compact text table; a table message from before the
layout still answers its buttons and is redrawn as a layout; the picture is drawn for
the width a 400 px phone shows it at (304 px, measured in simcord's preview by
tools.measure_screens): text at least 12 px and trick cards at least 48 px there, and
it cuts no name."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import discord
import pytest

from bot.present import picture as pic
from bot.present.render import SeatInfo, TableInfo, card_text
from engine import Card, make_rules, new_game
from tools.bench_picture import Form, play, table_info

from .helpers import (
    button_labels,
    buttons,
    choose_cards,
    forged_click,
    hand_message,
    labels_of,
    table_message,
)

ON_PHONE = pic.SHOWN_ON_PHONE  # px: the narrowest the picture is shown at


async def _table_in_play(env: Any, *, tricks: int = 2) -> tuple[Any, Any, Any, Any]:
    """alice opens a table with three AI players, starts and plays until ``tricks``
    tricks are complete; a mod (Manage Server) and bob (an onlooker) look on."""
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("whist")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    await alice.slash(channel, "ruff new")
    for _ in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Start")
    table = env.bot.manager.tables[1]
    for _ in range(200):
        game = table.game
        if game.phase == "play" and len(game.completed) >= tricks and game.to_act() == 0:
            break
        if not await _act(alice):
            await env.advance_time(1)
    await env.settle()
    await env.bot.manager.services.notifier.flush()
    return channel, alice, bob, mod


async def _act(member: Any) -> bool:
    msg = hand_message(member)
    if "Your turn" not in msg.content:
        return False
    found = [b for b in buttons(msg) if not b.disabled and ":a:" in (b.custom_id or "")]
    select = next((b for b in buttons(msg) if b.type == discord.ComponentType.string_select), None)
    if select is not None and not select.disabled:
        await choose_cards(member.user, msg, [o.value for o in select.options][: select.min_values])
        return True
    for label in ("Take the stock (ruff)", "Call “Can-ye?”", "Show honours", "Pass"):
        if any(b.label == label for b in found):
            await member.user.click(msg, label=label)
            return True
    cards = [b for b in found if any(s in (b.label or "") for s in "♠♥♦♣")]
    await member.user.click(msg, custom_id=(cards or found)[0].custom_id)
    return True


def _layout(message: discord.Message) -> list[Any]:
    """The picture (when there is one, above the container: the full column's width),
    then the children of the message's one container, in order."""
    assert message.flags.components_v2, "the table message is a Components V2 layout"
    assert message.content == "" and not message.embeds
    *top, box = message.components
    assert box.type is discord.ComponentType.container
    assert all(c.type is discord.ComponentType.media_gallery for c in top) and len(top) <= 1
    return [*top, *box.children]


@pytest.mark.parametrize("bot_settings", [{"turn_timeout": 90.0}])
async def test_the_table_message_is_a_layout_picture_first_then_three_lines_then_buttons(
    simcord_env: Any,
) -> None:
    channel, _alice, _bob, _mod = await _table_in_play(simcord_env)
    message = table_message(channel)
    children = _layout(message)
    gallery, text, *rows = children
    assert gallery.type is discord.ComponentType.media_gallery
    (item,) = gallery.items
    alt = item.description or ""
    # the alt text says what the old text said: the table, seats, trumps, scores, tricks
    for words in ("table #1", "N: alice", "Trumps:", "Dealer:", "Score:", "Tricks this deal:"):
        assert words in alt, (words, alt)
    assert [a.filename for a in message.attachments] == ["table.png"]
    assert text.type is discord.ComponentType.text_display
    lines = text.content.splitlines()
    # two lines: whose turn (alone: with its deadline it wrapped on a phone), then one
    # small line of the deadline and the last event
    assert len(lines) == 2, lines
    assert lines[0].startswith("▶ **North** — <@") and "<t:" not in lines[0], lines
    assert re.match(r"-# ⏱ <t:\d+:R> · ", lines[1]), lines
    # trumps are the picture's (its Trumps box, its alt text): not a wrapped line again
    assert "Trumps" not in lines[1], lines
    # one row of buttons, which fits a phone's line: the scores and Concede are behind
    # This deal
    assert len(rows) == 1 and rows[0].type is discord.ComponentType.action_row
    assert button_labels(message) == ["My hand", "Last trick", "This deal"]


def _played_and_unplayed(table: Any) -> tuple[set[Card], set[Card]]:
    game = table.game
    view = game.observe(0)
    played = {c for _leader, cards, _winner in view.completed_tricks for c in cards}
    played |= {c for _seat, c in view.trick}
    in_hands = {c for seat in range(game.n_players) for c in game.hand(seat)}
    return played, in_hands - {view.turn_up}  # the turn-up is shown to everyone


def _cards_named(text: str, cards: set[Card]) -> set[Card]:
    """The cards among ``cards`` that ``text`` names (as the bot writes a card)."""
    return {c for c in cards if re.search(r"(?<![0-9A-Za-z])" + re.escape(card_text(c)), text)}


async def test_last_trick_this_deal_and_scores_answer_privately_with_public_information_only(
    simcord_env: Any,
) -> None:
    env = simcord_env
    channel, alice, bob, _mod = await _table_in_play(env, tricks=3)
    table = env.bot.manager.tables[1]
    played, in_hands = _played_and_unplayed(table)
    assert len(played) >= 12 and in_hands
    before = table.game.state_key()
    answers: dict[str, list[str]] = {}
    for who in (alice, bob):  # a player and an onlooker see the same
        for label in ("Last trick", "This deal"):
            res = await who.click(table_message(channel), label=label)
            assert res.ephemeral, label
            answers.setdefault(label, []).append(res.response.content)
            if label == "This deal":  # Concede for alice (a player), nothing for bob
                offered = labels_of(res.response.components)
                assert offered == (["Concede"] if who is alice else []), offered
    # an older table message's Scores still answers
    old = await forged_click(env, bob, table_message(channel), "rh:t:1:scores")
    assert old.ephemeral
    answers["Scores"] = [old.response.content, old.response.content]
    for label, (to_alice, to_bob) in answers.items():
        assert to_alice == to_bob, label
        assert not _cards_named(to_alice, in_hands), f"{label} names a card still in a hand"
    deal = answers["This deal"][0]
    view = table.game.observe(0)
    for number, (leader, cards, winner) in enumerate(view.completed_tricks, start=1):
        line = next(ln for ln in deal.splitlines() if ln.startswith(f"{number}. "))
        assert f"{number}. {('North', 'East', 'South', 'West')[leader]} (" in line, line
        assert _cards_named(line, set(cards)) == set(cards), line
        assert f"→ **{('North', 'East', 'South', 'West')[winner]} (" in line, line
    assert _cards_named(deal, played) == played, "every card played this deal is listed"
    # This deal says the scores too (the table has no Scores button any more)
    assert "Score:" in deal and "Tricks this deal:" in deal and "Dealer:" in deal
    assert "Score:" in answers["Scores"][0] and "Tricks this deal:" in answers["Scores"][0]
    assert table.game.state_key() == before, "looking changes nothing"


async def test_with_pictures_off_the_layout_carries_a_compact_text_table(simcord_env: Any) -> None:
    env = simcord_env
    channel, alice, _bob, mod = await _table_in_play(env)
    res = await mod.slash(channel, "ruff settings", pictures="off")
    assert res.ephemeral
    await _act(alice)
    await env.settle()
    await env.bot.manager.services.notifier.flush()
    message = table_message(channel)
    children = _layout(message)
    assert not any(c.type is discord.ComponentType.media_gallery for c in children)
    assert not message.attachments
    table_text, lines, *_rows = children
    compact = table_text.content
    assert compact.startswith("🃏 **Ruff and Honours**") and "table #1" in compact
    for words in ("N: alice", "Score:", "Tricks this deal:"):
        assert words in compact, (words, compact)
    assert len(compact.splitlines()) <= 8
    assert 1 <= len(lines.content.splitlines()) <= 3


async def test_a_table_message_from_before_the_layout_answers_and_is_redrawn_once(
    simcord_env: Any,
) -> None:
    env = simcord_env
    channel, _alice, bob, _mod = await _table_in_play(env)
    message = table_message(channel)
    stored = env.backend.get_message(channel.id, message.id)
    # the message as the bot drew it before: content, rows of buttons, no V2 flag
    stored.flags = 0
    stored.content = "🃏 **Ruff and Honours** · preset `cotton1674` · table #1 · game 1, deal 1"
    stored.components = [
        {
            "type": 1,
            "id": 0,
            "components": [
                {"type": 2, "id": 0, "style": 1, "label": "My hand", "custom_id": "rh:t:1:hand"},
                {"type": 2, "id": 0, "style": 2, "label": "Last trick", "custom_id": "rh:t:1:last"},
            ],
        },
        {
            "type": 1,
            "id": 0,
            "components": [
                {"type": 2, "id": 0, "style": 2, "label": "Concede", "custom_id": "rh:t:1:concede"}
            ],
        },
    ]
    old = channel.get_message(message.id) if hasattr(channel, "get_message") else message
    assert not env.backend.get_message(channel.id, message.id).flags & (1 << 15)
    res = await bob.click(old, label="Last trick")
    assert res.ephemeral and "won" in res.response.content
    await env.settle()
    await env.bot.manager.services.notifier.flush()
    redrawn = table_message(channel)
    assert redrawn.id == message.id
    assert redrawn.flags.components_v2 and redrawn.content == ""
    assert "This deal" in button_labels(redrawn)


# ------------------------------------------------------------------ the picture


FAMILIES = [
    Form("ruff-honours-cotton"),
    Form("whist-long"),
    Form("solo-whist"),
    Form("bid-whist"),
    Form("ruff-trump-willughby"),
    Form("ruff-trump-willughby", (("players", 3),)),
    Form("turnover-bridge"),
]


def _mid_trick(form: Form) -> tuple[Any, Any]:
    for seed in range(1, 12):
        for game, view in play(form, seed, max_deals=3):
            if view.phase == "play" and view.trick_no >= 3 and len(view.trick) >= 1:
                return game, view
    raise AssertionError(f"{form.label}: no mid-trick state")


@pytest.mark.parametrize("form", FAMILIES, ids=lambda f: f.label)
def test_at_the_width_a_phone_shows_it_text_is_12_px_and_trick_cards_48_px(form: Form) -> None:
    game, view = _mid_trick(form)
    picture = pic.table_picture(table_info(game), view)
    assert picture.width == pic.WIDTH and picture.texts
    assert ON_PHONE == 304  # a 400 px phone's message column (tools.measure_screens)
    # measured while drawing: the smallest font drawn, card indices included
    assert picture.shown_at(ON_PHONE, picture.smallest_text) >= 12, picture.smallest_text
    assert picture.shown_at(ON_PHONE, picture.trick_card_w) >= 48, picture.trick_card_w
    # shown 304 px wide, a phone shows it at most about this tall
    assert picture.shown_at(ON_PHONE, picture.height) <= 370, picture.height
    if view.layouts:  # Turnover Bridge: the layout cards are drawn, their indices readable
        assert picture.shown_at(ON_PHONE, picture.layout_card_w) >= 25
    image_size = pic.draw_table(pic.scene_of(table_info(game), view))
    assert (image_size.width, image_size.height) == (picture.width, picture.height)


LONG_NAMES = (
    "Bartholomew the Magnificent",
    "Maximiliana Wolkenstein",
    "Xochiquetzalcoatlicue",  # one long word
    "Guinevere Pendragon",
)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_name_is_cut_at_any_table_size(players: int) -> None:
    game_id = {2: "turnover-bridge", 3: "ruff-trump-willughby", 4: "ruff-honours-cotton"}[players]
    overrides = {"players": 3} if players == 3 else {}
    rules = make_rules(game_id, None, overrides)
    game, _ = new_game(rules.game_id, rules.preset, overrides, seed=4)
    seats = tuple(SeatInfo(LONG_NAMES[s], 1000 + s) for s in range(players))
    info = TableInfo(1, game.rules, seats)
    picture = pic.table_picture(info, game.observe(0))
    drawn = picture.texts
    assert not any("…" in t or "..." in t for t in drawn), drawn
    joined = "".join(drawn).replace(" ", "")
    for name in LONG_NAMES[:players]:
        whole = name.replace(" ", "")
        # a line break inside a long word is marked with a hyphen: read through it
        assert whole in joined or whole in joined.replace("-", ""), (name, drawn)
    assert picture.shown_at(ON_PHONE, picture.smallest_text) >= 12


def _first(form: Form, seeds: range, wanted: Any) -> tuple[Any, Any] | None:
    for seed in seeds:
        for game, view in play(form, seed, max_deals=4):
            if wanted(view):
                return game, view
    return None


def test_the_picture_says_bidding_to_be_named_and_downtown_never_no_trumps_then() -> None:
    form = Form("bid-whist")
    found = _first(form, range(1, 4), lambda v: v.phase == "bidding")
    assert found is not None
    bidding = pic.table_picture(table_info(found[0]), found[1])
    assert "Bidding" in bidding.texts and "No trumps" not in bidding.texts
    found = _first(form, range(1, 8), lambda v: v.phase == "name")
    assert found is not None
    naming = pic.table_picture(table_info(found[0]), found[1])
    assert "To be named" in naming.texts and "No trumps" not in naming.texts
    found = _first(
        form, range(1, 20), lambda v: v.phase == "play" and v.rank_order.direction == "downtown"
    )
    assert found is not None, "no downtown deal in the seeds"
    downtown = pic.table_picture(table_info(found[0]), found[1])
    assert "downtown" in downtown.texts or "downtown" in " ".join(downtown.texts)


def test_a_spread_hand_is_drawn_face_up_and_every_badge_is_in_the_key() -> None:
    found = _first(Form("solo-whist"), range(1, 6), lambda v: v.phase == "play" and v.contract)
    assert found is not None
    game, view = found
    scene = pic.scene_of(table_info(game), view)
    assert scene.declarer is not None
    # the declarer's badge (C) is explained in the key, as is the dealer's (D)
    drawn = pic.draw_table(scene).texts
    assert "C" in drawn and "declarer" in drawn and "D" in drawn and "dealer" in drawn
    # a Spread Misère hand (public once exposed) is drawn face up, every card of it
    hand = tuple(sorted(game.hand(scene.declarer), key=str))
    exposed_view = dataclasses.replace(view, exposed=((scene.declarer, hand),))
    assert pic.scene_of(table_info(game), exposed_view).exposed == ((scene.declarer, hand),)
    spread = pic.draw_table(
        dataclasses.replace(scene, exposed=((scene.declarer, hand),), contract="Spread Misère")
    )
    label = f"{scene.seat_labels[scene.declarer]}'s hand, face up"
    assert label in spread.texts
    assert spread.height > pic.draw_table(scene).height  # the row of face-up cards is added
    assert spread.shown_at(ON_PHONE, spread.smallest_text) >= 12


def test_the_second_line_names_trumps_the_contract_and_a_no_trump_bids_direction() -> None:
    from bot.present.render import contract_name, table_lines

    seen_no_trump = False
    for seed in range(1, 12):
        for game, view in play(Form("bid-whist"), seed, max_deals=2):
            if view.phase != "play" or view.declarer is None:
                continue
            info = table_info(game)
            line = table_lines(info, view)[1]
            assert line.startswith("-# ") and len(line) <= 90, line
            assert contract_name(view.contract) in line and info.names[view.declarer] in line
            if view.trump is None:
                seen_no_trump = True
                assert view.rank_order.direction in line, line
            break
    assert seen_no_trump, "no no-trump contract in the seeds"


def test_under_the_picture_the_turn_then_one_small_line_of_trumps_and_the_last_event() -> None:
    """A phone's table message: the turn line, then the turn's deadline, trumps (the
    card turned up is in the picture) and the last event by seat alone (the picture
    names each seat's player) on one small line."""
    from bot.present.render import table_lines

    game, _ = new_game(rules=make_rules("whist-long"), seed=3)
    while not (game.phase == "play" and game.trick):
        seat = game.to_act()
        assert seat is not None
        game.apply(seat, sorted(game.legal_actions(seat), key=str)[0])
    names = ("alice", "bob", "carol", "dave")
    info = TableInfo(1, game.rules, tuple(SeatInfo(n, 100 + i) for i, n in enumerate(names)))
    view = game.observe(0)
    leader = view.trick[0][0]
    event = f"{info.seat_name(leader)} led {card_text(view.trick[0][1])}."
    lines = table_lines(info, view, [event], deadline=1_900_000_000.0)
    assert len(lines) == 2 and "<t:" not in lines[0], lines
    small = lines[1]
    # the deadline first (it is the turn's), then trumps, then the last event
    assert small.startswith("-# ⏱ <t:1900000000:R> · Trumps: **"), small
    assert "turned up" not in small, small
    assert small.endswith(f" · {info.names[leader]} led {card_text(view.trick[0][1])}."), small
    assert f"({names[leader]})" not in small


def test_a_table_with_hints_says_so_on_the_table_not_only_in_the_alt_text() -> None:
    """issue #37: "Hints on · unrated" was only in the picture's alt text."""
    from bot.present.render import table_lines

    game, view = next((g, v) for g, v in play(Form("whist-5"), 1, max_deals=1) if v.phase == "play")
    info = dataclasses.replace(table_info(game), hints=True)
    lines = table_lines(info, view)
    assert lines[1].startswith("-# 💡 Hints on · unrated · Trumps:"), lines
    plain = table_lines(table_info(game), view)
    assert "Hints on" not in "\n".join(plain)
