"""Turnover Bridge: ``turnover-bridge``, two players with face-up layouts (RULES.md §8).

Every deal runs::

    deal (hands and layouts) -> play -> score

* **Deal** (``layout``): ``seed004`` (default) gives each player 9 face-down
  cards in rows of 5 and 4, a face-up card on each, and an 8-card hand;
  ``pagat`` 12 face-down, 12 face-up and 2 hole cards. Cards go one at a time,
  alternately from the non-dealer (:meth:`engine.layout.Layout.deal`). The deal
  alternates.
* **Trumps** (``trump``): ``spades`` (default), ``none``, or ``turn_up``: the
  dealer's last dealt card (a hand card), shown until he plays it.
* **Play.** The non-dealer leads the first trick, then the trick winner. A
  player's available cards are his hand and the face-up cards on top of his
  layout; he must follow suit from them (face-down cards never count) and
  otherwise may play any of them. Playing a face-up card turns up the card
  beneath: public at once, playable from the next trick. The play phase does
  this for any game with a layout (``Game.layout``).
* **End and score.** ``stop_at_majority`` (default): the deal ends the moment a
  player has 14 tricks. ``scoring = deal_win``: one point to the winner of the
  deal (more than 13 tricks; 13-13 is drawn); ``odd_tricks``: one per trick
  over 13 (which needs ``stop_at_majority = false``). ``target_score`` 1
  (default: each deal stands alone) or first to N.

Decisions where RULES.md is silent:

* Both players see every face-up layout card and, for each position, how many
  face-down cards lie under it; nobody (the owner included) sees a face-down
  card before it turns up (``LayoutDealt`` and ``SeatView.layouts``).
* ``trump = turn_up`` uses the dealer's last dealt card, ``deck[51]`` (his
  last hand or hole card), which stays in his hand.
* A drawn deal scores nothing; the deal passes to the other player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Final

from engine.cards import HIGH, Card, Suit, cards_from_mask
from engine.events import DealStarted, Event, HandDealt, TrumpFixed
from engine.layout import SHAPES, Layout
from engine.phases.base import Automatic, Phase, PhaseLogic, new_event
from engine.phases.deal import CARD_BY_INDEX, reset_deal, shuffled
from engine.phases.play import PlayPhase
from engine.phases.score import DealScore, ScorePhase
from engine.rules import GameDef, Rules, RulesError, _bool, _choice, _int, register_game
from engine.seating import Seating

if TYPE_CHECKING:
    from engine.game import Game

__all__ = ["FAMILY", "GAME_DEFS", "LayoutDealt", "TurnoverDealPhase", "TurnoverFamily"]

_PARAMS: Final = (
    _choice("layout", "seed004", "seed004", "pagat"),
    _choice("trump", "spades", "spades", "none", "turn_up", field_name="trump_mode"),
    _choice("first_leader", "non_dealer", "non_dealer"),
    _bool("stop_at_majority", True),
    _choice("scoring", "deal_win", "deal_win", "odd_tricks"),
    _int("target_score", 1, 1, 99),
)


class LayoutDealt(Event):
    """Public: ``seat``'s layout as dealt: the face-up card of each position and how
    many face-down cards lie beneath it (never which)."""

    seat: int
    up: tuple[Card, ...]
    down: tuple[int, ...]
    kind: ClassVar[str] = "layout_dealt"


def _adjust(values: dict[str, object], given: frozenset[str]) -> None:
    layout = values["layout"]
    assert isinstance(layout, str)
    values["hand_size"] = SHAPES[layout].hand_size


def _check(rules: Rules) -> None:
    if rules.scoring == "odd_tricks" and rules.stop_at_majority:
        raise RulesError("scoring=odd_tricks needs stop_at_majority=false (every trick counts)")


GAME_DEFS: Final[tuple[GameDef, ...]] = (
    GameDef(
        "turnover-bridge",
        "Turnover Bridge",
        {
            "family": "turnover",
            "players": 2,
            "partnerships": False,
            "removed_ranks": (),
            "deal_tricks": 26,
            "first_dealer": "random",
            "honours": False,
            "call_point": "none",
        },
        _PARAMS,
        {"seed004": {}, "pagat": {"layout": "pagat"}},
        "seed004",
        "Two players, each with a layout of face-down cards under face-up ones; "
        "spades are trumps and 14 tricks win the deal.",
        adjust=_adjust,
        check=_check,
    ),
)


class TurnoverDealPhase(Automatic):
    """Shuffle (or take the stacked deck), deal hands and layouts, fix trumps."""

    name = Phase.DEAL

    def enter(self, game: Game, events: list[Event]) -> None:
        rules = game.rules
        dealer = game.dealer
        game.eldest = eldest = (dealer + 1) % 2  # the non-dealer leads first
        game.deal_no += 1
        game.deals_total += 1
        game.start_scores = list(game.scores)
        events.append(new_event(DealStarted, (game.game_no, game.deal_no, dealer, eldest)))
        if game.deals_total == 1 and game.deck_choice is not None:
            deck = [c.index for c in game.deck_choice]
        else:
            deck = shuffled(game.facts.deck_indices, f"{game.seed}:deal:{game.deals_total}")
        cards = [CARD_BY_INDEX[i] for i in deck]
        layout, hands = Layout.deal(cards, dealer, rules.layout)
        game.layout = layout
        game.hands = hands
        game.dealt = list(hands)
        game.stock = []
        for seat in range(2):
            events.append(HandDealt(seat, tuple(cards_from_mask(hands[seat]))))
        for seat, view in enumerate(layout.seat_view()):
            up = tuple(p.up for p in view if p.up is not None)
            events.append(LayoutDealt(seat, up, tuple(p.down for p in view)))
        game.turn_up = None
        game.turn_up_holder = None
        game.turn_up_public = False
        if rules.trump_mode == "spades":
            game.trump = Suit.SPADES
        elif rules.trump_mode == "none":
            game.trump = None
        else:
            card = cards[-1]  # the dealer's last dealt card
            game.turn_up, game.turn_up_holder, game.turn_up_public = card, dealer, True
            game.trump = card.suit
        game.rank_order = HIGH
        events.append(new_event(TrumpFixed, (game.trump, game.turn_up, game.turn_up_holder)))
        reset_deal(game)
        game.enter_next(self, events)

    def visible(self, game: Game, seat: int) -> Mapping[str, object]:
        """The turn-up (``trump = turn_up``) shows while the dealer keeps it."""
        return {"turn_up": game.turn_up if game.turn_up_public else None}


class TurnoverFamily:
    """The phases, seating and scorer of Turnover Bridge."""

    name = "turnover"
    games: Sequence[GameDef] = GAME_DEFS
    has_layouts = True

    def __init__(self) -> None:
        self.deal = TurnoverDealPhase()
        self.play = PlayPhase()
        self.score = ScorePhase()

    def sequence(self, rules: Rules) -> tuple[PhaseLogic, ...]:
        """The phases of one deal, in order."""
        return (self.deal, self.play, self.score)

    def catalogue(self) -> tuple[PhaseLogic, ...]:
        """Every phase that owns actions."""
        return (self.play,)

    def seating(self, rules: Rules) -> Seating:
        """Two players, each for himself."""
        return Seating.solo(2)

    def honour_counts(self, game: Game) -> list[int]:
        """No honours in this game."""
        return [0, 0]

    def describe(self, rules: Rules) -> list[str]:
        """Human-readable lines summarising the rules that matter at the table."""
        shape = SHAPES[rules.layout]
        hand = (
            f"{shape.hand_size} hole cards"
            if rules.layout == "pagat"
            else f"an {shape.hand_size}-card hand"
        )
        trumps = {
            "spades": "Spades are trumps.",
            "none": "No trumps.",
            "turn_up": "The dealer's last card is turned for trumps and stays in his hand.",
        }[rules.trump_mode]
        lines = [
            f"{rules.title} — preset `{rules.preset}`",
            f"2 players, 52 cards: each has {shape.piles} face-down cards, each covered by a "
            f"face-up card (rows of {' and '.join(str(r) for r in shape.rows)}), and {hand}.",
            trumps,
            "You may play from your hand or a face-up card of your layout; follow suit from "
            "these if you can. Playing a layout card turns up the card beneath: everyone sees "
            "it at once, you may play it from the next trick.",
            "The non-dealer leads first, then the winner of each trick; 26 tricks a deal.",
        ]
        if rules.scoring == "odd_tricks":
            lines.append("Every trick over 13 scores a point.")
        elif rules.stop_at_majority:
            lines.append("The first to 14 tricks wins the deal (a point); 13-13 is drawn.")
        else:
            lines.append("More than 13 tricks wins the deal (a point); 13-13 is drawn.")
        if rules.target_score > 1:
            lines.append(f"First to {rules.target_score} points wins.")
        else:
            lines.append("Each deal is a game.")
        return lines

    def score_deal(self, game: Game, events: list[Event]) -> DealScore:
        """The deal's winner (``deal_win``) or tricks over 13 (``odd_tricks``), then the target."""
        half = game.facts.tricks_per_deal // 2
        tricks = game.tricks
        if game.rules.scoring == "odd_tricks":
            points = [max(0, t - half) for t in tricks]
        else:
            points = [1 if t > half else 0 for t in tricks]
        for side in range(2):
            game.scores[side] += points[side]
        score = DealScore(points, [0, 0], [0, 0])
        if max(game.scores) >= game.facts.target:
            score.reached = "tricks"
        return score


FAMILY: Final = TurnoverFamily()
for _game in GAME_DEFS:
    register_game(_game)
