"""What one seat knows, and deals of the unseen cards consistent with it.

:func:`situation` reads a :class:`engine.game.SeatView` into bitmasks;
:func:`sample_world` deals the unseen cards (determinization) so that every
sampled world agrees with everything the seat has seen:

* its own hand, every card played, the public turn-up;
* voids shown in play (a seat that did not follow suit holds none of it);
* the ruff: the ruffer took the four stock cards in, turn-up included, and
  laid out four cards nobody else saw. So a non-ruffer places the turn-up and
  the trump ace in the ruffer's hand (or, rarely, among his discards), and the
  discards are drawn mostly from low side cards. A declined or unclaimed stock
  stays out of play with the turn-up in it;
* a turn-up that belongs to a hand (``dealer_last``) stays there until played;
* honours shown, and what Can-ye calls and passes reveal about honour counts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Final

from engine.ai.search.bitmasks import NO_TRUMP, trick_winner_pos
from engine.cards import Card, Rank
from engine.game import SeatView
from engine.rules import Rules, RulesError, make_rules

__all__ = [
    "MISERE_CONTRACTS",
    "OUT",
    "Situation",
    "deck_mask",
    "enumerate_worlds",
    "opening_leader",
    "rules_for",
    "HINT_WEIGHTS",
    "sample_world",
    "sample_world_by_hints",
    "situation",
]

# contracts (SeatView.contract) in which someone tries to lose every trick
MISERE_CONTRACTS = frozenset({"mis", "spread", "general"})
OUT = 4  # destination index of cards out of play (discards, unclaimed stock)
ENUMERATE_MAX_CARDS = 14  # enumerate_worlds does not try with more unseen cards than this


@lru_cache(maxsize=64)
def _rules(game_id: str, preset: str, target: int) -> Rules:
    try:
        rules = make_rules(game_id, preset)
    except RulesError:
        rules = make_rules(game_id)
    if rules.target_score != target:
        try:
            rules = make_rules(game_id, preset, {"target_score": target})
        except RulesError:
            pass
    return rules


@lru_cache(maxsize=8)
def deck_mask(removed: tuple[Rank, ...]) -> int:
    deck = 0
    for i in range(52):
        if Rank(i % 13 + 2) not in removed:
            deck |= 1 << i
    return deck


def opening_leader(view: SeatView) -> int:
    """Who will lead the deal's first trick, for a decision before the play (the
    ruff's lay-out): eldest, or the ruffer under ``first_leader = ruffer`` (the
    engine's rule is in :mod:`engine.phases.declare`)."""
    if rules_for(view).first_leader == "ruffer" and view.ruffer is not None:
        return view.ruffer
    return view.eldest


def rules_for(view: SeatView) -> Rules:
    """The rules a view's game is played under.

    A view made by :meth:`Game.observe` carries the table's rules, overrides
    included. A view built by hand without them falls back to the game id,
    preset and target it names.
    """
    if view.rules is not None:
        return view.rules
    return _rules(view.game_id, view.preset, view.target)


@dataclass(slots=True)
class Situation:
    """One seat's knowledge of the deal in play, as bitmasks."""

    seat: int
    rules: Rules
    trump: int  # 0..3 or NO_TRUMP
    honours: int  # mask of the A K Q J of trumps (0 without trumps)
    my_hand: int
    leader: int  # leader of the current trick
    trick: list[int]  # cards played to the current trick, in order
    tricks: tuple[int, int]  # tricks won by side 0 and side 1 so far
    tricks_total: int  # tricks in the deal
    sizes: tuple[int, int, int, int]  # current hand sizes
    played: int  # every card played this deal (current trick included)
    played_by: list[int]  # per seat, the cards it has played
    unknown: int  # cards whose place is unknown to this seat
    fixed: list[int]  # per destination (seat 0..3, OUT), cards known to be there
    allowed: list[int]  # per destination, the unknown cards that may be there
    out_size: int  # cards out of play that this seat cannot see
    out_is_discard: bool  # the out pile is a ruffer's discards (biased to low cards)
    honour_limits: list[tuple[int, int]]  # per seat: (min, max) honours held at play start
    hints: list[tuple[int, int, int, float]]  # (seat, unlikely cards, played since, weight)
    start_scores: tuple[int, int]
    target: int
    sides: tuple[int, ...] = (0, 1, 0, 1)  # the side each seat plays for in this deal

    @property
    def side(self) -> int:
        return self.sides[self.seat]

    @property
    def tricks_left(self) -> int:
        return self.tricks_total - self.tricks[0] - self.tricks[1]


