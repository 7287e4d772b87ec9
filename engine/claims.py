"""Claims and concessions: the rest of the tricks by agreement, or the game given up.

Every game with trick play (the nine Ruff and Honours ids, Solo Whist, Bid
Whist, Ruffe and Trump in every form, Turnover Bridge) has them; the family
modules know nothing of them. Two hooks outside this module: ``Game.apply``
and ``Game.check`` route :class:`Claim` and :class:`Concede` here (they may come
while any phase runs), and :class:`~engine.view.Facts` adds the two waiting
phases below to every game's phases by name.

**A claim** (``claim:N``). On his turn in the play (the Can-ye window of the
first trick closed), a player claims ``N`` of the tricks still to be won in the
deal, the trick in progress included. His hand is shown to everyone
(:class:`ClaimMade`, and ``SeatView.notes["claim"]``) and the game waits in the
``claim`` phase, where nobody may play: each opponent (every seat not on the
claimer's side; his partner has no say) answers ``accept`` or ``reject``, in
any order (``to_act`` names the first still to answer, clockwise from the
claimer). One rejection ends the claim and play goes on from the same
position, the same player to play (``notes["claim_rejected"]`` records the
claimer and that position until the deal ends; the claimer may claim again,
but the AI never repeats a rejected claim from the position it was rejected
in, or a human who lets his timer answer would be asked for ever). When every opponent has accepted, the deal
ends as claimed: the claimer's side takes ``N`` more tricks and the other side
the rest (:class:`ClaimSettled`), and the deal is scored by the family's scorer
as if those tricks had been played. Decisions where RULES.md is silent:

* A claim that is *impossible* is refused by the engine: more tricks than are
  left, a claim out of turn or outside the play, while a Can-ye call is still
  open, or while another claim or a concession waits for answers. A claim that
  is merely *false* (the opponents could defeat it) may be made, as at a real
  table: the opponents reject it.
* A claim is *offered* (:func:`claim_options`, what a seat's view lists) only
  where it could hold: not before the deal's first trick is complete (nothing is
  known yet: Turnover Bridge's first lead would offer all 26), and not to a
  defender against a misère (his side wants the declarer to take a trick, which
  no number of tricks claimed says). The misère declarer, alone against the
  others, is offered to take no more tricks (``claim:0``), never all of them.
  What may be *made* is wider (:func:`_claim_refusal`): games recorded before
  these offers hold such claims and must replay as they were played.
* ``N`` runs from 0 (the rest are yours) to all the tricks left. At a table
  where more than two sides play (each for himself, three or four players) only
  all the remaining tricks may be claimed, since "the rest" would have no
  single owner. In Solo Whist's general misère (everyone for himself, most
  tricks pays) nobody may claim.
* ``stop_at_majority``: the claimed tricks are counted as if the claimer took
  his first, then the others took theirs, each side stopping at the majority
  (the deal would have ended there), so a claim never scores more than play
  could.
* Honours and every other fact of the deal stand as they were: honours were
  held (and Can-ye decided) before the claim, so they score as usual; revokes
  already made are penalised as usual; Ruffe and Trump's ruff was won before
  the play; Ruffe and Trump's card points are the tricks times the players
  (every trick holds one card of each), so claimed tricks count their cards
  like played ones. Bid Whist's books and Solo's contracts are scored from the
  tricks in the same way. The cards not played (hands, layouts, the trick in progress)
  are listed in :class:`ClaimSettled`; the tricks themselves were not played,
  so no :class:`~engine.events.TrickWon` is emitted for them.
* The tricks left at a claim are :func:`remaining_tricks`: every trick of the
  deal not yet complete, Turnover Bridge's face-down layout cards included
  (docs/rules-decisions.md).

**A concession** (``concede``). In a partnership game (two sides of two) any
player may propose to concede the game at any moment it is not over and no
claim or other concession waits; the game waits in the ``concede`` phase for
his partner, who answers ``agree`` (the game ends) or ``refuse`` (the game goes
on where it was). At a two-player table a player concedes alone, at once. The
other side wins the game *and the match* (``GameOver.how == "concession"``,
then :class:`~engine.events.MatchOver`); the scores stay as they stood, so the
result (and the ratings computed from it) is an ordinary win for the other
side. Where more than two sides play (Solo Whist, three-handed or
single-handed Ruffe and Trump) nobody may concede: the game has no single
"other side" to give it to.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final

from engine.actions import Action, ActionParseError, register_action
from engine.cards import Card, cards_from_mask
from engine.errors import IllegalAction
from engine.events import Event, GameOver, MatchOver
from engine.notes import ClaimNote, ClaimRejected, ConcedeNote, Concession
from engine.phases.base import NOTHING_PRIVATE, Phase, PhaseLogic

if TYPE_CHECKING:
    from engine.game import Game

__all__ = [
    "CLAIM",
    "CONCEDE",
    "MISERE_CONTRACTS",
    "OUTSIDE_ACTIONS",
    "PHASES",
    "AcceptClaim",
    "AgreeConcession",
    "Claim",
    "ClaimAnswered",
    "ClaimMade",
    "ClaimSettled",
    "Concede",
    "Conceded",
    "ConcessionAnswered",
    "ConcessionProposed",
    "RefuseConcession",
    "RejectClaim",
    "answering",
    "can_concede",
    "check_outside",
    "apply_outside",
    "claim_goal",
    "claim_options",
    "offers",
    "pending_claim",
    "remaining_tricks",
    "unplayed_cards",
]

CLAIM: Final = "claim"  # the phase waiting for the opponents' answers to a claim
CONCEDE: Final = "concede"  # the phase waiting for the partner's answer to a concession

MISERE_CONTRACTS: Final = frozenset({"mis", "spread"})  # Solo's contracts to take no trick
NO_CLAIM_CONTRACTS: Final = frozenset({"general"})  # Solo's general misère: each for himself


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """Claim ``tricks`` of the tricks left in the deal (``claim:5``)."""

    tricks: int
    verb: ClassVar[str] = "claim"

    def encode(self) -> str:
        return f"claim:{self.tricks}"

    def describe(self) -> str:
        """The button's words."""
        if self.tricks == 0:
            return "concede the rest of the tricks"
        return f"claim {self.tricks} trick{'s' if self.tricks != 1 else ''}"


