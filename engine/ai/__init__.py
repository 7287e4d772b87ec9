"""AI players: ``easy``, ``normal`` and ``hard``, all behind one interface.

    from engine.ai import get_player

    player = get_player("hard")
    action = player.choose(game.observe(seat), game.legal_actions(seat), rng)

Every player is a plain synchronous ``choose(view, legal, rng) -> Action``
(thread-safe, no I/O), so the bot can run it with ``asyncio.to_thread`` or in
a process pool. ``normal`` and ``hard`` fall back to ``easy`` on any error;
their searches keep to a time budget. Claims and concessions are answered
apart (:func:`decide_claim`), before a player is asked.

The package, by idea:

* :mod:`engine.ai.levels`: each level as a budget profile (data);
* :mod:`engine.ai.players`: the player interface and the one dispatch that
  picks a strategy for each decision and runs it with a level's profile;
* :mod:`engine.ai.strategies`: what to do, per kind of table or decision
  (partnership play, the open tables, Solo Whist, Bid Whist, discards, claims);
* :mod:`engine.ai.coach`: the coach's review of a finished deal (single- and
  double-dummy cost of each decision, flagged where significant), judged by the
  hard AI's own strategies (:mod:`engine.ai.search.strategy`);
* :mod:`engine.ai.baselines`: the arena's outside baselines (``rules``, ``pimc``,
  ``ismcts``, ``oracle``), which the players never import;
* :mod:`engine.ai.search`: the machinery the strategies share (sampled
  worlds, playouts, exact solvers, budgets and the clock they are measured by).
"""

from __future__ import annotations

from engine.ai.baselines import OraclePlayer, arena_player
from engine.ai.coach.puzzle import puzzle_position
from engine.ai.coach.records import deal_count, played_seats, position_before
from engine.ai.coach.report import DEFAULT_BUDGET as REVIEW_BUDGET
from engine.ai.coach.report import DealReview, Decision, ReviewBudget
from engine.ai.coach.review import judge_call, rank_options, review_deal, review_position
from engine.ai.explain import REASONS, Reason, explain, hint
from engine.ai.levels import BASELINE_LEVELS, LEVELS, TRIAL_LEVELS, Profile, profile
from engine.ai.players import (
    EasyPlayer,
    GuardedPlayer,
    HardPlayer,
    LevelPlayer,
    NormalPlayer,
    Player,
    get_player,
)
from engine.ai.search import clock
from engine.ai.strategies.claims import TIME_LIMIT as CLAIM_TIME_LIMIT
from engine.ai.strategies.claims import decide as decide_claim
from engine.ai.strategies.obvious import obvious_choice

__all__ = [
    "BASELINE_LEVELS",
    "CLAIM_TIME_LIMIT",
    "DealReview",
    "Decision",
    "LEVELS",
    "REASONS",
    "REVIEW_BUDGET",
    "TRIAL_LEVELS",
    "EasyPlayer",
    "GuardedPlayer",
    "HardPlayer",
    "LevelPlayer",
    "NormalPlayer",
    "OraclePlayer",
    "Player",
    "Profile",
    "Reason",
    "ReviewBudget",
    "arena_player",
    "clock",
    "deal_count",
    "decide_claim",
    "explain",
    "get_player",
    "hint",
    "judge_call",
    "obvious_choice",
    "profile",
    "played_seats",
    "position_before",
    "puzzle_position",
    "rank_options",
    "review_deal",
    "review_position",
]
