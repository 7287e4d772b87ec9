"""An event's standings picture (``bot.present.standings_picture``): it shows what the
standings say, line by line, at a size a 400 px phone reads; a field of 300 is cut to
the top and "and N more", the asker's own line kept; the movement since the round
before is each entrant's rank then less its rank now."""

from __future__ import annotations

import io
from dataclasses import replace
from fractions import Fraction

from PIL import Image

from bot.features.events.front import standings_scene
from bot.present.standings_picture import (
    MIN_TEXT,
    PAIR_ROWS,
    PICTURE_ROWS,
    draw_standings,
    layout,
)
from bot.store import EventRow
from bot.tables.events import Line, StandingsView
from bot.tables.events.views import moved_since

EVENT = EventRow(
    7, 1, 2, 3, "whist-5", "default", "individual", 2, 4, 8.0, 0.0, "running", 2, None, 1, 0.0
)
SHOWN_ON_PHONE = 304  # px: how wide a 400 px phone shows a picture (tools.measure_screens)


def _line(rank: str, name: str, pct: float, done: float, who: int) -> Line:
    return Line(rank, name, Fraction(pct), None, Fraction(done), (who,))


def test_the_picture_shows_each_line_of_the_standings_with_its_movement() -> None:
    before = [
        _line("1", "bob", 60, 1, 2),
        _line("2", "ann", 55, 1, 1),
        _line("=3", "cat", 50, 1, 3),
        _line("=3", "dan", 50, 1, 4),
        _line("-", "eve", 45, 0.25, 5),
    ]
    now = [
        _line("1", "ann", 62.5, 1, 1),
        _line("2", "dan", 56.25, 1, 4),
        _line("3", "bob", 51, 1, 2),
        _line("4", "cat", 48, 0.75, 3),
        _line("-", "eve", 40, 0.25, 5),
        _line("5", "fay", 30, 1, 6),  # a late joiner: no rank before
    ]
    lines = moved_since(now, before)
    assert [line.moved for line in lines] == [1, 1, -2, -1, None, None]
    view = StandingsView(EVENT, 2, tuple(lines), False)
    picture = draw_standings(standings_scene(view, "en"))
    texts = picture.texts
    assert "Event #7 · Whist 5-Point" in texts and "Standings after round 2 of 4" in texts
    for label, name, pct, played in (
        ("1", "ann", "62.5%", "100%"),
        ("2", "dan", "56.2%", "100%"),  # Python's rounding, as the text has it
        ("3", "bob", "51.0%", "100%"),
        ("4", "cat", "48.0%", "75%"),
        ("-", "eve", "40.0%", "25%"),
        ("5", "fay", "30.0%", "100%"),
    ):
        at = texts.index(name)
        assert texts[at - 1 : at + 3] == (label, name, pct, played), texts[at - 1 : at + 4]
    image = Image.open(io.BytesIO(picture.png))
    assert image.size == (400, picture.height) and picture.height < 400
    # 12 px and more on a 400 px phone, which shows it 304 px wide
    assert picture.shown_at(SHOWN_ON_PHONE, MIN_TEXT) >= 12
    assert picture.filename == "standings.png" and len(picture.png) < 100_000
    assert picture.description.startswith("Event #7 · Whist 5-Point. Standings after round 2")
    assert "1 ann 62.5%, 100% played, up 1;" in picture.description
    assert "3 bob 51.0%, 100% played, down 2;" in picture.description


def test_a_field_of_300_is_cut_to_its_top_and_the_asker_s_own_line() -> None:
    lines = tuple(_line(str(i + 1), f"player{i:03d}", 80 - i / 5, 1, 1000 + i) for i in range(300))
    view = StandingsView(EVENT, 1, lines, False)
    items, more = layout(standings_scene(view, "en"))
    assert len(items) == PICTURE_ROWS and items[-1] is None and more == 300 - 15
    asker = standings_scene(view, "en", viewer=1000 + 149)
    items, more = layout(asker)
    assert items[-2:] == [None, 149] and more == 300 - 15
    picture = draw_standings(asker)
    assert "… and 285 more: the text lists everyone" in picture.texts
    at = picture.texts.index("player149")  # the asker's line, after "and N more"
    assert picture.texts[at - 1 : at + 2] == ("150", "player149", "50.2%")
    assert at > picture.texts.index("… and 285 more: the text lists everyone")
    assert "player150" not in picture.texts
    assert picture.height <= 640 and len(picture.png) < 100_000  # a phone screen, a few KB
    assert len(picture.description) <= 1000  # Discord's alt text
    # someone in the top: nothing extra
    assert layout(standings_scene(view, "en", viewer=1003))[0][-1] is None


def test_pairs_and_swiss_in_german() -> None:
    swiss = replace(EVENT, format="swiss")
    lines = tuple(
        Line(
            str(i + 1),
            f"Maximiliane{i} & Bartholomäus{i}",
            Fraction(60 - i),
            Fraction(5 - i, 2),
            Fraction(1),
            (10 + 2 * i, 11 + 2 * i),
        )
        for i in range(20)
    )
    view = StandingsView(swiss, 4, lines, True)
    scene = standings_scene(view, "de", viewer=11 + 2 * 19)
    assert scene.swiss and scene.pairs and scene.mine == 19
    picture = draw_standings(scene)
    assert "Endergebnis" in picture.texts and "Paar" in picture.texts and "Pkt." in picture.texts
    # the names one above the other, whole, the match points German
    assert "Maximiliane0 &" in picture.texts and "Bartholomäus0" in picture.texts
    assert "2,5" in picture.texts
    assert len(layout(scene)[0]) == PAIR_ROWS
    assert picture.height <= 720
