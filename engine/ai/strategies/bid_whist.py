"""AI for contract games with jokers and a chosen rank order (Bid Whist, RULES.md §7).

The card-play machinery of :mod:`engine.ai.search.bitmasks` and :mod:`engine.ai.search.worlds`
packs a suit into 13 bits and ranks by card index (the ``HIGH`` order, 52
cards). A Bid Whist deal breaks both: the trump suit holds up to 15 cards (the
jokers are its top two), downtown reverses the ranks, and a no-trump joker
belongs to no suit. Rather than bend that machinery (and risk the existing
games' decisions), this module is a second, general and smaller one over
54-bit masks, driven by a :class:`DealModel` built from the deal's trump and
:class:`~engine.cards.RankOrder`:

* :func:`rule_card`: the table maxims (cash a master, draw trumps, low from the
  longest suit, second hand low, third hand high, win cheaply, trump when
  partner is losing, throw powerless jokers and short low cards) for any order;
* :func:`sample_world`: deals the cards a seat cannot see to the other hands
  and the hidden kitty / lay-out, consistent with the view (hand sizes, voids
  shown in play, an exposed kitty, no-trump jokers laid out);
* :func:`playout`: the rest of the deal with :func:`rule_card` at every seat;
* :class:`ContractPlayer`: every decision of the game at each level. ``easy``
  bids, names and plays by the maxims and a quick count of likely books;
  ``normal`` and ``hard`` bid and name by playing each candidate contract out
  in deals sampled consistently with the view, and choose each card by playing
  every candidate out in sampled deals (``hard`` with a larger budget). The
  kitty lay-out is a keep-value heuristic (:func:`keep_value`); ``normal`` and
  ``hard`` compare its few lowest cards by playing each lay-out out in sampled
  deals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from engine.actions import Action, Discard, Pass, Play, play
from engine.ai.search import clock
from engine.ai.search.bitmasks import card_indices
from engine.cards import JOKERS_MASK, SUITS, Card, RankOrder, Suit, mask_of
from engine.game import Game, SeatView

__all__ = [
    "BidWhistStrategy",
    "ContractPlayer",
    "DealModel",
    "applies",
    "contract_candidates",
    "contract_model",
    "contract_points",
    "estimate_tricks",
    "model_of",
    "playout",
    "rule_card",
    "sample_world",
]

NONE: Final = 4  # "no suit": a no-trump joker, or no trump at all
LJ: Final = 52
BJ: Final = 53
_CARDS: Final = tuple(Card.from_index(i) for i in range(54))
_NATURAL_SUIT: Final = tuple(i // 13 for i in range(52))


def applies(view: SeatView) -> bool:
    """Whether this module plays the view's game: a contract game with jokers and
    a chosen rank order (the ``bid_whist`` family)."""
    return view.rules is not None and view.rules.family == "bid_whist"


# --------------------------------------------------------------------------- the card model


@dataclass(frozen=True, slots=True)
class DealModel:
    """Suits and trick keys of the 54 cards under one trump and rank order."""

    trump: int  # 0..3, or NONE
    key: tuple[int, ...]  # trick key of each card (RankOrder.key): trumps 100+, NT jokers 0
    suit: tuple[int, ...]  # effective suit of each card (NONE for a no-trump joker)
    masks: tuple[int, int, int, int, int]  # the cards of each effective suit (4: no suit)


@lru_cache(maxsize=32)
def model_of(trump: Suit | None, order: RankOrder) -> DealModel:
    """The card model of a deal (cached: there are at most 4 x 5 x 3 of them)."""
    t = NONE if trump is None else trump.order
    key = tuple(order.key(c, trump) for c in _CARDS)
    suit = tuple((*_NATURAL_SUIT, t, t))
    masks = [0, 0, 0, 0, 0]
    for i, s in enumerate(suit):
        masks[s] |= 1 << i
    return DealModel(t, key, suit, (masks[0], masks[1], masks[2], masks[3], masks[4]))


def _lowest(m: DealModel, mask: int) -> int:
    return min(card_indices(mask), key=m.key.__getitem__)


def _highest(m: DealModel, mask: int) -> int:
    return max(card_indices(mask), key=m.key.__getitem__)


def led_suit(m: DealModel, trick: Sequence[int]) -> int:
    """The suit to follow: the first card with a suit (a led no-trump joker fixes none)."""
    for c in trick:
        s = m.suit[c]
        if s != NONE:
            return s
    return NONE


def legal_mask(m: DealModel, hand: int, trick: Sequence[int]) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (follow suit if you can)."""
    if not trick:
        return hand
    led = led_suit(m, trick)
    if led == NONE:
        return hand
    follow = hand & m.masks[led]
    return follow or hand


