"""Trick play: lead, follow, win tricks; the Can-ye window of the first trick.

The general path (:meth:`PlayPhase.legal`, ``check``, ``apply``) serves every
case: revokes allowed under ``revoke_mode = penalty``, an open Can-ye window
(``can_ye_window = before_own_first_card``), a trick winner other than the
high-order one. The common case (revokes prevented, no window open, a plain
hand) takes the fast path, :func:`fast_legal` and :func:`fast_play`, which
``Game`` calls directly when ``game.fast`` names the seat to play (see
:func:`sync_fast`); it skips only the checks that cannot fail there. See
``python -m tools.bench_engine``.

Decisions where RULES.md is silent:

* ``revoke_mode = penalty``: any card may be played; each side that revoked in a
  deal loses one point (not below zero) before tricks are scored (the scoring is
  the family's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

from engine.actions import Action, CallCanYe, Pass, Play, ShowHonours, play
from engine.cards import HIGH, SUIT_MASKS, Card, Suit, follow_mask, led_suit
from engine.errors import IllegalAction
from engine.events import CardPlayed, LayoutCardPlayed, Revoked, TrickWon
from engine.phases.base import NOTHING_PRIVATE, Phase, new_event, not_your_turn
from engine.phases.declare import apply_claim, check_claim, claim_options

if TYPE_CHECKING:
    from engine.events import Event
    from engine.game import Game

__all__ = ["PlayPhase", "fast_legal", "fast_play", "plays_of", "sync_fast", "trick_winner"]


def trick_winner(cards: Sequence[Card], trump: Suit | None) -> int:
    """Index (into ``cards``, play order) of the card that wins the trick (high order).

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


_PLAY_BY_INDEX: Final = [play(Card.from_index(i)) for i in range(52)]

# The Play actions of every one-suit holding: ``_PLAY_TABLES[shift][bits]`` for a
# suit's 13 bits (``shift`` = Card.suit_shift: 0, 13, 26 or 39), in card-index
# order. A hand's legal plays are then at most four table entries; the tables
# (4 x 8192 tuples, some 25 ms) are built when the first game is created.
_PLAY_TABLES: Final[list[list[tuple[Action, ...]]]] = [[] for _ in range(40)]


def build_play_tables() -> None:
    """Fill the per-suit tables of Play actions (once, on the first game)."""
    if _PLAY_TABLES[0]:
        return
    for shift in (0, 13, 26, 39):
        table: list[tuple[Action, ...]] = [()] * 8192
        for bits in range(1, 8192):
            high = bits.bit_length() - 1
            table[bits] = (*table[bits ^ (1 << high)], _PLAY_BY_INDEX[shift + high])
        _PLAY_TABLES[shift] = table


_JOKER_PLAYS: Final = (
    (),
    (play(Card.from_index(52)),),
    (play(Card.from_index(53)),),
    (play(Card.from_index(52)), play(Card.from_index(53))),
)


def plays_of(mask: int) -> list[Action]:
    """The Play actions for every card in ``mask``, in card-index order (jokers last)."""
    t = _PLAY_TABLES
    return [
        *t[0][mask & 8191],
        *t[13][mask >> 13 & 8191],
        *t[26][mask >> 26 & 8191],
        *t[39][mask >> 39 & 8191],
        *_JOKER_PLAYS[mask >> 52],
    ]


def sync_fast(game: Game) -> None:
    """Note whether the next Play can skip the general checks.

    It can when cards are being played, the play phase allows it (revokes
    prevented, cards played from the hand) and no Can-ye window is open: then
    :func:`fast_legal` and :func:`fast_play` need only the seat, its hand and
    the suit led. Called after every change of state.
    """
    game.fast = (
        game.to_play
        if game.phase == "play" and game.facts.fast_play and not game.can_ye_open
        else -1
    )


def fast_legal(game: Game, seat: int) -> list[Action]:
    """``legal_actions`` on the fast path: follow suit if you can, else any card."""
    hand = game.hands[seat]
    trick = game.trick
    if trick:
        shift = trick[0].suit_shift
        follow = hand >> shift & 8191
        if follow:  # must follow suit
            return list(_PLAY_TABLES[shift][follow])
    return plays_of(hand)


def fast_play(game: Game, seat: int, action: Play) -> list[Event]:
    """``apply`` on the fast path: the checks of ``check`` for a Play, inlined."""
    card = action.card
    bit = card.bit
    hands = game.hands
    hand = hands[seat]
    trick = game.trick
    if not hand & bit or (trick and card.suit is not trick[0].suit and hand & trick[0].suit_mask):
        game.check(seat, action)  # raises with the reason
        raise IllegalAction("That card cannot be played now.")  # pragma: no cover
    game.log.append((seat, action))
    hands[seat] = hand ^ bit
    if card is game.turn_up:
        game.turn_up_public = False
    trick.append(card)
    played: Event = new_event(CardPlayed, (seat, card, game.trick_no))
    if len(trick) < game.n_players:
        game.to_play = game.fast = (seat + 1) % game.n_players
        return [played]
    out = [played]
    game.play_phase.end_trick(game, out)
    # sync_fast, inlined (this path is only taken when the phase allows it)
    game.fast = game.to_play if game.phase == "play" and not game.can_ye_open else -1
    return out


