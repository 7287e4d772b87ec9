"""Sampled-worlds search for the tables the four-handed searches do not know.

:mod:`engine.ai.search.determinized` and :mod:`engine.ai.search.worlds` assume four seats with
partners opposite and a hidden deal; :mod:`engine.ai.strategies.open_tables` plays everything
else by table maxims. This module gives ``normal`` and ``hard`` a real search
there: Ruffe and Trump for three or two, or single-handed (each for himself),
and Turnover Bridge (two players, face-up layouts on face-down cards). It
follows :mod:`engine.ai.strategies.bid_whist` (its own small card model, sampled worlds,
greedy playouts for every seat) over the ``HIGH`` rank order of 52 cards:

* :func:`knowledge_of` reads what the seat knows: its hand; every card played;
  the face-up layout cards (public, so in nobody's hidden hand); voids shown by
  failing to follow (a Turnover player's void is of his *hand*: face-down
  cards never count for following, so they stay unconstrained); the turn-up
  (in the hand of the seat holding it, in the rubber's hand once he took the
  head's top four in, else out of play with the head); the trump ace in the
  rubber's hand when the rubber is not the dealer (he rubbed because he held
  it); the rubber's own lay-out, known to him.
* :func:`sample_world` deals the unknown cards to the places they may be in
  (the other hands, the cards out of play, the face-down layout cards) so that
  every constraint holds: each card goes to a random allowed place weighted
  by the room left there, among the places that keep the rest of the deal
  possible (Hall's condition over the places, as in :mod:`engine.ai.strategies.bid_whist`).
  The face-down cards are then shuffled into the layout positions, one stack
  per position; a face-down card turns up in the world exactly as in the game.
* :func:`playout` plays the deal to its end (or until a player reaches the
  majority under ``stop_at_majority``) with :func:`greedy_card` at every seat,
  which sees the world's *available* cards (hand plus playable face-up cards)
  and plays by the sides of the view: cash a master, low from the longest side
  suit; win as cheaply as the seats still to play allow, else low; ruff a
  losing trick as cheaply as is safe, else throw the cheapest side card.
* :func:`search_play` plays every candidate card out in every sampled world
  and keeps the best mean value for the seat (:func:`deal_value`) within the
  player's :class:`~engine.ai.search.budget.Budget` (stop starting worlds at the soft
  budget, never pass the cap, at least ``min_worlds`` worlds). Equivalent hand
  cards (touching, or separated only by cards played or held by the seat) are
  tried once; layout cards are always tried one by one, since which card each
  turns up differs.

The value of a deal for the seat (decisions where the brief was open):

* card points over par (Ruffe and Trump, ``par`` of
  :mod:`engine.families.ruffe_trump`): the seat's own points, ``max(0, cards
  won - par)`` (less the opponent's, at a table of two; for ``hard``, at a
  table of three or more, less the mean of the others'), plus a hundredth of a
  point per trick so that among cards equal on points the one taking more
  tricks wins (tricks below par are tricks denied to the others, which
  matters in the race to the set);
* deal win (Turnover Bridge ``deal_win``): one for the deal won, minus one for
  the deal lost (a drawn deal is zero), plus a hundredth per trick;
  ``odd_tricks``: own tricks over half minus the opponent's;
* any other game: the seat's side's tricks.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from engine.ai.search import clock
from engine.ai.search.bitmasks import (
    NO_TRUMP,
    SUIT_BITS,
    card_indices,
    high,
    low,
    trick_winner_pos,
)
from engine.ai.search.budget import Budget
from engine.ai.search.worlds import rules_for
from engine.cards import HIGH, Rank, mask_of
from engine.game import Game, SeatView
from engine.rules import Rules

__all__ = [
    "Known",
    "OpenStrategy",
    "World",
    "after_card",
    "applies",
    "candidate_cards",
    "card_values",
    "deal_value",
    "greedy_card",
    "knowledge_of",
    "playout",
    "sample_world",
    "search_play",
]

TRICK_WEIGHT: Final = 0.01  # value of one trick beside the deal's points (a tie-break)
# The exact solve reads the clock every SOLVE_CHECK positions, and a search stops
# CAP_RESERVE seconds (at most a tenth of the cap) before its cap, so that the
# answer is in by the cap: with layouts a position costs tens of microseconds and
# the solver's table grows large, and checking every 1024 positions let a
# decision of Turnover Bridge run 10 ms past the 1.5 s cap (once in about 2,500
# of hard's). Only a decision that reaches its cap is changed by either.
SOLVE_CHECK: Final = 128
CAP_RESERVE: Final = 0.02


def applies(view: SeatView) -> bool:
    """Whether this search can play the view: a natural 52-card pack ranked ``HIGH``
    (no jokers), at most four seats."""
    rules = view.rules
    return (
        rules is not None
        and rules.jokers == 0
        and view.rank_order == HIGH
        and 2 <= view.n_seats <= 4
    )


@lru_cache(maxsize=8)
def _deck(removed: tuple[Rank, ...]) -> int:
    deck = 0
    for i in range(52):
        if Rank(i % 13 + 2) not in removed:
            deck |= 1 << i
    return deck


# --------------------------------------------------------------------------- what a seat knows


@dataclass(slots=True)
class Known:
    """One seat's knowledge of the deal in play (see :func:`knowledge_of`).

    Places: ``0..n-1`` the seats' hands, ``n`` the cards out of play (the
    head, a lay-out), ``n + 1`` the face-down layout cards.
    """

    seat: int
    n: int
    sides: tuple[int, ...]
    trump: int  # 0..3, or NO_TRUMP
    hand: int  # the seat's own hand (its face-up layout cards are in ``ups``)
    played: int  # every card played this deal, the current trick included
    leader: int
    trick: list[int]
    tricks: list[int]  # tricks won per side so far
    fixed: list[int]  # per seat: cards known to be in its hand (the seat's own hand included)
    room: list[int]  # per place: unknown cards it holds
    allowed: dict[int, int]  # unknown card -> bitmask of the places it may be in
    ups: list[int]  # per seat: face-up layout tops
    fresh: list[int]  # per seat: tops turned up during this trick
    piles: list[tuple[int, int, int]]  # (seat, top card, face-down count) of every covered pile
    stop: int  # a side with this many tricks ends the deal
    rules: Rules

    @property
    def places(self) -> int:
        return self.n + 2


def _voids(view: SeatView, n: int) -> list[int]:
    """Per seat, the suit masks it has shown void in (its hand, for a layout game)."""
    void = [0] * n
    tricks: list[tuple[int, Sequence[int]]] = [
        (leader, [c.index for c in cards]) for leader, cards, _ in view.completed_tricks
    ]
    if view.trick:
        tricks.append((view.trick_leader, [c.index for _, c in view.trick]))
    for leader, cards in tricks:
        led = cards[0] // 13
        for i, c in enumerate(cards[1:], start=1):
            if c // 13 != led:
                void[(leader + i) % n] |= SUIT_BITS[led]
    return void


def knowledge_of(view: SeatView) -> Known | None:
    """What ``view``'s seat knows, or ``None`` when the view and rules disagree
    (the caller then plays by the maxims)."""
    rules = rules_for(view)
    n = view.n_seats
    seat = view.seat
    sides = view.sides or tuple(s % 2 for s in range(n))
    trump = view.trump.order if view.trump is not None else NO_TRUMP
    hand = mask_of(view.hand)
    played = 0
    for _, cards, _ in view.completed_tricks:
        played |= mask_of(cards)
    trick = [c.index for _, c in view.trick]
    for c in trick:
        played |= 1 << c
    ups = [0] * n
    fresh = [0] * n
    piles: list[tuple[int, int, int]] = []
    down_total = 0
    for s, seat_piles in enumerate(view.layouts[:n]):
        for pile in seat_piles:
            if pile.up is None:
                continue
            ups[s] |= pile.up.bit
            if pile.fresh:
                fresh[s] |= pile.up.bit
            if pile.down:
                piles.append((s, pile.up.index, pile.down))
                down_total += pile.down
    public = 0
    for u in ups:
        public |= u
    pool = _deck(rules.removed_ranks) & ~hand & ~played & ~public & ~mask_of(view.my_discards)
    fixed = [0] * n
    fixed[seat] = hand
    out = n
    down = n + 1
    everywhere = ((1 << (n + 2)) - 1) & ~(1 << seat)
    if not down_total:
        everywhere &= ~(1 << down)
    allowed = dict.fromkeys(card_indices(pool), everywhere)
    void = _voids(view, n)
    for c in allowed:
        for s in range(n):
            if void[s] >> c & 1:
                allowed[c] &= ~(1 << s)
    turn_up = view.turn_up
    if turn_up is not None and turn_up.index in allowed:
        holder = view.turn_up_holder
        if holder is None and view.ruff_state == "taken":
            holder = view.ruffer  # the rubber took the head's top four, the turn-up with them
        if holder is not None and holder != seat and not void[holder] >> turn_up.index & 1:
            allowed[turn_up.index] = 1 << holder
        elif holder is None:
            allowed[turn_up.index] = 1 << out  # still in the head
    if (
        view.trump is not None
        and view.ruff_state == "taken"
        and view.ruffer is not None
        and view.ruffer not in (seat, view.dealer)
    ):
        ace = view.trump.order * 13 + 12
        if ace in allowed and ace != (turn_up.index if turn_up else -1):
            keep = allowed[ace] & ((1 << view.ruffer) | (1 << out))
            if keep:
                allowed[ace] = keep  # he rubbed because he held it
    room = [0] * (n + 2)
    sizes = view.hand_sizes
    for s in range(n):
        if s != seat:
            room[s] = sizes[s] - fixed[s].bit_count()
    room[down] = down_total
    room[out] = pool.bit_count() - sum(room)
    if any(r < 0 for r in room):
        return None
    tricks = list(view.tricks) if view.tricks else [0] * (max(sides) + 1)
    stop = rules.tricks_per_deal // 2 + 1 if rules.stop_at_majority else 10**6
    return Known(
        seat, n, tuple(sides), trump, hand, played, view.trick_leader, trick, tricks,
        fixed, room, allowed, ups, fresh, piles, stop, rules,
    )  # fmt: skip


@lru_cache(maxsize=8)
def _set_tables(places: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Per allowed-set ``a``: the sets of places containing it; per place: the sets holding it."""
    full = 1 << places
    supersets = tuple(tuple(t for t in range(full) if a & ~t == 0) for a in range(full))
    containing = tuple(tuple(t for t in range(full) if t >> p & 1) for p in range(places))
    return supersets, containing