def _can_win(m: DealModel, c: int, led: int) -> bool:
    return m.key[c] >= 100 or (m.suit[c] == led and led != NONE)


def winner_pos(m: DealModel, trick: Sequence[int]) -> int:
    """Position (play order) of the card winning ``trick`` so far."""
    led = led_suit(m, trick)
    win, best = 0, -1
    for i, c in enumerate(trick):
        if _can_win(m, c, led) and m.key[c] > best:
            best, win = m.key[c], i
    return win


def _beats(m: DealModel, c: int, best: int, led: int) -> bool:
    if not _can_win(m, c, led):
        return False
    if not _can_win(m, best, led):
        return True
    return m.key[c] > m.key[best]


def _is_master(m: DealModel, c: int, unseen: int) -> bool:
    s = m.suit[c]
    if s == NONE:
        return False
    k = m.key[c]
    return all(m.key[o] < k for o in card_indices(unseen & m.masks[s]))


# --------------------------------------------------------------------------- the maxims


def rule_card(m: DealModel, hand: int, legal: int, trick: Sequence[int], unseen: int) -> int:
    """The maxims' card among ``legal`` (a mask) for a seat holding ``hand``.

    ``trick`` is the cards played so far, in order; ``unseen`` the cards other
    seats may still hold (masters are judged against it).
    """
    n = len(trick)
    led = led_suit(m, trick) if trick else NONE
    if n == 0 or led == NONE:
        return _lead(m, hand, legal, unseen)
    tmask = m.masks[m.trump] if m.trump != NONE else 0
    win_at = winner_pos(m, trick)
    win_card = trick[win_at]
    partner_winning = n - win_at == 2
    last = n == 3
    follow = legal & m.masks[led]
    if follow:
        lowest = _lowest(m, follow)
        beaters = [c for c in card_indices(follow) if _beats(m, c, win_card, led)]
        if partner_winning and (last or _is_master(m, win_card, unseen)):
            return lowest
        if not beaters:
            return lowest
        cheapest = min(beaters, key=m.key.__getitem__)
        if last:
            return cheapest
        sure = [c for c in beaters if _is_master(m, c, unseen & ~hand)]
        if sure:
            return min(sure, key=m.key.__getitem__)
        if n == 1:
            return lowest  # second hand low
        return max(beaters, key=m.key.__getitem__)  # third hand high
    trumps = legal & tmask
    if trumps and not partner_winning:
        over = [c for c in card_indices(trumps) if _beats(m, c, win_card, led)]
        if over:
            return min(over, key=m.key.__getitem__)
    return _throw(m, hand, legal & ~tmask or legal, unseen)


def _lead(m: DealModel, hand: int, legal: int, unseen: int) -> int:
    tmask = m.masks[m.trump] if m.trump != NONE else 0
    trumps = legal & tmask
    if trumps and (unseen & tmask) and trumps.bit_count() >= 3:
        top = _highest(m, trumps)
        if _is_master(m, top, unseen):
            return top  # draw trumps with the master
    for s in range(4):
        if s == m.trump:
            continue
        mine = legal & m.masks[s]
        if mine:
            top = _highest(m, mine)
            if _is_master(m, top, unseen) and (unseen & m.masks[s]):
                return top  # cash a master
    best, best_len = -1, 0
    for s in range(4):
        if s == m.trump:
            continue
        mine = legal & m.masks[s]
        if mine.bit_count() > best_len:
            best_len, best = mine.bit_count(), _lowest(m, mine)
    if best >= 0:
        return best  # low from the longest side suit
    natural = legal & ~m.masks[NONE]
    return _lowest(m, natural or legal)


