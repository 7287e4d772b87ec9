"""AI players: ``easy``, ``normal`` and ``hard``, all behind one interface.

    from engine.ai import get_player

    player = get_player("hard")
    action = player.choose(game.observe(seat), game.legal_actions(seat), rng)

Every player is a plain synchronous ``choose(view, legal, rng) -> Action``
(thread-safe, no I/O), so the bot can run it with ``asyncio.to_thread`` or in
a process pool. ``normal`` and ``hard`` fall back to ``easy`` on any error;
their searches keep to a time budget.
"""

from __future__ import annotations

from typing import Final

from engine.ai.base import GuardedPlayer, Player, obvious_choice
from engine.ai.easy import EasyPlayer
from engine.ai.hard import HardPlayer
from engine.ai.normal import NormalPlayer

__all__ = [
    "LEVELS",
    "TRIAL_LEVELS",
    "EasyPlayer",
    "GuardedPlayer",
    "HardPlayer",
    "NormalPlayer",
    "Player",
    "get_player",
    "obvious_choice",
]

LEVELS: Final = ("easy", "normal", "hard")
# arena-only variants, for head-to-head probes (never offered to players), each
# hard without something it has at the open tables: ``hard-old`` without
# engine.ai.open_sharp, engine.ai.open_discards and the relative value;
# ``hard-maxims-layout`` laying out its rub by the maxims (without
# engine.ai.open_discards); ``hard-own-value`` valuing a deal at tables of three
# or more, each alone, by its own card points only, as normal does (see
# engine.ai.open_search.deal_value)
TRIAL_LEVELS: Final = ("hard-old", "hard-maxims-layout", "hard-own-value")


def get_player(level: str, *, budget: float | None = None, cap: float | None = None) -> Player:
    """A player of the given level (one of :data:`LEVELS`).

    ``budget`` (seconds, soft) and ``cap`` (seconds, hard) tune the search
    levels; tests pass short ones. ``easy`` ignores both. Players other than
    ``easy`` are wrapped so that ``easy`` answers if they fail.
    """
    if level == "easy":
        return EasyPlayer()
    fallback = EasyPlayer(noise=0.0)
    if level == "normal":
        normal = NormalPlayer(
            budget=NormalPlayer.BUDGET if budget is None else budget,
            cap=NormalPlayer.CAP if cap is None else cap,
        )
        return GuardedPlayer(normal, fallback, cap=normal.budget.cap)
    if level in ("hard", *TRIAL_LEVELS):
        hard = HardPlayer(
            budget=HardPlayer.BUDGET if budget is None else budget,
            cap=HardPlayer.CAP if cap is None else cap,
            sharp=level != "hard-old",
            open_discards=level in ("hard", "hard-own-value"),
            relative=level in ("hard", "hard-maxims-layout"),
        )
        return GuardedPlayer(hard, fallback, cap=hard.budget.cap)
    raise ValueError(f"unknown AI level {level!r} (known: {', '.join(LEVELS)})")