HINT_WEIGHTS: Final = (0.15, 0.4, 0.5)
"""The hints' weights as set by hand (:func:`_hint`): a fourth hand that did not beat
the trick, a third hand that did not, a void fourth hand that did not ruff."""


def situation(view: SeatView, hint_weights: tuple[float, float, float] = HINT_WEIGHTS) -> Situation:
    """Read a view (any phase after the deal) into a :class:`Situation`; ``hint_weights``
    replace the soft hints' weights (see :data:`HINT_WEIGHTS`)."""
    rules = rules_for(view)
    seat = view.seat
    trump = view.trump.order if view.trump is not None else NO_TRUMP
    honours = view.trump.honours_mask if view.trump is not None else 0
    my_hand = 0
    for c in view.hand:
        my_hand |= c.bit

    played = 0
    played_by = [0, 0, 0, 0]
    void = [0, 0, 0, 0]
    prevent = rules.revoke_mode == "prevent"
    sides = view.sides if len(view.sides) == 4 else (0, 1, 0, 1)
    # soft hints from play: (seat, cards it probably did not hold then, cards it
    # played afterwards, weight of a world that breaks the hint)
    pending: list[tuple[int, int, int, float]] = []
    trump_bits = view.trump.mask if view.trump is not None else 0
    for leader, cards, _winner in view.completed_tricks:
        led = cards[0].suit_mask
        for i, c in enumerate(cards):
            s = (leader + i) % 4
            played |= c.bit
            played_by[s] |= c.bit
            if prevent and i and not c.bit & led:
                void[s] |= led
        if prevent:
            _hints_of_trick(
                leader, cards, trump_bits, seat, played_by, pending, sides, hint_weights
            )
    trick: list[int] = []
    if view.trick:
        led = view.trick[0][1].suit_mask
        for i, (s, c) in enumerate(view.trick):
            played |= c.bit
            played_by[s] |= c.bit
            trick.append(c.index)
            if prevent and i and not c.bit & led:
                void[s] |= led
        if prevent:
            cards_now = tuple(c for _, c in view.trick)
            _hints_of_trick(
                view.trick_leader,
                cards_now,
                trump_bits,
                seat,
                played_by,
                pending,
                sides,
                hint_weights,
            )

    if view.contract in MISERE_CONTRACTS:
        pending = []  # a misère player ducks on purpose: not beating a card says nothing
    hints = [(s, forbid, played_by[s] & ~before, w) for s, forbid, before, w in pending]
    deck = deck_mask(rules.removed_ranks)
    unknown = deck & ~my_hand & ~played
    fixed = [0, 0, 0, 0, 0]
    fixed[seat] = my_hand
    out_size = 0
    out_is_discard = False
    # per destination: cards it may hold (before placing fixed cards)
    allowed = [deck & ~void[s] for s in range(4)] + [deck]
    allowed[seat] = 0

    turn_up = view.turn_up
    ruffer = view.ruffer
    stock = rules.stock_size
    ace = (1 << (trump * 13 + 12)) if trump != NO_TRUMP else 0

    def place(mask: int, dest: int) -> None:
        nonlocal unknown
        mask &= unknown
        fixed[dest] |= mask
        unknown &= ~mask

    if stock:
        out_size = stock
        if view.ruff_state == "taken" and ruffer is not None:
            if ruffer == seat:
                # my own discards are known and out of play
                for c in view.my_discards:
                    unknown &= ~c.bit
                    fixed[OUT] |= c.bit
                out_size = 0
            else:
                out_is_discard = True
                # turn-up and trump ace came into the ruffer's 16 cards
                keep = (turn_up.bit if turn_up is not None else 0) | ace
                for s in range(4):
                    if s != ruffer:
                        allowed[s] &= ~keep
        elif view.ruff_state == "pending" and ruffer is not None:
            out_size = stock
            if turn_up is not None:
                place(turn_up.bit, OUT)
        else:
            # declined, or nobody ruffed: the stock stays out with the turn-up in it
            if turn_up is not None:
                place(turn_up.bit, OUT)
            if ruffer is None and ace and turn_up is not None and turn_up.bit != ace:
                place(ace, OUT)  # nobody held the trump ace: it is in the stock
            elif ruffer is not None and ruffer != view.dealer:
                for s in range(4):
                    if s != ruffer:
                        allowed[s] &= ~ace
                allowed[OUT] &= ~ace
        # cards already placed out count against the out pile
        out_size -= (
            fixed[OUT].bit_count() if not (view.ruff_state == "taken" and ruffer == seat) else 0
        )
        out_size = max(0, out_size)
    elif turn_up is not None and view.turn_up_holder is not None and view.turn_up_holder != seat:
        place(turn_up.bit, view.turn_up_holder)

    for s, c in view.shown_honours:
        if s != seat:
            place(c.bit & ~played, s)
    for s, exposed in view.exposed:  # a hand face up on the table (Spread Misère)
        if s != seat:
            for c in exposed:
                place(c.bit & ~played, s)

    # honour counts revealed by the Can-ye declarations
    limits = [(0, 4)] * 4
    if honours and rules.can_ye_enabled:
        asked: set[int] = set()
        for s, what in view.calls:
            asked.add(s)
            if what == "can_ye_unanswered":
                limits[s] = (2, 2)
                limits[(s + 2) % 4] = (0, 0)
            elif what == "pass":
                lo, hi = limits[s]
                limits[s] = (max(lo, 2), hi)
        if rules.can_ye_window == "before_first_lead" and view.phase == "play":
            for s in range(4):
                side = s % 2
                if (
                    s not in asked
                    and side < len(view.start_scores)
                    and rules.can_call_at(view.start_scores[side])
                ):
                    lo, hi = limits[s]
                    limits[s] = (lo, min(hi, 1))
        for s in range(4):
            if s == seat:
                limits[s] = (0, 4)

    return Situation(
        seat=seat,
        rules=rules,
        trump=trump,
        honours=honours,
        my_hand=my_hand,
        leader=view.trick_leader,
        trick=trick,
        tricks=(view.tricks[0], view.tricks[1]) if len(view.tricks) >= 2 else (0, 0),
        tricks_total=rules.tricks_per_deal,
        sizes=(view.hand_sizes[0], view.hand_sizes[1], view.hand_sizes[2], view.hand_sizes[3]),
        played=played,
        played_by=played_by,
        unknown=unknown,
        fixed=fixed,
        allowed=allowed,
        out_size=out_size,
        out_is_discard=out_is_discard,
        honour_limits=limits,
        hints=hints,
        start_scores=(view.start_scores[0], view.start_scores[1])
        if len(view.start_scores) >= 2
        else (0, 0),
        target=view.target,
        sides=view.sides if len(view.sides) == 4 else (0, 1, 0, 1),
    )


