"""A decision DM (an auction call, a bid, naming trumps or the direction, the kitty,
the ruff or the rub, laying out, Can-ye, answering a claim) fits a phone's screen
with its controls, as a turn to play does (tests/bot/test_dm_fits_a_phone.py): the
controls are the choices alone (the hand is one line of text, not rows of grey
card buttons), at most two rows of them where the choices need a word of
explanation (a call's undertaking, a bid's books: in the menu's option
descriptions, not a paragraph above the buttons), and above them line 1, the lines
the decision rests on, and small context lines.

Heights in pixels are measured by ``python -m tools.measure_screens --decisions``
(every game id, every decision alice meets, at 400 px in Chromium); the estimate
here, calibrated on those measurements, holds the structure that gives them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.present.controls import hand_controls, hand_in_buttons
from bot.present.render import hand_message
from engine import Game, Play, SeatView, game_ids
from engine.claims import answering
from tools.bench_picture import Form, play, table_info

from .test_dm_fits_a_phone import suit_marks  # noqa: F401 - the fixture

PHONE_HEIGHT = 400  # px: a decision DM at 400 px wide, author line to last control
ROW = 48  # px: a row of buttons or a menu, with its gap
CHARS = {"": (38, 22), "-# ": (38, 22)}  # characters a line at 400 px, and its height (px)


def estimated_height(text: str, rows: int) -> int:
    """A hand DM's height at 400 px from its text and rows of controls (calibrated
    against Chromium's measurements of the same messages)."""
    height = 22  # the author line and the message's padding
    for line in text.splitlines():
        small = line.startswith("-# ")
        per_line, line_height = CHARS["-# " if small else ""]
        shown = line.replace("**", "")
        height += -(-max(1, len(shown)) // per_line) * line_height
    return height + rows * ROW


def _decisions(game_id: str) -> Iterator[tuple[str, Game, SeatView]]:
    """The first turn of each kind of decision any seat meets (the seat to act, or one
    asked about a claim) in seeded easy-AI games, from that seat's view."""
    seen: set[str] = set()
    for seed in range(1, 7):
        for game, _north in play(Form(game_id), seed, max_deals=10):
            seat = game.to_act()
            asked = answering(game)
            for s in ([seat] if seat is not None else []) + [a for a in asked if a != seat]:
                view = game.observe(s)
                if not view.legal or any(isinstance(a, Play) for a in view.legal):
                    continue
                if view.phase not in seen:
                    seen.add(view.phase)
                    yield view.phase, game, view


@pytest.mark.parametrize("game_id", game_ids())
async def test_a_decision_dm_fits_a_phone(game_id: str, suit_marks: Any) -> None:  # noqa: F811
    for phase, game, view in _decisions(game_id):
        rows = [r["components"] for r in hand_controls(1, game.version, view).to_components()]
        controls = [c for r in rows for c in r]
        assert not any(":play:" in c.get("custom_id", "") for c in controls), (game_id, phase)
        in_buttons = hand_in_buttons(view)
        assert not in_buttons, (game_id, phase)  # the hand is a line of text
        text = hand_message(table_info(game), view, in_buttons=in_buttons)
        assert "Your hand" in text, (game_id, phase, text)
        if any(c.get("type") == 3 and c.get("custom_id", "").startswith("rh:c:") for c in controls):
            menu = next(c for c in controls if c.get("type") == 3)
            assert len(rows) <= 2, (game_id, phase, rows)
            assert all(o.get("description") for o in menu["options"]), (game_id, phase)
        height = estimated_height(text, len(rows))
        assert height <= PHONE_HEIGHT, (game_id, phase, height, text)


async def test_the_solo_auction_explains_its_calls_in_the_menu(suit_marks: Any) -> None:  # noqa: F811
    phase, game, view = next(d for d in _decisions("solo-whist") if d[0] == "auction")
    rows = [r["components"] for r in hand_controls(1, game.version, view).to_components()]
    assert [c["label"] for c in rows[0]] == ["Pass"]
    menu = rows[1][0]
    described = {o["label"]: o["description"] for o in menu["options"]}
    assert described["Solo"] == "5 tricks alone" and described["Misère"] == "no trick, no trumps"
    assert described["Abundance"] == "9 tricks alone, you name trumps"
    first = hand_message(table_info(game), view).splitlines()[0]
    assert first.startswith("🟢 **Your call:**") and len(first) <= 90, first
