"""The game state machine: deal, turn-up, ruff, Can-ye, tricks, scoring, matches.

Use :func:`new_game` to start, :meth:`Game.legal_actions` to ask what a seat may
do, :meth:`Game.apply` to act (it returns the events), :meth:`Game.observe` for
what one seat may see. Every rule of every game lives here (and in
:mod:`engine.rules` for the configuration); nothing outside the engine decides
legality or scores.

Determinism: a game is fully fixed by its rules, seed, optional first dealer,
optional stacked first deck and start scores, and action log. Deal ``k`` of a
session (counting from 1 across the games of a match) is shuffled by a
Fisher-Yates pass driven by ``random.Random(f"{seed}:deal:{k}").getrandbits``:
the very draws ``random.shuffle`` makes on CPython 3.11, written out here so the
deals of a seed do not depend on the Python version. No RNG state is stored.

Speed: the hot paths (a Play when cards are being played, a ruffer's lay-out,
the end of a trick) are inlined and skip the general checks only where those
checks cannot fail; every other action goes through :meth:`Game.check`. See
``python -m engine.bench``.

Testing hooks: ``new_game(..., deck=...)`` fixes the order of the first deal's
deck (``deck[0]`` is dealt first, RULES.md §0.1) and ``start_scores=`` the score
each side stands at when the first deal begins; :func:`stacked_deck` builds the
deck that deals chosen hands and stock. Both are stored in the record, so
replays reproduce them.

Decisions where RULES.md is silent:

* ``deal_pattern = packets4`` deals packets of four clockwise from eldest "until
  every hand is full" (RULES.md §0.1): a packet never overfills a hand, so with
  13-card hands the fourth round is one card each.
* The Can-ye window ``before_first_lead`` is a short declaration phase: each seat
  entitled to call (its side at the call point, holding two or more honours) is
  asked in turn from eldest and answers Call / Show / Pass before the first lead.
  Only entitled seats are asked. The partner's answer is automatic and truthful.
* Under ``can_ye_window = before_own_first_card`` an entitled seat may call or
  show when it is its turn in the first trick, before it plays (whether leading
  or following). The partner "holds" the honours he held when play began, so an
  honour he has already played to the first trick still answers the call.
* ``ruff_mandatory = true`` takes the stock in automatically: the ruffer's only
  decision is his four discards.
* ``ruff_discard_restriction``: a restricted card may be laid out only when the
  ruffer has too few unrestricted cards left to complete four discards.
* ``first_leader = ruffer`` falls back to eldest when nobody ruffed.
* ``revoke_mode = penalty``: any card may be played; each side that revoked in a
  deal loses one point (not below zero) before tricks are scored.
* ``score_order = simultaneous``: if both sides reach the target, the higher
  score wins; an exact tie goes to the side that scored tricks.
* ``honours_can_win = not_at_target_minus_1`` looks at the score at the start of
  the deal, as the classic laws ("at the point of four") read.
"""

from __future__ import annotations

import json
import operator
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Final, SupportsIndex, cast

from .actions import (
    Action,
    CallCanYe,
    DeclineRuff,
    Discard,
    Pass,
    Play,
    ShowHonours,
    TakeRuff,
    decode_action,
    discard,
    play,
)
from .cards import (
    SUIT_MASKS,
    SUITS,
    Card,
    Rank,
    Suit,
    cards_from_mask,
    full_deck,
    mask_of,
    sort_hand,
)
from .events import (
    CanYeCalled,
    CardPlayed,
    DealerChosen,
    DealScored,
    DealStarted,
    Discarded,
    DiscardsDone,
    Event,
    GameOver,
    GameStarted,
    HandDealt,
    HonoursScored,
    HonoursShown,
    MatchOver,
    Passed,
    Revoked,
    RuffDeclined,
    RuffTaken,
    StockTaken,
    TrickWon,
    TrumpFixed,
)
from .rules import Rules, make_rules

__all__ = [
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

RECORD_VERSION: Final = 1
SNAPSHOT_VERSION: Final = 1


class IllegalAction(Exception):
    """An action the rules do not allow now. ``reason`` is short and human."""

    def __init__(self, reason: str, code: str = "illegal") -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class RecordError(ValueError):
    """A saved record or snapshot that cannot be loaded."""


class Phase:
    """Names of the phases of a deal (plain strings, stable in snapshots)."""

    RUFF = "ruff"  # the ruffer decides to take the stock or decline
    DISCARD = "discard"  # the ruffer lays out four cards
    CAN_YE = "can_ye"  # declarations before the first lead
    PLAY = "play"
    OVER = "over"  # the match is decided


HONOUR_RANKS: Final = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)
_PLAY_BY_INDEX: Final = [play(Card.from_index(i)) for i in range(52)]
_DISCARD_BY_INDEX: Final = [discard(Card.from_index(i)) for i in range(52)]
_CARD_BY_INDEX: Final = [Card.from_index(i) for i in range(52)]
_BIT_BY_INDEX: Final = [1 << i for i in range(52)]
_ACE_OF: Final = {suit: Card.of(Rank.ACE, suit) for suit in SUITS}
_SUIT_MASK_LIST: Final = tuple(suit.mask for suit in SUITS)
_TAKE: Final = TakeRuff()
_DECLINE: Final = DeclineRuff()
_CALL: Final = CallCanYe()
_SHOW: Final = ShowHonours()
_PASS: Final = Pass()

# Events are tuples underneath (see engine.events); the hot paths build the
# commonest ones with tuple.__new__ directly, skipping the keyword-aware __new__.
_new: Final[Callable[..., Any]] = tuple.__new__


def honours_mask(trump: Suit | None) -> int:
    """Bitmask of the A K Q J of trumps (0 in a no-trump deal)."""
    return 0 if trump is None else trump.honours_mask


def trick_winner(cards: Sequence[Card], trump: Suit | None) -> int:
    """Index (into ``cards``, play order) of the card that wins the trick.

    The highest trump wins if any trump was played, else the highest card of the
    suit led; a card of any other suit never wins.
    """
    best = 0
    best_card = cards[0]
    for i in range(1, len(cards)):
        card = cards[i]
        if card.suit is best_card.suit:
            # within a suit the card index follows the rank (and is a plain int,
            # cheaper to compare than the Rank enum)
            if card.index > best_card.index:
                best, best_card = i, card
        elif card.suit is trump:
            best, best_card = i, card
    return best


