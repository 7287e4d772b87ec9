"""Why a decision is good, in words a learner knows: the reason behind a hint.

:func:`explain` looks at one seat's :class:`~engine.game.SeatView` and the
action chosen for it (by the hard AI, for a hint) and names the maxim that
action follows ("second hand low", "draw trumps: 3 out", "ruff: you are
void", "duck: the ace is still out"...), or the count behind an auction call.
It reads the view only, so a reason never tells more than the seat may know:
"out" always means *not yet seen by this seat* (in another hand, or out of
play unseen). Where no maxim fits, the reason says the choice came from the
search over the deals the seat cannot rule out (``"search"``).

A :class:`Reason` is a code and its arguments; the words (in the reader's
language) are the bot's (``bot.present.render.coach``). :func:`hint` is the
whole hint: the hard AI's choice at a given budget, and its reason.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

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
from engine.cards import Card, Rank, Suit, deck_with_jokers
from engine.game import SeatView
from engine.phases.auction import Bid
from engine.phases.contest import RuffClaim, best_suit
from engine.phases.contract import NameDirection
from engine.phases.solo_auction import SoloBid
from engine.phases.solo_declare import NameTrump

__all__ = ["REASONS", "Reason", "explain", "hint"]

HONOUR = Rank.JACK  # the maxims' honours: knave and above

REASONS = (
    "only",  # the one legal card (or choice)
    "draw_trumps",  # n: trumps still out
    "return_partner",  # suit: the suit partner led
    "cash_master",  # card: the top card of its suit left
    "top_of_sequence",
    "fourth_best",
    "lead_low",  # the lowest of the suit led from
    "lead_trump_low",
    "second_low",
    "cover_honour",  # card: the honour covered
    "third_high",
    "win_cheaply",  # last to play
    "win_now",  # the cheapest card that wins, before the last hand
    "finesse",  # card: the higher card still out, between yours
    "partner_winning",
    "duck",  # card: the higher card still out
    "follow_low",  # cannot win the trick: the lowest card of the suit
    "ruff",  # suit: the suit you are void in
    "overruff",
    "discard_weak",  # suit: the suit discarded from
    "misere_under",  # misère declarer: the highest card that still loses
    "misere_low",
    "take_ruff",
    "decline_ruff",
    "lay_out_weak",  # suit
    "lay_out",  # the search chose it
    "show_honours",  # n honours held
    "call_canye",
    "pass_canye",
    "solo_call",  # call, n sure tricks (rounded down)
    "solo_pass",  # n
    "solo_misere",
    "bid_books",  # n books, mode
    "bid_pass",
    "name_longest",  # suit, n cards
    "direction",  # mode (uptown / downtown), n cards counted
    "true_ruff",  # n value, suit
    "search",
)


@dataclass(frozen=True, slots=True)
class Reason:
    """Why: one of :data:`REASONS` and what its words need."""

    code: str
    n: int = 0
    suit: Suit | None = None
    card: Card | None = None
    call: str = ""  # an auction's call, a Bid Whist mode, a direction


def hint(
    view: SeatView, legal: Sequence[Action], rng: random.Random, budget: float, cap: float
) -> tuple[Action, Reason]:
    """The hard AI's choice for ``view``'s seat at ``budget`` seconds (``cap`` at most),
    and the reason for it in words (:func:`explain`)."""
    from engine.ai.players import get_player

    player = get_player("hard", budget=budget, cap=cap)
    action = player.choose(view, legal, rng)
    return action, explain(view, action)


def explain(view: SeatView, action: Action) -> Reason:
    """The reason ``action`` is good for the seat of ``view`` (reading the view only)."""
    if isinstance(action, Play):
        return _Plays(view).explain(action.card)
    if isinstance(action, TakeRuff):
        return Reason("take_ruff")
    if isinstance(action, DeclineRuff):
        return Reason("decline_ruff")
    if isinstance(action, Discard):
        return _Plays(view).lay_out(action.card)
    if isinstance(action, ShowHonours):
        return Reason("show_honours", n=_honours_held(view))
    if isinstance(action, CallCanYe):
        return Reason("call_canye", n=_honours_held(view))
    if isinstance(action, SoloBid):
        return _solo_call(view, action)
    if isinstance(action, Bid):
        return _books(view, action)
    if isinstance(action, NameTrump):
        held = sum(1 for c in view.hand if not c.is_joker and c.suit is action.suit)
        return Reason("name_longest", n=held, suit=action.suit)
    if isinstance(action, NameDirection):
        if action.direction == "downtown":
            n = sum(1 for c in view.hand if not c.is_joker and c.rank <= Rank.FIVE)
        else:
            n = sum(1 for c in view.hand if not c.is_joker and c.rank >= HONOUR)
        return Reason("direction", n=n, call=action.direction)
    if isinstance(action, RuffClaim):
        rules = rules_for(view)
        mask = 0
        for c in view.hand:
            mask |= c.bit
        value, suit = best_suit(mask, view.turn_up, view.trump, rules.ruff_measure)
        return Reason("true_ruff", n=action.value, suit=suit if value == action.value else None)
    if isinstance(action, Pass):
        if any(isinstance(a, Bid) for a in view.legal):
            return Reason("bid_pass", n=_book_count(view)[0])
        return Reason("pass_canye", n=_honours_held(view))
    if len(view.legal) == 1:
        return Reason("only")
    return Reason("search")


def _honours_held(view: SeatView) -> int:
    trump = view.trump
    return sum(
        1
        for c in view.hand
        if trump is not None and not c.is_joker and c.suit is trump and c.rank >= HONOUR
    )


def _solo_call(view: SeatView, action: SoloBid) -> Reason:
    trump = view.trump or (view.turn_up.suit if view.turn_up is not None else None)
    tricks = int(estimated_tricks(view.hand, trump))
    if action.call == "pass":
        return Reason("solo_pass", n=tricks)
    if action.call in ("mis", "spread"):
        high = sum(1 for c in view.hand if not c.is_joker and c.rank >= HONOUR)
        return Reason("solo_misere", n=high, call=action.call)
    if tricks < _ALONE.get(action.call, 0):  # more than the count: the search's judgement
        return Reason("search")
    return Reason("solo_call", n=tricks, call=action.call)


# sure tricks of one's own a call wants: half of Propose and Accept's 8, the others' target
_ALONE = {"prop": 4, "accept": 4, "solo": 5, "abund": 9, "royal": 9, "slam": 13}


def _book_count(view: SeatView) -> tuple[int, str]:
    """Books the hand counts on (sure tricks, partner's help and the kitty's book
    included, as the maxims count them) and the mode it suits best."""
    hand = view.hand
    longest = max(Suit, key=lambda s: sum(1 for c in hand if not c.is_joker and c.suit is s))
    high = estimated_tricks(hand, longest)
    low = sum(0.8 for c in hand if not c.is_joker and c.rank <= Rank.FIVE) + sum(
        1 for c in hand if c.is_joker
    )
    if low > high:
        return int(low + 2.5), "d"
    return int(high + 2.5), "u"


def _books(view: SeatView, action: Bid) -> Reason:
    books, _ = _book_count(view)
    if books < action.number + 6:  # more than the count: the search's judgement
        return Reason("search")
    return Reason("bid_books", n=books, call=action.mode)


class _Plays:
    """What the seat knows of the trick and the cards, read once for one reason."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.trump = view.trump
        self.order = view.rank_order
        # the honour maxims speak of high cards: not where low cards win (Bid Whist downtown)
        self.high = view.rank_order.direction != "downtown"
        rules = rules_for(view)
        seen = set(view.hand) | set(view.my_discards)
        for _, cards, _ in view.completed_tricks:
            seen.update(cards)
        seen.update(card for _, card in view.trick)
        for piles in view.layouts:
            for pile in piles:
                if pile.up is not None:
                    seen.add(pile.up)
        for _, cards in view.exposed:
            seen.update(cards)
        self.seen = seen
        deck = deck_with_jokers(rules.jokers, rules.removed_ranks)
        self.out = [c for c in deck if c not in seen]
        mine = view.seat
        sides = view.seat_sides
        self.partners = {s for s in range(len(sides)) if s != mine and sides[s] == sides[mine]}
        self.available = list(view.hand) + [
            p.up for p in (view.layouts[mine] if mine < len(view.layouts) else ()) if p.up
        ]
        self.legal = [a.card for a in view.legal if isinstance(a, Play)]

    def suit_of(self, card: Card) -> Suit | None:
        return self.trump if card.is_joker else card.suit

    def key(self, card: Card) -> int:
        return self.order.key(card, self.trump)

    def of_suit(self, cards: Sequence[Card], suit: Suit | None) -> list[Card]:
        """``cards`` of ``suit``, highest first."""
        return sorted((c for c in cards if self.suit_of(c) is suit), key=self.key, reverse=True)

    def higher_out(self, card: Card) -> list[Card]:
        """Cards not yet seen by this seat that beat ``card`` in its suit, highest first."""
        return [
            c for c in self.of_suit(self.out, self.suit_of(card)) if self.key(c) > self.key(card)
        ]

    def touching(self, high: Card, low: Card) -> bool:
        lo, hi = self.key(low), self.key(high)
        suit = self.suit_of(high)
        return not any(self.suit_of(c) is suit and lo < self.key(c) < hi for c in self.out)

    # ------------------------------------------------------------------ card play

    def explain(self, card: Card) -> Reason:
        view = self.view
        if view.contract in MISERE_CONTRACTS:
            return self._misere(card)
        if not view.trick:
            return self._lead(card)
        return self._follow(card)

    def _misere(self, card: Card) -> Reason:
        view = self.view
        if view.trick and view.declarer == view.seat:
            led = self.suit_of(view.trick[0][1])
            _, best = self._winning()
            if not self.order.beats(card, best, led, self.trump):
                return Reason("misere_under", card=best)
        return Reason("misere_low")

    def _lead(self, card: Card) -> Reason:
        trump = self.trump
        suit = self.suit_of(card)
        if len(self.legal) == 1:
            return Reason("only")
        if trump is not None and suit is trump:
            out = len(self.of_suit(self.out, trump))
            if out:
                return Reason("draw_trumps", n=out)
        for leader, played, _ in self.view.completed_tricks if suit is not trump else ():
            if leader in self.partners and played and self.suit_of(played[0]) is suit:
                return Reason("return_partner", suit=suit)
        if not self.higher_out(card) and suit is not trump:
            return Reason("cash_master", card=card)
        held = self.of_suit(self.available, suit)
        if (
            self.high
            and len(held) >= 2
            and card == held[0]
            and (card.is_joker or card.rank >= HONOUR)
            and self.touching(held[0], held[1])
        ):
            return Reason("top_of_sequence", suit=suit)
        if len(held) >= 4 and card == held[3]:
            return Reason("fourth_best", suit=suit)
        if card == held[-1]:
            return Reason("lead_low", suit=suit)
        return Reason("search")

    def _winning(self) -> tuple[int, Card]:
        trick = self.view.trick
        i = self.order.trick_winner([c for _, c in trick], self.trump)
        return trick[i]

    def _follow(self, card: Card) -> Reason:
        view = self.view
        trick = view.trick
        led = self.suit_of(trick[0][1])
        winner, best = self._winning()
        last = len(trick) == view.n_seats - 1
        partner_wins = winner in self.partners
        wins = self.order.beats(card, best, led, self.trump)
        following = self.of_suit(self.legal, led)
        if len(self.legal) == 1:
            return Reason("only")
        if self.suit_of(card) is led:
            lowest = following[-1] == card
            could_win = [c for c in following if self.order.beats(c, best, led, self.trump)]
            if partner_wins and lowest:
                return Reason("partner_winning")
            if (
                self.high
                and len(trick) == 1
                and wins
                and not best.is_joker
                and best.rank >= HONOUR
                and (card.is_joker or card.rank >= HONOUR)
            ):
                return Reason("cover_honour", card=best)
            if not wins and could_win and lowest and not last:
                top = could_win[0]
                higher = self.higher_out(top)
                if higher:
                    return Reason("duck", card=higher[0])
                if len(trick) == 1 and not last:
                    return Reason("second_low")
            if len(trick) == 1 and not last and lowest:
                return Reason("second_low") if could_win else Reason("follow_low")
            if wins and last and could_win and card == could_win[-1]:
                return Reason("win_cheaply")
            if wins and not last:
                top = following[0]
                between = [c for c in self.higher_out(card) if self.key(c) < self.key(top)]
                if between and not self.touching(top, card):
                    return Reason("finesse", card=between[0])  # A Q over the K still out
            if wins and not last and len(trick) >= 2:
                top = following[0]
                if card == top or self.touching(top, card):
                    return Reason("third_high")
            if not could_win and lowest:
                return Reason("follow_low")
            if wins and card == could_win[-1]:
                return Reason("win_cheaply" if last else "win_now")
            return Reason("search")
        # void in the suit led
        if self.trump is not None and self.suit_of(card) is self.trump and wins:
            trumped = any(self.suit_of(c) is self.trump for _, c in trick) and led is not self.trump
            if trumped:
                return Reason("overruff", suit=led)
            return Reason("ruff", suit=led)
        if partner_wins:
            return Reason("partner_winning")
        return Reason("discard_weak", suit=self.suit_of(card))

    # ------------------------------------------------------------------ laying out

    def lay_out(self, card: Card) -> Reason:
        suit = self.suit_of(card)
        honour = card.is_joker or card.rank >= HONOUR
        if suit is not self.trump and not honour and self.higher_out(card):
            return Reason("lay_out_weak", suit=suit)
        return Reason("lay_out", card=card)
