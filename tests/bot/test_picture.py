"""The table picture and the score chart (bot/present/picture.py, bot/present/chart.py, drawn with
bot/present/drawing.py): pure, no Discord.

Every state of seeded games of every game id draws a valid, small PNG of the
right size; the picture shows the same trick as the table text; it is drawn
from public information only (every seat's view draws the same picture); the
chart of a finished game ends on the engine's final score.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import re
import threading

import pytest
from PIL import Image

from bot.present import drawing
from bot.present import picture as pic
from bot.present.chart import HOW_MARKS, deal_history, score_chart
from bot.present.i18n import using
from bot.present.render import SEAT_NAMES, SeatInfo, TableInfo, trick_line
from engine import Card, Suit
from engine.events import GameOver
from tools.bench_picture import Form, finished, forms, play, table_info

MAX_BYTES = 60_000
FORMS = forms()


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


@pytest.mark.parametrize("form", FORMS, ids=[f.label for f in FORMS])
def test_every_state_of_a_seeded_game_draws_a_small_png(form: Form) -> None:
    """Every state of the first two deals, and the end of the game."""
    count = 0
    states = list(play(form, seed=7, max_deals=2))
    last_game = finished(form, seed=7)
    views = [view for _, view in states] + [last_game.observe(0)]
    info = table_info(states[0][0])
    for view in views:
        picture = pic.table_picture(info, view)
        image = _png(picture.png)
        assert image.mode == "P"  # palette: small
        assert (image.width, image.height) == (picture.width, picture.height)
        assert image.width == pic.WIDTH and 250 <= image.height <= 480, image.size
        assert len(picture.png) <= MAX_BYTES
        assert picture.description and len(picture.description) <= 1000
        count += 1
    assert count > 20
    assert "Game over" in pic.scene_of(info, views[-1]).status


@pytest.mark.parametrize(
    "form",
    [Form("ruff-honours-cotton"), Form("whist-long"), Form("turnover-bridge")],
    ids=lambda f: f.label,
)
def test_the_picture_shows_the_trick_the_text_shows(form: Form) -> None:
    """The description lists exactly the cards of render.trick_line, seat by seat, in order."""
    checked = 0
    for game, view in play(form, seed=3, max_deals=1):
        info = table_info(game)
        line = trick_line(view)
        scene = pic.scene_of(info, view)
        described = pic.describe(scene)
        if not line:
            continue
        shown = [Card.parse(tok) for tok in re.findall(r"(?:10|[2-9JQKA])[♠♥♦♣]", line)]
        assert [card for _, card in scene.trick] == shown
        assert scene.trick_winner is None  # a trick in progress, not the last one
        spoken = re.search(r"Trick \d+: ([^.]*)\.", described)
        assert spoken is not None
        expected = ", ".join(f"{SEAT_NAMES[s]} {pic.card_name(c)}" for s, c in view.trick)
        assert spoken.group(1) == expected
        checked += 1
    assert checked > 10


def test_a_finished_trick_stays_in_the_picture_with_its_winner() -> None:
    for game, view in play(Form("whist-5"), seed=2, max_deals=1):
        if view.phase == "play" and not view.trick and view.completed_tricks:
            leader, cards, winner = view.completed_tricks[-1]
            scene = pic.scene_of(table_info(game), view)
            assert [c for _, c in scene.trick] == list(cards)
            assert scene.trick[0][0] == leader and scene.trick_winner == winner
            assert f"won by {SEAT_NAMES[winner]}" in pic.describe(scene)
            return
    raise AssertionError("no finished trick seen")


@pytest.mark.parametrize(
    "form",
    [Form("ruff-honours-cotton"), Form("solo-whist"), Form("turnover-bridge")],
    ids=lambda f: f.label,
)
def test_every_seat_sees_the_same_picture(form: Form) -> None:
    """Drawn from public information only: each seat's view (a different hand) gives one scene."""
    for game, _ in list(play(form, seed=5, max_deals=1))[::7]:
        info = table_info(game)
        scenes = {pic.scene_of(info, game.observe(seat)) for seat in range(game.n_players)}
        assert len(scenes) == 1
        scene = scenes.pop()
        drawn = {c for _, c in scene.trick} | {p.up for piles in scene.layouts for p in piles}
        for seat in range(game.n_players):
            # no card of a hand is drawn (the turn-up, public, may still be in the dealer's hand)
            assert not set(game.observe(seat).hand) & drawn


def test_the_key_changes_with_the_table_and_the_cache_redraws_only_then() -> None:
    states = list(play(Form("whist-5"), seed=4, max_deals=1))[:6]
    game = states[0][0]
    info = table_info(game)
    keys = [pic.picture_key(info, view) for _, view in states]
    assert all(a != b for a, b in zip(keys, keys[1:], strict=False))
    assert pic.picture_key(info, states[2][1]) == keys[2]

    drawn: list[str] = []
    real = pic.draw_table

    def counting(scene: pic.Scene) -> pic.Picture:
        drawn.append(threading.current_thread().name)
        return real(scene)

    async def run() -> None:
        cache = pic.PictureCache()
        pic.draw_table = counting  # type: ignore[assignment]
        try:
            first = await cache.get(info, states[1][1])
            again = await cache.get(info, states[1][1])
            assert again is first
            other = await cache.get(info, states[2][1])
            assert other is not first and other.key == keys[2]
            off = await pic.render_off_loop(info, states[3][1])
            assert off.key == keys[3]
        finally:
            pic.draw_table = real  # type: ignore[assignment]

    asyncio.run(run())
    # twice by the cache (the unchanged scene was not drawn again), once by render_off_loop,
    # never on the event loop's thread
    assert len(drawn) == 3 and all(name != threading.main_thread().name for name in drawn)


