"""The coach: each of one seat's decisions in a finished deal judged, fairly.

* :mod:`~engine.ai.coach.review`: the review of a deal (single- and double-dummy cost
  of each decision, flagged where significant) and a position's options ranked (hints);
* :mod:`~engine.ai.coach.report`: the verdicts as data (the budget, options,
  decisions, a deal's review and its JSON);
* :mod:`~engine.ai.coach.records`: a game's record read for a review (its deals, the
  position before an action, the seed that judges it);
* :mod:`~engine.ai.coach.puzzle`: a position as its seat saw it, for puzzles;
* :mod:`~engine.ai.coach.cards`: a card decision measured by the hard AI's own
  strategy for the table (:mod:`engine.ai.search.strategy`): the coach has no card
  model of its own;
* :mod:`~engine.ai.coach.calls`: the decisions that are not cards (bids, calls,
  trumps, the ruff and its lay-out, the kitty), measured by the hard AI's strategy for
  the decision (:mod:`engine.ai.strategies.calls`): no model of its own either.
"""
