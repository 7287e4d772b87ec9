"""Game families: each module is one family's parameters, presets, phases and scorer.

A family module defines its :class:`~engine.rules.GameDef` s (game ids,
parameters, presets), registers them with :func:`engine.rules.register_game`,
and exposes one object that :class:`~engine.game.Game` asks for:

* ``sequence(rules)``: the phases of one deal, in order (``engine/phases/``);
* ``catalogue()``: every phase that owns actions in the family's games;
* ``seating(rules)``: the :class:`~engine.seating.Seating` a game starts with
  (a family whose sides are made per deal replaces it in a phase, with
  ``Game.set_seating``);
* ``score_deal(game, events)``: the deal's points, a
  :class:`~engine.phases.score.DealScore`;
* ``honour_counts(game)``: honours per side in the deal (zeros where none count);
* ``has_layouts``: whether seats play face-up layout cards as well as their hand.

Adding a game means adding a family module (or presets to one) and listing it in
``FAMILIES`` below; nothing else in the engine names a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final, Protocol

from ..rules import GameDef, Rules
from ..seating import Seating
from . import ruff_honours

if TYPE_CHECKING:
    from ..events import Event
    from ..game import Game
    from ..phases.base import PhaseLogic
    from ..phases.score import DealScore

__all__ = ["FAMILIES", "Family", "family_of"]


class Family(Protocol):
    """What a game family gives the :class:`~engine.game.Game` (see the module docstring)."""

    name: str
    games: Sequence[GameDef]
    has_layouts: bool

    def sequence(self, rules: Rules) -> tuple[PhaseLogic, ...]: ...

    def catalogue(self) -> tuple[PhaseLogic, ...]: ...

    def seating(self, rules: Rules) -> Seating: ...

    def score_deal(self, game: Game, events: list[Event]) -> DealScore: ...

    def honour_counts(self, game: Game) -> list[int]: ...


FAMILIES: Final[Mapping[str, Family]] = {f.name: f for f in (ruff_honours.FAMILY,)}


def family_of(rules: Rules) -> Family:
    """The family that plays ``rules``' game (named by ``Rules.family``)."""
    return FAMILIES[rules.family]
