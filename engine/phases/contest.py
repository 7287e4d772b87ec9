"""Willughby's ruff: the strongest-suit contest of Ruffe and Trump (RULES.md §4.3).

Before the rub every player values each suit of his dealt hand
(``ruff_measure``: ``pip_sum`` counts the ace 11, K Q J 10 each and the rest at
face value; ``card_count`` counts cards), and for the trump suit he adds the
turned-up card. A player's ruff is his best suit; the highest ruff wins
``ruff_bonus`` points for his side (for himself in single-hand play).

Two phases, both in this module:

* :class:`ContestPhase` (after the deal, before the rub). Under
  ``ruff_announce = automatic`` it computes the true ruffs, scores the bonus at
  once and checks the target (``win_check = immediate``); nobody acts. Under
  ``declared`` each player from eldest states a value (:class:`RuffClaim`,
  ``"ruffval:47"``), publicly; the highest claim wins, but nothing is scored yet.
* :class:`ShowPhase` (after the rub, before the first lead). Under ``declared``
  each claimed winner shows his suit (his pre-rub cards of it, plus the turn-up
  for trumps); a true claim scores the bonus, a false one passes it to the true
  winner. Then the target is checked (``win_check = immediate``).

Decisions where RULES.md is silent:

* Ties (``ruff_tie``) are between players of different sides: when every tied
  player is on one side (partners with equal ruffs) that side wins the bonus,
  shown by the tied player first from eldest. ``eldest_priority``: the tied
  player first in turn order from eldest wins; ``no_award``: nobody scores;
  ``split``: each tied player wins ``ruff_bonus // k`` for his side (6 each of 12
  for two).
* ``declared``: a claim is any whole number from 0 to the most a suit could be
  worth (95 pips, 13 cards); under-declaring is allowed. A claim is **false**
  when it is higher than the player's true ruff. The bonus is scored when the
  winner shows, after the rub (the claim cannot be verified before). A false
  claimant's share passes to the true winner among the other players (the best
  true ruff, ties by ``ruff_tie``); his shown suit is public from then on.
* ``automatic``: every player's true ruff (the value, not the suit) is announced
  with the result; there is no showing, as the engine's count stands for it.
* A tie at the top of the scores when a check finds two sides at or over the
  target (``split`` can do that) is no win: play goes on, and the next check
  decides (RULES.md §4.7 "an exact tie plays another deal").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final

from engine.actions import Action, ActionParseError, register_action
from engine.cards import SUITS, Card, Rank, Suit, cards_from_mask
from engine.errors import IllegalAction
from engine.events import Event
from engine.notes import ShownRuff
from engine.phases.base import NOTHING_PRIVATE, Automatic, not_your_turn
from engine.phases.score import DealScore, reach_target

if TYPE_CHECKING:
    from engine.game import Game

__all__ = [
    "MAX_CLAIM",
    "ContestPhase",
    "RuffClaim",
    "RuffClaimed",
    "RuffContest",
    "RuffShown",
    "ShowPhase",
    "best_suit",
    "contest_winners",
    "pip_value",
    "ruff_value",
    "target_check",
]

CONTEST: Final = "contest"
MAX_CLAIM: Final = {"pip_sum": 11 + 3 * 10 + sum(range(2, 11)), "card_count": 13}


@dataclass(frozen=True, slots=True)
class RuffClaim(Action):
    """Under ``ruff_announce = declared``: state the value of your ruff (your best suit)."""

    value: int
    verb: ClassVar[str] = "ruffval"

    def encode(self) -> str:
        return f"ruffval:{self.value}"


_CLAIMS: Final = tuple(RuffClaim(v) for v in range(max(MAX_CLAIM.values()) + 1))


def _decode_claim(arg: str) -> Action:
    if not arg.isdigit() or int(arg) >= len(_CLAIMS):
        raise ActionParseError(f"not a ruff value: {arg!r}")
    return _CLAIMS[int(arg)]


register_action(RuffClaim.verb, _decode_claim)


class RuffClaimed(Event):
    """Public (``declared``): ``seat`` states his ruff is worth ``value``."""

    seat: int
    value: int
    kind: ClassVar[str] = "ruff_claimed"


class RuffShown(Event):
    """Public (``declared``): a claimed winner shows his suit.

    ``cards`` are his pre-rub cards of ``suit`` (the turn-up counted for trumps is
    not among them); ``value`` is what they are worth, ``honest`` whether it
    covers his ``claim``.
    """

    seat: int
    suit: Suit
    cards: tuple[Card, ...]
    value: int
    claim: int
    honest: bool
    kind: ClassVar[str] = "ruff_shown"


class RuffContest(Event):
    """Public: the ruff is decided and scored.

    ``values`` per seat are the true ruffs (``automatic``) or the claims
    (``declared``); ``winners`` the seats that won points, ``points`` per side,
    ``scores`` per side after them; ``note`` says why nobody or somebody else won.
    """

    values: tuple[int, ...]
    winners: tuple[int, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    note: str
    kind: ClassVar[str] = "ruff_contest"


# --------------------------------------------------------------------------- values


def pip_value(card: Card) -> int:
    """A card's worth under ``pip_sum``: ace 11, K Q J 10 each, the rest face value."""
    rank = card.rank
    if rank is Rank.ACE:
        return 11
    return min(int(rank), 10)


