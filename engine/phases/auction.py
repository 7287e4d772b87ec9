"""Bid Whist's one-round bidding (RULES.md §7.3): each seat passes or bids once.

Starting with eldest and ending with the dealer, each seat passes or bids a
number ``min_bid..7`` (books over six it contracts to win) with a mode:
``uptown`` (``u``), ``downtown`` (``d``) or ``notrump`` (``n``). A bid must
outrank the highest so far: a higher number always does; at an equal number
``same_number_order = u<d<nt`` lets downtown outrank uptown and no-trump
outrank both, ``no_equal`` allows only higher numbers. The last bid made is the
contract and its bidder the declarer.

A bid is the action :class:`Bid`, encoded ``"bid:4u"`` / ``"bid:5d"`` /
``"bid:3n"`` (the verb ``bid`` is shared with Solo's calls, whose arguments are
words); passing is the shared :class:`~engine.actions.Pass` (``"pass"``). The
bids, the declarer and the contract are the deal's :class:`BidWhistState`
(``Game.deal_state``), shown to every seat as ``SeatView.auction``,
``declarer`` and ``contract``.

Decisions where RULES.md is silent:

* ``all_pass = redeal``: when all four pass the deal is thrown in
  (:class:`~engine.events.AllPassed`) and the deal passes to the left, as after
  any deal; the score does not change.
* ``all_pass = dealer_must_bid``: after three passes the dealer may not pass
  and may bid any number from ``min_bid``, in any mode.
* ``dealer_can_match = true``: the dealer may bid the current highest number in
  any mode (taking the contract at that number) as well as any outranking bid.
* A seat left with no bid that outranks (after a 7 no-trump, say) still acts:
  its only legal action is to pass, so the auction stays one call per seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar, Final

from engine.actions import Action, ActionParseError, Pass, register_action
from engine.errors import IllegalAction
from engine.events import AllPassed, BidMade, ContractWon
from engine.phases.base import NOTHING_PRIVATE, Phase, not_your_turn

if TYPE_CHECKING:
    from engine.events import Event
    from engine.game import Game

__all__ = [
    "MODES",
    "AuctionPhase",
    "Bid",
    "BidWhistState",
    "bid",
    "bid_rank",
    "highest_bid",
    "state_of",
]

MODES: Final = ("u", "d", "n")  # uptown < downtown < no-trump at an equal number
MODE_NAMES: Final = {"u": "uptown", "d": "downtown", "n": "no trump"}
MAX_BID: Final = 7
PASS_CODE: Final = "pass"


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Bid ``number`` books over six in ``mode`` (``u`` uptown, ``d`` downtown, ``n`` no trump)."""

    number: int
    mode: str
    verb: ClassVar[str] = "bid"

    @property
    def code(self) -> str:
        """``"4u"``: the number and the mode letter."""
        return f"{self.number}{self.mode}"

    @property
    def no_trump(self) -> bool:
        return self.mode == "n"

    def encode(self) -> str:
        return f"bid:{self.code}"

    def describe(self) -> str:
        """``"4 uptown"``, ``"5 no trump"``."""
        return f"{self.number} {MODE_NAMES[self.mode]}"


_BIDS: Final = {f"{n}{m}": Bid(n, m) for n in range(1, MAX_BID + 1) for m in MODES}
_PASS: Final = Pass()


def bid(code: str) -> Bid:
    """The (interned) bid of a code such as ``"4u"``; ValueError if there is none."""
    found = _BIDS.get(code.strip().lower())
    if found is None:
        raise ValueError(f"not a bid: {code!r}")
    return found


def _decode_bid(arg: str) -> Action:
    try:
        return bid(arg)
    except ValueError:
        raise ActionParseError(f"not a bid: {arg!r}") from None


register_action("bid", _decode_bid)