def _hints_of_trick(
    leader: int,
    cards: tuple[Card, ...],
    trump_bits: int,
    me: int,
    played_by: list[int],
    out: list[tuple[int, int, int, float]],
    sides: tuple[int, ...] = (0, 1, 0, 1),
    weights: tuple[float, float, float] = HINT_WEIGHTS,
) -> None:
    """Soft hints from the third and fourth cards of a trick (see :func:`_hint`)."""
    for pos in (2, 3):
        if pos >= len(cards):
            break
        seat = (leader + pos) % 4
        if seat == me:
            continue
        hint = _hint(cards[: pos + 1], trump_bits, leader, sides, weights)
        if hint:
            out.append((seat, hint[0], played_by[seat], hint[1]))


def _hint(
    cards: tuple[Card, ...],
    trump_bits: int,
    leader: int = 0,
    sides: tuple[int, ...] = (0, 1, 0, 1),
    weights: tuple[float, float, float] = HINT_WEIGHTS,
) -> tuple[int, float] | None:
    """What the player of the trick's last card (third or fourth) probably lacked.

    With an opponent winning so far: following suit without beating the
    winner suggests no higher card of the suit (a strong hint for the fourth
    hand, for whom the trick was there for the taking; weaker for the third,
    who may be finessing); a void fourth hand who threw a side card instead of
    trumping suggests no trumps.
    """
    pos = len(cards) - 1
    before = [c.index for c in cards[:pos]]
    trump = (trump_bits.bit_length() - 1) // 13 if trump_bits else NO_TRUMP
    win_pos = trick_winner_pos(before, trump)
    if sides[(leader + win_pos) % 4] == sides[(leader + pos) % 4]:
        return None  # his side was winning: no reason to beat it
    win = cards[win_pos]
    mine = cards[pos]
    led = cards[0].suit_mask
    if mine.bit & led:
        if win.bit & led and mine.index < win.index:
            above = led & ~((win.bit << 1) - 1)
            return (above, weights[0] if pos == 3 else weights[1])
        return None
    if pos == 3 and trump_bits and not win.bit & trump_bits and not mine.bit & trump_bits:
        return (trump_bits, weights[2])
    return None


