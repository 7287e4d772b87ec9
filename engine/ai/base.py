"""The one interface every AI player speaks, and what all levels share.

``choose(view, legal, rng) -> Action`` is a plain synchronous function of the
seat's own :class:`engine.game.SeatView`, the legal actions and a
``random.Random``; players keep no per-game state (only thread-safe caches),
so the bot may call them from ``asyncio.to_thread`` or a process pool.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from engine.actions import Action, CallCanYe, DeclineRuff, Pass, ShowHonours, TakeRuff
from engine.ai import clock
from engine.game import SeatView

__all__ = ["GuardedPlayer", "Player", "obvious_choice"]

log = logging.getLogger(__name__)


@runtime_checkable
class Player(Protocol):
    """An AI seat: decides every choice a human makes."""

    name: str

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """Return one of ``legal`` for the seat whose ``view`` this is."""
        ...


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
