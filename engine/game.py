"""The game: a thin table that hands each step of a deal to the phase it is in.

Use :func:`new_game` to start, :meth:`Game.legal_actions` to ask what a seat may
do, :meth:`Game.apply` to act (it returns the events), :meth:`Game.observe` for
what one seat may see. The rules themselves live in the phases
(:mod:`engine.phases`: deal, exchange, declarations, play, score) composed by a
game family (:mod:`engine.families`), configured by :class:`~engine.rules.Rules`;
nothing outside the engine decides legality or scores.

The :class:`Game` holds the state of the table and of the deal in play (hands,
stock, trick, scores, the sides each seat plays for); the phases are stateless
and read and write it. ``Game.phase`` names the phase waiting for a player
(``ruff``, ``discard``, ``can_ye``, ``play``; in Bid Whist ``bidding``, ``name``,
``kitty``) or ``over``.

Determinism: a game is fully fixed by its rules, seed, optional first dealer,
optional stacked first deck and start scores, and action log (see
:mod:`engine.phases.deal` for the shuffle).

Speed: the hot paths (a Play when cards are being played, the end of a trick)
are the play phase's fast path (:func:`engine.phases.play.fast_play`), which
skips the general checks only where those checks cannot fail; every other
action goes through :meth:`Game.check`. See ``python -m tools.bench_engine``.

Testing hooks: ``new_game(..., deck=...)`` fixes the order of the first deal's
deck (``deck[0]`` is dealt first, RULES.md §0.1) and ``start_scores=`` the score
each side stands at when the first deal begins; :func:`stacked_deck` builds the
deck that deals chosen hands and stock. Both are stored in the record, so
replays reproduce them.

Records and snapshots (:mod:`engine.records`): ``to_record`` writes format
``ruff-honours-game`` version 1 (seed, rules, test hooks, action log) and
``snapshot`` version 2 (the whole state); the methods here delegate there. What a
seat sees is a :class:`~engine.view.SeatView` (:mod:`engine.view`, with the
per-rules constants :class:`~engine.view.Facts`).
"""

from __future__ import annotations

import json
import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, SupportsIndex, cast

from engine.actions import Action, Play
from engine.cards import Card, RankOrder, Suit, cards_from_mask, deck_with_jokers, sort_hand
from engine.claims import OUTSIDE_ACTIONS, apply_outside, check_outside, offers, remaining_tricks
from engine.errors import IllegalAction, RecordError
from engine.events import DealerChosen, DealScored, Event
from engine.families import Family
from engine.layout import Layout
from engine.phases.base import DealState, Phase, PhaseLogic
from engine.phases.deal import choose_dealer, deal_plan, deal_seats, shuffled, stacked_deck
from engine.phases.declare import honours_held
from engine.phases.play import (
    PlayPhase,
    build_play_tables,
    fast_legal,
    fast_play,
    sync_fast,
    trick_winner,
)
from engine.phases.score import OverPhase, end_board, start_game
from engine.rules import Rules, make_rules
from engine.seating import Seating
from engine.view import OVER, Facts, SeatView, facts_of

__all__ = [
    "RECORD_VERSION",
    "Game",
    "IllegalAction",
    "Phase",
    "RecordError",
    "SeatView",
    "deal_seats",
    "new_game",
    "stacked_deck",
    "trick_winner",
]

# The version of the records this engine writes (engine.records): 1 until Bid Whist's
# ``first_diamond`` dealt its face-up cards from a seat drawn from the seed, not seat 0.
# A game keeps the version it was created under, so an older record replays as it was.
RECORD_VERSION: Final = 2

# names older code imported from here
_shuffled = shuffled
_deal_plan = deal_plan


def _as_seat(seat: object, n: int) -> int:
    """``seat`` as a plain int seat number, or :class:`IllegalAction`."""
    if seat.__class__ is not int:
        if isinstance(seat, bool):
            raise IllegalAction("There is no such seat.", "bad_seat")
        try:
            seat = operator.index(cast(SupportsIndex, seat))  # e.g. a numpy integer
        except TypeError:
            raise IllegalAction("There is no such seat.", "bad_seat") from None
    assert isinstance(seat, int)
    if not 0 <= seat < n:
        raise IllegalAction("There is no such seat.", "bad_seat")
    return seat