def _suit_value(cards: Sequence[Card], measure: str) -> int:
    if measure == "card_count":
        return len(cards)
    return sum(pip_value(c) for c in cards)


def best_suit(
    hand: int, turn_up: Card | None, trump: Suit | None, measure: str
) -> tuple[int, Suit]:
    """The ruff of a hand (a mask): its best suit's value and the suit.

    The turned-up card counts in the trump suit for everyone (RULES.md §4.3);
    equal suits go to the first of spades, hearts, diamonds, clubs.
    """
    best: tuple[int, Suit] | None = None
    for suit in SUITS:
        cards = list(cards_from_mask(hand & suit.mask))
        if suit is trump and turn_up is not None and not hand & turn_up.bit:
            cards.append(turn_up)
        value = _suit_value(cards, measure)
        if best is None or value > best[0]:
            best = (value, suit)
    assert best is not None
    return best


def ruff_value(hand: int, turn_up: Card | None, trump: Suit | None, measure: str) -> int:
    """The value of a hand's ruff (see :func:`best_suit`)."""
    return best_suit(hand, turn_up, trump, measure)[0]


def contest_winners(
    values: Sequence[int | None],
    eldest: int,
    side_of: Sequence[int],
    tie: str,
    bonus: int,
) -> tuple[list[tuple[int, int]], str]:
    """Who wins the ruff: ``[(seat, points)]`` and a note (empty unless a tie mattered).

    ``values[seat]`` is ``None`` for a seat out of the contest.
    """
    n = len(values)
    order = [(eldest + k) % n for k in range(n)]
    live = [s for s in order if values[s] is not None]
    if not live:
        return [], "nobody left to win the ruff"
    top = max(v for v in values if v is not None)
    tied = [s for s in live if values[s] == top]
    if len(tied) == 1 or len({side_of[s] for s in tied}) == 1:
        return [(tied[0], bonus)], ""
    if tie == "eldest_priority":
        return [(tied[0], bonus)], "tie: the first from eldest wins"
    if tie == "no_award":
        return [], "tie: no award"
    share = bonus // len(tied)
    return [(s, share) for s in tied], "tie: split"


def target_check(game: Game, ruff_points: Sequence[int], events: list[Event]) -> bool:
    """``win_check = immediate`` after ruff points: True when a side won (the game is over).

    Wins only with a single best score at or over the target (a tie plays on).
    """
    scores = game.scores
    target = game.facts.target
    reached = [s for s in range(len(scores)) if scores[s] >= target]
    if not reached:
        return False
    best = max(scores[s] for s in reached)
    if sum(1 for s in reached if scores[s] == best) > 1:
        return False
    sides = len(scores)
    reach_target(game, DealScore([0] * sides, list(ruff_points), [0] * sides, "ruff"), events)
    return True


def _award(
    game: Game,
    awards: Sequence[tuple[int, int]],
    values: Sequence[int],
    note: str,
    events: list[Event],
) -> list[int]:
    points = [0] * game.facts.sides
    for seat, pts in awards:
        points[game.side_of[seat]] += pts
    for side, pts in enumerate(points):
        game.scores[side] += pts
    game.notes["ruff_points"] = tuple(points)
    game.notes["ruff_winners"] = tuple(s for s, _ in awards)
    events.append(
        RuffContest(
            tuple(values), tuple(s for s, _ in awards), tuple(points), tuple(game.scores), note
        )
    )
    return points