@dataclass(frozen=True, slots=True)
class _Answer(Action):
    """An action with no argument: its verb, and its button's fixed ``words``."""

    words: ClassVar[str] = ""

    def describe(self) -> str:
        """The button's words."""
        return self.words


@dataclass(frozen=True, slots=True)
class AcceptClaim(_Answer):
    """An opponent accepts the pending claim."""

    verb: ClassVar[str] = "accept"
    words: ClassVar[str] = "accept the claim"


@dataclass(frozen=True, slots=True)
class RejectClaim(_Answer):
    """An opponent rejects the pending claim: play goes on."""

    verb: ClassVar[str] = "reject"
    words: ClassVar[str] = "reject the claim"


@dataclass(frozen=True, slots=True)
class Concede(_Answer):
    """Propose to concede the game (alone at a two-player table: concede it)."""

    verb: ClassVar[str] = "concede"
    words: ClassVar[str] = "concede the game"


@dataclass(frozen=True, slots=True)
class AgreeConcession(_Answer):
    """The proposer's partner agrees: the game is conceded."""

    verb: ClassVar[str] = "agree"
    words: ClassVar[str] = "agree: concede the game"


@dataclass(frozen=True, slots=True)
class RefuseConcession(_Answer):
    """The proposer's partner refuses: the game goes on."""

    verb: ClassVar[str] = "refuse"
    words: ClassVar[str] = "refuse: play on"


