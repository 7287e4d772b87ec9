"""The Solo Whist auction (RULES.md §6.2-§6.3): pass, propose, accept, or a higher contract.

The contracts, low to high: ``prop`` (Propose, with Accept), ``solo``,
``mis`` (Misère), ``abund`` (Abundance), ``royal`` (Abundance in Trump),
``spread`` (Spread Misère), ``slam``. A call is a :class:`SoloBid` whose string
form is short enough for a button: ``"bid:pass"``, ``"bid:accept"``,
``"bid:solo"`` ...

How the auction runs:

* Eldest speaks first; then each seat in turn clockwise, skipping seats that
  have passed (a pass is final) and the seats holding the highest bid, until
  every seat but the holders of the highest bid has passed.
* A seat may pass or name a contract ranked strictly above the highest bid.
  A seat that has been overcalled speaks again when its turn comes, so it may
  raise (EB1911).
* While the highest bid is an unaccepted Propose, a seat in turn may Accept.
  ``accept_rule = any_in_turn``: any seat whose turn it is; eldest, having
  passed, is still asked once (accept or pass) when a Propose stands
  unaccepted at his turn. ``next_only``: only the first seat to speak after the
  proposer.
* A Propose left unaccepted and unovercalled goes back to the proposer, who
  converts it to Solo (``bid:solo``) or passes (``bid:pass``).
* Nobody bids: ``all_pass = redeal`` passes the deal to the left and deals
  again; ``general_misere`` plays the deal at no trumps, each seat for
  himself, and the seat taking the most tricks pays (see the family's scorer).

When the auction is won the sides are made (``game.set_seating``: the
declarer against the other three, or proposer and acceptor against the other
two) and trumps are fixed: the turn-up suit for Propose, Solo and Abundance in
Trump; none for the misères; Abundance (and Slam under
``slam_trump = declarer_choice``) waits for the declarer to name a suit in the
next phase (:mod:`engine.phases.solo_declare`).

Decisions where RULES.md is silent:

* A seat that passes while an unaccepted Propose stands has declined it; under
  ``any_in_turn`` eldest is therefore asked at most once after passing.
* Under ``next_only`` the seat that may accept is the first seat to speak after
  the proposer; once it has called (whatever the call), nobody may accept.
* Overcalling an accepted Propose dissolves the pair: proposer and acceptor
  each speak again in turn, alone.
* The proposer's conversion is asked only when the auction would otherwise end
  on his unaccepted Propose; his pass then counts as everyone passing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar, Final

from engine.actions import Action, ActionParseError, register_action
from engine.cards import Card, Suit
from engine.errors import IllegalAction
from engine.events import Event
from engine.phases.base import not_your_turn
from engine.seating import Seating

if TYPE_CHECKING:
    from engine.game import Game

__all__ = [
    "AUCTION",
    "CONTRACTS",
    "CONTRACT_NAMES",
    "SoloAllPassed",
    "SoloAuctionPhase",
    "SoloBid",
    "SoloBidMade",
    "SoloContractWon",
    "SoloState",
    "solo_bid",
    "contract_rank",
    "exposed_hands",
]

AUCTION: Final = "auction"  # the phase's name (Game.phase while it waits for a call)

CONTRACTS: Final = ("prop", "solo", "mis", "abund", "royal", "spread", "slam")
CONTRACT_NAMES: Final[Mapping[str, str]] = {
    "prop": "Propose and Accept",
    "solo": "Solo",
    "mis": "Misère",
    "abund": "Abundance",
    "royal": "Abundance in Trump",
    "spread": "Spread Misère",
    "slam": "Slam",
    "general": "General Misère",
}
CALLS: Final = ("pass", "accept", *CONTRACTS)


def contract_rank(contract: str) -> int:
    """1 (Propose) .. 7 (Slam); 0 for no bid."""
    return CONTRACTS.index(contract) + 1 if contract in CONTRACTS else 0


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class SoloBid(Action):
    """A call in the auction: ``pass``, ``accept`` or a contract (``solo``, ``slam`` ...)."""

    call: str
    verb: ClassVar[str] = "bid"

    def encode(self) -> str:
        return f"bid:{self.call}"


_BIDS: Final = {call: SoloBid(call) for call in CALLS}


def solo_bid(call: str) -> SoloBid:
    """The (interned) call ``call``."""
    try:
        return _BIDS[call]
    except KeyError:
        raise ValueError(f"not a call: {call!r} (calls: {', '.join(CALLS)})") from None


def _decode_bid(arg: str) -> Action:
    found = _BIDS.get(arg.strip().lower())
    if found is None:
        raise ActionParseError(f"not a call: {arg!r}")
    return found


register_action("bid", _decode_bid)


# --------------------------------------------------------------------------- events


class SoloBidMade(Event):
    """``seat`` called ``call`` (``pass``, ``accept``, or a contract) in the auction."""

    seat: int
    call: str
    kind: ClassVar[str] = "solo_bid_made"


class SoloAllPassed(Event):
    """Nobody bid: ``then`` is ``redeal`` (the next dealer deals) or ``general_misere``."""

    dealer: int
    then: str
    kind: ClassVar[str] = "solo_all_passed"


class SoloContractWon(Event):
    """The auction is over: ``declarer`` (with ``partner`` for Propose) plays ``contract``.

    ``trump`` is the suit fixed now (``None`` for no trumps or while the
    declarer is still to name one: ``naming`` is then true).
    """

    declarer: int | None
    contract: str
    partner: int | None
    trump: Suit | None
    naming: bool
    kind: ClassVar[str] = "solo_contract_won"


# --------------------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class SoloState:
    """The deal's auction and contract (``Game.deal_state`` in the solo family).

    Immutable: every change makes a new value (so clones may share it).
    ``stage`` is ``auction``, ``convert`` (the proposer converts or passes),
    ``trumps`` (the declarer names trumps), ``play`` or ``done``.
    """

    calls: tuple[tuple[int, str], ...] = ()
    passed: frozenset[int] = frozenset()
    high: str = ""  # the highest contract bid so far
    holder: int = -1  # who bid it
    partner: int = -1  # who accepted it (Propose only)
    turn: int = -1  # the seat to call
    accept_seat: int = -1  # next_only: the one seat that may still accept
    eldest_asked: bool = False  # eldest has declined a standing Propose
    stage: str = "auction"
    contract: str = ""  # the contract won ("general" for a general misère)
    declarer: int = -1

    def to_data(self) -> dict[str, Any]:
        return {
            "calls": [[s, c] for s, c in self.calls],
            "passed": sorted(self.passed),
            "high": self.high,
            "holder": self.holder,
            "partner": self.partner,
            "turn": self.turn,
            "accept_seat": self.accept_seat,
            "eldest_asked": self.eldest_asked,
            "stage": self.stage,
            "contract": self.contract,
            "declarer": self.declarer,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> SoloState:
        return cls(
            calls=tuple((int(s), str(c)) for s, c in data["calls"]),
            passed=frozenset(int(s) for s in data["passed"]),
            high=str(data["high"]),
            holder=int(data["holder"]),
            partner=int(data["partner"]),
            turn=int(data["turn"]),
            accept_seat=int(data["accept_seat"]),
            eldest_asked=bool(data["eldest_asked"]),
            stage=str(data["stage"]),
            contract=str(data["contract"]),
            declarer=int(data["declarer"]),
        )


def state_of(game: Game) -> SoloState:
    state = game.deal_state
    assert isinstance(state, SoloState), "the solo phases run with a SoloState"
    return state


def exposed_hands(game: Game) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """Hands every seat may see now: the Spread Misère declarer's (``spread_exposure``)."""
    state = game.deal_state
    if not isinstance(state, SoloState) or state.contract != "spread" or state.stage != "play":
        return ()
    if game.rules.spread_exposure == "after_first_trick" and not game.completed:
        return ()
    seat = state.declarer
    return ((seat, tuple(game.hand(seat))),)


