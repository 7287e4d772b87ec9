"""A conventional rule-based player: the classic maxims as a careful human plays them.

An outside baseline for the arena (level ``rules``, never offered to players):
no search and no sampling, only what its own :class:`~engine.game.SeatView`
shows. Written from the maxims of the whist books:

* leading: draw trumps when long in them (at least four, and more than a
  quarter of those still out); return partner's suit (the top of two left,
  else the lowest); otherwise lead from strength: the top of a sequence of
  honours, else the fourth best of the longest side suit (the lowest of a
  shorter one);
* second hand low, but cover an honour with an honour;
* third hand high (the lowest of the cards equal to the highest), unless
  partner's card already wins the trick against everything out;
* last hand: win as cheaply as possible, or play low;
* void in the suit led: ruff (as cheaply as wins) unless partner holds the
  trick; otherwise discard from weakness (the lowest card of the weakest,
  shortest side suit);
* a misère contract: the declarer plays his highest card that still loses
  (leads his lowest), the defenders play low.

Each family's own decisions by simple rules: take the ruff; lay out (ruff,
rub, kitty) from weakness, keeping trumps, masters and honours; show honours
and call Can-ye whenever allowed; state the true ruff; bid by counting sure
tricks (aces, guarded kings, trump length) and name the longest suit as trumps;
agree to a concession, and accept a claim only when the claimer's shown cards
are all top cards (:func:`answer_claim`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from engine.actions import (
    Action,
    CallCanYe,
    DeclineRuff,
    Discard,
    Pass,
    Play,
    ShowHonours,
    TakeRuff,
)
from engine.ai.search.worlds import MISERE_CONTRACTS, rules_for
from engine.ai.strategies.conventional import estimated_tricks
from engine.ai.strategies.obvious import claim_for
from engine.cards import Card, Rank, Suit, deck_with_jokers, mask_of
from engine.claims import AcceptClaim, AgreeConcession, RejectClaim
from engine.game import SeatView
from engine.phases.auction import Bid
from engine.phases.contract import NameDirection
from engine.phases.solo_auction import SoloBid
from engine.phases.solo_declare import NameTrump

__all__ = ["ConventionalPlayer", "answer_claim"]

HONOUR = Rank.JACK  # a card this high or higher is an honour for the maxims


class ConventionalPlayer:
    """Level ``rules``: the table maxims and simple rules for every other decision."""

    def __init__(self, name: str = "rules") -> None:
        self.name = name

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if any(isinstance(a, (AcceptClaim, AgreeConcession)) for a in legal):
            answer = answer_claim(view)
            return answer if answer in legal else legal[0]
        claim = claim_for(view, legal)
        if claim is not None:
            return claim
        for kind in (ShowHonours, CallCanYe, TakeRuff):
            for action in legal:
                if isinstance(action, kind):
                    return action
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return _Table(view).play([a.card for a in plays])
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            card = _Table(view).weakest([a.card for a in discards], lay_out=True)
            return Discard(card) if Discard(card) in legal else discards[0]
        if any(isinstance(a, SoloBid) for a in legal):
            return _solo_call(view, legal)
        if any(isinstance(a, Bid) for a in legal):
            return _bid_whist_bid(view, legal)
        trumps = [a for a in legal if isinstance(a, NameTrump)]
        directions = [a for a in legal if isinstance(a, NameDirection)]
        if trumps or directions:
            return _name(view, trumps, directions)
        for action in legal:
            if isinstance(action, (Pass, DeclineRuff)):
                return action
        return legal[0]

    def __repr__(self) -> str:
        return "ConventionalPlayer()"


class _Table:
    """What the seat knows of the deal in play, read once for a decision."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.rules = rules_for(view)
        self.trump = view.trump
        self.order = view.rank_order
        self.hand = list(view.hand)
        seen = set(view.hand)
        for _, cards, _ in view.completed_tricks:
            seen.update(cards)
        seen.update(card for _, card in view.trick)
        for piles in view.layouts:
            for pile in piles:
                if pile.up is not None:
                    seen.add(pile.up)
        for _, cards in view.exposed:
            seen.update(cards)
        deck = deck_with_jokers(self.rules.jokers, self.rules.removed_ranks)
        self.out = [c for c in deck if c not in seen]  # cards this seat has not seen
        sides = view.sides or tuple(s % 2 for s in range(len(view.hand_sizes)))
        me = view.seat
        self.partners = {s for s in range(len(sides)) if s != me and sides[s] == sides[me]}

    # -- card values ---------------------------------------------------------------

    def suit_of(self, card: Card) -> Suit | None:
        return self.trump if card.is_joker else card.suit

    def key(self, card: Card) -> int:
        return self.order.key(card, self.trump)

    def is_master(self, card: Card) -> bool:
        """No card this seat has not seen of its suit beats it."""
        suit = self.suit_of(card)
        k = self.key(card)
        return not any(self.suit_of(c) is suit and self.key(c) > k for c in self.out)

    def suit_cards(self, cards: Iterable[Card], suit: Suit | None) -> list[Card]:
        return sorted((c for c in cards if self.suit_of(c) is suit), key=self.key, reverse=True)

    def winning(self, trick: Sequence[tuple[int, Card]]) -> tuple[int, Card]:
        cards = [c for _, c in trick]
        i = self.order.trick_winner(cards, self.trump)
        return trick[i]

    def beats(self, card: Card, best: Card, led: Suit | None) -> bool:
        return self.order.beats(card, best, led, self.trump)

    # -- the maxims ----------------------------------------------------------------

    def play(self, cards: list[Card]) -> Play:
        view = self.view
        misere = view.contract in MISERE_CONTRACTS
        if misere:
            card = self._misere(cards, view.declarer == view.seat)
        elif not view.trick:
            card = self._lead(cards)
        else:
            card = self._follow(cards)
        return Play(card)

    def _lowest(self, cards: Iterable[Card]) -> Card:
        return min(cards, key=lambda c: (c.is_joker or c.suit is self.trump, self.key(c), c.index))

    def _misere(self, cards: list[Card], declarer: bool) -> Card:
        trick = self.view.trick
        if not trick or not declarer:
            return min(cards, key=lambda c: (self.key(c), c.index))
        _, best = self.winning(trick)
        led = self.suit_of(trick[0][1])
        losing = [c for c in cards if not self.beats(c, best, led)]
        if losing:
            return max(losing, key=lambda c: (self.key(c), c.index))
        return min(cards, key=lambda c: (self.key(c), c.index))

    def _lead(self, cards: list[Card]) -> Card:
        trump = self.trump
        mine = self.hand or cards
        if trump is not None:
            trumps = self.suit_cards(cards, trump)
            out = len(self.suit_cards(self.out, trump))
            if trumps and out and len(trumps) >= 4 and len(trumps) * 4 > out:
                top = trumps[0]
                return top if self.is_master(top) else trumps[-1]
        returned = self._partners_suit(cards)
        if returned is not None:
            return returned
        for card in sorted(cards, key=self.key, reverse=True):
            if self.suit_of(card) is not trump and self.is_master(card):
                return card  # cash a master before it is ruffed
        suits = {self.suit_of(c) for c in cards if self.suit_of(c) is not trump} or {trump}
        best_suit = max(
            suits,
            key=lambda s: (
                len(self.suit_cards(mine, s)),
                sum(self.key(c) for c in self.suit_cards(mine, s)),
            ),
        )
        held = self.suit_cards(cards, best_suit)
        if (
            len(held) >= 2
            and (held[0].is_joker or held[0].rank >= HONOUR)
            and self._touching(held[0], held[1])
        ):
            return held[0]  # top of a sequence
        if len(held) >= 4:
            return held[3]  # fourth best
        return held[-1]

    def _touching(self, high: Card, low: Card) -> bool:
        """No unseen card of their suit lies between them."""
        suit = self.suit_of(high)
        lo, hi = self.key(low), self.key(high)
        return not any(self.suit_of(c) is suit and lo < self.key(c) < hi for c in self.out)

    def _partners_suit(self, cards: list[Card]) -> Card | None:
        for leader, played, _ in self.view.completed_tricks:
            if leader in self.partners and played:
                suit = self.suit_of(played[0])
                if suit is self.trump:
                    continue
                held = self.suit_cards(cards, suit)
                if held:
                    return held[0] if len(held) <= 2 else held[-1]
        return None

    def _follow(self, cards: list[Card]) -> Card:
        trick = self.view.trick
        led = self.suit_of(trick[0][1])
        winner_seat, best = self.winning(trick)
        players = len(self.view.hand_sizes)
        last = len(trick) == players - 1
        partner_wins = winner_seat in self.partners
        following = [c for c in cards if self.suit_of(c) is led]
        beating = sorted((c for c in cards if self.beats(c, best, led)), key=self.key)
        if following:
            if partner_wins and (last or self.is_master(best)):
                return self._lowest(following)
            if len(trick) == 1 and not last:
                # second hand low; cover an honour with an honour
                if not best.is_joker and best.rank >= HONOUR:
                    covers = [c for c in beating if c.is_joker or c.rank >= HONOUR]
                    if covers:
                        return covers[0]
                return self._lowest(following)
            if last:
                return beating[0] if beating else self._lowest(following)
            # third hand high: the cheapest card equal to the highest
            ordered = sorted(following, key=self.key, reverse=True)
            top = ordered[0]
            if not self.beats(top, best, led):
                return self._lowest(following)
            for card in ordered[1:]:
                if self._touching(top, card) and self.beats(card, best, led):
                    top = card
                else:
                    break
            return top
        if partner_wins and (last or self.is_master(best)):
            return self.weakest(cards)
        trumps = [c for c in beating if self.suit_of(c) is self.trump]
        if trumps:
            return trumps[0]  # ruff as cheaply as wins
        return self.weakest(cards)

    def weakest(self, cards: Sequence[Card], lay_out: bool = False) -> Card:
        """Discard from weakness: the lowest card of the weakest, shortest side suit.

        Trumps, masters and honours go last; laying out (the ruff's four, the
        rub, the kitty) also keeps guarded kings and queens.
        """
        held = self.hand or list(cards)

        def cost(card: Card) -> tuple[int, int, int, int, int]:
            suit = self.suit_of(card)
            same = self.suit_cards(held, suit)
            strong = sum(1 for c in same if c.is_joker or c.rank >= HONOUR)
            keep = int(suit is self.trump) * 2 + int(self.is_master(card))
            if lay_out and not card.is_joker and card.rank >= Rank.QUEEN and len(same) >= 2:
                keep += 1
            return (keep, strong, len(same), self.key(card), card.index)

        return min(cards, key=cost)