@dataclass(slots=True)
class World:
    """One full deal consistent with a seat's knowledge, ready to play out."""

    hands: list[int]  # per seat
    ups: list[int]  # per seat: face-up layout tops
    fresh: list[int]  # per seat: tops turned up during this trick
    under: list[dict[int, tuple[int, ...]]]  # per seat: top card -> face-down cards, bottom first


def sample_world(k: Known, rng: random.Random) -> World | None:
    """A deal of the unknown cards consistent with ``k`` (see the module docstring).

    If the knowledge admits no deal at all (it never should), the constraints
    are dropped; ``None`` if even that fails.
    """
    places = k.places
    supersets, containing = _set_tables(places)
    free = ((1 << places) - 1) & ~(1 << k.seat)
    for relax in (False, True):
        allowed = {c: (free if relax else a) for c, a in k.allowed.items()}
        room = list(k.room)
        within = [0] * (1 << places)  # cards whose allowed places lie within each set
        for a in allowed.values():
            for t in supersets[a]:
                within[t] += 1
        space = [sum(room[p] for p in range(places) if t >> p & 1) for t in range(1 << places)]
        if any(w > r for w, r in zip(within, space, strict=True)):
            continue
        dealt = [0] * places
        cards = list(allowed)
        rng.shuffle(cards)
        for c in cards:
            a = allowed[c]
            for t in supersets[a]:
                within[t] -= 1
            options = [p for p in range(places) if a >> p & 1 and room[p] > 0]
            while True:
                pick = rng.randrange(sum(room[p] for p in options))
                for p in options:
                    pick -= room[p]
                    if pick < 0:
                        break
                for t in containing[p]:
                    space[t] -= 1
                if all(w <= r for w, r in zip(within, space, strict=True)):
                    break
                for t in containing[p]:
                    space[t] += 1
                options.remove(p)
            room[p] -= 1
            dealt[p] |= 1 << c
        hands = [k.fixed[s] | (dealt[s] if s != k.seat else 0) for s in range(k.n)]
        under: list[dict[int, tuple[int, ...]]] = [{} for _ in range(k.n)]
        if k.piles:
            downs = card_indices(dealt[k.n + 1])
            rng.shuffle(downs)
            i = 0
            for s, top, count in k.piles:
                under[s][top] = tuple(downs[i : i + count])
                i += count
        return World(hands, list(k.ups), list(k.fresh), under)
    return None


