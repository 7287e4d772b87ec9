"""Pillow drawing primitives shared by the table picture and the score chart.

Fonts (with a check of which characters a font can draw), cached one-line
text, the palette, suit pips, card faces and backs, panels, and the small
palette PNG every picture is saved as. :mod:`bot.present.picture` composes the table
picture from these and :mod:`bot.present.chart` the end-of-game score chart; both hand
back a :class:`Picture`.

The art is the project's own: cards, pips and jokers are drawn here with
Pillow's primitives. Text uses DejaVu Sans where the system has it
(``fonts-dejavu-core`` on Debian, installed by the Dockerfile) and Pillow's
built-in scalable font otherwise; :func:`drawable` leaves out the characters a
font cannot draw.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from PIL import Image, ImageDraw, ImageFont

from engine import Card, Suit

# ------------------------------------------------------------------ fonts

FONT_DIRS: Final = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/local/share/fonts/dejavu"),
)
REGULAR_FILE: Final = "DejaVuSans.ttf"
BOLD_FILE: Final = "DejaVuSans-Bold.ttf"

Font = ImageFont.FreeTypeFont


def _font_file(name: str) -> Path | None:
    for folder in FONT_DIRS:
        path = folder / name
        if path.is_file():
            return path
    return None


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans (bold) at ``size`` px if installed, else Pillow's built-in font."""
    path = _font_file(BOLD_FILE if bold else REGULAR_FILE) or _font_file(REGULAR_FILE)
    if path is not None:
        return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)
    builtin = ImageFont.load_default(size=size)
    if not isinstance(
        builtin, ImageFont.FreeTypeFont
    ):  # pragma: no cover - Pillow without FreeType
        raise RuntimeError("Pillow was built without FreeType: table pictures need it")
    return builtin


_MISSING: Final = "\U0010fffd"  # a private-use code point no font draws: its glyph is "notdef"


@lru_cache(maxsize=4096)
def _can_draw(fnt: Font, char: str) -> bool:
    if char.isspace() or char.isascii():
        return True
    notdef = (fnt.getbbox(_MISSING), fnt.getlength(_MISSING))
    return (fnt.getbbox(char), fnt.getlength(char)) != notdef


def drawable(text: str, fnt: Font) -> str:
    """``text`` without the characters ``fnt`` would draw as an empty box."""
    kept = "".join(ch for ch in text if _can_draw(fnt, ch))
    return " ".join(kept.split())


@lru_cache(maxsize=8192)
def fit(text: str, fnt: Font, width: float) -> str:
    """``text`` cut with an ellipsis to at most ``width`` pixels in ``fnt``."""
    if fnt.getlength(text) <= width:
        return text
    dots = "…" if _can_draw(fnt, "…") else "..."
    while text and fnt.getlength(text + dots) > width:
        text = text[:-1]
    return text.rstrip() + dots


@lru_cache(maxsize=1024)
def _text_mask(fnt: Font, text: str, anchor: str) -> tuple[Any, tuple[int, int]]:
    """The antialiased glyph mask of ``text`` and its offset from the anchor point."""
    mask, offset = fnt.getmask2(text, "L", anchor=anchor)
    return mask, (int(offset[0]), int(offset[1]))


def put_text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    *,
    font: Font,
    fill: RGB,
    anchor: str | None = None,
) -> None:
    """``d.text(xy, text, font=font, fill=fill, anchor=anchor)`` for one line of
    text, with the glyph mask cached: a picture repeats the same names, labels and
    numbers from move to move, and rendering glyphs was a third of its cost."""
    mask, (ox, oy) = _text_mask(font, text, anchor or "la")
    ink = d._getink(fill)[0]
    d.draw.draw_bitmap((int(xy[0]) + ox, int(xy[1]) + oy), mask, ink)


# ------------------------------------------------------------------ colours

