"""hard's sharper evaluation of the open tables (engine.ai.open_sharp)."""

from __future__ import annotations

import random

import pytest

from engine import Game, SeatView, make_rules, new_game
from engine.actions import Play
from engine.ai import get_player
from engine.ai import open_search as o
from engine.ai import open_sharp as sh
from engine.ai.core import NO_TRUMP
from engine.ai.search import Budget
from engine.cards import mask_of


def _oracle_deal(game_id: str, overrides: dict[str, object], seed: int, tricks: int) -> Game:
    """A deal in which every card is the playout policy's choice on the true hands,
    stopped when ``tricks`` tricks are complete and seat 0 is to play."""
    game, _ = new_game(rules=make_rules(game_id, None, overrides), seed=seed)
    easy = get_player("easy")
    rng = random.Random(seed)
    while True:
        seat = game.to_act()
        assert seat is not None
        view = game.observe(seat)
        plays = [a for a in view.legal if isinstance(a, Play)]
        if not plays:  # the ruff, the rub: as easy does
            game.apply(seat, easy.choose(view, view.legal, rng))
            continue
        if len(view.completed_tricks) >= tricks and seat == 0:
            return game
        hands = [mask_of(game.observe(s).hand) for s in range(game.n_players)]
        alive = 0
        for h in hands:
            alive |= h
        trump = view.trump.order if view.trump is not None else NO_TRUMP
        sides = view.sides or tuple(range(game.n_players))
        trick = [c.index for _, c in view.trick]
        card = o.greedy_card(hands, seat, trick, view.trick_leader, trump, sides, alive)
        chosen = next(a for a in plays if a.card.index == card)
        game.apply(seat, chosen)


def _true_world(game: Game, k: o.Known) -> o.World:
    hands = [mask_of(game.observe(s).hand) for s in range(game.n_players)]
    return o.World(hands, list(k.ups), list(k.fresh), [{} for _ in range(k.n)])


@pytest.mark.parametrize("players", [2, 3])
def test_the_true_deal_explains_the_play_best(players: int) -> None:
    """The others played exactly as the playout policy would on the true hands: the
    true deal explains every card, and nearly all worlds sampled from the seat's
    knowledge (which do not) weigh far less."""
    game = _oracle_deal("ruff-trump-willughby", {"players": players}, 5, 5)
    view = game.observe(0)
    k = o.knowledge_of(view)
    assert k is not None
    sharp = sh.Sharp.of(view, k)
    assert len(sharp.observed) == 5 * players + len(view.trick)
    best = sharp.weight(_true_world(game, k))
    rng = random.Random(3)
    weights = []
    for _ in range(200):
        world = o.sample_world(k, rng)
        assert world is not None
        weights.append(sharp.weight(world))
    assert sum(w < best / 2 for w in weights) > 180
    # no inference: every world weighs one
    assert sh.Sharp(k, []).weight(_true_world(game, k)) == 1.0


def test_a_world_contradicting_a_lead_weighs_less() -> None:
    """Seat 1 led the two of clubs. A world where he held a master (the ace of hearts,
    which the policy would have cashed) explains that lead worse than one where clubs
    were his longest suit and he had no master; the factors are exactly the model's."""
    game = _oracle_deal("ruff-trump-willughby", {"players": 2}, 1, 0)
    view = game.observe(0)
    k = o.knowledge_of(view)
    assert k is not None
    k.trump = 3  # spades: clubs and hearts are side suits
    two_clubs, three_clubs, four_clubs, king_clubs = 0, 1, 2, 11
    ace_hearts, five_hearts = 2 * 13 + 12, 2 * 13 + 3
    lead = sh.Observed(seat=1, card=two_clubs, leader=1, before=())
    eps = 0.4
    sharp = sh.Sharp(k, [lead], eps)
    queen_hearts = 2 * 13 + 10
    mine = 1 << king_clubs | 1 << queen_hearts | 1 << (3 * 13)
    explains = o.World(
        [mine, 1 << three_clubs | 1 << four_clubs | 1 << five_hearts], [0, 0], [0, 0], [{}, {}]
    )
    contradicts = o.World(
        [mine, 1 << three_clubs | 1 << four_clubs | 1 << ace_hearts], [0, 0], [0, 0], [{}, {}]
    )
    # before the lead seat 1 held four cards, all legal
    assert sharp.weight(explains) == pytest.approx((1 - eps) + eps / 4)
    assert sharp.weight(contradicts) == pytest.approx(eps / 4)
    # leading the three instead of the two is the same play (touching cards)
    touching = sh.Sharp(k, [sh.Observed(1, three_clubs, 1, ())], eps)
    world = o.World(
        [mine, 1 << two_clubs | 1 << four_clubs | 1 << five_hearts], [0, 0], [0, 0], [{}, {}]
    )
    assert touching.weight(world) == pytest.approx((1 - eps) + eps / 4)
    # a forced play says nothing
    forced = sh.Sharp(k, [sh.Observed(1, two_clubs, 0, (king_clubs,))], eps)
    alone = o.World([1 << (3 * 13), 1 << five_hearts], [0, 0], [0, 0], [{}, {}])
    assert forced.weight(alone) == 1.0