class PlayPhase:
    """Lead and follow; the trick goes by the deal's rank order and trumps.

    The order is ``game.rank_order`` (a :class:`~engine.cards.RankOrder`, set by
    the deal or by a contract); it picks the winner with
    :meth:`RankOrder.trick_winner`. In the ``HIGH`` order without jokers a
    four-card trick takes the unrolled fast path below (the same answer as
    :func:`trick_winner`). With jokers in the pack (``facts.jokers``) following
    suit is :func:`~engine.cards.follow_mask` (a joker follows trumps, or no
    suit in no-trump; a led no-trump joker fixes no suit) and every trick goes
    to :meth:`RankOrder.trick_winner`; such games never take the fast path. The
    cards a seat may play are
    ``game.playable(seat)``: its hand and, in a layout game, its face-up layout
    cards not turned up during this trick; following suit looks at those cards
    only (a face-down card never counts). A layout card played turns up the card
    beneath (:class:`~engine.events.LayoutCardPlayed`). The deal ends after
    ``tricks_per_deal`` tricks, or as soon as a side holds more than half of them
    under ``stop_at_majority``.
    """

    name = Phase.PLAY
    absent = ""  # a card played out of phase is told what the table waits for
    waiting = "You cannot do that now."

    def handles(self, action: Action) -> bool:
        return isinstance(action, (Play, CallCanYe, ShowHonours, Pass))

    def enter(self, game: Game, events: list[Event]) -> None:
        game.phase = self.name

    def to_act(self, game: Game) -> int | None:
        return game.to_play

    def legal(self, game: Game, seat: int) -> list[Action]:
        if seat != game.to_play:
            return []
        mask = game.playable(seat)
        trick = game.trick
        if trick and game.facts.prevent:
            if game.facts.jokers:
                mask = follow_mask(mask, trick, game.trump)
            else:
                follow = mask & trick[0].suit_mask
                if follow:
                    mask = follow
        acts = plays_of(mask)
        if game.can_ye_open and seat in game.can_ye_open:
            acts.extend(claim_options(game, seat))
        return acts

    def check(self, game: Game, seat: int, action: Action) -> None:
        if not isinstance(action, Play):
            # a declaration in the Can-ye window of the first trick
            if not (seat in game.can_ye_open and seat == game.to_play):
                raise IllegalAction("You cannot call honours now.", "wrong_phase")
            if isinstance(action, Pass):
                raise IllegalAction("Just play a card to let the call go.", "wrong_phase")
            check_claim(game, seat, action)
            return
        if seat != game.to_play:
            raise not_your_turn("It is not your turn.")
        card = action.card
        hand = game.playable(seat)
        if not hand & card.bit:
            layout = game.layout
            reason = None if layout is None else layout.refusal(seat, card)
            if reason is not None:
                raise IllegalAction(reason, "not_available")
            raise IllegalAction(f"{card.pretty} is not in your hand.", "not_in_hand")
        if game.trick and game.facts.prevent:
            if game.facts.jokers:
                if not follow_mask(hand, game.trick, game.trump) & card.bit:
                    led = led_suit(game.trick, game.trump)
                    assert led is not None
                    raise IllegalAction(
                        f"You must follow suit: you hold {led.symbol}.", "must_follow"
                    )
                return
            led = game.trick[0].suit
            if card.suit is not led and hand & SUIT_MASKS[led]:
                raise IllegalAction(f"You must follow suit: you hold {led.symbol}.", "must_follow")

    def apply(self, game: Game, seat: int, action: Action, events: list[Event]) -> None:
        if not isinstance(action, Play):
            apply_claim(game, seat, action, events)
            return
        card = action.card
        hand = game.hands[seat]
        trick = game.trick
        if (
            trick
            and not game.facts.prevent
            and (
                not follow_mask(hand, trick, game.trump) & card.bit
                if game.facts.jokers
                else card.suit is not trick[0].suit and hand & trick[0].suit_mask
            )
        ):
            game.revoked.add(game.side_of[seat])
            events.append(Revoked(seat, game.trick_no))
        layout_play: Event | None = None
        if hand & card.bit:
            game.hands[seat] = hand & ~card.bit
        else:  # a face-up layout card (check allowed it): the card beneath turns up
            layout = game.layout
            assert layout is not None
            position = layout.position_of(seat, card)
            assert position is not None
            turned = layout.play(seat, card)
            layout_play = LayoutCardPlayed(seat, position, card, turned)
        if game.turn_up is card:
            game.turn_up_public = False
        if game.can_ye_open:
            game.can_ye_open.discard(seat)
        trick.append(card)
        events.append(new_event(CardPlayed, (seat, card, game.trick_no)))
        if layout_play is not None:
            events.append(layout_play)
        if len(trick) < game.n_players:
            game.to_play = (seat + 1) % game.n_players
            return
        self.end_trick(game, events)

    def end_trick(self, game: Game, events: list[Event]) -> None:
        trick = game.trick
        leader = game.leader
        order = game.rank_order
        if order is HIGH and len(trick) == 4 and not game.facts.jokers:
            # trick_winner, unrolled for the four-handed games
            c0, c1, c2, c3 = trick
            trump = game.trump
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
            winner = (leader + order.trick_winner(trick, game.trump)) % game.n_players
        side = game.side_of[winner]
        tricks = game.tricks
        tricks[side] += 1
        cards = tuple(trick)
        trick_no = game.trick_no
        game.completed.append((leader, cards, winner))
        events.append(new_event(TrickWon, (trick_no, leader, cards, winner, side, tuple(tricks))))
        game.trick = []
        if game.can_ye_open:
            game.can_ye_open = set()  # any window closes after the first trick
        if game.layout is not None:
            game.layout.end_trick()  # cards turned up in this trick become playable
        if trick_no >= game.facts.tricks_per_deal or tricks[side] >= game.facts.stop_tricks:
            game.enter_next(self, events)
            return
        game.trick_no = trick_no + 1
        game.leader = game.to_play = winner

    def visible(self, game: Game, seat: int) -> Mapping[str, object]:
        return NOTHING_PRIVATE
