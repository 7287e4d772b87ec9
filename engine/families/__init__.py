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

How a family reaches the parts of a deal that vary between games:

* **Sides.** Every phase reads sides only from ``game.side_of`` (the
  ``seat_sides`` of ``game.seating``). A family whose sides are made per deal
  (one against the rest, a proposer and acceptor) has one of its phases, e.g.
  an auction, call ``game.set_seating(Seating.one_against(n, seat))`` once the
  sides are known; snapshots store the seating. ``Game.partner_of`` is "the
  next seat clockwise on my side, else myself" (what Can-ye needs), which is
  not ``Seating.partner_of`` (``None`` unless exactly one partner); they agree
  for partnerships.
* **Rank order.** ``sequence(rules)`` builds its
  :class:`~engine.phases.deal.DealPhase` with ``rank_order=`` (``HIGH`` by
  default); the deal phase puts it in ``game.rank_order`` each deal and a later
  phase (a contract) may replace it. The play phase takes each trick's winner
  from ``game.rank_order.trick_winner``, with an unrolled fast path for
  ``HIGH``. A pack with jokers (``Rules.jokers``, Bid Whist) follows suit by
  ``cards.follow_mask`` in the play phase's general path and never takes the
  fast path.
* **Layouts.** A layout family's deal phase puts a :class:`~engine.layout.Layout`
  in ``game.layout``; the play phase's general path takes a seat's cards from
  ``Game.playable(seat)`` (the hand plus ``Layout.playable``), follows suit from
  those, plays a layout card through ``Layout.play`` and emits
  :class:`~engine.events.LayoutCardPlayed` naming the card turned up beneath.
  ``has_layouts = True`` keeps such a game off the fast path, which reads the
  hand only. ``SeatView.layouts`` shows every face-up card and the number of
  face-down cards beneath (Turnover Bridge, :mod:`.turnover`).
* **Notes.** ``game.notes`` holds a family's public facts of the deal (the
  ruff claims of Ruffe and Trump, :mod:`.ruffe_trump`); every view carries them.

Adding a game means adding a family module (or presets to one) and listing it in
``FAMILIES`` below; nothing else in the engine names a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final, Protocol

from engine.families import ruff_honours, ruffe_trump, solo, turnover
from engine.rules import GameDef, Rules
from engine.seating import Seating

# isort: split
from engine.families import bid_whist  # after the others: games register in import order

if TYPE_CHECKING:
    from engine.events import Event
    from engine.game import Game
    from engine.phases.base import PhaseLogic
    from engine.phases.score import DealScore

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


FAMILIES: Final[Mapping[str, Family]] = {
    f.name: f
    for f in (
        ruff_honours.FAMILY,
        solo.FAMILY,
        ruffe_trump.FAMILY,
        turnover.FAMILY,
        bid_whist.FAMILY,
    )
}


def family_of(rules: Rules) -> Family:
    """The family that plays ``rules``' game (named by ``Rules.family``)."""
    return FAMILIES[rules.family]
