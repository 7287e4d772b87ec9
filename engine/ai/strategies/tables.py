"""Which strategy plays a card at which kind of table (:func:`card_strategy`)."""

from __future__ import annotations

from typing import Any

from engine.actions import Play
from engine.ai.levels import HARD, Profile
from engine.ai.search import open_search
from engine.ai.search.strategy import TableStrategy
from engine.ai.strategies import bid_whist, open_tables, partnership, solo_whist
from engine.game import SeatView

__all__ = ["card_strategy"]


def card_strategy(
    view: SeatView, profile: Profile = HARD, books: bool = False
) -> TableStrategy[Any]:
    """The strategy of the card ``view``'s seat is to play, as ``profile`` plays it:
    Bid Whist's own card model; a contract deal of Solo Whist; the open tables (two or
    three seats, everyone alone, layouts); else four hands in two partnerships.
    ``books``: Bid Whist valued in the tricks the side takes (the coach's unit) instead
    of the contract's points. Raises ``ValueError`` when the view cannot be read."""
    if bid_whist.applies(view):
        return bid_whist.BidWhistStrategy(view, "books" if books else "points")
    plays = [a for a in view.legal if isinstance(a, Play)]
    if view.contract and solo_whist.is_contract_decision(view, plays):
        return solo_whist.SoloStrategy(view)
    if open_tables.wants_generic(view) and open_search.applies(view):
        return open_tables.open_strategy(view, profile)
    return partnership.PartnershipStrategy(view, profile)