class Game:
    """A running game (or match) of one of the engine's trick-taking games.

    Mutable, but only through :meth:`apply`, which validates first: an illegal
    action raises :class:`IllegalAction` and leaves the state untouched. The
    attributes are for reading; writing to them (``hands``, ``phase`` ...) can
    leave the game inconsistent.
    """

    __slots__ = (
        "rules",
        "seed",
        "first_dealer_choice",
        "record_version",
        "deck_choice",
        "start_scores_choice",
        "log",
        "phase",
        "game_no",
        "deal_no",
        "deals_total",
        "scores",
        "start_scores",
        "games_won",
        "game_values",
        "dealer",
        "eldest",
        "hands",
        "dealt",
        "stock",
        "trump",
        "rank_order",
        "turn_up",
        "turn_up_holder",
        "turn_up_public",
        "ruffer",
        "ruff_reason",
        "ruff_state",
        "stock_taken",
        "discards",
        "discards_left",
        "held_at_play",
        "can_ye_queue",
        "can_ye_open",
        "calls",
        "shown",
        "to_play",
        "leader",
        "trick",
        "trick_no",
        "tricks",
        "completed",
        "previous_trick",
        "revoked",
        "winner",
        "match_winner",
        "rubber_points",
        "n_players",
        "seating",
        "side_of",
        "family",
        "facts",
        "play_phase",
        "over_phase",
        "fast",
        "deal_state",
        "layout",
        "notes",
    )

    rules: Rules
    seed: int
    first_dealer_choice: int | None
    record_version: int
    deck_choice: tuple[Card, ...] | None
    start_scores_choice: tuple[int, ...] | None
    log: list[tuple[int, Action]]
    phase: str
    game_no: int
    deal_no: int
    deals_total: int
    scores: list[int]
    start_scores: list[int]
    games_won: list[int]
    game_values: list[int]
    dealer: int
    eldest: int
    hands: list[int]
    dealt: list[int]
    stock: list[Card]
    trump: Suit | None
    rank_order: RankOrder  # the deal's rank order, which decides tricks (HIGH in today's games)
    turn_up: Card | None
    turn_up_holder: int | None
    turn_up_public: bool
    ruffer: int | None
    ruff_reason: str
    ruff_state: str
    stock_taken: tuple[Card, ...]
    discards: list[Card]
    discards_left: int
    held_at_play: list[int]
    can_ye_queue: list[int]
    can_ye_open: set[int]
    calls: list[tuple[int, str]]
    shown: list[tuple[int, Card]]
    to_play: int
    leader: int
    trick: list[Card]
    trick_no: int
    tricks: list[int]
    completed: list[tuple[int, tuple[Card, ...], int]]
    # the last trick completed in the deal before this one (leader, cards, winner),
    # None in the first deal or after a deal with no trick played (SeatView.previous_trick).
    # History shown to players: the snapshot keeps it, but nothing that follows
    # depends on it, so state_key leaves it out (a snapshot taken before it was
    # kept restores None and still has the state_key of the replayed game)
    previous_trick: tuple[int, tuple[Card, ...], int] | None
    revoked: set[int]
    winner: int | None
    match_winner: int | None
    rubber_points: tuple[int, ...]
    n_players: int
    seating: Seating  # the seats and sides of the deal in play
    side_of: tuple[int, ...]  # seating.seat_sides: the side each seat plays for (hot paths)
    family: Family
    facts: Facts
    play_phase: PlayPhase
    over_phase: OverPhase
    fast: int  # the seat whose Play may take the fast path, else -1 (see phases.play.sync_fast)
    deal_state: (
        DealState | None
    )  # a family's own state of the deal (an auction, a contract), or None
    layout: Layout | None  # the face-up layouts of a layout game (Turnover Bridge), else None
    # public facts of the deal beyond the fields above (a claim, a concession,
    # Willughby's ruff contest): every seat sees them (SeatView.notes and its typed
    # properties); the values are immutable typed tuples (engine.notes), so a copy
    # of the dict is a deep copy
    notes: dict[str, object]

    # ------------------------------------------------------------------ creation

    @classmethod
    def _blank(
        cls,
        rules: Rules,
        seed: int,
        first_dealer: int | None,
        deck: tuple[Card, ...] | None,
        start_scores: tuple[int, ...] | None,
        record_version: int = RECORD_VERSION,
    ) -> Game:
        game = object.__new__(cls)
        game.rules = rules
        game.seed = seed
        game.first_dealer_choice = first_dealer
        game.record_version = record_version
        game.deck_choice = deck
        game.start_scores_choice = start_scores
        facts = game.facts = facts_of(rules)
        game.family = facts.family
        game.n_players = rules.players
        game.set_seating(facts.seating)
        game.play_phase = facts.play
        game.over_phase = OVER
        game.fast = -1
        game.deal_state = None
        game.log = []
        game.layout = None
        game.notes = {}
        game.completed = []
        game.previous_trick = None
        build_play_tables()
        return game

    @classmethod
    def _create(
        cls,
        rules: Rules,
        seed: int,
        first_dealer: int | None,
        deck: tuple[Card, ...] | None = None,
        start_scores: tuple[int, ...] | None = None,
        record_version: int = RECORD_VERSION,
    ) -> tuple[Game, list[Event]]:
        game = cls._blank(rules, seed, first_dealer, deck, start_scores, record_version)
        n_sides = game.facts.sides
        game.scores = [0] * n_sides
        game.start_scores = [0] * n_sides
        game.games_won = [0] * n_sides
        game.game_values = [0] * n_sides
        game.game_no = 0
        game.deal_no = 0
        game.deals_total = 0
        game.winner = None
        game.match_winner = None
        game.rubber_points = ()
        game.calls = []
        game.shown = []
        events: list[Event] = []
        if first_dealer is not None:
            if not 0 <= first_dealer < rules.players:
                raise ValueError(f"first dealer must be a seat 0..{rules.players - 1}")
            game.dealer = first_dealer
            events.append(DealerChosen(first_dealer, "chosen"))
        else:
            events.append(choose_dealer(game))
        start_game(game, events, rotate=False)
        sync_fast(game)
        return game, events

    # ------------------------------------------------------------------ moving between phases

    def start_deal(self, events: list[Event], rotate: bool = True) -> None:
        """Begin a deal: the deal passes to the left (unless ``rotate`` is false), then its
        first phase — or, on a board (``Rules.deals``) whose deal was just scored, end the match."""
        if self.rules.deals and any(e.__class__ is DealScored for e in events):
            end_board(self, events)
            return
        if rotate:
            self.dealer = self.rules.next_dealer(self.dealer)
        self.facts.sequence[0].enter(self, events)

    def enter_next(self, after: PhaseLogic, events: list[Event]) -> None:
        """``after`` is done: enter the next phase of the family's sequence."""
        self.facts.next_phase[after].enter(self, events)

    def current_phase(self) -> PhaseLogic:
        """The phase object the game is in now."""
        return self.facts.by_name[self.phase]

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        """True once the match is decided."""
        return self.phase == Phase.OVER

    @property
    def version(self) -> int:
        """Number of actions applied so far (a stale-button guard)."""
        return len(self.log)

    def to_act(self) -> int | None:
        """The seat the game is waiting for, or ``None`` when it is over."""
        fast = self.fast
        if fast >= 0:
            return fast
        return self.facts.by_name[self.phase].to_act(self)

    def hand(self, seat: int) -> list[Card]:
        """The cards in ``seat``'s hand, sorted for display."""
        return sort_hand(cards_from_mask(self.hands[seat]), self.trump)

    def playable(self, seat: int) -> int:
        """The cards ``seat`` may play from, as a mask: its hand, and in a layout game
        the face-up layout cards it may play now (not those turned up this trick)."""
        layout = self.layout
        if layout is None:
            return self.hands[seat]
        return self.hands[seat] | layout.playable(seat)

    def set_seating(self, seating: Seating) -> None:
        """Seat the table: the family's fixed sides, or sides a phase makes for one deal."""
        if seating.n_seats != self.n_players:
            raise ValueError(f"a seating of {seating.n_seats} seats at a table of {self.n_players}")
        self.seating = seating
        self.side_of = seating.seat_sides

    def partner_of(self, seat: int) -> int:
        """``seat``'s partner: the next seat clockwise on its side (itself when it plays alone).

        Read from ``side_of``, so sides made per deal (one against three, a
        proposer and acceptor) answer as well as fixed partnerships.
        """
        sides = self.side_of
        n = self.n_players
        mine = sides[seat]
        for k in range(1, n):
            other = (seat + k) % n
            if sides[other] == mine:
                return other
        return seat

    def honours_held(self, seat: int) -> list[Card]:
        """The honours (A K Q J of trumps) now in ``seat``'s hand."""
        return honours_held(self, seat)

    def honour_counts(self) -> list[int]:
        """Honours per side for this deal under ``honours_basis`` (the family's count)."""
        return self.family.honour_counts(self)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it is not its turn).

        Built on the same rules as :meth:`check`, so the two never disagree.
        """
        if seat == self.fast >= 0:
            return fast_legal(self, seat)
        return self.facts.by_name[self.phase].legal(self, seat)

    def check(self, seat: int, action: Action) -> None:
        """Raise :class:`IllegalAction` (with a human reason) unless legal now."""
        seat = _as_seat(seat, self.n_players)
        if action.__class__ in OUTSIDE_ACTIONS:  # a claim or concession (engine.claims)
            check_outside(self, seat, action)
            return
        current = self.facts.by_name[self.phase]
        if current.handles(action):
            current.check(self, seat, action)
            return
        for owner in self.facts.catalogue:
            if owner.handles(action):
                raise IllegalAction(owner.absent or current.waiting, "wrong_phase")
        raise IllegalAction(f"Unknown action {action!r}.", "unknown")

    # ------------------------------------------------------------------ acting

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Check and perform ``action`` for ``seat``; return the events it caused."""
        if seat == self.fast >= 0 and action.__class__ is Play and seat.__class__ is int:
            return fast_play(self, seat, action)
        seat = _as_seat(seat, self.n_players)
        current = self.facts.by_name[self.phase]
        if action.__class__ in OUTSIDE_ACTIONS:  # a claim or concession (engine.claims)
            check_outside(self, seat, action)
            self.log.append((seat, action))
            events: list[Event] = []
            apply_outside(self, seat, action, events)
            sync_fast(self)
            return events
        if current.handles(action):
            current.check(self, seat, action)
        else:
            self.check(seat, action)  # raises with the reason
        self.log.append((seat, action))
        events = []
        current.apply(self, seat, action, events)
        sync_fast(self)
        return events

    def apply_all(self, seat: int, actions: Sequence[Action]) -> list[Event]:
        """Apply several actions of one seat atomically: all succeed or none do."""
        trial = self.clone()
        for action in actions:
            trial.apply(seat, action)
        events: list[Event] = []
        for action in actions:
            events.extend(self.apply(seat, action))
        return events

    # ------------------------------------------------------------------ views

    def observe(self, seat: int) -> SeatView:
        """What ``seat`` may know now: its own hand, public cards, scores, and
        what each phase of the deal lets it see of its private parts."""
        n = self.n_players
        leader = self.leader
        trick = tuple(((leader + i) % n, c) for i, c in enumerate(self.trick))
        private: dict[str, Any] = {"turn_up": None, "stock_taken": (), "my_discards": ()}
        for phase in self.facts.sequence:
            private.update(phase.visible(self, seat))
        return SeatView(
            seat=seat,
            game_id=self.rules.game_id,
            preset=self.rules.preset,
            phase=self.phase,
            game_no=self.game_no,
            deal_no=self.deal_no,
            dealer=self.dealer,
            eldest=self.eldest,
            trump=self.trump,
            turn_up=private["turn_up"],
            turn_up_holder=self.turn_up_holder,
            hand=tuple(self.hand(seat)),
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            to_act=self.to_act(),
            legal=tuple(self.legal_actions(seat)),
            trick_leader=leader,
            trick=trick,
            trick_no=self.trick_no,
            completed_tricks=tuple(self.completed),
            previous_trick=self.previous_trick,
            tricks=tuple(self.tricks),
            scores=tuple(self.scores),
            start_scores=tuple(self.start_scores),
            games_won=tuple(self.games_won),
            target=self.rules.target_score,
            ruffer=self.ruffer,
            ruff_state=self.ruff_state,
            stock_taken=private["stock_taken"],
            my_discards=private["my_discards"],
            shown_honours=tuple(self.shown),
            calls=tuple(self.calls),
            winner=self.match_winner,
            rules=self.rules,
            rank_order=self.rank_order,
            sides=self.side_of,
            to_lay_out=self.discards_left if self.to_act() == seat else 0,
            auction=private.get("auction", ()),
            contract=private.get("contract", ""),
            declarer=private.get("declarer"),
            exposed=private.get("exposed", ()),
            layouts=() if self.layout is None else self.layout.seat_view(),
            notes=tuple(sorted(self.notes.items())),
            claims=offers(self, seat),
            tricks_left=remaining_tricks(self),
        )

    # ------------------------------------------------------------------ copies & records

    def clone(self) -> Game:
        """An independent copy (for search and atomic batches)."""
        other = object.__new__(Game)
        for name in _SHARED_SLOTS:  # immutable values
            setattr(other, name, getattr(self, name))
        for name in _LIST_SLOTS:
            setattr(other, name, list(getattr(self, name)))
        other.can_ye_open = set(self.can_ye_open)
        other.revoked = set(self.revoked)
        other.notes = dict(self.notes)
        other.layout = None if self.layout is None else self.layout.clone()
        return other

    def to_record(self) -> dict[str, Any]:
        """Seed + action log as JSON-ready data (:func:`engine.records.to_record`)."""
        from engine.records import to_record

        return to_record(self)

    @staticmethod
    def from_record(record: Mapping[str, Any]) -> Game:
        """Rebuild a game by replaying a record made by :meth:`to_record`."""
        from engine.records import from_record

        return from_record(record)

    def snapshot(self) -> dict[str, Any]:
        """A compact JSON-ready copy of the whole state (:func:`engine.records.snapshot`)."""
        from engine.records import snapshot

        return snapshot(self)

    @staticmethod
    def from_snapshot(data: Mapping[str, Any]) -> Game:
        """Restore a game saved by :meth:`snapshot` without replaying."""
        from engine.records import from_snapshot

        return from_snapshot(data)

    def state_key(self) -> str:
        """A canonical JSON string of the state (equal states give equal keys)."""
        snap = self.snapshot()
        snap["state"].pop("previous_trick", None)  # history shown to players, not state
        return json.dumps(snap, sort_keys=True, separators=(",", ":"))


