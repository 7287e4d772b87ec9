"""Solo Whist's auction and naming trumps as strategies (RULES.md): each contract the
seat could bid alone played out with the seat as declarer
(:func:`~engine.ai.strategies.solo_whist.playout`, the seat's points for the
contract); a Propose with the first other seat that accepts by hard's own rule (else
converted to Solo or passed, the better), an Accept with the proposer; passing is
worth 0 (what the others would bid is not guessed, as hard does not guess it).
Naming trumps (Abundance, Slam): each suit played out. Unit: the seat's points."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action
from engine.ai.search.bitmasks import NO_TRUMP
from engine.ai.search.worlds import Situation, sample_world, situation
from engine.ai.strategies import solo_whist as solo
from engine.ai.strategies.calls.base import SampledCall
from engine.game import Game, SeatView
from engine.phases.solo_auction import SoloBid
from engine.phases.solo_declare import NameTrump

__all__ = ["SoloBidStrategy", "SoloTrumpStrategy", "contract_value"]


def contract_value(
    view: SeatView,
    world: list[int],
    contract: str,
    declarers: Sequence[int],
    trump: int,
) -> float:
    """The seat's points when ``declarers`` play ``contract`` with ``trump`` in ``world``."""
    sides = tuple(0 if s in declarers else 1 for s in range(4))
    declarer = declarers[0]
    roles = solo.contract_roles(contract, declarer)
    leader = declarer if contract == "slam" else view.eldest
    won = solo.playout(list(world), leader, [], trump, sides, roles, declarer, [0, 0, 0, 0])
    value = solo.seat_points(view, contract, sides, won)
    if contract == "spread" and view.seat in declarers:
        value -= 1.0  # the opponents see the hand: greedy playouts flatter it (as hard counts it)
    return value


def _contract_trump(view: SeatView, contract: str, hand: int) -> int:
    rules = view.rules
    assert rules is not None
    turn_up = view.turn_up.suit.order if view.turn_up is not None else NO_TRUMP
    if contract in ("mis", "spread"):
        return NO_TRUMP
    if contract == "abund" or (contract == "slam" and rules.slam_trump != "none"):
        return solo.best_suit(hand)[0]
    if contract == "slam":
        return NO_TRUMP
    return turn_up


class _SoloCall(SampledCall[list[int]]):
    table = "solo"

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.sit: Situation = situation(view)

    def sample(self, rng: random.Random) -> list[int] | None:
        return sample_world(self.sit, rng)

    def true_world(self, game: Game) -> list[int]:
        return [game.hands[s] for s in range(4)]


class SoloBidStrategy(_SoloCall):
    """A call of Solo Whist's auction (``bid:…``): see the module docstring."""

    def __init__(self, view: SeatView, legal: Sequence[Action]) -> None:
        super().__init__(view)
        self.calls = {a.encode(): a.call for a in legal if isinstance(a, SoloBid)}
        self.turn_up = view.turn_up.suit.order if view.turn_up is not None else NO_TRUMP
        self.proposer = next((s for s, call in view.auction if call == "prop"), None)
        self.passed = {s for s, call in view.auction if call == "pass"}

    def candidates(self) -> list[str]:
        return list(self.calls)

    def evaluate(self, world: list[int], cands: list[str], deadline: float) -> dict[str, float]:
        view, seat, turn_up = self.view, self.view.seat, self.turn_up
        out: dict[str, float] = {}
        for code in cands:
            call = self.calls[code]
            if call == "pass":
                out[code] = 0.0
            elif call == "accept" and self.proposer is not None:
                out[code] = contract_value(view, world, "prop", (self.proposer, seat), turn_up)
            elif call == "prop":
                partner = next(
                    (
                        (seat + k) % 4
                        for k in range(1, 4)
                        if (seat + k) % 4 not in self.passed
                        and solo.estimate_tricks(world[(seat + k) % 4], turn_up) >= 4.0
                    ),
                    None,
                )
                if partner is not None:
                    out[code] = contract_value(view, world, "prop", (seat, partner), turn_up)
                else:  # nobody accepts: the proposer converts to Solo, or passes
                    alone = contract_value(view, world, "solo", (seat,), turn_up)
                    out[code] = max(0.0, alone)
            else:
                trump = _contract_trump(view, call, self.sit.my_hand)
                out[code] = contract_value(view, world, call, (seat,), trump)
        return out


class SoloTrumpStrategy(_SoloCall):
    """Naming trumps for Abundance or Slam: each suit played out."""

    kind = "trump"

    def __init__(self, view: SeatView, legal: Sequence[Action]) -> None:
        super().__init__(view)
        self.suits = {a.encode(): a.suit.order for a in legal if isinstance(a, NameTrump)}

    def candidates(self) -> list[str]:
        return list(self.suits)

    def evaluate(self, world: list[int], cands: list[str], deadline: float) -> dict[str, float]:
        view = self.view
        return {
            c: contract_value(view, world, view.contract, (view.seat,), self.suits[c])
            for c in cands
        }
