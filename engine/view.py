"""What one seat may see (:class:`SeatView`) and the constants a game derives from its rules (:class:`Facts`).

:class:`SeatView` is the hidden-information boundary: ``Game.observe`` builds one
per seat, and renderers and AI players read views, never the game.
:class:`Facts` holds what a :class:`~engine.rules.Rules` fixes for every deal (the
family's phases, deal plans, scoring constants, whether the fast path applies);
:func:`facts_of` caches one per rule set, so games with equal rules share it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.actions import Action
from engine.cards import HIGH, Card, RankOrder, Suit, deck_with_jokers, led_suit
from engine.claims import PHASES as CLAIM_PHASES
from engine.families import family_of
from engine.layout import PileView
from engine.notes import (
    ClaimNote,
    ClaimRejected,
    ConcedeNote,
    Concession,
    RuffContestNote,
    ruff_contest_of,
)
from engine.phases.base import PhaseLogic
from engine.phases.deal import deal_plan
from engine.phases.play import PlayPhase
from engine.phases.score import OverPhase
from engine.rules import Rules

__all__ = ["OVER", "Facts", "SeatView", "facts_of"]

OVER: Final = OverPhase()  # the phase of a finished game (shared by every game)


class Facts:
    """Constants derived once from a :class:`Rules` for a game: its family's phases and hot paths."""

    __slots__ = (
        "rules",
        "family",
        "sequence",
        "next_phase",
        "by_name",
        "catalogue",
        "seating",
        "sides",
        "half",
        "target",
        "honours",
        "honour_values",
        "simultaneous",
        "can_win",
        "void_at",
        "no_honours_at",
        "can_ye",
        "call_any",
        "call_point",
        "deck_indices",
        "plans",
        "dealt_in",
        "tricks_per_deal",
        "stop_tricks",
        "prevent",
        "fast_play",
        "jokers",
        "play",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules  # the last Rules object seen with these values
        family = self.family = family_of(rules)
        self.sequence = family.sequence(rules)
        self.next_phase: dict[PhaseLogic, PhaseLogic] = dict(
            zip(self.sequence, self.sequence[1:], strict=False)
        )
        self.by_name: dict[str, PhaseLogic] = {p.name: p for p in self.sequence}
        self.by_name[OVER.name] = OVER
        self.by_name.update(CLAIM_PHASES)  # waiting for answers to a claim or concession
        self.catalogue = (*family.catalogue(), *CLAIM_PHASES.values())
        play_phases = [p for p in self.sequence if isinstance(p, PlayPhase)]
        self.play = play_phases[0]
        self.seating = family.seating(rules)
        n = rules.players
        self.sides = len(self.seating.sides)
        self.half = rules.tricks_per_deal // 2
        self.target = rules.target_score
        self.honours = rules.honours
        self.honour_values = dict(rules.honours_values)
        self.simultaneous = rules.score_order == "simultaneous"
        self.can_win = rules.honours_can_win
        call_point = rules.call_point
        self.void_at = (
            call_point
            if rules.uncalled_honours_at_call_point == "void" and isinstance(call_point, int)
            else None
        )
        self.no_honours_at = (
            rules.target_score - 1 if rules.honours_can_win == "not_at_target_minus_1" else None
        )
        self.can_ye = rules.can_ye_enabled
        self.call_any = rules.call_point == "any"
        self.call_point = rules.call_point if isinstance(rules.call_point, int) else None
        self.deck_indices = tuple(
            c.index for c in deck_with_jokers(rules.jokers, rules.removed_ranks)
        )
        self.plans = tuple(deal_plan(rules, dealer) for dealer in range(n))
        self.dealt_in = n * rules.hand_size
        self.tricks_per_deal = rules.tricks_per_deal
        # a side with this many tricks ends the deal (stop_at_majority), else never
        self.stop_tricks = (
            rules.tricks_per_deal // 2 + 1 if rules.stop_at_majority else rules.tricks_per_deal + 1
        )
        self.prevent = rules.revoke_mode == "prevent"
        self.jokers = rules.jokers > 0  # following suit needs cards.follow_mask
        # the fast path reads the hand only and follows natural suits only
        self.fast_play = self.prevent and not family.has_layouts and not self.jokers


_FACTS: Final[dict[Rules, Facts]] = {}
_FACTS_BY_ID: Final[dict[int, Facts]] = {}


def facts_of(rules: Rules) -> Facts:
    facts = _FACTS_BY_ID.get(id(rules))
    if facts is not None and facts.rules is rules:  # the same object (ids can be reused)
        return facts
    facts = _FACTS.get(rules)  # equal rules built again: hashes every field
    if facts is None:
        if len(_FACTS) > 256:  # many ad-hoc rule sets (tests, tools): keep it bounded
            _FACTS.clear()
        facts = _FACTS[rules] = Facts(rules)
    if len(_FACTS_BY_ID) > 1024:
        _FACTS_BY_ID.clear()
    _FACTS_BY_ID[id(rules)] = facts
    facts.rules = rules
    return facts


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything one seat may know, and nothing more.

    This is the hidden-information boundary: renderers and AI players get a
    view, never the :class:`Game`. Other hands appear only as sizes; the stock
    is never listed (the ruffer alone sees the cards he took in and laid out;
    a Bid Whist declarer the kitty, ``stock_taken``, shown to all when the
    rules expose it).
    """

    seat: int
    game_id: str
    preset: str
    phase: str
    game_no: int
    deal_no: int
    dealer: int
    eldest: int
    trump: Suit | None
    turn_up: Card | None
    turn_up_holder: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    to_act: int | None
    legal: tuple[Action, ...]
    trick_leader: int
    trick: tuple[tuple[int, Card], ...]
    trick_no: int
    completed_tricks: tuple[tuple[int, tuple[Card, ...], int], ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    start_scores: tuple[int, ...]
    games_won: tuple[int, ...]
    target: int
    ruffer: int | None
    ruff_state: str  # none | pending | taken | declined
    stock_taken: tuple[Card, ...]
    my_discards: tuple[Card, ...]
    shown_honours: tuple[tuple[int, Card], ...]
    calls: tuple[tuple[int, str], ...]
    winner: int | None
    rules: Rules | None = (
        None  # the table's rules, overrides included (None only in hand-built views)
    )
    sides: tuple[int, ...] = ()  # the side each seat plays for (empty: fixed partnerships s, s + 2)
    rank_order: RankOrder = HIGH  # the deal's rank order (which card wins a trick)
    to_lay_out: int = (
        0  # cards this seat must still lay out now, one action each (the ruff's discards)
    )
    # contract games (an auction before play): the calls in order as (seat, call),
    # the contract won ("" before it is fixed or where there is none), its
    # declarer, and cards of other seats that every seat may see (an exposed hand)
    auction: tuple[tuple[int, str], ...] = ()
    contract: str = ""
    declarer: int | None = None
    exposed: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    # per seat, per position: the face-up layout card and how many face-down cards lie
    # beneath (never which, not even to their owner); empty in games without layouts
    layouts: tuple[tuple[PileView, ...], ...] = ()
    # the deal's public notes by name (Game.notes, engine.notes): read them as the typed
    # properties claim_note, concede_note, claim_rejected and ruff_contest
    notes: tuple[tuple[str, object], ...] = ()
    # the last trick completed in the deal before (leader, cards, winner): what a
    # Last trick button shows before this deal's first trick is complete; None in
    # the first deal and after a deal in which no trick was played
    previous_trick: tuple[int, tuple[Card, ...], int] | None = None
    # what this seat may start now beyond ``legal`` (engine.claims): claims, all first, then concede
    claims: tuple[Action, ...] = ()
    # tricks still to be won in the deal, the trick in progress included, face-down
    # layout cards counted (engine.claims.remaining_tricks); 0 in hand-built views
    tricks_left: int = 0

    @property
    def partner(self) -> int:
        """The other seat of this seat's side (itself when it plays alone)."""
        sides = self.sides
        if not sides:
            return (self.seat + 2) % 4
        mine = sides[self.seat]
        n = len(sides)
        return next(
            (s % n for s in range(self.seat + 1, self.seat + n) if sides[s % n] == mine), self.seat
        )

    @property
    def side(self) -> int:
        return self.seat_sides[self.seat]

    @property
    def seat_sides(self) -> tuple[int, ...]:
        """The side each seat plays for (``sides``; fixed partnerships s, s + 2 in
        hand-built views without them)."""
        return self.sides or tuple(s % 2 for s in range(self.n_seats))

    def note(self, key: str, default: object = None) -> object:
        """One of :attr:`notes` by name (``default`` when the deal has no such note)."""
        for name, value in self.notes:
            if name == key:
                return value
        return default

    @property
    def claim_note(self) -> ClaimNote | None:
        """The claim waiting for answers, if any."""
        note = self.note("claim")
        return note if isinstance(note, ClaimNote) else None

    @property
    def concede_note(self) -> ConcedeNote | None:
        """The concession waiting for the proposer's partner, if any."""
        note = self.note("concede")
        return note if isinstance(note, ConcedeNote) else None

    @property
    def conceded(self) -> Concession | None:
        """Who gave the game up, once a concession has ended it."""
        note = self.note("conceded")
        return note if isinstance(note, Concession) else None

    @property
    def tied(self) -> tuple[int, ...]:
        """The sides sharing the top score at the end of a game that the rules leave
        tied (Solo Whist); empty otherwise. ``winner`` is then the engine's tie-break."""
        note = self.note("tied", ())
        return tuple(note) if isinstance(note, tuple) else ()

    @property
    def claim_rejected(self) -> ClaimRejected | None:
        """Where the deal's last claim was rejected, if one was."""
        note = self.note("claim_rejected")
        return note if isinstance(note, ClaimRejected) else None

    @property
    def ruff_contest(self) -> RuffContestNote | None:
        """Ruffe and Trump's ruff contest of the deal so far, if the deal has one."""
        return ruff_contest_of(dict(self.notes))

    @property
    def n_seats(self) -> int:
        """Seats at the table (from ``sides``; 4 in hand-built views without them)."""
        return len(self.sides) if self.sides else 4

    @property
    def led_suit(self) -> Suit | None:
        """The suit the trick must follow (None before a lead, or while only a
        no-trump joker is led: the first natural card fixes it)."""
        return led_suit([c for _, c in self.trick], self.trump) if self.trick else None

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat
