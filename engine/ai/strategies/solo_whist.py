"""Contract games (an auction, then one side against the other): bidding, naming trumps, play.

Used by every level when a game has an auction (``engine.phases.solo_auction``'s
:class:`~engine.phases.solo_auction.Bid`) and a contract (``SeatView.contract``).
The sides of the deal come from the view (``SeatView.sides``); seat roles come
from the contract:

* a **misère** player (the Misère / Spread Misère declarer, everyone in a general
  misère) tries to lose every trick: under the card winning so far with his
  highest such card, his highest card when he cannot, low leads into suits
  the others can beat;
* a **pusher** (an opponent of a misère declarer) tries to make him win one:
  low leads, ducking under the declarer's card, throwing high cards;
* everyone else plays whist by the sides of the view (win tricks for one's side).

``easy`` bids by rule of thumb (:func:`easy_bid`): estimated tricks with the
turn-up suit for Propose / Accept / Solo / Abundance in Trump, with the best
suit for Abundance and Slam, and a misère test (each suit's cards low enough,
counting from the bottom) for Misère and Spread. ``normal`` and ``hard``
(:func:`search_bid`) evaluate each contract the seat may bid over deals of
the unseen cards consistent with its view (the same sampling as their card
play), playing each out with the greedy policy here, and bid the one with the
best mean score for the seat when it beats passing; their card play in a
contract deal (:func:`search_card`) plays each candidate card out over sampled
deals with the same policy and keeps the best mean score of the contract's
settlement for the seat.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence

from engine.actions import Action, play
from engine.ai.search import clock
from engine.ai.search.bitmasks import (
    NO_TRUMP,
    SUIT_BITS,
    card_indices,
    high,
    low,
    play_mask,
    trick_winner_pos,
)
from engine.ai.search.determinized import candidate_cards
from engine.ai.search.worlds import MISERE_CONTRACTS, sample_world, situation
from engine.cards import Card
from engine.families.solo import contract_value
from engine.game import Game, SeatView
from engine.phases.solo_auction import SoloBid as Bid
from engine.phases.solo_auction import contract_rank
from engine.phases.solo_declare import NameTrump

__all__ = [
    "SoloStrategy",
    "best_suit",
    "contract_roles",
    "easy_bid",
    "easy_card",
    "easy_trump",
    "estimate_tricks",
    "is_contract_decision",
    "misere_danger",
    "search_bid",
    "search_card",
    "search_decision",
    "seat_points",
    "tricks_won_by_seat",
]

LOSE, PUSH, WIN = 0, 1, 2


def is_contract_decision(view: SeatView, legal: Sequence[Action]) -> bool:
    """Whether this decision belongs to a contract game (an auction call, trumps, or its play)."""
    return bool(view.contract) or any(isinstance(a, (Bid, NameTrump)) for a in legal)


def _mask(view: SeatView) -> int:
    m = 0
    for c in view.hand:
        m |= c.bit
    return m


# --------------------------------------------------------------------------- hand evaluation


def estimate_tricks(hand: int, trump: int) -> float:
    """Tricks a hand should take as declarer with ``trump`` (0..3, or NO_TRUMP)."""
    total = 0.0
    trumps = hand & SUIT_BITS[trump] if trump != NO_TRUMP else 0
    n_trumps = trumps.bit_count()
    for s in range(4):
        cards = hand & SUIT_BITS[s]
        n = cards.bit_count()
        if not n:
            if s != trump and n_trumps >= 2:
                total += min(2.0, n_trumps - 1.5)  # ruffs
            continue
        ranks = [c - 13 * s for c in range(13 * s, 13 * s + 13) if cards >> c & 1]
        ranks.sort(reverse=True)
        tops = 0.0
        for k, r in enumerate(ranks):  # A, then K with a guard, Q with two ...
            if r >= 12 - k and n > k:
                tops += 1.0
            elif r == 11 - k and n > k + 1:
                tops += 0.5
        if s == trump:
            total += max(tops, 0.0) + max(0, n - 3) * 0.9
        else:
            total += min(tops, float(n))
            if trump != NO_TRUMP and n == 1 and n_trumps >= 3:
                total += 0.5
            if trump == NO_TRUMP and n >= 5 and tops >= 2:
                total += n - 4  # a long suit runs once it is set up
    return total


def misere_danger(hand: int) -> int:
    """How far a hand is from losing every trick (0: safe enough to bid Misère).

    In each suit, counting from the lowest card, the ``k``-th card should be no
    higher than rank ``2k + 3`` (a 5 at the bottom, a 7 second ...).
    """
    danger = 0
    for s in range(4):
        cards = hand & SUIT_BITS[s]
        k = 0
        while cards:
            c = low(cards)
            cards &= cards - 1
            r = c - 13 * s
            danger += max(0, r - (2 * k + 3))
            k += 1
    return danger


def best_suit(hand: int) -> tuple[int, float]:
    best, value = 0, -1.0
    for s in range(4):
        v = estimate_tricks(hand, s)
        if v > value:
            best, value = s, v
    return best, value


def easy_bid(view: SeatView, legal: Sequence[Action]) -> Action:
    """A call by rule of thumb: the highest contract the hand supports, else pass."""
    hand = _mask(view)
    turn_up = view.turn_up.suit.order if view.turn_up is not None else NO_TRUMP
    with_turn_up = estimate_tricks(hand, turn_up)
    _, best_value = best_suit(hand)
    danger = misere_danger(hand)
    calls = {a.call: a for a in legal if isinstance(a, Bid)}
    wanted: list[str] = []
    if best_value >= 12.5:
        wanted.append("slam")
    if danger == 0 and _spread_safe(hand):
        wanted.append("spread")
    if with_turn_up >= 9.0:
        wanted.append("royal")
    if best_value >= 9.5:
        wanted.append("abund")
    if danger == 0:
        wanted.append("mis")
    if with_turn_up >= 6.0:
        wanted.append("solo")
    if "solo" in calls and "prop" not in calls and "accept" not in calls and with_turn_up >= 5.0:
        wanted.append("solo")  # converting a proposal nobody accepted
    if with_turn_up >= 4.0:
        wanted.append("accept")
        wanted.append("prop")
    for call in wanted:
        if call in calls:
            return calls[call]
    return calls.get("pass", legal[0])


def _spread_safe(hand: int) -> bool:
    """Every suit's ``k``-th lowest card at most rank ``2k + 1`` (a 3 at the bottom)."""
    for s in range(4):
        cards = hand & SUIT_BITS[s]
        k = 0
        while cards:
            c = low(cards)
            cards &= cards - 1
            if c - 13 * s > 2 * k + 1:
                return False
            k += 1
    return True


