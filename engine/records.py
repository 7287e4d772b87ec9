"""Records and snapshots: how a :class:`~engine.game.Game` is stored and restored.

* A **record** (format ``ruff-honours-game``, version 2) is the seed, the rules
  (game id, preset, overrides), the test hooks (``deck``, ``start_scores``, only
  when used) and the action log; :func:`from_record` (alias :func:`replay`)
  replays it. Servers have stored version 1 since the first release and the
  phases/families layout did not change it, so those records
  (``tests/engine/fixtures/records_v1``) replay unchanged. Version 2 changes one
  draw: Bid Whist's ``first_diamond`` deals its face-up cards from a seat drawn
  from the seed (version 1: from seat 0, which favoured the first seats); a
  record replays under the version it names, so a version 1 record keeps its
  first dealer.
* A **snapshot** (format ``ruff-honours-snapshot``, version 2) is the record
  without its actions, the log, and the whole state, restored by
  :func:`from_snapshot` without replaying. Version 2 adds the deal's
  ``rank_order`` and ``seating``; version 1 snapshots load as ``HIGH`` with the
  family's fixed sides. A layout game adds ``layout`` and a family that keeps
  notes adds ``notes`` (both absent otherwise, and read as none).

``Game.to_record`` / ``from_record`` / ``snapshot`` / ``from_snapshot`` delegate
here. This module imports :mod:`engine.game` at the top; ``engine.game`` imports
this module only inside those four methods, so there is no import cycle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from engine.actions import decode_action
from engine.cards import HIGH, Card, RankOrder, Suit
from engine.errors import RecordError
from engine.game import RECORD_VERSION, Game, check_stacking, new_game
from engine.layout import Layout
from engine.notes import typed_note
from engine.phases.play import sync_fast
from engine.rules import make_rules
from engine.seating import Seating

__all__ = [
    "RECORD_VERSION",
    "SNAPSHOT_VERSION",
    "from_record",
    "from_snapshot",
    "replay",
    "snapshot",
    "to_record",
]

SNAPSHOT_VERSION: Final = 2  # 2 adds rank_order and seating (version 1 reads as HIGH, fixed sides)


def to_record(game: Game) -> dict[str, Any]:
    """Seed + action log as JSON-ready data; :func:`from_record` replays it."""
    return {
        "format": "ruff-honours-game",
        "version": game.record_version,
        "game_id": game.rules.game_id,
        "preset": game.rules.preset,
        "overrides": dict(game.rules.overrides),
        "seed": game.seed,
        "first_dealer": game.first_dealer_choice,
        **_stacking(game),
        "actions": [f"{seat} {action.encode()}" for seat, action in game.log],
    }


def _stacking(game: Game) -> dict[str, Any]:
    """Record keys for the test hooks, present only when they were used."""
    extra: dict[str, Any] = {}
    if game.deck_choice is not None:
        extra["deck"] = [c.code for c in game.deck_choice]
    if game.start_scores_choice is not None:
        extra["start_scores"] = list(game.start_scores_choice)
    return extra


def from_record(record: Mapping[str, Any]) -> Game:
    """Rebuild a game by replaying a record made by :func:`to_record`."""
    if record.get("format") != "ruff-honours-game":
        raise RecordError("not a game record")
    version = record.get("version")
    if not isinstance(version, int) or not 1 <= version <= RECORD_VERSION:
        raise RecordError(f"unsupported record version {version!r}")
    game, _ = new_game(
        record["game_id"],
        record.get("preset"),
        record.get("overrides") or {},
        seed=int(record["seed"]),
        first_dealer=record.get("first_dealer"),
        deck=record.get("deck"),
        start_scores=record.get("start_scores"),
        record_version=version,
    )
    for entry in record.get("actions", []):
        seat_text, _, action_text = str(entry).partition(" ")
        game.apply(int(seat_text), decode_action(action_text))
    return game


def replay(record: Mapping[str, Any]) -> Game:
    """Alias of :func:`from_record`."""
    return from_record(record)


def snapshot(game: Game) -> dict[str, Any]:
    """A compact JSON-ready copy of the whole state (for storage)."""
    return {
        "format": "ruff-honours-snapshot",
        "version": SNAPSHOT_VERSION,
        "record": to_record(game) | {"actions": []},
        "log": [f"{s} {a.encode()}" for s, a in game.log],
        "state": {
            "phase": game.phase,
            "game_no": game.game_no,
            "deal_no": game.deal_no,
            "deals_total": game.deals_total,
            "scores": list(game.scores),
            "start_scores": list(game.start_scores),
            "games_won": list(game.games_won),
            "game_values": list(game.game_values),
            "dealer": game.dealer,
            "eldest": game.eldest,
            "hands": list(game.hands),
            "dealt": list(game.dealt),
            "stock": [c.code for c in game.stock],
            "trump": game.trump.value if game.trump else None,
            "rank_order": game.rank_order.to_data(),
            "seating": game.seating.to_data(),
            "turn_up": game.turn_up.code if game.turn_up else None,
            "turn_up_holder": game.turn_up_holder,
            "turn_up_public": game.turn_up_public,
            "ruffer": game.ruffer,
            "ruff_reason": game.ruff_reason,
            "ruff_state": game.ruff_state,
            "stock_taken": [c.code for c in game.stock_taken],
            "discards": [c.code for c in game.discards],
            "discards_left": game.discards_left,
            "held_at_play": list(game.held_at_play),
            "can_ye_queue": list(game.can_ye_queue),
            "can_ye_open": sorted(game.can_ye_open),
            "calls": [list(c) for c in game.calls],
            "shown": [[s, c.code] for s, c in game.shown],
            "to_play": game.to_play,
            "leader": game.leader,
            "trick": [c.code for c in game.trick],
            "trick_no": game.trick_no,
            "tricks": list(game.tricks),
            "completed": [[ld, [c.code for c in cs], w] for ld, cs, w in game.completed],
            "previous_trick": None
            if game.previous_trick is None
            else [
                game.previous_trick[0],
                [c.code for c in game.previous_trick[1]],
                game.previous_trick[2],
            ],
            "revoked": sorted(game.revoked),
            "winner": game.winner,
            "match_winner": game.match_winner,
            "rubber_points": list(game.rubber_points),
            **_family_state(game),
        }
        | ({} if game.deal_state is None else {"deal_state": game.deal_state.to_data()}),
    }


def _family_state(game: Game) -> dict[str, Any]:
    """Snapshot keys for a layout and a family's notes, present only when the game has them
    (so the snapshots of games without them are unchanged)."""
    extra: dict[str, Any] = {}
    if game.layout is not None:
        extra["layout"] = game.layout.to_data()
    if game.notes:
        extra["notes"] = {k: _plain(v) for k, v in game.notes.items()}
    return extra


def _plain(value: object) -> object:
    """A note's value as JSON (tuples become lists, cards their codes)."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Card):
        return {"card": value.code}
    return value


