"""Boards: the same deal for everyone, fixed by a name, played once and compared.

A board is one deal of a game id under a preset, named by a *series* (a day,
``"2026-11-28"``, or any other name, e.g. a challenge's) and a number. Everything
about it follows from that name alone, through SHA-256 (no clock, no process
state), so every player anywhere meets the same board:

* the seed of the shuffle, the first dealer, and the seat the player holds;
* where the score matters to the rules (Can-ye at a numeric call point), the
  score each side stands at when the deal begins: some boards start with one
  side or both at the call point, as bridge boards fix vulnerability;
* the rules: the preset plus ``deals=1`` (the match ends when the first deal is
  scored; a deal passed out and dealt again is not yet scored) and
  ``start_scores``, so a record of a board replays as any game.

A board's result for the player's seat (:func:`board_result`) is the points the
seat's side made in the board less the most any other side made: one integer,
higher is better, compared only between players of the same board and seat.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Final

from engine.events import Event
from engine.game import Game, new_game
from engine.rules import Rules, make_rules

__all__ = ["BOARDS_PER_DAY", "Board", "board", "board_result", "boards_of", "start_board"]

BOARDS_PER_DAY: Final = 6


def _draw(*parts: object) -> int:
    """A 53-bit number (a JSON-safe seed) drawn from ``parts`` (the same parts, the same number, anywhere)."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 11  # 53 bits


@dataclass(frozen=True, slots=True)
class Board:
    """One board: what it is called and everything that follows from the name."""

    game_id: str
    preset: str
    series: str
    number: int  # 1-based
    seed: int
    seat: int  # the player's seat
    first_dealer: int
    start_scores: tuple[int, ...]  # () where the score does not matter

    @property
    def key(self) -> str:
        """``game_id/preset/series/number``: the board's name, unique."""
        return f"{self.game_id}/{self.preset}/{self.series}/{self.number}"

    @property
    def overrides(self) -> dict[str, object]:
        """The rule parameters that make the preset's game this board."""
        out: dict[str, object] = {"deals": 1}
        if self.start_scores:
            out["start_scores"] = self.start_scores
        return out

    @property
    def rules(self) -> Rules:
        return make_rules(self.game_id, self.preset, self.overrides)


def _situation(rules: Rules, seat: int, draw: int) -> tuple[int, ...]:
    """Where the board starts: at 0 each, except where the rules make the score
    matter (a numeric call point for Can-ye) — then half the boards start with the
    player's side, the other side or both at the call point."""
    point = rules.call_point
    if not rules.can_ye_enabled or not isinstance(point, int) or rules.sides != 2:
        return ()
    mine = rules.side_of(seat)
    kind = draw % 6  # 0-2: 0 each; 3: we are at the call point; 4: they are; 5: both
    scores = [0, 0]
    if kind in (3, 5):
        scores[mine] = point
    if kind in (4, 5):
        scores[1 - mine] = point
    return tuple(scores)


def board(game_id: str, preset: str | None, series: str, number: int) -> Board:
    """Board ``number`` of ``series`` for ``game_id`` under ``preset`` (None: the default)."""
    rules = make_rules(game_id, preset)
    name = (rules.game_id, rules.preset, series, number)
    seed = _draw("seed", *name)
    seat = _draw("seat", *name) % rules.players
    dealer = _draw("dealer", *name) % rules.players
    scores = _situation(rules, seat, _draw("score", *name))
    return Board(rules.game_id, rules.preset, series, number, seed, seat, dealer, scores)


def boards_of(
    game_id: str, preset: str | None, series: str, count: int = BOARDS_PER_DAY
) -> tuple[Board, ...]:
    """The ``count`` boards of ``series`` (numbers 1..count)."""
    return tuple(board(game_id, preset, series, n) for n in range(1, count + 1))


def start_board(the_board: Board) -> tuple[Game, list[Event]]:
    """The board's game, dealt: its first deal is the board."""
    return new_game(rules=the_board.rules, seed=the_board.seed, first_dealer=the_board.first_dealer)


def board_result(game: Game, seat: int) -> int:
    """``seat``'s result on a finished board: its side's points in the board less the
    most any other side made (the start scores taken off)."""
    rules = game.rules
    start = rules.start_scores or (0,) * rules.sides
    gained = [game.scores[s] - start[s] for s in range(rules.sides)]
    mine = rules.side_of(seat)
    return gained[mine] - max(g for s, g in enumerate(gained) if s != mine)