BG: Final = (24, 33, 38)
FELT: Final = (28, 98, 62)
FELT_EDGE: Final = (17, 66, 42)
PANEL: Final = (36, 48, 56)
PANEL_EDGE: Final = (64, 80, 92)
TEXT: Final = (236, 238, 240)
MUTED: Final = (160, 172, 180)
GOLD: Final = (247, 200, 70)
PLATE: Final = (232, 236, 238)
PLATE_TEXT: Final = (24, 30, 34)
CARD_FACE: Final = (252, 251, 246)
CARD_EDGE: Final = (70, 70, 74)
RED: Final = (204, 32, 44)
BLACK: Final = (22, 22, 26)
BACK: Final = (48, 72, 150)
BACK_LINE: Final = (110, 140, 215)

RGB = tuple[int, int, int]


def suit_colour(suit: Suit) -> RGB:
    return RED if suit.is_red else BLACK


# ------------------------------------------------------------------ shapes and cards

SS: Final = 4  # supersampling for shapes that need smooth edges


@lru_cache(maxsize=64)
def pip_mask(suit: Suit, size: int) -> Image.Image:
    """An anti-aliased mask of a suit symbol, ``size`` pixels square (drawn, not a font glyph)."""
    s = size * SS
    im = Image.new("L", (s, s), 0)
    d = ImageDraw.Draw(im)
    w = s
    if suit is Suit.DIAMONDS:
        d.polygon([(w / 2, 0), (w * 0.88, w / 2), (w / 2, w), (w * 0.12, w / 2)], fill=255)
    elif suit is Suit.HEARTS:
        r = w * 0.27
        d.ellipse([w * 0.02, w * 0.08, w * 0.02 + 2 * r, w * 0.08 + 2 * r], fill=255)
        d.ellipse([w * 0.98 - 2 * r, w * 0.08, w * 0.98, w * 0.08 + 2 * r], fill=255)
        d.polygon([(w * 0.035, w * 0.42), (w * 0.965, w * 0.42), (w / 2, w * 0.97)], fill=255)
        d.rectangle([w * 0.3, w * 0.2, w * 0.7, w * 0.5], fill=255)
    elif suit is Suit.SPADES:
        r = w * 0.25
        d.polygon([(w / 2, w * 0.02), (w * 0.97, w * 0.55), (w * 0.03, w * 0.55)], fill=255)
        d.ellipse([w * 0.03, w * 0.33, w * 0.03 + 2 * r, w * 0.33 + 2 * r], fill=255)
        d.ellipse([w * 0.97 - 2 * r, w * 0.33, w * 0.97, w * 0.33 + 2 * r], fill=255)
        d.polygon([(w / 2, w * 0.6), (w * 0.68, w), (w * 0.32, w)], fill=255)
    else:  # clubs
        r = w * 0.22
        for cx, cy in ((w / 2, w * 0.25), (w * 0.26, w * 0.57), (w * 0.74, w * 0.57)):
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=255)
        d.rectangle([w * 0.44, w * 0.3, w * 0.56, w * 0.7], fill=255)
        d.polygon([(w / 2, w * 0.55), (w * 0.7, w), (w * 0.3, w)], fill=255)
    return im.resize((size, size), Image.Resampling.LANCZOS)


def draw_pip(
    im: Image.Image, suit: Suit, x: int, y: int, size: int, colour: RGB | None = None
) -> None:
    im.paste(colour or suit_colour(suit), (x, y, x + size, y + size), pip_mask(suit, size))


@lru_cache(maxsize=16)
def _round_mask(w: int, h: int, radius: int) -> Image.Image:
    big = Image.new("L", (w * SS, h * SS), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        [0, 0, w * SS - 1, h * SS - 1], radius=radius * SS, fill=255
    )
    return big.resize((w, h), Image.Resampling.LANCZOS)


