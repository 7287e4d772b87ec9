"""Hand records of a finished game: the project's own JSON, PBN-style text, and the deal-by-deal log.

Pure: no I/O, no clock. The caller passes the players' names and, for the PBN
header, the event, site and date.

**The deal log.** :func:`game_log` replays a record (format ``ruff-honours-game``,
:mod:`engine.records`) in the engine and collects, for every deal, what a hand
record shows once the game is over: the hands as dealt, the undealt cards, the
trumps, the exchange with the stock, a contract if the family has one, every
trick (who led, each seat's card, who won, the running tricks) and the scores
after the deal. It reads the engine's events and state, never a game id, so a new
family is covered as long as it emits the usual events (``DealStarted``,
``HandDealt``, ``TrumpFixed``, ``CardPlayed``, ``TrickWon``, ``DealScored``);
an event of kind ``contract_won`` (Bid Whist's ``declarer`` and ``bid``) or
``solo_contract_won`` (Solo's ``declarer``, ``contract``, ``partner``, ``trump``)
names the contract, ``trump_named`` and
``contract_declared`` the trumps a declarer chose, ``kitty_taken`` (or a phase
named ``kitty``) makes the undealt cards a kitty.

**JSON** (:func:`to_json` / :func:`load_json`): format ``ruff-honours-export``,
version :data:`EXPORT_VERSION` (1)::

    {"format": "ruff-honours-export", "version": 1,
     "title": "...", "game_id": "...", "preset": "...",
     "meta": {...},                       # what the caller passed (table id, server, date)
     "players": [{"seat": 0, "position": "North", "name": "alice"}, ...],
     "record": {...},                     # the engine record: seed + rules + action log
     "result": {"scores": [..], "games_won": [..], "winner": side | null,
                "rubber_points": [..], "deals": n, "actions": n,
                "state_sha256": "..."},   # hash of Game.state_key() at the end
     "deals": [...]}                      # the deal log as plain data (for readers)

``record`` is the truth: :func:`load_json` replays it and refuses the file
(:class:`~engine.errors.RecordError`) if the replayed final state's hash is not
``state_sha256``. ``deals`` is derived from it for other programs and is not read
back. Cards are the engine's codes (``10H``, ``QS``; jokers ``BJ``/``LJ``).

**PBN** (:func:`to_pbn`): one game per deal, separated by a blank line, after the
header lines ``% PBN 2.1`` and ``% EXPORT``. Every deal has, in this order:

* ``[Event]`` the game's title and id, e.g. ``Ruff and Honours (ruff-honours-cotton)``;
  ``[Site]`` the site passed in (``?`` when unknown); ``[Date]`` ``YYYY.MM.DD``
  (``????.??.??`` when unknown);
* ``[Board]`` the deal's number in the session, from 1 (a deal thrown in and dealt
  again counts);
* ``[West]`` ``[North]`` ``[East]`` ``[South]`` the players. Seats are named as
  the bot names them: seat 0 North, 1 East, 2 South, 3 West, so a 3-player
  table has no West and a 2-player table North and East; a seat the table does
  not have gets ``""``;
* ``[Dealer]`` ``N``/``E``/``S``/``W``; ``[Vulnerable "None"]`` (none of these
  games knows vulnerability; PBN requires the tag);
* ``[Deal "N:<N> <E> <S> <W>"]`` the hands **as dealt**, before any exchange:
  ``spades.hearts.diamonds.clubs``, ranks ``AKQJT98765432``; ``-`` for a seat
  the table does not have. Standard PBN has 13 cards a hand; the Ruff-and-Honours
  games deal 12 (with a 4-card stock), Willughby's 12, 16 or 24, Turnover Bridge
  8 or 2 in hand (the rest in layouts, below): those deals are written the same
  way with the cards each hand really received, so a strict PBN reader may
  reject them while the Whist games (13 cards, 4 hands) are plain PBN;
* ``[Declarer]`` and ``[Contract]`` only where the deal has a contract: the
  declarer's seat letter and the engine's contract code, not bridge syntax:
  Solo Whist's ``prop``, ``solo``, ``mis``, ``abund``, ``royal``, ``spread``,
  ``slam``, ``general`` (``general`` has no declarer), Bid Whist's bid
  (``4u`` uptown, ``5d`` downtown, ``3n`` no trump: books over six). A deal
  everyone passed is ``[Contract "Pass"]`` with no play;
* ``[Result]`` tricks won: by the declaring side where there is a contract (as
  in PBN), otherwise by North's side. A deal that was not played has none.

Tags beyond PBN, in the style of Trickster's PTN (present only when they apply):

* ``[Trump]`` the trump suit letter, ``NT`` for no trumps (every played deal);
  ``[TurnUp]`` the card turned for trumps (PBN card form, e.g. ``HK``);
* ``[Stock]`` the cards not dealt to any hand (Cotton's stock, Willughby's
  head), in dealing order, the top card first; ``[Kitty]`` instead in a game
  whose phases take a kitty (Bid Whist);
* ``[Exchange]`` what the exchange did: ``"E took HA D7 C2 S3; laid out S2 S3 D4 D5"``
  (the cards taken in, the cards laid out face down: Cotton's ruff, Willughby's
  rub, Bid Whist's kitty), or ``"E declined"``;
* ``[Layout]`` Turnover Bridge's layouts as dealt, per seat: ``N:`` then each
  position's cards bottom to top joined by ``/`` (the last is the face-up
  card), positions separated by spaces, e.g. ``"N:D3/SK C9/H2 ... E:..."``;
* ``[Jokers]`` the jokers and who was dealt them (``"N:BJ kitty:LJ"``), which
  the ``[Deal]``, ``[Stock]``/``[Kitty]`` strings hold only as ``BJ``/``LJ``
  codes outside PBN's card syntax (jokers are left out of ``[Deal]``);
* ``[Tricks]`` tricks won by every side, e.g. ``"NS 7 EW 6"``, ``"N 3 E 5 S 5"``
  or ``"S 4 N+E+W 9"`` (for a contract: the declaring side first; a side of
  three seats is joined by ``+``);
* ``[Scores]`` every side's score after the deal, e.g. ``"NS 5 EW 3"`` (Solo
  Whist: per seat).

Then ``{...}`` commentary (ignored by PBN readers): the exchange's reason,
Can-ye calls, honours shown and scored, the ruff contest, the game's and the
match's end. Last, where cards were played, the ``[Play "<leader>"]`` section:
one line a trick, the cards in the column order of the seats clockwise from the
first leader (PBN's rule), each as suit letter + rank (``HT``), ``-`` where a
seat played no card to that trick, ``*`` after the last trick. With 2 or 3
players a line has 2 or 3 cards. A deal ended by an accepted claim says so in
``{N claimed 3 of the last 4 tricks; accepted}`` before the ``*`` (alone, where no
trick was complete), and in the JSON deal's ``claim``
(``{"seat", "claimed", "left"}``); the tricks left are the engine's count
(:func:`engine.claims.remaining_tricks`), recomputed whenever a record is replayed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine.actions import Play, decode_action
from engine.cards import Card, Suit, full_deck
from engine.errors import RecordError
from engine.events import Event
from engine.game import Game, new_game
from engine.records import RECORD_VERSION
from engine.seating import Seating

__all__ = [
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "DealLog",
    "GameLog",
    "TrickLog",
    "dumps_json",
    "game_log",
    "load_json",
    "pbn_card",
    "pbn_hand",
    "seat_letter",
    "side_label",
    "state_hash",
    "to_json",
    "to_pbn",
]

EXPORT_FORMAT: Final = "ruff-honours-export"
EXPORT_VERSION: Final = 1
POSITIONS: Final = ("North", "East", "South", "West")
LETTERS: Final = ("N", "E", "S", "W")
_PBN_SUITS: Final = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


# --------------------------------------------------------------------------- the deal log


@dataclass(frozen=True, slots=True)
class TrickLog:
    """One trick: ``plays`` are (seat, card) in play order; ``tricks`` per side after it."""

    number: int  # within the deal, from 1
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int
    tricks: tuple[int, ...]


@dataclass(slots=True)
class DealLog:
    """Everything a hand record shows of one deal (see the module docstring)."""

    index: int  # the deal's number in the session, from 1
    game_no: int
    deal_no: int
    dealer: int
    eldest: int
    n_players: int
    hands: list[tuple[Card, ...]] = field(default_factory=list)  # as dealt, per seat
    stock: tuple[Card, ...] | None = None  # undealt cards, top first
    stock_name: str = "stock"  # what the undealt cards are: the stock (a head) or a kitty
    layouts: tuple[tuple[tuple[Card, ...], ...], ...] = ()  # per seat, per position, bottom to top
    trump: Suit | None = None
    turn_up: Card | None = None
    ruffer: int | None = None
    ruff_reason: str = ""
    declined: bool = False
    taken: tuple[Card, ...] = ()
    laid_out: list[Card] = field(default_factory=list)
    contract: str | None = None
    declarer: int | None = None
    partner: int | None = None
    passed_out: bool = False
    seating: Seating | None = None  # the sides tricks are counted for (set when play begins)
    score_seating: Seating | None = None  # the sides scores are kept for
    play_hands: tuple[tuple[Card, ...], ...] = ()  # hands (and layout cards) when play began
    start_scores: tuple[int, ...] = ()  # scores when play began
    tricks: list[TrickLog] = field(default_factory=list)
    current: list[tuple[int, Card]] = field(default_factory=list)  # the trick being played
    tricks_won: tuple[int, ...] = ()
    scores: tuple[int, ...] | None = None  # after the deal
    notes: list[str] = field(default_factory=list)
    # an accepted claim ended the deal: (claimer's seat, tricks he claimed, tricks
    # that were left); the claimed tricks were never played, so ``tricks`` is short
    claim: tuple[int, int, int] | None = None

    @property
    def played(self) -> bool:
        """Whether any card was played in this deal."""
        return bool(self.tricks)


@dataclass(frozen=True, slots=True)
class GameLog:
    """A replayed game and its deals."""

    game: Game
    deals: tuple[DealLog, ...]

    @property
    def tricks(self) -> tuple[tuple[DealLog, TrickLog], ...]:
        """Every trick of the game, in order, with its deal (the replay's steps)."""
        return tuple((deal, trick) for deal in self.deals for trick in deal.tricks)


def seat_letter(seat: int) -> str:
    """``N``, ``E``, ``S``, ``W`` for seats 0..3."""
    return LETTERS[seat]


def side_label(seating: Seating, side: int) -> str:
    """A side named by its seats' letters clockwise from North: ``NS``, ``EW``, ``N``;
    three seats are joined by ``+`` (``N+E+W``, Solo Whist's defenders)."""
    letters = [LETTERS[s] for s in sorted(seating.sides[side])]
    return ("+" if len(letters) > 2 else "").join(letters)


def _names(seating: Seating, values: Sequence[int], first: int = 0) -> str:
    order = [first, *(i for i in range(len(values)) if i != first)] if values else []
    return " ".join(
        f"{side_label(seating, i)} {values[i]}" for i in order if i < len(seating.sides)
    )


class _Collector:
    """Builds the deal log from the events of a replay and the state between actions."""

    def __init__(self) -> None:
        self.deals: list[DealLog] = []

    @property
    def deal(self) -> DealLog:
        return self.deals[-1]

    def before(self, game: Game, action: object) -> None:
        """Called before each action: the first card of a deal fixes the hands at play."""
        if not self.deals:
            return
        deal = self.deal
        if isinstance(action, Play) and not deal.play_hands:
            hands = []
            for seat in range(game.n_players):
                mask = game.hands[seat]
                if game.layout is not None:
                    for pile in game.layout.piles[seat]:
                        for index in pile:
                            mask |= 1 << index
                hands.append(tuple(_by_index(mask)))
            deal.play_hands = tuple(hands)
            deal.seating = game.seating
            deal.start_scores = tuple(game.scores)
            deal.trump = game.trump

    def after(self, game: Game) -> None:
        """Called after each step: the undealt cards and layouts of a deal just dealt."""
        for deal in self.deals:
            if (
                deal.stock is None and "kitty" in game.facts.by_name
            ):  # a family whose phases take a kitty
                deal.stock_name = "kitty"
            if deal.stock is None:
                if deal is self.deal and game.deals_total == deal.index:
                    deal.stock = tuple(game.stock_taken) + tuple(game.stock)
                    if game.layout is not None:
                        deal.layouts = tuple(
                            tuple(tuple(_by_index_ordered(pile)) for pile in seat_piles)
                            for seat_piles in game.layout.piles
                        )
                else:  # a deal thrown in within the same action: what no hand received
                    dealt = {c for hand in deal.hands for c in hand}
                    pack = full_deck(game.rules.removed_ranks) + [
                        c for h in deal.hands for c in h if c.is_joker
                    ]
                    deal.stock = tuple(c for c in pack if c not in dealt)
            if deal.score_seating is None:
                deal.score_seating = game.facts.seating

    def feed(self, game: Game, events: Sequence[Event]) -> None:
        for ev in events:
            handler = getattr(self, "_on_" + ev.kind, None)
            if handler is not None:
                handler(game, ev)
            elif ev.kind in _NOTED:
                self._note(_NOTED[ev.kind](ev))

    def _note(self, text: str) -> None:
        if self.deals:
            self.deal.notes.append(text)

    # one handler per kind of event ------------------------------------------------

    def _on_deal_started(self, game: Game, ev: Any) -> None:
        self.deals.append(
            DealLog(
                len(self.deals) + 1, ev.game_no, ev.deal_no, ev.dealer, ev.eldest, game.n_players
            )
        )
        self.deal.hands = [() for _ in range(game.n_players)]

    def _on_hand_dealt(self, game: Game, ev: Any) -> None:
        self.deal.hands[ev.seat] = tuple(ev.cards)

    def _on_trump_fixed(self, game: Game, ev: Any) -> None:
        self.deal.trump = ev.trump
        self.deal.turn_up = ev.turn_up

    def _on_trump_named(self, game: Game, ev: Any) -> None:
        self.deal.trump = ev.trump
        self._note(f"{POSITIONS[ev.seat]} names {ev.trump.name.lower()} trumps.")

    def _on_ruff_taken(self, game: Game, ev: Any) -> None:
        self.deal.ruffer = ev.seat
        self.deal.ruff_reason = ev.reason
        self._note(f"{POSITIONS[ev.seat]} ruffs ({ev.reason.replace('_', ' ')}).")

    def _on_stock_taken(self, game: Game, ev: Any) -> None:
        self.deal.ruffer = ev.seat
        # the event lists the cards sorted for display; the state keeps the stock's order
        taken = tuple(game.stock_taken)
        self.deal.taken = taken if set(taken) == set(ev.cards) else tuple(ev.cards)

    def _on_ruff_declined(self, game: Game, ev: Any) -> None:
        self.deal.ruffer = ev.seat
        self.deal.declined = True
        self._note(f"{POSITIONS[ev.seat]} declines the ruff.")

    def _on_discarded(self, game: Game, ev: Any) -> None:
        self.deal.laid_out.append(ev.card)

    def _on_contract_won(self, game: Game, ev: Any) -> None:
        self._contract(str(ev.bid), ev.declarer, None, None)  # Bid Whist: trumps are declared next

    def _on_solo_contract_won(self, game: Game, ev: Any) -> None:
        self._contract(str(ev.contract), ev.declarer, ev.partner, ev.trump)

    def _contract(
        self, contract: str, declarer: int | None, partner: int | None, trump: Suit | None
    ) -> None:
        deal = self.deal
        deal.contract = contract
        deal.declarer = declarer
        deal.partner = partner
        if trump is not None:
            deal.trump = trump
        who = "everyone" if declarer is None else POSITIONS[declarer]
        self._note(f"Contract: {contract} by {who}.")

    def _on_contract_declared(self, game: Game, ev: Any) -> None:
        self.deal.trump = ev.trump
        trumps = "no trumps" if ev.trump is None else f"{ev.trump.name.lower()} trumps"
        self._note(f"{POSITIONS[ev.declarer]} declares {trumps}, {ev.direction}.")

    def _on_kitty_taken(self, game: Game, ev: Any) -> None:
        self.deal.stock_name = "kitty"
        if ev.cards:
            self._note(f"The kitty is shown: {_codes(ev.cards)}.")

    def _on_all_passed(self, game: Game, ev: Any) -> None:
        self._passed_out("redeal")  # Bid Whist: the deal is thrown in

    def _on_solo_all_passed(self, game: Game, ev: Any) -> None:
        self._passed_out(str(ev.then))

    def _passed_out(self, then: str) -> None:
        if then == "redeal":
            self.deal.passed_out = True
        self._note(f"All passed ({then.replace('_', ' ')}).")

    def _on_game_over(self, game: Game, ev: Any) -> None:
        seating = game.facts.seating
        if self.deals and self.deal.scores is None:  # won before the deal was scored (Can-ye)
            self.deal.scores = tuple(ev.scores)
        self._note(
            f"Game {ev.game_no} won by {side_label(seating, ev.winner)} ({ev.how.replace('_', ' ')}): "
            f"{_names(seating, ev.scores)}."
        )

    def _on_match_over(self, game: Game, ev: Any) -> None:
        seating = game.facts.seating
        text = (
            f"Match won by {side_label(seating, ev.winner)}, games {_names(seating, ev.games_won)}"
        )
        if ev.rubber_points and tuple(ev.rubber_points) != tuple(ev.games_won):
            text += f", rubber points {_names(seating, ev.rubber_points)}"
        self._note(text + ".")

    def _on_card_played(self, game: Game, ev: Any) -> None:
        self.deal.current.append((ev.seat, ev.card))

    def _on_trick_won(self, game: Game, ev: Any) -> None:
        deal = self.deal
        plays = tuple(deal.current) or tuple(
            ((ev.leader + i) % deal.n_players, c) for i, c in enumerate(ev.cards)
        )
        deal.current = []
        deal.tricks.append(TrickLog(ev.trick_no, ev.leader, plays, ev.winner, tuple(ev.tricks)))
        deal.tricks_won = tuple(ev.tricks)

    def _on_claim_settled(self, game: Game, ev: Any) -> None:
        if ev.accepted:
            self.deal.claim = (ev.seat, ev.claimed, ev.left)  # engine.claims.remaining_tricks

    def _on_deal_scored(self, game: Game, ev: Any) -> None:
        self.deal.scores = tuple(ev.scores)
        if ev.tricks:
            self.deal.tricks_won = tuple(ev.tricks)


def _can_ye(ev: Any) -> str:
    if ev.answered:
        return f"{POSITIONS[ev.seat]} calls Can-ye; {POSITIONS[ev.partner]} answers ({_codes(ev.shown)})."
    return f"{POSITIONS[ev.seat]} calls Can-ye; no answer."


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(pbn_card(c) for c in cards)


_NOTED: Final[Mapping[str, Any]] = {
    "can_ye_called": _can_ye,
    "honours_shown": lambda ev: f"{POSITIONS[ev.seat]} shows honours {_codes(ev.cards)}.",
    "honours_scored": lambda ev: (
        f"Honours: counts {list(ev.counts)}, points {list(ev.points)}"
        + (f" ({ev.note})" if ev.note else "")
        + "."
    ),
    "revoked": lambda ev: f"{POSITIONS[ev.seat]} revoked in trick {ev.trick_no}.",
    "ruff_contest": lambda ev: f"Ruff contest: values {list(ev.values)}, points {list(ev.points)}.",
    "hand_exposed": lambda ev: f"{POSITIONS[ev.seat]} exposes the hand.",
    "play_stopped": lambda ev: (
        f"Play stops after trick {ev.trick_no} ({'made' if ev.made else 'defeated'})."
    ),
    "contract_scored": lambda ev: (
        f"Contract {ev.bid} {'made' if ev.made else 'set'}: {ev.books} books, {ev.points} points."
    ),
    "contract_settled": lambda ev: (
        f"Contract {ev.contract} {'made' if ev.made else 'failed'} with {ev.tricks} tricks: "
        f"points {list(ev.points)}."
    ),
}


def _by_index(mask: int) -> list[Card]:
    out = []
    while mask:
        low = mask & -mask
        out.append(Card.from_index(low.bit_length() - 1))
        mask ^= low
    return out


def _by_index_ordered(indices: Sequence[int]) -> list[Card]:
    return [Card.from_index(i) for i in indices]


def _check_record(record: Mapping[str, Any]) -> None:
    if record.get("format") != "ruff-honours-game":
        raise RecordError("not a game record")
    version = record.get("version")
    if not isinstance(version, int) or not 1 <= version <= RECORD_VERSION:
        raise RecordError(f"unsupported record version {version!r}")


def game_log(record: Mapping[str, Any]) -> GameLog:
    """Replay ``record`` (as :func:`engine.records.from_record` does) and log its deals."""
    _check_record(record)
    collector = _Collector()
    game, events = new_game(
        record["game_id"],
        record.get("preset"),
        record.get("overrides") or {},
        seed=int(record["seed"]),
        first_dealer=record.get("first_dealer"),
        deck=record.get("deck"),
        start_scores=record.get("start_scores"),
        record_version=int(record["version"]),
    )
    collector.feed(game, events)
    collector.after(game)
    for entry in record.get("actions", []):
        seat_text, _, action_text = str(entry).partition(" ")
        action = decode_action(action_text)
        collector.before(game, action)
        events = game.apply(int(seat_text), action)
        collector.feed(game, events)
        collector.after(game)
    return GameLog(game, tuple(collector.deals))


# --------------------------------------------------------------------------- JSON


def state_hash(game: Game) -> str:
    """SHA-256 of the game's canonical state (:meth:`Game.state_key`)."""
    return hashlib.sha256(game.state_key().encode()).hexdigest()


def _player_rows(n: int, names: Sequence[str]) -> list[dict[str, Any]]:
    if len(names) != n:
        raise ValueError(f"{n} names needed, one per seat, not {len(names)}")
    return [{"seat": s, "position": POSITIONS[s], "name": str(names[s])} for s in range(n)]


def _deal_data(deal: DealLog) -> dict[str, Any]:
    def codes(cards: Sequence[Card]) -> list[str]:
        return [c.code for c in cards]

    data: dict[str, Any] = {
        "board": deal.index,
        "game": deal.game_no,
        "deal": deal.deal_no,
        "dealer": deal.dealer,
        "hands": [codes(h) for h in deal.hands],
        "stock": codes(deal.stock or ()),
        "trump": deal.trump.value if deal.trump else None,
        "turn_up": deal.turn_up.code if deal.turn_up else None,
    }
    if deal.layouts:
        data["layouts"] = [[codes(pile) for pile in seat] for seat in deal.layouts]
    if deal.ruffer is not None:
        data["exchange"] = {
            "seat": deal.ruffer,
            "declined": deal.declined,
            "taken": codes(deal.taken),
            "laid_out": codes(deal.laid_out),
        }
    if deal.contract is not None or deal.passed_out:
        data["contract"] = {
            "contract": "pass" if deal.passed_out else deal.contract,
            "declarer": deal.declarer,
            "partner": deal.partner,
        }
    data["tricks"] = [
        {"leader": t.leader, "cards": [[s, c.code] for s, c in t.plays], "winner": t.winner}
        for t in deal.tricks
    ]
    if deal.seating is not None:
        data["sides"] = [sorted(side) for side in deal.seating.sides]
    if deal.claim is not None:
        seat, claimed, left = deal.claim
        data["claim"] = {"seat": seat, "claimed": claimed, "left": left}
    data["tricks_won"] = list(deal.tricks_won)
    data["scores"] = None if deal.scores is None else list(deal.scores)
    data["notes"] = list(deal.notes)
    return data


def to_json(
    record_or_game: Mapping[str, Any] | Game,
    names: Sequence[str],
    meta: Mapping[str, Any] | None = None,
    *,
    log: GameLog | None = None,
) -> dict[str, Any]:
    """The JSON export of a game (finished or not) as plain data; ``names`` one per seat.

    ``log`` is the record's :func:`game_log` when the caller has it already."""
    record = (
        record_or_game.to_record() if isinstance(record_or_game, Game) else dict(record_or_game)
    )
    if log is None:
        log = game_log(record)
    game = log.game
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "title": game.rules.title,
        "game_id": game.rules.game_id,
        "preset": game.rules.preset,
        "meta": dict(meta or {}),
        "players": _player_rows(game.n_players, names),
        "record": record,
        "result": {
            "finished": game.is_over,
            "scores": list(game.scores),
            "games_won": list(game.games_won),
            "winner": game.match_winner,
            "rubber_points": list(game.rubber_points),
            "deals": len(log.deals),
            "actions": len(game.log),
            "state_sha256": state_hash(game),
        },
        "deals": [_deal_data(d) for d in log.deals],
    }


