"""After the play: the deal is scored, a game is won, a match is decided.

:class:`ScorePhase` asks the game's family for the deal's points (the family's
scorer: Whist-style tricks over six and honours for the Ruff-and-Honours
family) and then applies what every family shares: reaching the target ends
the game (:func:`reach_target`), a match of several games starts the next one
(:func:`game_over`), the last ends in :class:`OverPhase`.

Decisions where RULES.md is silent:

* ``score_order = simultaneous``: if both sides reach the target, the higher
  score wins; an exact tie goes to the side that scored tricks.
* ``match_format = best_of_3`` / ``rubber_bo3``: the first side to win two games
  wins the match. Rubber points follow ``game_value`` and ``rubber_points``
  (treble/double/single and 2 for the rubber only in ``whist-short-classic``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.actions import Action
from engine.errors import IllegalAction
from engine.events import DealScored, GameOver, GameStarted, MatchOver
from engine.phases.base import NOTHING_PRIVATE, Automatic, Phase, new_event

if TYPE_CHECKING:
    from engine.events import Event
    from engine.game import Game

__all__ = [
    "DealScore",
    "OverPhase",
    "ScorePhase",
    "end_board",
    "game_over",
    "reach_target",
    "start_game",
    "win_by_call",
]


@dataclass(slots=True)
class DealScore:
    """A family scorer's answer: points per side, already added to ``game.scores``.

    ``reached`` is how a side reached the target in this deal ("tricks",
    "honours"), or "" when nobody did. ``winner`` names the side that wins the
    game when the family decides it otherwise than "the side at or above the
    target" (Bid Whist: a side at minus the target loses, so its opponents win).
    """

    trick_points: list[int]
    honour_points: list[int]
    penalty: list[int]
    reached: str = ""
    winner: int | None = None


class ScorePhase(Automatic):
    """Score the deal by the family's scorer; end the game or deal again."""

    name = Phase.SCORE

    def enter(self, game: Game, events: list[Event]) -> None:
        score = game.family.score_deal(game, events)
        if score.reached:
            reach_target(game, score, events)
            return
        events.append(deal_scored(game, score))
        game.start_deal(events, rotate=True)


class OverPhase:
    """The match is decided: nobody acts, every action is refused."""

    name = Phase.OVER
    absent = ""
    waiting = "This game is over."

    def handles(self, action: Action) -> bool:
        return True

    def enter(self, game: Game, events: list[Event]) -> None:
        game.phase = self.name

    def to_act(self, game: Game) -> int | None:
        return None

    def legal(self, game: Game, seat: int) -> list[Action]:
        return []

    def check(self, game: Game, seat: int, action: Action) -> None:
        raise IllegalAction("This game is over.", "game_over")

    def apply(self, game: Game, seat: int, action: Action, events: list[Event]) -> None:
        raise IllegalAction("This game is over.", "game_over")  # pragma: no cover - checked first

    def visible(self, game: Game, seat: int) -> Mapping[str, object]:
        return NOTHING_PRIVATE


def deal_scored(game: Game, score: DealScore) -> Event:
    return new_event(  # type: ignore[no-any-return]
        DealScored,
        (
            game.game_no,
            game.deal_no,
            tuple(game.tricks),
            tuple(score.trick_points),
            tuple(score.honour_points),
            tuple(score.penalty),
            tuple(game.scores),
        ),
    )


def reach_target(game: Game, score: DealScore, events: list[Event]) -> None:
    """A side reached the target: the deal is scored and the game is over."""
    scores = game.scores
    target = game.facts.target
    reached = [s for s in range(len(scores)) if scores[s] >= target]
    if score.winner is not None:
        winner = score.winner
    elif len(reached) > 1:
        best = max(scores[s] for s in reached)
        top = [s for s in reached if scores[s] == best]
        with_tricks = [s for s in top if score.trick_points[s] > 0]
        winner = with_tricks[0] if with_tricks else top[0]
    else:
        winner = reached[0]
    events.append(deal_scored(game, score))
    game_over(game, winner, score.reached, events)


def win_by_call(game: Game, side: int, how: str, events: list[Event]) -> None:
    """A Can-ye answered or honours shown at the call point: the side goes out."""
    game.scores[side] = game.rules.target_score
    game_over(game, side, how, events)


def start_game(game: Game, events: list[Event], rotate: bool) -> None:
    """Begin game ``game_no + 1`` of the match and deal its first hand."""
    game.game_no += 1
    game.deal_no = 0
    fixed = game.start_scores_choice or game.rules.start_scores or None
    if game.game_no == 1 and fixed is not None:
        game.scores = list(fixed)
    else:
        game.scores = [0] * game.facts.sides
    game.winner = None
    events.append(GameStarted(game.game_no))
    game.start_deal(events, rotate=rotate)


def game_over(game: Game, side: int, how: str, events: list[Event]) -> None:
    rules = game.rules
    sides = game.facts.sides
    game.winner = side
    game.games_won[side] += 1
    loser_best = max((game.scores[s] for s in range(sides) if s != side), default=0)
    game.game_values[side] += game_value(rules.game_value, loser_best)
    events.append(GameOver(game.game_no, side, tuple(game.scores), how, tuple(game.games_won)))
    if game.games_won[side] < rules.games_to_win_match and not rules.deals:
        start_game(game, events, rotate=True)
        return
    game.match_winner = side
    game.over_phase.enter(game, events)
    if rules.rubber_points == "game_values_plus_2":
        net = (
            game.game_values[side] + 2 - sum(v for s, v in enumerate(game.game_values) if s != side)
        )
        game.rubber_points = tuple(net if s == side else -net for s in range(sides))
    else:
        game.rubber_points = tuple(game.games_won)
    events.append(MatchOver(side, tuple(game.games_won), game.rubber_points))


def end_board(game: Game, events: list[Event]) -> None:
    """A board's deal is scored (``Rules.deals``) and no game was won in it: the match
    ends there, the side with the most points its winner (a tie: the first of them
    from the dealer's left)."""
    n = len(game.scores)
    order = [
        (game.rules.side_of((game.dealer + 1 + k) % game.n_players)) for k in range(game.n_players)
    ]
    order = list(dict.fromkeys([*order, *range(n)]))
    best = max(game.scores)
    side = next(s for s in order if game.scores[s] == best)
    game.match_winner = side
    game.over_phase.enter(game, events)
    game.rubber_points = tuple(game.games_won)
    events.append(MatchOver(side, tuple(game.games_won), game.rubber_points))


def game_value(kind: str, loser_score: int) -> int:
    """A won game's value: 1, or (``by_losers_score``) treble, double or single."""
    if kind != "by_losers_score":
        return 1
    if loser_score == 0:
        return 3
    if loser_score <= 2:
        return 2
    return 1