def answer_claim(view: SeatView) -> Action:
    """Agree to a concession; accept a claim when the claimer's shown hand holds
    only top cards (each beats every card of its suit still out, his trumps
    outnumber and outrank the others'), else reject it."""
    from engine.ai.strategies.claims import top_cards

    note = view.note("claim")
    if not isinstance(note, tuple) or len(note) != 4:
        return AgreeConcession()
    hand = mask_of(note[3])
    rules = rules_for(view)
    played = mask_of(card for _, card in view.trick)
    for _, cards, _ in view.completed_tricks:
        played |= mask_of(cards)
    others = mask_of(deck_with_jokers(rules.jokers, rules.removed_ranks)) & ~played & ~hand
    sure = top_cards(hand, others, view.trump, view.rank_order)
    return AcceptClaim() if sure else RejectClaim()


# -- auctions ----------------------------------------------------------------------


def _longest(hand: Sequence[Card]) -> Suit:
    return max(
        Suit,
        key=lambda s: (
            sum(1 for c in hand if not c.is_joker and c.suit is s),
            sum(int(c.rank) for c in hand if not c.is_joker and c.suit is s),
        ),
    )


def _solo_call(view: SeatView, legal: Sequence[Action]) -> Action:
    """Solo Whist: the highest contract the count of sure tricks makes."""
    calls = {a.call: a for a in legal if isinstance(a, SoloBid)}
    hand = view.hand
    trump = view.trump or _longest(hand)
    tricks = estimated_tricks(hand, trump)
    low = all(not c.is_joker and c.rank <= Rank.NINE for c in hand) or (
        sum(1 for c in hand if not c.is_joker and c.rank >= HONOUR) == 0
        and all(sum(1 for c in hand if not c.is_joker and c.suit is s) != 1 for s in Suit)
    )
    wanted: list[str] = []
    if tricks >= 12.5:
        wanted.append("slam")
    if tricks >= 9:
        wanted += ["royal", "abund"]
    if low:
        wanted.append("mis")
    if tricks >= 5:
        wanted.append("solo")
    if tricks >= 4:
        wanted += ["accept", "prop"]
    for call in wanted:
        if call in calls:
            return calls[call]
    return calls.get("pass", legal[0])


