"""A table as data: the versioned JSON projection of the public table and of one seat.

Every front that is not Discord (the web table first) draws from these two
documents and nothing else; docs/table-state.md describes them field by field.

* :func:`table_state` — what anybody watching may know: the lobby, the seats, the
  phase, the trick and the last trick, trumps and the contract, the scores and the
  deadline. Built from *every* seat's view: a card appears only where all of them
  see it (an exposed kitty, a claimer's hand), never a card of one seat alone.
* :func:`seat_state` — what one seat may know: the public document as that seat
  sees it, plus its hand, the stock cards it has seen, its legal actions with
  their ids (the encoded engine action, what ``act()`` takes back) and its claims.

Pure: plain values in (:class:`TableFrame`, engine :class:`~engine.SeatView`\\ s),
plain JSON-ready dicts out. The engine's views are the hidden-information
boundary; nothing here reads a game. Discord ids are strings (a snowflake does
not fit a JavaScript number); times are epoch seconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.present.i18n import current
from bot.present.render.common import SeatInfo
from bot.present.render.hand import action_label
from engine import Action, Card, Discard, Play, SeatView, Suit

__all__ = [
    "SCHEMA_VERSION",
    "SEAT_SCHEMA",
    "TABLE_SCHEMA",
    "TableFrame",
    "game_part",
    "seat_state",
    "table_state",
]

SCHEMA_VERSION: Final = 1
"""Bumped when a field changes meaning or goes; adding a field keeps the version."""
TABLE_SCHEMA: Final = f"rh.table/{SCHEMA_VERSION}"
SEAT_SCHEMA: Final = f"rh.seat/{SCHEMA_VERSION}"

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class TableFrame:
    """What the table layer knows of a table beside its game: who sits where, its
    status and version, and the deadline running now (a turn's or the lobby's)."""

    table_id: int
    game_id: str
    preset: str
    status: str  # lobby | active | finished | cancelled
    version: int  # the game's version (0 before it starts): what a stale action is told by
    creator_id: int
    seats: tuple[SeatInfo | None, ...]
    hints: bool = False
    deadline: float | None = None  # epoch seconds: the turn's (active) or the lobby's (lobby)
    rematch: bool = True  # its finished game offers Rematch (not an event's board)


def game_part(frame: TableFrame, view: SeatView) -> Json:
    """The ``game`` of every document of the table at this version but its ``kitty``:
    what every seat sees alike, the same from any seat's view (the public table reads
    the first seat's). A front that sends several documents of one version builds it
    once and passes it to :func:`table_state` and :func:`seat_state` (``game=``),
    which copy it before adding the kitty; nothing else may change it."""
    return _game(view, frame)


def table_state(frame: TableFrame, views: Sequence[SeatView], *, game: Json | None = None) -> Json:
    """The public table: ``views`` are every seat's views of the game (empty before
    it starts); only what all of them show is projected. The first is read, the
    others only where a kitty lies taken (so a caller may observe them as read:
    ``bot.web.front.SeatViews``). ``game``: :func:`game_part` of this version, if
    the caller has it."""
    out = _frame(frame, TABLE_SCHEMA)
    if views:
        first = views[0]
        game = _game(first, frame) if game is None else dict(game)
        kitty = first.stock_taken
        game["kitty"] = (
            _cards(kitty) if kitty and all(v.stock_taken == kitty for v in views) else []
        )
        out["game"] = game
    return out


def seat_state(
    frame: TableFrame, seat: int, view: SeatView | None, *, game: Json | None = None
) -> Json:
    """What ``seat`` may know: the public table as it sees it, and its own part
    (``you``: None before the game starts, when ``view`` is None). ``game``:
    :func:`game_part` of this version, if the caller has it."""
    out = _frame(frame, SEAT_SCHEMA)
    out["you"] = None
    if view is None:
        return out
    assert view.seat == seat
    game = _game(view, frame) if game is None else dict(game)
    game["kitty"] = []  # what this seat has seen of the stock is under ``you``
    out["game"] = game
    seat = view.seat
    language = current()
    actions = [_action(a, "legal", language) for a in view.legal]
    actions += [_action(a, "claim", language) for a in view.claims]
    partner = view.partner
    out["you"] = {
        "seat": seat,
        "side": view.seat_sides[seat],
        "partner": partner if partner != seat else None,
        "hand": _cards(view.hand),
        "stock_seen": _cards(view.stock_taken),
        "laid_out": _cards(view.my_discards),
        "to_lay_out": view.to_lay_out,
        "my_turn": view.my_turn,
        "actions": actions,
    }
    return out


# ------------------------------------------------------------------ the parts


def _frame(frame: TableFrame, schema: str) -> Json:
    seats = [_seat(i, s) for i, s in enumerate(frame.seats)]
    lobby = None
    if frame.status == "lobby":
        lobby = {
            "creator_id": str(frame.creator_id),
            "open_seats": [i for i, s in enumerate(frame.seats) if s is None],
            "expires_at": frame.deadline,
        }
    return {
        "schema": schema,
        "table_id": frame.table_id,
        "game_id": frame.game_id,
        "preset": frame.preset,
        "status": frame.status,
        "version": frame.version,
        "hints": frame.hints,
        "rematch": frame.rematch,
        "seats": seats,
        "lobby": lobby,
        "game": None,
    }


def _seat(index: int, seat: SeatInfo | None) -> Json:
    if seat is None:
        return {"seat": index, "occupant": "empty", "name": None, "user_id": None, "ai": None}
    return {
        "seat": index,
        "occupant": "ai" if seat.is_ai else "human",
        "name": seat.name,
        "user_id": None if seat.user_id is None else str(seat.user_id),
        "ai": seat.ai_level,
        "away": seat.away,
    }


def _game(view: SeatView, frame: TableFrame) -> Json:
    trick = {
        "number": view.trick_no,
        "leader": view.trick_leader,
        "led_suit": _suit(view.led_suit),
        "cards": [{"seat": s, "card": c.code} for s, c in view.trick],
    }
    deadline = None
    if frame.status == "active" and view.to_act is not None and frame.deadline is not None:
        deadline = {"seat": view.to_act, "at": frame.deadline}
    return {
        "phase": view.phase,
        "game_no": view.game_no,
        "deal_no": view.deal_no,
        "dealer": view.dealer,
        "eldest": view.eldest,
        "to_act": view.to_act,
        "deadline": deadline,
        "sides": list(view.seat_sides),
        "hand_sizes": list(view.hand_sizes),
        "trump": _suit(view.trump),
        "rank_order": {
            "direction": view.rank_order.direction,
            "downtown_ace": view.rank_order.downtown_ace,
        },
        "turn_up": None
        if view.turn_up is None
        else {"card": view.turn_up.code, "holder": view.turn_up_holder},
        "contract": {
            "name": view.contract,
            "declarer": view.declarer,
            "auction": [{"seat": s, "call": c} for s, c in view.auction],
        },
        "calls": [{"seat": s, "call": c} for s, c in view.calls],
        "shown_honours": [{"seat": s, "card": c.code} for s, c in view.shown_honours],
        "ruff": {"ruffer": view.ruffer, "state": view.ruff_state},
        "exposed": [{"seat": s, "cards": _cards(cs)} for s, cs in view.exposed],
        "layouts": [
            [
                {"up": None if p.up is None else p.up.code, "down": p.down, "fresh": p.fresh}
                for p in piles
            ]
            for piles in view.layouts
        ],
        "trick": trick,
        "tricks_played": [_trick(t) for t in view.completed_tricks],
        "last_trick": _last_trick(view),
        "tricks_left": view.tricks_left,
        "tricks": list(view.tricks),
        "scores": list(view.scores),
        "start_scores": list(view.start_scores),
        "games_won": list(view.games_won),
        "target": view.target,
        "winner": view.winner,
        "notes": _notes(view),
    }


def _trick(trick: tuple[int, tuple[Card, ...], int]) -> Json:
    leader, cards, winner = trick
    return {"leader": leader, "cards": _cards(cards), "winner": winner}


def _last_trick(view: SeatView) -> Json | None:
    """The last trick completed: of this deal, else of the deal before (what the
    **Last trick** button shows)."""
    if view.completed_tricks:
        return _trick(view.completed_tricks[-1])
    if view.previous_trick is not None:
        return _trick(view.previous_trick)
    return None


def _notes(view: SeatView) -> Json:
    """The deal's public notes, each typed; a note this version does not know stays out."""
    claim = view.claim_note
    concede = view.concede_note
    conceded = view.conceded
    rejected = view.claim_rejected
    contest = view.ruff_contest
    return {
        "claim": None
        if claim is None
        else {
            "seat": claim.seat,
            "tricks": claim.tricks,
            "accepted": list(claim.accepted),
            "hand": _cards(claim.hand),
        },
        "concede": None if concede is None else {"seat": concede.seat, "partner": concede.partner},
        "conceded": None if conceded is None else {"seat": conceded.seat, "side": conceded.side},
        "tied": list(view.tied),
        "claim_rejected": None
        if rejected is None
        else {"seat": rejected.seat, "tricks_left": rejected.tricks_left},
        "ruff_contest": None
        if contest is None
        else {
            "values": None if contest.values is None else list(contest.values),
            "claims": None
            if contest.claims is None
            else [{"seat": s, "value": v} for s, v in contest.claims],
            "shown": None
            if contest.shown is None
            else [
                {
                    "seat": r.seat,
                    "suit": r.suit,
                    "cards": _cards(r.cards),
                    "value": r.value,
                    "honest": r.honest,
                }
                for r in contest.shown
            ],
            "winners": None if contest.winners is None else list(contest.winners),
            "points": None if contest.points is None else list(contest.points),
        },
    }


_ACTIONS: dict[tuple[Action, str], tuple[str, str, str | None, str]] = {}
"""An action's id, verb, card and label in a language: the same for every seat and
move, worked out once (a seat's every state lists its legal actions)."""
_ACTIONS_KEPT = 4096


def _action(action: Action, kind: str, language: str) -> Json:
    key = (action, language)
    known = _ACTIONS.get(key)
    if known is None:
        if len(_ACTIONS) >= _ACTIONS_KEPT:
            _ACTIONS.clear()
        card = action.card if isinstance(action, (Play, Discard)) else None
        known = _ACTIONS[key] = (
            action.encode(),
            action.verb,
            None if card is None else card.code,
            action_label(action),
        )
    action_id, verb, card_code, label = known
    return {"id": action_id, "kind": kind, "verb": verb, "card": card_code, "label": label}


def _cards(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def _suit(suit: Suit | None) -> str | None:
    return None if suit is None else str(suit.value)
