"""Sampled-worlds search for the tables the four-handed searches do not know.

:mod:`engine.ai.search.determinized` and :mod:`engine.ai.search.worlds` assume four seats with
partners opposite and a hidden deal; :mod:`engine.ai.strategies.open_tables` plays everything
else by table maxims. This module gives ``normal`` and ``hard`` a real search
there: Ruffe and Trump for three or two, or single-handed (each for himself),
and Turnover Bridge (two players, face-up layouts on face-down cards). It
follows :mod:`engine.ai.strategies.bid_whist` (its own small card model, sampled worlds,
greedy playouts for every seat) over the ``HIGH`` rank order of 52 cards:

* :func:`knowledge_of` reads what the seat knows: its hand; every card played;
  the face-up layout cards (public, so in nobody's hidden hand); voids shown by
  failing to follow (a Turnover player's void is of his *hand*: face-down
  cards never count for following, so they stay unconstrained); the turn-up
  (in the hand of the seat holding it, in the rubber's hand once he took the
  head's top four in, else out of play with the head); the trump ace in the
  rubber's hand when the rubber is not the dealer (he rubbed because he held
  it); the rubber's own lay-out, known to him.
* :func:`sample_world` deals the unknown cards to the places they may be in
  (the other hands, the cards out of play, the face-down layout cards) so that
  every constraint holds: each card goes to a random allowed place weighted
  by the room left there, among the places that keep the rest of the deal
  possible (Hall's condition over the places, as in :mod:`engine.ai.strategies.bid_whist`).
  The face-down cards are then shuffled into the layout positions, one stack
  per position; a face-down card turns up in the world exactly as in the game.
* :func:`playout` plays the deal to its end (or until a player reaches the
  majority under ``stop_at_majority``) with :func:`greedy_card` at every seat,
  which sees the world's *available* cards (hand plus playable face-up cards)
  and plays by the sides of the view: cash a master, low from the longest side
  suit; win as cheaply as the seats still to play allow, else low; ruff a
  losing trick as cheaply as is safe, else throw the cheapest side card.
* :func:`search_play` plays every candidate card out in every sampled world
  and keeps the best mean value for the seat (:func:`deal_value`) within the
  player's :class:`~engine.ai.search.budget.Budget` (stop starting worlds at the soft
  budget, never pass the cap, at least ``min_worlds`` worlds). Equivalent hand
  cards (touching, or separated only by cards played or held by the seat) are
  tried once; layout cards are always tried one by one, since which card each
  turns up differs.

The value of a deal for the seat (decisions where the brief was open):

* card points over par (Ruffe and Trump, ``par`` of
  :mod:`engine.families.ruffe_trump`): the seat's own points, ``max(0, cards
  won - par)`` (less the opponent's, at a table of two; for ``hard``, at a
  table of three or more, less the mean of the others'), plus a hundredth of a
  point per trick so that among cards equal on points the one taking more
  tricks wins (tricks below par are tricks denied to the others, which
  matters in the race to the set);
* deal win (Turnover Bridge ``deal_win``): one for the deal won, minus one for
  the deal lost (a drawn deal is zero), plus a hundredth per trick;
  ``odd_tricks``: own tricks over half minus the opponent's;
* any other game: the seat's side's tricks.

The package, a module a job: :mod:`.knowledge` (what a seat knows), :mod:`.worlds`
(sampled deals), :mod:`.playouts` (the greedy playouts), :mod:`.value` (a deal's
value), :mod:`.exact` (the exact endgame solve), :mod:`.strategy` (the search).
"""

from __future__ import annotations

from engine.ai.search.open_search.exact import solve
from engine.ai.search.open_search.knowledge import Known, applies, knowledge_of
from engine.ai.search.open_search.playouts import greedy_card, playout
from engine.ai.search.open_search.strategy import (
    OpenStrategy,
    candidate_cards,
    card_values,
    search_play,
)
from engine.ai.search.open_search.value import deal_value
from engine.ai.search.open_search.worlds import World, after_card, remaining_cards, sample_world

__all__ = [
    "Known",
    "OpenStrategy",
    "World",
    "after_card",
    "applies",
    "candidate_cards",
    "card_values",
    "deal_value",
    "greedy_card",
    "knowledge_of",
    "playout",
    "remaining_cards",
    "sample_world",
    "search_play",
    "solve",
]
