"""Events with no director (issue #39), pure: who sits where, who meets whom, how it
scores, and what the clock allows. docs/events.md states every rule.

* :mod:`.movement` — barometer rounds: :func:`seat_individual`, :func:`seat_pairs`
* :mod:`.swiss` — Swiss pairs: :func:`pair_round`, :func:`swiss_standings`
* :mod:`.scoring` — matchpoints, standings, completion, asynchronous events
* :mod:`.timing` — the time rule: which boards may start, skipped boards' scores

Imports: the standard library, networkx and each other only (tests/competition
checks it).
"""

from .movement import (
    Round,
    Table,
    ai_layout,
    individual_cost,
    pairs_cost,
    seat_individual,
    seat_pairs,
)
from .scoring import (
    AI_CAP,
    UNPLAYED,
    AsyncEntry,
    AsyncResults,
    BoardScore,
    How,
    Standing,
    TableResult,
    async_results,
    matchpoints,
    running_standings,
    score_round,
    standings,
)
from .swiss import (
    Match,
    Pairing,
    RoundPlan,
    SwissStanding,
    match_points,
    pair_round,
    plan_round,
    swiss_standings,
)
from .timing import (
    STEPBRIDGE,
    RoundClock,
    TableProgress,
    TimeRule,
    round_over,
    skipped_boards,
    skipped_split,
)

__all__ = [
    "AI_CAP",
    "STEPBRIDGE",
    "UNPLAYED",
    "AsyncEntry",
    "AsyncResults",
    "BoardScore",
    "How",
    "Match",
    "Pairing",
    "Round",
    "RoundClock",
    "RoundPlan",
    "Standing",
    "SwissStanding",
    "Table",
    "TableProgress",
    "TableResult",
    "TimeRule",
    "ai_layout",
    "async_results",
    "individual_cost",
    "match_points",
    "matchpoints",
    "pair_round",
    "pairs_cost",
    "plan_round",
    "round_over",
    "running_standings",
    "score_round",
    "seat_individual",
    "seat_pairs",
    "skipped_boards",
    "skipped_split",
    "standings",
    "swiss_standings",
]