# How clone() copies each slot: lists and sets are copied, everything else is an
# immutable value (int, str, tuple, Card, Suit, Rules, Facts, phases, None) and shared.
_LIST_SLOTS: Final = (
    "log",
    "scores",
    "start_scores",
    "games_won",
    "game_values",
    "hands",
    "dealt",
    "stock",
    "discards",
    "held_at_play",
    "can_ye_queue",
    "calls",
    "shown",
    "trick",
    "tricks",
    "completed",
)
_SET_SLOTS: Final = ("can_ye_open", "revoked", "notes", "layout")  # copied by hand in clone()
_SHARED_SLOTS: Final = tuple(
    name for name in Game.__slots__ if name not in _LIST_SLOTS and name not in _SET_SLOTS
)


def new_game(
    game_id: str = "ruff-honours-cotton",
    preset: str | None = None,
    overrides: Mapping[str, object] | None = None,
    *,
    seed: int,
    first_dealer: int | None = None,
    rules: Rules | None = None,
    deck: Sequence[Card | str] | None = None,
    start_scores: Sequence[int] | None = None,
    record_version: int = RECORD_VERSION,
) -> tuple[Game, list[Event]]:
    """Create and deal a game; returns it with the opening events.

    ``first_dealer`` fixes the first dealer's seat; otherwise the rules'
    ``first_dealer`` method chooses, from the seed. ``rules`` (a prebuilt
    :class:`Rules`) replaces ``game_id``/``preset``/``overrides``.

    Test hooks (stored in the record, so replays reproduce them):
    ``deck`` fixes the order of the first deal's pack (``deck[0]`` is dealt
    first; every card of the pack exactly once; see :func:`stacked_deck`);
    later deals are shuffled from the seed as usual. ``start_scores`` sets the
    score each side stands at when the first deal begins (each below the target).

    ``record_version`` replays a game as the record version it was stored under
    (:data:`RECORD_VERSION`, the default, for a new game): version 1 dealt
    ``first_diamond``'s face-up cards from seat 0, version 2 from a seat drawn
    from the seed.
    """
    if rules is None:
        rules = make_rules(game_id, preset, overrides)
    fixed_deck, fixed_scores = check_stacking(rules, deck, start_scores)
    if not 1 <= record_version <= RECORD_VERSION:
        raise ValueError(f"no record version {record_version}")
    return Game._create(rules, seed, first_dealer, fixed_deck, fixed_scores, record_version)