def _throw(m: DealModel, hand: int, pool: int, unseen: int) -> int:
    """The cheapest discard: a powerless joker, else low from a short suit without a master."""
    jokers = pool & m.masks[NONE]
    if jokers:
        return card_indices(jokers)[0]
    best, best_key = -1, (1e9, 0)
    for s in range(4):
        mine = pool & m.masks[s]
        if not mine:
            continue
        c = _lowest(m, mine)
        strength = m.key[c] % 100
        master = _is_master(m, _highest(m, mine), unseen)
        key = (
            strength + (6.0 if master and mine.bit_count() == 1 else 0.0) + 0.3 * mine.bit_count(),
            c,
        )
        if key < best_key:
            best_key, best = key, c
    return best if best >= 0 else card_indices(pool)[0]


# --------------------------------------------------------------------------- playouts


def playout(
    m: DealModel,
    hands: list[int],
    trick: list[int],
    leader: int,
    sides: Sequence[int],
    tricks: list[int],
) -> list[int]:
    """Play the deal to its end with the maxims at every seat; the tricks per side.

    ``hands`` (changed in place) are the four hands, ``trick`` the cards of the
    trick in progress from ``leader``, ``tricks`` the tricks each side has won.
    """
    n = len(hands)
    tricks = list(tricks)
    trick = list(trick)
    while True:
        if len(trick) == n:
            winner = (leader + winner_pos(m, trick)) % n
            tricks[sides[winner]] += 1
            trick = []
            leader = winner
        remaining = 0
        for h in hands:
            remaining |= h
        if not remaining:
            return tricks
        seat = (leader + len(trick)) % n
        hand = hands[seat]
        legal = legal_mask(m, hand, trick)
        card = rule_card(m, hand, legal, trick, remaining & ~hand)
        hands[seat] = hand & ~(1 << card)
        trick.append(card)


# --------------------------------------------------------------------------- what a seat knows


def pack_mask(jokers: int) -> int:
    """The cards of the pack: the 52 and ``jokers`` jokers (the Big one alone with one)."""
    mask = (1 << 52) - 1
    if jokers >= 1:
        mask |= 1 << BJ
    if jokers >= 2:
        mask |= 1 << LJ
    return mask


@dataclass(slots=True)
class Knowledge:
    """What one seat knows of where the cards are (see :func:`knowledge_of`)."""

    seat: int
    hand: int
    pool: int  # cards this seat cannot place: in other hands or hidden out of play
    need: list[int]  # cards each seat still holds (mine included) and, at index 4, hidden out
    allowed: dict[int, int]  # card -> bitmask of the slots (0..3 seats, 4 out) it may be in


def _voids(m: DealModel, view: SeatView) -> dict[int, int]:
    """Per seat, the suits (bit per suit) it has shown void in during play."""
    voids: dict[int, int] = {}
    n = len(view.hand_sizes)
    plays: list[list[tuple[int, int]]] = [
        [((leader + i) % n, c.index) for i, c in enumerate(cards)]
        for leader, cards, _ in view.completed_tricks
    ]
    plays.append([(s, c.index) for s, c in view.trick])
    for trick in plays:
        cards = [c for _, c in trick]
        for i, (seat, card) in enumerate(trick):
            led = led_suit(m, cards[:i]) if i else NONE
            if led != NONE and m.suit[card] != led:
                voids[seat] = voids.get(seat, 0) | (1 << led)
    return voids


