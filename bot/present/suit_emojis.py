"""The suit marks of the card buttons: four small card faces, each with its suit's
pip in a colour of its own, uploaded once as the bot's application emojis.

A button cannot colour its label, and a 14 px ``♠︎`` and ``♣︎`` differ only by shape,
so each card button carries its suit's emoji beside the rank (``[♠] A``): a white
tile (it stands out on a green, grey or dark button alike) with the pip in the
four-colour deck's colours — ♠ black, ♥ red, ♦ orange, ♣ green (as Bridge Base
Online's four-colour option), so the two black suits differ at a glance and the
two red ones too, while ♦ stays a warm colour beside ♥.

:func:`install` runs at start-up: it lists the application's emojis, uploads the
ones missing (their names carry a version, so a new design is a new upload) and
remembers them for this process. Where that fails (no permission, Discord
down, a simulator without them) or is turned off (``RH_CARD_EMOJIS=off``), the
buttons keep the text labels ``A♠︎`` alone (:func:`mark` returns None).
"""

from __future__ import annotations

import io
import logging
from typing import Any, Final

import discord
from PIL import Image, ImageDraw

from bot.present.drawing import BLACK, CARD_EDGE, CARD_FACE, RED, pip_mask
from engine import Card, Suit

log = logging.getLogger(__name__)

__all__ = ["COLOURS", "NAMES", "active", "clear", "install", "mark", "suit_png"]

COLOURS: Final[dict[Suit, tuple[int, int, int]]] = {
    Suit.SPADES: BLACK,
    Suit.HEARTS: RED,
    Suit.DIAMONDS: (226, 112, 0),
    Suit.CLUBS: (18, 138, 58),
}
NAMES: Final[dict[Suit, str]] = {
    Suit.SPADES: "rh_spades_v1",
    Suit.HEARTS: "rh_hearts_v1",
    Suit.DIAMONDS: "rh_diamonds_v1",
    Suit.CLUBS: "rh_clubs_v1",
}
SIZE = 128  # Discord shows emojis at up to 48 px; uploads are at most 256 KiB


def suit_png(suit: Suit) -> bytes:
    """The emoji of ``suit``: a white rounded tile with the pip in the suit's colour."""
    ss = 4
    tile = Image.new("L", (SIZE * ss, SIZE * ss), 0)
    ImageDraw.Draw(tile).rounded_rectangle(
        [4 * ss, 4 * ss, (SIZE - 4) * ss, (SIZE - 4) * ss], radius=26 * ss, fill=255
    )
    alpha = tile.resize((SIZE, SIZE), Image.Resampling.LANCZOS)
    im = Image.new("RGBA", (SIZE, SIZE), (*CARD_EDGE, 0))
    face = Image.new("RGBA", (SIZE, SIZE), (*CARD_FACE, 255))
    im.paste(face, (0, 0), alpha)
    pip = 92
    at = (SIZE - pip) // 2
    im.paste((*COLOURS[suit], 255), (at, at, at + pip, at + pip), pip_mask(suit, pip))
    out = io.BytesIO()
    im.save(out, "PNG", optimize=True)
    return out.getvalue()


class _Marks:
    """The emojis this process uses (empty: the text labels alone)."""

    by_suit: dict[Suit, dict[str, Any]] = {}


def mark(card: Card) -> dict[str, Any] | None:
    """The emoji payload marking ``card``'s suit on a button, or None (text labels)."""
    if card.is_joker or not _Marks.by_suit:
        return None
    return _Marks.by_suit.get(card.suit)


def active() -> bool:
    """Whether the card buttons carry the suit emojis in this process."""
    return bool(_Marks.by_suit)


def clear() -> None:
    """Use the text labels alone."""
    _Marks.by_suit = {}


async def install(client: discord.Client) -> bool:
    """Find or upload the four suit emojis and use them from now on; False (and the
    text labels) when Discord refuses or fails."""
    try:
        existing = {e.name: e for e in await client.fetch_application_emojis()}
        found: dict[Suit, dict[str, Any]] = {}
        for suit, name in NAMES.items():
            emoji = existing.get(name)
            if emoji is None:
                emoji = await client.create_application_emoji(name=name, image=suit_png(suit))
            found[suit] = {"id": str(emoji.id), "name": emoji.name, "animated": False}
    except (discord.HTTPException, discord.ClientException, ValueError, TypeError) as exc:
        log.warning("the suit emojis could not be set up (%r): cards keep their text labels", exc)
        clear()
        return False
    _Marks.by_suit = found
    return True