def star(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    import math

    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    d.polygon(points, fill=fill)


CARD_TEXT_MIN: Final = 16
"""The smallest index on a card face (px): 12.2 px when a 400 px picture is shown 304 px
wide (a 400 px phone), however small the card."""


def card_text_size(card: Card, w: int) -> int:
    """The size of the text on a card face ``w`` px wide (its index, a joker's words)."""
    if card.is_joker:
        return max(CARD_TEXT_MIN, w // 5)
    scale = 0.3 if len(card.rank.label) == 1 else 0.26
    return max(CARD_TEXT_MIN, int(w * scale))


@lru_cache(maxsize=256)
def card_image(card: Card, w: int, h: int) -> Image.Image:
    """One card face, ``w`` x ``h`` (RGBA, rounded corners): rank and suit, or a joker."""
    radius = max(3, w // 9)
    face = Image.new("RGB", (w, h), CARD_FACE)
    d = ImageDraw.Draw(face)
    d.rounded_rectangle([0, 0, w - 1, h - 1], radius=radius, outline=CARD_EDGE, width=1)
    if card.is_joker:
        big = card.code == "BJ"
        colour = RED if big else BLACK
        star(d, w / 2, h * 0.52, w * 0.2, colour)
        small = font(card_text_size(card, w), bold=True)
        for line, y in (("BIG" if big else "LITTLE", h * 0.08), ("JOKER", h * 0.76)):
            if small.getlength(line) > w - 2:
                line = line[:1] + "J" if line != "JOKER" else ""  # BJ, LJ on a small card
            put_text(d, (w / 2, y), line, font=small, fill=colour, anchor="mt")
    else:
        colour = suit_colour(card.suit)
        label = card.rank.label
        corner = font(card_text_size(card, w), bold=True)
        put_text(d, (max(2, w // 14), max(1, h // 30)), label, font=corner, fill=colour)
        pip = max(7, w // 5)
        cy = max(1, h // 30) + int(corner.size) + 2
        mask = pip_mask(card.suit, pip)
        face.paste(colour, (max(2, w // 14) + 1, cy, max(2, w // 14) + 1 + pip, cy + pip), mask)
        size = int(w * 0.5)
        bx, by = (w - size) // 2 + w // 10, h - size - h // 8
        face.paste(colour, (bx, by, bx + size, by + size), pip_mask(card.suit, size))
    out = face.convert("RGBA")
    out.putalpha(_round_mask(w, h, radius))
    return out


@lru_cache(maxsize=8)
def back_image(w: int, h: int) -> Image.Image:
    """A card back (for face-down layout cards)."""
    radius = max(3, w // 9)
    im = Image.new("RGB", (w, h), BACK)
    d = ImageDraw.Draw(im)
    for k in range(-h, w, 6):
        d.line([(k, 0), (k + h, h)], fill=BACK_LINE, width=1)
    d.rounded_rectangle([0, 0, w - 1, h - 1], radius=radius, outline=(230, 230, 240), width=2)
    out = im.convert("RGBA")
    out.putalpha(_round_mask(w, h, radius))
    return out


def paste(im: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    im.paste(sprite, (x, y), sprite)


def panel(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], title: str) -> int:
    """A rounded panel with a title; returns the y where its content starts."""
    d.rounded_rectangle(box, radius=8, fill=PANEL, outline=PANEL_EDGE, width=1)
    put_text(d, (box[0] + 10, box[1] + 6), title.upper(), font=font(11, bold=True), fill=MUTED)
    return box[1] + 24


def to_png(im: Image.Image, colours: int = 64) -> bytes:
    """A small PNG: quantised to an adaptive palette (no dithering), compressed.

    The palette is chosen from a half-size copy (a quarter of the pixels: the
    same colours, found in 40% of the time), then every pixel of the picture is
    mapped to it."""
    palette = im.reduce(2).quantize(
        colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    pal = im.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    pal.save(out, format="PNG", compress_level=3)  # 9 saves ~25% for 4x the time
    return out.getvalue()


# ------------------------------------------------------------------ the result


@dataclass(frozen=True, slots=True)
class Picture:
    """A drawn PNG and what it shows."""

    png: bytes
    description: str
    key: object  # the scene (or chart data) it was drawn from
    width: int
    height: int
    filename: str = "table.png"
    # what a table picture measured while it was drawn, in its own pixels (0: not
    # measured, a chart): its smallest text (a font's pixel size, card indices
    # included), the width of its trick cards and of its layout cards
    smallest_text: int = 0
    trick_card_w: int = 0
    layout_card_w: int = 0
    texts: tuple[str, ...] = ()  # every text a table picture drew (its words, in order)

    def shown_at(self, width: float, size: int) -> float:
        """``size`` (picture pixels) as seen when the picture is shown ``width`` px wide."""
        return size * width / self.width