# --------------------------------------------------------------------------- playouts


def greedy_card(
    avail: Sequence[int],
    seat: int,
    trick: Sequence[int],
    leader: int,
    trump: int,
    sides: Sequence[int],
    alive: int,
) -> int:
    """The playout policy's card for ``seat`` (full sight of everyone's available cards).

    ``avail`` holds each seat's available cards, ``alive`` every card not yet
    played (face-down ones included: a master is judged against them too).
    """
    mine = avail[seat]
    k = len(trick)
    n = len(sides)
    if not k:
        best_len, lead = -1, -1
        for s in range(4):
            if s == trump:
                continue
            cards = mine & SUIT_BITS[s]
            if not cards:
                continue
            top = high(cards)
            if top == high(alive & SUIT_BITS[s]):
                return top  # a master: cash it
            length = cards.bit_count()
            if length > best_len:
                best_len, lead = length, low(cards)
        if lead >= 0:
            return lead
        top = high(mine)  # only trumps left
        return top if top == high(alive & SUIT_BITS[top // 13]) else low(mine)
    led = trick[0] // 13
    follow = mine & SUIT_BITS[led]
    win_pos = trick_winner_pos(list(trick), trump)
    win = trick[win_pos]
    side = sides[seat]
    ours = sides[(leader + win_pos) % n] == side
    opps = [s for s in ((leader + j) % n for j in range(k + 1, n)) if sides[s] != side]
    if follow:
        if win // 13 != led:
            return low(follow)  # trumped: following cannot win
        threat = -1 if ours else win
        ruff = False
        for s in opps:
            theirs = avail[s] & SUIT_BITS[led]
            if theirs:
                threat = max(threat, high(theirs))
            elif trump != NO_TRUMP and led != trump and avail[s] & SUIT_BITS[trump]:
                ruff = True
        if ruff or (ours and threat < win):
            return low(follow)
        over = follow & ~((2 << max(threat, win)) - 1)
        return low(over) if over else low(follow)
    trumps = mine & SUIT_BITS[trump] if trump != NO_TRUMP else 0
    if trumps and not ours:
        floor = win if win // 13 == trump else trump * 13 - 1
        for s in opps:
            theirs = avail[s] & SUIT_BITS[trump]
            if theirs and not avail[s] & SUIT_BITS[led]:
                floor = max(floor, high(theirs))
        over = trumps & ~((1 << (floor + 1)) - 1)
        if over:
            return low(over)
    rest = mine & ~trumps or mine
    best, best_rank = -1, 99
    for s in range(4):
        cards = rest & SUIT_BITS[s]
        if cards:
            c = low(cards)
            if c - 13 * s < best_rank:
                best, best_rank = c, c - 13 * s
    return best


def playout(
    world: World,
    leader: int,
    trick: list[int],
    trump: int,
    sides: Sequence[int],
    tricks: list[int],
    stop: int,
) -> list[int]:
    """Play ``world`` out greedily from the current trick; the final tricks per side.

    ``world`` is not changed (its masks are copied; its pile stacks are tuples).
    The deal ends when every card is played or a side reaches ``stop`` tricks.
    """
    n = len(sides)
    hands = list(world.hands)
    ups = list(world.ups)
    fresh = list(world.fresh)
    layouts = any(ups)
    under = [dict(u) for u in world.under] if layouts else world.under
    tricks = list(tricks)
    trick = list(trick)
    alive = 0
    for s in range(n):
        alive |= hands[s] | ups[s]
        for stack in under[s].values():
            for c in stack:
                alive |= 1 << c
    while True:
        if len(trick) == n:
            winner = (leader + trick_winner_pos(trick, trump)) % n
            tricks[sides[winner]] += 1
            if tricks[sides[winner]] >= stop:
                return tricks
            leader = winner
            trick = []
            if layouts:
                fresh = [0] * n
        seat = (leader + len(trick)) % n
        avail = [hands[s] | ups[s] & ~fresh[s] for s in range(n)] if layouts else hands
        if not avail[seat]:
            return tricks
        c = greedy_card(avail, seat, trick, leader, trump, sides, alive)
        bit = 1 << c
        alive ^= bit
        if hands[seat] & bit:
            hands[seat] ^= bit
        else:  # a face-up layout card: the card beneath turns up
            ups[seat] ^= bit
            stack = under[seat].pop(c, ())
            if stack:
                top = stack[-1]
                under[seat][top] = stack[:-1]
                ups[seat] |= 1 << top
                fresh[seat] |= 1 << top
        trick.append(c)


def solve(
    world: World,
    leader: int,
    trick: list[int],
    trump: int,
    sides: Sequence[int],
    tricks: list[int],
    stop: int,
    side: int,
    deadline: float,
) -> list[int]:
    """Play ``world`` out exactly: ``side`` takes the most tricks it can against every
    other seat playing to hold it to the fewest (a "paranoid" search, exact in a
    two-seat game). Returns the final tricks per side as :func:`playout` does.

    Raises :class:`TimeoutError` past ``deadline``.
    """
    n = len(sides)
    hands = list(world.hands)
    ups = list(world.ups)
    fresh = list(world.fresh)
    under = [dict(u) for u in world.under]
    memo: dict[tuple[object, ...], int] = {}
    base = list(tricks)
    visits = 0

    def rec(leader: int, trick: tuple[int, ...], tricks: tuple[int, ...]) -> int:
        nonlocal visits, fresh
        if len(trick) == n:
            winner = (leader + trick_winner_pos(list(trick), trump)) % n
            won = list(tricks)
            won[sides[winner]] += 1
            gain = 1 if sides[winner] == side else 0
            if won[sides[winner]] >= stop:
                return gain
            saved = fresh
            fresh = [0] * n
            try:
                return gain + rec(winner, (), tuple(won))
            finally:
                fresh = saved
        key = (*hands, *ups, *fresh, leader, trick, tricks)
        got = memo.get(key)
        if got is not None:
            return got
        visits += 1
        if not visits % SOLVE_CHECK and clock.now() > deadline:
            raise TimeoutError
        seat = (leader + len(trick)) % n
        avail = hands[seat] | (ups[seat] & ~fresh[seat])
        if not avail:
            return 0
        legal = avail & SUIT_BITS[trick[0] // 13] if trick else 0
        legal = legal or avail
        maximise = sides[seat] == side
        best = -1 if maximise else 10**6
        for c in card_indices(legal):
            bit = 1 << c
            if hands[seat] & bit:
                hands[seat] ^= bit
                value = rec(leader, (*trick, c), tricks)
                hands[seat] ^= bit
            else:
                old_ups, old_fresh, old_under = ups[seat], fresh[seat], under[seat]
                mine = dict(old_under)
                stack = mine.pop(c, ())
                ups[seat] ^= bit
                if stack:
                    top = stack[-1]
                    mine[top] = stack[:-1]
                    ups[seat] |= 1 << top
                    fresh[seat] |= 1 << top
                under[seat] = mine
                value = rec(leader, (*trick, c), tricks)
                ups[seat], fresh[seat], under[seat] = old_ups, old_fresh, old_under
            if maximise and value > best or not maximise and value < best:
                best = value
        memo[key] = best
        return best

    gained = rec(leader, tuple(trick), tuple(base))
    # the others' share is not tracked trick by trick: it all goes to the first
    # other side (exact with two sides; the values of more sides read only their own)
    total_left = (remaining_cards(world) + len(trick)) // n
    final = list(base)
    final[side] += gained
    others = [s for s in range(len(final)) if s != side]
    if others:
        final[others[0]] += max(0, total_left - gained)
    return final


def remaining_cards(world: World) -> int:
    """Cards still to be played in ``world`` (hands, face-up and face-down layout cards)."""
    total = sum(h.bit_count() for h in world.hands) + sum(u.bit_count() for u in world.ups)
    for u in world.under:
        total += sum(len(stack) for stack in u.values())
    return total


def deal_value(
    rules: Rules, sides: Sequence[int], side: int, tricks: Sequence[int], relative: bool = False
) -> float:
    """What a deal ending with ``tricks`` (per side) is worth to ``side`` (module docstring).

    ``relative`` (Ruffe and Trump with three or more sides): less the mean of
    the others' card points too, as at a table of two.
    """
    mine = tricks[side]
    n_sides = len(tricks)
    if rules.family == "ruffe_trump":
        from engine.families.ruffe_trump import par

        n = len(sides)
        over = par(rules, n_sides)
        value = max(0, mine * n - over) + TRICK_WEIGHT * mine
        if n_sides == 2:  # one opponent: his points are my loss
            value -= max(0, tricks[1 - side] * n - over)
        elif relative:
            value -= sum(max(0, t * n - over) for s, t in enumerate(tricks) if s != side) / (
                n_sides - 1
            )
        return value
    if rules.scoring in ("deal_win", "odd_tricks"):
        half = rules.tricks_per_deal // 2
        other = max(t for s, t in enumerate(tricks) if s != side)
        if rules.scoring == "odd_tricks":
            return max(0, mine - half) - max(0, other - half) + TRICK_WEIGHT * mine
        return (mine > half) - (other > half) + TRICK_WEIGHT * mine
    return float(mine)


# --------------------------------------------------------------------------- the search


def candidate_cards(k: Known, legal: int) -> list[int]:
    """The legal cards worth trying: one of each run of equivalent hand cards, every layout card.

    Two hand cards are equivalent when every card ranked between them is the
    seat's own (hand or layout) or already played.
    """
    own = k.hand | k.ups[k.seat]
    trick = 0
    for c in k.trick:
        trick |= 1 << c
    gone = k.played & ~trick  # cards of earlier tricks never separate two cards
    out: list[int] = []
    hand_legal = legal & k.hand
    for bits in SUIT_BITS:
        mine = hand_legal & bits
        if not mine:
            continue
        others = bits & ~gone & ~own
        prev = -1
        for c in card_indices(mine):
            if prev < 0 or others & ((1 << c) - (1 << (prev + 1))):
                out.append(c)
            prev = c
    out.extend(card_indices(legal & ~k.hand))
    return out


def after_card(world: World, seat: int, c: int) -> World:
    """``world`` once ``seat`` has played card ``c`` from its hand or its layout (the card
    beneath a layout card turns face up, fresh)."""
    bit = 1 << c
    hands = list(world.hands)
    ups = list(world.ups)
    under = world.under
    fresh = world.fresh
    if hands[seat] & bit:
        hands[seat] ^= bit
    else:
        ups[seat] ^= bit
        under = list(under)
        mine = dict(under[seat])
        stack = mine.pop(c, ())
        if stack:
            top = stack[-1]
            mine[top] = stack[:-1]
            ups[seat] |= 1 << top
            fresh = list(fresh)
            fresh[seat] |= 1 << top
        under[seat] = mine
    return World(hands, ups, fresh, under)


def card_values(
    k: Known,
    world: World,
    cands: list[int],
    exact: tuple[int, int],
    relative: bool,
    deadline: float,
) -> dict[int, float]:
    """The deal's value to the seat (:func:`deal_value`) after each card of ``cands`` in
    ``world``: solved exactly (:func:`solve`) when at most ``exact`` cards a seat (two
    seats, more) are left, else played out greedily (valued against the others' mean
    when ``relative``). Past ``deadline`` an exact solve stops: the cards valued so far."""
    seat = k.seat
    side = k.sides[seat]
    per_seat = exact[0] if k.n == 2 else exact[1]
    exactly = remaining_cards(world) + len(k.trick) <= per_seat * k.n
    values: dict[int, float] = {}
    for c in cands:
        after = after_card(world, seat, c)
        trick = [*k.trick, c]
        if exactly:
            try:
                final = solve(
                    after, k.leader, trick, k.trump, k.sides, k.tricks, k.stop, side, deadline
                )
            except TimeoutError:
                break  # only whole worlds count
            values[c] = deal_value(k.rules, k.sides, side, final)
        else:
            final = playout(after, k.leader, trick, k.trump, k.sides, k.tricks, k.stop)
            values[c] = deal_value(k.rules, k.sides, side, final, relative)
    return values


class OpenStrategy:
    """A seat's card at an open table (:class:`engine.ai.search.strategy.TableStrategy`).

    Worlds: :func:`sample_world`, each weighed by
    :class:`engine.ai.search.open_inference.Sharp` with ``sharp``. Value:
    :func:`card_values`, exact from ``exact`` cards a seat, played out before that
    (valued against the others' mean with ``relative``). :meth:`choose` is the timed
    search of the levels (:func:`search_play`).
    """

    kind = "open"
    unit = "points"

    def __init__(
        self, view: SeatView, k: Known, exact: tuple[int, int], sharp: bool, relative: bool
    ) -> None:
        self.k = k
        self.exact = exact
        self.relative = relative
        self._sharp = None
        if sharp:
            from engine.ai.search.open_inference import Sharp

            self._sharp = Sharp.of(view, k)

    @classmethod
    def of(
        cls, view: SeatView, exact: tuple[int, int], sharp: bool, relative: bool
    ) -> OpenStrategy | None:
        """The strategy of ``view``'s card, ``None`` when the view cannot be read."""
        k = knowledge_of(view)
        return None if k is None else cls(view, k, exact, sharp, relative)

    def candidates(self, legal: int) -> list[int]:
        return candidate_cards(self.k, legal)

    def worlds(self, rng: random.Random) -> Iterator[tuple[World, float]]:
        while True:
            world = sample_world(self.k, rng)
            if world is None:
                return
            yield world, self._sharp.weight(world) if self._sharp is not None else 1.0

    def every_world(self, limit: int) -> list[tuple[World, float]] | None:
        return None

    def evaluate(self, world: World, cands: list[int], deadline: float) -> dict[int, float]:
        return card_values(self.k, world, cands, self.exact, self.relative, deadline)

    def true_world(self, game: Game) -> World:
        n = self.k.n
        layout = game.layout
        if layout is None:
            return World(list(game.hands[:n]), [0] * n, [0] * n, [{} for _ in range(n)])
        under = [
            {pile[-1]: tuple(pile[:-1]) for pile in piles if pile} for piles in layout.piles[:n]
        ]
        return World(list(game.hands[:n]), list(layout.up[:n]), list(layout.fresh[:n]), under)

    def choose(self, legal: int, rng: random.Random, budget: Budget, start: float) -> int | None:
        """The card (index) of ``legal`` with the best (weighted) mean value over the worlds
        there is time for; ``None`` when not one world could be scored."""
        k = self.k
        cands = self.candidates(legal)
        if len(cands) == 1:
            return cands[0]
        soft = start + budget.soft
        cap = start + budget.cap - min(CAP_RESERVE, budget.cap / 10)
        totals = dict.fromkeys(cands, 0.0)
        worlds = 0
        mass = 0.0  # the worlds' total weight (their number, without ``sharp``)
        slowest = 0.0
        sampler = self.worlds(rng)
        while worlds < budget.max_worlds:
            now = clock.now()
            if (worlds >= budget.min_worlds and now + slowest > soft) or now > cap:
                break
            sampled = next(sampler, None)
            if sampled is None:
                break
            world, weight = sampled
            values = self.evaluate(world, cands, cap)
            if len(values) < len(cands):
                break
            for c, v in values.items():
                totals[c] += weight * v
            worlds += 1
            mass += weight
            slowest = max(slowest * 0.8, clock.now() - now)
        if not worlds:
            return None
        trump = k.trump

        def key(c: int) -> tuple[float, int, int, int]:
            # best mean; among equals the cheaper card: a hand card before a layout
            # card (which would show a new card), non-trump, then the lower rank
            return (-totals[c], 0 if k.hand >> c & 1 else 1, 1 if c // 13 == trump else 0, c % 13)

        best = min(cands, key=key)
        if budget.margin > 0:
            floor = totals[best] - budget.margin * mass
            near = [c for c in cands if totals[c] >= floor]
            best = min(near, key=lambda c: (key(c)[1:], -totals[c]))
        return best


def search_play(
    view: SeatView,
    legal: int,
    rng: random.Random,
    budget: Budget,
    start: float | None = None,
    exact: tuple[int, int] = (0, 0),
    sharp: bool = False,
    relative: bool = False,
) -> int | None:
    """The card (index) with the best mean deal value over sampled worlds
    (:meth:`OpenStrategy.choose`).

    With ``sharp`` (``hard`` only), :class:`engine.ai.search.open_inference.Sharp` weighs
    each world by how well it explains the others' plays (a weighted mean).

    ``exact`` is (cards a seat of a two-seat table, cards a seat of a bigger
    one) at or below which every world is solved exactly (:func:`solve`)
    rather than played out greedily. ``None`` when the view cannot be read or
    not one world could be scored (the caller then plays by the maxims).
    """
    if start is None:
        start = clock.now()
    strategy = OpenStrategy.of(view, exact, sharp, relative)
    return None if strategy is None else strategy.choose(legal, rng, budget, start)