def _hint_weight(sit: Situation, hands: list[int]) -> float:
    weight = 1.0
    for seat, forbid, since, w in sit.hints:
        if (hands[seat] | since) & forbid:
            weight *= w
    return weight


def _out_weight(card: int, trump: int) -> float:
    """How likely a ruffer is to lay this card out (relative)."""
    rank = card % 13
    if card // 13 == trump:
        return 0.03 if rank >= 9 else 0.1
    if rank == 12:
        return 0.15
    if rank >= 10:
        return 0.4
    return 1.0


def sample_world(
    sit: Situation, rng: random.Random, tries: int = 40, inference: bool = False
) -> list[int] | None:
    """Deal the unknown cards: the four current hands (the seat's own included).

    With ``inference``, deals that contradict the soft hints from play (see
    :func:`_last_hand_hint`) are kept only with the hints' weights, so worlds
    come in proportion to how well they explain the cards played.
    Returns ``None`` only if no consistent deal was found (the caller then
    falls back to a rule-based choice).
    """
    seat = sit.seat
    dests = [s for s in range(4) if s != seat]
    need = {s: sit.sizes[s] - sit.fixed[s].bit_count() for s in dests}
    need[OUT] = sit.out_size
    dests.append(OUT)
    if any(v < 0 for v in need.values()):
        return None
    pool = [i for i in range(52) if sit.unknown >> i & 1]
    if len(pool) != sum(need.values()):
        # the view and the rules disagree (an override we cannot see): be lenient
        short = len(pool) - sum(need.values())
        if short > 0:
            need[OUT] += short
        else:
            return None
    check_honours = any(lim != (0, 4) for lim in sit.honour_limits)
    for attempt in range(tries):
        hands = _deal(sit, pool, dests, need, rng, strict=attempt < tries - 5)
        if hands is None:
            continue
        if check_honours and attempt < tries - 5 and not _honours_ok(sit, hands):
            continue
        if (
            inference
            and sit.hints
            and attempt < tries // 2
            and rng.random() >= _hint_weight(sit, hands)
        ):
            continue
        return hands
    return None


def sample_world_by_hints(sit: Situation, rng: random.Random, tries: int = 40) -> list[int] | None:
    """A deal of the unknown cards that keeps every hint from play not already broken:
    the cards a hint says a seat lacked are dealt elsewhere (each hint taken as a rule).
    ``None`` when no such deal was found, or there are no hints (:func:`sample_world`
    then)."""
    if not sit.hints:
        return None
    allowed = list(sit.allowed)
    kept = [(seat, forbid) for seat, forbid, since, _w in sit.hints if not since & forbid]
    for seat, forbid in kept:  # not broken yet: the seat has shown no such card since
        allowed[seat] &= ~forbid
    world = sample_world(replace(sit, allowed=allowed), rng, tries)
    if world is None or any(world[seat] & forbid for seat, forbid in kept):
        return None  # (its last tries deal leniently, past the rules)
    return world


