"""The controls and ids of the auctions', ruff contests' and layouts' actions (no Discord needed)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.present import components as ui
from bot.present.controls import hand_controls
from bot.present.i18n import using
from bot.present.picture import scene_of
from bot.present.render import SEAT_NAMES, SeatInfo, TableInfo, card_label, event_lines
from engine import Card, make_rules, new_game
from engine.actions import Action, Play, TakeRuff
from engine.phases.contest import RuffClaim
from engine.phases.solo_auction import CALLS, solo_bid
from engine.phases.solo_declare import name_trump

from .dm_play import CALLS as LABELS
from .dm_play import true_ruff

BUTTON_RE = ui.RHButton.__discord_ui_compiled_template__  # type: ignore[attr-defined]
SELECT_RE = ui.RHSelect.__discord_ui_compiled_template__  # type: ignore[attr-defined]
NEW_ACTIONS: list[Action] = [
    *(solo_bid(c) for c in CALLS),
    *(name_trump(s) for s in "SHDC"),
    *(RuffClaim(v) for v in (0, 47, 95)),
]


def _items(view: Any) -> list[Any]:
    """The buttons and menus as Discord receives them (read back by discord.py's own
    parser), each with the row it is on."""
    items = []
    for r, row in enumerate(view.to_components()):
        for c in discord.ActionRow(row).children:
            fields = {
                k: getattr(c, k)
                for k in ("custom_id", "label", "disabled", "options", "min_values", "max_values")
                if hasattr(c, k)
            }
            items.append(SimpleNamespace(row=r, **fields))
    return items


@pytest.mark.parametrize("action", NEW_ACTIONS, ids=str)
def test_call_and_layout_action_ids_round_trip(action: Action) -> None:
    cid = ui.action_id(2**63 - 1, 10**9 - 1, 3, action)
    assert len(cid) <= 100 and BUTTON_RE.fullmatch(cid) and not SELECT_RE.fullmatch(cid)
    parsed = ui.parse_custom_id(cid[3:])
    assert parsed.kind == "a" and parsed.action == action


def test_choice_menu_ids_round_trip() -> None:
    cid = ui.choice_id(2**63 - 1, 10**9 - 1, 2, 3)
    assert len(cid) <= 100 and SELECT_RE.fullmatch(cid) and not BUTTON_RE.fullmatch(cid)
    parsed = ui.parse_custom_id(cid[3:])
    assert (parsed.kind, parsed.table_id, parsed.version, parsed.seat) == (
        "c",
        2**63 - 1,
        10**9 - 1,
        2,
    )
    for bad in ("c:1:2:3", "c:1:2:4:0", "c:1:2:3:10", "c:x:2:3:0"):
        with pytest.raises(ui.BadCustomId):
            ui.parse_custom_id(bad)


def test_solo_auction_offers_exactly_the_legal_calls_by_name() -> None:
    """Pass is a button; every call is an option of one menu, named, with what it
    undertakes as its description; the hand is in the text (no grey card buttons)."""
    game, _ = new_game(rules=make_rules("solo-whist"), seed=3)
    seat = game.to_act()
    view = game.observe(seat)
    items = _items(hand_controls(1, game.version, view))
    assert [i.label for i in items if not hasattr(i, "options")] == ["Pass"]
    (menu,) = [i for i in items if hasattr(i, "options")]
    offered = ["Pass"] + [o.label for o in menu.options]
    assert offered == [LABELS[a.call] for a in view.legal]  # type: ignore[attr-defined]
    assert all(o.description for o in menu.options)
    assert [o.value for o in menu.options] == [a.encode() for a in view.legal][1:]
    assert menu.min_values == menu.max_values == 1 and menu.row == 1
    other = game.observe((seat + 1) % 4)
    assert not [i for i in _items(hand_controls(1, game.version, other)) if not i.disabled]


def test_declared_ruff_menus_cover_every_value_with_the_true_one_featured() -> None:
    game, _ = new_game(
        rules=make_rules("ruff-trump-willughby", None, {"ruff_announce": "declared"}), seed=3
    )
    view = game.observe(game.to_act())
    items = _items(hand_controls(1, game.version, view))
    buttons = [i for i in items if not hasattr(i, "options")]
    menus = [i for i in items if hasattr(i, "options")]
    assert [b.label for b in buttons] == [f"Declare {true_ruff(view)} (my best suit)"]
    values = [o.value for m in menus for o in m.options]
    assert values == [f"ruffval:{v}" for v in range(96)]
    assert all(len(m.options) <= 25 and m.min_values == m.max_values == 1 for m in menus)
    assert len({m.row for m in menus} | {b.row for b in buttons}) == len(items) <= 5


@pytest.mark.parametrize("layout", ["seed004", "pagat"])
def test_turnover_layout_cards_are_marked_and_live_when_playable(layout: str) -> None:
    game, _ = new_game(rules=make_rules("turnover-bridge", None, {"layout": layout}), seed=7)
    for _ in range(3):
        seat = game.to_act()
        view = game.observe(seat)
        items = _items(hand_controls(1, game.version, view))
        ups = {p.up for p in view.layouts[seat] if p.up is not None and not p.fresh}
        labels = {i.label: i for i in items}
        for card in ups:
            assert f"▲{card_label(card)}" in labels
        for card in view.hand:
            assert card_label(card) in labels
        legal = {a.card for a in view.legal if isinstance(a, Play)}
        live = {
            Card.parse(i.custom_id.rsplit(":", 1)[1])
            for i in items
            if not i.disabled and ":play:" in i.custom_id
        }
        assert live == legal
        game.apply(seat, sorted(view.legal, key=str)[0])


def test_long_texts_fit_in_a_discord_message() -> None:
    from bot.present.render import fit

    text = fit(
        [
            "header",
            "Auction: " + "someone with a long name Spread Misère · " * 60,
            "• a recent line",
            "▶ turn",
        ]
    )
    assert len(text) <= 2000 and text.startswith("header\n") and text.endswith("▶ turn")
    assert "• a recent line" not in text  # recent lines go first


@pytest.mark.parametrize(
    ("game_id", "language", "take", "decline", "note"),
    [
        # Ruffe and Trump: the rub takes from the head; its "ruff" is the contest for the best suit
        (
            "ruff-trump-willughby",
            "en",
            "Take the top four of the head (rub)",
            "Decline the rub",
            "Rub: {who} may take four",
        ),
        (
            "ruff-trump-willughby",
            "de",
            "Die obersten vier vom Talon nehmen (Rub)",
            "Rub ablehnen",
            "Rub: {who} darf vier nehmen",
        ),
        (
            "ruff-honours-cotton",
            "en",
            "Take the stock (ruff)",
            "Decline the ruff",
            "Ruff: {who} may take the stock",
        ),
    ],
)
def test_the_rub_and_the_ruff_are_named_in_the_games_own_words(
    game_id: str, language: str, take: str, decline: str, note: str
) -> None:
    game = next(
        g
        for s in range(1, 20)
        if (g := new_game(rules=make_rules(game_id), seed=s)[0]).phase == "ruff"
    )
    seat = game.to_act()
    assert seat is not None
    view = game.observe(seat)
    info = TableInfo(
        1,
        game.rules,
        tuple(SeatInfo(n, user_id=i + 1) for i, n in enumerate(("Ann", "Bo", "Cy", "Di"))),
    )
    with using(language):
        live = [i.label for i in _items(hand_controls(1, game.version, view)) if not i.disabled]
        assert live == [take, decline]
        scene = scene_of(
            info, game.observe((seat + 1) % 4)
        )  # the public picture, as another seat sees it
    assert scene.notes == (note.format(who=scene.seat_labels[seat]),)
    assert scene.seat_labels[seat] == (
        SEAT_NAMES[seat] if language == "en" else ("Nord", "Ost", "Süd", "West")[seat]
    )


def test_the_rub_is_reported_as_four_cards_from_the_head() -> None:
    """At three players with 12-card hands the head holds 16 cards: the rub takes its top four."""
    rules = make_rules("ruff-trump-willughby", None, {"players": 3})
    game = next(g for s in range(1, 40) if (g := new_game(rules=rules, seed=s)[0]).phase == "ruff")
    seat = game.to_act()
    assert seat is not None and len(game.stock) == 16
    take = next(a for a in game.legal_actions(seat) if isinstance(a, TakeRuff))
    info = TableInfo(
        1, rules, tuple(SeatInfo(n, user_id=i + 1) for i, n in enumerate(("Ann", "Bo", "Cy")))
    )
    lines = [line for line in event_lines(info, game.apply(seat, take)) if " rubs (" in line]
    assert len(lines) == 1 and lines[0].endswith("takes four from the head, lays out four."), lines