def test_jokers_are_drawn_and_named_as_jokers_never_a_suit() -> None:
    game, view = next(iter(play(Form("whist-5"), seed=1)))
    big, little = Card.parse("BJ"), Card.parse("LJ")
    view = dataclasses.replace(
        view, trick=((0, big), (1, little), (2, Card.parse("AS"))), trick_no=1
    )
    scene = pic.scene_of(table_info(game), view)
    text = pic.describe(scene)
    assert "North Big Joker, East Little Joker, South ace of spades" in text
    assert "of" not in pic.card_name(big) and "of" not in pic.card_name(little)
    picture = pic.draw_table(scene)
    _png(picture.png)
    face = drawing.card_image(big, 58, 82)
    assert face.size == (58, 82)


def test_names_keep_what_the_font_draws_and_fall_back_to_the_seat() -> None:
    fnt = drawing.font(17, bold=True)
    assert drawing.drawable("Alice", fnt) == "Alice"
    assert drawing.drawable("\U0010fffd\U0010fffe", fnt) == ""
    game, view = next(iter(play(Form("whist-5"), seed=1)))
    info = TableInfo(3, game.rules, (SeatInfo("\U0010fffd", 1), None, SeatInfo("Cleo", 2), None))
    scene = pic.scene_of(info, view)
    assert scene.names[1] == "empty"
    _png(pic.draw_table(scene).png)
    assert (
        drawing.fit("a very long name indeed for a plate", fnt, 60)
        != "a very long name indeed for a plate"
    )


def test_pillows_built_in_font_is_used_where_dejavu_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(drawing, "FONT_DIRS", ())
    drawing.font.cache_clear()
    drawing.card_image.cache_clear()
    try:
        assert drawing._font_file(drawing.REGULAR_FILE) is None
        game, view = list(play(Form("ruff-honours-cotton"), seed=1, max_deals=1))[40]
        picture = pic.table_picture(table_info(game), view)
        assert len(picture.png) <= MAX_BYTES
        _png(picture.png)
    finally:
        drawing.font.cache_clear()
        drawing.card_image.cache_clear()


# ------------------------------------------------------------------ the score chart


@pytest.mark.parametrize(
    "form",
    [
        Form("ruff-honours-cotton"),
        Form("whist-long"),
        Form("solo-whist"),
        Form("turnover-bridge"),
        Form("ruff-trump-willughby", (("players", 3),)),
    ],
    ids=lambda f: f.label,
)
def test_the_chart_of_a_finished_game_ends_on_the_final_score(form: Form) -> None:
    game = finished(form, seed=5)
    points = deal_history(game.to_record())
    assert points
    assert points[-1].scores == tuple(game.scores)
    assert points[-1].game_winner is not None
    assert all(h in ("", *HOW_MARKS) for p in points for h in p.how)
    # every game of a match ends with a winner marked
    games = {p.game_no for p in points}
    assert {p.game_no for p in points if p.game_winner is not None} == games
    chart = score_chart(table_info(game), game)
    image = _png(chart.png)
    assert image.size == (chart.width, chart.height) and len(chart.png) <= MAX_BYTES
    assert chart.filename == "score.png" and "score chart" in chart.description


def test_the_chart_marks_a_game_won_by_can_ye() -> None:
    """Seeded game where East & West win by Can-ye: the last deal is marked 'call'."""
    game = finished(Form("ruff-honours-cotton"), seed=5)
    record = game.to_record()
    replayed = type(game).from_record(record)
    assert replayed.scores == game.scores
    points = deal_history(record)
    last = points[-1]
    how_over = _game_over_how(record)
    assert how_over in ("can_ye", "show")
    assert last.how[last.game_winner or 0] == "call"


def _game_over_how(record: dict[str, object]) -> str:
    from engine.actions import decode_action
    from engine.game import new_game

    game, _ = new_game(
        str(record["game_id"]), str(record["preset"]), {}, seed=int(str(record["seed"]))
    )
    how = ""
    for entry in record["actions"]:  # type: ignore[attr-defined]
        seat, _, action = str(entry).partition(" ")
        for ev in game.apply(int(seat), decode_action(action)):
            if isinstance(ev, GameOver):
                how = ev.how
    return how


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_trump_suits_name_is_drawn_whole_beside_a_turn_up(language: str) -> None:
    """Ruffe and Trump and Solo Whist show the turn-up beside the trump suit: every
    suit's name, in every language, is drawn whole (it used to run under the card:
    "Diamond" with the turn-up over the "s"), never cut or broken."""
    game, view = next(
        (g, v) for g, v in play(Form("ruff-honours-cotton"), seed=1) if v.phase == "play"
    )
    with using(language):
        base = pic.scene_of(table_info(game), view)
        for suit in Suit:
            for turn_up in (Card.parse("10" + suit.value), None):
                scene = dataclasses.replace(base, trump=suit, turn_up=turn_up, language=language)
                drawn = pic.draw_table(scene).texts
                assert pic.suit_name(suit).capitalize() in drawn, (suit, turn_up, drawn)