def enumerate_worlds(
    sit: Situation, limit: int, inference: bool = False
) -> list[tuple[list[int], float]] | None:
    """Every deal of the unknown cards consistent with the seat's knowledge, with weights.

    Used in the endgame, where the unseen cards are few: playing against all
    the worlds that can be is exact where sampling a few of them is not (and
    does not depend on how busy the machine is). A world's weight is the
    relative likelihood of the ruffer's discards (when the out pile is his
    lay-out, see :func:`_out_weight`) times, with ``inference``, the soft hints
    from play. Worlds that break what Can-ye revealed are left out. Worlds
    differing only in which cards are out of play are distinct (the weights
    account for them). Returns ``None`` when there are more than ``limit``
    worlds (the caller samples instead) or the view and rules disagree.
    """
    seat = sit.seat
    seats = [s for s in range(4) if s != seat]
    room = [0, 0, 0, 0, sit.out_size]
    for s in seats:
        room[s] = sit.sizes[s] - sit.fixed[s].bit_count()
    if any(r < 0 for r in room):
        return None
    pool = [i for i in range(52) if sit.unknown >> i & 1]
    if len(pool) != sum(room) or len(pool) > ENUMERATE_MAX_CARDS:
        return None
    allowed = sit.allowed
    # most constrained cards first: dead ends show up early
    options = sorted(
        ((c, [d for d in (*seats, OUT) if allowed[d] >> c & 1]) for c in pool),
        key=lambda item: len(item[1]),
    )
    if any(not opts for _c, opts in options):
        return None
    weighted_out = sit.out_is_discard
    trump = sit.trump
    check_honours = any(lim != (0, 4) for lim in sit.honour_limits)
    out: list[tuple[list[int], float]] = []
    hands = [sit.fixed[s] for s in range(4)]
    too_many = False

    def place(k: int, weight: float) -> None:
        nonlocal too_many
        if too_many:
            return
        if k == len(options):
            if check_honours and not _honours_ok(sit, hands):
                return
            w = weight * _hint_weight(sit, hands) if inference and sit.hints else weight
            if len(out) >= limit:
                too_many = True
                return
            out.append((list(hands), w))
            return
        card, opts = options[k]
        bit = 1 << card
        for d in opts:
            if not room[d]:
                continue
            room[d] -= 1
            if d == OUT:
                place(k + 1, weight * _out_weight(card, trump) if weighted_out else weight)
            else:
                hands[d] |= bit
                place(k + 1, weight)
                hands[d] ^= bit
            room[d] += 1

    place(0, 1.0)
    if too_many or not out:
        return None
    return out


def _deal(
    sit: Situation,
    pool: list[int],
    dests: list[int],
    need: dict[int, int],
    rng: random.Random,
    strict: bool,
) -> list[int] | None:
    allowed = sit.allowed if strict else [sit.unknown] * 5
    unconstrained = all(allowed[d] & sit.unknown == sit.unknown for d in dests)
    hands = [sit.fixed[s] for s in range(4)]
    out_weighted = sit.out_is_discard and need[OUT] > 0
    if unconstrained and not out_weighted:
        cards = pool[:]
        rng.shuffle(cards)
        k = 0
        for d in dests:
            n = need[d]
            if d != OUT:
                m = 0
                for c in cards[k : k + n]:
                    m |= 1 << c
                hands[d] |= m
            k += n
        return hands
    # most constrained cards first, each to an allowed destination in proportion
    # to the room left there (and, for a ruffer's discards, to how likely he was
    # to lay that card out)
    options: list[tuple[int, float, int, list[int]]] = []
    for c in pool:
        bit = 1 << c
        opts = [d for d in dests if need[d] and allowed[d] & bit]
        if not opts:
            return None
        options.append((len(opts), rng.random(), c, opts))
    options.sort()
    room = dict(need)
    trump = sit.trump
    for _n, _r, c, opts in options:
        weights = []
        total = 0.0
        for d in opts:
            w = float(room[d])
            if d == OUT and out_weighted:
                w *= _out_weight(c, trump)
            weights.append(w)
            total += w
        if total <= 0:
            return None
        x = rng.random() * total
        pick = opts[-1]
        for d, w in zip(opts, weights, strict=True):
            x -= w
            if x < 0:
                pick = d
                break
        if room[pick] <= 0:
            return None
        room[pick] -= 1
        if pick != OUT:
            hands[pick] |= 1 << c
    return hands


def _honours_ok(sit: Situation, hands: list[int]) -> bool:
    hon = sit.honours
    for s in range(4):
        lo, hi = sit.honour_limits[s]
        if lo == 0 and hi >= 4:
            continue
        held = ((hands[s] | sit.played_by[s]) & hon).bit_count()
        if not lo <= held <= hi:
            return False
    return True