def check_stacking(
    rules: Rules, deck: Sequence[Card | str] | None, start_scores: Sequence[int] | None
) -> tuple[tuple[Card, ...] | None, tuple[int, ...] | None]:
    """``new_game``'s test hooks checked and normalised (ValueError if the deck or scores are wrong)."""
    fixed_deck: tuple[Card, ...] | None = None
    fixed_scores: tuple[int, ...] | None = None
    if deck is not None:
        fixed_deck = tuple(c if isinstance(c, Card) else Card.parse(c) for c in deck)
        pack = deck_with_jokers(rules.jokers, rules.removed_ranks)
        if sorted(c.index for c in fixed_deck) != [c.index for c in pack]:
            raise ValueError(f"deck must hold each card of the {rules.deck_size}-card pack once")
    if start_scores is not None:
        fixed_scores = tuple(int(s) for s in start_scores)
        if len(fixed_scores) != rules.sides or not all(
            0 <= s < rules.target_score for s in fixed_scores
        ):
            raise ValueError(
                f"start_scores needs {rules.sides} scores, each 0..{rules.target_score - 1}"
            )
    return fixed_deck, fixed_scores


def replay(record: Mapping[str, Any]) -> Game:
    """Alias of :meth:`Game.from_record`."""
    return Game.from_record(record)


def cards_text(cards: Iterable[Card]) -> str:
    """``"A♠ K♠ 10♥"`` for display."""
    return " ".join(c.pretty for c in cards)
