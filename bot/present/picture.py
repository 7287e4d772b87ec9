"""A picture of the table: the public table message's image, drawn with Pillow.

Pure: no Discord, no database, no files. :func:`scene_of` reads an engine
:class:`~engine.SeatView` and the table's :class:`~bot.present.render.TableInfo` and
keeps only what every seat may see — seat names, the current (or just
finished) trick, trumps and the turn-up, scores, targets, tricks this deal,
the dealer and whose turn it is, face-up layout cards and the contract. It
never reads ``view.hand`` or anything private, so the picture can be drawn from
any seat's view. The :class:`Scene` is also the picture's key: two states
with equal scenes draw the same picture, so the caller re-draws only when the
key changes (:class:`PictureCache`).

:func:`draw_table` turns a scene into a PNG (a palette image, a few tens of KB)
and the alt text a screen reader says (:func:`describe`);
:func:`render_off_loop` does that in a worker thread so the event loop is never
blocked. The fonts, colours, pips and card sprites it draws with are in
:mod:`bot.present.drawing` (shared with :mod:`bot.present.chart`, the end-of-game score
chart). Characters a font cannot draw are left out of names (a name left empty
shows as its seat).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from bot.present.drawing import (
    BG,
    CARD_FACE,
    FELT,
    FELT_EDGE,
    GOLD,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PLATE,
    PLATE_TEXT,
    RGB,
    TEXT,
    Font,
    Picture,
    back_image,
    card_image,
    card_text_size,
    draw_pip,
    drawable,
    font,
    paste,
    put_text,
    to_png,
)
from bot.present.i18n import _, ngettext, using
from bot.present.render import TableInfo
from bot.present.render.common import suit_name
from bot.present.scene import Row, Scene, card_name, describe, picture_key, scene_of
from engine import Card, PileView, SeatView

__all__ = [
    "Picture",
    "PictureCache",
    "Scene",
    "card_name",
    "describe",
    "draw_table",
    "picture_key",
    "render_off_loop",
    "scene_of",
    "table_picture",
]

WIDTH: Final = 400
"""The picture's width in its own pixels. A phone of 400 px shows it about 304 px wide
(the message column: the picture stands above the table's container, not inside its
padding, :mod:`bot.present.layout`), a desktop at about this size, sharp. Every size
below is in the picture's pixels, chosen so that at that shown width its text is at
least 12 px and its trick cards at least 48 px wide (``tests/bot/test_picture.py``)."""
SHOWN_ON_PHONE: Final = (
    304  # the width a 400 px phone shows it at (measured, tools.measure_screens)
)
MIN_TEXT: Final = 16  # px: the smallest text drawn (12.2 px at 304 px shown width)
NAME_TEXT: Final = 18  # a player's name, a count, trumps: as large as they fit, down to MIN_TEXT
NAME_SIZES: Final = (NAME_TEXT, 17, MIN_TEXT)
CARD_W: Final = 64  # a trick card (48.6 px wide at 304 px)
CARD_H: Final = 86
SIDE_DROP: Final = 18  # how far the left and right cards sit below the top card
LAYOUT_W: Final = 34  # a Turnover layout card: five a row (its index 16 px: 12.2 px at 304 px)
LAYOUT_H: Final = 50
SPREAD_W: Final = 28  # a card of a hand laid face up (Spread Misère): 13 fit in a row
SPREAD_H: Final = 40
TURN_UP_W: Final = 34
TURN_UP_H: Final = 48
MARGIN: Final = 6
STRIP_H: Final = 62  # the row of boxes at the top: trumps, score, tricks
KEY_H: Final = 28  # the bottom row: the key (whose turn, the badges) and the title
WIDE_PLATE_W: Final = 256  # the top and bottom seats
SIDE_PLATE_W: Final = 96  # the left and right seats
LINE: Final = 21  # the height of one line of plate text
BADGE: Final = 22  # a badge's circle (D, C)
DEALER_COLOUR: Final = (70, 110, 200)
DECLARER_COLOUR: Final = (170, 60, 150)

# where each seat sits, by table size: top, right, bottom, left
SLOTS: Final = {
    2: ("top", "bottom"),
    3: ("top", "right", "bottom"),
    4: ("top", "right", "bottom", "left"),
}


class _Pen:
    """Draws text and cards on one picture and keeps the picture's measurements:
    the smallest text it drew and the width of its trick and layout cards."""

    def __init__(self, im: Image.Image) -> None:
        self.im = im
        self.d = ImageDraw.Draw(im)
        self.smallest = 10**6
        self.texts: list[str] = []  # every text drawn, in order
        self.trick_w = 0
        self.layout_w = 0

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int = MIN_TEXT,
        *,
        bold: bool = False,
        fill: RGB = TEXT,
        anchor: str | None = None,
    ) -> None:
        if not text.strip():
            return
        self.smallest = min(self.smallest, size)
        self.texts.append(text)
        put_text(self.d, xy, text, font=font(size, bold=bold), fill=fill, anchor=anchor)

    def card(self, card: Card, x: int, y: int, w: int, h: int) -> None:
        self.smallest = min(self.smallest, card_text_size(card, w))
        paste(self.im, card_image(card, w, h), x, y)

    def box(self, box: tuple[int, int, int, int], title: str) -> int:
        """A panel with a title; the y where its content starts."""
        self.d.rounded_rectangle(box, radius=8, fill=PANEL, outline=PANEL_EDGE, width=1)
        self.text((box[0] + 8, box[1] + 4), title.upper(), MIN_TEXT, bold=True, fill=MUTED)
        return box[1] + 4 + LINE + 1


def wrap(
    text: str, width: float, sizes: Sequence[int], lines: int, bold: bool = True
) -> tuple[list[str], int]:
    """:func:`_wrap` (a picture wraps the same names at every move: cached)."""
    out, size = _wrap(text, width, tuple(sizes), lines, bold)
    return list(out), size


@lru_cache(maxsize=2048)
def _wrap(
    text: str, width: float, sizes: tuple[int, ...], lines: int, bold: bool
) -> tuple[tuple[str, ...], int]:
    """``text`` in at most ``lines`` lines of at most ``width`` px, at the largest of
    ``sizes`` that holds it whole: broken between words, and a word longer than a
    line broken inside it (never cut off, never an ellipsis). At the smallest size
    a text that still needs more lines gets them (the caller's box grows)."""
    for size in sizes:  # whole words in the lines there are, as large as they fit
        fnt = font(size, bold=bold)
        out = _wrap_words(text, fnt, width)
        if len(out) <= lines and not any(line.endswith("-") for line in _broken(out, text)):
            return tuple(out), size
    size = sizes[-1]  # the smallest: a line more rather than a broken word, where it helps
    return tuple(_wrap_words(text, font(size, bold=bold), width)), size


def _broken(lines: list[str], text: str) -> list[str]:
    """The lines that end inside a word (a hyphen the text does not have there)."""
    words = set(text.split())
    return [line for line in lines if line.endswith("-") and line.split()[-1] not in words]


def _wrap_words(text: str, fnt: Font, width: float) -> list[str]:
    out: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if fnt.getlength(candidate) <= width:
            line = candidate
            continue
        if line:
            out.append(line)
        line = ""
        while fnt.getlength(word) > width:  # a word longer than a line: break it
            cut = len(word) - 1
            while cut > 1 and fnt.getlength(word[:cut] + "-") > width:
                cut -= 1
            out.append(word[:cut] + "-")
            word = word[cut:]
        line = word
    if line:
        out.append(line)
    return out or [""]


def _plate_lines(scene: Scene, seat: int, w: int, wide: bool) -> tuple[str, list[str], int, str]:
    """A seat's plate: its header (the seat), the name's lines and their size, and
    what it holds (the hand size, or its last call). A wide plate with a name that
    fits shows all in one row (no name lines: the header carries the name)."""
    cards = ngettext("{n} card", "{n} cards", scene.hand_sizes[seat]).format(
        n=scene.hand_sizes[seat]
    )
    info = scene.calls[seat] or cards
    badges = _badges(scene, seat)
    label = scene.seat_labels[seat]
    name = drawable(scene.names[seat], font(NAME_TEXT, bold=True)) or label
    if wide:
        room = w - 16 - (BADGE + 3) * len(badges)
        one_row = (
            font(MIN_TEXT).getlength(f"{label}  ")
            + font(NAME_TEXT, bold=True).getlength(name)
            + font(MIN_TEXT).getlength(f"  {info}")
        )
        if one_row <= room:
            return label, [], NAME_TEXT, info
        names, size = wrap(name, w - 16, NAME_SIZES, 1)
        return label, names, size, info
    room = w - 12 - (BADGE + 3) * len(badges)
    names, size = wrap(name, w - 12, NAME_SIZES, 2)
    if font(MIN_TEXT).getlength(label) > room:
        label = label[:1]  # the seat's initial, as the score and tricks boxes name it
    return label, names, size, info


def _badges(scene: Scene, seat: int) -> list[tuple[str, RGB]]:
    badges: list[tuple[str, RGB]] = []
    if scene.dealer == seat:
        badges.append((_("D"), DEALER_COLOUR))
    if scene.declarer == seat and scene.contract:
        badges.append((_("C"), DECLARER_COLOUR))
    return badges


def _plate_height(scene: Scene, seat: int, w: int, wide: bool) -> int:
    _head, names, _size, _info = _plate_lines(scene, seat, w, wide)
    if wide:
        return 6 + LINE + LINE * len(names) + 4
    return 6 + LINE + LINE * len(names) + LINE + 6


def _plate(pen: _Pen, scene: Scene, seat: int, x: int, y: int, w: int, slot: str) -> int:
    """Draw a seat's plate at (x, y); its height."""
    wide = slot in ("top", "bottom")
    head, names, size, info = _plate_lines(scene, seat, w, wide)
    h = _plate_height(scene, seat, w, wide)
    d = pen.d
    active = scene.to_act == seat
    d.rounded_rectangle(
        [x, y, x + w, y + h],
        radius=9,
        fill=GOLD if active else PLATE,
        outline=(255, 255, 255) if active else PANEL_EDGE,
        width=3 if active else 1,
    )
    pad = 8 if wide else 6
    badges = _badges(scene, seat)
    bx = x + w - BADGE - 5
    for letter, colour in badges:
        d.ellipse([bx, y + 4, bx + BADGE, y + 4 + BADGE], fill=colour, outline=(255, 255, 255))
        pen.text(
            (bx + BADGE / 2, y + 4 + BADGE / 2),
            letter,
            MIN_TEXT,
            bold=True,
            fill=(255, 255, 255),
            anchor="mm",
        )
        bx -= BADGE + 3
    if wide:
        pen.text((x + pad, y + 6), head, MIN_TEXT, fill=PLATE_TEXT)
        right = x + w - 8 - (BADGE + 3) * len(badges)
        pen.text((right, y + 6), info, MIN_TEXT, fill=PLATE_TEXT, anchor="ra")
        if not names:  # one row: seat, name, hand
            name = drawable(scene.names[seat], font(NAME_TEXT, bold=True)) or head
            nx = x + pad + font(MIN_TEXT).getlength(f"{head}  ")
            pen.text((nx, y + 4), name, NAME_TEXT, bold=True, fill=PLATE_TEXT)
        for i, line in enumerate(names):
            pen.text((x + pad, y + 4 + LINE * (i + 1)), line, size, bold=True, fill=PLATE_TEXT)
    else:
        pen.text((x + pad, y + 5), head, MIN_TEXT, fill=PLATE_TEXT)
        for i, line in enumerate(names):
            pen.text((x + pad, y + 5 + LINE * (i + 1)), line, size, bold=True, fill=PLATE_TEXT)
        pen.text((x + pad, y + 5 + LINE * (len(names) + 1)), info, MIN_TEXT, fill=PLATE_TEXT)
    if active:  # a pointer from the plate towards the table
        cx, cy, b = x + w // 2, y + h // 2, y + h
        pointer = {
            "top": [(cx - 8, b + 1), (cx + 8, b + 1), (cx, b + 9)],
            "bottom": [(cx - 8, y - 1), (cx + 8, y - 1), (cx, y - 9)],
            "left": [(x + w + 1, cy - 8), (x + w + 1, cy + 8), (x + w + 9, cy)],
            "right": [(x - 1, cy - 8), (x - 1, cy + 8), (x - 9, cy)],
        }[slot]
        d.polygon(pointer, fill=GOLD)
    return h


def _trumps_beside(scene: Scene, box_w: int) -> bool:
    """Whether the trump suit's name fits beside its pip in a box ``box_w`` wide (else it
    goes under the pip, on a second line the strip makes room for)."""
    if scene.trump is None or scene.trumps_state:
        return True
    right = box_w - 6 - (TURN_UP_W + 4 if scene.turn_up is not None else 0)
    name = suit_name(scene.trump).capitalize()
    lines, _size = wrap(name, right - 42, NAME_SIZES, 1)
    return len(lines) == 1 and not _broken(lines, name)


def _trumps_lines(scene: Scene, box_w: int) -> int:
    """The rows of words the trumps box shows under its title (one or two)."""
    if scene.trump is not None and not scene.trumps_state:
        return 1 if _trumps_beside(scene, box_w) and not scene.order else 2
    return 2 if scene.order else 1


def _trumps_box(pen: _Pen, scene: Scene, box: tuple[int, int, int, int]) -> None:
    """Trumps, or what decides them (bidding, to be named), the rank order where it is
    downtown, and the turn-up card."""
    x0, _y0, x1, _y1 = box
    y = pen.box(box, _("Trumps"))
    right = x1 - 6
    if scene.turn_up is not None:
        right = x1 - 6 - TURN_UP_W
        pen.card(scene.turn_up, right, y - LINE + 4, TURN_UP_W, TURN_UP_H)
        right -= 4
    room = right - (x0 + 8)
    second = y + 2 + 28 + 4  # the row under the pip
    if scene.trump is not None and not scene.trumps_state:
        d = pen.d
        d.rounded_rectangle([x0 + 8, y + 1, x0 + 36, y + 29], radius=5, fill=CARD_FACE)
        draw_pip(pen.im, scene.trump, x0 + 11, y + 4, 22)
        name = suit_name(scene.trump).capitalize()
        if _trumps_beside(scene, x1 - x0):
            lines, size = wrap(name, right - (x0 + 42), NAME_SIZES, 1)
            pen.text((x0 + 42, y + 5), lines[0], size, bold=True)
            words = [_("downtown")] if scene.order else []
        else:  # a long name: under the pip, where the box is wider
            pen.text((x0 + 8, second), name, MIN_TEXT, bold=True)
            words = []
    else:
        state = {
            "bidding": _("Bidding"),
            "to_name": _("To be named"),
        }.get(scene.trumps_state, _("No trumps"))
        lines, size = wrap(state, room, NAME_SIZES, 1)
        pen.text((x0 + 8, y + 2), lines[0], size, bold=True)
        for i, line in enumerate(lines[1:2]):
            pen.text((x0 + 8, second + i * LINE), line, MIN_TEXT, bold=True)
        words = [_("downtown")] if scene.order and len(lines) < 2 else []
    if words:
        pen.text((x0 + 8, second), words[0], MIN_TEXT, fill=GOLD)


def _count_need(rows: Sequence[Row], title: str) -> int:
    """The width a box of ``rows`` (one or two columns) and its ``title`` need."""
    columns = 1 if len(rows) <= 2 else 2
    label = max(
        (font(MIN_TEXT).getlength(r.label.split(" ", 1)[0] if r.label else "?") for r in rows),
        default=0.0,
    )
    value = max((font(NAME_TEXT, bold=True).getlength(str(r.value)) for r in rows), default=0.0)
    body = columns * (label + 6 + value + 10) + 12
    return int(max(body, font(MIN_TEXT, bold=True).getlength(title.upper()) + 18))


def _count_box(pen: _Pen, rows: Sequence[Row], title: str, box: tuple[int, int, int, int]) -> None:
    """Numbers per side, in one column, or two where there are more than two rows."""
    x0, _y0, x1, _y1 = box
    y = pen.box(box, title)
    columns = 1 if len(rows) <= 2 else 2
    col_w = (x1 - x0 - 12) // columns
    for i, row in enumerate(rows):
        cx = x0 + 8 + (i % columns) * col_w
        cy = y + (i // columns) * LINE
        label = drawable(row.label.split(" ", 1)[0] if row.label else "?", font(MIN_TEXT)) or "?"
        pen.text((cx, cy), label, MIN_TEXT)
        pen.text((cx + col_w - 8, cy - 1), str(row.value), NAME_TEXT, bold=True, anchor="ra")


def _legend(scene: Scene) -> list[tuple[str, RGB | None, str]]:
    """The picture's key, for what it shows: (badge letter, its colour, meaning)."""
    out: list[tuple[str, RGB | None, str]] = []
    if scene.to_act is not None and scene.doing:
        out.append(("", GOLD, scene.doing))
    if any(_badges(scene, s) and scene.dealer == s for s in range(scene.n_seats)):
        out.append((_("D"), DEALER_COLOUR, _("dealer")))
    if scene.contract and scene.declarer is not None:
        out.append((_("C"), DECLARER_COLOUR, _("declarer")))
    return out


def _draw_legend(
    pen: _Pen, legend: Sequence[tuple[str, RGB | None, str]], x: float, base: float
) -> float:
    """The key's entries from ``x`` on the line whose middle is ``base``; where it ends."""
    d = pen.d
    for letter, colour, meaning in legend:
        if letter:
            d.ellipse([x, base - 10, x + 20, base + 10], fill=colour, outline=(255, 255, 255))
            pen.text((x + 10, base), letter, MIN_TEXT, bold=True, fill=(255, 255, 255), anchor="mm")
        else:
            d.rounded_rectangle([x, base - 9, x + 20, base + 9], radius=3, fill=colour)
        x += 24
        pen.text((x, base), meaning, MIN_TEXT, fill=TEXT, anchor="lm")
        x += int(font(MIN_TEXT).getlength(meaning)) + 12
    return x


def _layout_rows(pen: _Pen, piles: Sequence[PileView], x: int, y: int, width: int) -> int:
    """One seat's layout: face-up cards on their piles, in rows of as many as fit;
    the height drawn."""
    gap = 3
    per_row = max(1, min(len(piles), (width + gap) // (LAYOUT_W + gap)))
    rows = [piles[i : i + per_row] for i in range(0, len(piles), per_row)]
    pen.layout_w = LAYOUT_W
    for r, row in enumerate(rows):
        for i, pile in enumerate(row):
            px, py = x + i * (LAYOUT_W + gap), y + r * (LAYOUT_H + 6)
            if pile.down:
                paste(pen.im, back_image(LAYOUT_W, LAYOUT_H), px + 2, py + 3)
            if pile.up is not None:
                pen.card(pile.up, px, py, LAYOUT_W, LAYOUT_H)
            elif not pile.down:
                pen.d.rounded_rectangle(
                    [px, py, px + LAYOUT_W, py + LAYOUT_H], radius=4, outline=FELT_EDGE, width=1
                )
    return len(rows) * (LAYOUT_H + 6) - 6 if rows else 0


def draw_table(scene: Scene) -> Picture:
    """Draw ``scene`` as a PNG (palette mode, about 10-30 KB), its words in ``scene.language``."""
    with using(scene.language):
        return _draw_table(scene)


def _draw_table(scene: Scene) -> Picture:
    """The picture, top to bottom: trumps, score and tricks; the seats round the felt
    with the trick between them (two players with layouts: each seat's layout beside
    it); a hand laid face up; the notes; the key (whose turn, the badges) and the
    title. Its height follows what it shows."""
    n = scene.n_seats
    with_layouts = bool(scene.layouts) and n == 2
    slots = SLOTS[n]
    # the height first: plates, the trick, the rows below
    top_seat = slots.index("top")
    bottom_seat = slots.index("bottom")
    side_seats = [s for s, slot in enumerate(slots) if slot in ("left", "right")]
    top_h = _plate_height(scene, top_seat, WIDE_PLATE_W, True)
    bottom_h = _plate_height(scene, bottom_seat, WIDE_PLATE_W, True)
    if with_layouts:
        column = (WIDTH - 3 * MARGIN) // 2
        per_row = max(1, (column - 8 + 3) // (LAYOUT_W + 3))
        rows = max((len(piles) + per_row - 1) // per_row for piles in scene.layouts[:2]) or 1
        layout_h = rows * (LAYOUT_H + 6) - 6
        middle = (
            max(_plate_height(scene, s, column, True) for s in range(2))
            + 6
            + layout_h
            + 8
            + CARD_H
            + 8
        )
    else:
        cross = CARD_H + (2 * SIDE_DROP if n >= 3 else CARD_H // 2 + 8)
        side_h = max((_plate_height(scene, s, SIDE_PLATE_W, False) for s in side_seats), default=0)
        middle = 4 + top_h + 5 + max(cross, side_h) + 5 + bottom_h + 4
    notes = list(scene.notes[-3:])
    if scene.trick and scene.trick_winner is not None:  # under the felt, never on a plate
        notes.insert(0, _("{who} won the trick").format(who=scene.seat_labels[scene.trick_winner]))
    if scene.contract:
        by = f" · {scene.seat_labels[scene.declarer]}" if scene.declarer is not None else ""
        notes.insert(0, _("Contract: {contract}").format(contract=scene.contract + by))
    note_lines = [
        line
        for note in notes
        for line in wrap(
            drawable(note, font(MIN_TEXT)), WIDTH - 2 * MARGIN - 8, (MIN_TEXT,), 3, False
        )[0]
    ]
    spread_h = sum(LINE + SPREAD_H + 8 for _seat, cards in scene.exposed if cards)
    status_lines: list[str] = []
    status_size = NAME_TEXT
    if scene.to_act is None and scene.status:  # the result, whole: wrapped, never cut off
        status_lines, status_size = wrap(scene.status, WIDTH - 2 * MARGIN - 4, NAME_SIZES, 3)
    legend = _legend(scene)
    legend_w = sum(24 + int(font(MIN_TEXT).getlength(m)) + 12 for _l, _c, m in legend) - 12
    # the key beside the last note where it fits (a row saved on a phone), else a row
    merged = bool(
        not status_lines
        and note_lines
        and font(MIN_TEXT).getlength(note_lines[-1]) + 16 + legend_w <= WIDTH - 2 * MARGIN - 6
    )
    key_h = 0 if merged else max(KEY_H, LINE * len(status_lines) + 8)
    # the strip: the score's and the tricks' boxes as wide as they need, trumps the rest
    tricks_title = _("Tricks {number}/{total}").format(
        number=scene.trick_no, total=scene.tricks_per_deal
    )
    score_w = _count_need(scene.scores, _("Score"))
    tricks_w = _count_need(scene.tricks, tricks_title)
    trumps_w = WIDTH - 4 * MARGIN - score_w - tricks_w
    spare = trumps_w - 170  # beyond what a long suit name and a turn-up need
    if spare > 0:  # shared out: the boxes no wider than they look right
        trumps_w -= spare * 2 // 3
        score_w += spare // 3
        tricks_w += spare - spare * 2 // 3 - spare // 3
    score_x = MARGIN * 2 + trumps_w
    tricks_x = score_x + score_w + MARGIN
    strip_h = STRIP_H if _trumps_lines(scene, trumps_w) == 1 else STRIP_H + 16
    height = (
        MARGIN
        + strip_h
        + 6
        + middle
        + 6
        + spread_h
        + LINE * len(note_lines)
        + (4 if note_lines else 0)
        + key_h
    )
    im = Image.new("RGB", (WIDTH, height), BG)
    pen = _Pen(im)
    d = pen.d
    pen.trick_w = CARD_W

    # trumps, score, tricks
    y = MARGIN
    _trumps_box(pen, scene, (MARGIN, y, MARGIN + trumps_w, y + strip_h))
    _count_box(pen, scene.scores, _("Score"), (score_x, y, score_x + score_w, y + strip_h))
    _count_box(pen, scene.tricks, tricks_title, (tricks_x, y, WIDTH - MARGIN, y + strip_h))
    y += strip_h + 6

    # the felt
    felt = (MARGIN, y, WIDTH - MARGIN, y + middle)
    d.rounded_rectangle(felt, radius=26, fill=FELT, outline=FELT_EDGE, width=3)
    cx = WIDTH // 2
    spots: dict[str, tuple[int, int]]
    if with_layouts:
        column = (WIDTH - 3 * MARGIN) // 2
        for seat, slot in enumerate(slots):
            x = MARGIN + 4 + seat * (column + MARGIN) if seat < 2 else MARGIN
            ph = _plate(pen, scene, seat, x, y + 4, column - 8, slot if seat else "top")
            if seat < len(scene.layouts):
                _layout_rows(pen, scene.layouts[seat], x, y + 4 + ph + 6, column - 8)
        trick_y = y + middle - CARD_H - 8
        spots = {"top": (cx - CARD_W - 6, trick_y), "bottom": (cx + 6, trick_y)}
    else:
        _plate(pen, scene, top_seat, (WIDTH - WIDE_PLATE_W) // 2, y + 4, WIDE_PLATE_W, "top")
        cross_y = y + 4 + top_h + 5
        cross = CARD_H + (2 * SIDE_DROP if n >= 3 else CARD_H // 2 + 8)
        side_h = max((_plate_height(scene, s, SIDE_PLATE_W, False) for s in side_seats), default=0)
        band = max(cross, side_h)
        mid = cross_y + band // 2
        for seat in side_seats:
            slot = slots[seat]
            sh = _plate_height(scene, seat, SIDE_PLATE_W, False)
            x = 4 if slot == "left" else WIDTH - 4 - SIDE_PLATE_W
            _plate(pen, scene, seat, x, mid - sh // 2, SIDE_PLATE_W, slot)
        _plate(
            pen,
            scene,
            bottom_seat,
            (WIDTH - WIDE_PLATE_W) // 2,
            cross_y + band + 5,
            WIDE_PLATE_W,
            "bottom",
        )
        top_card = mid - cross // 2
        spots = {
            "top": (cx - CARD_W // 2, top_card),
            "bottom": (cx - CARD_W // 2, top_card + cross - CARD_H),
            "left": (cx - CARD_W // 2 - CARD_W, top_card + SIDE_DROP),
            "right": (cx + CARD_W // 2, top_card + SIDE_DROP),
        }
    for seat, card in scene.trick:
        if not 0 <= seat < n:
            continue
        x, cy = spots[slots[seat]]
        if scene.trick_winner == seat:
            d.rounded_rectangle(
                [x - 3, cy - 3, x + CARD_W + 2, cy + CARD_H + 2], radius=8, fill=GOLD
            )
        pen.card(card, x, cy, CARD_W, CARD_H)
    y += middle + 6

    # a hand laid face up (Spread Misère)
    for seat, cards in scene.exposed:
        if not cards:
            continue
        pen.text(
            (MARGIN + 2, y),
            _("{seat}'s hand, face up").format(seat=scene.seat_labels[seat]),
            MIN_TEXT,
            bold=True,
            fill=GOLD,
        )
        step = min(SPREAD_W + 1, (WIDTH - 2 * MARGIN - SPREAD_W) // max(1, len(cards) - 1))
        for i, card in enumerate(cards):
            pen.card(card, MARGIN + i * step, y + LINE, SPREAD_W, SPREAD_H)
        y += LINE + SPREAD_H + 8

    # notes
    last_note = y
    for line in note_lines:
        pen.text((MARGIN + 4, y), line, MIN_TEXT, fill=TEXT)
        last_note = y
        y += LINE
    if note_lines:
        y += 4

    # the key: whose turn (the gold plate), the badges; or the result; and the title
    if merged:
        _draw_legend(pen, legend, WIDTH - MARGIN - 2 - legend_w, last_note + LINE // 2 - 1)
    else:
        d.rectangle([0, height - key_h, WIDTH, height], fill=PANEL)
        base = height - KEY_H // 2
        if status_lines:
            top = height - key_h + 4
            for i, line in enumerate(status_lines):
                pen.text((MARGIN + 2, top + i * LINE), line, status_size, bold=True, fill=GOLD)
        else:
            end = _draw_legend(pen, legend, MARGIN + 2, base)
            title = scene.title
            if font(MIN_TEXT, bold=True).getlength(title) <= WIDTH - MARGIN - end:
                pen.text(
                    (WIDTH - MARGIN - 2, base), title, MIN_TEXT, bold=True, fill=MUTED, anchor="rm"
                )

    return Picture(
        to_png(im),
        describe(scene),
        scene,
        WIDTH,
        height,
        smallest_text=pen.smallest,
        trick_card_w=pen.trick_w,
        layout_card_w=pen.layout_w,
        texts=tuple(pen.texts),
    )


def table_picture(
    info: TableInfo, view: SeatView, seat_names: Sequence[str] | None = None
) -> Picture:
    """The table picture of ``view`` (drawn here, on the caller's thread)."""
    return draw_table(scene_of(info, view, seat_names))


async def render_off_loop(
    info: TableInfo, view: SeatView, seat_names: Sequence[str] | None = None
) -> Picture:
    """:func:`table_picture` with the drawing done in a worker thread.

    The scene is read here (cheap, and the view is immutable anyway); only the
    drawing and PNG encoding, the slow part, leave the event loop.
    """
    scene = scene_of(info, view, seat_names)
    return await asyncio.to_thread(draw_table, scene)


class PictureCache:
    """The last picture of one table message: re-drawn only when its scene changes.

    ``await cache.get(info, view, names, draw)`` returns the cached picture if
    the scene is unchanged, else has ``draw`` (the bot's
    :class:`~bot.present.painter.Painter`, another process) draw it. A table keeps one
    of these.
    """

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: Picture | None = None

    @property
    def last(self) -> Picture | None:
        return self._last

    async def get(
        self,
        info: TableInfo,
        view: SeatView,
        seat_names: Sequence[str] | None = None,
        draw: Callable[[Scene], Awaitable[Picture]] | None = None,
    ) -> Picture:
        scene = scene_of(info, view, seat_names)
        last = self._last
        if last is not None and last.key == scene:
            return last
        picture = await (draw(scene) if draw is not None else asyncio.to_thread(draw_table, scene))
        self._last = picture
        return picture
