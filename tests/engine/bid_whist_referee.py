"""An independent referee for Bid Whist (RULES.md §7), fed the engine's events only.

It recomputes from the rules text, without the engine's rank orders or scorer:
the bidding order (eldest to dealer, one call each, each bid outranking), the
declarer and contract, who leads, whether each card follows suit (jokers
included), who wins each trick (its own card ranking tables of §7.5), the
deal's score and the ±target end. Disagreement is an assertion error.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Card, Rules, Suit
from engine.events import (
    AllPassed,
    BidMade,
    CardPlayed,
    ContractDeclared,
    ContractScored,
    ContractWon,
    DealerChosen,
    DealScored,
    DealStarted,
    Discarded,
    DiscardsDone,
    Event,
    GameOver,
    GameStarted,
    HandDealt,
    KittyTaken,
    MatchOver,
    StockTaken,
    TrickWon,
    TrumpFixed,
)

UPTOWN = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]  # low to high


def strength(card: Card, direction: str, ace: str) -> int:
    """Position in the §7.5 table, higher is better (jokers handled by the caller)."""
    label = card.code[:-1]
    if direction == "uptown":
        return UPTOWN.index(label)
    low_to_high = list(reversed(UPTOWN[:-1]))  # K Q J ... 2: downtown, 2 best before the ace
    if ace == "high":
        return len(low_to_high) if label == "A" else low_to_high.index(label)
    return -1 if label == "A" else low_to_high.index(label)


def suit_of(card: Card, trump: Suit | None) -> Suit | None:
    if card.code in ("BJ", "LJ"):
        return trump
    return card.suit


def referee_winner(
    plays: list[tuple[int, Card]], trump: Suit | None, direction: str, ace: str
) -> int:
    led = next((suit_of(c, trump) for _, c in plays if suit_of(c, trump) is not None), None)
    best: tuple[int, int] | None = None
    winner = plays[0][0]
    for seat, card in plays:
        suit = suit_of(card, trump)
        if suit is None:
            continue  # a no-trump joker never wins
        if card.code in ("BJ", "LJ"):
            key = (2, 100 if card.code == "BJ" else 99)
        elif trump is not None and suit is trump:
            key = (2, strength(card, direction, ace))
        elif suit is led:
            key = (1, strength(card, direction, ace))
        else:
            continue
        if best is None or key > best:
            best, winner = key, seat
    return winner


@dataclass
class BidWhistReferee:
    rules: Rules
    dealer: int = -1
    scores: list[int] = field(default_factory=lambda: [0, 0])
    hands: dict[int, set[Card]] = field(default_factory=dict)
    bids: list[tuple[int, str]] = field(default_factory=list)
    declarer: int | None = None
    contract: str = ""
    trump: Suit | None = None
    direction: str = ""
    plays: list[tuple[int, Card]] = field(default_factory=list)
    next_to_play: int = -1
    tricks: list[int] = field(default_factory=lambda: [0, 0])
    kitty_size: int = 0
    laid_out: int = 0
    over: bool = False
    expected_winner: int | None = None
    points: int = 0

    def p(self, name: str) -> object:
        value: object = getattr(self.rules, name)
        return value

    def feed(self, events: list[Event]) -> None:
        for event in events:
            getattr(self, "_on_" + type(event).__name__, self._ignore)(event)

    def _ignore(self, event: Event) -> None:
        pass

    def _on_DealerChosen(self, e: DealerChosen) -> None:
        self.dealer = e.dealer
        if self.rules.first_dealer == "first_diamond":
            seat, card = e.draws[-1]
            assert seat == e.dealer and card.suit is Suit.DIAMONDS
            assert all(
                c.code in ("BJ", "LJ") or c.suit is not Suit.DIAMONDS for _, c in e.draws[:-1]
            )

    def _on_GameStarted(self, e: GameStarted) -> None:
        self.scores = [0, 0]

    def _on_DealStarted(self, e: DealStarted) -> None:
        assert e.dealer == self.dealer, "the deal passes to the left"
        self.hands = {}
        self.bids = []
        self.declarer = None
        self.tricks = [0, 0]
        self.laid_out = 0

    def _on_HandDealt(self, e: HandDealt) -> None:
        assert len(e.cards) == 12
        self.hands[e.seat] = set(e.cards)
        if len(self.hands) == 4:
            self.kitty_size = 52 + self.rules.jokers - 48

    def _rank(self, code: str) -> tuple[int, int]:
        mode = "udn".index(code[-1]) if self.p("same_number_order") == "u<d<nt" else 0
        return int(code[:-1]), mode

    def _on_BidMade(self, e: BidMade) -> None:
        assert e.seat == (self.dealer + 1 + len(self.bids)) % 4, "bids go clockwise from eldest"
        made = [(s, c) for s, c in self.bids if c != "pass"]
        if e.bid == "pass":
            assert not (
                e.seat == self.dealer and not made and self.p("all_pass") == "dealer_must_bid"
            )
        else:
            number = int(e.bid[:-1])
            min_bid = self.p("min_bid")
            assert isinstance(min_bid, int) and min_bid <= number <= 7
            if made:
                top = made[-1][1]
                match = (
                    e.seat == self.dealer and self.p("dealer_can_match") and number == int(top[:-1])
                )
                assert match or self._rank(e.bid) > self._rank(top), (e.bid, top)
        self.bids.append((e.seat, e.bid))

    def _on_AllPassed(self, e: AllPassed) -> None:
        assert len(self.bids) == 4 and all(c == "pass" for _, c in self.bids)
        assert self.p("all_pass") == "redeal"
        self.dealer = (self.dealer + 1) % 4

    def _on_ContractWon(self, e: ContractWon) -> None:
        assert len(self.bids) == 4
        last = [(s, c) for s, c in self.bids if c != "pass"][-1]
        assert (e.declarer, e.bid) == last
        self.declarer, self.contract = last

    def _on_ContractDeclared(self, e: ContractDeclared) -> None:
        assert e.declarer == self.declarer and e.bid == self.contract
        if self.contract.endswith("n"):
            assert e.trump is None
        else:
            assert e.trump is not None
            assert e.direction == ("uptown" if self.contract.endswith("u") else "downtown")
        self.trump, self.direction = e.trump, e.direction

    def _on_KittyTaken(self, e: KittyTaken) -> None:
        assert e.seat == self.declarer and e.count == self.kitty_size
        assert bool(e.cards) == bool(self.p("kitty_exposed"))

    def _on_StockTaken(self, e: StockTaken) -> None:
        assert e.seat == self.declarer and len(e.cards) == self.kitty_size
        self.hands[e.seat] |= set(e.cards)

    def _on_Discarded(self, e: Discarded) -> None:
        assert e.seat == self.declarer
        if self.p("nt_jokers") == "bidder_discards" and self.contract.endswith("n"):
            jokers = {c for c in self.hands[e.seat] if c.code in ("BJ", "LJ")}
            assert not jokers or e.card in jokers, "no-trump jokers go out first"
        self.hands[e.seat].remove(e.card)
        self.laid_out += 1

    def _on_DiscardsDone(self, e: DiscardsDone) -> None:
        assert self.laid_out == self.kitty_size and self.direction
        assert self.declarer is not None
        self.next_to_play = (
            self.declarer if self.rules.first_leader == "declarer" else (self.dealer + 1) % 4
        )

    def _on_CardPlayed(self, e: CardPlayed) -> None:
        assert e.seat == self.next_to_play
        hand = self.hands[e.seat]
        assert e.card in hand
        led = next(
            (suit_of(c, self.trump) for _, c in self.plays if suit_of(c, self.trump) is not None),
            None,
        )
        if led is not None and suit_of(e.card, self.trump) is not led:
            assert not any(suit_of(c, self.trump) is led for c in hand), "must follow suit"
        hand.remove(e.card)
        self.plays.append((e.seat, e.card))
        self.next_to_play = (e.seat + 1) % 4

    def _on_TrickWon(self, e: TrickWon) -> None:
        want = referee_winner(self.plays, self.trump, self.direction, str(self.p("downtown_ace")))
        assert e.winner == want, (self.plays, self.trump, self.direction, e.winner, want)
        self.tricks[want % 2] += 1
        self.plays = []
        self.next_to_play = want

    def _on_ContractScored(self, e: ContractScored) -> None:
        assert self.declarer is not None and e.declarer == self.declarer
        side = self.declarer % 2
        books = 1 + self.tricks[side]
        assert sum(self.tricks) == 12 and e.books == books
        number = int(self.contract[:-1])
        made = books >= 6 + number
        if made:
            points = books - 6 if self.p("made_score") == "books_over_six" else number
        else:
            points = -number
        if self.contract.endswith("n"):
            multiplier = self.p("nt_multiplier")
            assert isinstance(multiplier, int)
            points *= multiplier
        if made and books == 13 and self.p("boston") == "double":
            points *= 2
        assert (e.made, e.points) == (made, points)
        self.scores[side] += points
        target = self.rules.target_score
        if made and books == 13 and self.p("boston") == "wins_game" or self.scores[side] >= target:
            self.expected_winner = side
        elif self.scores[side] <= -target:
            self.expected_winner = 1 - side
        else:
            self.expected_winner = None

    def _on_DealScored(self, e: DealScored) -> None:
        assert list(e.scores) == self.scores
        if self.expected_winner is None:
            self.dealer = (self.dealer + 1) % 4

    def _on_GameOver(self, e: GameOver) -> None:
        assert e.winner == self.expected_winner
        self.dealer = (self.dealer + 1) % 4

    def _on_MatchOver(self, e: MatchOver) -> None:
        self.over = True

    def _on_TrumpFixed(self, e: TrumpFixed) -> None:
        assert e.trump is self.trump and e.turn_up is None
