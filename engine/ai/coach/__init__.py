"""The coach: each of one seat's decisions in a finished deal judged, fairly.

* :mod:`~engine.ai.coach.review`: the review of a deal (single- and double-dummy cost
  of each decision, flagged where significant), a position's options ranked (hints),
  and puzzles;
* :mod:`~engine.ai.coach.cards`: a card decision measured by the hard AI's own
  strategy for the table (:mod:`engine.ai.search.strategy`): the coach has no card
  model of its own;
* :mod:`~engine.ai.coach.calls`: the decisions that are not cards (bids, calls,
  trumps, the ruff and its lay-out, the kitty), measured by the hard AI's strategy for
  the decision (:mod:`engine.ai.strategies.calls`): no model of its own either.
"""