def easy_trump(view: SeatView, legal: Sequence[Action]) -> Action:
    """Name the suit the hand takes most tricks with."""
    suit, _ = best_suit(_mask(view))
    for a in legal:
        if isinstance(a, NameTrump) and a.suit.order == suit:
            return a
    return legal[0]


# --------------------------------------------------------------------------- card play


def contract_roles(contract: str, declarer: int | None) -> tuple[int, int, int, int]:
    if contract == "general":
        return (LOSE, LOSE, LOSE, LOSE)
    if contract in MISERE_CONTRACTS and declarer is not None:
        return tuple(LOSE if s == declarer else PUSH for s in range(4))  # type: ignore[return-value]
    return (WIN, WIN, WIN, WIN)


def lose_card(legal: int, trick: list[int], trump: int, others: int) -> int:
    """A misère player's card: lose the trick, shedding the highest card that still loses."""
    if not trick:
        # lead the lowest card that someone else can beat (prefer the lowest such)
        best, best_key = -1, (2, 99)
        for s in range(4):
            mine = legal & SUIT_BITS[s]
            if not mine:
                continue
            c = low(mine)
            beaten = others & SUIT_BITS[s] & ~((2 << c) - 1)
            key = (0 if beaten else 1, c - 13 * s)
            if key < best_key:
                best, best_key = c, key
        return best
    win = trick[trick_winner_pos(trick, trump)]
    led = trick[0] // 13
    follow = legal & SUIT_BITS[led]
    if follow:
        if win // 13 == led:
            under = follow & ((1 << win) - 1)
            if under:
                return high(under)
        else:
            return high(follow)  # trumped: anything of the suit loses
        return high(follow)  # cannot duck: at least shed the highest
    # void: throw the most dangerous card (the highest rank), never a winning trump
    safe = legal
    if trump != NO_TRUMP and win // 13 != trump:
        safe = legal & ~SUIT_BITS[trump] or legal
    best, best_rank = -1, -1
    for s in range(4):
        mine = safe & SUIT_BITS[s]
        if mine:
            c = high(mine)
            if c - 13 * s > best_rank:
                best, best_rank = c, c - 13 * s
    return best