_ACCEPT: Final = AcceptClaim()
_REJECT: Final = RejectClaim()
_CONCEDE: Final = Concede()
_AGREE: Final = AgreeConcession()
_REFUSE: Final = RefuseConcession()
_CLAIMS: Final = tuple(Claim(n) for n in range(27))  # interned: at most 26 tricks a deal


def _decode_claim(arg: str) -> Action:
    if not arg.isdigit() or len(arg) > 2:
        raise ActionParseError(f"not a number of tricks: {arg!r}")
    n = int(arg)
    return _CLAIMS[n] if n < len(_CLAIMS) else Claim(n)


def _simple(action: _Answer) -> Callable[[str], Action]:
    def decode(arg: str) -> Action:
        if arg:
            raise ActionParseError(f"{action.verb} takes no argument")
        return action

    return decode


register_action("claim", _decode_claim)
for _action in (_ACCEPT, _REJECT, _CONCEDE, _AGREE, _REFUSE):
    register_action(_action.verb, _simple(_action))


# --------------------------------------------------------------------------- events


class ClaimMade(Event):
    """``seat`` claims ``tricks`` of the ``remaining`` tricks; ``hand`` is shown to all."""

    seat: int
    tricks: int
    remaining: int
    hand: tuple[Card, ...]
    kind: ClassVar[str] = "claim_made"


class ClaimAnswered(Event):
    """An opponent answered the claim (``accepted`` or not)."""

    seat: int
    accepted: bool
    kind: ClassVar[str] = "claim_answered"


class ClaimSettled(Event):
    """The claim ends: ``accepted`` (the deal is scored as claimed, ``tricks`` per side
    after it; ``unplayed`` the cards that were still in play, :func:`unplayed_cards`)
    or rejected (play goes on). ``left`` is the number of tricks that were left at
    the claim, the trick in progress included (:func:`remaining_tricks`)."""

    seat: int
    claimed: int
    accepted: bool
    tricks: tuple[int, ...]
    unplayed: tuple[Card, ...] = ()
    left: int = 0
    kind: ClassVar[str] = "claim_settled"


class ConcessionProposed(Event):
    """``seat`` proposes to concede the game; his partner answers."""

    seat: int
    partner: int
    kind: ClassVar[str] = "concession_proposed"


class ConcessionAnswered(Event):
    """The partner ``agreed`` to concede, or refused (the game goes on)."""

    seat: int
    agreed: bool
    kind: ClassVar[str] = "concession_answered"


class Conceded(Event):
    """The side ``side`` conceded; ``winner`` (the other side) wins the game and match."""

    side: int
    winner: int
    kind: ClassVar[str] = "conceded"


# --------------------------------------------------------------------------- queries


def remaining_tricks(game: Game) -> int:
    """Tricks still to be won in the deal in play, the trick in progress included.

    The one count of "tricks left" (docs/rules-decisions.md): the tricks of the
    deal (``tricks_per_deal``) less those already complete. Cards that are in the
    deal but not yet playable count (Turnover Bridge's face-down layout cards and
    those turned up this trick); cards that are never played do not (Ruff and
    Honours' stock, Ruffe and Trump's head, Bid Whist's discarded kitty). The
    claim menu, the claim checks, :class:`ClaimMade`, :class:`ClaimSettled`, the
    exports and ``SeatView.tricks_left`` all read it."""
    return game.facts.tricks_per_deal - game.trick_no + 1


def unplayed_cards(game: Game) -> list[Card]:
    """Every card of the deal still to be played: the trick in progress, then each
    seat's hand and whole layout (face-down cards and those turned up this trick
    included)."""
    cards = list(game.trick)
    layout = game.layout
    for seat in range(game.n_players):
        mask = game.hands[seat]
        if layout is not None:
            mask |= layout.face_up(seat) | layout.face_down(seat)
        cards.extend(cards_from_mask(mask))
    return cards


def _contract(game: Game) -> str:
    return str(getattr(game.deal_state, "contract", "") or "")