def _bit_count(mask: int) -> int:
    return mask.bit_count()


# The Play actions of every one-suit holding: ``_PLAY_TABLES[shift][bits]`` for a
# suit's 13 bits (``shift`` = Card.suit_shift: 0, 13, 26 or 39), in card-index
# order. A hand's legal plays are then at most four table entries; the tables
# (4 x 8192 tuples, some 25 ms) are built when the first game is created.
_PLAY_TABLES: Final[list[list[tuple[Action, ...]]]] = [[] for _ in range(40)]
_DISCARDS_CACHE: Final[dict[int, tuple[Action, ...]]] = {}


def _build_play_tables() -> None:
    for shift in (0, 13, 26, 39):
        table: list[tuple[Action, ...]] = [()] * 8192
        for bits in range(1, 8192):
            high = bits.bit_length() - 1
            table[bits] = (*table[bits ^ (1 << high)], _PLAY_BY_INDEX[shift + high])
        _PLAY_TABLES[shift] = table


def _plays_of(mask: int) -> list[Action]:
    """The Play actions for every card in ``mask``, in card-index order."""
    t = _PLAY_TABLES
    return [
        *t[0][mask & 8191],
        *t[13][mask >> 13 & 8191],
        *t[26][mask >> 26 & 8191],
        *t[39][mask >> 39],
    ]


def _cache_discards(mask: int) -> tuple[Action, ...]:
    result = _DISCARDS_CACHE[mask] = tuple(
        _DISCARD_BY_INDEX[c.index] for c in cards_from_mask(mask)
    )
    return result


def _discards_of(mask: int) -> list[Action]:
    """The Discard actions for every card in ``mask``, in card-index order."""
    acts: list[Action] = []
    cache = _DISCARDS_CACHE
    for suit_mask in _SUIT_MASK_LIST:
        sub = mask & suit_mask
        if sub:
            found = cache.get(sub)
            acts += found if found is not None else _cache_discards(sub)
    return acts


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


