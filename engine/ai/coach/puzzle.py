"""A position of a game's record as its seat saw it, JSON-ready: what a puzzle's picture
and controls are drawn from (:func:`puzzle_position`), that seat's view only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import Action, Discard, Play, decode_action
from engine.ai.coach.cards import CannotJudge, model_for
from engine.ai.coach.records import position_before, record_entries
from engine.ai.coach.report import DEFAULT_BUDGET
from engine.ai.coach.review import representative
from engine.ai.search.bitmasks import card_indices, play_mask
from engine.cards import Card
from engine.game import SeatView

__all__ = ["puzzle_position"]


def puzzle_position(record: Mapping[str, Any], index: int) -> dict[str, Any]:
    """The position before the ``index``-th action of ``record`` as its seat saw it, JSON-ready:
    the seat's hand, the trick so far, trumps, tricks won, the cards gone in earlier tricks,
    the legal cards and, for each, the card standing for it in a review's options.

    Before a decision that is not a card (a bid, a call, trumps, a lay-out): the seat's
    hand, the turn-up, the auction so far and the contract, ``kind`` ``"call"`` and no
    ``legal`` (the choices are the review's options)."""
    game, seat = position_before(record, index)
    action = decode_action(record_entries(record)[index][1])
    view = game.observe(seat)
    if not isinstance(action, Play):
        return _call_position(seat, view, action)
    legal = play_mask(game.legal_actions(seat))
    try:
        cands = model_for(game, seat, view, legal, DEFAULT_BUDGET).cands
    except CannotJudge:
        cands = card_indices(legal)
    gone: list[str] = []
    for _leader, cards, _winner in view.completed_tricks:
        gone.extend(str(c) for c in cards)
    return {
        **_seen_by(seat, view),
        "trick": [[s, str(c)] for s, c in view.trick],
        "trick_no": game.trick_no,
        "gone": gone,
        "legal": [str(Card.from_index(c)) for c in card_indices(legal)],
        "stands_for": {
            str(Card.from_index(c)): str(Card.from_index(representative(c, cands)))
            for c in card_indices(legal)
        },
        "played": str(action.card),
    }


def _seen_by(seat: int, view: SeatView) -> dict[str, Any]:
    """What every position shows of its seat's view: the game, the seats, the hand, trumps,
    the contract and the tricks won."""
    return {
        "game_id": view.game_id,
        "seat": seat,
        "n_seats": view.n_seats,
        "sides": list(view.sides or tuple(s % 2 for s in range(view.n_seats))),
        "hand": [str(c) for c in view.hand],
        "trump": None if view.trump is None else view.trump.value,
        "contract": view.contract,
        "tricks": list(view.tricks),
    }


def _call_position(seat: int, view: SeatView, action: Action) -> dict[str, Any]:
    """A decision before the play as its seat saw it (see :func:`puzzle_position`)."""
    return {
        **_seen_by(seat, view),
        "trick": [],
        "turn_up": None if view.turn_up is None else str(view.turn_up),
        "auction": [[s, call] for s, call in view.auction],
        "scores": list(view.start_scores),
        "trick_no": 0,
        "gone": [],
        "kind": "call",
        "played": action.encode() if not isinstance(action, Discard) else str(action.card),
    }
