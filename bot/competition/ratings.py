"""The rating maths (openskill's Plackett-Luce): who played as which team and
finished where, and what one finished table does to its players' skills.

Pure: the same inputs give the same floats, in the same order of arithmetic, so
a rebuild from the stored events equals the ratings applied one table at a time.
What a rating means, and how a finished game becomes teams, is told in
``bot/store/ratings.py``, which stores what this computes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce

__all__ = [
    "AI_PREFIX",
    "MIN_GAMES",
    "MODEL",
    "Entrant",
    "Rated",
    "Skill",
    "Team",
    "ai_key",
    "is_ai",
    "ranked",
    "rate_teams",
    "teams_from_json",
    "teams_to_json",
]

MODEL: Final = PlackettLuce(limit_sigma=True)
"""The rating model (Plackett-Luce, default mu 25 and sigma 25/3; sigma never grows)."""

MIN_GAMES: Final = 3
"""Rated games a player needs to be ranked on a leaderboard."""

AI_PREFIX: Final = "ai:"
"""Player keys of AI levels: ``ai:easy``, ``ai:normal``, ``ai:hard``."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One seat's player in a rating event."""

    key: str
    """A person's decimal user id, or ``ai:<level>``."""
    name: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class Team:
    """Players who share a result, and the rank of that result (0 = won)."""

    rank: int
    players: tuple[Entrant, ...]


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's rating before an event: the mean and its uncertainty."""

    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class Rated:
    """What one event did to one player: the new mean and uncertainty, and whether
    the event counts as a win (none of the player's seats lost)."""

    mu: float
    sigma: float
    won: bool


def ai_key(level: str) -> str:
    """The player key of an AI level."""
    return f"{AI_PREFIX}{level}"


def is_ai(key: str) -> bool:
    """True for the key of an AI level."""
    return key.startswith(AI_PREFIX)


def ranked(groups: Sequence[tuple[tuple[Any, ...], tuple[Entrant, ...]]]) -> list[Team]:
    """Teams from (sort key, players): best key first, equal keys share a rank."""
    keys = sorted({k for k, _ in groups}, reverse=True)
    return [Team(keys.index(k), players) for k, players in groups]


def rate_teams(teams: Sequence[Team], before: Mapping[str, Skill]) -> dict[str, Rated]:
    """Rate one event: ``teams`` finished in their ranks, each player from ``before``
    (every key of the teams). A key seated more than once (an AI level on both sides)
    is rated seat by seat from the same start: its new mean is the old one plus the
    sum of its seats' changes, its uncertainty the smallest of its seats' new ones,
    and the event a win only when none of its seats lost."""
    rated = MODEL.rate(
        [
            [MODEL.rating(mu=before[e.key].mu, sigma=before[e.key].sigma) for e in t.players]
            for t in teams
        ],
        ranks=[float(t.rank) for t in teams],
    )
    delta: dict[str, float] = {}
    sigma: dict[str, float] = {}
    won: dict[str, bool] = {}
    best = min(t.rank for t in teams)
    for team, new in zip(teams, rated, strict=True):
        for e, r in zip(team.players, new, strict=True):
            delta[e.key] = delta.get(e.key, 0.0) + (r.mu - before[e.key].mu)
            sigma[e.key] = min(sigma.get(e.key, r.sigma), r.sigma)
            won[e.key] = won.get(e.key, True) and team.rank == best
    return {key: Rated(before[key].mu + delta[key], sigma[key], won[key]) for key in delta}


def teams_to_json(teams: Sequence[Team]) -> list[dict[str, Any]]:
    """The JSON form a rating event's teams are stored in."""
    return [
        {
            "rank": t.rank,
            "players": [{"key": e.key, "name": e.name, "seat": e.seat} for e in t.players],
        }
        for t in teams
    ]


def teams_from_json(data: Sequence[Mapping[str, Any]]) -> list[Team]:
    """The teams of a stored rating event."""
    return [
        Team(
            int(t["rank"]),
            tuple(
                Entrant(
                    str(p["key"]), str(p["name"]), None if p.get("seat") is None else int(p["seat"])
                )
                for p in t["players"]
            ),
        )
        for t in data
    ]