def knowledge_of(view: SeatView, m: DealModel) -> Knowledge:
    """The view's facts: my hand, the unseen pool, how many each place holds, voids."""
    rules = view.rules
    assert rules is not None
    seat = view.seat
    hand = mask_of(view.hand)
    played = mask_of(view.trick[i][1] for i in range(len(view.trick)))
    for _, cards, _ in view.completed_tricks:
        played |= mask_of(cards)
    known_out = mask_of(view.my_discards)
    pool = pack_mask(rules.jokers) & ~hand & ~played & ~known_out
    need = [*view.hand_sizes, 0]
    need[4] = pool.bit_count() - sum(need[s] for s in range(4) if s != seat)
    need[seat] = 0
    all_slots = 0b11111 & ~(1 << seat)
    allowed: dict[int, int] = {}
    voids = _voids(m, view)
    declarer = view.declarer
    exposed = set(view.stock_taken) if declarer is not None and declarer != seat else set()
    nt_discards_jokers = (
        declarer is not None
        and view.trump is None
        and view.contract.endswith("n")
        and rules.nt_jokers == "bidder_discards"
        and view.phase == "play"
    )
    for c in card_indices(pool):
        slots = all_slots
        for s in range(4):
            if voids.get(s, 0) >> m.suit[c] & 1 and m.suit[c] != NONE:
                slots &= ~(1 << s)
        if declarer is not None and _CARDS[c] in exposed:
            slots &= (1 << declarer) | (1 << 4)
        if nt_discards_jokers and c >= LJ and declarer is not None:
            slots &= ~(1 << declarer)
        allowed[c] = slots
    return Knowledge(seat, hand, pool, need, allowed)


_SUPERSETS: Final = tuple(tuple(t for t in range(32) if a & ~t == 0) for a in range(32))
_CONTAINING: Final = tuple(tuple(t for t in range(32) if t >> s & 1) for s in range(5))


def _feasible(within: list[int], space: list[int]) -> bool:
    """Hall's condition: for every set T of places, the cards that may only go
    into T fit into T's room (``space[T]``): the test of a deal with capacities."""
    return all(w <= r for w, r in zip(within, space, strict=True))


def sample_world(k: Knowledge, rng: random.Random) -> list[int] | None:
    """Four hands and the hidden out-of-play cards (index 4), consistent with ``k``.

    Each card goes, in random order, to a random place it may be in, weighted
    by the room left there, among the places that keep the rest of the deal
    possible (:func:`_feasible`), so every consistent deal can come out and no
    attempt dead-ends. If the knowledge admits no deal at all (it never should),
    the voids are dropped; ``None`` if even that fails.
    """
    for relax in (False, True):
        free = 0b11111 & ~(1 << k.seat)
        allowed = {c: (free if relax else a) for c, a in k.allowed.items()}
        room = list(k.need)
        within = [0] * 32  # cards whose allowed places lie within each set of places
        for a in allowed.values():
            for t in _SUPERSETS[a]:
                within[t] += 1
        space = [sum(room[s] for s in range(5) if t >> s & 1) for t in range(32)]
        if not _feasible(within, space):
            continue
        world = [0, 0, 0, 0, 0]
        world[k.seat] = k.hand
        cards = list(allowed)
        rng.shuffle(cards)
        for c in cards:
            a = allowed[c]
            for t in _SUPERSETS[a]:
                within[t] -= 1
            places = [s for s in range(5) if a >> s & 1 and room[s] > 0]
            while True:
                pick = rng.randrange(sum(room[s] for s in places))
                for s in places:
                    pick -= room[s]
                    if pick < 0:
                        break
                for t in _CONTAINING[s]:
                    space[t] -= 1
                if _feasible(within, space):
                    break
                for t in _CONTAINING[s]:
                    space[t] += 1
                places.remove(s)
            room[s] -= 1
            world[s] |= 1 << c
        return world
    return None


# --------------------------------------------------------------------------- counting books