def dumps_json(data: Mapping[str, Any]) -> str:
    """The export as text (indented, keys in a stable order, UTF-8 names kept)."""
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def load_json(data: Mapping[str, Any] | str | bytes) -> tuple[Game, list[str], dict[str, Any]]:
    """Read an export: the replayed game, the players' names and ``meta``.

    Raises :class:`RecordError` for another format, a newer version, a record that
    does not replay, or one whose final state is not the exported one.
    """
    if isinstance(data, (str, bytes)):
        try:
            parsed = json.loads(data)
        except ValueError as exc:
            raise RecordError(f"not JSON: {exc}") from None
        if not isinstance(parsed, dict):
            raise RecordError("not an export")
        data = parsed
    if data.get("format") != EXPORT_FORMAT:
        raise RecordError("not a Ruff and Honours export")
    version = data.get("version")
    if not isinstance(version, int) or version > EXPORT_VERSION:
        raise RecordError(f"unsupported export version {version!r}")
    record = data.get("record")
    if not isinstance(record, Mapping):
        raise RecordError("the export has no record")
    try:
        game = game_log(record).game
    except RecordError:
        raise
    except Exception as exc:  # an action that no longer replays, a bad rule ...
        raise RecordError(f"the record does not replay: {exc}") from None
    expected = (data.get("result") or {}).get("state_sha256")
    if expected is not None and expected != state_hash(game):
        raise RecordError("the record replays to another final state than the one exported")
    names = [str(p.get("name", "")) for p in data.get("players", [])]
    return game, names, dict(data.get("meta") or {})


