"""Decisions every level makes the same way, without a search."""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action, CallCanYe, DeclineRuff, Pass, ShowHonours, TakeRuff
from engine.cards import mask_of
from engine.view import SeatView

__all__ = ["claim_for", "obvious_choice"]


def obvious_choice(legal: Sequence[Action]) -> Action | None:
    """The choice every level makes the same way, or ``None`` if there is a real one.

    * a single legal action;
    * showing three honours or calling Can-ye at the call point: showing wins
      outright, and a call either wins (partner holds an honour) or costs
      nothing but information (partner holds none, so honours are not ours);
    * taking the ruff: with sixteen cards to choose twelve from, taking is
      never worse than declining (the four stock cards can be laid out again).
    """
    if len(legal) == 1:
        return legal[0]
    for kind in (ShowHonours, CallCanYe, TakeRuff):
        for action in legal:
            if isinstance(action, kind):
                return action
    for action in legal:
        if not isinstance(action, (Pass, DeclineRuff)):
            return None
    return legal[0]


def claim_for(view: SeatView, legal: Sequence[Action]) -> Action | None:
    """Under ``ruff_announce = declared``: claim the hand's true ruff, when that is legal."""
    from engine.phases.contest import RuffClaim, ruff_value

    if view.rules is None or not any(isinstance(a, RuffClaim) for a in legal):
        return None
    value = ruff_value(mask_of(view.hand), view.turn_up, view.trump, view.rules.ruff_measure)
    claim = RuffClaim(value)
    return claim if claim in legal else None