def estimate_tricks(m: DealModel, hand: int) -> float:
    """A quick count of the tricks ``hand`` should take as declarer under ``m``.

    A card is a likely winner when fewer cards above it are out than it has
    guards below it in the suit; side suits count at most two winners in a
    trump contract; long trumps and long no-trump suits add their length.
    """
    total = 0.0
    for s in range(4):
        mine = hand & m.masks[s]
        if not mine:
            continue
        ranked = sorted(card_indices(m.masks[s]), key=m.key.__getitem__, reverse=True)
        winners = 0
        count = mine.bit_count()
        held_above = 0
        for pos, c in enumerate(ranked):
            if not mine >> c & 1:
                continue
            out_above = pos - held_above
            below = count - held_above - 1
            if out_above <= below:
                winners += 1
            held_above += 1
        if s == m.trump:
            total += winners + max(0, count - 4)
        elif m.trump != NONE:
            total += min(winners, 2)
        else:
            total += winners + (max(0, count - 4) if winners >= 2 else 0)
    return total


def keep_value(m: DealModel, hand: int, c: int, unseen: int) -> float:
    """How much the declarer wants to keep card ``c`` (the lowest goes into the lay-out)."""
    s = m.suit[c]
    if s == NONE:
        return -100.0  # a powerless joker never wins
    strength = m.key[c] % 100
    if s == m.trump:
        return 200.0 + strength
    if _is_master(m, c, unseen):
        return 100.0 + strength
    length = (hand & m.masks[s]).bit_count()
    bonus = 4.0 * length if m.trump == NONE else (2.0 * length if length > 2 else 0.0)
    return strength + bonus


# --------------------------------------------------------------------------- the player


def _order(direction: str, rules_ace: object) -> RankOrder:
    return RankOrder.for_mode(direction, str(rules_ace))


def contract_model(view: SeatView, code: str, choice: Suit | str) -> DealModel:
    """The model of contract ``code`` with trump ``choice`` (a suit) or direction (NT)."""
    assert view.rules is not None
    ace = view.rules.downtown_ace
    if code.endswith("n"):
        assert isinstance(choice, str)
        return model_of(None, _order(choice, ace))
    assert isinstance(choice, Suit)
    return model_of(choice, _order("uptown" if code.endswith("u") else "downtown", ace))


def contract_candidates(view: SeatView, hand: int) -> list[tuple[str, Suit | str, float]]:
    """Per mode (u, d, n): the best trump or direction by the quick count, and the count."""
    out: list[tuple[str, Suit | str, float]] = []
    for mode in ("u", "d", "n"):
        choices: list[Suit | str] = ["uptown", "downtown"] if mode == "n" else list(SUITS)
        scored = [(estimate_tricks(contract_model(view, mode, c), hand), c) for c in choices]
        best = max(scored, key=lambda t: t[0])
        out.append((mode, best[1], best[0]))
    return out


PARTNER_BOOKS: Final = 1.0  # what the quick count expects of partner
MIN_WORLDS: Final = 2  # sampled deals a searching decision uses unless past its cap
DISCARD_CANDIDATES: Final = 5  # the lowest keep values a searching player compares
BID_SLACK: Final = 0.25  # expected points a higher bid may give up over the best one
KITTY_BOOKS: Final = 1.5  # the kitty's own book, and some from its cards


def contract_points(
    rules_made: str, multiplier: int, number: int, no_trump: bool, books: int
) -> int:
    made = books >= 6 + number
    points = (books - 6 if rules_made == "books_over_six" else number) if made else -number
    return points * (multiplier if no_trump else 1)