# --------------------------------------------------------------------------- the phase


class SoloAuctionPhase:
    """Calls from eldest round the table until the highest bid stands (module docstring)."""

    name = AUCTION
    absent = "The auction is over."
    waiting = "Wait: the auction is on."

    def handles(self, action: Action) -> bool:
        return isinstance(action, SoloBid)

    def enter(self, game: Game, events: list[Event]) -> None:
        game.set_seating(Seating.solo(game.n_players))  # nobody is on a side until the auction ends
        game.deal_state = SoloState(turn=game.eldest)
        game.phase = self.name

    def to_act(self, game: Game) -> int | None:
        return state_of(game).turn

    def legal(self, game: Game, seat: int) -> list[Action]:
        state = state_of(game)
        if seat != state.turn:
            return []
        if state.stage == "convert":
            return [_BIDS["solo"], _BIDS["pass"]]
        out: list[Action] = [_BIDS["pass"]]
        if self._may_accept(game, state, seat):
            out.append(_BIDS["accept"])
        if seat in state.passed:  # eldest, asked once more about a standing Propose
            return out
        floor = contract_rank(state.high)
        out.extend(_BIDS[c] for c in CONTRACTS[floor:])
        return out

    def _may_accept(self, game: Game, state: SoloState, seat: int) -> bool:
        if state.high != "prop" or state.partner >= 0 or seat == state.holder:
            return False
        if game.rules.accept_rule == "next_only":
            return seat == state.accept_seat
        return True

    def check(self, game: Game, seat: int, action: Action) -> None:
        state = state_of(game)
        if seat != state.turn:
            raise not_your_turn("It is not your turn to bid.")
        assert isinstance(action, SoloBid)
        call = action.call
        if call == "pass":
            return
        if state.stage == "convert":
            if call != "solo":
                raise IllegalAction(
                    "Nobody accepted: convert your proposal to Solo, or pass.", "bad_bid"
                )
            return
        if call == "accept":
            if state.high != "prop" or state.partner >= 0:
                raise IllegalAction("There is no proposal to accept.", "bad_bid")
            if not self._may_accept(game, state, seat):
                raise IllegalAction("Only the next player may accept the proposal.", "bad_bid")
            return
        if seat in state.passed:
            raise IllegalAction(
                "You have passed: you may only accept the proposal or pass.", "bad_bid"
            )
        if contract_rank(call) <= contract_rank(state.high):
            raise IllegalAction(
                f"{CONTRACT_NAMES[call]} does not outrank {CONTRACT_NAMES[state.high]}.", "bad_bid"
            )

    def apply(self, game: Game, seat: int, action: Action, events: list[Event]) -> None:
        state = state_of(game)
        assert isinstance(action, SoloBid)
        call = action.call
        events.append(SoloBidMade(seat, call))
        calls = (*state.calls, (seat, call))
        if state.stage == "convert":
            if call == "pass":
                self._all_passed(game, replace(state, calls=calls), events)
            else:
                self._won(game, replace(state, calls=calls, high="solo"), events)
            return
        accept_seat = -1 if seat == state.accept_seat else state.accept_seat
        if call == "pass":
            standing = state.high == "prop" and state.partner < 0
            state = replace(
                state,
                calls=calls,
                passed=state.passed | {seat},
                accept_seat=accept_seat,
                eldest_asked=state.eldest_asked or (standing and seat == game.eldest),
            )
        elif call == "accept":
            state = replace(state, calls=calls, partner=seat, accept_seat=-1)
        else:
            state = replace(state, calls=calls, high=call, holder=seat, partner=-1, accept_seat=-1)
        nxt = self._next(game, state, seat)
        if call == "prop" and game.rules.accept_rule == "next_only":
            state = replace(state, accept_seat=nxt if nxt is not None else -1)
        if nxt is not None:
            game.deal_state = replace(state, turn=nxt)
            return
        if not state.high:
            self._all_passed(game, state, events)
        elif state.high == "prop" and state.partner < 0:
            game.deal_state = replace(state, stage="convert", turn=state.holder)
        else:
            self._won(game, state, events)

    def _eligible(self, game: Game, state: SoloState, seat: int) -> bool:
        if seat in (state.holder, state.partner):
            return False
        if seat not in state.passed:
            return True
        return (
            game.rules.accept_rule == "any_in_turn"
            and seat == game.eldest
            and state.high == "prop"
            and state.partner < 0
            and not state.eldest_asked
        )

    def _next(self, game: Game, state: SoloState, after: int) -> int | None:
        n = game.n_players
        for k in range(1, n):
            seat = (after + k) % n
            if self._eligible(game, state, seat):
                return seat
        return None

    def _all_passed(self, game: Game, state: SoloState, events: list[Event]) -> None:
        then = game.rules.all_pass
        events.append(SoloAllPassed(game.dealer, then))
        if then == "general_misere":
            game.deal_state = replace(state, turn=-1, stage="play", contract="general")
            game.trump = None
            events.append(SoloContractWon(None, "general", None, None, False))
            game.enter_next(self, events)
            return
        game.deal_state = replace(state, turn=-1, stage="done")
        game.start_deal(events, rotate=True)

    def _won(self, game: Game, state: SoloState, events: list[Event]) -> None:
        rules = game.rules
        contract = state.high
        declarer = state.holder
        n = game.n_players
        if contract == "prop":
            game.set_seating(Seating.pair(n, declarer, state.partner))
        else:
            game.set_seating(Seating.one_against(n, declarer))
        naming = contract == "abund" or (
            contract == "slam" and rules.slam_trump == "declarer_choice"
        )
        turn_up = game.turn_up
        if contract in ("prop", "solo", "royal") and turn_up is not None:
            game.trump = turn_up.suit
        else:
            game.trump = None
        game.deal_state = replace(
            state,
            turn=-1,
            stage="trumps" if naming else "play",
            contract=contract,
            declarer=declarer,
        )
        partner = state.partner if contract == "prop" else None
        events.append(SoloContractWon(declarer, contract, partner, game.trump, naming))
        game.enter_next(self, events)

    def visible(self, game: Game, seat: int) -> Mapping[str, object]:
        """The calls, the contract and its declarer, and an exposed Spread Misère hand (public)."""
        state = game.deal_state
        if not isinstance(state, SoloState):
            return {}
        return {
            "auction": state.calls,
            "contract": state.contract,
            "declarer": state.declarer if state.declarer >= 0 else None,
            "exposed": exposed_hands(game),
        }
