"""Card faces as SVG, drawn here and served from the bot's own origin.

``/cards/{deck}/{code}.svg``: ``deck`` is ``2`` (black and red) or ``4`` (the
four-colour deck: spades black, hearts red, diamonds blue, clubs green, so no
two suits share a colour), ``code`` a card code (``AS``, ``10H``, ``LJ``) or
``back``. Every face carries its rank and suit as a glyph too, never colour alone.
"""

from __future__ import annotations

import re
from functools import cache
from html import escape

__all__ = ["card_svg", "is_card_code"]

_CODE = re.compile(r"^(?:(?:10|[2-9JQKA])[SHDC]|LJ|BJ|back)$")
_GLYPH = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
_TWO = {"S": "#1b1b1b", "H": "#c0162c", "D": "#c0162c", "C": "#1b1b1b"}
_FOUR = {"S": "#1b1b1b", "H": "#c0162c", "D": "#0a58ca", "C": "#12782b"}
_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}

_W, _H = 100, 140


def is_card_code(code: str) -> bool:
    return bool(_CODE.match(code))


def _frame(inner: str, title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_W} {_H}" '
        f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
        f'<rect x="1" y="1" width="{_W - 2}" height="{_H - 2}" rx="8" fill="#fff" '
        f'stroke="#555" stroke-width="1.5"/>{inner}</svg>'
    )


@cache
def card_svg(code: str, four_colour: bool = False) -> str:
    """The SVG of card ``code`` (see the module); raises ValueError for another code."""
    if not is_card_code(code):
        raise ValueError(f"not a card code: {code!r}")
    if code == "back":
        inner = (
            '<defs><pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse" '
            'patternTransform="rotate(45)"><rect width="10" height="10" fill="#23466e"/>'
            '<rect width="5" height="10" fill="#2d5a8c"/></pattern></defs>'
            f'<rect x="7" y="7" width="{_W - 14}" height="{_H - 14}" rx="5" fill="url(#p)"/>'
        )
        return _frame(inner, "a card face down")
    if code in ("LJ", "BJ"):
        colour = "#1b1b1b" if code == "LJ" else "#c0162c"
        title = "little joker" if code == "LJ" else "big joker"
        inner = (
            f'<text x="50" y="64" text-anchor="middle" font-family="sans-serif" font-size="18" '
            f'font-weight="700" fill="{colour}">JOKER</text>'
            f'<text x="50" y="92" text-anchor="middle" font-family="sans-serif" font-size="13" '
            f'fill="{colour}">{"little" if code == "LJ" else "big"}</text>'
        )
        return _frame(inner, title)
    rank, suit = code[:-1], code[-1]
    colour = (_FOUR if four_colour else _TWO)[suit]
    glyph = _GLYPH[suit]
    size = 24 if rank == "10" else 28
    corner = (
        f'<text x="8" y="30" font-family="sans-serif" font-size="{size}" font-weight="700" '
        f'fill="{colour}" letter-spacing="-2">{rank}</text>'
        f'<text x="9" y="56" font-family="sans-serif" font-size="26" fill="{colour}">{glyph}</text>'
    )
    middle = (
        f'<text x="60" y="118" text-anchor="middle" font-family="sans-serif" font-size="62" '
        f'fill="{colour}">{glyph}</text>'
    )
    title = f"{_RANKS.get(rank, rank)} of {_NAMES[suit]}"
    return _frame(corner + middle, title)
