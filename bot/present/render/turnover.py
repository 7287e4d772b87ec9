"""Turnover Bridge's words: the layouts, each face-up card with the face-down
cards beneath it."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.i18n import _
from bot.present.render.common import TableInfo, card_text
from engine import PileView, SeatView

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _pile(pile: PileView) -> str:
    if pile.up is None:
        return "▢"
    under = str(pile.down).translate(_SUPERSCRIPT) if pile.down else ""
    return f"{card_text(pile.up)}{under}{'✱' if pile.fresh else ''}"


def layout_text(piles: Sequence[PileView]) -> str:
    """One layout in two rows: each face-up card with the count of face-down cards
    beneath it as a superscript; ✱ = just turned up, ▢ = an emptied position."""
    half = (len(piles) + 1) // 2
    rows = [piles[:half], piles[half:]]
    return " │ ".join(" ".join(_pile(p) for p in row) for row in rows if row)


def layout_lines(info: TableInfo, view: SeatView, mine: int | None = None) -> list[str]:
    if not view.layouts:
        return []
    lines = [
        _(
            "Layouts (face-up cards; ¹ = a card face down beneath; ✱ = turned up this trick, playable from the next):"
        )
    ]
    for seat, piles in enumerate(view.layouts):
        owner = _("Your layout") if seat == mine else f"{info.seat_name(seat)}"
        lines.append(f"> {owner}: {layout_text(piles)}")
    return lines