def push_card(
    legal: int, trick: list[int], leader: int, seat: int, trump: int, target: int, theirs: int
) -> int:
    """An opponent of a misère player ``target`` (holding ``theirs`` as far as known): make him win."""
    n = len(trick)
    if not n:
        best, best_key = -1, (2, 99)
        for s in range(4):
            mine = legal & SUIT_BITS[s]
            if not mine:
                continue
            c = low(mine)
            his = theirs & SUIT_BITS[s]
            # a suit where all his cards are above my lowest forces him to win
            forced = his and low(his) > c
            key = (0 if forced else 1, c - 13 * s)
            if key < best_key:
                best, best_key = c, key
        return best
    played_by_target = (target - leader) % 4 < n
    win_pos = trick_winner_pos(trick, trump)
    win = trick[win_pos]
    led = trick[0] // 13
    follow = legal & SUIT_BITS[led]
    if follow:
        if played_by_target and (leader + win_pos) % 4 == target:
            under = follow & ((1 << win) - 1) if win // 13 == led else follow
            return high(under) if under else low(follow)
        if played_by_target:
            return high(follow)  # he is safe in this trick: shed a high card
        return low(follow)  # leave him room to be the highest
    # void: throw the highest card, keeping the low ones to lead later
    return (
        high(legal & ~SUIT_BITS[trump])
        if trump != NO_TRUMP and legal & ~SUIT_BITS[trump]
        else high(legal)
    )


def win_card(
    hands: list[int], seat: int, trick: list[int], leader: int, trump: int, sides: Sequence[int]
) -> int:
    """Whist by the deal's sides, with full sight of ``hands`` (the playout policy)."""
    hand = hands[seat]
    n = len(trick)
    mine_side = sides[seat]
    if not n:
        everyone = hands[0] | hands[1] | hands[2] | hands[3]
        best_len, lead = -1, -1
        for s in range(4):
            cards = hand & SUIT_BITS[s]
            if not cards:
                continue
            if high(cards) == high(everyone & SUIT_BITS[s]) and s != trump:
                return high(cards)
            if s == trump and high(cards) == high(everyone & SUIT_BITS[s]):
                opp_trumps = any(hands[o] & SUIT_BITS[s] for o in range(4) if sides[o] != mine_side)
                if opp_trumps:
                    return high(cards)  # draw trumps with the master
            length = cards.bit_count() - (4 if s == trump else 0)
            if length > best_len:
                best_len, lead = length, low(cards)
        return lead if lead >= 0 else low(hand)
    led = trick[0] // 13
    follow = hand & SUIT_BITS[led]
    win_pos = trick_winner_pos(trick, trump)
    win = trick[win_pos]
    ours = sides[(leader + win_pos) % 4] == mine_side
    later = [(leader + k) % 4 for k in range(n + 1, 4)]
    opps_later = [s for s in later if sides[s] != mine_side]
    if follow:
        if win // 13 != led:
            return low(follow)
        threat = win if not ours else -1
        ruff = False
        for s in opps_later:
            theirs = hands[s] & SUIT_BITS[led]
            if theirs:
                threat = max(threat, high(theirs))
            elif trump != NO_TRUMP and led != trump and hands[s] & SUIT_BITS[trump]:
                ruff = True
        if ours and (threat < win) and not ruff:
            return low(follow)
        if ruff:
            return low(follow)
        over = follow & ~((2 << max(threat, win)) - 1)
        return low(over) if over else low(follow)
    trumps = hand & SUIT_BITS[trump] if trump != NO_TRUMP else 0
    if trumps and not ours:
        floor = win if win // 13 == trump else trump * 13 - 1
        for s in opps_later:
            if not hands[s] & SUIT_BITS[led] and hands[s] & SUIT_BITS[trump]:
                floor = max(floor, high(hands[s] & SUIT_BITS[trump]))
        over = trumps & ~((2 << floor) - 1) if floor >= 0 else trumps
        if over:
            return low(over)
    rest = hand & ~trumps or hand
    best, best_rank = -1, 99
    for s in range(4):
        cards = rest & SUIT_BITS[s]
        if cards and low(cards) - 13 * s < best_rank:
            best, best_rank = low(cards), low(cards) - 13 * s
    return best


