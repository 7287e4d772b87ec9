"""The AI's side of claims and concessions (:mod:`engine.claims`).

* **Answering a claim** (:func:`claim_holds`). An AI opponent accepts only a
  claim that holds on *every* deal consistent with what it knows: its own hand,
  the claimer's hand (shown with the claim), every card played, the face-up
  cards (layouts, an exposed hand), the turn-up where its holder is known, and
  the voids shown by failing to follow suit. Two ways to be sure:

  1. *top cards*: a claim of all the tricks left by a claimer on lead whose
     trumps all beat every other trump still out and are at least as many, and
     whose every other card beats every card still out in its suit (the
     trumps are drawn first, then each card wins in turn) — whoever holds the
     other cards;
  2. *exact*: every consistent deal is enumerated and each is solved exactly
     (both sides see every card, the claimer's side moves to make the claim,
     the others to defeat it): the claim holds when the claimer's side can
     take at least the claimed tricks in every deal (at most, under a misère
     contract, where fewer tricks are better for the claimer).

  The AI rejects when it is not sure: more consistent deals than
  :data:`MAX_WORLDS`, a search over :data:`MAX_NODES` positions or past its
  time, or face-down layout cards still to turn up (nobody knows them).
  Treating the claimer's side as seeing every card is the usual standard (a
  claim is judged by "any sensible line"); a claim that needs a guess is
  rejected, since some deal defeats it.

* **Claiming** (:func:`certain_claim`). An AI on lead claims all the tricks
  left when the top-cards test above holds against every card it cannot see
  (its partner's included): then the claim holds whatever the others hold. It
  never claims under a misère contract, nor again from the position where its
  claim was just rejected (a player whose timer answers "reject" would otherwise
  be asked for ever): it plays a card, and may claim from the next position.

* **Concessions.** An AI never proposes one. Asked by its human partner, it
  agrees: the human at the table decides whether to play on.

* **Who answers.** Only the claimer's opponents; an AI partner of a human
  claimer has no say (:mod:`engine.claims`).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from typing import Final

from engine.actions import Action
from engine.ai.search.bitmasks import card_indices
from engine.cards import (
    Card,
    RankOrder,
    Suit,
    deck_with_jokers,
    follow_mask,
    led_suit,
    mask_of,
    suit_mask_for,
)
from engine.claims import (
    CLAIM,
    CONCEDE,
    AcceptClaim,
    AgreeConcession,
    Claim,
    RejectClaim,
    claim_goal,
)
from engine.view import SeatView

__all__ = [
    "MAX_NODES",
    "MAX_WORLDS",
    "answer",
    "certain_claim",
    "claim_holds",
    "decide",
    "top_cards",
]

MAX_WORLDS: Final = 5000  # consistent deals the exact answer will enumerate
MAX_NODES: Final = 400_000  # positions searched over all of them
TIME_LIMIT: Final = 2.0  # seconds for one answer

_CARDS: Final = tuple(Card.from_index(i) for i in range(54))


class _Unsure(Exception):
    """The exact answer would take too long."""


def _cards(mask: int) -> list[Card]:
    return [_CARDS[i] for i in card_indices(mask)]


def _claim_note(view: SeatView) -> tuple[int, int, tuple[int, ...], tuple[Card, ...]] | None:
    note = view.note("claim")
    if not isinstance(note, tuple) or len(note) != 4:
        return None
    seat, tricks, accepted, hand = note
    return int(seat), int(tricks), tuple(accepted), tuple(hand)


def _public_ups(view: SeatView) -> list[int]:
    """Per seat, its face-up layout cards (every seat sees them)."""
    ups = [0] * view.n_seats
    for s, piles in enumerate(view.layouts[: view.n_seats]):
        for pile in piles:
            if pile.up is not None:
                ups[s] |= pile.up.bit
    return ups


def _face_down_left(view: SeatView) -> bool:
    return any(pile.down for piles in view.layouts for pile in piles)


def _played(view: SeatView) -> int:
    played = 0
    for _, cards, _ in view.completed_tricks:
        played |= mask_of(cards)
    for _, card in view.trick:
        played |= card.bit
    return played


def _pack(view: SeatView) -> int:
    rules = view.rules
    if rules is None:
        return mask_of(deck_with_jokers(0))
    return mask_of(deck_with_jokers(rules.jokers, rules.removed_ranks))


# --------------------------------------------------------------------------- top cards


def top_cards(hand: int, others: int, trump: Suit | None, order: RankOrder) -> bool:
    """True if a player on lead holding ``hand`` wins every trick whoever holds
    ``others`` (the cards still out): his trumps all beat the others' trumps and
    are at least as many, and each of his other cards beats every other card of
    its suit still out. In no-trump a joker never wins, so it fails the test."""
    if not hand:
        return False
    if trump is None and hand & (3 << 52):
        return False
    trumps_mask = suit_mask_for(trump, trump) if trump is not None else 0
    mine_t = hand & trumps_mask
    theirs_t = others & trumps_mask
    if theirs_t:
        if mine_t.bit_count() < theirs_t.bit_count():
            return False
        low = min(order.key(c, trump) for c in _cards(mine_t))
        if low <= max(order.key(c, trump) for c in _cards(theirs_t)):
            return False
    for suit in Suit:
        if suit is trump:
            continue
        mine = hand & suit.mask
        if not mine:
            continue
        theirs = others & suit.mask
        if not theirs:
            continue
        low = min(order.key(c, trump) for c in _cards(mine))
        if low <= max(order.key(c, trump) for c in _cards(theirs)):
            return False
    return True


def _remaining(view: SeatView) -> int:
    """Tricks left in the deal, the trick in progress included."""
    rules = view.rules
    total = rules.tricks_per_deal if rules is not None else 13
    return total - view.trick_no + 1


def certain_claim(view: SeatView) -> Claim | None:
    """The claim of every trick left, when this seat (on lead) surely takes them all."""
    if view.phase != "play" or not view.my_turn or view.trick or claim_goal(view.contract) < 0:
        return None
    left = _remaining(view)
    if view.note("claim_rejected") == (view.seat, left, len(view.trick)):
        return None  # rejected from this very position: play a card instead (then claim again)
    claim = next((a for a in view.claims if isinstance(a, Claim) and a.tricks == left), None)
    if claim is None or _face_down_left(view):
        return None
    ups = _public_ups(view)
    mine = mask_of(view.hand) | ups[view.seat]
    others = _pack(view) & ~mine & ~_played(view) & ~mask_of(view.my_discards)
    if left < 2:  # the last trick: nothing to gain by saying so
        return None
    return claim if top_cards(mine, others, view.trump, view.rank_order) else None


# --------------------------------------------------------------------------- the exact answer


def _voids(view: SeatView) -> list[int]:
    """Per seat, the mask of cards it cannot hold (suits it failed to follow)."""
    n = view.n_seats
    trump = view.trump
    void = [0] * n
    tricks: list[tuple[int, Sequence[Card]]] = [
        (leader, cards) for leader, cards, _ in view.completed_tricks
    ]
    if view.trick:
        tricks.append((view.trick_leader, [c for _, c in view.trick]))
    for leader, cards in tricks:
        for i in range(1, len(cards)):
            suit = led_suit(cards[:i], trump)
            if suit is None:
                continue
            wanted = suit_mask_for(suit, trump)
            if not cards[i].bit & wanted:
                void[(leader + i) % n] |= wanted
    return void


def _worlds(view: SeatView, claimer: int, shown: int) -> list[list[int]] | None:
    """Every deal of the hidden hands consistent with ``view`` (None: too many)."""
    n = view.n_seats
    me = view.seat
    ups = _public_ups(view)
    known = [0] * n
    known[me] = mask_of(view.hand)
    known[claimer] = shown
    for seat, cards in view.exposed:
        if seat not in (me, claimer):
            known[seat] |= mask_of(cards)
    played = _played(view)
    turn_up = view.turn_up
    if (
        turn_up is not None
        and view.turn_up_holder is not None
        and view.turn_up_holder not in (me, claimer)
        and not played & turn_up.bit
    ):
        known[view.turn_up_holder] |= turn_up.bit
    seen = played | mask_of(view.my_discards)
    for s in range(n):
        seen |= known[s] | ups[s]
    pool = _pack(view) & ~seen
    void = _voids(
        view,
    )
    hidden = [s for s in range(n) if s not in (me, claimer)]
    room = {s: view.hand_sizes[s] - known[s].bit_count() for s in hidden}
    if any(r < 0 for r in room.values()) or sum(room.values()) > pool.bit_count():
        return None
    worlds: list[list[int]] = []

    def place(i: int, left: int, hands: list[int]) -> None:
        if i == len(hidden):
            worlds.append(list(hands))
            if len(worlds) > MAX_WORLDS:
                raise _Unsure
            return
        seat = hidden[i]
        allowed = left & ~void[seat]
        need = room[seat]
        if allowed.bit_count() < need:
            return
        for combo in itertools.combinations(card_indices(allowed), need):
            mask = 0
            for c in combo:
                mask |= 1 << c
            hands[seat] = known[seat] | mask
            place(i + 1, left & ~mask, hands)
        hands[seat] = known[seat]

    base = [known[s] | ups[s] for s in range(n)]
    try:
        place(0, pool, base)
    except _Unsure:
        return None
    for world in worlds:
        for s in range(n):
            world[s] |= ups[s]
    return worlds


class _Solver:
    """Can the seats of ``movers`` make the seats of ``counted`` win ``need`` tricks?

    ``shared`` (the relaxed search): those seats play from one pool of unknown
    cards (``hands[n]``), each any card of it its voids allow, following suit or
    not — more than any real deal lets them, so a claim that holds against them
    holds in every deal."""

    def __init__(self, n: int, trump: Suit | None, order: RankOrder, movers: frozenset[int],
                 counted: frozenset[int], deadline: float,
                 shared: dict[int, int] | None = None) -> None:  # fmt: skip
        self.n = n
        self.trump = trump
        self.order = order
        self.movers = movers
        self.counted = counted
        self.deadline = deadline
        self.shared = shared or {}
        self.nodes = 0
        self.memo: dict[tuple[tuple[int, ...], int, int], bool] = {}

    def moves(self, hands: list[int], seat: int, trick: list[Card]) -> list[int]:
        allowed = self.shared.get(seat)
        if allowed is not None:
            return card_indices(hands[self.n] & allowed)
        hand = hands[seat]
        return card_indices(follow_mask(hand, trick, self.trump) if trick else hand)

    def holds(self, hands: list[int], leader: int, trick: list[Card], need: int, left: int) -> bool:
        """``left``: tricks still to play, the current one included."""
        if need <= 0:
            return True
        if need > left:
            return False
        n = self.n
        seat = (leader + len(trick)) % n
        key: tuple[tuple[int, ...], int, int] | None = None
        if not trick:
            key = (tuple(hands), leader, need)
            hit = self.memo.get(key)
            if hit is not None:
                return hit
        self.nodes += 1
        if self.nodes > MAX_NODES or (
            self.nodes & 1023 == 0 and time.perf_counter() > self.deadline
        ):
            raise _Unsure
        want = seat in self.movers
        result = not want
        slot = n if seat in self.shared else seat
        for c in self.moves(hands, seat, trick):
            bit = 1 << c
            hands[slot] ^= bit
            trick.append(_CARDS[c])
            if len(trick) == n:
                winner = (leader + self.order.trick_winner(trick, self.trump)) % n
                got = 1 if winner in self.counted else 0
                ok = self.holds(hands, winner, [], need - got, left - 1)
            else:
                ok = self.holds(hands, leader, trick, need, left)
            trick.pop()
            hands[slot] ^= bit
            if ok == want:
                result = want
                break
        if key is not None:
            self.memo[key] = result
        return result


def claim_holds(view: SeatView, *, time_limit: float = TIME_LIMIT) -> bool | None:
    """Whether the pending claim holds on every deal consistent with ``view``
    (None when the AI cannot be sure in time; see the module docstring)."""
    note = _claim_note(view)
    if note is None:
        return None
    claimer, tricks, _, hand = note
    n = view.n_seats
    sides = view.sides or tuple(s % 2 for s in range(n))
    goal = claim_goal(view.contract)
    left = _remaining(view)
    ups = _public_ups(view)
    shown = mask_of(hand)
    claimer_cards = shown | ups[claimer]
    if goal > 0 and tricks == left and not view.trick and view.trick_leader == claimer:
        others = _pack(view) & ~claimer_cards & ~_played(view)
        if top_cards(claimer_cards, others, view.trump, view.rank_order):
            return True
    if goal > 0 and tricks == 0:
        return True  # the rest are ours: nothing to lose
    if _face_down_left(view):
        return None
    mine = frozenset(s for s in range(n) if sides[s] == sides[claimer])
    theirs = frozenset(range(n)) - mine
    if goal > 0:
        counted, need = mine, tricks
    else:  # a misère claim: at most ``tricks`` for the claimer, so at least the rest for the others
        counted, need = theirs, left - tricks
    deadline = time.perf_counter() + time_limit
    leader = view.trick_leader
    trick = [c for _, c in view.trick]
    worlds = _worlds(view, claimer, shown)
    if worlds is None:  # too many deals to enumerate: the relaxed search, or unsure
        return (
            True
            if _relaxed_holds(view, claimer, shown, mine, counted, need, left, deadline)
            else None
        )
    solver = _Solver(n, view.trump, view.rank_order, mine, counted, deadline)
    try:
        for world in worlds:
            if not solver.holds([*world, 0], leader, list(trick), need, left):
                return False
    except _Unsure:
        return None
    return True


def _relaxed_holds(view: SeatView, claimer: int, shown: int, mine: frozenset[int],
                   counted: frozenset[int], need: int, left: int, deadline: float) -> bool:  # fmt: skip
    """The claim against hidden seats that play any unknown card (see :class:`_Solver`)."""
    n = view.n_seats
    me = view.seat
    ups = _public_ups(view)
    hidden = [s for s in range(n) if s not in (me, claimer)]
    if any(dict(view.exposed).get(s) for s in hidden):
        return False  # an exposed hidden hand: the enumeration's case, not this one
    seen = _played(view) | mask_of(view.my_discards) | mask_of(view.hand) | shown
    for s in range(n):
        seen |= ups[s]
    pool = _pack(view) & ~seen
    void = _voids(view)
    everything = (1 << 54) - 1
    shared = {s: everything & ~void[s] for s in hidden}
    hands = [0] * (n + 1)
    hands[me] = mask_of(view.hand) | ups[me]
    hands[claimer] = shown | ups[claimer]
    hands[n] = pool
    # the claimer's partner, unseen, is played by the defence too: never in the claimer's favour
    movers = mine - frozenset(hidden)
    solver = _Solver(n, view.trump, view.rank_order, movers, counted, deadline, shared)
    try:
        return solver.holds(hands, view.trick_leader, [c for _, c in view.trick], need, left)
    except _Unsure:
        return False


# --------------------------------------------------------------------------- decisions


def answer(view: SeatView, time_limit: float = TIME_LIMIT) -> Action:
    """The AI's answer to the claim or concession waiting for this seat."""
    if view.phase == CONCEDE:
        return AgreeConcession()
    return AcceptClaim() if claim_holds(view, time_limit=time_limit) is True else RejectClaim()


def decide(
    view: SeatView, legal: Sequence[Action], time_limit: float = TIME_LIMIT
) -> Action | None:
    """What the claims part of the AI does at this seat now, or None (the player
    chooses as usual): answer a claim or concession, or claim when certain."""
    if view.phase in (CLAIM, CONCEDE):
        return answer(view, time_limit) if legal else None
    if view.claims and view.my_turn:
        return certain_claim(view)
    return None
