"""The deal: choosing the first dealer, shuffling, dealing, fixing trumps.

Determinism: deal ``k`` of a session (counting from 1 across the games of a
match) is shuffled by a Fisher-Yates pass driven by
``random.Random(f"{seed}:deal:{k}").getrandbits``: the very draws
``random.shuffle`` makes on CPython 3.11, written out here so the deals of a
seed do not depend on the Python version. No RNG state is stored.

Decisions where RULES.md is silent:

* ``deal_pattern = packets4`` deals packets of four clockwise from eldest "until
  every hand is full" (RULES.md §0.1): a packet never overfills a hand, so with
  13-card hands the fourth round is one card each.
* ``deal_pattern = singles_kitty`` (Bid Whist's ``kitty_positions =
  interleaved``, RULES.md §7.2): singles, with the kitty's cards dropped one at
  a time among the rounds, never among the first or last four cards: the k-th of
  ``m`` kitty cards follows round ``1 + k * (rounds - 2) // (m - 1)`` (rounds 1,
  3, 5, 7, 9, 11 for six cards over twelve rounds).
* ``first_dealer = first_diamond`` (RULES.md §7.2): a shuffled pack (from the
  seed) is dealt face up one card at a time clockwise from a seat drawn from the
  seed; the first seat to receive a diamond deals. (Records of version 1 dealt
  from seat 0, so seat 0 dealt in 36% of games and seat 3 in 16%; they replay so.)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final

from engine.cards import HIGH, Card, RankOrder, Suit, deck_with_jokers, full_deck
from engine.events import DealerChosen, DealStarted, HandDealt, TrumpFixed
from engine.layout import deal_targets
from engine.phases.base import Automatic, Phase, new_event
from engine.rules import Rules

if TYPE_CHECKING:
    from engine.events import Event
    from engine.game import Game

__all__ = [
    "CARD_BY_INDEX",
    "KITTY",
    "LAYOUT",
    "DealPhase",
    "reset_deal",
    "choose_dealer",
    "deal_plan",
    "deal_seats",
    "shuffled",
    "stacked_deck",
]

CARD_BY_INDEX: Final = [Card.from_index(i) for i in range(54)]  # the jokers are 52 and 53
_BIT_BY_INDEX: Final = [1 << i for i in range(54)]
KITTY: Final = -1  # in a deal plan's seats: a kitty card dealt among the hands
LAYOUT: Final = -2  # in a deal plan's seats: a card dealt to a layout (engine.layout.deal_targets)

DealPlan = tuple[
    tuple[
        int, ...
    ],  # seat of each dealt deck index (KITTY: a kitty card among them, LAYOUT: a layout's)
    tuple[Any, ...],  # per seat: itemgetter of its deck indices (dealing order)
    tuple[int, ...],  # per seat: deck index of its last card
    tuple[int, ...],  # the deck indices of the stock (kitty), top first
]
_DEAL_PLANS: Final[dict[tuple[str, int, int, int, int, str], DealPlan]] = {}


def deal_seats(rules: Rules, dealer: int) -> list[int]:
    """The hand each deck index is dealt to (RULES.md §0.1 deal patterns, §8.2 layouts).

    ``result[i]`` is the seat whose hand receives ``deck[i]``; indices past the
    end of the list stay undealt (the stock, the head), as do indices marked
    :data:`KITTY` (a kitty dealt among the hands). Indices marked :data:`LAYOUT`
    go to a layout (:func:`engine.layout.deal_targets` says whose and where).
    Hands are dealt from eldest, left of ``dealer``; a layout game deals the
    layouts first, alternately from the non-dealer.
    """
    return list(deal_plan(rules, dealer)[0])


def deal_plan(rules: Rules, dealer: int) -> DealPlan:
    key = (
        rules.deal_pattern,
        rules.players,
        rules.hand_size,
        dealer,
        rules.deck_size,
        rules.layout,
    )
    plan = _DEAL_PLANS.get(key)
    if plan is None:
        plan = _DEAL_PLANS[key] = _make_deal_plan(*key)
    return plan


def _make_deal_plan(
    pattern: str, n: int, hand_size: int, dealer: int, deck_size: int, layout: str
) -> DealPlan:
    if layout:
        targets = deal_targets(layout, dealer)
        return _plan(
            [LAYOUT if position is not None else seat for seat, position in targets], n, deck_size
        )
    kitty_after: list[int] = []  # rounds after which one kitty card is dealt
    if pattern == "singles":
        packets = [1]
    elif pattern == "singles_kitty":
        m = deck_size - n * hand_size
        rounds = hand_size
        kitty_after = [1 + k * (rounds - 2) // max(m - 1, 1) for k in range(m)]
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
    while sum(counts) < total:
        size = packets[min(round_no, len(packets) - 1)]
        for k in range(n):
            seat = (dealer + 1 + k) % n
            take = min(size, hand_size - counts[seat])
            seats.extend([seat] * take)
            counts[seat] += take
        round_no += 1
        seats.extend([KITTY] * kitty_after.count(round_no))
    return _plan(seats, n, deck_size)


def _plan(seats: list[int], n: int, deck_size: int) -> DealPlan:
    positions = [[i for i, s in enumerate(seats) if s == seat] for seat in range(n)]
    stock = [i for i, s in enumerate(seats) if s == KITTY]
    stock += range(len(seats), deck_size)
    return (
        tuple(seats),
        tuple(itemgetter(*pos) for pos in positions),
        tuple(pos[-1] for pos in positions),
        tuple(stock),
    )


# Fisher-Yates steps (i, i + 1, bits of i + 1) per deck size.
_SHUFFLE_STEPS: Final[dict[int, tuple[tuple[int, int, int], ...]]] = {}


def shuffled(indices: tuple[int, ...], rng_seed: str) -> list[int]:
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
    layouts: Mapping[int, Sequence[Card | str]] | None = None,
) -> list[Card]:
    """The deck order that deals ``hands`` when ``dealer`` deals (a test hook).

    ``hands`` maps seats (or lists by seat) to cards; each seat's cards fill its
    hand's deal positions in dealing order, so the last card listed for a full
    hand is the last card dealt to it (the turn-up under ``turn_up_card =
    dealer_last``). ``stock`` fills the undealt positions in order: the stock or
    head (``stock[0]`` is the top card, the Ruff and Honours turn-up), or the
    kitty. In a layout game ``layouts`` maps seats to the cards of their layouts
    in dealing order (position by position, the face-down layers first, then the
    face-up covers). Cards not mentioned fill the remaining positions in
    card-index order. Use it with ``new_game(..., deck=..., first_dealer=dealer)``.
    """
    by_seat = dict(hands) if isinstance(hands, Mapping) else dict(enumerate(hands))
    pack = deck_with_jokers(rules.jokers, rules.removed_ranks)
    in_pack = set(pack)
    seats, _, _, stock_positions = deal_plan(rules, dealer)
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
    if layouts:
        if not rules.layout:
            raise ValueError(f"{rules.game_id} deals no layouts")
        targets = deal_targets(rules.layout, dealer)
        for seat, cards in layouts.items():
            slots = [
                i for i, (s, position) in enumerate(targets) if s == seat and position is not None
            ]
            if not slots:
                raise ValueError(f"no seat {seat}")
            for c in cards:
                place(c, slots, f"seat {seat}'s layout")
    stock_slots = list(stock_positions)
    for c in stock:
        place(c, stock_slots, "the stock")
    rest = iter(c for c in pack if c not in used)
    return [c if c is not None else next(rest) for c in deck]


def choose_dealer(game: Game) -> DealerChosen:
    """Fix the first dealer by the rules' ``first_dealer`` method, from the seed."""
    rules = game.rules
    rng = random.Random(f"{game.seed}:dealer")
    if rules.first_dealer in ("random", "youngest"):
        # the engine knows no ages: a table that knows its youngest player passes
        # ``first_dealer=`` to new_game; otherwise the deal starts at random
        game.dealer = rng.randrange(rules.players)
        return DealerChosen(game.dealer, "random")
    if rules.first_dealer == "first_diamond":
        start = rng.randrange(rules.players) if game.record_version >= 2 else 0
        pack = deck_with_jokers(rules.jokers, rules.removed_ranks)
        rng.shuffle(pack)
        shown: list[tuple[int, Card]] = []
        for i, card in enumerate(pack):
            seat = (start + i) % rules.players
            shown.append((seat, card))
            if not card.is_joker and card.suit is Suit.DIAMONDS:
                game.dealer = seat
                return DealerChosen(seat, "first_diamond", tuple(shown))
        raise AssertionError("a pack without diamonds")  # pragma: no cover
    # draw_high: each remaining contender draws; highest rank deals; ties redraw
    contenders = list(range(rules.players))
    draws: list[tuple[int, Card]] = []
    deck = full_deck(rules.removed_ranks)
    while True:
        rng.shuffle(deck)
        round_draws = list(zip(contenders, deck, strict=False))
        draws.extend(round_draws)
        best = max(int(c.rank) for _, c in round_draws)
        contenders = [s for s, c in round_draws if int(c.rank) == best]
        if len(contenders) == 1:
            game.dealer = contenders[0]
            return DealerChosen(game.dealer, "draw_high", tuple(draws))