class ContractPlayer:
    """Every decision of a Bid Whist deal (see the module docstring).

    ``search`` false is the easy level; true samples deals within ``budget``
    seconds (never past ``cap``), at most ``max_worlds`` of them.
    """

    def __init__(
        self, search: bool, budget: float = 0.04, cap: float = 1.0, max_worlds: int = 200
    ) -> None:
        self.search = search
        self.budget = budget
        self.cap = cap
        self.max_worlds = max_worlds

    # -- dispatch

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        start = clock.now()
        kinds = {type(a).__name__ for a in legal}
        if "Bid" in kinds:
            return self._bid(view, legal, rng, start)
        if "NameTrump" in kinds or "NameDirection" in kinds:
            return self._name(view, legal, rng, start)
        if any(isinstance(a, Discard) for a in legal):
            return self._discard(view, legal, rng, start)
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return self._play(view, plays, rng, start)
        return legal[0]

    def _deadline(self, start: float) -> float:
        return start + min(self.budget, self.cap)

    def _stop(self, start: float, deadline: float, worlds: int) -> bool:
        """Stop sampling: past the budget with two worlds at least, or past the cap."""
        now = clock.now()
        return now > deadline and (worlds >= MIN_WORLDS or now > start + self.cap)

    # -- the auction

    def _bid(
        self, view: SeatView, legal: Sequence[Action], rng: random.Random, start: float
    ) -> Action:
        from engine.phases.auction import Bid

        rules = view.rules
        assert rules is not None
        bids = [a for a in legal if isinstance(a, Bid)]
        hand = mask_of(view.hand)
        cands = contract_candidates(view, hand)
        multiplier = rules.nt_multiplier
        made_rule = rules.made_score
        values: dict[str, float] = {}
        books = self._sample_contract_books(view, cands, rng, start) if self.search else None
        for b in bids:
            cand = next(c for c in cands if c[0] == b.mode)
            if books is not None and books[b.mode]:
                outcomes = books[b.mode]
                values[b.code] = sum(
                    contract_points(made_rule, multiplier, b.number, b.no_trump, x)
                    for x in outcomes
                ) / len(outcomes)
            else:
                est = round(cand[2] + PARTNER_BOOKS + KITTY_BOOKS)
                values[b.code] = contract_points(made_rule, multiplier, b.number, b.no_trump, est)
        # one round of bidding: among bids worth about the best, the highest (it
        # keeps the opponents out; with books over six it scores the same)
        top = max(values.values())
        best = max(
            (b for b in bids if values[b.code] >= top - BID_SLACK),
            key=lambda b: (b.number, values[b.code]),
        )
        pass_legal = any(isinstance(a, Pass) for a in legal)
        partner_high = any(seat == view.partner and code != "pass" for seat, code in view.auction)
        threshold = 1.0 if partner_high else 0.0
        if pass_legal and values[best.code] <= threshold:
            return next(a for a in legal if isinstance(a, Pass))
        return best

    def _sample_contract_books(
        self,
        view: SeatView,
        cands: list[tuple[str, Suit | str, float]],
        rng: random.Random,
        start: float,
    ) -> dict[str, list[int]]:
        """Books I would take as declarer of each candidate, over sampled deals."""
        assert view.rules is not None
        out: dict[str, list[int]] = {mode: [] for mode, _, _ in cands}
        models = {mode: contract_model(view, mode, choice) for mode, choice, _ in cands}
        k = knowledge_of(view, models["u"])
        deadline = self._deadline(start)
        first_declarer = view.rules.first_leader == "declarer"
        for _ in range(self.max_worlds):
            world = sample_world(k, rng)
            if world is None:
                break
            for mode, m in models.items():
                out[mode].append(self.declare_books(view, m, world, first_declarer))
            if self._stop(start, deadline, len(out["u"])):
                break
        return out

    def declare_books(self, view: SeatView, m: DealModel, world: list[int], leads: bool) -> int:
        """Books (kitty included) I take as declarer in ``world``: take the kitty, lay out, play."""
        seat = view.seat
        hands = world[:4]
        kitty = world[4]
        hands[seat] |= kitty
        assert view.rules is not None
        extra = hands[seat].bit_count() - view.rules.hand_size  # the kitty's cards, to lay out
        hands[seat] = self.lay_out(m, hands[seat], extra, view)
        leader = seat if leads else view.eldest
        sides = view.sides or (0, 1, 0, 1)
        tricks = playout(m, hands, [], leader, sides, [0] * (max(sides) + 1))
        return 1 + tricks[sides[seat]]

    def lay_out(self, m: DealModel, hand: int, count: int, view: SeatView) -> int:
        assert view.rules is not None
        jokers_out = m.trump == NONE and view.rules.nt_jokers == "bidder_discards"
        for _ in range(count):
            if jokers_out and hand & JOKERS_MASK:
                c = card_indices(hand & JOKERS_MASK)[0]
            else:
                unseen = pack_mask(view.rules.jokers) & ~hand
                c = min(card_indices(hand), key=lambda x: keep_value(m, hand, x, unseen))
            hand &= ~(1 << c)
        return hand

    # -- naming trumps or direction

    def _name(
        self, view: SeatView, legal: Sequence[Action], rng: random.Random, start: float
    ) -> Action:
        from engine.phases.contract import NameDirection, NameTrump

        hand = mask_of(view.hand)
        code = view.contract

        def model(a: Action) -> DealModel:
            choice: Suit | str = (
                a.suit
                if isinstance(a, NameTrump)
                else (a.direction if isinstance(a, NameDirection) else "uptown")
            )
            return contract_model(view, code, choice)

        scores = {a: estimate_tricks(model(a), hand) for a in legal}
        if self.search:
            sampled: dict[Action, list[int]] = {a: [] for a in legal}
            deadline = self._deadline(start)
            k = knowledge_of(view, model(legal[0]))
            assert view.rules is not None
            leads = view.rules.first_leader == "declarer"
            for _ in range(self.max_worlds):
                world = sample_world(k, rng)
                if world is None:
                    break
                for a in legal:
                    sampled[a].append(self.declare_books(view, model(a), world, leads))
                if self._stop(start, deadline, len(sampled[legal[0]])):
                    break
            if sampled[legal[0]]:
                scores = {a: sum(v) / len(v) + 0.01 * scores[a] for a, v in sampled.items()}
        return max(legal, key=lambda a: scores[a])

    # -- the kitty lay-out

    def _discard(
        self, view: SeatView, legal: Sequence[Action], rng: random.Random, start: float
    ) -> Action:
        """The next card to lay out: the lowest keep value (easy); with search, the
        best of the few lowest by books over sampled deals, the rest of the
        lay-out by keep value."""
        assert view.rules is not None
        m = model_of(view.trump, view.rank_order)
        hand = mask_of(view.hand)
        unseen = pack_mask(view.rules.jokers) & ~hand
        options = sorted(
            (a for a in legal if isinstance(a, Discard)),
            key=lambda a: (keep_value(m, hand, a.card.index, unseen), a.card.index),
        )
        if not self.search or len(options) == 1:
            return options[0]
        cands = options[:DISCARD_CANDIDATES]
        k = knowledge_of(view, m)
        leads = view.rules.first_leader == "declarer"
        sides = view.sides or (0, 1, 0, 1)
        totals = dict.fromkeys(cands, 0.0)
        worlds = 0
        deadline = self._deadline(start)
        for _ in range(self.max_worlds):
            world = sample_world(k, rng)
            if world is None:
                break
            for a in cands:
                hands = world[:4]
                rest = hands[view.seat] & ~a.card.bit
                extra = rest.bit_count() - view.rules.hand_size
                hands[view.seat] = self.lay_out(m, rest, extra, view)
                leader = view.seat if leads else view.eldest
                tricks = playout(m, hands, [], leader, sides, [0] * (max(sides) + 1))
                totals[a] += tricks[sides[view.seat]]
            worlds += 1
            if self._stop(start, deadline, worlds):
                break
        if not worlds:
            return options[0]
        return max(cands, key=lambda a: (totals[a], -cands.index(a)))

    # -- card play

    def _play(self, view: SeatView, plays: list[Play], rng: random.Random, start: float) -> Action:
        strategy = BidWhistStrategy(view)
        m, k = strategy.m, strategy.k
        hand = mask_of(view.hand)
        legal = mask_of(a.card for a in plays)
        if not self.search:
            return play(_CARDS[rule_card(m, hand, legal, strategy.trick, k.pool)])
        cands = strategy.candidates(legal)
        totals = dict.fromkeys(cands, 0.0)
        worlds = 0
        deadline = self._deadline(start)
        sampler = strategy.worlds(rng)
        for _ in range(self.max_worlds):
            sampled = next(sampler, None)
            if sampled is None:
                break
            for c, value in strategy.evaluate(sampled[0], cands, math.inf).items():
                totals[c] += value
            worlds += 1
            if self._stop(start, deadline, worlds):
                break
        if not worlds:
            return play(_CARDS[rule_card(m, hand, legal, strategy.trick, k.pool)])
        best = max(cands, key=lambda c: (totals[c], -m.key[c]))
        return play(_CARDS[best])

    def __repr__(self) -> str:
        return f"ContractPlayer(search={self.search}, budget={self.budget})"


