"""normal and hard search the tables of 2-3 seats, everyone alone, and layouts (engine.ai.search.open_search)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

import pytest

from engine import Game, SeatView, make_rules, new_game
from engine.actions import Play
from engine.ai import get_player
from engine.ai.search import open_search as o
from engine.ai.search.bitmasks import SUIT_BITS, trick_winner_pos
from engine.ai.search.open_search import strategy as open_strategy
from engine.ai.strategies.open_tables import generic_card
from engine.cards import mask_of

FORMS = [
    ("ruff-trump-willughby", {"players": 3}),
    ("ruff-trump-willughby", {"players": 3, "hand_size": 16}),
    ("ruff-trump-willughby", {"players": 2}),
    ("ruff-trump-willughby", {"players": 2, "hand_size": 24}),
    ("ruff-trump-willughby", {"mode": "single_hand"}),
    ("turnover-bridge", {}),
    ("turnover-bridge", {"layout": "pagat"}),
    ("turnover-bridge", {"trump": "turn_up"}),
]
IDS = [f"{g}:{o}" for g, o in FORMS]


def _plays(
    game_id: str, overrides: dict[str, object], seed: int
) -> Iterator[tuple[Game, SeatView]]:
    """Every card-play decision with a choice in one seeded deal (easy plays the cards)."""
    game, _ = new_game(rules=make_rules(game_id, None, overrides), seed=seed)
    easy = get_player("easy")
    rng = random.Random(seed)
    while not game.is_over and game.deal_no == 1:
        seat = game.to_act()
        assert seat is not None
        view = game.observe(seat)
        if sum(isinstance(a, Play) for a in view.legal) > 1:
            yield game, view
        game.apply(seat, easy.choose(view, view.legal, rng))


@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize(("game_id", "overrides"), FORMS, ids=IDS)
def test_search_levels_play_whole_games_legally(
    level: str, game_id: str, overrides: dict[str, object]
) -> None:
    player = get_player(level, budget=0.003, cap=0.3)
    game, _ = new_game(rules=make_rules(game_id, None, overrides), seed=11)
    rng = random.Random(11)
    searched = 0
    while not game.is_over and game.deal_no <= 2:
        seat = game.to_act()
        assert seat is not None
        view = game.observe(seat)
        if sum(isinstance(a, Play) for a in view.legal) > 1:
            assert o.applies(view)
            legal = mask_of(a.card for a in view.legal if isinstance(a, Play))
            assert o.search_play(view, legal, random.Random(0), player.inner.budget) is not None  # type: ignore[attr-defined]
            searched += 1
        action = player.choose(view, view.legal, rng)
        assert action in view.legal
        game.apply(seat, action)
    assert searched > 5


def _true_places(game: Game) -> tuple[list[int], int]:
    """Every seat's true hand, and every face-down layout card (tests may look)."""
    hands = [mask_of(game.observe(s).hand) for s in range(game.n_players)]
    down = game.layout.hidden_mask() if game.layout is not None else 0
    return hands, down