def _legal_of(hand: int, trick: list[int]) -> int:
    if trick:
        follow = hand & SUIT_BITS[trick[0] // 13]
        if follow:
            return follow
    return hand


def policy_card(
    hands: list[int],
    seat: int,
    trick: list[int],
    leader: int,
    trump: int,
    sides: Sequence[int],
    roles: Sequence[int],
    declarer: int,
) -> int:
    """The greedy card of the playouts (full sight of ``hands``)."""
    role = roles[seat]
    legal = _legal_of(hands[seat], trick)
    if role == WIN:
        return win_card(hands, seat, trick, leader, trump, sides)
    others = 0
    for s in range(4):
        if s != seat:
            others |= hands[s]
    if role == LOSE:
        return lose_card(legal, trick, trump, others)
    return push_card(legal, trick, leader, seat, trump, declarer, hands[declarer])


def playout(
    hands: list[int],
    leader: int,
    trick: list[int],
    trump: int,
    sides: Sequence[int],
    roles: Sequence[int],
    declarer: int,
    won: list[int],
) -> list[int]:
    """Play the deal out greedily; ``won`` (tricks per seat so far) is updated and returned.

    ``hands`` and ``trick`` are consumed.
    """
    while hands[0] | hands[1] | hands[2] | hands[3] or trick:
        seat = (leader + len(trick)) % 4
        while len(trick) < 4:
            c = policy_card(hands, seat, trick, leader, trump, sides, roles, declarer)
            hands[seat] ^= 1 << c
            trick.append(c)
            seat = (seat + 1) % 4
        winner = (leader + trick_winner_pos(trick, trump)) % 4
        won[winner] += 1
        leader = winner
        trick = []
    return won


# --------------------------------------------------------------------------- easy play


def easy_card(view: SeatView, legal: int) -> int | None:
    """The rule-of-thumb card in a misère deal (``None``: play whist by the sides)."""
    roles = contract_roles(view.contract, view.declarer)
    role = roles[view.seat]
    if role == WIN:
        return None
    sit = situation(view)
    trick = sit.trick
    trump = sit.trump
    others = sit.unknown
    for s in range(4):
        if s != sit.seat:
            others |= sit.fixed[s]
    if role == LOSE:
        return lose_card(legal, trick, trump, others)
    assert view.declarer is not None
    known = sit.fixed[view.declarer] | (sit.unknown & sit.allowed[view.declarer])
    return push_card(legal, trick, sit.leader, sit.seat, trump, view.declarer, known)


# --------------------------------------------------------------------------- search


def seat_points(view: SeatView, contract: str, sides: Sequence[int], won: Sequence[int]) -> float:
    """The seat's score for the deal ending with ``won`` tricks per seat."""
    rules = view.rules
    assert rules is not None
    seat = view.seat
    zero_sum = rules.settlement == "zero_sum"
    if contract == "general":
        v = contract_value(rules, "mis", 1)[1]
        loser = max(range(4), key=lambda s: won[s])
        if seat == loser:
            return float(-3 * v if zero_sum else -v)
        return float(v if zero_sum else 0)
    declaring = [s for s in range(4) if sides[s] == sides[_declarer_seat(sides)]]
    tricks = sum(won[s] for s in declaring)
    made, v = contract_value(rules, contract, tricks)
    sign = 1.0 if made else -1.0
    if seat in declaring:
        return sign * (v * (4 - len(declaring)) / len(declaring) if zero_sum else v)
    return -sign * v if zero_sum else 0.0


def _declarer_seat(sides: Sequence[int]) -> int:
    return sides.index(0)  # the declaring side is side 0 (engine.seating)


def tricks_won_by_seat(view: SeatView) -> list[int]:
    won = [0, 0, 0, 0]
    for _leader, _cards, winner in view.completed_tricks:
        won[winner] += 1
    return won


class SoloStrategy:
    """A seat's card in a contract deal of Solo Whist, as ``normal`` and ``hard`` play it
    (:class:`engine.ai.search.strategy.TableStrategy`).

    Worlds: :func:`~engine.ai.search.worlds.sample_world` (no inference: a misère
    player ducks on purpose, and the sides change with the contract). Value: the
    seat's points for the contract (:func:`seat_points`) after each card, the deal
    played out by the contract's policy (:func:`playout`: each seat winning, losing
    or pushing as its role says).
    """

    kind = "solo"
    unit = "points"

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.sit = situation(view)
        self._roles = contract_roles(view.contract, view.declarer)
        self._declarer = view.declarer if view.declarer is not None else 0
        self._base = tricks_won_by_seat(view)

    def candidates(self, legal: int) -> list[int]:
        return candidate_cards(self.sit, legal)

    def worlds(self, rng: random.Random) -> Iterator[tuple[list[int], float]]:
        while True:
            world = sample_world(self.sit, rng)
            if world is None:
                return
            yield world, 1.0

    def every_world(self, limit: int) -> list[tuple[list[int], float]] | None:
        return None

    def evaluate(self, world: list[int], cands: list[int], deadline: float) -> dict[int, float]:
        sit = self.sit
        view = self.view
        out: dict[int, float] = {}
        for c in cands:
            hands = list(world)
            hands[sit.seat] ^= 1 << c
            won = playout(
                hands,
                sit.leader,
                [*sit.trick, c],
                sit.trump,
                sit.sides,
                self._roles,
                self._declarer,
                list(self._base),
            )
            out[c] = seat_points(view, view.contract, sit.sides, won)
        return out

    def true_world(self, game: Game) -> list[int]:
        return list(game.hands)

    def choose(self, legal: int, rng: random.Random, budget: float, max_worlds: int) -> int | None:
        """The legal card with the best mean points over the worlds there is time for
        (every legal card, equivalent ones too, as it always has)."""
        start = clock.now()
        cands = card_indices(legal)
        if len(cands) == 1:
            return cands[0]
        totals = dict.fromkeys(cands, 0.0)
        worlds = 0
        sampler = self.worlds(rng)
        while worlds < max_worlds and (worlds < 2 or clock.now() - start < budget):
            sampled = next(sampler, None)
            if sampled is None:
                break
            for c, value in self.evaluate(sampled[0], cands, math.inf).items():
                totals[c] += value
            worlds += 1
        if not worlds:
            return None
        return max(cands, key=lambda c: (totals[c], -(c % 13)))


def search_card(
    view: SeatView, legal: int, rng: random.Random, budget: float, max_worlds: int
) -> int | None:
    """The legal card with the best mean settlement for the seat over sampled deals."""
    return SoloStrategy(view).choose(legal, rng, budget, max_worlds)


def search_bid(
    view: SeatView, legal: Sequence[Action], rng: random.Random, budget: float, worlds: int
) -> Action:
    """Bid the contract with the best mean score over sampled deals, if it beats passing.

    Each contract the seat may bid alone (Solo and up) is played out with the
    seat as declarer in deals of the unseen cards; Propose and Accept, whose
    partner is not known yet, and the proposer's conversion are decided by
    rule of thumb (:func:`easy_bid`).
    """
    calls = {a.call: a for a in legal if isinstance(a, Bid)}
    if "accept" in calls or "prop" not in calls and "solo" in calls and "mis" not in calls:
        return easy_bid(view, legal)  # accepting, or converting an unaccepted proposal
    start = clock.now()
    sit = situation(view)
    hand = sit.my_hand
    seat = view.seat
    turn_up = view.turn_up.suit.order if view.turn_up is not None else NO_TRUMP
    chosen_suit, _ = best_suit(hand)
    options = [c for c in ("solo", "mis", "abund", "royal", "spread", "slam") if c in calls]
    if not options:
        return easy_bid(view, legal)
    totals = dict.fromkeys(options, 0.0)
    sides = tuple(0 if s == seat else 1 for s in range(4))
    rules = view.rules
    assert rules is not None
    done = 0
    while done < worlds and (done < 3 or clock.now() - start < budget):
        world = sample_world(sit, rng)
        if world is None:
            break
        for contract in options:
            if contract in ("mis", "spread"):
                trump = NO_TRUMP
            elif contract in ("abund",) or (contract == "slam" and rules.slam_trump != "none"):
                trump = chosen_suit
            elif contract == "slam":
                trump = NO_TRUMP
            else:
                trump = turn_up
            roles = contract_roles(contract, seat)
            leader = seat if contract == "slam" else view.eldest
            won = playout(list(world), leader, [], trump, sides, roles, seat, [0, 0, 0, 0])
            v = seat_points(view, contract, sides, won)
            if contract == "spread":
                v -= 1.0  # the opponents see the hand: greedy playouts flatter it
            totals[contract] += v
        done += 1
    if not done:
        return easy_bid(view, legal)
    best = max(options, key=lambda c: (totals[c], contract_rank(c)))
    if totals[best] / done > 0.5:
        return calls[best]
    if "prop" in calls:
        heuristic = easy_bid(view, legal)
        if isinstance(heuristic, Bid) and heuristic.call == "prop":
            return heuristic
    return calls.get("pass", legal[0])


def search_decision(
    view: SeatView,
    legal: Sequence[Action],
    rng: random.Random,
    budget: float,
    worlds: int,
    fallback: Callable[[], Action],
) -> Action:
    """normal's and hard's choice in a contract deal (they differ only in ``budget``
    and ``worlds``): a bid by sampled deals, trumps by rule of thumb, a card by
    sampled deals and playouts; ``fallback`` when no deal could be scored."""
    if any(isinstance(a, Bid) for a in legal):
        return search_bid(view, legal, rng, budget, worlds)
    if any(isinstance(a, NameTrump) for a in legal):
        return easy_trump(view, legal)
    found = search_card(view, play_mask(legal), rng, budget, worlds)
    return fallback() if found is None else play(Card.from_index(found))
