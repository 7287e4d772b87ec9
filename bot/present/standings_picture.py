"""An event's standings as a picture a phone can read (issue #39): rank, name, score,
the share of boards played, and the movement since the round before.

Pure, like :mod:`bot.present.chart`, and drawn with the same :mod:`bot.present.drawing`
helpers; the :class:`~bot.present.painter.Painter` draws it in its worker. What it shows
is a :class:`StandingsScene` of plain values (the front makes it from the director's
standings). 400 px wide, every text at least :data:`MIN_TEXT` px (12 px on a 400 px
phone, where Discord shows it about 304 px wide).

**A large field.** The picture shows at most :data:`PICTURE_ROWS` lines
(:data:`PAIR_ROWS` of pairs, whose two names may take two lines), so that it
stays about as tall as a phone's screen (Discord shrinks a taller picture to fit, and
its text with it): the top of the standings, then "and N more" (the text posted beside
it lists everyone). Where the scene says whose standings they are (``mine``: the
``/ruff event standings`` of a player beyond the cut), their line is shown after "and N
more", highlighted. One picture a message, a few tens of kilobytes: far within
Discord's limits on attachments (10 files, 10 MB).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from bot.present.drawing import (
    BG,
    GOLD,
    MUTED,
    PANEL,
    PANEL_EDGE,
    RGB,
    TEXT,
    Font,
    Picture,
    drawable,
    fit,
    font,
    put_text,
    star,
    to_png,
)
from bot.present.i18n import _, ngettext, number, percent, using

__all__ = [
    "PICTURE_ROWS",
    "StandingsRow",
    "StandingsScene",
    "describe",
    "draw_standings",
    "layout",
]

WIDTH: Final = 400
MIN_TEXT: Final = 16  # px: 12.2 px where a phone shows the picture 304 px wide
ROW_TEXT: Final = 17
TITLE_TEXT: Final = 19
ROW_H: Final = 28
PAIR_ROW_H: Final = 44  # a pair's line: its two names one above the other where needed
PICTURE_ROWS: Final = 16
"""Lines a picture shows at most (the issue's 16-player event, all of it)."""
PAIR_ROWS: Final = 12
"""Lines of pairs a picture shows at most (taller lines: about as tall a picture)."""
MARGIN: Final = 12
UP: Final = (110, 210, 130)
DOWN: Final = (255, 112, 96)
MINE: Final = (52, 70, 84)  # the viewer's own line


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One line: ``label`` "1", "=2" or "-" (unranked); ``points`` a Swiss event's
    match points (None otherwise); ``moved`` places gained since the round before."""

    label: str
    name: str
    percent: float | None
    points: float | None
    completion: float
    moved: int | None


@dataclass(frozen=True, slots=True)
class StandingsScene:
    """What a standings picture shows."""

    event_id: int
    game: str  # the game's title
    through: int  # the last scored round (0: none yet)
    rounds: int
    final: bool
    pairs: bool  # entrants are pairs
    swiss: bool  # match points first
    rows: tuple[StandingsRow, ...]
    mine: int | None = None  # the index of the viewer's own line, if any
    language: str = "en"


def layout(scene: StandingsScene) -> tuple[list[int | None], int]:
    """The lines the picture shows, in order (an index into ``scene.rows``, or None
    for the "and N more" line), and how many it leaves out: the top of the standings,
    and where the viewer's own line is beyond them, it after "and N more"."""
    n, cap = len(scene.rows), PAIR_ROWS if scene.pairs else PICTURE_ROWS
    if n <= cap:
        return list(range(n)), 0
    mine = scene.mine
    if mine is not None and mine >= cap - 1:
        top: list[int | None] = list(range(cap - 2))
        return [*top, None, mine], n - len(top) - 1
    top = list(range(cap - 1))
    return [*top, None], n - len(top)


def _percent(value: float | None) -> str:
    return "–" if value is None else _("{value}%").format(value=number(value, 1))


def _points(value: float) -> str:
    return number(value, 1).removesuffix(".0").removesuffix(",0")


def heading(scene: StandingsScene) -> tuple[str, str]:
    """The picture's title and the line under it."""
    title = _("Event #{id} · {game}").format(id=scene.event_id, game=scene.game)
    if scene.final:
        sub = _("Final results")
    elif scene.through:
        sub = _("Standings after round {round} of {rounds}").format(
            round=scene.through, rounds=scene.rounds
        )
    else:
        sub = _("No round scored yet")
    return title, sub


def draw_standings(scene: StandingsScene) -> Picture:
    """The standings picture of ``scene``, its words in ``scene.language`` (it is drawn
    in the painter's process)."""
    with using(scene.language):
        return _draw(scene)


class _Pen:
    """Draws text and keeps every text drawn (``Picture.texts``: what tests read)."""

    def __init__(self, im: Image.Image) -> None:
        self.d = ImageDraw.Draw(im)
        self.texts: list[str] = []

    def text(self, xy: tuple[float, float], words: str, fnt: Font, fill: RGB, anchor: str) -> None:
        put_text(self.d, xy, words, font=fnt, fill=fill, anchor=anchor)
        self.texts.append(words)


def _draw(scene: StandingsScene) -> Picture:
    title, sub = heading(scene)
    items, more = layout(scene)
    row_font = font(ROW_TEXT)
    bold = font(ROW_TEXT, bold=True)
    small = font(MIN_TEXT)
    small_bold = font(MIN_TEXT, bold=True)
    title_font = font(TITLE_TEXT, bold=True)
    if scene.swiss:  # match points; the matchpoints' tie-break is in the text
        note = _("Pts: match points (a win 1, a draw ½). Played: boards played oneself.")
    else:
        note = _("Score: average matchpoints. Played: boards played oneself, not by the AI.")
    note_lines = _wrap(note, small, WIDTH - 2 * MARGIN)
    top = 66
    # the columns' edges: the rank (right), the name (left), the numbers (right), each
    # number column as wide as its widest value or its heading (words differ by language)
    head_pair = _("Pair") if scene.pairs else _("Player")
    head_pts, head_score, head_played = _("Pts"), _("Score"), _("Played")
    gap = 10
    rank_r, name_x = 54, 62
    move_r = WIDTH - MARGIN
    played_w = max(small.getlength(percent(1.0)), small.getlength(head_played))
    played_r = int(move_r - small_bold.getlength("88") - 14 - gap)
    pct_w = max(bold.getlength(_percent(100.0)), small.getlength(head_score))
    pct_r = int(played_r - played_w - gap)  # the score (Swiss: the match points)
    if scene.swiss:
        pct_w = max(bold.getlength(_points(10.5)), small.getlength(head_pts))
    name_r = int(pct_r - pct_w - gap)

    def two_lines(i: int) -> bool:
        name = drawable(scene.rows[i].name, row_font) or "?"
        return " & " in name and row_font.getlength(name) > name_r - name_x

    tall = scene.pairs and any(two_lines(i) for i in items if i is not None)
    row_h = PAIR_ROW_H if tall else ROW_H
    lines_h = sum(ROW_H if i is None else row_h for i in items)
    height = top + 26 + lines_h + 10 + 20 * len(note_lines) + 8
    im = Image.new("RGB", (WIDTH, height), BG)
    pen = _Pen(im)
    d = pen.d

    star(d, MARGIN + 9, 21, 10, GOLD)
    pen.text(
        (MARGIN + 26, 10), fit(title, title_font, WIDTH - 2 * MARGIN - 26), title_font, TEXT, "la"
    )
    pen.text((MARGIN, 38), sub, small_bold, GOLD if scene.final else MUTED, "la")

    y = top
    d.line([(MARGIN, y + 23), (WIDTH - MARGIN, y + 23)], fill=PANEL_EDGE, width=1)
    pen.text((rank_r, y), "#", small, MUTED, "ra")
    pen.text((name_x, y), head_pair, small, MUTED, "la")
    pen.text((pct_r, y), head_pts if scene.swiss else head_score, small, MUTED, "ra")
    pen.text((played_r, y), head_played, small, MUTED, "ra")
    pen.text((move_r, y), "±", small, MUTED, "ra")
    y += 26

    for n, i in enumerate(items):
        if i is None:
            words = ngettext(
                "… and {n} more: the text lists everyone",
                "… and {n} more: the text lists everyone",
                more,
            ).format(n=more)
            mid = y + ROW_H // 2 - 1
            pen.text((WIDTH / 2, mid), fit(words, small, WIDTH - 2 * MARGIN), small, MUTED, "mm")
            y += ROW_H
            continue
        line = scene.rows[i]
        mid = y + row_h // 2 - 1
        box = [MARGIN - 6, y, WIDTH - MARGIN + 6, y + row_h - 2]
        if i == scene.mine:
            d.rounded_rectangle(box, 6, fill=MINE, outline=GOLD)
        elif n % 2 == 0:
            d.rectangle(box, fill=PANEL)
        first = line.label.lstrip("=") == "1"
        label_font = bold if bold.getlength(line.label) <= rank_r - MARGIN + 4 else small_bold
        pen.text((rank_r, mid), line.label, label_font, GOLD if first else TEXT, "rm")
        name = drawable(line.name, row_font) or "?"
        room = name_r - name_x
        first_name, _amp, second_name = name.partition(" & ")
        if row_font.getlength(name) <= room or not second_name:
            pen.text((name_x, mid), fit(name, row_font, room), row_font, TEXT, "lm")
        else:  # a pair whose names do not fit on one line: one above the other
            pen.text(
                (name_x, mid - 1), fit(first_name + " &", row_font, room), row_font, TEXT, "ls"
            )
            pen.text((name_x, mid + 2), fit(second_name, row_font, room), row_font, TEXT, "lt")
        if scene.swiss and line.points is not None:
            pen.text((pct_r, mid), _points(line.points), bold, TEXT, "rm")
        else:
            pen.text((pct_r, mid), _percent(line.percent), bold, TEXT, "rm")
        pen.text((played_r, mid), percent(line.completion), small, MUTED, "rm")
        _movement(pen, line.moved, move_r, mid, small_bold)
        y += row_h
    y += 10
    for words in note_lines:
        pen.text((MARGIN, y), words, small, MUTED, "la")
        y += 20
    return Picture(
        to_png(im),
        describe(scene),
        scene,
        WIDTH,
        height,
        filename="standings.png",
        smallest_text=MIN_TEXT,
        texts=tuple(pen.texts),
    )


def _movement(pen: _Pen, moved: int | None, right: int, mid: int, fnt: Font) -> None:
    """A green triangle up and the places gained, a red one down and those lost, a
    dash for none; nothing where there is no rank to compare."""
    if moved is None:
        return
    if moved == 0:
        pen.text((right, mid), "–", fnt, MUTED, "rm")
        return
    words = str(abs(moved))
    colour = UP if moved > 0 else DOWN
    pen.text((right, mid), words, fnt, colour, "rm")
    x = right - fnt.getlength(words) - 14
    if moved > 0:
        pen.d.polygon([(x, mid + 5), (x + 11, mid + 5), (x + 5.5, mid - 5)], fill=colour)
    else:
        pen.d.polygon([(x, mid - 5), (x + 11, mid - 5), (x + 5.5, mid + 5)], fill=colour)


def _wrap(words: str, fnt: Font, width: float) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in words.split():
        trial = f"{current} {word}".strip()
        if current and fnt.getlength(trial) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def describe(scene: StandingsScene, limit: int = 1000) -> str:
    """The picture's alt text: the heading, then every line shown, in words."""
    title, sub = heading(scene)
    parts = [f"{title}. {sub}."]
    items, more = layout(scene)
    for i in items:
        if i is None:
            continue
        line = scene.rows[i]
        words = f"{line.label} {line.name} {_percent(line.percent)}"
        if scene.swiss and line.points is not None:
            words = _("{label} {name} {points} pts {percent}").format(
                label=line.label,
                name=line.name,
                points=_points(line.points),
                percent=_percent(line.percent),
            )
        words += ", " + _("{share} played").format(share=percent(line.completion))
        if line.moved:
            n = abs(line.moved)
            words += ", " + (
                ngettext("up {n}", "up {n}", n)
                if line.moved > 0
                else ngettext("down {n}", "down {n}", n)
            ).format(n=n)
        parts.append(words + ";")
    if more:
        parts.append(_("and {n} more.").format(n=more))
    out = " ".join(parts)
    return out if len(out) <= limit else out[: limit - 1] + "…"
