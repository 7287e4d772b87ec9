"""The Solo Whist family: ``solo-whist`` (RULES.md §6), a contract table played for oneself.

Every deal runs::

    deal -> auction -> [name trumps / expose] -> play -> score

52 cards, 13 each (``deal_pattern = solo_33331`` or ``singles``); the dealer's
last card is turned and marks the turn-up suit. The auction
(:mod:`engine.phases.solo_auction`) fixes the contract, its declarer and the
sides of the deal (one against three, or proposer and acceptor against two);
:mod:`engine.phases.solo_declare` names trumps where the declarer chooses
them, exposes a Spread Misère hand and plays with early termination. Scores
are kept per seat (each seat is its own scoring side; ``Game.scores[seat]``)
while the sides of play change per deal (``Game.side_of``: the declaring side
is side 0, so ``Game.tricks[0]`` is its tricks).

Scoring (§6.5): the contract's value ``v`` comes from ``point_table`` (the
seven values low to high: ``seed`` 1,2,3,4,4,6,8; ``pagat`` 1,1,2,3,3,4,6;
or seven custom integers), plus with ``overtricks = per_trick_1`` one unit per
trick over or under the target for Propose, Solo and both Abundances.
``settlement = zero_sum``: made, each opponent pays ``v`` and the declaring
side shares the receipts equally (lone declarer +3v, each opponent -v; a pair
+v each, each opponent -v); failed, the reverse. ``declarer_only``: the
declaring seats score +v or -v each, opponents 0.

Decisions where RULES.md is silent:

* **Game end.** ``target_score = none`` (stored as 0): each deal is a complete
  game (EB1911, FOSTER), so the game (and match) ends when the first contract
  is settled; a deal everyone passes and that is dealt again does not count.
  With a number N the deals go on, scores running, until a seat stands at N or
  more after a deal. The winner is the seat with the highest score; a tie
  goes to a seat that won the last deal (the declaring side if the contract
  was made, else the defenders), then to the first such seat clockwise from
  eldest. That tie-break names one winner for the record and the ratings; the
  tie itself is kept (``notes["tied"]``, ``SeatView.tied``) so the result can say
  the seats share first place.
* **Overtricks.** "±1 unit per trick over or under": a made contract adds the
  tricks over the target, a failed one the tricks short of it (a Solo with 4
  tricks costs ``v + 1``).
* **General misère** (``all_pass = general_misere``, "not specified further"
  in RULES.md): the deal is played at no trumps, each seat for himself, eldest
  leading; the seat with the most tricks pays the Misère value ``v`` (a tie
  goes against the tied seat that won the latest trick). Under ``zero_sum`` it
  pays ``v`` to each other seat; under ``declarer_only`` it scores ``-v``.
* ``point_table`` as a custom map is seven non-negative integers, low to high
  (``"1,2,3,4,4,6,8"``), or ``prop:1,solo:2,...`` naming all seven.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, Final

from engine.events import Event
from engine.phases.base import Automatic, Phase, PhaseLogic
from engine.phases.deal import DealPhase
from engine.phases.score import DealScore, deal_scored, game_over
from engine.phases.solo_auction import (
    CONTRACT_NAMES,
    CONTRACTS,
    SoloAuctionPhase,
    SoloState,
    contract_rank,
    state_of,
)
from engine.phases.solo_declare import SoloDeclarePhase, SoloPlayPhase
from engine.rules import GameDef, ParamSpec, Rules, RulesError, _bool, _choice, register_game
from engine.seating import Seating

if TYPE_CHECKING:
    from engine.game import Game

__all__ = [
    "FAMILY",
    "GAME_DEFS",
    "POINT_TABLES",
    "TARGETS",
    "ContractSettled",
    "SoloFamily",
    "contract_value",
    "point_values",
]

POINT_TABLES: Final[Mapping[str, tuple[int, ...]]] = {
    "seed": (1, 2, 3, 4, 4, 6, 8),
    "pagat": (1, 1, 2, 3, 3, 4, 6),
}

# tricks the declaring side needs (the misères: at most 0)
TARGETS: Final[Mapping[str, int]] = {
    "prop": 8,
    "solo": 5,
    "mis": 0,
    "abund": 9,
    "royal": 9,
    "spread": 0,
    "slam": 13,
}
_OVERTRICK_CONTRACTS: Final = frozenset({"prop", "solo", "abund", "royal"})


# --------------------------------------------------------------------------- parameters


class _PointTableSpec(ParamSpec):
    """``point_table``: ``seed``, ``pagat`` or seven values (a custom map)."""

    __slots__ = ()

    def describe(self) -> str:
        return f"{self.name}: seed | pagat | seven values low to high, e.g. 1,2,3,4,4,6,8 (default seed)"

    def _parse(self, raw: object) -> object:
        if isinstance(raw, Mapping):
            items = [(str(k).strip().lower(), v) for k, v in raw.items()]
            return _table_text(_from_items(items, raw))
        if isinstance(raw, (list, tuple)):
            return _table_text(_values(raw, raw))
        text = str(raw).strip().lower()
        if text in POINT_TABLES:
            return text
        parts = [p.strip() for p in text.strip("{}").split(",") if p.strip()]
        if parts and all(":" in p for p in parts):
            pairs = [(k.strip(), v.strip()) for k, _, v in (p.partition(":") for p in parts)]
            return _table_text(_from_items(pairs, raw))
        return _table_text(_values(parts, raw))


def _from_items(items: Sequence[tuple[str, object]], raw: object) -> tuple[int, ...]:
    given = dict(items)
    if sorted(given) != sorted(CONTRACTS):
        raise RulesError(
            f"point_table needs a value for each of {', '.join(CONTRACTS)}, got {raw!r}"
        )
    return _values([given[c] for c in CONTRACTS], raw)


def _values(parts: Sequence[object], raw: object) -> tuple[int, ...]:
    values = tuple(int(str(p)) for p in parts)
    if len(values) != len(CONTRACTS) or any(v < 0 for v in values):
        raise RulesError(f"point_table needs seven values of 0 or more, low to high, got {raw!r}")
    return values


def _table_text(values: tuple[int, ...]) -> str:
    return ",".join(str(v) for v in values)


class _TargetSpec(ParamSpec):
    """``target_score``: ``none`` (0: each deal is a game) or the score to reach."""

    __slots__ = ()

    def describe(self) -> str:
        return f"{self.name}: none | {self.minimum}..{self.maximum} (default none)"

    def _parse(self, raw: object) -> object:
        if isinstance(raw, bool):
            raise RulesError(f"bad value {raw!r} for {self.describe()}")
        text = str(raw).strip().lower()
        if text in ("none", "0"):
            return 0
        value = int(text)
        if not self.minimum <= value <= self.maximum:
            raise RulesError(f"bad value {raw!r} for {self.describe()}")
        return value


_SOLO_PARAMS: Final = (
    _choice("deal_pattern", "solo_33331", "solo_33331", "singles"),
    _choice("accept_rule", "any_in_turn", "any_in_turn", "next_only"),
    _choice("all_pass", "redeal", "redeal", "general_misere"),
    _choice("slam_trump", "declarer_choice", "declarer_choice", "none"),
    _choice("spread_exposure", "before_first_lead", "before_first_lead", "after_first_trick"),
    _bool("early_termination", True),
    _PointTableSpec("point_table", "point_table", "seed"),
    _choice("settlement", "zero_sum", "zero_sum", "declarer_only"),
    _choice("overtricks", "none", "none", "per_trick_1"),
    _TargetSpec("target_score", "int", 0, minimum=1, maximum=999),
)

GAME_DEFS: Final[tuple[GameDef, ...]] = (
    GameDef(
        "solo-whist",
        "Solo Whist",
        {
            "players": 4,
            "partnerships": False,
            "hand_size": 13,
            "first_dealer": "random",
            "trump_mode": "turn_up",
            "turn_up_source": "dealer_last",
            "family": "solo",
        },
        _SOLO_PARAMS,
        {
            "seed004": {},
            "pagat": {
                "point_table": "pagat",
                "overtricks": "per_trick_1",
                "slam_trump": "none",
                "spread_exposure": "after_first_trick",
            },
        },
        "seed004",
        "Each for himself: bid Propose, Solo, Misère, Abundance ... Slam; one against three.",
    ),
)


def point_values(rules: Rules) -> tuple[int, ...]:
    """The seven contract values, low (Propose) to high (Slam)."""
    named = POINT_TABLES.get(rules.point_table)
    if named is not None:
        return named
    return tuple(int(v) for v in rules.point_table.split(","))


def contract_value(rules: Rules, contract: str, tricks: int) -> tuple[bool, int]:
    """Whether ``contract`` is made with ``tricks`` for the declaring side, and its value ``v``."""
    base = point_values(rules)[contract_rank(contract) - 1]
    target = TARGETS[contract]
    if contract in ("mis", "spread"):
        made = tricks == 0
    elif contract == "slam":
        made = tricks == 13
    else:
        made = tricks >= target
    if rules.overtricks == "per_trick_1" and contract in _OVERTRICK_CONTRACTS:
        base += abs(tricks - target) if made else target - tricks
    return made, base


# --------------------------------------------------------------------------- scoring


class ContractSettled(Event):
    """The deal's contract is settled: ``points`` per seat (this deal only).

    ``tricks`` is the declaring side's (for a general misère, the paying seat's);
    ``value`` is ``v`` after overtricks.
    """

    contract: str
    declarer: int
    partner: int | None
    tricks: int
    made: bool
    value: int
    points: tuple[int, ...]
    kind: ClassVar[str] = "contract_settled"


def _settle(game: Game) -> tuple[ContractSettled, list[int]]:
    """The deal's points per seat, and the seats that won the deal (for ties at the end)."""
    rules = game.rules
    state = state_of(game)
    n = game.n_players
    points = [0] * n
    if state.contract == "general":
        # each seat alone: side i is seat i; the most tricks pays, ties to the latest trick
        latest = {w: i for i, (_, _, w) in enumerate(game.completed)}
        loser = max(range(n), key=lambda s: (game.tricks[s], latest.get(s, -1)))
        v = point_values(rules)[contract_rank("mis") - 1]
        for seat in range(n):
            if seat == loser:
                points[seat] = -v * (n - 1) if rules.settlement == "zero_sum" else -v
            elif rules.settlement == "zero_sum":
                points[seat] = v
        winners = [s for s in range(n) if s != loser]
        event = ContractSettled("general", loser, None, game.tricks[loser], False, v, tuple(points))
        return event, winners
    side_of = game.side_of
    declaring = [s for s in range(n) if side_of[s] == 0]
    defending = [s for s in range(n) if side_of[s] != 0]
    tricks = game.tricks[0]
    made, v = contract_value(rules, state.contract, tricks)
    sign = 1 if made else -1
    if rules.settlement == "zero_sum":
        share = v * len(defending) // len(declaring)
        for seat in declaring:
            points[seat] = sign * share
        for seat in defending:
            points[seat] = -sign * v
    else:
        for seat in declaring:
            points[seat] = sign * v
    partner = state.partner if state.contract == "prop" else None
    event = ContractSettled(state.contract, state.declarer, partner, tricks, made, v, tuple(points))
    return event, declaring if made else defending