def _true_values(game: Game) -> list[int]:
    rules = game.rules
    return [ruff_value(hand, game.turn_up, game.trump, rules.ruff_measure) for hand in game.dealt]


# --------------------------------------------------------------------------- phases


class ContestPhase:
    """The ruff before the rub: scored at once (``automatic``) or claimed in turn (``declared``)."""

    name = CONTEST
    absent = "There is no ruff to declare now."
    waiting = "Wait: the ruffs are being declared."

    def handles(self, action: Action) -> bool:
        return isinstance(action, RuffClaim)

    def enter(self, game: Game, events: list[Event]) -> None:
        rules = game.rules
        if rules.ruff_announce == "declared":
            game.notes["ruff_claims"] = ()
            game.phase = self.name
            return
        values = _true_values(game)
        game.notes["ruff_values"] = tuple(values)
        awards, note = contest_winners(
            values, game.eldest, game.side_of, rules.ruff_tie, rules.ruff_bonus
        )
        points = _award(game, awards, values, note, events)
        if rules.win_check == "immediate" and target_check(game, points, events):
            return
        game.enter_next(self, events)

    def _claims(self, game: Game) -> tuple[tuple[int, int], ...]:
        claims = game.notes["ruff_claims"]
        assert isinstance(claims, tuple)
        return claims

    def to_act(self, game: Game) -> int | None:
        return (game.eldest + len(self._claims(game))) % game.n_players

    def legal(self, game: Game, seat: int) -> list[Action]:
        if seat != self.to_act(game):
            return []
        return list(_CLAIMS[: MAX_CLAIM[game.rules.ruff_measure] + 1])

    def check(self, game: Game, seat: int, action: Action) -> None:
        assert isinstance(action, RuffClaim)
        if seat != self.to_act(game):
            raise not_your_turn("It is not your turn to declare your ruff.")
        most = MAX_CLAIM[game.rules.ruff_measure]
        if not 0 <= action.value <= most:
            raise IllegalAction(f"A ruff is worth 0 to {most}.", "bad_claim")

    def apply(self, game: Game, seat: int, action: Action, events: list[Event]) -> None:
        assert isinstance(action, RuffClaim)
        claims = (*self._claims(game), (seat, action.value))
        game.notes["ruff_claims"] = claims
        events.append(RuffClaimed(seat, action.value))
        if len(claims) == game.n_players:
            game.enter_next(self, events)

    def visible(self, game: Game, seat: int) -> Mapping[str, object]:
        return NOTHING_PRIVATE


class ShowPhase(Automatic):
    """After the rub (``declared``): the claimed winners show, the ruff is scored, the target checked."""

    name = "show_ruff"

    def enter(self, game: Game, events: list[Event]) -> None:
        rules = game.rules
        if rules.ruff_announce != "declared":
            game.enter_next(self, events)
            return
        n = game.n_players
        claims = game.notes["ruff_claims"]
        assert isinstance(claims, tuple)
        claimed: list[int] = [0] * n
        for seat, value in claims:
            claimed[seat] = value
        awards, note = contest_winners(
            claimed, game.eldest, game.side_of, rules.ruff_tie, rules.ruff_bonus
        )
        true = _true_values(game)
        false: set[int] = set()
        shown = []
        for seat, _ in awards:
            value, suit = best_suit(game.dealt[seat], game.turn_up, game.trump, rules.ruff_measure)
            cards = tuple(cards_from_mask(game.dealt[seat] & suit.mask))
            honest = claimed[seat] <= value
            if not honest:
                false.add(seat)
            shown.append(ShownRuff(seat, suit.value, cards, value, honest))
            events.append(RuffShown(seat, suit, cards, value, claimed[seat], honest))
        game.notes["ruff_shown"] = tuple(shown)
        if false:
            kept = [(s, p) for s, p in awards if s not in false]
            lost = sum(p for s, p in awards if s in false)
            others: list[int | None] = [None if s in false else true[s] for s in range(n)]
            passed, _ = contest_winners(others, game.eldest, game.side_of, rules.ruff_tie, lost)
            awards = kept + passed
            note = "false claim: the points pass to the true winner"
        points = _award(game, awards, claimed, note, events)
        if rules.win_check == "immediate" and target_check(game, points, events):
            return
        game.enter_next(self, events)