def _frozen(value: object) -> object:
    """A note's value back from JSON (lists become tuples again, cards cards)."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict) and set(value) == {"card"}:
        return Card.parse(str(value["card"]))
    return value


def from_snapshot(data: Mapping[str, Any]) -> Game:
    """Restore a game saved by :func:`snapshot` without replaying."""
    if data.get("format") != "ruff-honours-snapshot":
        raise RecordError("not a game snapshot")
    version = data.get("version")
    if not isinstance(version, int) or version > SNAPSHOT_VERSION:
        raise RecordError(f"unsupported snapshot version {version!r}")
    rec = data["record"]
    rules = make_rules(rec["game_id"], rec.get("preset"), rec.get("overrides") or {})
    deck, start_scores = check_stacking(rules, rec.get("deck"), rec.get("start_scores"))
    record_version = rec.get("version")
    if not isinstance(record_version, int) or not 1 <= record_version <= RECORD_VERSION:
        raise RecordError(f"unsupported record version {record_version!r}")
    g = Game._blank(
        rules, int(rec["seed"]), rec.get("first_dealer"), deck, start_scores, record_version
    )
    for entry in data.get("log", []):
        seat_text, _, action_text = str(entry).partition(" ")
        g.log.append((int(seat_text), decode_action(action_text)))
    s = data["state"]
    card = Card.parse
    g.phase = s["phase"]
    g.game_no = s["game_no"]
    g.deal_no = s["deal_no"]
    g.deals_total = s["deals_total"]
    g.scores = list(s["scores"])
    g.start_scores = list(s["start_scores"])
    g.games_won = list(s["games_won"])
    g.game_values = list(s["game_values"])
    g.dealer = s["dealer"]
    g.eldest = s["eldest"]
    g.hands = list(s["hands"])
    g.dealt = list(s["dealt"])
    g.stock = [card(c) for c in s["stock"]]
    g.trump = Suit(s["trump"]) if s["trump"] else None
    order = s.get("rank_order")  # absent from version 1 snapshots: every deal was HIGH
    g.rank_order = HIGH if order is None else RankOrder.from_data(order)
    seating = s.get("seating")  # absent from version 1: the family's fixed sides
    if seating is not None:
        g.set_seating(Seating.from_data(seating))
    g.turn_up = card(s["turn_up"]) if s["turn_up"] else None
    g.turn_up_holder = s["turn_up_holder"]
    g.turn_up_public = s["turn_up_public"]
    g.ruffer = s["ruffer"]
    g.ruff_reason = s["ruff_reason"]
    g.ruff_state = s["ruff_state"]
    g.stock_taken = tuple(card(c) for c in s["stock_taken"])
    g.discards = [card(c) for c in s["discards"]]
    g.discards_left = s["discards_left"]
    g.held_at_play = list(s["held_at_play"])
    g.can_ye_queue = list(s["can_ye_queue"])
    g.can_ye_open = set(s["can_ye_open"])
    g.calls = [(int(a), str(b)) for a, b in s["calls"]]
    g.shown = [(int(a), card(b)) for a, b in s["shown"]]
    g.to_play = s["to_play"]
    g.leader = s["leader"]
    g.trick = [card(c) for c in s["trick"]]
    g.trick_no = s["trick_no"]
    g.tricks = list(s["tricks"])
    g.completed = [(ld, tuple(card(c) for c in cs), w) for ld, cs, w in s["completed"]]
    previous = s.get("previous_trick")  # absent from snapshots taken before it was kept
    g.previous_trick = (
        None
        if previous is None
        else (int(previous[0]), tuple(card(c) for c in previous[1]), int(previous[2]))
    )
    g.revoked = set(s["revoked"])
    g.winner = s["winner"]
    g.match_winner = s["match_winner"]
    g.rubber_points = tuple(s["rubber_points"])
    deal_state = s.get("deal_state")  # a family's own deal state (absent: none)
    if deal_state is not None:
        g.deal_state = getattr(g.family, "deal_state_from_data")(deal_state)  # noqa: B009
    layout = s.get("layout")
    g.layout = None if layout is None else Layout.from_data(layout)
    g.notes = {str(k): typed_note(str(k), _frozen(v)) for k, v in (s.get("notes") or {}).items()}
    sync_fast(g)
    return g