def claim_goal(contract: str) -> int:
    """+1 when a side wants more tricks, -1 under a misère contract (fewer is better)."""
    return -1 if contract in MISERE_CONTRACTS else 1


def pending_claim(game: Game) -> ClaimNote | None:
    """The claim waiting for answers: (claimer, tricks, seats that accepted, hand shown)."""
    note = game.notes.get("claim")
    if game.phase != CLAIM or not isinstance(note, ClaimNote):
        return None
    return note


def _opponents(game: Game, seat: int) -> list[int]:
    n = game.n_players
    side = game.side_of[seat]
    return [(seat + k) % n for k in range(1, n) if game.side_of[(seat + k) % n] != side]


def answering(game: Game) -> tuple[int, ...]:
    """The seats whose answer the game waits for (a claim's opponents still to
    answer, a concession's partner), clockwise; empty otherwise."""
    if game.phase == CLAIM:
        pending = pending_claim(game)
        if pending is None:
            return ()
        seat, _, accepted, _ = pending
        return tuple(s for s in _opponents(game, seat) if s not in accepted)
    if game.phase == CONCEDE:
        note = game.notes.get("concede")
        if isinstance(note, ConcedeNote):
            return (note.partner,)
    return ()


def _claim_refusal(game: Game, seat: int, tricks: int) -> str | None:
    if game.phase != Phase.PLAY:
        if game.phase == CLAIM:
            return "A claim is already waiting for answers."
        if game.phase == CONCEDE:
            return "A concession is waiting for an answer."
        return "You can claim only during the play of the cards."
    if seat != game.to_play:
        return "You can claim only on your turn."
    if game.can_ye_open:
        return "Call or pass the honours first (play a card), then claim."
    contract = _contract(game)
    if contract in NO_CLAIM_CONTRACTS:
        return "Nobody may claim in a general misère."
    left = remaining_tricks(game)
    if tricks < 0:
        return "That is not a number of tricks."
    if tricks > left:
        return f"There {'is' if left == 1 else 'are'} only {left} trick{'s' if left != 1 else ''} left to claim."
    if (
        game.facts.sides > 2
        and tricks != left
        and not (contract in MISERE_CONTRACTS and tricks == 0)
    ):
        return f"Here everyone plays for himself: claim all {left} remaining tricks or none."
    return None


def _claim_offered(game: Game, seat: int) -> bool:
    """Whether a claim could hold for ``seat`` now (see the module docstring): what
    the seat is offered, a narrower set than what it may make."""
    if game.trick_no == 1:
        return False  # nothing is known before the deal's first trick is complete
    if _contract(game) in MISERE_CONTRACTS:
        declarer = getattr(game.deal_state, "declarer", -1)
        if declarer >= 0 and game.side_of[seat] != game.side_of[declarer]:
            return False  # a defender wants a trick taken, which no claim says
    return True


def claim_options(game: Game, seat: int) -> list[Action]:
    """The claims ``seat`` may make now (built on the same checks as the engine's)."""
    if game.phase != Phase.PLAY or seat != game.to_play or not _claim_offered(game, seat):
        return []
    left = remaining_tricks(game)
    # every count from 0 to ``left`` passes the checks that depend on the count (one
    # count where everyone plays for himself): the rest are checked once
    if _claim_refusal(game, seat, left) is not None:
        return []
    if game.facts.sides == 2:
        counts: Sequence[int] = range(left, -1, -1)
    else:  # alone against the others: all of them, or under a misère none
        counts = (0,) if _contract(game) in MISERE_CONTRACTS else (left,)
    return [_claim_action(n) for n in counts]


def _claim_action(n: int) -> Claim:
    return _CLAIMS[n] if n < len(_CLAIMS) else Claim(n)