# --------------------------------------------------------------------------- PBN


def pbn_card(card: Card) -> str:
    """A card as PBN writes it in a play section: suit letter + rank (``HT``, ``SA``);
    a joker keeps its code (``BJ``, ``LJ``)."""
    if card.is_joker:
        return card.code
    rank = "T" if card.rank.label == "10" else card.rank.label
    return card.suit.value + rank


def pbn_hand(cards: Sequence[Card]) -> str:
    """A hand in PBN's deal form, ``spades.hearts.diamonds.clubs``, ranks high to low;
    jokers are left out (see ``[Jokers]``)."""
    groups = []
    for suit in _PBN_SUITS:
        ranks = sorted((c.rank for c in cards if not c.is_joker and c.suit is suit), reverse=True)
        groups.append("".join("T" if r.label == "10" else r.label for r in ranks))
    return ".".join(groups)


def _tag(name: str, value: object) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{text}"]'


def to_pbn(
    record_or_game: Mapping[str, Any] | Game,
    names: Sequence[str],
    *,
    site: str = "?",
    date: str = "????.??.??",
    event: str | None = None,
    log: GameLog | None = None,
) -> str:
    """The game as PBN-style text, one block a deal (the tags are in the module docstring).

    ``log`` is the record's :func:`game_log` when the caller has it already."""
    if log is None:
        record = (
            record_or_game.to_record() if isinstance(record_or_game, Game) else dict(record_or_game)
        )
        log = game_log(record)
    game = log.game
    n = game.n_players
    if len(names) != n:
        raise ValueError(f"{n} names needed, one per seat, not {len(names)}")
    title = event or f"{game.rules.title} ({game.rules.game_id})"
    blocks = []
    for deal in log.deals:
        lines = [
            _tag("Event", title),
            _tag("Site", site),
            _tag("Date", date),
            _tag("Board", deal.index),
        ]
        for seat in (3, 0, 1, 2):  # PBN's order: West, North, East, South
            lines.append(_tag(POSITIONS[seat], names[seat] if seat < n else ""))
        lines.append(_tag("Dealer", LETTERS[deal.dealer]))
        lines.append(_tag("Vulnerable", "None"))
        lines.append(
            _tag(
                "Deal", "N:" + " ".join(pbn_hand(deal.hands[s]) if s < n else "-" for s in range(4))
            )
        )
        declaring = deal.declarer is not None and deal.seating is not None
        if deal.passed_out:
            lines.append(_tag("Contract", "Pass"))
        elif deal.contract is not None:
            if deal.declarer is not None:
                lines.append(_tag("Declarer", LETTERS[deal.declarer]))
            lines.append(_tag("Contract", deal.contract))
        if deal.played and deal.seating is not None and deal.tricks_won:
            side = (
                deal.seating.side_of(deal.declarer)
                if declaring and deal.declarer is not None
                else deal.seating.side_of(0)
            )
            lines.append(_tag("Result", deal.tricks_won[side]))
        if not deal.passed_out:
            lines.append(_tag("Trump", deal.trump.value if deal.trump else "NT"))
        if deal.turn_up is not None:
            lines.append(_tag("TurnUp", pbn_card(deal.turn_up)))
        if deal.stock:
            lines.append(_tag(deal.stock_name.capitalize(), _codes(deal.stock)))
        if deal.ruffer is not None:
            who = LETTERS[deal.ruffer]
            if deal.declined or not deal.taken:
                lines.append(_tag("Exchange", f"{who} declined"))
            else:
                lines.append(
                    _tag(
                        "Exchange",
                        f"{who} took {_codes(deal.taken)}; laid out {_codes(deal.laid_out)}",
                    )
                )
        if deal.layouts:
            parts = []
            for seat, piles in enumerate(deal.layouts):
                parts.append(
                    LETTERS[seat]
                    + ":"
                    + " ".join("/".join(pbn_card(c) for c in pile) for pile in piles)
                )
            lines.append(_tag("Layout", " ".join(parts)))
        jokers = [f"{LETTERS[s]}:{c.code}" for s in range(n) for c in deal.hands[s] if c.is_joker]
        jokers += [f"{deal.stock_name}:{c.code}" for c in deal.stock or () if c.is_joker]
        if jokers:
            lines.append(_tag("Jokers", " ".join(jokers)))
        if deal.seating is not None and deal.tricks_won:
            first = (
                deal.seating.side_of(deal.declarer)
                if declaring and deal.declarer is not None
                else 0
            )
            lines.append(_tag("Tricks", _names(deal.seating, deal.tricks_won, first)))
        if deal.scores is not None and deal.score_seating is not None:
            lines.append(_tag("Scores", _names(deal.score_seating, deal.scores)))
        for note in deal.notes:
            lines.append("{" + note.replace("}", ")") + "}")
        if deal.played:
            lines.extend(_play_section(deal))
        elif deal.claim is not None:  # claimed before any trick was complete
            lines.append(_claim_comment(deal.claim))
        blocks.append("\n".join(lines))
    return "% PBN 2.1\n% EXPORT\n" + "\n\n".join(blocks) + "\n"


def _play_section(deal: DealLog) -> list[str]:
    n = deal.n_players
    first = deal.tricks[0].leader
    columns = [(first + k) % n for k in range(n)]
    lines = [_tag("Play", LETTERS[first])]
    for trick in deal.tricks:
        by_seat = dict(trick.plays)
        lines.append(" ".join(pbn_card(by_seat[s]) if s in by_seat else "-" for s in columns))
    if deal.claim is not None:
        lines.append(_claim_comment(deal.claim))
    lines.append("*")
    return lines


def _claim_comment(claim: tuple[int, int, int]) -> str:
    seat, claimed, left = claim
    return f"{{{LETTERS[seat]} claimed {claimed} of the last {left} tricks; accepted}}"