def _bid_whist_bid(view: SeatView, legal: Sequence[Action]) -> Action:
    """Bid Whist: books over six by the count, in the mode the hand suits."""
    hand = view.hand
    trump = _longest(hand)
    high = estimated_tricks(hand, trump)
    low_cards = sum(1 for c in hand if not c.is_joker and c.rank <= Rank.FIVE)
    low = low_cards * 0.8 + sum(1 for c in hand if c.is_joker)
    # with partner's help, a hand's sure tricks are about half of the book count
    books = {"u": high + 2.5, "d": low + 2.5, "n": high + 1.5}
    bids = [a for a in legal if isinstance(a, Bid)]
    makeable = [b for b in bids if b.number + 6 <= books.get(b.mode, 0)]
    if makeable:
        return min(makeable, key=lambda b: (b.number, -books.get(b.mode, 0)))
    for action in legal:
        if isinstance(action, Pass):
            return action
    return min(bids, key=lambda b: b.number) if bids else legal[0]


def _name(view: SeatView, trumps: list[NameTrump], directions: list[NameDirection]) -> Action:
    hand = view.hand
    if trumps:
        best = _longest(hand)
        for action in trumps:
            if action.suit is best:
                return action
        return trumps[0]
    high = sum(1 for c in hand if not c.is_joker and c.rank >= HONOUR)
    low = sum(1 for c in hand if not c.is_joker and c.rank <= Rank.FIVE)
    want = "uptown" if high >= low else "downtown"
    for named in directions:
        if named.direction == want:
            return named
    return directions[0]
