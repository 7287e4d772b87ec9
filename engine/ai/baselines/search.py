"""The arena's outside baselines: generic ISMCTS at ``hard``'s CPU, and a double-dummy oracle.

Neither is offered to players (:data:`engine.ai.levels.BASELINE_LEVELS`):

* :class:`IsmctsPlayer` (``ismcts``): the card play by single-observer ISMCTS
  (:mod:`engine.ai.search.ismcts`) over worlds sampled from the seat's view
  (:func:`engine.ai.search.worlds.sample_world` at a four-handed partnership
  table, :func:`engine.ai.search.open_search.sample_world` at the others: Solo,
  each for himself, two or three seats, layouts), for ``hard``'s soft budget a
  decision on the AI's clock. In Bid Whist (jokers, rank orders the card model
  does not know) and for every decision other than a card it plays as the
  conventional player (:mod:`engine.ai.baselines.rules`).
* :class:`OraclePlayer` (``oracle``): an upper bound that sees every hand (and
  every face-down layout card). Only the arena gives it the game
  (:meth:`OraclePlayer.choose_seeing`); its card at a four-handed table in two
  partnerships without layouts (not misère) is the best one double-dummy by
  DDS (the lowest of the equals); at the other tables the card model reaches
  (Solo, misère, each for himself, two or three seats, Turnover's layouts) it
  is the search of the same tree with the true deal as its one world (a
  perfect-information MCTS, at ``hard``'s CPU), except near the end of the
  deal: at two sides (not misère) with at most :data:`EXACT_CARDS` cards a seat
  left, each card is solved exactly (:func:`engine.ai.search.open_search.solve`,
  the most tricks for the seat's side), which is both right and far cheaper
  than the search. Every other decision (bids, discards, Bid Whist), and
  everything when it is given only a view, is ``hard``'s.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from engine.actions import Action, Play
from engine.ai.baselines.rules import ConventionalPlayer
from engine.ai.levels import HARD
from engine.ai.search import clock, dds, ismcts, open_search
from engine.ai.search.bitmasks import NO_TRUMP, play_mask
from engine.ai.search.worlds import MISERE_CONTRACTS, sample_world, situation
from engine.ai.strategies import open_tables
from engine.ai.strategies.bid_whist import applies as is_bid_whist
from engine.cards import Card
from engine.game import Game, SeatView

__all__ = ["EXACT_CARDS", "IsmctsPlayer", "OraclePlayer", "exact_card", "searchable"]

EXACT_CARDS: Final = (7, 4)
"""Cards a seat (at a table of two seats, of more) at or below which the oracle solves
every card exactly instead of searching (``hard``'s ``open_exact``)."""


def searchable(view: SeatView, legal: Sequence[Action]) -> bool:
    """A card to choose at a table the card model of :mod:`engine.ai.search.ismcts` plays:
    a natural pack ranked high (not Bid Whist), two to four seats."""
    return (
        len(legal) > 1
        and any(isinstance(a, Play) for a in legal)
        and not is_bid_whist(view)
        and open_search.applies(view)
    )


def _misere_side(view: SeatView) -> int | None:
    if view.contract in MISERE_CONTRACTS and view.declarer is not None:
        sides = view.sides or (0, 1, 0, 1)
        return sides[view.declarer]
    return None


def _deal_and_sampler(
    view: SeatView,
) -> tuple[ismcts.Deal, Callable[[random.Random], ismcts.World | None]] | None:
    """The deal as the seat sees it, and a sampler of worlds consistent with its view:
    the four-handed partnership sampler (the ruff, honours and Can-ye) where it
    applies, the open tables' one (layouts, any sides) elsewhere."""
    misere = _misere_side(view)
    if len(view.hand_sizes) == 4 and not open_tables.wants_generic(view):
        sit = situation(view)
        deal = ismcts.Deal(
            seat=view.seat,
            leader=sit.leader,
            trick=list(sit.trick),
            trump=sit.trump,
            tricks=sit.tricks,
            sides=sit.sides,
            misere_side=misere,
        )

        def hidden(r: random.Random) -> ismcts.World | None:
            hands = sample_world(sit, r)
            return None if hands is None else ismcts.world_of_hands(hands[:4])

        return deal, hidden
    k = open_search.knowledge_of(view)
    if k is None:
        return None
    deal = ismcts.Deal(
        seat=k.seat,
        leader=k.leader,
        trick=list(k.trick),
        trump=k.trump,
        tricks=tuple(k.tricks),
        sides=k.sides,
        misere_side=misere,
        stop=k.stop,
    )
    return deal, lambda r: open_search.sample_world(k, r)


def _true_world(game: Game) -> ismcts.World:
    """Every card where it is (the oracle's world): hands, and layouts with what lies beneath."""
    n = game.n_players
    hands = [game.hands[s] for s in range(n)]
    layout = game.layout
    if layout is None:
        return ismcts.world_of_hands(hands)
    under: list[dict[int, tuple[int, ...]]] = [{} for _ in range(n)]
    for s, seat_piles in enumerate(layout.piles[:n]):
        for pile in seat_piles:
            if pile:
                under[s][pile[-1]] = tuple(pile[:-1])
    return ismcts.World(hands, list(layout.up[:n]), list(layout.fresh[:n]), under)


def _cards_of(world: ismcts.World, seat: int) -> int:
    """The cards ``seat`` still holds in ``world``: hand, face-up layout and what lies beneath."""
    held = world.hands[seat].bit_count() + world.ups[seat].bit_count()
    return held + sum(len(stack) for stack in world.under[seat].values())


def exact_card(deal: ismcts.Deal, world: ismcts.World, legal: int, deadline: float) -> int | None:
    """The card of ``legal`` (a mask) after which the observer's side takes the most
    tricks in ``world`` with every seat playing its best (the lowest of the equals).

    ``None`` where that is not the deal's aim or not exact (misère, more than two
    sides), where more than :data:`EXACT_CARDS` cards a seat are left, or past ``deadline``.
    """
    sides = deal.sides
    n = len(sides)
    if deal.misere_side is not None or len(set(sides)) != 2:
        return None
    if max(_cards_of(world, s) for s in range(n)) > EXACT_CARDS[0 if n == 2 else 1]:
        return None
    side = sides[deal.seat]
    best: tuple[int, int] | None = None
    card = legal
    while card:
        low = card & -card
        card ^= low
        c = low.bit_length() - 1
        state = ismcts.State(deal, world)
        state.step(c)
        if state.over:
            value = state.won[side]
        else:
            after = ismcts.World(state.hands, state.ups, state.fresh, state.under)
            try:
                final = open_search.solve(
                    after,
                    state.leader,
                    state.trick,
                    deal.trump,
                    sides,
                    list(state.won),
                    deal.stop,
                    side,
                    deadline,
                )
            except TimeoutError:
                return None
            value = final[side]
        if best is None or value > best[0]:
            best = (value, c)
    return None if best is None else best[1]


class IsmctsPlayer:
    """Level ``ismcts``: SO-ISMCTS for the card play within ``budget`` seconds a decision."""

    def __init__(self, budget: float = HARD.soft, name: str = "ismcts") -> None:
        self.name = name
        self.budget = budget
        self._rules = ConventionalPlayer()

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        found = _deal_and_sampler(view) if searchable(view, legal) else None
        if found is None:
            return self._rules.choose(view, legal, rng)
        deadline = clock.now() + self.budget
        deal, sampler = found
        card = ismcts.search(deal, sampler, rng, root=play_mask(legal), deadline=deadline)
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
        found = _deal_and_sampler(view) if searchable(view, legal) else None
        if found is None:
            return self.fallback.choose(view, legal, rng)
        deal, _ = found
        world = _true_world(game)
        hands = world.hands
        trick = [c.index for c in game.trick]
        trump = game.trump.order if game.trump is not None else NO_TRUMP
        card: int | None = None
        if (
            deal.misere_side is None
            and len(hands) == 4
            and deal.sides == (0, 1, 0, 1)
            and game.layout is None
            and dds.available()
        ):
            try:
                scores = dds.solve_cards(hands, game.leader, trick, trump, timeout=HARD.cap)
            except Exception:
                scores = {}
            playable = {a.card.index for a in legal if isinstance(a, Play)}
            best = [c for c in scores if c in playable]
            if best:
                card = max(best, key=lambda c: (scores[c], -c))
        if card is None:  # near the end, every card solved exactly
            card = exact_card(deal, world, play_mask(legal), clock.now() + HARD.cap)
        if card is None:  # one world, the true one: a perfect-information search
            card = ismcts.search(
                deal,
                lambda r: world,
                rng,
                root=play_mask(legal),
                deadline=clock.now() + self.budget,
            )
        if card is None or Play(Card.from_index(card)) not in legal:
            return self.fallback.choose(view, legal, rng)
        return Play(Card.from_index(card))

    def __repr__(self) -> str:
        return "OraclePlayer()"
