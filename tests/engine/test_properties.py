"""Property tests over random legal playouts of every game id and preset.

Each example plays a whole match with random legal actions and checks, at every
step: every card accounted for exactly once; the referee's independent account
of turn order, trick winners, honours and scores (tests/engine/referee.py); that
illegal cards and out-of-turn actions are refused without changing the state;
that scores change only at a deal's end or a Can-ye claim; that each seat's view
holds nothing hidden from it; and that records, snapshots and clones reproduce
the state exactly.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Action,
    CallCanYe,
    Card,
    Game,
    IllegalAction,
    Pass,
    Play,
    Rules,
    SeatView,
    ShowHonours,
    game_ids,
    make_rules,
    new_game,
    play,
    presets_for,
)
from engine.cards import cards_from_mask, full_deck, mask_of
from engine.events import DealScored, Event, GameOver
from engine.phases.contest import RuffContest

from .helpers import ENGINE_SETTINGS
from .referee import Referee

# the referee follows the Ruff-and-Honours / Whist family; other families have their own tests
PRESETS = [
    (g, p, None)
    for g in game_ids()
    for p in presets_for(g)
    if make_rules(g, p).family == "ruff_honours"
]

# Non-default parameters worth the same scrutiny (RULES.md §1.9, §2, §3, §5).
VARIANTS: list[tuple[str, str | None, dict[str, object]]] = [
    (
        "ruff-honours-cotton",
        None,
        {"ruff_mandatory": True, "ruff_discard_restriction": "no_honours"},
    ),
    (
        "ruff-honours-cotton",
        None,
        {"ruff_discard_restriction": "no_trumps", "ruff_if_ace_in_stock": "nobody"},
    ),
    (
        "ruff-honours-cotton",
        None,
        {"first_leader": "ruffer", "deal_pattern": "singles", "first_dealer": "draw_high"},
    ),
    ("ruff-honours-cotton", None, {"can_ye_window": "before_own_first_card", "target_score": 5}),
    ("ruff-honours-cotton", None, {"call_point": "any", "uncalled_honours_at_call_point": "void"}),
    (
        "ruff-honours-cotton",
        None,
        {
            "revoke_mode": "penalty",
            "score_order": "simultaneous",
            "match_format": "best_of_3",
            "target_score": 5,
        },
    ),
    (
        "ruff-honours-cotton",
        None,
        {"honours_basis": "dealt", "honours_can_win": "false", "target_score": 5},
    ),
    (
        "honours-48",
        None,
        {"turn_up_card": "eldest_last", "match_format": "best_of_3", "target_score": 4},
    ),
    ("whisk-48", None, {"deal_pattern": "packets4", "scoring_preset": "cotton-whist"}),
    ("whist-5", None, {"deal_pattern": "packets4", "honours": "on", "honours_basis": "captured"}),
    (
        "whist-7-rotate",
        None,
        {
            "trump_cycle": "NT,S,H,D,C",
            "trump_cycle_basis": "per_session",
            "match_format": "rubber_bo3",
        },
    ),
    ("whist-long", None, {"call_point": "any", "target_score": 6}),
    # Ruffe and Trump (RULES.md §4.8): every form and announcement
    (
        "ruff-trump-willughby",
        None,
        {"mode": "single_hand", "ruff_tie": "split", "target_score": 30},
    ),
    (
        "ruff-trump-willughby",
        None,
        {"players": 3, "ruff_announce": "declared", "rub_mandatory": True},
    ),
    (
        "ruff-trump-willughby",
        None,
        {"players": 3, "hand_size": 16, "ruff_tie": "no_award", "win_check": "end_of_deal"},
    ),
    (
        "ruff-trump-willughby",
        None,
        {"players": 2, "rub_if_ace_in_head": "nobody", "ruff_bonus": 30},
    ),
    (
        "ruff-trump-willughby",
        None,
        {"players": 2, "hand_size": 24, "ruff_announce": "declared", "ruff_tie": "split"},
    ),
    ("ruff-trump-willughby", "johnston", {"ruff_announce": "declared", "target_score": 20}),
    # Turnover Bridge (RULES.md §8.6)
    ("turnover-bridge", None, {"trump": "turn_up", "target_score": 3}),
    ("turnover-bridge", "pagat", {"trump": "none", "stop_at_majority": False, "target_score": 2}),
    (
        "turnover-bridge",
        None,
        {"stop_at_majority": False, "scoring": "odd_tricks", "target_score": 4},
    ),
]

CONFIGS = PRESETS + VARIANTS


def _id(config: tuple[str, str | None, dict[str, object] | None]) -> str:
    game_id, preset, overrides = config
    return f"{game_id}:{preset or ''}:{','.join(f'{k}={v}' for k, v in (overrides or {}).items())}"


# --------------------------------------------------------------------------- invariants


def check_cards_accounted(game: Game) -> None:
    """Hands + current trick + completed tricks + stock + discards = the pack, once each."""
    parts: list[Card] = []
    for mask in game.hands:
        parts.extend(cards_from_mask(mask))
    parts += game.trick
    for _, cards, _ in game.completed:
        parts += cards
    parts += game.stock
    parts += game.discards
    if game.layout is not None:  # Turnover Bridge: face-up and face-down layout cards
        for seat in range(game.n_players):
            parts += cards_from_mask(game.layout.face_up(seat) | game.layout.face_down(seat))
    assert len(parts) == len(set(parts)) == game.rules.deck_size
    assert mask_of(parts) == mask_of(full_deck(game.rules.removed_ranks))


def _cards_in(value: object) -> Iterator[Card]:
    if isinstance(value, Card):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _cards_in(item)
    elif isinstance(value, Play):
        yield value.card
    elif isinstance(value, Action):
        yield from (
            (c for c in vars(value).values() if isinstance(c, Card))
            if hasattr(value, "__dict__")
            else ()
        )


def check_views(game: Game) -> None:
    """No seat's view contains another seat's hidden cards or the stock."""
    shown = {c for _, c in game.shown}
    for ruff in game.notes.get("ruff_shown", ()):  # Ruffe and Trump: a suit shown after the rub
        shown |= set(ruff[2])
    turn_up = {game.turn_up} if game.turn_up is not None else set()
    for seat in range(game.n_players):
        view = game.observe(seat)
        assert isinstance(view, SeatView) and view.seat == seat
        own = set(game.hand(seat))
        assert set(view.hand) == own and len(view.hand) == len(own)
        assert view.legal == tuple(game.legal_actions(seat))
        assert view.to_act == game.to_act()
        assert view.hand_sizes == tuple(mask.bit_count() for mask in game.hands)
        hidden: set[Card] = set(game.stock)
        if game.layout is not None:  # face-down layout cards: seen by nobody, the owner included
            hidden |= set(cards_from_mask(game.layout.hidden_mask()))
        for other in range(game.n_players):
            if other != seat:
                hidden |= set(game.hand(other))
        if seat != game.ruffer:
            hidden |= set(game.discards)
            assert view.stock_taken == () and view.my_discards == ()
        else:
            assert set(view.stock_taken) == set(game.stock_taken)
            assert list(view.my_discards) == game.discards
        visible_turn_up = turn_up if view.turn_up is not None else set()
        hidden -= shown | visible_turn_up
        for name in SeatView.__dataclass_fields__:
            if name == "previous_trick":  # the deal before's cards, played face up then
                continue
            leaked = set(_cards_in(getattr(view, name))) & hidden
            assert not leaked, f"seat {seat} sees {leaked} in SeatView.{name}"


def check_public_events(game: Game, events: list[Event], before_hands: list[set[Card]]) -> None:
    """Public events show only cards that are public once played or shown."""
    for event in events:
        if event.audience is not None:
            continue
        for card in _cards_in(event.field_values()):
            owners = [s for s, hand in enumerate(before_hands) if card in hand]
            public = card in game.trick or any(card in cs for _, cs, _ in game.completed)
            public |= card == game.turn_up or any(card == c for _, c in game.shown)
            public |= type(event).__name__ in (
                "TrickWon",
                "CardPlayed",
                "HonoursShown",
                "CanYeCalled",
                "RuffShown",
                "LayoutCardPlayed",
                "LayoutDealt",
            )
            assert public or not owners, f"{event!r} shows {card}"


def same_state(a: Game, b: Game) -> None:
    """Every slot of the two games is equal (a lossy snapshot would still match its key)."""
    for name in Game.__slots__:
        assert getattr(a, name) == getattr(b, name), name


def check_replays(game: Game) -> None:
    key = game.state_key()
    record = json.loads(json.dumps(game.to_record()))
    replayed = Game.from_record(record)
    assert replayed.state_key() == key
    same_state(replayed, game)
    snapshot = json.loads(json.dumps(game.snapshot()))
    restored = Game.from_snapshot(snapshot)
    assert restored.state_key() == key
    same_state(restored, game)
    twin = game.clone()
    assert twin.state_key() == key
    same_state(twin, game)
    for name in Game.__slots__:  # nothing mutable is shared with the clone
        value = getattr(game, name)
        if isinstance(value, (list, set, dict)):
            assert getattr(twin, name) is not value, name


def try_illegal(game: Game, seat: int, legal: list[Action], rng: random.Random) -> None:
    """Refused actions raise IllegalAction and change nothing."""
    attempts: list[tuple[int, Action]] = []
    hand = list(cards_from_mask(game.playable(seat)))  # the hand, and face-up layout cards
    if game.phase == "play" and game.trick and game.rules.revoke_mode == "prevent":
        led = game.trick[0].suit
        if any(c.suit is led for c in hand):
            off = [c for c in hand if c.suit is not led]
            if off:
                attempts.append((seat, play(rng.choice(off))))
    not_held = [c for c in full_deck() if c not in hand]
    attempts.append((seat, play(rng.choice(not_held))))
    others = [s for s in range(game.n_players) if s != seat]
    other = rng.choice(others)
    attempts.append((other, play(rng.choice(game.hand(other) or full_deck()))))
    if game.phase != "can_ye":
        attempts.append((seat, Pass()))
    if not legal or CallCanYe() not in legal:
        attempts.append((seat, CallCanYe()))
    if not legal or ShowHonours() not in legal:
        attempts.append((seat, ShowHonours()))
    before = game.state_key()
    for who, action in attempts:
        assert action not in game.legal_actions(who)
        with pytest.raises(IllegalAction):
            game.check(who, action)
        with pytest.raises(IllegalAction):
            game.apply(who, action)
    assert game.state_key() == before


# --------------------------------------------------------------------------- the playout


def play_match(
    rules: Rules, seed: int, first_dealer: int | None, policy_seed: int, start: bool
) -> None:
    rng = random.Random(policy_seed)
    start_scores = None
    if start:  # begin near the end of a game, where Can-ye and caps happen
        start_scores = tuple(rng.randrange(rules.target_score) for _ in range(rules.sides))
    game, events = new_game(
        rules=rules, seed=seed, first_dealer=first_dealer, start_scores=start_scores
    )
    referee = Referee(rules, start_scores)
    referee.feed(events)
    check_cards_accounted(game)
    check_views(game)
    replay_at = rng.randrange(40)
    steps = 0
    while not game.is_over:
        steps += 1
        assert steps < 4000, "a match should end"
        seat = game.to_act()
        assert seat is not None
        legal = game.legal_actions(seat)
        assert legal, "the seat to act always has a legal action"
        for other in range(game.n_players):
            if other != seat:
                assert game.legal_actions(other) == []
        for action in legal:
            game.check(seat, action)
        if game.phase == "can_ye":
            assert seat == referee.eligible_callers()[0] or seat in referee.eligible_callers()
        claims = [a for a in legal if isinstance(a, (CallCanYe, ShowHonours))]
        if claims and game.phase == "play":
            assert rules.can_ye_window == "before_own_first_card" and game.trick_no == 1
        if game.phase == "play" and game.trick and rules.revoke_mode == "prevent":
            # whenever a revoke is possible, it is refused (cheap check of the state here;
            # try_illegal below compares the full state key)
            led = game.trick[0].suit
            hand = game.hand(seat)
            off = [c for c in hand if c.suit is not led]
            if off and len(off) < len(hand):
                version, hands, trick = game.version, list(game.hands), list(game.trick)
                with pytest.raises(IllegalAction) as refused:
                    game.apply(seat, play(rng.choice(off)))
                assert refused.value.code == "must_follow"
                assert (game.version, game.hands, game.trick) == (version, hands, trick)
        if steps % 11 == 0 or game.phase != "play":
            try_illegal(game, seat, legal, rng)
        action = rng.choice(legal)
        if steps == replay_at:
            twin = game.clone()
            twin_events = twin.apply(seat, action)
        scores_before = list(game.scores)
        hands_before = [set(cards_from_mask(mask)) for mask in game.hands]
        new_events = game.apply(seat, action)
        if steps == replay_at:
            assert twin_events == new_events and twin.state_key() == game.state_key()
        referee.feed(new_events)
        if not any(isinstance(e, (DealScored, GameOver, RuffContest)) for e in new_events):
            assert game.scores == scores_before, "scores change only at deal end, Can-ye or a ruff"
        assert (
            game.scores == referee.scores
            or game.is_over
            or any(isinstance(e, GameOver) for e in new_events)
        )
        check_public_events(game, new_events, hands_before)
        check_cards_accounted(game)
        if steps % 9 == 0 or game.phase != "play":
            check_views(game)
        if steps == replay_at or steps % 97 == 0:
            check_replays(game)
    assert not referee.expected, f"events still due: {referee.expected}"
    assert referee.over
    assert game.to_act() is None and all(game.legal_actions(s) == [] for s in range(game.n_players))
    check_replays(game)
    check_views(game)


@pytest.mark.parametrize("config", CONFIGS, ids=[_id(c) for c in CONFIGS])
@settings(ENGINE_SETTINGS, max_examples=5)
@given(
    seed=st.integers(0, 2**32 - 1),
    first_dealer=st.none() | st.integers(0, 3),
    policy_seed=st.integers(0, 2**32 - 1),
    start=st.booleans(),
)
def test_random_playouts(
    config: tuple[str, str | None, dict[str, object] | None],
    seed: int,
    first_dealer: int | None,
    policy_seed: int,
    start: bool,
) -> None:
    game_id, preset, overrides = config
    rules = make_rules(game_id, preset, overrides)
    if first_dealer is not None:
        first_dealer %= rules.players
    play_match(rules, seed, first_dealer, policy_seed, start)
