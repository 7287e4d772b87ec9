"""Claims and concessions in the engine (engine.claims) and the AI's answers (engine.ai.strategies.claims)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, IllegalAction, Play, new_game
from engine.ai import get_player
from engine.ai.search.bitmasks import NO_TRUMP
from engine.ai.search.solver import solve_cards
from engine.ai.strategies.claims import certain_claim, claim_holds, decide
from engine.claims import (
    AcceptClaim,
    AgreeConcession,
    Claim,
    ClaimSettled,
    Concede,
    Conceded,
    RefuseConcession,
    RejectClaim,
    answering,
    claim_options,
    remaining_tricks,
)
from engine.events import DealScored, MatchOver, TrickWon

GAMES = (
    "ruff-honours-cotton",
    "whist-short-classic",
    "solo-whist",
    "bid-whist",
    "ruff-trump-willughby",
    "turnover-bridge",
)


def to_play(game_id: str, seed: int, left: int, overrides: dict[str, object] | None = None) -> Game:
    """A game played at random until ``left`` tricks remain, at the start of a trick,
    the player to lead free to claim (the next seeds are tried when a game ends
    first, e.g. a Solo deal all passed, or only a misère's defenders lead)."""
    for attempt in range(seed, seed + 50):
        game, _ = new_game(game_id, overrides=overrides, seed=attempt)
        rng = random.Random(attempt)
        deal = None
        while not game.is_over:
            if deal is None:
                deal = game.deal_no
            if game.deal_no != deal:
                break
            if (
                game.phase == "play"
                and not game.trick
                and remaining_tricks(game) <= left
                and claim_options(game, game.to_play)
            ):
                return game
            seat = game.to_act()
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    raise AssertionError("no seed reached the play")


def test_accepted_claim_scores_the_deal_as_claimed() -> None:
    game = to_play("whist-short-classic", 1, 5)
    claimer = game.to_act()
    assert claimer is not None
    side = game.side_of[claimer]
    before = list(game.tricks)
    deal = game.deal_no
    events = game.apply(claimer, Claim(3))
    assert game.phase == "claim" and game.to_act() != claimer
    answering_seats = answering(game)
    assert len(answering_seats) == 2 and all(game.side_of[s] != side for s in answering_seats)
    assert game.legal_actions(claimer) == []  # nobody plays while a claim waits
    events = game.apply(answering_seats[0], AcceptClaim())
    assert game.phase == "claim"  # the second opponent still has to answer
    events = game.apply(answering_seats[1], AcceptClaim())
    settled = next(e for e in events if isinstance(e, ClaimSettled))
    scored = next(e for e in events if isinstance(e, DealScored))
    want = list(before)
    want[side] += 3
    want[1 - side] += 2
    assert list(settled.tricks) == want and list(scored.tricks) == want
    assert settled.accepted and len(settled.unplayed) == 20  # 5 tricks of 4 cards, never played
    assert game.deal_no == deal + 1 or game.is_over


def test_rejected_claim_leaves_play_where_it_was() -> None:
    game = to_play("ruff-honours-cotton", 2, 6)
    seat = game.to_act()
    assert seat is not None
    legal = game.legal_actions(seat)
    hands, tricks, trick = list(game.hands), list(game.tricks), list(game.trick)
    game.apply(seat, Claim(6))
    first = answering(game)[0]
    game.apply(first, RejectClaim())
    assert game.phase == "play" and game.to_act() == seat
    assert game.legal_actions(seat) == legal
    assert (game.hands, game.tricks, game.trick) == (hands, tricks, trick)
    with pytest.raises(IllegalAction):
        game.apply(answering_seats_or(game, first), AcceptClaim())  # nothing to answer now


def answering_seats_or(game: Game, seat: int) -> int:
    return (seat + 2) % game.n_players


def test_impossible_claims_are_refused() -> None:
    game = to_play("whist-short-classic", 3, 4)
    seat = game.to_act()
    assert seat is not None
    key = game.state_key()
    with pytest.raises(IllegalAction, match="only 4 tricks"):
        game.apply(seat, Claim(5))
    with pytest.raises(IllegalAction, match="your turn"):
        game.apply((seat + 1) % 4, Claim(1))
    assert game.state_key() == key
    game.apply(seat, Claim(2))
    with pytest.raises(IllegalAction, match="already waiting"):
        game.apply(seat, Claim(1))
    with pytest.raises(IllegalAction, match="opponents"):
        game.apply((seat + 2) % 4, AcceptClaim())  # the claimer's partner has no say
    with pytest.raises(IllegalAction, match="claim"):
        game.apply(answering(game)[0], Concede())
    # outside the play (an auction) and, each for himself, only all the tricks
    auction, _ = new_game("bid-whist", seed=4)
    with pytest.raises(IllegalAction, match="during the play"):
        auction.apply(auction.to_act(), Claim(1))  # type: ignore[arg-type]
    three = to_play("ruff-trump-willughby", 5, 6, {"players": 3, "hand_size": 16})
    s3 = three.to_act()
    assert s3 is not None
    with pytest.raises(IllegalAction, match="all 6"):
        three.apply(s3, Claim(3))
    assert [a for a in three.observe(s3).claims if isinstance(a, Claim)] == [Claim(6)]


@pytest.mark.parametrize("game_id", GAMES)
def test_no_claim_is_offered_before_the_deals_first_trick_is_complete(game_id: str) -> None:
    for seed in range(40):
        game, _ = new_game(game_id, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and not (game.phase == "play" and game.trick_no == 1):
            seat = game.to_act()
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        if not game.is_over:
            break
    seat = game.to_play
    assert game.trick_no == 1 and not game.trick  # the deal's first lead: nothing known yet
    assert claim_options(game, seat) == []
    assert not any(isinstance(a, Claim) for a in game.observe(seat).claims)
    # a claim made anyway (games recorded before it was no longer offered hold one)
    # is still a claim: it is put to the opponents and replays from the record
    game.apply(seat, Claim(remaining_tricks(game)))
    assert game.phase == "claim"
    assert Game.from_record(game.to_record()).state_key() == game.state_key()


def _misere_in_play(seed: int) -> Game | None:
    """A Solo Whist deal played under a misère (bid whenever it may be), or None."""
    game, _ = new_game("solo-whist", seed=seed)
    rng = random.Random(seed)
    while not game.is_over and game.phase != "play":
        seat = game.to_act()
        assert seat is not None
        legal = game.legal_actions(seat)
        misere = [a for a in legal if a.encode() in ("bid:mis", "bid:spread")]
        game.apply(seat, misere[0] if misere else rng.choice(legal))
    contract = getattr(game.deal_state, "contract", "")
    return game if game.phase == "play" and contract in ("mis", "spread") else None


def test_under_a_misere_the_declarer_claims_none_and_the_defenders_nothing() -> None:
    def card(game: Game) -> Play:  # the declarer ducks, the defenders play high
        plays = [a for a in game.legal_actions(game.to_play) if isinstance(a, Play)]
        low = game.to_play == game.deal_state.declarer  # type: ignore[attr-defined]
        return (min if low else max)(plays, key=lambda a: int(a.card.rank))

    for seed in range(300):
        game = _misere_in_play(seed)
        if game is None:
            continue
        declarer = game.deal_state.declarer  # type: ignore[attr-defined]
        asked = False  # past the first trick: the declarer on his turn, then a defender on lead
        while not game.is_over and (not asked or game.trick or game.to_play == declarer):
            if game.trick_no > 1 and game.to_play == declarer:
                assert claim_options(game, declarer) == [Claim(0)]
                game.check(declarer, Claim(0))  # "no more tricks" may be made, where
                # everyone plays for himself and only "all of them" could before
                asked = True
            game.apply(game.to_play, card(game))
            if game.phase != "play":
                break
        if game.phase == "play" and asked:
            break
    else:
        raise AssertionError("no seed reached a defender's lead in a misère")
    seat = game.to_play
    assert seat != declarer
    assert claim_options(game, seat) == []
    assert not any(isinstance(a, Claim) for a in game.observe(seat).claims)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_claim_in_the_record_replays_to_the_same_state(game_id: str) -> None:
    game = to_play(game_id, 6, 4)
    seat = game.to_act()
    assert seat is not None
    game.apply(seat, [a for a in game.observe(seat).claims if isinstance(a, Claim)][0])
    assert Game.from_record(game.to_record()).state_key() == game.state_key()  # pending
    assert Game.from_snapshot(game.snapshot()).state_key() == game.state_key()
    while game.phase == "claim":
        game.apply(answering(game)[0], AcceptClaim())
    replayed = Game.from_record(game.to_record())
    assert replayed.state_key() == game.state_key()
    assert "claim:" in " ".join(a.encode() for _, a in game.log)


def test_concession_by_both_partners_ends_the_match() -> None:
    game, _ = new_game("whist-short-classic", seed=7)
    game.apply(1, Concede())
    assert game.phase == "concede" and game.to_act() == 3
    game.apply(3, RefuseConcession())
    assert not game.is_over and game.phase != "concede"
    game.apply(3, Concede())
    events = game.apply(1, AgreeConcession())
    conceded = next(e for e in events if isinstance(e, Conceded))
    assert conceded.side == 1 and conceded.winner == 0
    assert game.is_over and game.match_winner == 0
    assert any(isinstance(e, MatchOver) and e.winner == 0 for e in events)
    # two players: a player concedes alone; each for himself at four: nobody may
    two, _ = new_game("turnover-bridge", seed=8)
    two.apply(0, Concede())
    assert two.is_over and two.match_winner == 1
    solo, _ = new_game("solo-whist", seed=9)
    with pytest.raises(IllegalAction, match="each for himself"):
        solo.apply(0, Concede())


def _true_value(game: Game) -> int:
    """Double-dummy tricks of the side on lead, in the actual deal (independent solver)."""
    trump = game.trump.order if game.trump is not None else NO_TRUMP
    values = solve_cards(list(game.hands), game.leader, [], trump)
    return max(values.values())


def test_ai_answers_exactly_and_claims_only_when_certain() -> None:
    accepted = rejected = claimed = 0
    for seed in range(40):
        game = to_play("whist-short-classic", seed, 3)
        seat = game.to_act()
        assert seat is not None
        value = _true_value(game)
        claim = certain_claim(game.observe(seat))
        if claim is not None:
            claimed += 1
            assert value == 3, "the AI claimed tricks a defence could take"
        for n in (1, 2, 3):
            trial = game.clone()
            trial.apply(seat, Claim(n))
            for opponent in answering(trial):
                holds = claim_holds(trial.observe(opponent))
                if holds:
                    accepted += 1
                    assert value >= n, f"seed {seed}: accepted a claim of {n} the defence beats"
                if value < n:
                    rejected += 1
                    assert holds is not True
    assert accepted and rejected and claimed


def test_ai_accepts_top_cards_even_when_the_deals_are_many() -> None:
    game = to_play("whist-short-classic", 0, 4)
    seat = game.to_act()
    assert seat is not None
    claim = certain_claim(game.observe(seat))
    assert claim == Claim(4)
    game.apply(seat, claim)
    assert all(claim_holds(game.observe(s)) for s in answering(game))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_id=st.sampled_from(GAMES), seed=st.integers(0, 10_000))
def test_random_games_with_claims_conserve_cards_and_end(game_id: str, seed: int) -> None:
    game, _ = new_game(game_id, seed=seed)
    rng = random.Random(seed)
    deal_cards: list[str] = []
    claimed = False  # an accepted claim ended this deal (every card is then accounted for)
    for _ in range(3000):
        if game.is_over:
            break
        seat = game.to_act()
        assert seat is not None
        view = game.observe(seat)
        extra = [a for a in view.claims if isinstance(a, Claim)]
        if game.phase == "claim":
            action = AcceptClaim() if rng.random() < 0.5 else RejectClaim()
        elif game.phase == "concede":
            action = RefuseConcession()
        elif extra and rng.random() < 0.05:
            action = rng.choice(extra)
        elif Concede() in view.claims and rng.random() < 0.002:
            action = Concede()
        else:
            action = rng.choice(game.legal_actions(seat))
        for event in game.apply(seat, action):
            if isinstance(event, TrickWon):
                deal_cards.extend(c.code for c in event.cards)
            elif isinstance(event, ClaimSettled) and event.accepted:
                deal_cards.extend(c.code for c in event.unplayed)
                claimed = True
            if isinstance(event, DealScored):
                assert len(deal_cards) == len(set(deal_cards)), "a card counted twice in a deal"
                if deal_cards and (game.layout is None or claimed) and game_id != "solo-whist":
                    assert len(deal_cards) == game.n_players * game.facts.tricks_per_deal
                deal_cards = []
                claimed = False
    assert game.is_over or game.deal_no >= 1


def test_ai_does_not_repeat_a_rejected_claim_from_the_same_position() -> None:
    # A human whose turn timer answers "reject" (or who rejects on purpose) must not
    # be asked again and again: the AI plays a card, then may claim afresh.
    game = to_play("whist-short-classic", 0, 4)
    seat = game.to_act()
    assert seat is not None
    assert decide(game.observe(seat), game.legal_actions(seat)) == Claim(4)
    game.apply(seat, Claim(4))
    game.apply(answering(game)[0], RejectClaim())
    assert game.phase == "play" and game.to_act() == seat
    assert decide(game.observe(seat), game.legal_actions(seat)) is None  # it plays a card instead
    assert Claim(4) in game.observe(seat).claims  # the claimer himself may still claim
    easy, rng = get_player("easy"), random.Random(0)
    while True:  # the trick is played out; the claimer (top cards) leads again
        to_act = game.to_act()
        assert to_act is not None
        game.apply(to_act, easy.choose(game.observe(to_act), game.legal_actions(to_act), rng))
        if not game.trick:
            break
    assert game.to_act() == seat
    assert decide(game.observe(seat), game.legal_actions(seat)) == Claim(3)