class DealPhase(Automatic):
    """Shuffle (or take the stacked deck), deal, fix trumps, reset the deal's state.

    Trumps: ``trump_mode = contract`` leaves the deal without trumps (and
    without a TrumpFixed event) for a later contract phase to name them;
    ``trump_mode = cycle`` takes the next suit of ``trump_cycle`` (per
    game or per session); otherwise the turn-up card is the stock's top card or
    the dealer's (or eldest's) last card, and it shows while its holder keeps it.
    The deal's ``rank_order`` starts as the family gives it (``HIGH`` in the
    Ruff-and-Honours family); a later phase (an auction's contract) may change it.
    """

    name = Phase.DEAL

    def __init__(self, rank_order: RankOrder = HIGH) -> None:
        self.rank_order = rank_order  # the order a deal starts with (a contract may change it)

    def enter(self, game: Game, events: list[Event]) -> None:
        rules = game.rules
        n = game.n_players
        dealer = game.dealer
        game.eldest = eldest = (dealer + 1) % n
        game.deal_no += 1
        game.deals_total += 1
        game.start_scores = list(game.scores)
        events.append(new_event(DealStarted, (game.game_no, game.deal_no, dealer, eldest)))

        facts = game.facts
        if game.deals_total == 1 and game.deck_choice is not None:
            deck = [c.index for c in game.deck_choice]
        else:
            deck = shuffled(facts.deck_indices, f"{game.seed}:deal:{game.deals_total}")
        _, getters, last_index, stock_positions = facts.plans[dealer]
        hands = []
        bit_of = _BIT_BY_INDEX.__getitem__
        card_of = CARD_BY_INDEX.__getitem__
        for seat in range(n):
            dealt = sorted(getters[seat](deck))
            hands.append(sum(map(bit_of, dealt)))
            events.append(new_event(HandDealt, (seat, tuple(map(card_of, dealt)))))
        game.hands = hands
        game.dealt = list(hands)
        if (
            not stock_positions or stock_positions[0] == facts.dealt_in
        ):  # the stock is the deck's tail
            game.stock = list(map(card_of, deck[facts.dealt_in :]))
        else:
            game.stock = [card_of(deck[i]) for i in stock_positions]

        game.turn_up = None
        game.turn_up_holder = None
        game.turn_up_public = False
        if rules.trump_mode == "contract":  # no trumps until a contract names them
            game.trump = None
        elif rules.trump_mode == "cycle":
            index = (
                game.deal_no if rules.trump_cycle_basis == "per_game" else game.deals_total
            ) - 1
            game.trump = rules.trump_cycle[index % len(rules.trump_cycle)]
        else:
            if rules.turn_up_source == "stock_top":
                card = game.stock[0]
            else:
                holder = dealer if rules.turn_up_source == "dealer_last" else eldest
                card = CARD_BY_INDEX[deck[last_index[holder]]]
                game.turn_up_holder = holder
            game.turn_up = card
            game.turn_up_public = True
            game.trump = card.suit
        game.rank_order = self.rank_order
        if rules.trump_mode != "contract":
            events.append(new_event(TrumpFixed, (game.trump, game.turn_up, game.turn_up_holder)))
        reset_deal(game)
        game.enter_next(self, events)

    def visible(self, game: Game, seat: int) -> Mapping[str, object]:
        """The turn-up shows while its holder keeps it (the stock's top card all deal)."""
        turn_up = game.turn_up
        if turn_up is not None and game.turn_up_holder is not None and not game.turn_up_public:
            turn_up = None
        return {"turn_up": turn_up}


def reset_deal(game: Game) -> None:
    """The deal's bookkeeping for every later phase, fresh (eldest leads the first trick).

    Called by every family's deal phase once the cards and trumps are out.
    """
    game.ruffer = None
    game.ruff_reason = ""
    game.ruff_state = "none"
    game.stock_taken = ()
    game.discards = []
    game.discards_left = 0
    game.held_at_play = []
    game.can_ye_queue = []
    game.can_ye_open = set()
    game.calls = []
    game.shown = []
    game.trick = []
    game.trick_no = 1
    game.tricks = [0] * game.facts.sides
    game.previous_trick = game.completed[-1] if game.completed else None
    game.completed = []
    game.revoked = set()
    game.notes = {}
    game.leader = game.to_play = game.eldest