class _Facts:
    """Constants derived once from a :class:`Rules` for the hot paths of a game."""

    __slots__ = (
        "rules",
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
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules  # the last Rules object seen with these values
        self.sides = rules.sides
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
        self.deck_indices = tuple(c.index for c in full_deck(rules.removed_ranks))
        self.plans = tuple(_deal_plan(rules, dealer) for dealer in range(rules.players))


_FACTS: Final[dict[Rules, _Facts]] = {}
_FACTS_BY_ID: Final[dict[int, _Facts]] = {}


def _facts_of(rules: Rules) -> _Facts:
    facts = _FACTS_BY_ID.get(id(rules))
    if facts is not None and facts.rules is rules:  # the same object (ids can be reused)
        return facts
    facts = _FACTS.get(rules)  # equal rules built again: hashes every field
    if facts is None:
        if len(_FACTS) > 256:  # many ad-hoc rule sets (tests, tools): keep it bounded
            _FACTS.clear()
        facts = _FACTS[rules] = _Facts(rules)
    if len(_FACTS_BY_ID) > 1024:
        _FACTS_BY_ID.clear()
    _FACTS_BY_ID[id(rules)] = facts
    facts.rules = rules
    return facts


# --------------------------------------------------------------------------- dealing

_DealPlan = tuple[
    tuple[int, ...],  # seat of each dealt deck index
    tuple[Any, ...],  # per seat: itemgetter of its deck indices (dealing order)
    tuple[int, ...],  # per seat: deck index of its last card
]
_DEAL_PLANS: Final[dict[tuple[str, int, int, int], _DealPlan]] = {}


def deal_seats(rules: Rules, dealer: int) -> list[int]:
    """The seat each deck index is dealt to (RULES.md §0.1 deal patterns).

    ``result[i]`` is the seat receiving ``deck[i]``; indices past the end of the
    list stay undealt (the stock). Dealing starts at eldest, left of ``dealer``.
    """
    return list(_deal_plan(rules, dealer)[0])


def _deal_plan(rules: Rules, dealer: int) -> _DealPlan:
    key = (rules.deal_pattern, rules.players, rules.hand_size, dealer)
    plan = _DEAL_PLANS.get(key)
    if plan is None:
        plan = _DEAL_PLANS[key] = _make_deal_plan(*key)
    return plan


def _make_deal_plan(pattern: str, n: int, hand_size: int, dealer: int) -> _DealPlan:
    if pattern == "singles":
        packets = [1]
    elif pattern == "packets4":
        packets = [4]
    elif pattern == "solo_33331":  # four rounds of threes, then single cards
        packets = [3, 3, 3, 3, 1]
    else:  # pragma: no cover - rules validation rejects unknown patterns
        raise ValueError(f"unknown deal pattern {pattern!r}")
    seats: list[int] = []
    counts = [0] * n
    total = n * hand_size
    round_no = 0
    while len(seats) < total:
        size = packets[min(round_no, len(packets) - 1)]
        for k in range(n):
            seat = (dealer + 1 + k) % n
            take = min(size, hand_size - counts[seat])
            seats.extend([seat] * take)
            counts[seat] += take
        round_no += 1
    positions = [[i for i, s in enumerate(seats) if s == seat] for seat in range(n)]
    return (
        tuple(seats),
        tuple(itemgetter(*pos) for pos in positions),
        tuple(pos[-1] for pos in positions),
    )


# Fisher-Yates steps (i, i + 1, bits of i + 1) per deck size.
_SHUFFLE_STEPS: Final[dict[int, tuple[tuple[int, int, int], ...]]] = {}


def _shuffled(indices: tuple[int, ...], rng_seed: str) -> list[int]:
    """The pack's card indices shuffled exactly as CPython 3.11's ``random.shuffle``.

    ``random.shuffle`` swaps each position ``i`` (from the top down) with a
    ``j`` drawn by ``getrandbits(k)``, ``k`` the bit length of ``i + 1``, and
    redraws while ``j > i``. Written out here, it skips ``_randbelow``'s Python
    call per card and gives the same deck on any Python version.
    """
    deck = list(indices)
    steps = _SHUFFLE_STEPS.get(len(deck))
    if steps is None:
        steps = _SHUFFLE_STEPS[len(deck)] = tuple(
            (i, i + 1, (i + 1).bit_length()) for i in range(len(deck) - 1, 0, -1)
        )
    getrandbits = random.Random(rng_seed).getrandbits
    for i, m, k in steps:
        j = getrandbits(k)
        while j >= m:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def stacked_deck(
    rules: Rules,
    dealer: int,
    hands: Mapping[int, Sequence[Card | str]] | Sequence[Sequence[Card | str]],
    stock: Sequence[Card | str] = (),
) -> list[Card]:
    """The deck order that deals ``hands`` when ``dealer`` deals (a test hook).

    ``hands`` maps seats (or lists by seat) to cards; each seat's cards fill its
    deal positions in dealing order, so the last card listed for a full hand is
    the last card dealt to it (the turn-up under ``turn_up_card = dealer_last``).
    ``stock`` fills the undealt positions in order (``stock[0]`` is the top card,
    the Ruff and Honours turn-up). Cards not mentioned fill the remaining
    positions in card-index order. Use it with ``new_game(..., deck=...)``.
    """
    by_seat = dict(hands) if isinstance(hands, Mapping) else dict(enumerate(hands))
    pack = full_deck(rules.removed_ranks)
    in_pack = set(pack)
    seats = _deal_plan(rules, dealer)[0]
    deck: list[Card | None] = [None] * len(pack)
    used: set[Card] = set()

    def place(card_like: Card | str, slots: list[int], what: str) -> None:
        card = card_like if isinstance(card_like, Card) else Card.parse(card_like)
        if card not in in_pack:
            raise ValueError(f"{card} is not in this game's pack")
        if card in used:
            raise ValueError(f"{card} is given twice")
        if not slots:
            raise ValueError(f"too many cards for {what}")
        deck[slots.pop(0)] = card
        used.add(card)

    for seat, cards in by_seat.items():
        if not 0 <= seat < rules.players:
            raise ValueError(f"no seat {seat}")
        slots = [i for i, s in enumerate(seats) if s == seat]
        for c in cards:
            place(c, slots, f"seat {seat}")
    stock_slots = list(range(len(seats), len(pack)))
    for c in stock:
        place(c, stock_slots, "the stock")
    rest = iter(c for c in pack if c not in used)
    return [c if c is not None else next(rest) for c in deck]


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything one seat may know, and nothing more.

    This is the hidden-information boundary: renderers and AI players get a
    view, never the :class:`Game`. Other hands appear only as sizes; the stock
    is never listed (the ruffer alone sees the cards he took in and laid out).
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
    rules: Rules | None = None  # the table's rules, overrides included (None only in hand-built views)

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4

    @property
    def side(self) -> int:
        return self.seat % 2

    @property
    def led_suit(self) -> Suit | None:
        return self.trick[0][1].suit if self.trick else None

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat


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
        "revoked",
        "winner",
        "match_winner",
        "rubber_points",
        "_n",
        "_prevent",
        "_partnerships",
        "_tricks_per_deal",
        "_dealt_in",
        "_facts",
        "_fast",
    )

    rules: Rules
    seed: int
    first_dealer_choice: int | None
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
    revoked: set[int]
    winner: int | None
    match_winner: int | None
    rubber_points: tuple[int, ...]
    _n: int
    _prevent: bool
    _partnerships: bool
    _tricks_per_deal: int
    _dealt_in: int
    _facts: _Facts
    _fast: int  # the seat whose Play may take the fast path, else -1 (see _sync_fast)

    # ------------------------------------------------------------------ creation

    @classmethod
    def _blank(
        cls,
        rules: Rules,
        seed: int,
        first_dealer: int | None,
        deck: tuple[Card, ...] | None,
        start_scores: tuple[int, ...] | None,
    ) -> Game:
        game = object.__new__(cls)
        game.rules = rules
        game.seed = seed
        game.first_dealer_choice = first_dealer
        game.deck_choice = deck
        game.start_scores_choice = start_scores
        game._n = rules.players
        game._prevent = rules.revoke_mode == "prevent"
        game._partnerships = rules.partnerships
        game._tricks_per_deal = rules.tricks_per_deal
        game._dealt_in = rules.players * rules.hand_size
        game._facts = _facts_of(rules)
        game._fast = -1
        game.log = []
        if not _PLAY_TABLES[0]:
            _build_play_tables()
        return game

    @classmethod
    def _create(
        cls,
        rules: Rules,
        seed: int,
        first_dealer: int | None,
        deck: tuple[Card, ...] | None = None,
        start_scores: tuple[int, ...] | None = None,
    ) -> tuple[Game, list[Event]]:
        game = cls._blank(rules, seed, first_dealer, deck, start_scores)
        n_sides = rules.sides
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
            events.append(game._choose_dealer())
        game._start_game(events, rotate=False)
        game._sync_fast()
        return game, events

    def _sync_fast(self) -> None:
        """Note whether the next Play can skip the general checks.

        It can when cards are being played, revokes are prevented and no Can-ye
        window is open: then :meth:`apply` and :meth:`legal_actions` need only
        the seat, its hand and the suit led. Called after every change of state.
        """
        self._fast = (
            self.to_play
            if self.phase == "play" and self._prevent and not self.can_ye_open
            else -1
        )

    def _choose_dealer(self) -> DealerChosen:
        rng = random.Random(f"{self.seed}:dealer")
        if self.rules.first_dealer == "random":
            self.dealer = rng.randrange(self.rules.players)
            return DealerChosen(self.dealer, "random")
        # draw_high: each remaining contender draws; highest rank deals; ties redraw
        contenders = list(range(self.rules.players))
        draws: list[tuple[int, Card]] = []
        deck = full_deck(self.rules.removed_ranks)
        while True:
            rng.shuffle(deck)
            round_draws = list(zip(contenders, deck, strict=False))
            draws.extend(round_draws)
            best = max(int(c.rank) for _, c in round_draws)
            contenders = [s for s, c in round_draws if int(c.rank) == best]
            if len(contenders) == 1:
                self.dealer = contenders[0]
                return DealerChosen(self.dealer, "draw_high", tuple(draws))

    def _start_game(self, events: list[Event], rotate: bool) -> None:
        self.game_no += 1
        self.deal_no = 0
        if self.game_no == 1 and self.start_scores_choice is not None:
            self.scores = list(self.start_scores_choice)
        else:
            self.scores = [0] * self.rules.sides
        self.winner = None
        events.append(GameStarted(self.game_no))
        self._start_deal(events, rotate=rotate)

    # ------------------------------------------------------------------ the deal

    def _start_deal(self, events: list[Event], rotate: bool = True) -> None:
        rules = self.rules
        n = self._n
        if rotate:
            self.dealer = (self.dealer + 1) % n
        dealer = self.dealer
        self.eldest = eldest = (dealer + 1) % n
        self.deal_no += 1
        self.deals_total += 1
        self.start_scores = list(self.scores)
        events.append(_new(DealStarted, (self.game_no, self.deal_no, dealer, eldest)))

        facts = self._facts
        if self.deals_total == 1 and self.deck_choice is not None:
            deck = [c.index for c in self.deck_choice]
        else:
            deck = _shuffled(facts.deck_indices, f"{self.seed}:deal:{self.deals_total}")
        _, getters, last_index = facts.plans[dealer]
        hands = []
        bit_of = _BIT_BY_INDEX.__getitem__
        card_of = _CARD_BY_INDEX.__getitem__
        for seat in range(n):
            dealt = sorted(getters[seat](deck))
            hands.append(sum(map(bit_of, dealt)))
            events.append(_new(HandDealt, (seat, tuple(map(card_of, dealt)))))
        self.hands = hands
        self.dealt = list(hands)
        self.stock = list(map(card_of, deck[self._dealt_in :]))

        # trumps
        self.turn_up = None
        self.turn_up_holder = None
        self.turn_up_public = False
        if rules.trump_mode == "cycle":
            index = (self.deal_no if rules.trump_cycle_basis == "per_game" else self.deals_total) - 1
            self.trump = rules.trump_cycle[index % len(rules.trump_cycle)]
        else:
            if rules.turn_up_source == "stock_top":
                card = self.stock[0]
            else:
                holder = dealer if rules.turn_up_source == "dealer_last" else eldest
                card = _CARD_BY_INDEX[deck[last_index[holder]]]
                self.turn_up_holder = holder
            self.turn_up = card
            self.turn_up_public = True
            self.trump = card.suit
        events.append(_new(TrumpFixed, (self.trump, self.turn_up, self.turn_up_holder)))

        # per-deal bookkeeping
        self.ruffer = None
        self.ruff_reason = ""
        self.ruff_state = "none"
        self.stock_taken = ()
        self.discards = []
        self.discards_left = 0
        self.held_at_play = []
        self.can_ye_queue = []
        self.can_ye_open = set()
        self.calls = []
        self.shown = []
        self.trick = []
        self.trick_no = 1
        self.tricks = [0] * rules.sides
        self.completed = []
        self.revoked = set()
        self.leader = self.to_play = eldest

        if rules.ruff:
            self._begin_ruff(events)
        else:
            self._after_ruff(events)

    def _begin_ruff(self, events: list[Event]) -> None:
        assert self.trump is not None
        ace = _ACE_OF[self.trump]
        ruffer: int | None = None
        reason = ""
        for seat in range(self._n):
            if self.hands[seat] & ace.bit:
                ruffer, reason = seat, "holds_ace"
        if ruffer is None:
            if self.turn_up is ace:
                ruffer, reason = self.dealer, "turned_ace"
            elif self.rules.ruff_if_ace_in_stock == "dealer":
                ruffer, reason = self.dealer, "ace_in_stock"
        if ruffer is None:
            self._after_ruff(events)
            return
        self.ruffer = ruffer
        self.ruff_reason = reason
        self.ruff_state = "pending"
        if self.rules.ruff_mandatory:
            self._take_stock(events)
        else:
            self.phase = Phase.RUFF

    def _take_stock(self, events: list[Event]) -> None:
        assert self.ruffer is not None
        seat = self.ruffer
        self.stock_taken = tuple(self.stock)
        self.hands[seat] |= mask_of(self.stock)
        self.stock = []
        self.ruff_state = "taken"
        self.discards_left = len(self.stock_taken)
        self.phase = Phase.DISCARD
        events.append(RuffTaken(seat, self.ruff_reason))
        events.append(StockTaken(seat, tuple(sort_hand(self.stock_taken, self.trump))))

    def _after_ruff(self, events: list[Event]) -> None:
        """Hands are final for the deal: note honours, open Can-ye, then play."""
        self.held_at_play = list(self.hands)
        rules = self.rules
        if rules.first_leader == "ruffer" and self.ruff_state == "taken" and self.ruffer is not None:
            self.leader = self.to_play = self.ruffer
        facts = self._facts
        if facts.can_ye and (facts.call_any or facts.call_point in self.start_scores):
            hon = honours_mask(self.trump)
            eligible = []
            for k in range(self._n):
                seat = (self.eldest + k) % self._n
                side = rules.side_of(seat)
                if rules.can_call_at(self.start_scores[side]) and _bit_count(self.hands[seat] & hon) >= 2:
                    eligible.append(seat)
            if eligible and rules.can_ye_window == "before_first_lead":
                self.can_ye_queue = eligible
                self.phase = Phase.CAN_YE
                return
            self.can_ye_open = set(eligible)
        self.phase = Phase.PLAY

    # ------------------------------------------------------------------ queries

    @property
    def n_players(self) -> int:
        return self._n

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
        fast = self._fast
        if fast >= 0:
            return fast
        phase = self.phase
        if phase == "play":
            return self.to_play
        if phase == "ruff" or phase == "discard":
            return self.ruffer
        if phase == "can_ye":
            return self.can_ye_queue[0]
        return None

    def hand(self, seat: int) -> list[Card]:
        """The cards in ``seat``'s hand, sorted for display."""
        return sort_hand(cards_from_mask(self.hands[seat]), self.trump)

    def honours_held(self, seat: int) -> list[Card]:
        """The honours (A K Q J of trumps) now in ``seat``'s hand."""
        return list(cards_from_mask(self.hands[seat] & honours_mask(self.trump)))

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it is not its turn).

        Built on the same rules as :meth:`check`, so the two never disagree.
        """
        if seat == self._fast >= 0:
            # cards are being played, revokes prevented, no Can-ye window open
            hand = self.hands[seat]
            trick = self.trick
            if trick:
                shift = trick[0].suit_shift
                follow = hand >> shift & 8191
                if follow:  # must follow suit
                    return list(_PLAY_TABLES[shift][follow])
            return _plays_of(hand)
        phase = self.phase
        if phase == "play":
            if seat != self.to_play:
                return []
            mask = self.hands[seat]
            trick = self.trick
            if trick and self._prevent:
                follow = mask & trick[0].suit_mask
                if follow:
                    mask = follow
            acts = _plays_of(mask)
            if self.can_ye_open and seat in self.can_ye_open:
                acts.extend(self._claim_options(seat))
            return acts
        if phase == "ruff":
            if seat != self.ruffer:
                return []
            return [_TAKE] if self.rules.ruff_mandatory else [_TAKE, _DECLINE]
        if phase == "discard":
            if seat != self.ruffer:
                return []
            return _discards_of(self._discardable(seat))
        if phase == "can_ye":
            if seat != self.can_ye_queue[0]:
                return []
            return [*self._claim_options(seat), _PASS]
        return []

    def _claim_options(self, seat: int) -> list[Action]:
        held = _bit_count(self.hands[seat] & honours_mask(self.trump))
        if held == 2:
            return [_CALL]
        if held >= 3:
            return [_SHOW]
        return []

    def _discardable(self, seat: int) -> int:
        hand = self.hands[seat]
        restriction = self.rules.ruff_discard_restriction
        if restriction == "none" or self.trump is None:
            return hand
        banned = honours_mask(self.trump) if restriction == "no_honours" else SUIT_MASKS[self.trump]
        free = hand & ~banned
        return free if _bit_count(free) >= self.discards_left else hand

    def check(self, seat: int, action: Action) -> None:
        """Raise :class:`IllegalAction` (with a human reason) unless legal now."""
        seat = _as_seat(seat, self._n)
        phase = self.phase
        if phase == Phase.OVER:
            raise IllegalAction("This game is over.", "game_over")
        if isinstance(action, Play):
            if phase != Phase.PLAY:
                raise IllegalAction(self._not_now(), "wrong_phase")
            if seat != self.to_play:
                raise IllegalAction("It is not your turn.", "not_your_turn")
            card = action.card
            hand = self.hands[seat]
            if not hand & card.bit:
                raise IllegalAction(f"{card.pretty} is not in your hand.", "not_in_hand")
            if self.trick and self._prevent:
                led = self.trick[0].suit
                if card.suit is not led and hand & SUIT_MASKS[led]:
                    raise IllegalAction(
                        f"You must follow suit: you hold {led.symbol}.", "must_follow"
                    )
            return
        if isinstance(action, (TakeRuff, DeclineRuff)):
            if phase != Phase.RUFF:
                raise IllegalAction("There is no ruff to decide now.", "wrong_phase")
            if seat != self.ruffer:
                raise IllegalAction("Only the holder of the trump ace may ruff.", "not_your_turn")
            if isinstance(action, DeclineRuff) and self.rules.ruff_mandatory:
                raise IllegalAction("The ruff is compulsory in this game.", "mandatory")
            return
        if isinstance(action, Discard):
            if phase != Phase.DISCARD:
                raise IllegalAction("There is nothing to lay out now.", "wrong_phase")
            if seat != self.ruffer:
                raise IllegalAction("Only the ruffer lays out cards.", "not_your_turn")
            card = action.card
            if not self.hands[seat] & card.bit:
                raise IllegalAction(f"{card.pretty} is not in your hand.", "not_in_hand")
            if not self._discardable(seat) & card.bit:
                what = "an honour" if self.rules.ruff_discard_restriction == "no_honours" else "a trump"
                raise IllegalAction(f"You may not lay out {what} in this game.", "restricted")
            return
        if isinstance(action, (CallCanYe, ShowHonours, Pass)):
            if phase == Phase.CAN_YE:
                if seat != self.can_ye_queue[0]:
                    raise IllegalAction("It is not your turn to declare.", "not_your_turn")
                if isinstance(action, Pass):
                    return
            elif phase == Phase.PLAY and seat in self.can_ye_open and seat == self.to_play:
                if isinstance(action, Pass):
                    raise IllegalAction("Just play a card to let the call go.", "wrong_phase")
            else:
                raise IllegalAction("You cannot call honours now.", "wrong_phase")
            held = _bit_count(self.hands[seat] & honours_mask(self.trump))
            if isinstance(action, CallCanYe) and held != 2:
                raise IllegalAction("Can-ye needs exactly two honours in your hand.", "bad_call")
            if isinstance(action, ShowHonours) and held < 3:
                raise IllegalAction("Showing needs three or four honours.", "bad_call")
            return
        raise IllegalAction(f"Unknown action {action!r}.", "unknown")

    def _not_now(self) -> str:
        if self.phase == Phase.RUFF:
            return "Wait: the ruff is being decided."
        if self.phase == Phase.DISCARD:
            return "Wait: the ruffer is laying out four cards."
        if self.phase == Phase.CAN_YE:
            return "Wait: honours are being declared."
        return "You cannot do that now."

    # ------------------------------------------------------------------ acting

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Check and perform ``action`` for ``seat``; return the events it caused."""
        events: list[Event]
        if seat == self._fast >= 0 and action.__class__ is Play and seat.__class__ is int:
            # hot path (see _sync_fast): the checks of check() for a Play, inlined
            card = action.card
            bit = card.bit
            hands = self.hands
            hand = hands[seat]
            trick = self.trick
            if not hand & bit or (
                trick
                and card.suit is not trick[0].suit
                and hand & trick[0].suit_mask
            ):
                self.check(seat, action)  # raises with the reason
                raise IllegalAction("That card cannot be played now.")  # pragma: no cover
            self.log.append((seat, action))
            hands[seat] = hand ^ bit
            if card is self.turn_up:
                self.turn_up_public = False
            trick.append(card)
            played: Event = _new(CardPlayed, (seat, card, self.trick_no))
            if len(trick) < self._n:
                self.to_play = self._fast = (seat + 1) % self._n
                return [played]
            out = [played]
            self._end_trick(out)
            # _sync_fast, inlined (revokes are prevented on this path)
            self._fast = (
                self.to_play if self.phase == "play" and not self.can_ye_open else -1
            )
            return out
        if (
            action.__class__ is Discard
            and seat == self.ruffer
            and self.phase == "discard"
            and seat.__class__ is int
            and self.rules.ruff_discard_restriction == "none"
        ):
            # hot path for the ruffer's lay-outs: the checks of check(), inlined
            card = action.card
            hands = self.hands
            if not hands[seat] & card.bit:
                self.check(seat, action)  # raises with the reason
                raise IllegalAction("That card cannot be laid out now.")  # pragma: no cover
            self.log.append((seat, action))
            events = []
            self._discard(seat, card, events)
            self._sync_fast()
            return events
        events = []
        seat = _as_seat(seat, self._n)
        self.check(seat, action)
        self.log.append((seat, action))
        if isinstance(action, Play):
            self._play(seat, action.card, events)
        elif isinstance(action, Discard):
            self._discard(seat, action.card, events)
        elif isinstance(action, TakeRuff):
            self._take_stock(events)
        elif isinstance(action, DeclineRuff):
            self.ruff_state = "declined"
            events.append(RuffDeclined(seat))
            self._after_ruff(events)
        elif isinstance(action, CallCanYe):
            self._call(seat, events)
        elif isinstance(action, ShowHonours):
            cards = tuple(self.honours_held(seat))
            self.shown.extend((seat, c) for c in cards)
            self.calls.append((seat, "show"))
            events.append(HonoursShown(seat, cards))
            self._win_by_call(self.rules.side_of(seat), "show", events)
        else:  # Pass
            self.calls.append((seat, "pass"))
            events.append(Passed(seat))
            self._next_declarer(events)
        self._sync_fast()
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

    def _discard(self, seat: int, card: Card, events: list[Event]) -> None:
        self.hands[seat] &= ~card.bit
        self.discards.append(card)
        self.discards_left = left = self.discards_left - 1
        events.append(_new(Discarded, (seat, card, left)))
        if left == 0:
            events.append(DiscardsDone(seat))
            self._after_ruff(events)

    def _call(self, seat: int, events: list[Event]) -> None:
        partner = (seat + 2) % self._n
        hon = honours_mask(self.trump)
        # honours as held when play began (see the module docstring)
        held = self.held_at_play
        partner_honours = held[partner] & hon
        self.can_ye_open.discard(seat)
        if partner_honours:
            shown = tuple(cards_from_mask((held[seat] | partner_honours) & hon))
            for c in shown:
                owner = seat if held[seat] & c.bit else partner
                self.shown.append((owner, c))
            self.calls.append((seat, "can_ye_answered"))
            events.append(CanYeCalled(seat, partner, True, shown))
            self._win_by_call(self.rules.side_of(seat), "can_ye", events)
        else:
            self.calls.append((seat, "can_ye_unanswered"))
            events.append(CanYeCalled(seat, partner, False, ()))
            if self.phase == Phase.CAN_YE:
                self._next_declarer(events)

    def _next_declarer(self, events: list[Event]) -> None:
        self.can_ye_queue.pop(0)
        if not self.can_ye_queue:
            self.phase = Phase.PLAY

    def _win_by_call(self, side: int, how: str, events: list[Event]) -> None:
        self.scores[side] = self.rules.target_score
        self._game_over(side, how, events)

    def _play(self, seat: int, card: Card, events: list[Event]) -> None:
        """Play a checked card (the general path; :meth:`apply` inlines the common case)."""
        hand = self.hands[seat]
        trick = self.trick
        if trick and not self._prevent:
            led = trick[0].suit
            if card.suit is not led and hand & trick[0].suit_mask:
                self.revoked.add(self.rules.side_of(seat))
                events.append(Revoked(seat, self.trick_no))
        self.hands[seat] = hand & ~card.bit
        if self.turn_up is card:
            self.turn_up_public = False
        if self.can_ye_open:
            self.can_ye_open.discard(seat)
        trick.append(card)
        events.append(_new(CardPlayed, (seat, card, self.trick_no)))
        if len(trick) < self._n:
            self.to_play = (seat + 1) % self._n
            return
        self._end_trick(events)

    def _end_trick(self, events: list[Event]) -> None:
        trick = self.trick
        leader = self.leader
        if len(trick) == 4:
            # trick_winner, unrolled for the four-handed games
            c0, c1, c2, c3 = trick
            trump = self.trump
            best, at = c0, 0
            if c1.suit is best.suit:
                if c1.index > best.index:
                    best, at = c1, 1
            elif c1.suit is trump:
                best, at = c1, 1
            if c2.suit is best.suit:
                if c2.index > best.index:
                    best, at = c2, 2
            elif c2.suit is trump:
                best, at = c2, 2
            if c3.suit is best.suit:
                if c3.index > best.index:
                    at = 3
            elif c3.suit is trump:
                at = 3
            winner = (leader + at) % 4
        else:
            winner = (leader + trick_winner(trick, self.trump)) % self._n
        side = winner % 2 if self._partnerships else winner
        tricks = self.tricks
        tricks[side] += 1
        cards = tuple(trick)
        trick_no = self.trick_no
        self.completed.append((leader, cards, winner))
        events.append(_new(TrickWon, (trick_no, leader, cards, winner, side, tuple(tricks))))
        self.trick = []
        if self.can_ye_open:
            self.can_ye_open = set()  # any window closes after the first trick
        if trick_no >= self._tricks_per_deal:
            self._score_deal(events)
            return
        self.trick_no = trick_no + 1
        self.leader = self.to_play = winner


    # ------------------------------------------------------------------ scoring

    def honour_counts(self) -> list[int]:
        """Honours per side for this deal under ``honours_basis``."""
        counts = [0] * self._facts.sides
        trump = self.trump
        if trump is None:
            return counts
        hon = trump.honours_mask
        partnerships = self._partnerships
        if self.rules.honours_basis == "captured":
            for _, cards, winner in self.completed:
                for card in cards:
                    if card.bit & hon:
                        counts[winner % 2 if partnerships else winner] += 1
            return counts
        hands = self.dealt if self.rules.honours_basis == "dealt" else self.held_at_play
        for seat, hand in enumerate(hands):
            counts[seat % 2 if partnerships else seat] += (hand & hon).bit_count()
        return counts

    def _score_deal(self, events: list[Event]) -> None:
        """Score a played deal (RULES.md §1.7): revokes, tricks, check, honours, check."""
        facts = self._facts
        scores = self.scores
        sides = facts.sides
        penalty = [0] * sides
        for side in self.revoked:
            if scores[side] > 0:
                penalty[side] = -1
                scores[side] -= 1
        half = facts.half
        trick_points = [t - half if t > half else 0 for t in self.tricks]
        for side in range(sides):
            scores[side] += trick_points[side]
        honour_points = [0] * sides
        target = facts.target
        if not facts.simultaneous and max(scores) >= target:
            self._reach_target(events, trick_points, honour_points, penalty, "tricks")
            return
        if facts.honours:
            counts = self.honour_counts()
            notes: list[str] = []
            values = facts.honour_values
            for side in range(sides):
                raw = values.get(counts[side], 0)
                if not raw:
                    continue
                start = self.start_scores[side]
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
                note = _no_honours_note(counts, self.trump)
            events.append(_new(HonoursScored, (tuple(counts), tuple(honour_points), note)))
        if max(scores) >= target:
            how = "honours"
            if facts.simultaneous:
                how = "tricks" if any(trick_points) else "honours"
            self._reach_target(events, trick_points, honour_points, penalty, how)
            return
        events.append(self._deal_scored(trick_points, honour_points, penalty))
        self._start_deal(events)

    def _deal_scored(
        self, trick_points: list[int], honour_points: list[int], penalty: list[int]
    ) -> Event:
        return _new(  # type: ignore[no-any-return]
            DealScored,
            (
                self.game_no,
                self.deal_no,
                tuple(self.tricks),
                tuple(trick_points),
                tuple(honour_points),
                tuple(penalty),
                tuple(self.scores),
            ),
        )

    def _reach_target(
        self,
        events: list[Event],
        trick_points: list[int],
        honour_points: list[int],
        penalty: list[int],
        how: str,
    ) -> None:
        """A side reached the target: the deal is scored and the game is over."""
        scores = self.scores
        target = self._facts.target
        reached = [s for s in range(len(scores)) if scores[s] >= target]
        if len(reached) > 1:
            best = max(scores[s] for s in reached)
            top = [s for s in reached if scores[s] == best]
            with_tricks = [s for s in top if trick_points[s] > 0]
            winner = with_tricks[0] if with_tricks else top[0]
        else:
            winner = reached[0]
        events.append(self._deal_scored(trick_points, honour_points, penalty))
        self._game_over(winner, how, events)

    def _game_over(self, side: int, how: str, events: list[Event]) -> None:
        rules = self.rules
        self.winner = side
        self.games_won[side] += 1
        loser_best = max((self.scores[s] for s in range(rules.sides) if s != side), default=0)
        self.game_values[side] += self._game_value(loser_best)
        events.append(GameOver(self.game_no, side, tuple(self.scores), how, tuple(self.games_won)))
        if self.games_won[side] >= rules.games_to_win_match:
            self.match_winner = side
            self.phase = Phase.OVER
            if rules.game_id == "whist-short-classic":
                net = self.game_values[side] + 2 - sum(
                    v for s, v in enumerate(self.game_values) if s != side
                )
                self.rubber_points = tuple(net if s == side else -net for s in range(rules.sides))
            else:
                self.rubber_points = tuple(self.games_won)
            events.append(MatchOver(side, tuple(self.games_won), self.rubber_points))
            return
        self._start_game(events, rotate=True)

    def _game_value(self, loser_score: int) -> int:
        """Classic Short Whist game value: treble, double or single."""
        if self.rules.game_id != "whist-short-classic":
            return 1
        if loser_score == 0:
            return 3
        if loser_score <= 2:
            return 2
        return 1

    # ------------------------------------------------------------------ views

    def observe(self, seat: int) -> SeatView:
        """What ``seat`` may know now (its own hand, public cards, scores)."""
        n = self._n
        leader = self.leader
        trick = tuple(((leader + i) % n, c) for i, c in enumerate(self.trick))
        is_ruffer = seat == self.ruffer
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
            turn_up=self.turn_up if self._turn_up_visible() else None,
            turn_up_holder=self.turn_up_holder,
            hand=tuple(self.hand(seat)),
            hand_sizes=tuple(_bit_count(h) for h in self.hands),
            to_act=self.to_act(),
            legal=tuple(self.legal_actions(seat)),
            trick_leader=leader,
            trick=trick,
            trick_no=self.trick_no,
            completed_tricks=tuple(self.completed),
            tricks=tuple(self.tricks),
            scores=tuple(self.scores),
            start_scores=tuple(self.start_scores),
            games_won=tuple(self.games_won),
            target=self.rules.target_score,
            ruffer=self.ruffer,
            ruff_state=self.ruff_state,
            stock_taken=self.stock_taken if is_ruffer else (),
            my_discards=tuple(self.discards) if is_ruffer else (),
            shown_honours=tuple(self.shown),
            calls=tuple(self.calls),
            winner=self.match_winner,
            rules=self.rules,
        )

    def _turn_up_visible(self) -> bool:
        if self.turn_up is None:
            return False
        if self.turn_up_holder is None:
            return True  # the stock's top card is public for the whole deal
        return self.turn_up_public

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
        return other

    def to_record(self) -> dict[str, Any]:
        """Seed + action log as JSON-ready data; :meth:`from_record` replays it."""
        return {
            "format": "ruff-honours-game",
            "version": RECORD_VERSION,
            "game_id": self.rules.game_id,
            "preset": self.rules.preset,
            "overrides": dict(self.rules.overrides),
            "seed": self.seed,
            "first_dealer": self.first_dealer_choice,
            **self._stacking(),
            "actions": [f"{seat} {action.encode()}" for seat, action in self.log],
        }

    def _stacking(self) -> dict[str, Any]:
        """Record keys for the test hooks, present only when they were used."""
        extra: dict[str, Any] = {}
        if self.deck_choice is not None:
            extra["deck"] = [c.code for c in self.deck_choice]
        if self.start_scores_choice is not None:
            extra["start_scores"] = list(self.start_scores_choice)
        return extra

    @staticmethod
    def from_record(record: Mapping[str, Any]) -> Game:
        """Rebuild a game by replaying a record made by :meth:`to_record`."""
        if record.get("format") != "ruff-honours-game":
            raise RecordError("not a game record")
        version = record.get("version")
        if not isinstance(version, int) or version > RECORD_VERSION:
            raise RecordError(f"unsupported record version {version!r}")
        game, _ = new_game(
            record["game_id"],
            record.get("preset"),
            record.get("overrides") or {},
            seed=int(record["seed"]),
            first_dealer=record.get("first_dealer"),
            deck=record.get("deck"),
            start_scores=record.get("start_scores"),
        )
        for entry in record.get("actions", []):
            seat_text, _, action_text = str(entry).partition(" ")
            game.apply(int(seat_text), decode_action(action_text))
        return game

    def snapshot(self) -> dict[str, Any]:
        """A compact JSON-ready copy of the whole state (for storage)."""
        return {
            "format": "ruff-honours-snapshot",
            "version": SNAPSHOT_VERSION,
            "record": self.to_record() | {"actions": []},
            "log": [f"{s} {a.encode()}" for s, a in self.log],
            "state": {
                "phase": self.phase,
                "game_no": self.game_no,
                "deal_no": self.deal_no,
                "deals_total": self.deals_total,
                "scores": list(self.scores),
                "start_scores": list(self.start_scores),
                "games_won": list(self.games_won),
                "game_values": list(self.game_values),
                "dealer": self.dealer,
                "eldest": self.eldest,
                "hands": list(self.hands),
                "dealt": list(self.dealt),
                "stock": [c.code for c in self.stock],
                "trump": self.trump.value if self.trump else None,
                "turn_up": self.turn_up.code if self.turn_up else None,
                "turn_up_holder": self.turn_up_holder,
                "turn_up_public": self.turn_up_public,
                "ruffer": self.ruffer,
                "ruff_reason": self.ruff_reason,
                "ruff_state": self.ruff_state,
                "stock_taken": [c.code for c in self.stock_taken],
                "discards": [c.code for c in self.discards],
                "discards_left": self.discards_left,
                "held_at_play": list(self.held_at_play),
                "can_ye_queue": list(self.can_ye_queue),
                "can_ye_open": sorted(self.can_ye_open),
                "calls": [list(c) for c in self.calls],
                "shown": [[s, c.code] for s, c in self.shown],
                "to_play": self.to_play,
                "leader": self.leader,
                "trick": [c.code for c in self.trick],
                "trick_no": self.trick_no,
                "tricks": list(self.tricks),
                "completed": [[ld, [c.code for c in cs], w] for ld, cs, w in self.completed],
                "revoked": sorted(self.revoked),
                "winner": self.winner,
                "match_winner": self.match_winner,
                "rubber_points": list(self.rubber_points),
            },
        }

    @staticmethod
    def from_snapshot(data: Mapping[str, Any]) -> Game:
        """Restore a game saved by :meth:`snapshot` without replaying."""
        if data.get("format") != "ruff-honours-snapshot":
            raise RecordError("not a game snapshot")
        version = data.get("version")
        if not isinstance(version, int) or version > SNAPSHOT_VERSION:
            raise RecordError(f"unsupported snapshot version {version!r}")
        rec = data["record"]
        rules = make_rules(rec["game_id"], rec.get("preset"), rec.get("overrides") or {})
        deck, start_scores = _check_stacking(rules, rec.get("deck"), rec.get("start_scores"))
        g = Game._blank(rules, int(rec["seed"]), rec.get("first_dealer"), deck, start_scores)
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
        g.revoked = set(s["revoked"])
        g.winner = s["winner"]
        g.match_winner = s["match_winner"]
        g.rubber_points = tuple(s["rubber_points"])
        g._sync_fast()
        return g

    def state_key(self) -> str:
        """A canonical JSON string of the state (equal states give equal keys)."""
        snap = self.snapshot()
        return json.dumps(snap, sort_keys=True, separators=(",", ":"))


# How clone() copies each slot: lists and sets are copied, everything else is an
# immutable value (int, str, tuple, Card, Suit, Rules, _Facts, None) and shared.
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
_SET_SLOTS: Final = ("can_ye_open", "revoked")
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
    """
    if rules is None:
        rules = make_rules(game_id, preset, overrides)
    fixed_deck, fixed_scores = _check_stacking(rules, deck, start_scores)
    return Game._create(rules, seed, first_dealer, fixed_deck, fixed_scores)


def _check_stacking(
    rules: Rules, deck: Sequence[Card | str] | None, start_scores: Sequence[int] | None
) -> tuple[tuple[Card, ...] | None, tuple[int, ...] | None]:
    fixed_deck: tuple[Card, ...] | None = None
    fixed_scores: tuple[int, ...] | None = None
    if deck is not None:
        fixed_deck = tuple(c if isinstance(c, Card) else Card.parse(c) for c in deck)
        if sorted(c.index for c in fixed_deck) != [c.index for c in full_deck(rules.removed_ranks)]:
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