def can_concede(game: Game) -> bool:
    """Whether this table may concede at all: two partnerships of two, or two players."""
    seating = game.facts.seating
    if game.n_players == 2:
        return True
    return len(seating.sides) == 2 and all(len(side) == 2 for side in seating.sides)


def _concede_refusal(game: Game, seat: int) -> str | None:
    if game.is_over:
        return "This game is over."
    if not can_concede(game):
        return "Conceding needs two sides: this game is played each for himself."
    if game.phase == CLAIM:
        return "A claim is waiting for answers: answer it first."
    if game.phase == CONCEDE:
        return "A concession is already waiting for an answer."
    return None


def offers(game: Game, seat: int) -> tuple[Action, ...]:
    """What ``seat`` may start now beyond :meth:`Game.legal_actions`: its claims
    (all first), then ``concede`` (``SeatView.claims``)."""
    out: list[Action] = list(claim_options(game, seat))
    if _concede_refusal(game, seat) is None:
        out.append(_CONCEDE)
    return tuple(out)


# --------------------------------------------------------------------------- the hook of Game.apply


OUTSIDE_ACTIONS: Final = frozenset({Claim, Concede})


def check_outside(game: Game, seat: int, action: Action) -> None:
    """Raise :class:`IllegalAction` unless the claim or concession is allowed now."""
    if isinstance(action, Claim):
        reason = _claim_refusal(game, seat, action.tricks)
    else:
        reason = _concede_refusal(game, seat)
    if reason is not None:
        raise IllegalAction(reason, "bad_claim" if isinstance(action, Claim) else "bad_concession")


def apply_outside(game: Game, seat: int, action: Action, events: list[Event]) -> None:
    """Perform a checked claim or concession proposal."""
    if isinstance(action, Claim):
        hand = tuple(game.hand(seat))
        game.notes["claim"] = ClaimNote(seat, action.tricks, (), hand)
        game.phase = CLAIM
        events.append(ClaimMade(seat, action.tricks, remaining_tricks(game), hand))
        return
    if not game.rules.concession_asks_partner:
        _end_by_concession(game, seat, events)
        return
    partner = game.partner_of(seat)
    game.notes["concede"] = ConcedeNote(seat, partner, game.phase)
    game.phase = CONCEDE
    events.append(ConcessionProposed(seat, partner))


def _end_by_concession(game: Game, seat: int, events: list[Event]) -> None:
    """The game and match go to the side other than ``seat``'s (see the module
    docstring); ``notes["conceded"]`` keeps who gave it up, for the result's words."""
    side = game.side_of[seat]
    winner = 1 - side
    rules = game.rules
    game.notes["conceded"] = Concession(seat, side)
    events.append(Conceded(side, winner))
    game.winner = winner
    game.games_won[winner] += 1
    game.game_values[winner] += 1
    events.append(
        GameOver(game.game_no, winner, tuple(game.scores), "concession", tuple(game.games_won))
    )
    game.match_winner = winner
    game.over_phase.enter(game, events)
    if rules.rubber_points == "game_values_plus_2":
        net = game.game_values[winner] + 2 - game.game_values[side]
        game.rubber_points = tuple(net if s == winner else -net for s in range(2))
    else:
        game.rubber_points = tuple(game.games_won)
    events.append(MatchOver(winner, tuple(game.games_won), game.rubber_points))


# --------------------------------------------------------------------------- the waiting phases


class _Waiting:
    """What the two waiting phases share: nobody plays; the seats still to answer
    (:func:`answering`, the first of them to act) may give one of the two ``answers``."""

    name: str
    absent: str
    waiting: str
    answers: tuple[_Answer, _Answer]  # yes, no

    def handles(self, action: Action) -> bool:
        return any(isinstance(action, type(answer)) for answer in self.answers)

    def enter(
        self, game: Game, events: list[Event]
    ) -> None:  # pragma: no cover - entered by apply_outside
        game.phase = self.name

    def to_act(self, game: Game) -> int | None:
        seats = answering(game)
        return seats[0] if seats else None

    def legal(self, game: Game, seat: int) -> list[Action]:
        return list(self.answers) if seat in answering(game) else []

    def visible(self, game: Game, seat: int) -> Mapping[str, object]:
        return NOTHING_PRIVATE