def test_relative_value_counts_the_others_points() -> None:
    """Three players, 12 cards each (par 12 cards): below par, a seat still prefers
    the deal where the leader takes fewer tricks; its own value ignores that."""
    rules = make_rules("ruff-trump-willughby", None, {"players": 3})
    sides = (0, 1, 2)
    runaway, held = (7, 3, 2), (6, 4, 2)
    assert o.deal_value(rules, sides, 2, runaway) == o.deal_value(rules, sides, 2, held)
    assert sh.relative_value(rules, sides, 2, held) > sh.relative_value(rules, sides, 2, runaway)
    # points (9, 0, 0): 0 - 9 / 2, plus a hundredth a trick
    assert sh.relative_value(rules, sides, 2, runaway) == pytest.approx(-4.5 + 0.02)
    two = make_rules("ruff-trump-willughby", None, {"players": 2})
    assert sh.relative_value(two, (0, 1), 0, (8, 4)) == o.deal_value(two, (0, 1), 0, (8, 4))


def _small_world(rng: random.Random, n: int, per: int) -> list[int]:
    cards = rng.sample(range(52), n * per)
    return [mask_of_indices(cards[s * per : (s + 1) * per]) for s in range(n)]


def mask_of_indices(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def test_maxn_agrees_with_the_exact_solve_for_two_sides() -> None:
    rules = make_rules("ruff-trump-willughby", None, {"players": 2})
    rng = random.Random(8)
    for _ in range(30):
        hands = _small_world(rng, 2, 4)
        world = o.World(hands, [0, 0], [0, 0], [{}, {}])
        trump = rng.randrange(5)
        exact = o.solve(world, 0, [], trump, (0, 1), [3, 4], 10**6, 0, 10**9)
        maxn = sh.solve_maxn(world, 0, [], trump, (0, 1), [3, 4], 10**6, 0, rules, 10**9)
        assert maxn[0] == exact[0]
        assert sum(maxn) == 3 + 4 + 4


def test_maxn_three_sides_keeps_every_trick_and_each_seat_plays_for_itself() -> None:
    rules = make_rules("ruff-trump-willughby", None, {"players": 3})
    rng = random.Random(9)
    for _ in range(20):
        hands = _small_world(rng, 3, 3)
        world = o.World(hands, [0, 0, 0], [0, 0, 0], [{}, {}, {}])
        final = sh.solve_maxn(
            world, 1, [], rng.randrange(5), (0, 1, 2), [2, 3, 4], 10**6, 0, rules, 10**9
        )
        assert sum(final) == 2 + 3 + 4 + 3
        assert all(f >= t for f, t in zip(final, (2, 3, 4), strict=True))
    # one card each: the trick goes to the highest of the led suit
    spade_ace, spade_two, heart_king = 3 * 13 + 12, 3 * 13, 2 * 13 + 11
    world = o.World(
        [1 << spade_two, 1 << spade_ace, 1 << heart_king], [0, 0, 0], [0, 0, 0], [{}, {}, {}]
    )
    assert sh.solve_maxn(world, 0, [], NO_TRUMP, (0, 1, 2), [4, 4, 3], 10**6, 0, rules, 10**9) == [
        4,
        5,
        3,
    ]


def _decision(players: int) -> SeatView:
    game = _oracle_deal("ruff-trump-willughby", {"players": players}, 4, 3)
    return game.observe(0)


@pytest.mark.parametrize("players", [2, 3])
def test_the_sharp_search_is_deterministic_and_legal(players: int) -> None:
    view = _decision(players)
    legal = mask_of(a.card for a in view.legal if isinstance(a, Play))
    budget = Budget(soft=60.0, cap=60.0, min_worlds=2, max_worlds=40)
    first = o.search_play(view, legal, random.Random(5), budget, sharp=True)
    again = o.search_play(view, legal, random.Random(5), budget, sharp=True)
    assert first is not None and first == again
    assert legal >> first & 1


def test_normal_never_uses_the_sharp_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    """normal's decisions stay as they were; hard's open search goes through Sharp."""
    made: list[int] = []
    real = sh.Sharp.of

    def counting(view: SeatView, k: o.Known, eps: float = sh.INFER_EPS) -> sh.Sharp:
        made.append(1)
        return real(view, k, eps)

    monkeypatch.setattr(sh.Sharp, "of", staticmethod(counting))
    view = _decision(3)
    get_player("normal", budget=0.01, cap=0.5).choose(view, view.legal, random.Random(0))
    assert not made
    get_player("hard", budget=0.01, cap=0.5).choose(view, view.legal, random.Random(0))
    assert made
    get_player("hard-old", budget=0.01, cap=0.5).choose(view, view.legal, random.Random(0))
    assert len(made) == 1
