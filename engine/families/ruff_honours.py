"""The Ruff-and-Honours / Whist family: nine game ids, one sequence of phases, one scorer.

Game ids (RULES.md §1-§5): ``ruff-honours-cotton``, ``honours-48``,
``whisk-48``, ``whist-5``, ``whist-7-rotate``, ``whist-9-honours``,
``whist-short-classic``, ``whist-long``, with their parameters and presets
below. Every deal runs the same phases::

    deal -> [ruff -> discard] -> declarations (Can-ye) -> play -> score

(the ruff phases only where ``ruff = true``; the declarations phase notes the
final hands even where no Can-ye applies). Four seats in two fixed
partnerships, ``s`` and ``s + 2``; tricks over six (``tricks_per_deal // 2``)
score one each; honours (A K Q J of trumps) score by ``honours_values``.
Behaviour follows parameters, never the game id.

Decisions where RULES.md is silent:

* ``revoke_mode = penalty``: each side that revoked in a deal loses one point
  (not below zero) before tricks are scored.
* ``honours_can_win = not_at_target_minus_1`` looks at the score at the start of
  the deal, as the classic laws ("at the point of four") read.
* Two structural parameters with no RULES.md name stand where game-id tests
  stood: ``game_value = by_losers_score`` (treble/double/single by the losers'
  score) and ``rubber_points = game_values_plus_2`` (the rubber winner adds 2
  and deducts the losers' game values), both set by ``whist-short-classic``
  alone (RULES.md §5 "Short Whist (classic laws)").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

from engine.cards import Rank, Suit
from engine.events import HonoursScored
from engine.phases.base import PhaseLogic, new_event
from engine.phases.deal import DealPhase
from engine.phases.declare import DeclarePhase
from engine.phases.exchange import DiscardPhase, RuffPhase
from engine.phases.play import PlayPhase
from engine.phases.score import DealScore, ScorePhase
from engine.rules import (
    HONOURS_VALUES,
    GameDef,
    ParamSpec,
    Rules,
    _bool,
    _choice,
    _int,
    register_game,
)
from engine.seating import Seating

if TYPE_CHECKING:
    from engine.events import Event
    from engine.game import Game

__all__ = ["FAMILY", "GAME_DEFS", "RuffHonoursFamily"]

_RH_PARAMS: Final = (
    _choice("first_dealer", "random", "random", "draw_high"),
    _choice("deal_pattern", "packets4", "packets4", "singles"),
    _choice("ruff_if_ace_in_stock", "dealer", "dealer", "nobody"),
    _bool("ruff_mandatory", False),
    _choice("ruff_discard_restriction", "none", "none", "no_honours", "no_trumps"),
    _choice("honours_basis", "held_after_ruff", "held_after_ruff", "dealt", "captured"),
    HONOURS_VALUES,
    ParamSpec("call_point", "call_point", 8),
    _choice("can_ye_window", "before_first_lead", "before_first_lead", "before_own_first_card"),
    _choice("uncalled_honours_at_call_point", "score", "score", "void"),
    _choice("first_leader", "eldest", "eldest", "ruffer"),
    _choice("score_order", "tricks_then_honours", "tricks_then_honours", "simultaneous"),
    _int("target_score", 9, 1, 99),
    _choice("honours_can_win", "true", "true", "false"),
    _choice("match_format", "single", "single", "best_of_3"),
    _choice("revoke_mode", "prevent", "prevent", "penalty"),
)

_H48_PARAMS: Final = (
    *(p for p in _RH_PARAMS if not p.name.startswith("ruff_") and p.name != "honours_basis"),
    _choice("honours_basis", "dealt", "dealt", "held_after_ruff", "captured"),
    _choice("removed_cards", "twos", "twos"),
    _choice(
        "turn_up_card", "dealer_last", "dealer_last", "eldest_last", field_name="turn_up_source"
    ),
)

_WHIST_PARAMS: Final = (
    _choice("first_dealer", "random", "random", "draw_high"),
    _choice("trump_mode", "turn_up", "turn_up", "cycle"),
    ParamSpec("trump_cycle", "trump_cycle", (Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS)),
    _choice("trump_cycle_basis", "per_game", "per_game", "per_session"),
    _choice("honours", "off", "off", "on"),
    _choice("honours_basis", "dealt", "dealt", "captured"),
    HONOURS_VALUES,
    _choice("honours_can_win", "true", "true", "false", "not_at_target_minus_1"),
    ParamSpec("call_point", "call_point", "none"),
    _int("target_score", 5, 1, 99),
    _choice("match_format", "single", "single", "rubber_bo3"),
    _choice("deal_pattern", "singles", "singles", "packets4"),
)

_WHISK_PARAMS: Final = (
    _choice("deal_pattern", "singles", "singles", "packets4"),
    _choice("scoring_preset", "seed-standard", "seed-standard", "cotton-whist"),
    _int("target_score", 5, 1, 99),
    _choice("match_format", "single", "single", "best_of_3"),
)

# Parameter bundles implied by whisk-48's scoring_preset (RULES.md §3).
_WHISK_SCORING: Final[Mapping[str, Mapping[str, object]]] = {
    "seed-standard": {"honours": False, "call_point": "none", "target_score": 5},
    "cotton-whist": {
        "honours": True,
        "honours_basis": "dealt",
        "honours_values": ((3, 2), (4, 4)),
        "honours_can_win": "true",
        "call_point": 8,
        "target_score": 9,
    },
}


def _whist(game_id: str, title: str, summary: str, **base: object) -> GameDef:
    defaults: dict[str, object] = {
        "removed_ranks": (),
        "hand_size": 13,
        "deal_pattern": "singles",
        "turn_up_source": "dealer_last",
    }
    defaults.update(base)
    return GameDef(game_id, title, defaults, _WHIST_PARAMS, {"default": {}}, "default", summary)


GAME_DEFS: Final[tuple[GameDef, ...]] = (
    GameDef(
        "ruff-honours-cotton",
        "Ruff and Honours",
        {
            "hand_size": 12,
            "ruff": True,
            "honours": True,
            "honours_basis": "held_after_ruff",
            "call_point": 8,
            "turn_up_source": "stock_top",
        },
        _RH_PARAMS,
        {
            "cotton1674": {},
            "seed000": {
                "deal_pattern": "singles",
                "ruff_mandatory": True,
                "honours_basis": "captured",
                "honours_values": ((3, 2), (4, 3)),
                "call_point": "none",
            },
            "gge-elizabethan": {"honours_values": ((3, 1), (4, 2)), "call_point": "none"},
        },
        "cotton1674",
        "Cotton's 1674 game: 52 cards, 12 each, the trump-ace holder ruffs the stock.",
    ),
    GameDef(
        "honours-48",
        "Honours",
        {
            "removed_ranks": (Rank.TWO,),
            "hand_size": 12,
            "honours": True,
            "honours_basis": "dealt",
            "call_point": 8,
            "turn_up_source": "dealer_last",
        },
        _H48_PARAMS,
        {
            "default": {},
            "gge-elizabethan": {"honours_values": ((3, 1), (4, 2)), "call_point": "none"},
        },
        "default",
        "Ruff and Honours without the ruff: 48 cards, the dealer's last card is trumps.",
    ),
    GameDef(
        "whisk-48",
        "Whisk",
        {
            "removed_ranks": (Rank.TWO,),
            "hand_size": 12,
            "deal_pattern": "singles",
            "turn_up_source": "dealer_last",
            **_WHISK_SCORING["seed-standard"],
        },
        _WHISK_PARAMS,
        {"seed-standard": {}, "cotton-whist": {"scoring_preset": "cotton-whist"}},
        "seed-standard",
        "The older 48-card Whist: dealer's last card is trumps.",
        bundles={"scoring_preset": _WHISK_SCORING},
    ),
    _whist("whist-5", "Whist 5-Point", "Turn-up trumps, no honours, game 5.", target_score=5),
    _whist(
        "whist-7-rotate",
        "Whist 7-Point Rotate Trump",
        "No turn-up: trumps rotate hearts, diamonds, spades, clubs. Game 7.",
        trump_mode="cycle",
        target_score=7,
    ),
    _whist(
        "whist-9-honours",
        "Whist 9-Point Honours",
        "Turn-up trumps, honours as dealt (cannot win the game). Game 9.",
        honours=True,
        honours_can_win="false",
        target_score=9,
    ),
    _whist(
        "whist-short-classic",
        "Short Whist (classic laws)",
        "Game 5, honours 2/4 (not at 4), rubber of three games.",
        honours=True,
        honours_can_win="not_at_target_minus_1",
        target_score=5,
        match_format="rubber_bo3",
        game_value="by_losers_score",
        rubber_points="game_values_plus_2",
    ),
    _whist(
        "whist-long",
        "Long Whist",
        "Game 10, honours 2/4, calling at 8, rubber of three games.",
        honours=True,
        honours_can_win="not_at_target_minus_1",
        call_point=8,
        target_score=10,
        match_format="rubber_bo3",
    ),
)


def _no_honours_note(counts: Sequence[int], trump: Suit | None) -> str:
    """Why nobody scored honours in a deal (empty when nothing needs saying)."""
    if trump is None:
        return "no trumps, no honours"
    if max(counts) >= 3:
        return ""
    if len(counts) == 2 and list(counts) == [2, 2]:
        return "honours split"
    out = 4 - sum(counts)
    if out:
        return f"{out} honour{'s' if out > 1 else ''} out of play: no side holds three"
    return "no side holds three honours"  # pragma: no cover - only with more than two sides


class RuffHonoursFamily:
    """The phases, seating and scorer of the Ruff-and-Honours / Whist games."""

    name = "ruff_honours"
    games: Sequence[GameDef] = GAME_DEFS
    has_layouts = False

    def __init__(self) -> None:
        self.deal = DealPhase()
        self.ruff = RuffPhase()
        self.discard = DiscardPhase()
        self.declare = DeclarePhase()
        self.play = PlayPhase()
        self.score = ScorePhase()

    def sequence(self, rules: Rules) -> tuple[PhaseLogic, ...]:
        """The phases of one deal, in order."""
        exchange: tuple[PhaseLogic, ...] = (self.ruff, self.discard) if rules.ruff else ()
        return (self.deal, *exchange, self.declare, self.play, self.score)

    def catalogue(self) -> tuple[PhaseLogic, ...]:
        """Every phase that owns actions (for "not now" messages in any game of the family)."""
        return (self.ruff, self.discard, self.declare, self.play)

    def seating(self, rules: Rules) -> Seating:
        """Fixed sides: partnerships ``s`` and ``s + 2`` (every game of the family today)."""
        return Seating.fixed(rules.players, rules.partnerships)

    def honour_counts(self, game: Game) -> list[int]:
        """Honours per side for this deal under ``honours_basis``."""
        counts = [0] * game.facts.sides
        trump = game.trump
        if trump is None:
            return counts
        hon = trump.honours_mask
        side_of = game.side_of
        if game.rules.honours_basis == "captured":
            for _, cards, winner in game.completed:
                for card in cards:
                    if card.bit & hon:
                        counts[side_of[winner]] += 1
            return counts
        hands = game.dealt if game.rules.honours_basis == "dealt" else game.held_at_play
        for seat, hand in enumerate(hands):
            counts[side_of[seat]] += (hand & hon).bit_count()
        return counts

    def score_deal(self, game: Game, events: list[Event]) -> DealScore:
        """Score a played deal (RULES.md §1.7): revokes, tricks, check, honours, check."""
        facts = game.facts
        scores = game.scores
        sides = facts.sides
        penalty = [0] * sides
        for side in game.revoked:
            if scores[side] > 0:
                penalty[side] = -1
                scores[side] -= 1
        half = facts.half
        trick_points = [t - half if t > half else 0 for t in game.tricks]
        for side in range(sides):
            scores[side] += trick_points[side]
        honour_points = [0] * sides
        target = facts.target
        score = DealScore(trick_points, honour_points, penalty)
        if not facts.simultaneous and max(scores) >= target:
            score.reached = "tricks"
            return score
        if facts.honours:
            counts = self.honour_counts(game)
            notes: list[str] = []
            values = facts.honour_values
            for side in range(sides):
                raw = values.get(counts[side], 0)
                if not raw:
                    continue
                start = game.start_scores[side]
                if start == facts.void_at:
                    notes.append("not called at the call point: void")
                    continue
                if start == facts.no_honours_at:
                    notes.append(f"a side at {target - 1} cannot score honours")
                    continue
                points = raw
                if facts.can_win == "false":
                    points = max(0, min(raw, target - 1 - scores[side]))
                    if points < raw:
                        notes.append("honours cannot win the game: capped")
                honour_points[side] = points
                scores[side] += points
            note = "; ".join(notes)
            if not note and not any(honour_points):
                note = _no_honours_note(counts, game.trump)
            events.append(new_event(HonoursScored, (tuple(counts), tuple(honour_points), note)))
        if max(scores) >= target:
            how = "honours"
            if facts.simultaneous:
                how = "tricks" if any(trick_points) else "honours"
            score.reached = how
        return score


FAMILY: Final = RuffHonoursFamily()
for _game in GAME_DEFS:
    register_game(_game)
