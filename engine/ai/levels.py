"""The AI levels as budget profiles: how much each one searches, and with what.

A level is data, a :class:`Profile`; the one dispatch of :mod:`engine.ai.players`
reads it to pick and size the strategy for each decision:

* ``easy`` does not search: the table maxims for every decision, with a pinch
  of randomness (``noise``), well under a millisecond a decision;
* ``normal`` samples deals of the unseen cards and plays every candidate out
  greedily in each (the exact Python solver for the last few cards), within
  a short budget;
* ``hard`` samples fewer deals and solves each exactly (DDS, when ``endplay``
  is installed), infers from the others' play, and searches more widely at the
  open tables (two or three seats, everyone alone, face-up layouts), where it
  also searches the rub's lay-out.

Every search keeps to its budget: it stops starting new worlds at ``soft``
seconds and never runs past ``cap`` (:mod:`engine.ai.search.clock`).

The arena-only levels of :data:`TRIAL_LEVELS` are ``hard`` without one of the
things it adds at the open tables, and those of :data:`BASELINE_LEVELS` outside
baselines that are no profile (never offered to players).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

__all__ = [
    "BASELINE_LEVELS",
    "EASY",
    "HARD",
    "LEARNED_HINTS",
    "POLICY_WEIGHTS",
    "LEVELS",
    "NORMAL",
    "PROFILES",
    "TRIAL_LEVELS",
    "Profile",
    "profile",
]


@dataclass(frozen=True, slots=True)
class Profile:
    """How one level decides: which searches it runs and how far."""

    name: str
    searches: bool  # False: the maxims alone (``easy``)
    noise: float = 0.0  # chance of an occasional slip to a near card (the maxims' card play)
    soft: float = 0.0  # seconds: stop starting new worlds after this
    cap: float = 0.0  # seconds: never search past this

    # four-handed partnership play, hidden deal (engine.ai.strategies.partnership)
    min_worlds: int = 1
    max_worlds: int = 0
    margin: float = 0.0  # a cheaper card within this mean value of the best is preferred
    inference: bool = False  # weigh the sampled worlds by how well they explain the play
    uniform: bool = False  # every consistent world alike: no bias on the ruffer's lay-out either
    hint_weights: tuple[float, float, float] | None = None  # the hints' weights (else by hand)
    hint_rules: bool = False  # deal the worlds keeping every hint (as a rule) where one can
    policy: tuple[float, ...] | None = None  # weigh worlds by a card-choice model of the others
    policy_temper: float = 1.0  # ... its log-likelihood times this (engine.ai.search.policy)
    policy_draws: int = 1  # > 1: each world picked among this many by that weight, then unweighted
    exact_worlds: int = 0  # last two tricks: every possible world when there are at most this many
    settle_follow: bool = False  # last to play, following, no card changes the winner: the lowest
    double_dummy: bool = False  # solve each world by DDS, when it is available
    solver_cards: int = 0  # otherwise: the Python solver at or below this many cards a hand

    # the ruff's four discards (engine.ai.strategies.discards): playouts screen the
    # likely sets; with DDS the best few are re-scored double-dummy
    discard_worlds: int = 0  # worlds the playouts screen on (0: the maxims' set)
    discard_candidates: int = 0  # sets screened
    discard_worlds_dds: int = 0  # with DDS: worlds the playouts screen on instead
    discard_dds_worlds: int = 0  # with DDS: worlds the best sets are re-scored on

    # contract games: Solo Whist (engine.ai.strategies.solo_whist) and Bid Whist
    solo_worlds: int = 0  # sampled deals a decision at most (the budget decides first)
    bid_whist_worlds: int = 0

    # the open tables: 2-3 seats, everyone alone, or layouts (engine.ai.strategies.open_tables)
    open_worlds: int = 0
    # with layouts: at or below these many cards a seat (two seats, more) solved exactly
    open_exact: tuple[int, int] = (0, 0)
    open_exact_hidden: tuple[int, int] = (0, 0)  # the same without layouts
    sharp: bool = False  # tables of two or three: weigh worlds by the others' plays
    relative: bool = False  # three or more, each alone: a deal's value less the others' mean
    open_discards: bool = False  # search the rub's lay-out (else the maxims lay out)


EASY: Final = Profile(name="easy", searches=False, noise=0.08)

NORMAL: Final = Profile(
    name="normal",
    searches=True,
    soft=0.04,
    cap=1.0,
    min_worlds=2,
    max_worlds=300,
    margin=0.1,
    exact_worlds=1000,
    settle_follow=True,
    solver_cards=3,
    discard_worlds=24,
    discard_candidates=8,
    solo_worlds=24,
    bid_whist_worlds=300,
    open_worlds=300,
    open_exact=(5, 3),
    open_exact_hidden=(5, 3),
)

HARD: Final = Profile(
    name="hard",
    searches=True,
    soft=0.2,
    cap=1.5,
    min_worlds=1,
    max_worlds=64,
    inference=True,
    exact_worlds=2000,
    double_dummy=True,
    solver_cards=6,
    discard_worlds=48,
    discard_candidates=10,
    discard_worlds_dds=32,
    discard_dds_worlds=8,
    solo_worlds=400,
    bid_whist_worlds=400,
    open_worlds=1000,
    # without layouts, two seats are solved from five cards a seat: in Ruffe and
    # Trump for two most of the pack lies out of play, and a world solved exactly
    # from seven plays as if it knew the hidden hand; Turnover Bridge's layouts
    # leave little hidden, so seven there (docs/arena/PROBES.md)
    open_exact=(7, 4),
    open_exact_hidden=(5, 4),
    sharp=True,
    relative=True,
    open_discards=True,
)

LEVELS: Final = ("easy", "normal", "hard")
# arena-only: ``hard-old`` without the inference, the searched lay-out and the
# relative value; ``hard-maxims-layout`` laying out its rub by the maxims;
# ``hard-own-value`` valuing a deal by its own card points only, as normal does;
# ``hard-learned`` with the hints' weights learned from self-play (LEARNED_HINTS)
# and its worlds dealt keeping the hints; ``hard-policy`` weighing its worlds by a
# card-choice model of the others learned from self-play (POLICY_WEIGHTS)
TRIAL_LEVELS: Final = (
    "hard-old",
    "hard-maxims-layout",
    "hard-own-value",
    "hard-learned",
    "hard-policy",
)
# arena-only outside baselines (engine.ai.baselines): ``rules`` the conventional
# maxims without search, ``pimc`` plain PIMC (hard without its inference),
# ``ismcts`` generic ISMCTS at hard's CPU a decision, ``oracle`` double-dummy play
# that sees every hand (an upper bound; the arena alone gives it the game)
BASELINE_LEVELS: Final = ("rules", "pimc", "ismcts", "oracle")

LEARNED_HINTS: Final = (0.026, 0.010, 0.012)
"""The hints' weights learned from hard's own cards in the arena's records: the share of
the positions where it could have beaten the trick as fourth hand, as third hand, or
ruffed as a void fourth hand, in which it did not (``python -m tools.learn_hints
tools/arena_runs/plays/whist-5-hard-vs-rules.jsonl``: 384 plays, 230, 411 and 253
positions; 95% CIs 0.012 .. 0.056, 0.004 .. 0.025, 0.004 .. 0.034). The weights by
hand (0.15, 0.4, 0.5) are far softer than how the AI (and the rules player, who never
ducks there) plays."""

POLICY_WEIGHTS: Final = (
    *(-0.255, -0.449, 1.494, 0.006, 2.167, -0.045, 0.912, -0.180, 0.255),
    *(0.313, 2.900, -0.919, 9.302, -4.983, -1.380, -4.899, -1.933, 0.865),
    *(-1.614, 2.210, -2.756, 2.491, 3.030, 0.617, -0.504, -3.498),
)
"""The card-choice model's weights (:data:`engine.ai.search.policy.FEATURES`), learned
from the cards of hard and pimc in the whist-5 hard vs pimc plays, boards 1 to 500
(``python -m tools.learn_policy docs/arena/plays/whist-5-hard-vs-pimc.jsonl.gz``: 41,179
decisions; log-likelihood a decision -0.801, held out (boards 501 to 1000) -0.799,
against the uniform choice's -1.383 and -1.387)."""

PROFILES: Final[dict[str, Profile]] = {
    "easy": EASY,
    "normal": NORMAL,
    "hard": HARD,
    "hard-old": replace(HARD, sharp=False, open_discards=False, relative=False),
    "hard-maxims-layout": replace(HARD, open_discards=False),
    "hard-own-value": replace(HARD, relative=False),
    "hard-learned": replace(HARD, hint_weights=LEARNED_HINTS, hint_rules=True),
    "hard-policy": replace(HARD, policy=POLICY_WEIGHTS, policy_temper=0.5),
}


def profile(level: str, *, budget: float | None = None, cap: float | None = None) -> Profile:
    """The profile of ``level`` (one of :data:`LEVELS` or :data:`TRIAL_LEVELS`),
    with its ``soft`` budget and ``cap`` replaced when given (``easy`` has none)."""
    try:
        found = PROFILES[level]
    except KeyError:
        raise ValueError(f"unknown AI level {level!r} (known: {', '.join(LEVELS)})") from None
    if not found.searches:
        return found
    return replace(
        found,
        soft=found.soft if budget is None else budget,
        cap=found.cap if cap is None else cap,
    )