@pytest.mark.parametrize(("game_id", "overrides"), FORMS, ids=IDS)
def test_sampled_worlds_agree_with_everything_the_seat_knows(
    game_id: str, overrides: dict[str, object]
) -> None:
    rng = random.Random(5)
    checked = 0
    for seed in (1, 2):
        for game, view in _plays(game_id, overrides, seed):
            k = o.knowledge_of(view)
            assert k is not None
            n = view.n_seats
            seat = view.seat
            played = 0
            void = [0] * n
            tricks = [(ld, list(cards)) for ld, cards, _ in view.completed_tricks]
            if view.trick:
                tricks.append((view.trick_leader, [c for _, c in view.trick]))
            for leader, cards in tricks:
                for i, c in enumerate(cards):
                    played |= c.bit
                    if i and c.suit is not cards[0].suit:
                        void[(leader + i) % n] |= cards[0].suit.mask
            face_up = 0
            downs: dict[int, int] = {}
            for piles in view.layouts:
                for pile in piles:
                    if pile.up is not None:
                        face_up |= pile.up.bit
                        if pile.down:
                            downs[pile.up.index] = pile.down
            true_hands, true_down = _true_places(game)
            for _ in range(4):
                world = o.sample_world(k, rng)
                assert world is not None
                assert world.hands[seat] == mask_of(view.hand)
                hidden = 0
                for s in range(n):
                    assert world.hands[s].bit_count() == view.hand_sizes[s]
                    assert not world.hands[s] & void[s], "a seat holds a suit it showed void in"
                    assert not hidden & world.hands[s]
                    hidden |= world.hands[s]
                assert world.ups == list(k.ups)
                stacked = 0
                for s in range(n):
                    for top, stack in world.under[s].items():
                        assert downs.get(top) == len(stack)
                        for c in stack:
                            assert not (stacked | hidden) >> c & 1
                            stacked |= 1 << c
                assert stacked.bit_count() == true_down.bit_count() == sum(downs.values())
                assert not (hidden | stacked) & (played | face_up), "a seen card in a hidden place"
                turn_up = view.turn_up
                if (
                    turn_up is not None
                    and view.turn_up_holder is not None
                    and not played & turn_up.bit
                ):
                    assert world.hands[view.turn_up_holder] & turn_up.bit
                # the truth is one of the worlds: every hidden card could be where it is
                for s in range(n):
                    if s != seat:
                        for c in range(52):
                            if true_hands[s] >> c & 1:
                                assert k.allowed[c] >> s & 1
            checked += 1
    assert checked > 10


def test_a_card_turned_up_is_known_at_once() -> None:
    """Turnover: playing a face-up card shows the card beneath; it leaves the unknown pool."""
    for _game, view in _plays("turnover-bridge", {}, 3):
        fresh = [p.up for piles in view.layouts for p in piles if p.fresh and p.up is not None]
        if fresh:
            k = o.knowledge_of(view)
            assert k is not None
            for card in fresh:
                assert card.index not in k.allowed
                owner = next(
                    s for s, piles in enumerate(view.layouts) if any(p.up == card for p in piles)
                )
                assert k.fresh[owner] & card.bit
            return
    pytest.fail("no card was turned up during a trick")


