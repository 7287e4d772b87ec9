"""hard's sharper evaluation of the open tables (engine.ai.search.open_inference)."""

from __future__ import annotations

import random

import pytest

from engine import Game, SeatView, make_rules, new_game
from engine.actions import Play
from engine.ai import get_player
from engine.ai.search import open_inference as sh
from engine.ai.search import open_search as o
from engine.ai.search.bitmasks import NO_TRUMP
from engine.ai.search.budget import Budget
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


def _count_sharp(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that gets an entry each time a search builds its inference (Sharp.of)."""
    made: list[int] = []
    real = sh.Sharp.of

    def counting(view: SeatView, k: o.Known, eps: float = sh.INFER_EPS) -> sh.Sharp:
        made.append(1)
        return real(view, k, eps)

    monkeypatch.setattr(sh.Sharp, "of", staticmethod(counting))
    return made


def test_normal_never_uses_the_sharp_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    """normal's decisions stay as they were; hard's open search goes through Sharp."""
    made = _count_sharp(monkeypatch)
    view = _decision(3)
    get_player("normal", budget=0.01, cap=0.5).choose(view, view.legal, random.Random(0))
    assert not made
    get_player("hard", budget=0.01, cap=0.5).choose(view, view.legal, random.Random(0))
    assert made
    get_player("hard-old", budget=0.01, cap=0.5).choose(view, view.legal, random.Random(0))
    assert len(made) == 1


def test_hard_infers_at_two_or_three_seats_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Single-handed (four seats) the inference showed no gain: hard plays there as before."""
    made = _count_sharp(monkeypatch)
    single = _oracle_deal("ruff-trump-willughby", {"mode": "single_hand"}, 4, 3).observe(0)
    get_player("hard", budget=0.01, cap=0.5).choose(single, single.legal, random.Random(0))
    assert not made
    three = _decision(3)
    get_player("hard", budget=0.01, cap=0.5).choose(three, three.legal, random.Random(0))
    assert made
