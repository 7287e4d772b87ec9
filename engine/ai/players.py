"""The one interface every AI player speaks, and the one dispatch behind every level.

``choose(view, legal, rng) -> Action`` is a plain synchronous function of the
seat's own :class:`engine.game.SeatView`, the legal actions and a
``random.Random``; players keep no per-game state (only thread-safe caches),
so the bot may call them from ``asyncio.to_thread`` or a process pool.

:class:`LevelPlayer` is every level: given a level's
:class:`~engine.ai.levels.Profile`, it picks the strategy
(:mod:`engine.ai.strategies`) for the kind of table and decision and runs it
with the profile's budget:

1. a Bid Whist table: :mod:`~engine.ai.strategies.bid_whist` decides everything;
2. what every level does the same way: :mod:`~engine.ai.strategies.obvious`;
3. discards: :mod:`~engine.ai.strategies.discards` (the ruff's four, or the
   rub's lay-out at the open tables);
4. a contract game (an auction, trumps, its play):
   :mod:`~engine.ai.strategies.solo_whist`;
5. a card at the open tables (2-3 seats, everyone alone, layouts):
   :mod:`~engine.ai.strategies.open_tables`;
6. a card at a four-handed partnership table:
   :mod:`~engine.ai.strategies.partnership`;

and, for ``easy`` and whenever a search finds nothing, the table maxims.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Final, Protocol, Self, runtime_checkable

from engine.actions import Action, Discard, play
from engine.ai.levels import EASY, HARD, NORMAL, Profile, profile
from engine.ai.search import clock
from engine.ai.search.bitmasks import SUIT_BITS, play_mask
from engine.ai.strategies import discards, open_tables, partnership, solo_whist
from engine.ai.strategies.bid_whist import ContractPlayer
from engine.ai.strategies.bid_whist import applies as is_bid_whist
from engine.ai.strategies.obvious import claim_for, obvious_choice
from engine.cards import Card
from engine.game import SeatView
from engine.phases.solo_auction import SoloBid as Bid
from engine.phases.solo_declare import NameTrump

__all__ = [
    "EasyPlayer",
    "GuardedPlayer",
    "HardPlayer",
    "LevelPlayer",
    "NormalPlayer",
    "Player",
    "get_player",
]

log = logging.getLogger(__name__)


@runtime_checkable
class Player(Protocol):
    """An AI seat: decides every choice a human makes."""

    name: str

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """Return one of ``legal`` for the seat whose ``view`` this is."""
        ...


class GuardedPlayer:
    """Runs a searching player and falls back to ``fallback`` on error or timeout.

    The search players keep to their own deadlines; this guard catches the
    rest: an exception, an illegal answer, or a decision that overran
    ``cap`` seconds (logged, and the answer still used if legal).
    """

    def __init__(self, inner: Player, fallback: Player, cap: float = 1.5) -> None:
        self.inner = inner
        self.fallback = fallback
        self.cap = cap
        self.name = inner.name

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        start = clock.now()
        try:
            action = self.inner.choose(view, legal, rng)
        except Exception:
            log.exception("%s player failed; falling back to %s", self.name, self.fallback.name)
            return self.fallback.choose(view, legal, rng)
        if action not in legal:
            log.error("%s player chose illegal %s; falling back", self.name, action)
            return self.fallback.choose(view, legal, rng)
        elapsed = clock.now() - start
        if elapsed > self.cap:
            log.warning("%s player took %.2fs (cap %.2fs)", self.name, elapsed, self.cap)
        return action

    def __repr__(self) -> str:
        return f"GuardedPlayer({self.inner!r})"


class LevelPlayer:
    """Every level's player: the one dispatch, sized by ``profile`` (see the module docstring)."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.name = profile.name
        self.budget = partnership.budget_of(profile)
        self._open_budget = open_tables.budget_of(profile)
        self._discards = discards.planner(profile)
        self._open_discards = discards.open_planner(profile)
        self._bid_whist = ContractPlayer(
            search=profile.searches,
            budget=profile.soft,
            cap=profile.cap,
            max_worlds=profile.bid_whist_worlds,
        )

    @classmethod
    def of(cls, profile: Profile) -> Self:
        """A player of this class that plays by ``profile`` (its own knobs aside)."""
        player = cls.__new__(cls)
        LevelPlayer.__init__(player, profile)
        return player

    @property
    def relative(self) -> bool:
        """Whether a deal at an open table of three or more is valued against the others' points."""
        return self.profile.relative

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        p = self.profile
        if is_bid_whist(view):  # jokers, an auction, a chosen rank order
            return self._bid_whist.choose(view, legal, rng)
        start = clock.now() if p.searches else 0.0
        obvious = obvious_choice(legal)
        if obvious is not None:
            return obvious
        if any(isinstance(a, Discard) for a in legal):
            if open_tables.wants_generic(view):
                return self._open_discards.choose(view, legal)
            return self._discards.choose(view, legal)
        contract = solo_whist.is_contract_decision(view, legal)
        if contract and p.searches:
            return solo_whist.search_decision(
                view,
                legal,
                rng,
                p.soft,
                p.solo_worlds,
                lambda: self._maxims(view, legal, rng, True, 0.0),
            )
        if contract and any(isinstance(a, Bid) for a in legal):
            return solo_whist.easy_bid(view, legal)
        if contract and any(isinstance(a, NameTrump) for a in legal):
            return solo_whist.easy_trump(view, legal)
        if p.searches:
            mask = play_mask(legal)
            if mask and open_tables.wants_generic(view):
                return open_tables.search_choice(
                    view, legal, mask, rng, p, self._open_budget, start
                )
            if mask:
                found = partnership.search_play(view, mask, rng, p, self.budget, start)
                if found is not None:
                    return play(Card.from_index(found))
            return self._maxims(view, legal, rng, False, 0.0)
        return self._maxims(view, legal, rng, contract, p.noise)

    def _maxims(
        self,
        view: SeatView,
        legal: Sequence[Action],
        rng: random.Random,
        contract: bool,
        noise: float,
    ) -> Action:
        """The table maxims' choice (``easy``'s, and every search's fallback)."""
        claim = claim_for(view, legal)  # Ruffe and Trump, declared: the true ruff
        if claim is not None:
            return claim
        mask = play_mask(legal)
        if not mask:
            return legal[0]
        if not contract and open_tables.wants_generic(view):
            return open_tables.generic_play(view, legal)
        misere = solo_whist.easy_card(view, mask) if contract else None
        if misere is not None:
            return play(Card.from_index(misere))
        card = partnership.rule_card(view, mask)
        if noise and mask.bit_count() > 1 and rng.random() < noise:
            # an occasional slip: the next-lowest card of the same suit, if any
            same = mask & SUIT_BITS[card // 13] & ~(1 << card)
            if same:
                above = same & ~((1 << card) - 1)
                card = (above & -above).bit_length() - 1 if above else same.bit_length() - 1
        return play(Card.from_index(card))

    def __repr__(self) -> str:
        return f"LevelPlayer({self.name}, budget={self.profile.soft})"


class EasyPlayer(LevelPlayer):
    """``easy``: the maxims, with ``noise`` the chance of a slip to the next card up."""

    def __init__(self, noise: float = 0.08) -> None:
        super().__init__(replace(EASY, noise=noise))


class NormalPlayer(LevelPlayer):
    """``normal`` with its budget (seconds, soft and hard) and worlds at most."""

    BUDGET = NORMAL.soft
    CAP = NORMAL.cap

    def __init__(
        self, budget: float = BUDGET, cap: float = CAP, max_worlds: int = NORMAL.max_worlds
    ) -> None:
        super().__init__(
            replace(
                NORMAL,
                soft=budget,
                cap=cap,
                max_worlds=max_worlds,
                bid_whist_worlds=max_worlds,
                open_worlds=max_worlds,
            )
        )


class HardPlayer(LevelPlayer):
    """``hard`` with its budget (seconds, soft and hard), worlds at most at a partnership
    table, and each of its additions switchable (``use_dds`` false: never DDS)."""

    BUDGET = HARD.soft
    CAP = HARD.cap

    def __init__(
        self,
        budget: float = BUDGET,
        cap: float = CAP,
        max_worlds: int = HARD.max_worlds,
        use_dds: bool | None = None,
        inference: bool = True,
        sharp: bool = True,
        open_discards: bool = True,
        relative: bool = True,
    ) -> None:
        super().__init__(
            replace(
                HARD,
                soft=budget,
                cap=cap,
                max_worlds=max_worlds,
                double_dummy=use_dds is not False,
                inference=inference,
                sharp=sharp,
                open_discards=open_discards,
                relative=relative,
            )
        )


_CLASSES: Final[dict[str, type[LevelPlayer]]] = {
    "easy": EasyPlayer,
    "normal": NormalPlayer,
    "hard": HardPlayer,
}


def get_player(level: str, *, budget: float | None = None, cap: float | None = None) -> Player:
    """A player of the given level (one of :data:`~engine.ai.levels.LEVELS`, or an
    arena-only one of :data:`~engine.ai.levels.TRIAL_LEVELS`).

    ``budget`` (seconds, soft) and ``cap`` (seconds, hard) tune the search
    levels; tests pass short ones. ``easy`` ignores both. Players other than
    ``easy`` are wrapped so that ``easy`` answers if they fail.

    The outside baselines of :data:`~engine.ai.levels.BASELINE_LEVELS` (the
    arena's only) are not players: :func:`engine.ai.baselines.arena_player` makes them.
    """
    chosen = profile(level, budget=budget, cap=cap)
    player = _CLASSES[chosen.name].of(chosen)
    if not chosen.searches:
        return player
    return GuardedPlayer(player, EasyPlayer(noise=0.0), cap=chosen.cap)
