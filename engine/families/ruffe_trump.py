"""Ruffe and Trump (Willughby, c. 1665): ``ruff-trump-willughby`` (RULES.md §4).

Every deal runs::

    deal -> contest (the ruff) -> ruff (the rub: take the head's top four)
         -> discard (lay out four) -> show_ruff -> play -> score

* **Seats.** ``players`` 4 (default), 3 or 2; ``mode = double_hand`` is two
  partnerships, ``s`` and ``s + 2`` (4 players only); ``single_hand`` and every
  3- and 2-player game is each for himself.
* **Deal.** ``hand_size`` cards each in packets of four (12; or 16 for three
  players, 24 for two); the rest is the head, its top card turned for trumps.
* **The ruff** (:mod:`engine.phases.contest`): the strongest suit of the
  pre-rub hand wins ``ruff_bonus`` (12), scored before the rub.
* **The rub** (:class:`~engine.phases.exchange.RuffPhase` taking four): the
  holder of the trump ace, or the dealer when the ace is turned up (or lies in
  the head and ``rub_if_ace_in_head = dealer``), takes the head's top four in
  and lays out four; a longer head keeps its other cards out of play. The
  actions are the ruff's: ``take``, ``decline`` (unless ``rub_mandatory``),
  ``discard:<card>``.
* **Play.** Eldest leads; follow suit, trumping optional, aces high.
* **Score.** Each side scores the cards it won in tricks minus par (par =
  cards played / scoring sides: 24 double-hand, 12 single-hand, 12 or 16 for
  three, 12 or 24 for two), when positive. ``target_score`` ("set") defaults
  to 52, or 40 (3 players) and 36 (2 players) with 12-card hands. The target is
  checked after the ruff and after the deal (``win_check = immediate``), or
  only after the deal (``end_of_deal``); crossing it together, the higher total
  wins and an exact tie plays on. Points never carry over.

Decisions where RULES.md is silent (besides those of the contest module):

* ``mode`` matters with four players only; with three or two every player is
  alone whatever ``mode`` says (so ``players=3`` needs no other parameter).
* ``first_dealer = youngest``: the engine knows no ages; the table passes the
  youngest player's seat as ``new_game(first_dealer=...)``, otherwise the first
  dealer is drawn at random from the seed.
* ``DealScored`` carries the card points over par as ``trick_points`` and the
  deal's ruff points as ``honour_points`` (this game has no honours).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from engine.phases.base import PhaseLogic
from engine.phases.contest import ContestPhase, ShowPhase
from engine.phases.deal import DealPhase
from engine.phases.exchange import DiscardPhase, RuffPhase
from engine.phases.play import PlayPhase
from engine.phases.score import DealScore, ScorePhase
from engine.rules import GameDef, ParamSpec, Rules, RulesError, _choice, _int, register_game
from engine.seating import Seating

if TYPE_CHECKING:
    from engine.events import Event
    from engine.game import Game

__all__ = ["FAMILY", "GAME_DEFS", "RuffeTrumpFamily", "default_target", "par"]

HAND_SIZES: Final = {4: (12,), 3: (12, 16), 2: (12, 24)}

_PARAMS: Final = (
    _choice("mode", "double_hand", "double_hand", "single_hand"),
    _int("players", 4, 2, 4),
    _int("hand_size", 12, 12, 24),
    _choice("first_dealer", "random", "random", "youngest"),
    _choice("deal_pattern", "packets4", "packets4"),
    _choice("ruff_measure", "pip_sum", "pip_sum", "card_count"),
    _int("ruff_bonus", 12, 0, 99),
    _choice("ruff_tie", "eldest_priority", "eldest_priority", "no_award", "split"),
    _choice("ruff_announce", "automatic", "automatic", "declared"),
    _choice("rub_if_ace_in_head", "dealer", "dealer", "nobody", field_name="ruff_if_ace_in_stock"),
    ParamSpec("rub_mandatory", "bool", False, field_name="ruff_mandatory"),
    _int("target_score", 52, 1, 999),
    _choice("win_check", "immediate", "immediate", "end_of_deal"),
)


def default_target(players: int, hand_size: int) -> int:
    """The set by variant (RULES.md §4.7): 52; with 12-card hands 40 for three, 36 for two."""
    if hand_size == 12 and players == 3:
        return 40
    if hand_size == 12 and players == 2:
        return 36
    return 52


def par(rules: Rules, sides: int) -> int:
    """Cards a side must win before it scores: the cards played over the scoring sides
    (``Rules.cards_par`` for the rules' own sides)."""
    return rules.players * rules.tricks_per_deal // sides


def _adjust(values: dict[str, object], given: frozenset[str]) -> None:
    players = values["players"]
    hand_size = values["hand_size"]
    assert isinstance(players, int) and isinstance(hand_size, int)
    values["partnerships"] = players == 4 and values["mode"] == "double_hand"
    if "target_score" not in given:
        values["target_score"] = default_target(players, hand_size)


def _check(rules: Rules) -> None:
    allowed = HAND_SIZES[rules.players]
    if rules.hand_size not in allowed:
        sizes = " or ".join(str(h) for h in allowed)
        raise RulesError(
            f"hand_size {rules.hand_size} does not fit {rules.players} players (use {sizes})"
        )


GAME_DEFS: Final[tuple[GameDef, ...]] = (
    GameDef(
        "ruff-trump-willughby",
        "Ruffe and Trump",
        {
            "family": "ruffe_trump",
            "removed_ranks": (),
            "turn_up_source": "stock_top",
            "trump_mode": "turn_up",
            "honours": False,
            "call_point": "none",
        },
        _PARAMS,
        {
            "ducoeur": {},
            "johnston": {"ruff_measure": "card_count", "first_dealer": "youngest"},
        },
        "ducoeur",
        "Willughby's game: the strongest suit wins 12, the trump-ace holder rubs the head, "
        "cards over par score, set of 52.",
        adjust=_adjust,
        check=_check,
    ),
)


class RuffeTrumpFamily:
    """The phases, seating and scorer of Ruffe and Trump."""

    name = "ruffe_trump"
    games: Sequence[GameDef] = GAME_DEFS
    has_layouts = False

    def __init__(self) -> None:
        self.deal = DealPhase()
        self.contest = ContestPhase()
        self.rub = RuffPhase(take=4)
        self.discard = DiscardPhase()
        self.show = ShowPhase()
        self.play = PlayPhase()
        self.score = ScorePhase()

    def sequence(self, rules: Rules) -> tuple[PhaseLogic, ...]:
        """The phases of one deal, in order."""
        return (
            self.deal,
            self.contest,
            self.rub,
            self.discard,
            self.show,
            self.play,
            self.score,
        )

    def catalogue(self) -> tuple[PhaseLogic, ...]:
        """Every phase that owns actions."""
        return (self.contest, self.rub, self.discard, self.play)

    def seating(self, rules: Rules) -> Seating:
        """Partnerships ``s`` and ``s + 2`` in double-hand play, else each for himself."""
        return Seating.fixed(rules.players, rules.partnerships)

    def honour_counts(self, game: Game) -> list[int]:
        """No honours in this game."""
        return [0] * game.facts.sides

    def describe(self, rules: Rules) -> list[str]:
        """Human-readable lines summarising the rules that matter at the table."""
        n = rules.players
        head = rules.deck_size - n * rules.hand_size
        if rules.partnerships:
            who = "4 players, partners opposite (double hand)"
        else:
            who = f"{n} players, each for himself"
        sides = 2 if rules.partnerships else n
        lines = [
            f"{rules.title} — preset `{rules.preset}`",
            f"{who}; {rules.hand_size} cards each in fours, the other {head} are the head, "
            "its top card turned for trumps.",
        ]
        if rules.ruff_measure == "pip_sum":
            measure = "the pips of its cards (ace 11, K Q J 10 ten each, the rest face value)"
        else:
            measure = "the number of its cards"
        claim = (
            "Each player's ruff is counted and announced at once."
            if rules.ruff_announce == "automatic"
            else "Each player in turn declares his ruff; after the rub the winner shows the suit "
            "(a false claim passes the ruff to the true winner)."
        )
        tie = {
            "eldest_priority": "a tie goes to the first from eldest",
            "no_award": "a tie scores nothing",
            "split": "a tie splits the points",
        }[rules.ruff_tie]
        lines.append(
            f"The ruff: your strongest suit, by {measure}, the turn-up counting in trumps; "
            f"the best wins {rules.ruff_bonus} ({tie}). {claim}"
        )
        who_rubs = (
            "or the dealer if the ace is turned up or lies in the head"
            if rules.ruff_if_ace_in_stock == "dealer"
            else "or the dealer if the ace is turned up"
        )
        lines.append(
            f"The rub: the holder of the trump ace ({who_rubs}) takes the head's top four "
            "and lays out four" + (" (compulsory)." if rules.ruff_mandatory else " (optional).")
        )
        lines.append("Eldest leads; follow suit if you can, trumping is never forced; aces high.")
        par_cards = par(rules, sides)
        lines.append(
            f"Each {'side' if rules.partnerships else 'player'} scores the cards won in tricks over {par_cards} (par)."
        )
        check = (
            "checked after the ruff and after each deal"
            if rules.win_check == "immediate"
            else "checked after each deal"
        )
        lines.append(f"First to {rules.target_score} wins ({check}; a tie plays on).")
        return lines

    def score_deal(self, game: Game, events: list[Event]) -> DealScore:
        """Card points over par (RULES.md §4.6), then the target check (§4.7)."""
        sides = game.facts.sides
        n = game.n_players
        over = par(game.rules, sides)
        card_points = [max(0, t * n - over) for t in game.tricks]
        scores = game.scores
        for side in range(sides):
            scores[side] += card_points[side]
        ruff = game.notes.get("ruff_points", (0,) * sides)
        assert isinstance(ruff, tuple)
        score = DealScore(card_points, list(ruff), [0] * sides)
        target = game.facts.target
        reached = [s for s in range(sides) if scores[s] >= target]
        if reached:
            best = max(scores[s] for s in reached)
            top = [s for s in reached if scores[s] == best]
            if len(top) == 1:  # an exact tie plays another deal
                score.reached = "cards" if card_points[top[0]] else "ruff"
        return score


FAMILY: Final = RuffeTrumpFamily()
for _game in GAME_DEFS:
    register_game(_game)