class SoloScorePhase(Automatic):
    """Settle the contract, then end the game (see the module docstring) or deal again."""

    name = Phase.SCORE

    def enter(self, game: Game, events: list[Event]) -> None:
        settled, deal_winners = _settle(game)
        events.append(settled)
        scores = game.scores
        for seat, points in enumerate(settled.points):
            scores[seat] += points
        game.deal_state = replace(state_of(game), stage="done", turn=-1)
        n = game.n_players
        zeros = (0,) * n
        events.append(deal_scored(game, DealScore(list(settled.points), list(zeros), list(zeros))))
        target = game.rules.target_score
        if target and max(scores) < target:
            game.start_deal(events, rotate=True)
            return
        best = max(scores)
        order = [(game.eldest + k) % n for k in range(n)]
        top = [s for s in order if scores[s] == best]
        winner = next((s for s in top if s in deal_winners), top[0])
        if len(top) > 1:  # a tie: the winner above is only the record's tie-break
            game.notes["tied"] = tuple(sorted(top))
        game_over(game, winner, "contract", events)


class SoloFamily:
    """The phases, seating and scorer of ``solo-whist``."""

    name = "solo"
    games: Sequence[GameDef] = GAME_DEFS
    has_layouts = False

    def __init__(self) -> None:
        self.deal = DealPhase()
        self.auction = SoloAuctionPhase()
        self.declare = SoloDeclarePhase()
        self.play = SoloPlayPhase()
        self.score = SoloScorePhase()

    def sequence(self, rules: Rules) -> tuple[PhaseLogic, ...]:
        """The phases of one deal, in order."""
        return (self.deal, self.auction, self.declare, self.play, self.score)

    def catalogue(self) -> tuple[PhaseLogic, ...]:
        """Every phase that owns actions."""
        return (self.auction, self.declare, self.play)

    def seating(self, rules: Rules) -> Seating:
        """Everyone alone (each seat is a scoring side); the auction makes each deal's sides."""
        return Seating.solo(rules.players)

    def honour_counts(self, game: Game) -> list[int]:
        """Solo Whist scores no honours."""
        return [0] * game.facts.sides

    def score_deal(self, game: Game, events: list[Event]) -> DealScore:
        """The deal's points per seat, added to the scores (the score phase's first step)."""
        settled, _ = _settle(game)
        events.append(settled)
        for seat, points in enumerate(settled.points):
            game.scores[seat] += points
        zeros = [0] * game.n_players
        return DealScore(list(settled.points), zeros, list(zeros))

    def deal_state_from_data(self, data: Mapping[str, Any]) -> SoloState:
        """A snapshot's deal state (:meth:`SoloState.to_data`) read back."""
        return SoloState.from_data(data)

    def describe(self, rules: Rules) -> list[str]:
        """Human-readable lines summarising the rules that matter at the table."""
        values = point_values(rules)
        table = ", ".join(
            f"{CONTRACT_NAMES[c]} {v}" for c, v in zip(CONTRACTS, values, strict=True)
        )
        lines = [
            f"{rules.title} — preset `{rules.preset}`",
            "52 cards, 13 each; the dealer's last card is turned: its suit is the turn-up suit.",
            "Each for himself. Eldest bids first; pass or bid higher: Propose (accept to partner, "
            "8 tricks together), Solo (5), Misère (none, no trumps), Abundance (9, your trumps), "
            "Abundance in Trump (9), Spread Misère (none, hand shown), Slam (all 13, you lead).",
            f"Values: {table}"
            + (", ±1 a trick over or under." if rules.overtricks == "per_trick_1" else "."),
        ]
        if rules.settlement == "zero_sum":
            lines.append("Each opponent pays the declarer the value (or is paid it if he fails).")
        else:
            lines.append("The declaring side scores plus or minus the value.")
        if rules.accept_rule == "next_only":
            lines.append("Only the next player may accept a proposal.")
        if rules.all_pass == "general_misere":
            lines.append("If all pass, everyone plays misère: most tricks pays.")
        else:
            lines.append("If all pass, the next dealer deals.")
        if rules.spread_exposure == "after_first_trick":
            lines.append("A Spread Misère hand is shown after the first trick.")
        if rules.slam_trump == "none":
            lines.append("Slam is played without trumps.")
        if rules.target_score:
            lines.append(f"First to {rules.target_score} wins.")
        else:
            lines.append("Each deal is a game.")
        return lines


FAMILY: Final = SoloFamily()
for _game in GAME_DEFS:
    register_game(_game)
