"""The hand DM on a turn to play fits a phone with a full hand, in every game: every
legal card has a live button, on rows a phone shows whole (four suit-marked cards
a row, three of the wider layout cards marked ▲), in at most four rows of cards
(five with a layout), and above them only the lines that matter now: what to do,
the trick, and small context lines (trumps and the contract, the table and score).

(Heights in pixels are printed by ``python -m tools.measure_screens``; these tests
hold the structure that gives them.)"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.present import suit_emojis
from bot.present.controls import hand_controls, hand_in_buttons
from bot.present.render import hand_message
from engine import Card, Game, Play, SeatView, game_ids
from tools.bench_picture import Form, play, table_info

from .helpers import buttons, hand_cards, table_message
from .helpers import hand_message as dm_of


@dataclass
class _Emoji:
    id: int
    name: str


class _Application:
    """Discord's application emojis (the edge): what is uploaded is listed."""

    def __init__(self) -> None:
        self.emojis: list[_Emoji] = []

    async def fetch_application_emojis(self) -> list[_Emoji]:
        return list(self.emojis)

    async def create_application_emoji(self, *, name: str, image: bytes) -> _Emoji:
        emoji = _Emoji(9000 + len(self.emojis), name)
        self.emojis.append(emoji)
        return emoji


@pytest.fixture
async def suit_marks() -> Any:
    """The card buttons carry the suit emojis (their widest form), as in production."""
    assert await suit_emojis.install(_Application())  # type: ignore[arg-type]
    yield
    suit_emojis.clear()


def _turns(game_id: str) -> Iterator[tuple[str, Game, SeatView]]:
    """North's first card to play (a full hand) and a turn mid-trick from trick 2 on,
    in seeded games played by the easy AI."""
    found: dict[str, tuple[Game, SeatView]] = {}
    for seed in range(1, 6):
        for game, view in play(Form(game_id), seed, max_deals=2):
            if not (view.my_turn and any(isinstance(a, Play) for a in view.legal)):
                continue
            if "full" not in found:
                found["full"] = (game, view)
            elif view.trick and view.trick_no >= 2 and "mid" not in found:
                found["mid"] = (game, view)
                break
        if len(found) == 2:
            break
    assert set(found) == {"full", "mid"}, f"{game_id}: no turn to play found"
    for when, (game, view) in found.items():
        yield when, game, view


def _card(component: dict[str, Any]) -> Card:
    return Card.parse(component["custom_id"].rsplit(":", 1)[1])


@pytest.mark.parametrize("game_id", game_ids())
async def test_every_legal_card_has_a_live_button_on_rows_a_phone_shows_whole(
    game_id: str, suit_marks: Any
) -> None:
    for when, game, view in _turns(game_id):
        rows = [r["components"] for r in hand_controls(1, game.version, view).to_components()]
        assert len(rows) <= 5 and all(len(r) <= 5 for r in rows), (when, rows)
        assert all(len(c["custom_id"]) <= 100 for r in rows for c in r)
        card_rows = [[c for c in r if ":play:" in c["custom_id"]] for r in rows]
        card_rows = [r for r in card_rows if r]
        live = {_card(c) for r in card_rows for c in r if not c["disabled"]}
        legal = {a.card for a in view.legal if isinstance(a, Play)}
        assert live == legal, (game_id, when)  # every legal card, one tap each; no other
        shown = {_card(c) for r in card_rows for c in r}
        assert set(view.hand) <= shown, (game_id, when)  # the whole hand, the rest disabled
        for row in card_rows:
            layout = [c for c in row if c["label"].startswith("▲")]
            assert len(row) <= (3 if layout else 4), (game_id, when, row)  # fits 400 px
            assert all(c.get("emoji") for c in row)
        hand_rows = [r for r in card_rows if not r[0]["label"].startswith("▲")]
        assert len(hand_rows) <= 4 and len(card_rows) <= 5, (game_id, when)
        if not view.layouts:  # a row is left for Claim
            assert len(card_rows) <= 4


@pytest.mark.parametrize("game_id", game_ids())
async def test_on_a_turn_to_play_only_the_lines_that_matter_now(
    game_id: str, suit_marks: Any
) -> None:
    for _when, game, view in _turns(game_id):
        info = table_info(game)
        assert hand_in_buttons(view)  # the hand is in the buttons: not listed again
        text = hand_message(info, view, in_buttons=True, deadline=1_900_000_000.0)
        lines = text.splitlines()
        assert lines[0].startswith("🟢 **Your turn") and "<t:1900000000:R>" in lines[0]
        rest = lines[1:]
        if view.trick:  # the trick on the table, the card now winning marked
            assert rest[0].startswith(f"Trick {view.trick_no}: "), text
            rest = rest[1:]
        elif view.completed_tricks:  # leading: the last trick and who won it
            assert rest[0].startswith("Last trick ("), text
            rest = rest[1:]
        assert rest and all(ln.startswith("-# ") for ln in rest), text  # the rest small
        assert len(rest) <= 4, text
        assert "Trumps" in rest[0] or "trumps" in rest[0], text
        assert f"table #{info.table_id}" in text and info.rules.title in text
        assert not any(ln.startswith(("You are", "Your hand", "Layouts (")) for ln in lines)


@pytest.mark.parametrize("bot_settings", [{"seed": 5, "card_emojis": True}])
async def test_turnover_full_hand_every_card_playable_from_the_dm(simcord_env: Any) -> None:
    """Turnover Bridge with a full hand and a full layout (eight cards and nine):
    alice's DM has a live button for every card she may lead, and one tap plays it."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("turnover")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "ruff new", game="turnover-bridge")
    await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Start")
    table = env.bot.manager.tables[1]
    for _ in range(40):
        if table.game.to_act() == 0:
            break
        await env.advance_time(1)
    view = table.game.observe(0)
    legal = {a.card for a in view.legal if isinstance(a, Play)}
    assert len(legal) >= 12  # a full hand and layout to choose from
    dm = dm_of(alice)
    live = {
        Card.parse(str(b.custom_id).rsplit(":", 1)[1]): b
        for b in buttons(dm)
        if ":play:" in str(b.custom_id) and not b.disabled
    }
    assert set(live) == legal
    assert hand_cards(dm) == [c for c in hand_cards(dm) if c in view.hand]
    layout_card = next(c for c in legal if c not in view.hand)
    await alice.user.click(dm, custom_id=live[layout_card].custom_id)
    assert table.game.observe(0).layouts[0] != view.layouts[0]  # played from the layout
