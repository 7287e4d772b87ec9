"""The decisions that are not cards (bids, calls, trumps, lay-outs), each as a strategy
(:class:`~engine.ai.search.strategy.CallStrategy`: candidates, worlds, evaluate, the
deal as it lay), each world evaluated as the hard AI evaluates that decision when it
makes it, with the players' own functions (:func:`call_strategy` picks one):

* :mod:`.solo`: Solo Whist's auction and naming trumps;
* :mod:`.bid_whist`: Bid Whist's bids, trump or direction
  named and kitty lay-out;
* :mod:`.ruff`: the ruff taken or declined and its lay-out, at the four-handed tables
  and the open ones;
* :mod:`.can_ye`: Can-ye and showing honours;
* :mod:`.ruff_claim`: Ruffe and Trump's declared ruff.

Not modelled: claims and concessions (an agreement, not a choice of play), and taking
or declining the rub at the open tables (the open-table sampler knows no hidden head
before the rub): see ``docs/coach.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.actions import Action, CallCanYe, DeclineRuff, Discard, Pass, ShowHonours, TakeRuff
from engine.ai.search.strategy import CallStrategy
from engine.ai.strategies.calls.bid_whist import BidStrategy, KittyStrategy, name_strategy
from engine.ai.strategies.calls.can_ye import CanYeStrategy
from engine.ai.strategies.calls.ruff import (
    LAY_OUT_CANDIDATES,
    RuffStrategy,
    lay_out_code,
    lay_out_strategy,
    open_lay_out_strategy,
)
from engine.ai.strategies.calls.ruff_claim import RuffClaimStrategy
from engine.ai.strategies.calls.solo import SoloBidStrategy, SoloTrumpStrategy
from engine.ai.strategies.open_tables import wants_generic
from engine.game import SeatView
from engine.phases.auction import Bid as WhistBid
from engine.phases.contest import RuffClaim
from engine.phases.contract import NameDirection
from engine.phases.solo_auction import SoloBid
from engine.phases.solo_declare import NameTrump

__all__ = ["LAY_OUT_CANDIDATES", "call_strategy", "lay_out_code"]


def call_strategy(
    view: SeatView, legal: Sequence[Action], action: Action
) -> CallStrategy[Any] | None:
    """The strategy of the decision ``action`` (not a card) answers for ``view``'s seat,
    ``legal`` its choices; ``None``: not a decision modelled here (module docstring),
    or one a seat's earlier action already made (a lay-out's later cards)."""
    family = view.rules.family if view.rules is not None else ""
    if family == "bid_whist":
        if isinstance(action, (WhistBid, Pass)) and any(isinstance(a, WhistBid) for a in legal):
            return BidStrategy(view, legal)
        if isinstance(action, (NameTrump, NameDirection)):
            return name_strategy(view, legal)
        if isinstance(action, Discard):
            return KittyStrategy(view, legal)
        return None
    if isinstance(action, SoloBid):
        return SoloBidStrategy(view, legal)
    if isinstance(action, NameTrump):
        return SoloTrumpStrategy(view, legal)
    if isinstance(action, RuffClaim):
        return RuffClaimStrategy(view, legal, action.value)
    if wants_generic(view):
        if isinstance(action, Discard):
            return open_lay_out_strategy(view, legal)
        return None  # taking the rub at the open tables: not modelled (module docstring)
    if isinstance(action, (TakeRuff, DeclineRuff)):
        return RuffStrategy(view)
    if isinstance(action, Discard):
        return lay_out_strategy(view, legal)
    if isinstance(action, (CallCanYe, ShowHonours)) or (
        isinstance(action, Pass) and any(isinstance(a, (CallCanYe, ShowHonours)) for a in legal)
    ):
        return CanYeStrategy(view, legal)
    return None
