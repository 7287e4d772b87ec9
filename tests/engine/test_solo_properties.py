"""Property tests for solo-whist over random legal games (hypothesis).

Every game ends; every card is in a hand, the trick or a completed trick; the
settlement is recomputed here from the tricks and RULES.md §6.5 (zero-sum where
the settlement says so); no view holds another seat's hidden cards, except the
Spread Misère hand, which every view holds exactly when RULES.md says; records,
snapshots and clones reproduce the state; refused calls change nothing.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Card, Game, IllegalAction, SeatView, make_rules, new_game
from engine.cards import cards_from_mask
from engine.families.solo import ContractSettled
from engine.phases.solo_auction import CONTRACTS, SoloContractWon, solo_bid
from engine.phases.solo_declare import name_trump

from .helpers import ENGINE_SETTINGS
from .test_properties import _cards_in, check_replays

CONFIGS: list[dict[str, object]] = [
    {},
    {"accept_rule": "next_only", "deal_pattern": "singles"},
    {"all_pass": "general_misere", "settlement": "declarer_only"},
    {
        "spread_exposure": "after_first_trick",
        "early_termination": False,
        "overtricks": "per_trick_1",
    },
    {"point_table": "pagat", "slam_trump": "none", "target_score": 15},
]
SEED = (1, 2, 3, 4, 4, 6, 8)
PAGAT = (1, 1, 2, 3, 3, 4, 6)
TARGET = {"prop": 8, "solo": 5, "mis": 0, "abund": 9, "royal": 9, "spread": 0, "slam": 13}


def expected_points(game: Game, won: SoloContractWon, tricks_by_seat: list[int]) -> tuple[int, ...]:
    """RULES.md §6.5, from the tricks each seat took (independent of the engine's scorer)."""
    rules = game.rules
    table = PAGAT if rules.point_table == "pagat" else SEED
    zero_sum = rules.settlement == "zero_sum"
    if won.contract == "general":
        latest: dict[int, int] = {}
        for i, (_, _, w) in enumerate(game.completed):
            latest[w] = i
        loser = max(range(4), key=lambda s: (tricks_by_seat[s], latest.get(s, -1)))
        v = table[2]
        return tuple(
            (-3 * v if zero_sum else -v) if s == loser else (v if zero_sum else 0) for s in range(4)
        )
    declaring = {won.declarer} | ({won.partner} if won.partner is not None else set())
    t = sum(tricks_by_seat[s] for s in declaring)
    target = TARGET[won.contract]
    v = table[CONTRACTS.index(won.contract)]
    if won.contract in ("mis", "spread"):
        made = t == 0
    elif won.contract == "slam":
        made = t == 13
    else:
        made = t >= target
        if rules.overtricks == "per_trick_1":
            v += (t - target) if made else (target - t)
    sign = 1 if made else -1
    out = []
    for s in range(4):
        if s in declaring:
            out.append(sign * (v * (4 - len(declaring)) // len(declaring) if zero_sum else v))
        else:
            out.append(-sign * v if zero_sum else 0)
    return tuple(out)


def check_cards(game: Game) -> None:
    parts: list[Card] = []
    for mask in game.hands:
        parts.extend(cards_from_mask(mask))
    parts += game.trick
    for _, cs, _ in game.completed:
        parts += cs
    assert len(parts) == len(set(parts)) == 52


def check_views(game: Game) -> None:
    state = game.deal_state
    spread = getattr(state, "contract", "") == "spread" and getattr(state, "stage", "") == "play"
    shown_now = spread and (
        game.rules.spread_exposure == "before_first_lead" or bool(game.completed)
    )
    declarer = getattr(state, "declarer", -1)
    for seat in range(4):
        view = game.observe(seat)
        assert isinstance(view, SeatView)
        assert set(view.hand) == set(game.hand(seat))
        assert view.legal == tuple(game.legal_actions(seat))
        hidden: set[Card] = set()
        for other in range(4):
            if other != seat:
                hidden |= set(game.hand(other))
        if game.turn_up is not None and view.turn_up is not None:
            hidden.discard(game.turn_up)
        if shown_now:
            assert view.exposed == ((declarer, tuple(game.hand(declarer))),)
            hidden -= set(game.hand(declarer))
        else:
            assert view.exposed == ()
        for name in SeatView.__dataclass_fields__:
            if name == "previous_trick":  # the deal before's cards, played face up then
                continue
            leaked = set(_cards_in(getattr(view, name))) & hidden
            assert not leaked, f"seat {seat} sees {leaked} in SeatView.{name}"


def try_refused(game: Game, seat: int, rng: random.Random) -> None:
    before = game.state_key()
    legal = game.legal_actions(seat)
    attempts = [(s, solo_bid(c)) for s in range(4) for c in ("pass", "accept", *CONTRACTS)]
    attempts += [(s, name_trump(x)) for s in range(4) for x in "SHDC"]
    for who, action in rng.sample(attempts, 8):
        if who == seat and action in legal:
            continue
        assert action not in game.legal_actions(who)
        with pytest.raises(IllegalAction):
            game.apply(who, action)
    assert game.state_key() == before


def play_game(
    overrides: dict[str, object], seed: int, first_dealer: int | None, policy_seed: int
) -> None:
    rules = make_rules("solo-whist", None, overrides)
    rng = random.Random(policy_seed)
    game, _ = new_game(rules=rules, seed=seed, first_dealer=first_dealer)
    won: SoloContractWon | None = None
    steps = 0
    deal_scores = list(game.scores)
    while not game.is_over:
        steps += 1
        assert steps < 3000, "a game should end"
        seat = game.to_act()
        assert seat is not None
        legal = game.legal_actions(seat)
        assert legal and all(game.legal_actions(o) == [] for o in range(4) if o != seat)
        if game.phase != "play" or steps % 13 == 0:
            try_refused(game, seat, rng)
            check_views(game)
        # bias towards calls, so contracts of every kind are reached
        calls = [a for a in legal if getattr(a, "call", "pass") != "pass"]
        action = rng.choice(calls) if calls and rng.random() < 0.4 else rng.choice(legal)
        tricks_before = [0] * 4
        for _, _, w in game.completed:
            tricks_before[w] += 1
        completed_before = list(game.completed)
        events = game.apply(seat, action)
        for event in events:
            if isinstance(event, SoloContractWon):
                won = event
            if isinstance(event, ContractSettled):
                assert won is not None
                done = completed_before + [
                    (e.leader, e.cards, e.winner) for e in events if e.kind == "trick_won"
                ]
                tricks = [0] * 4
                for _, _, w in done:
                    tricks[w] += 1
                probe = game.clone()
                probe.completed = done
                assert event.points == expected_points(probe, won, tricks), (won, tricks)
                if rules.settlement == "zero_sum":
                    assert sum(event.points) == 0
                deal_scores = [a + b for a, b in zip(deal_scores, event.points, strict=True)]
                assert game.scores == deal_scores
        check_cards(game)
        if steps % 41 == 0:
            check_replays(game)
    assert game.match_winner is not None and game.scores[game.match_winner] == max(game.scores)
    if rules.target_score:
        assert max(game.scores) >= rules.target_score
    if rules.settlement == "zero_sum":
        assert sum(game.scores) == 0
    check_replays(game)
    check_views(game)


@pytest.mark.parametrize(
    "overrides",
    CONFIGS,
    ids=[",".join(f"{k}={v}" for k, v in c.items()) or "defaults" for c in CONFIGS],
)
@settings(ENGINE_SETTINGS, max_examples=8)
@given(
    seed=st.integers(0, 2**32 - 1),
    first_dealer=st.none() | st.integers(0, 3),
    policy_seed=st.integers(0, 2**32 - 1),
)
def test_random_solo_games(
    overrides: dict[str, object], seed: int, first_dealer: int | None, policy_seed: int
) -> None:
    play_game(overrides, seed, first_dealer, policy_seed)


def test_every_contract_is_reached_by_random_play() -> None:
    seen: set[str] = set()
    for k in range(200):
        game, _ = new_game("solo-whist", None, {"all_pass": "general_misere"}, seed=k)
        rng = random.Random(k)
        while game.phase == "auction":
            seat = game.to_act()
            assert seat is not None
            legal = game.legal_actions(seat)
            # mostly pass, so low contracts stand as often as high ones
            action = legal[0] if rng.random() < 0.75 else rng.choice(legal)
            events = game.apply(seat, action)
            seen |= {e.contract for e in events if isinstance(e, SoloContractWon)}  # type: ignore[attr-defined]
    assert seen == {*CONTRACTS, "general"}
