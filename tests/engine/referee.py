"""An independent referee for property tests.

It follows a game through its events alone and recomputes, from RULES.md and
without using the engine's own scoring code, who must play next, who wins each
trick, the honours each side holds, what every deal must score, when a Can-ye
claim is valid and when a game and the match must end. Any disagreement with the
engine's events is an assertion error.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Card, Rules, Suit
from engine.cards import Rank
from engine.events import (
    CanYeCalled,
    CardPlayed,
    DealerChosen,
    DealScored,
    DealStarted,
    Discarded,
    DiscardsDone,
    Event,
    GameOver,
    GameStarted,
    HandDealt,
    HonoursScored,
    HonoursShown,
    LayoutCardPlayed,
    MatchOver,
    Passed,
    Revoked,
    RuffDeclined,
    RuffTaken,
    StockTaken,
    TrickWon,
    TrumpFixed,
)
from engine.families.turnover import LayoutDealt
from engine.phases.contest import RuffClaimed, RuffContest, RuffShown

HONOUR_RANKS = {Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK}


def winner_of(plays: list[tuple[int, Card]], trump: Suit | None) -> int:
    """The seat that wins a trick, straight from RULES.md §0.1."""
    led = plays[0][1].suit
    trumps = [(c.rank, s) for s, c in plays if trump is not None and c.suit is trump]
    if trumps:
        return max(trumps)[1]
    return max((c.rank, s) for s, c in plays if c.suit is led)[1]


@dataclass
class Referee:
    rules: Rules
    start_scores: tuple[int, ...] | None = None
    scores: list[int] = field(default_factory=list)
    games_won: list[int] = field(default_factory=list)
    game_no: int = 0
    deal_no: int = 0
    dealer: int = -1
    trump: Suit | None = None
    dealt: dict[int, set[Card]] = field(default_factory=dict)
    held: dict[int, set[Card]] = field(default_factory=dict)  # after the ruff
    hands: dict[int, set[Card]] = field(default_factory=dict)  # now
    ruffer: int | None = None
    deal_start: list[int] = field(default_factory=list)
    plays: list[tuple[int, Card]] = field(default_factory=list)
    leader: int = -1
    trick_no: int = 0
    tricks: list[int] = field(default_factory=list)
    captured: list[int] = field(default_factory=list)
    revoked: set[int] = field(default_factory=set)
    expected: list[Event] = field(default_factory=list)  # scoring events still due
    game_values: list[int] = field(default_factory=list)
    deals_total: int = 0
    turn_up: Card | None = None
    pending_revoke: int | None = None
    over: bool = False
    deals_scored: int = 0

    # Ruffe and Trump (RULES.md §4): the ruff contest, claims and showings
    claims: list[tuple[int, int]] = field(default_factory=list)
    ruff_points: list[int] = field(default_factory=list)
    shown_ruffs: list[RuffShown] = field(default_factory=list)

    @property
    def n(self) -> int:
        return self.rules.players

    # Turnover Bridge (RULES.md §8): face-up layout cards join the available cards
    fresh: set[Card] = field(default_factory=set)  # turned up this trick: not yet playable

    @property
    def turnover(self) -> bool:
        return self.rules.family == "turnover"

    @property
    def willughby(self) -> bool:
        return self.rules.family == "ruffe_trump"

    def side(self, seat: int) -> int:
        return seat % 2 if self.rules.partnerships else seat

    def honours(self, cards: set[Card]) -> set[Card]:
        return {c for c in cards if c.suit is self.trump and c.rank in HONOUR_RANKS}

    # ------------------------------------------------------------------ feed

    def feed(self, events: list[Event]) -> None:
        for event in events:
            if self.expected:
                want = self.expected.pop(0)
                assert event == want, f"expected {want!r}, engine said {event!r}"
                self._after_expected(event)
                continue
            handler = getattr(self, "_on_" + type(event).__name__)
            handler(event)

    def _after_expected(self, event: Event) -> None:
        if isinstance(event, GameOver):
            self.games_won[event.winner] += 1
        if isinstance(event, MatchOver):
            self.over = True

    # ------------------------------------------------------------------ setup

    def _on_DealerChosen(self, e: DealerChosen) -> None:
        assert 0 <= e.dealer < self.n
        self.dealer = e.dealer
        self.games_won = [0] * self.rules.sides
        self.game_values = [0] * self.rules.sides

    def _on_GameStarted(self, e: GameStarted) -> None:
        assert e.game_no == self.game_no + 1
        self.game_no = e.game_no
        self.deal_no = 0
        if e.game_no == 1 and self.start_scores is not None:
            self.scores = list(self.start_scores)
        else:
            self.scores = [0] * self.rules.sides

    def _on_DealStarted(self, e: DealStarted) -> None:
        assert not self.over
        assert (e.game_no, e.deal_no) == (self.game_no, self.deal_no + 1)
        self.deal_no = e.deal_no
        self.deals_total += 1
        if e.game_no == 1 and e.deal_no == 1:
            assert e.dealer == self.dealer
        else:  # the deal passes to the left, also into a new game of a match
            assert e.dealer == (self.dealer + 1) % self.n
        self.dealer = e.dealer
        assert e.eldest == (e.dealer + 1) % self.n
        self.deal_start = list(self.scores)
        self.dealt, self.held, self.hands = {}, {}, {}
        self.ruffer = None
        self.plays = []
        self.leader = e.eldest
        self.trick_no = 1
        self.tricks = [0] * self.rules.sides
        self.captured = [0] * self.rules.sides
        self.revoked = set()
        self.claims = []
        self.ruff_points = [0] * self.rules.sides
        self.shown_ruffs = []

    def _on_HandDealt(self, e: HandDealt) -> None:
        assert e.audience == e.seat
        cards = set(e.cards)
        assert len(cards) == len(e.cards) == self.rules.hand_size
        assert list(e.cards) == sorted(e.cards, key=lambda c: c.index)
        for other in self.dealt.values():
            assert not cards & other
        self.dealt[e.seat] = set(cards)
        self.held[e.seat] = set(cards)
        self.hands[e.seat] = set(cards)

    def _on_TrumpFixed(self, e: TrumpFixed) -> None:
        assert len(self.dealt) == self.n
        rules = self.rules
        if self.turnover:
            if rules.trump_mode == "turn_up":
                assert e.holder == self.dealer and e.turn_up in self.dealt[self.dealer]
                assert e.trump is e.turn_up.suit
            else:
                assert e.turn_up is None and e.holder is None
                assert e.trump is (Suit.SPADES if rules.trump_mode == "spades" else None)
        elif rules.trump_mode == "cycle":
            assert e.turn_up is None and e.holder is None
            k = self.deal_no if rules.trump_cycle_basis == "per_game" else self.deals_total
            assert e.trump is rules.trump_cycle[(k - 1) % len(rules.trump_cycle)]
        else:
            assert e.turn_up is not None and e.trump is e.turn_up.suit
            if rules.turn_up_source == "stock_top":
                assert e.holder is None
                assert all(e.turn_up not in h for h in self.dealt.values())
            else:
                want = (
                    self.dealer
                    if rules.turn_up_source == "dealer_last"
                    else (self.dealer + 1) % self.n
                )
                assert e.holder == want and e.turn_up in self.dealt[want]
        self.trump = e.trump
        self.turn_up = e.turn_up

    # ------------------------------------------------------------------ ruff

    def _on_RuffTaken(self, e: RuffTaken) -> None:
        assert (self.rules.ruff or self.willughby) and self.trump is not None
        ace = Card.of(Rank.ACE, self.trump)
        holder = [s for s, h in self.dealt.items() if ace in h]
        if holder:
            assert (e.seat, e.reason) == (holder[0], "holds_ace")
        elif self.turn_up is ace:
            assert (e.seat, e.reason) == (self.dealer, "turned_ace")
        else:
            assert (e.seat, e.reason) == (self.dealer, "ace_in_stock")
            assert self.rules.ruff_if_ace_in_stock == "dealer"
        self.ruffer = e.seat

    def _on_StockTaken(self, e: StockTaken) -> None:
        assert e.seat == self.ruffer == e.audience
        assert len(e.cards) == 4 and self.turn_up in e.cards
        for other in self.dealt.values():
            assert not set(e.cards) & other
        self.held[e.seat] |= set(e.cards)
        self.hands[e.seat] |= set(e.cards)

    def _on_RuffDeclined(self, e: RuffDeclined) -> None:
        assert not self.rules.ruff_mandatory
        self.ruffer = e.seat

    def _on_Discarded(self, e: Discarded) -> None:
        assert e.seat == self.ruffer == e.audience and e.card in self.hands[e.seat]
        self.held[e.seat].discard(e.card)
        self.hands[e.seat].discard(e.card)
        assert e.remaining == len(self.hands[e.seat]) - self.rules.hand_size

    def _on_DiscardsDone(self, e: DiscardsDone) -> None:
        assert e.seat == self.ruffer and len(self.hands[e.seat]) == self.rules.hand_size
        if self.rules.first_leader == "ruffer":
            self.leader = e.seat  # the ruffer leads (declining leaves it to eldest)

    # ------------------------------------------------------------------ Can-ye

    def _can_call(self, seat: int) -> bool:
        rules = self.rules
        start = self.deal_start[self.side(seat)]
        if rules.call_point == "any":
            return True
        return rules.call_point == start

    def _on_Passed(self, e: Passed) -> None:
        assert self._can_call(e.seat) and len(self.honours(self.held[e.seat])) >= 2

    def _on_CanYeCalled(self, e: CanYeCalled) -> None:
        assert self._can_call(e.seat) and e.partner == (e.seat + 2) % 4
        own = self.honours(self.held[e.seat])
        partner = self.honours(self.held[e.partner])
        assert len(own) == 2
        assert e.answered == bool(partner)
        if e.answered:
            assert set(e.shown) == own | partner
            self._claim_wins(self.side(e.seat), "can_ye")
        else:
            assert e.shown == ()

    def _on_HonoursShown(self, e: HonoursShown) -> None:
        assert self._can_call(e.seat)
        assert set(e.cards) == self.honours(self.held[e.seat]) and len(e.cards) >= 3
        self._claim_wins(self.side(e.seat), "show")

    def _claim_wins(self, side: int, how: str) -> None:
        self.scores[side] = self.rules.target_score
        self._expect_game_over(side, how)

    # ------------------------------------------------------------------ play

    def _on_CardPlayed(self, e: CardPlayed) -> None:
        assert e.trick_no == self.trick_no
        seat = (self.leader + len(self.plays)) % self.n
        assert e.seat == seat, "one card per seat per trick, clockwise from the leader"
        assert e.card in self.hands[seat] and e.card not in self.fresh
        available = self.hands[seat] - self.fresh
        revoking = False
        if self.plays:
            led = self.plays[0][1].suit
            revoking = e.card.suit is not led and any(c.suit is led for c in available)
        if self.rules.revoke_mode == "prevent":
            assert not revoking, "a revoke was accepted"
        assert revoking == (self.pending_revoke == seat), "Revoked exactly for a revoke"
        if revoking:
            self.revoked.add(self.side(seat))
        self.pending_revoke = None
        self.hands[seat].discard(e.card)
        self.plays.append((seat, e.card))

    def _on_Revoked(self, e: Revoked) -> None:
        # announced just before the offending CardPlayed, which checks it
        assert self.rules.revoke_mode == "penalty" and e.trick_no == self.trick_no
        self.pending_revoke = e.seat

    def _on_TrickWon(self, e: TrickWon) -> None:
        assert len(self.plays) == self.n
        assert e.trick_no == self.trick_no and e.leader == self.leader
        assert e.cards == tuple(c for _, c in self.plays)
        winner = winner_of(self.plays, self.trump)
        assert e.winner == winner and e.side == self.side(winner)
        self.tricks[e.side] += 1
        assert e.tricks == tuple(self.tricks) and sum(self.tricks) == e.trick_no
        self.captured[e.side] += len(self.honours({c for _, c in self.plays}))
        self.plays = []
        self.fresh = set()
        self.leader = winner
        majority = (
            self.rules.stop_at_majority and max(self.tricks) > self.rules.tricks_per_deal // 2
        )
        if e.trick_no == self.rules.tricks_per_deal or majority:
            if not majority:
                assert all(not h for h in self.hands.values())
            self._expect_deal_score()
        else:
            self.trick_no += 1

    # ------------------------------------------------------------------ scoring

    def honour_counts(self) -> list[int]:
        counts = [0] * self.rules.sides
        basis = self.rules.honours_basis
        if basis == "captured":
            return list(self.captured)
        source = self.dealt if basis == "dealt" else self.held
        for seat, cards in source.items():
            counts[self.side(seat)] += len(self.honours(cards))
        return counts

    def _expect_deal_score(self) -> None:
        rules = self.rules
        if self.willughby:
            self._expect_willughby_score()
            return
        if self.turnover:
            self._expect_turnover_score()
            return
        sides, target = rules.sides, rules.target_score
        assert sum(self.tricks) == rules.tricks_per_deal
        penalty = [0] * sides
        for side in self.revoked:
            penalty[side] = -1 if self.scores[side] > 0 else 0
        scores = [s + p for s, p in zip(self.scores, penalty, strict=True)]
        trick_points = [t - 6 if t > 6 else 0 for t in self.tricks]
        scores = [s + t for s, t in zip(scores, trick_points, strict=True)]
        honour_points = [0] * sides
        simultaneous = rules.score_order == "simultaneous"

        def finish(how: str) -> None:
            self.scores = scores
            self.expected.append(
                DealScored(
                    self.game_no,
                    self.deal_no,
                    tuple(self.tricks),
                    tuple(trick_points),
                    tuple(honour_points),
                    tuple(penalty),
                    tuple(scores),
                )
            )
            self.deals_scored += 1
            reached = [s for s in range(sides) if scores[s] >= target]
            if reached:
                best = max(scores[s] for s in reached)
                top = [s for s in reached if scores[s] == best]
                with_tricks = [s for s in top if trick_points[s]]
                self._expect_game_over((with_tricks or top)[0], how)

        if not simultaneous and max(scores) >= target:
            finish("tricks")
            return
        if rules.honours:
            counts = self.honour_counts()
            assert sum(counts) <= 4
            notes = []
            for side in range(sides):
                raw = dict(rules.honours_values).get(counts[side], 0)
                if not raw:
                    continue
                start = self.deal_start[side]
                if rules.uncalled_honours_at_call_point == "void" and rules.call_point == start:
                    notes.append("not called at the call point: void")
                    continue
                if rules.honours_can_win == "not_at_target_minus_1" and start == target - 1:
                    notes.append(f"a side at {target - 1} cannot score honours")
                    continue
                points = raw
                if rules.honours_can_win == "false":
                    points = max(0, min(raw, target - 1 - scores[side]))
                    if points < raw:
                        notes.append("honours cannot win the game: capped")
                honour_points[side] = points
                scores[side] += points
            if not any(honour_points) and not notes:
                if self.trump is None:
                    notes.append("no trumps, no honours")
                elif counts == [2, 2]:
                    notes.append("honours split")
                elif max(counts) < 3:
                    out = 4 - sum(counts)
                    notes.append(f"{out} honour{'s' * (out > 1)} out of play: no side holds three")
            self.expected.append(
                HonoursScored(tuple(counts), tuple(honour_points), "; ".join(notes))
            )
        how = ("tricks" if any(trick_points) else "honours") if simultaneous else "honours"
        finish(how)

    def _expect_game_over(self, side: int, how: str) -> None:
        rules = self.rules
        won = list(self.games_won)
        won[side] += 1
        self.expected.append(GameOver(self.game_no, side, tuple(self.scores), how, tuple(won)))
        # classic Short Whist game values: treble if the losers have not scored,
        # double if they have fewer than three, else single
        loser = max(s for i, s in enumerate(self.scores) if i != side)
        self.game_values[side] += 3 if loser == 0 else 2 if loser < 3 else 1
        if won[side] >= (1 if rules.match_format == "single" else 2):
            if rules.game_id == "whist-short-classic":
                net = (
                    self.game_values[side]
                    + 2
                    - sum(v for i, v in enumerate(self.game_values) if i != side)
                )
                rubber = tuple(net if i == side else -net for i in range(rules.sides))
            else:
                rubber = tuple(won)
            self.expected.append(MatchOver(side, tuple(won), rubber))

    def eligible_callers(self) -> list[int]:
        """Seats entitled to call Can-ye or show this deal, in order from eldest."""
        eldest = (self.dealer + 1) % self.n
        order = [(eldest + k) % self.n for k in range(self.n)]
        return [
            s
            for s in order
            if self.rules.honours
            and self.rules.call_point != "none"
            and self._can_call(s)
            and len(self.honours(self.held[s])) >= 2
        ]

    # ------------------------------------------------------------------ Ruffe and Trump

    def _ruff(self, seat: int) -> tuple[int, Suit]:
        """A dealt hand's best suit (RULES.md §4.3), with the turn-up counted in trumps."""
        best: tuple[int, Suit] | None = None
        for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS):
            cards = [c for c in self.dealt[seat] if c.suit is suit]
            if suit is self.trump and self.turn_up is not None:
                cards.append(self.turn_up)
            if self.rules.ruff_measure == "card_count":
                value = len(cards)
            else:
                value = sum(11 if c.rank == Rank.ACE else min(int(c.rank), 10) for c in cards)
            if best is None or value > best[0]:
                best = (value, suit)
        assert best is not None
        return best

    def _contest(self, values: dict[int, int], bonus: int) -> tuple[list[tuple[int, int]], str]:
        order = [(self.dealer + 1 + k) % self.n for k in range(self.n)]
        live = [s for s in order if s in values]
        if not live:
            return [], "nobody left to win the ruff"
        top = max(values.values())
        tied = [s for s in live if values[s] == top]
        if len({self.side(s) for s in tied}) == 1:
            return [(tied[0], bonus)], ""
        tie = self.rules.ruff_tie
        if tie == "eldest_priority":
            return [(tied[0], bonus)], "tie: the first from eldest wins"
        if tie == "no_award":
            return [], "tie: no award"
        return [(s, bonus // len(tied)) for s in tied], "tie: split"

    def _on_RuffClaimed(self, e: RuffClaimed) -> None:
        assert self.willughby and self.rules.ruff_announce == "declared"
        assert e.seat == (self.dealer + 1 + len(self.claims)) % self.n
        self.claims.append((e.seat, e.value))

    def _on_RuffShown(self, e: RuffShown) -> None:
        value, suit = self._ruff(e.seat)
        assert (e.value, e.suit) == (value, suit)
        assert set(e.cards) == {c for c in self.dealt[e.seat] if c.suit is suit}
        assert e.claim == dict(self.claims)[e.seat] and e.honest == (e.claim <= value)
        self.shown_ruffs.append(e)

    def _on_RuffContest(self, e: RuffContest) -> None:
        rules = self.rules
        assert self.willughby and not self.plays and self.trick_no == 1
        if rules.ruff_announce == "automatic":
            values = {s: self._ruff(s)[0] for s in range(self.n)}
            awards, note = self._contest(values, rules.ruff_bonus)
        else:
            assert len(self.claims) == self.n
            values = dict(self.claims)
            awards, note = self._contest(values, rules.ruff_bonus)
            assert [r.seat for r in self.shown_ruffs] == [s for s, _ in awards]
            false = {r.seat for r in self.shown_ruffs if not r.honest}
            if false:
                lost = sum(p for s, p in awards if s in false)
                honest = {s: self._ruff(s)[0] for s in range(self.n) if s not in false}
                passed, _ = self._contest(honest, lost)
                awards = [(s, p) for s, p in awards if s not in false] + passed
                note = "false claim: the points pass to the true winner"
        points = [0] * rules.sides
        for seat, pts in awards:
            points[self.side(seat)] += pts
        self.scores = [s + p for s, p in zip(self.scores, points, strict=True)]
        self.ruff_points = points
        want = RuffContest(
            tuple(values[s] for s in range(self.n)),
            tuple(s for s, _ in awards),
            tuple(points),
            tuple(self.scores),
            note,
        )
        assert e == want, f"expected {want!r}, engine said {e!r}"
        if rules.win_check == "immediate":
            winner = self._unique_top()
            if winner is not None:
                zeros = (0,) * rules.sides
                self.expected.append(
                    DealScored(
                        self.game_no,
                        self.deal_no,
                        zeros,
                        zeros,
                        tuple(points),
                        zeros,
                        tuple(self.scores),
                    )
                )
                self._expect_game_over(winner, "ruff")

    def _unique_top(self) -> int | None:
        target = self.rules.target_score
        reached = [s for s in range(self.rules.sides) if self.scores[s] >= target]
        if not reached:
            return None
        best = max(self.scores[s] for s in reached)
        top = [s for s in reached if self.scores[s] == best]
        return top[0] if len(top) == 1 else None

    def _expect_willughby_score(self) -> None:
        rules = self.rules
        cards_played = self.n * rules.hand_size
        par = cards_played // rules.sides
        card_points = [max(0, t * self.n - par) for t in self.tricks]
        self.scores = [s + p for s, p in zip(self.scores, card_points, strict=True)]
        zeros = (0,) * rules.sides
        self.expected.append(
            DealScored(
                self.game_no,
                self.deal_no,
                tuple(self.tricks),
                tuple(card_points),
                tuple(self.ruff_points),
                zeros,
                tuple(self.scores),
            )
        )
        self.deals_scored += 1
        winner = self._unique_top()
        if winner is not None:
            self._expect_game_over(winner, "cards" if card_points[winner] else "ruff")

    # ------------------------------------------------------------------ Turnover Bridge

    def _on_LayoutDealt(self, e: LayoutDealt) -> None:
        assert self.turnover and e.seat in self.dealt
        piles = 9 if self.rules.layout == "seed004" else 12
        assert len(e.up) == len(e.down) == piles and set(e.down) == {1}
        for other in self.dealt.values():
            assert not set(e.up) & other
        self.hands[e.seat] |= set(e.up)  # the face-up cards are available from the first trick
        self.layout_down = getattr(self, "layout_down", {})
        self.layout_down[e.seat] = piles

    def _on_LayoutCardPlayed(self, e: LayoutCardPlayed) -> None:
        assert self.plays and self.plays[-1] == (e.seat, e.card)
        assert e.card not in self.dealt[e.seat], "a layout card is no hand card"
        if e.turned_up is not None:
            self.layout_down[e.seat] -= 1
            assert self.layout_down[e.seat] >= 0
            assert all(e.turned_up not in h for h in self.hands.values())
            self.hands[e.seat].add(e.turned_up)
            self.fresh.add(e.turned_up)

    def _expect_turnover_score(self) -> None:
        rules = self.rules
        half = rules.tricks_per_deal // 2
        if rules.scoring == "odd_tricks":
            points = [max(0, t - half) for t in self.tricks]
        else:
            points = [1 if t > half else 0 for t in self.tricks]
        self.scores = [s + p for s, p in zip(self.scores, points, strict=True)]
        self.expected.append(
            DealScored(
                self.game_no,
                self.deal_no,
                tuple(self.tricks),
                tuple(points),
                (0, 0),
                (0, 0),
                tuple(self.scores),
            )
        )
        self.deals_scored += 1
        if max(self.scores) >= rules.target_score:
            self._expect_game_over(max((0, 1), key=lambda s: self.scores[s]), "tricks")