def _exact_tricks(hands: list[int], leader: int, trick: list[int], trump: int, me: int) -> int:
    """Most tricks ``me`` can take from here at a two-seat table with every card known."""

    @cache
    def go(h0: int, h1: int, lead: int, cards: tuple[int, ...]) -> int:
        if len(cards) == 2:
            won = (lead + trick_winner_pos(list(cards), trump)) % 2
            return (won == me) + go(h0, h1, won, ())
        seat = (lead + len(cards)) % 2
        hand = (h0, h1)[seat]
        if not hand:
            return 0
        legal = hand & SUIT_BITS[cards[0] // 13] if cards else 0
        legal = legal or hand
        values = []
        for c in range(52):
            if legal >> c & 1:
                rest = (h0 ^ (1 << c), h1) if seat == 0 else (h0, h1 ^ (1 << c))
                values.append(go(rest[0], rest[1], lead, (*cards, c)))
        return max(values) if seat == me else min(values)

    return go(hands[0], hands[1], leader, tuple(trick))


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_search_finds_a_trick_the_maxims_miss(level: str) -> None:
    """Two players, 24 cards each: the rubber knows every card (his lay-out is his own).

    In this ending (seed 7, five cards each) the maxims lead the 8 of diamonds
    (the ace of hearts looks beatable to them: they do not count the lay-out as
    seen); playing the cards out shows that cashing the ace of hearts first takes
    five tricks where the maxims' lead takes four.
    """
    found = next(
        (
            (g, v)
            for g, v in _plays("ruff-trump-willughby", {"players": 2, "hand_size": 24}, 7)
            if v.ruffer == v.seat and len(v.hand) <= 5
        ),
        None,
    )
    assert found is not None, "the position did not arise"
    game, view = found
    legal = mask_of(a.card for a in view.legal if isinstance(a, Play))
    maxim = generic_card(view, legal)
    chosen = get_player(level, budget=0.05, cap=0.5).choose(view, view.legal, random.Random(1))
    assert isinstance(chosen, Play)
    hands = [mask_of(game.observe(s).hand) for s in range(2)]
    trump = view.trump.order if view.trump is not None else 4
    trick = [c.index for _, c in view.trick]

    def value(index: int) -> int:
        after = list(hands)
        after[view.seat] ^= 1 << index
        return _exact_tricks(after, view.trick_leader, [*trick, index], trump, view.seat)

    assert value(chosen.card.index) == 5
    assert value(maxim.index) == 4
    assert value(chosen.card.index) > value(maxim.index)


def _solves_in(view: SeatView, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many worlds hard solves exactly for this decision."""
    calls: list[int] = []
    real = open_strategy.solve

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(open_strategy, "solve", counting)
    get_player("hard", budget=0.02, cap=0.5).choose(view, view.legal, random.Random(0))
    monkeypatch.setattr(open_strategy, "solve", real)
    return len(calls)


def _cards_left(view: SeatView) -> int:
    k = o.knowledge_of(view)
    assert k is not None
    world = o.sample_world(k, random.Random(0))
    assert world is not None
    return o.remaining_cards(world) + len(view.trick)


def test_hard_solves_two_hands_exactly_from_seven_cards_only_under_layouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ruffe and Trump for two hides most cards: hard plays out, as normal, until five
    cards a seat are left; Turnover Bridge shows its layouts: hard solves from seven."""
    hidden = next(
        view
        for seed in range(20)
        for _, view in _plays("ruff-trump-willughby", {"players": 2}, seed)
        if 10 < _cards_left(view) <= 14
    )
    assert _solves_in(hidden, monkeypatch) == 0
    shown = next(
        view
        for seed in range(20)
        for _, view in _plays("turnover-bridge", {}, seed)
        if 10 < _cards_left(view) <= 14
    )
    assert _solves_in(shown, monkeypatch) > 0


def test_hards_value_of_a_deal_for_three_counts_the_others_points() -> None:
    """Each alone at a table of three, card points come only over par (12 cards,
    four tricks): with the same two tricks of his own, a player is better off
    leaving both others at five tricks (3 points each) than letting one reach
    seven (9 points). hard's value sees it (``relative``); a value of his own
    points alone, which normal keeps, cannot tell the two apart."""
    rules = make_rules("ruff-trump-willughby", None, {"players": 3})
    sides = [0, 1, 2]
    spread, heaped = [2, 5, 5], [2, 3, 7]
    assert o.deal_value(rules, sides, 0, spread) == o.deal_value(rules, sides, 0, heaped)
    relative = (
        o.deal_value(rules, sides, 0, spread, True),
        o.deal_value(rules, sides, 0, heaped, True),
    )
    assert relative[0] - relative[1] == pytest.approx(1.5)  # (3 + 3) / 2 against (0 + 9) / 2
    # his own points still come first: a trick over par is worth more than any spread
    assert o.deal_value(rules, sides, 0, [5, 5, 2], True) > o.deal_value(
        rules, sides, 0, [4, 4, 4], True
    )
    # at a table of two the opponent's points always counted
    two = make_rules("ruff-trump-willughby", None, {"players": 2})
    assert o.deal_value(two, [0, 1], 0, [5, 7]) == o.deal_value(two, [0, 1], 0, [5, 7], True)
    # hard plays by it; the arena-only hard-own-value and normal do not
    from engine.ai import HardPlayer
    from engine.ai.players import GuardedPlayer

    def relative(level: str) -> bool:
        player = get_player(level)
        assert isinstance(player, GuardedPlayer)
        return isinstance(player.inner, HardPlayer) and player.inner.relative

    assert relative("hard") and not relative("hard-own-value") and not relative("normal")