@dataclass(frozen=True, slots=True)
class BidWhistState:
    """The deal's auction and contract (``Game.deal_state`` in Bid Whist), immutable.

    ``bids`` are the calls in order as (seat, bid code or ``"pass"``);
    ``declarer`` and ``contract`` (a bid code) are set when the auction is won.
    """

    bids: tuple[tuple[int, str], ...] = ()
    declarer: int | None = None
    contract: str = ""

    def to_data(self) -> dict[str, Any]:
        return {
            "bids": [[seat, code] for seat, code in self.bids],
            "declarer": self.declarer,
            "contract": self.contract,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> BidWhistState:
        return cls(
            tuple((int(seat), str(code)) for seat, code in data.get("bids", [])),
            data.get("declarer"),
            str(data.get("contract", "")),
        )


_EMPTY: Final = BidWhistState()


def state_of(game: Game) -> BidWhistState:
    """The deal's :class:`BidWhistState` (an empty one before the auction)."""
    state = game.deal_state
    return state if isinstance(state, BidWhistState) else _EMPTY


def bid_rank(code: str, same_number_order: str) -> tuple[int, int]:
    """How a bid code ranks: higher tuples outrank (the mode counts only under ``u<d<nt``)."""
    b = _BIDS[code]
    return (b.number, MODES.index(b.mode) if same_number_order == "u<d<nt" else 0)


def highest_bid(game: Game) -> tuple[int, str] | None:
    """The seat and code of the highest bid so far (the last one made), or ``None``."""
    for seat, code in reversed(state_of(game).bids):
        if code != PASS_CODE:
            return seat, code
    return None


class AuctionPhase:
    """One round of bids from eldest to the dealer (see the module docstring)."""

    name = Phase.BIDDING
    absent = "There is no bidding now."
    waiting = "Wait: the bidding is under way."

    def handles(self, action: Action) -> bool:
        return isinstance(action, (Bid, Pass))

    def enter(self, game: Game, events: list[Event]) -> None:
        game.deal_state = _EMPTY
        game.to_play = game.eldest
        game.phase = self.name

    def to_act(self, game: Game) -> int | None:
        return game.to_play

    def _must_bid(self, game: Game, seat: int) -> bool:
        return (
            seat == game.dealer
            and game.rules.all_pass == "dealer_must_bid"
            and highest_bid(game) is None
        )

    def _allowed(self, game: Game, seat: int, b: Bid) -> bool:
        rules = game.rules
        if not rules.min_bid <= b.number <= MAX_BID:
            return False
        high = highest_bid(game)
        if high is None:
            return True
        order = rules.same_number_order
        top = _BIDS[high[1]]
        if seat == game.dealer and rules.dealer_can_match and b.number == top.number:
            return True
        return bid_rank(b.code, order) > bid_rank(top.code, order)

    def legal(self, game: Game, seat: int) -> list[Action]:
        if seat != game.to_play:
            return []
        acts: list[Action] = [] if self._must_bid(game, seat) else [_PASS]
        acts.extend(b for b in _BIDS.values() if self._allowed(game, seat, b))
        return acts

    def check(self, game: Game, seat: int, action: Action) -> None:
        if seat != game.to_play:
            raise not_your_turn("It is not your turn to bid.")
        if isinstance(action, Pass):
            if self._must_bid(game, seat):
                raise IllegalAction("Everyone else passed: the dealer must bid.", "must_bid")
            return
        assert isinstance(action, Bid)
        min_bid = game.rules.min_bid
        if not min_bid <= action.number <= MAX_BID:
            raise IllegalAction(f"Bids run from {min_bid} to {MAX_BID}.", "bad_bid")
        if not self._allowed(game, seat, action):
            high = highest_bid(game)
            assert high is not None
            top = _BIDS[high[1]]
            if game.rules.same_number_order == "no_equal":
                why = f"bid more than {top.number}"
            else:
                why = f"outrank {top.describe()}"
            raise IllegalAction(f"Your bid must {why}.", "too_low")

    def apply(self, game: Game, seat: int, action: Action, events: list[Event]) -> None:
        code = action.code if isinstance(action, Bid) else PASS_CODE
        state = state_of(game)
        game.deal_state = state = replace(state, bids=(*state.bids, (seat, code)))
        events.append(BidMade(seat, code))
        if seat != game.dealer:
            game.to_play = (seat + 1) % game.n_players
            return
        high = highest_bid(game)
        if high is None:  # all passed under all_pass = redeal
            events.append(AllPassed(game.dealer))
            game.start_deal(events, rotate=True)
            return
        declarer, contract = high
        game.deal_state = replace(state, declarer=declarer, contract=contract)
        game.to_play = declarer
        events.append(ContractWon(declarer, contract))
        game.enter_next(self, events)

    def visible(self, game: Game, seat: int) -> Mapping[str, object]:
        """The bids, the declarer and the contract: public, to every seat."""
        state = game.deal_state
        if not isinstance(state, BidWhistState):
            return NOTHING_PRIVATE
        return {"auction": state.bids, "declarer": state.declarer, "contract": state.contract}
