"""AI for contract games with jokers and a chosen rank order (Bid Whist, RULES.md §7).

The card-play machinery of :mod:`engine.ai.search.bitmasks` and :mod:`engine.ai.search.worlds`
packs a suit into 13 bits and ranks by card index (the ``HIGH`` order, 52
cards). A Bid Whist deal breaks both: the trump suit holds up to 15 cards (the
jokers are its top two), downtown reverses the ranks, and a no-trump joker
belongs to no suit. Rather than bend that machinery (and risk the existing
games' decisions), this module is a second, general and smaller one over
54-bit masks, driven by a :class:`DealModel` built from the deal's trump and
:class:`~engine.cards.RankOrder`:

* :func:`rule_card`: the table maxims (cash a master, draw trumps, low from the
  longest suit, second hand low, third hand high, win cheaply, trump when
  partner is losing, throw powerless jokers and short low cards) for any order;
* :func:`sample_world`: deals the cards a seat cannot see to the other hands
  and the hidden kitty / lay-out, consistent with the view (hand sizes, voids
  shown in play, an exposed kitty, no-trump jokers laid out);
* :func:`playout`: the rest of the deal with :func:`rule_card` at every seat;
* :class:`ContractPlayer`: every decision of the game at each level. ``easy``
  bids, names and plays by the maxims and a quick count of likely books;
  ``normal`` and ``hard`` bid and name by playing each candidate contract out
  in deals sampled consistently with the view, and choose each card by playing
  every candidate out in sampled deals (``hard`` with a larger budget). The
  kitty lay-out is a keep-value heuristic (:func:`keep_value`); ``normal`` and
  ``hard`` compare its few lowest cards by playing each lay-out out in sampled
  deals.

The package, a module a job: :mod:`.model` (the card model), :mod:`.maxims` (the
maxims and playouts), :mod:`.worlds` (what a seat knows, sampled deals),
:mod:`.contracts` (counting books and points), :mod:`.player` (every decision at
each level), :mod:`.strategy` (the card as the strategy interface asks it).
"""

from __future__ import annotations

from engine.ai.strategies.bid_whist.contracts import (
    contract_candidates,
    contract_model,
    contract_points,
    estimate_tricks,
    keep_value,
)
from engine.ai.strategies.bid_whist.maxims import playout, rule_card
from engine.ai.strategies.bid_whist.model import (
    DealModel,
    applies,
    led_suit,
    legal_mask,
    model_of,
    winner_pos,
)
from engine.ai.strategies.bid_whist.player import DISCARD_CANDIDATES, ContractPlayer
from engine.ai.strategies.bid_whist.strategy import BidWhistStrategy
from engine.ai.strategies.bid_whist.worlds import (
    Knowledge,
    knowledge_of,
    pack_mask,
    sample_world,
    shown_voids,
)

__all__ = [
    "DISCARD_CANDIDATES",
    "BidWhistStrategy",
    "ContractPlayer",
    "DealModel",
    "Knowledge",
    "applies",
    "contract_candidates",
    "contract_model",
    "contract_points",
    "estimate_tricks",
    "keep_value",
    "knowledge_of",
    "led_suit",
    "legal_mask",
    "model_of",
    "pack_mask",
    "playout",
    "rule_card",
    "sample_world",
    "shown_voids",
    "winner_pos",
]