class ClaimPhase(_Waiting):
    """The game waits for the opponents' answers to a claim (see the module docstring)."""

    name = CLAIM
    absent = "There is no claim to answer now."
    waiting = "A claim is waiting for answers: nobody may play until it is settled."
    answers = (_ACCEPT, _REJECT)

    def check(self, game: Game, seat: int, action: Action) -> None:
        if not self.handles(action):
            raise IllegalAction(self.waiting, "claim_pending")
        pending = pending_claim(game)
        assert pending is not None
        claimer, _, accepted, _ = pending
        if game.side_of[seat] == game.side_of[claimer]:
            raise IllegalAction("Only the claimer's opponents answer a claim.", "not_your_turn")
        if seat in accepted:
            raise IllegalAction("You have already accepted this claim.", "not_your_turn")

    def apply(self, game: Game, seat: int, action: Action, events: list[Event]) -> None:
        pending = pending_claim(game)
        assert pending is not None
        claimer, tricks, accepted, hand = pending
        ok = isinstance(action, AcceptClaim)
        events.append(ClaimAnswered(seat, ok))
        if not ok:
            del game.notes["claim"]
            # where it was rejected, public like the claim (the AI does not make it again
            # from the same position: engine.ai.claims.certain_claim)
            left = remaining_tricks(game)
            game.notes["claim_rejected"] = ClaimRejected(claimer, left, len(game.trick))
            game.phase = Phase.PLAY
            events.append(ClaimSettled(claimer, tricks, False, tuple(game.tricks), left=left))
            return
        accepted = (*accepted, seat)
        game.notes["claim"] = ClaimNote(claimer, tricks, accepted, hand)
        if answering(game):
            return
        self._settle(game, claimer, tricks, events)

    @staticmethod
    def _settle(game: Game, claimer: int, claimed: int, events: list[Event]) -> None:
        left = remaining_tricks(game)
        stop = game.facts.stop_tricks
        side = game.side_of[claimer]
        tricks = game.tricks
        tricks[side] = min(stop, tricks[side] + claimed)
        rest = left - claimed
        if tricks[side] < stop and rest > 0:
            other = next(
                s for s in range(len(tricks)) if s != side
            )  # two sides (checked at the claim)
            tricks[other] = min(stop, tricks[other] + rest)
        unplayed = unplayed_cards(game)
        del game.notes["claim"]
        game.trick = []
        game.phase = Phase.PLAY
        events.append(ClaimSettled(claimer, claimed, True, tuple(tricks), tuple(unplayed), left))
        game.enter_next(game.play_phase, events)


class ConcedePhase(_Waiting):
    """The game waits for the proposer's partner to agree to concede."""

    name = CONCEDE
    absent = "There is no concession to answer now."
    waiting = "A concession is waiting for an answer."
    answers = (_AGREE, _REFUSE)

    def check(self, game: Game, seat: int, action: Action) -> None:
        if not self.handles(action):
            raise IllegalAction(self.waiting, "concession_pending")
        if seat not in answering(game):
            raise IllegalAction(
                "Only the proposer's partner answers a concession.", "not_your_turn"
            )

    def apply(self, game: Game, seat: int, action: Action, events: list[Event]) -> None:
        note = game.notes.pop("concede")
        assert isinstance(note, ConcedeNote)
        proposer, _, before = note
        agreed = isinstance(action, AgreeConcession)
        events.append(ConcessionAnswered(seat, agreed))
        game.phase = str(before)
        if agreed:
            _end_by_concession(game, proposer, events)


PHASES: Final[dict[str, PhaseLogic]] = {CLAIM: ClaimPhase(), CONCEDE: ConcedePhase()}
