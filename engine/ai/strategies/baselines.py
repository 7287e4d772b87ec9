"""The arena's outside baselines: generic ISMCTS at ``hard``'s CPU, and a double-dummy oracle.

Neither is offered to players (:data:`engine.ai.levels.BASELINE_LEVELS`):

* :class:`IsmctsPlayer` (``ismcts``): the card play by single-observer ISMCTS
  (:mod:`engine.ai.search.ismcts`) over worlds sampled from the seat's view
  (:func:`engine.ai.search.worlds.sample_world`), for ``hard``'s soft budget a
  decision on the AI's clock; at the tables that sampler does not model (Bid
  Whist's jokers and rank orders, the open tables of two or three seats, each
  alone, or layouts) and for every decision other than a card it plays as the
  conventional player (:mod:`engine.ai.strategies.conventional`).
* :class:`OraclePlayer` (``oracle``): an upper bound that sees every hand. Only
  the arena gives it the game (:meth:`OraclePlayer.choose_seeing`); its card
  at a four-handed table in two partnerships (not misère) is the best one
  double-dummy by DDS (the lowest of the equals), and at the other four-handed
  tables Solo's and misère's the perfect-information search of the same tree
  with the true deal as its one world. Every other decision, and everything
  when it is given only a view, is ``hard``'s.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action, Play
from engine.ai.levels import HARD
from engine.ai.search import clock, dds, ismcts
from engine.ai.search.bitmasks import NO_TRUMP
from engine.ai.search.worlds import MISERE_CONTRACTS, sample_world, situation
from engine.ai.strategies import open_tables
from engine.ai.strategies.bid_whist import applies as is_bid_whist
from engine.ai.strategies.conventional import ConventionalPlayer
from engine.cards import Card
from engine.game import Game, SeatView

__all__ = ["IsmctsPlayer", "OraclePlayer", "searchable"]


def searchable(view: SeatView, legal: Sequence[Action]) -> bool:
    """A card to play at a four-handed table whose hidden deal the worlds sampler models."""
    return (
        any(isinstance(a, Play) for a in legal)
        and len(legal) > 1
        and len(view.hand_sizes) == 4
        and not is_bid_whist(view)
        and not open_tables.wants_generic(view)
    )


def _misere_side(view: SeatView) -> int | None:
    if view.contract in MISERE_CONTRACTS and view.declarer is not None:
        sides = view.sides or (0, 1, 0, 1)
        return sides[view.declarer]
    return None


class IsmctsPlayer:
    """Level ``ismcts``: SO-ISMCTS for the card play within ``budget`` seconds a decision."""

    def __init__(self, budget: float = HARD.soft, name: str = "ismcts") -> None:
        self.name = name
        self.budget = budget
        self._rules = ConventionalPlayer()

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        if not searchable(view, legal):
            return self._rules.choose(view, legal, rng)
        deadline = clock.now() + self.budget
        sit = situation(view)
        deal = ismcts.Deal(
            seat=view.seat,
            leader=sit.leader,
            trick=list(sit.trick),
            trump=sit.trump,
            tricks=sit.tricks,
            sides=sit.sides,
            misere_side=_misere_side(view),
        )
        card = ismcts.search(deal, lambda r: sample_world(sit, r), rng, deadline=deadline)
        if card is None or Play(Card.from_index(card)) not in legal:
            return self._rules.choose(view, legal, rng)
        return Play(Card.from_index(card))

    def __repr__(self) -> str:
        return f"IsmctsPlayer(budget={self.budget})"


class OraclePlayer:
    """Level ``oracle``: double-dummy play from the whole game, ``hard`` for the rest.

    ``fallback`` answers every decision that is not a card it can solve.
    """

    def __init__(self, fallback: object, budget: float = HARD.soft, name: str = "oracle") -> None:
        from engine.ai.players import Player

        assert isinstance(fallback, Player)
        self.fallback: Player = fallback
        self.budget = budget
        self.name = name

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """Given only a view, the oracle is ``hard``."""
        return self.fallback.choose(view, legal, rng)

    def choose_seeing(
        self, game: Game, view: SeatView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """The choice of ``view``'s seat, knowing every card of ``game`` (the arena only)."""
        if not searchable(view, legal):
            return self.fallback.choose(view, legal, rng)
        hands = [game.hands[s] for s in range(4)]
        trick = [c.index for c in game.trick]
        trump = game.trump.order if game.trump is not None else NO_TRUMP
        misere = _misere_side(view)
        sides = view.sides or (0, 1, 0, 1)
        card: int | None = None
        if misere is None and tuple(sides) == (0, 1, 0, 1) and dds.available():
            try:
                scores = dds.solve_cards(hands, game.leader, trick, trump, timeout=HARD.cap)
            except Exception:
                scores = {}
            playable = {a.card.index for a in legal if isinstance(a, Play)}
            best = [c for c in scores if c in playable]
            if best:
                card = max(best, key=lambda c: (scores[c], -c))
        if card is None:
            sit = situation(view)
            deal = ismcts.Deal(
                seat=view.seat,
                leader=game.leader,
                trick=trick,
                trump=trump,
                tricks=sit.tricks,
                sides=tuple(sides),
                misere_side=misere,
            )
            card = ismcts.search(
                deal, lambda r: list(hands), rng, deadline=clock.now() + self.budget
            )
        if card is None or Play(Card.from_index(card)) not in legal:
            return self.fallback.choose(view, legal, rng)
        return Play(Card.from_index(card))

    def __repr__(self) -> str:
        return "OraclePlayer()"