class BidWhistStrategy:
    """A seat's card in Bid Whist (:class:`engine.ai.search.strategy.TableStrategy`), over
    the contract's own card model (:func:`model_of`: jokers, the rank order named).

    Worlds: :func:`sample_world`. Value, by ``objective``: ``"points"`` (the players'):
    the contract's points for the seat's side, signed (the declarer's side scores, the
    defenders count it against them; books before a contract); ``"books"`` (the coach's
    unit, which counts every trick the seat's side takes, ``unit`` ``"tricks"``).
    """

    kind = "bid-whist"

    def __init__(self, view: SeatView, objective: str = "points") -> None:
        if objective not in ("points", "books"):
            raise ValueError(f"unknown objective {objective!r}")
        self.view = view
        self.objective = objective
        self.unit = "points" if objective == "points" else "tricks"
        self.m = model_of(view.trump, view.rank_order)
        self.k = knowledge_of(view, self.m)
        self.trick = [c.index for _, c in view.trick]
        sides = view.sides or (0, 1, 0, 1)
        self._sides = sides
        self._mine = sides[view.seat]
        self._declarer_side = sides[view.declarer] if view.declarer is not None else self._mine
        self._base = list(view.tricks) if view.tricks else [0] * (max(sides) + 1)
        rules = view.rules
        assert rules is not None
        self._multiplier = rules.nt_multiplier
        self._made_rule = rules.made_score
        self._number = int(view.contract[:-1]) if view.contract else 0
        self._no_trump = view.contract.endswith("n")

    def candidates(self, legal: int) -> list[int]:
        return card_indices(legal)

    def worlds(self, rng: random.Random) -> Iterator[tuple[list[int], float]]:
        while True:
            world = sample_world(self.k, rng)
            if world is None:
                return
            yield world, 1.0

    def every_world(self, limit: int) -> list[tuple[list[int], float]] | None:
        return None

    def evaluate(self, world: list[int], cands: list[int], deadline: float) -> dict[int, float]:
        seat = self.view.seat
        leader = self.view.trick_leader
        out: dict[int, float] = {}
        for c in cands:
            hands = world[:4]
            hands[seat] &= ~(1 << c)
            tricks = playout(self.m, hands, [*self.trick, c], leader, self._sides, self._base)
            if self.objective == "books":
                out[c] = float(tricks[self._mine])
                continue
            books = 1 + tricks[self._declarer_side]
            value = (
                contract_points(
                    self._made_rule, self._multiplier, self._number, self._no_trump, books
                )
                if self._number
                else books
            )
            out[c] = value if self._declarer_side == self._mine else -value
        return out

    def true_world(self, game: Game) -> list[int]:
        return list(game.hands[:4])
