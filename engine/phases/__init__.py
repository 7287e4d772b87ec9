"""The phases of a deal, each a small object behind one protocol (:mod:`.base`).

``deal`` (shuffle, deal, trumps) · ``exchange`` (Cotton's ruff: take / decline,
lay out) · ``declare`` (final hands, Can-ye, showing honours) · ``play``
(tricks) · ``score`` (deal, game, match; the match's end). A game family
(``engine/families/``) lists the ones its games use, in order.
"""

from engine.phases.base import Phase, PhaseLogic
from engine.phases.deal import DealPhase
from engine.phases.declare import DeclarePhase
from engine.phases.exchange import DiscardPhase, RuffPhase
from engine.phases.play import PlayPhase
from engine.phases.score import OverPhase, ScorePhase

__all__ = [
    "DealPhase",
    "DeclarePhase",
    "DiscardPhase",
    "OverPhase",
    "Phase",
    "PhaseLogic",
    "PlayPhase",
    "RuffPhase",
    "ScorePhase",
]
