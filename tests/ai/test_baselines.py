"""The arena's outside baselines: the conventional player, generic ISMCTS and the oracle."""

from __future__ import annotations

import random

import pytest

from engine import Game, make_rules, new_game
from engine.actions import Play
from engine.ai import BASELINE_LEVELS, LEVELS, TRIAL_LEVELS, OraclePlayer
from engine.ai import arena_player as get_player
from engine.ai.baselines.rules import ConventionalPlayer
from engine.ai.baselines.search import IsmctsPlayer
from engine.ai.players import Player
from engine.ai.search import dds, ismcts
from engine.cards import Card
from engine.rules import game_ids

FORMS: list[tuple[str, dict[str, object]]] = [(g, {}) for g in game_ids()] + [
    ("ruff-trump-willughby", {"players": 3, "ruff_announce": "declared"}),
    ("ruff-trump-willughby", {"players": 2}),
    ("ruff-trump-willughby", {"mode": "single_hand"}),
    ("turnover-bridge", {"layout": "pagat"}),
]
IDS = [g + "".join(f"-{k}={v}" for k, v in o.items()) for g, o in FORMS]


def _play(game: Game, player: Player, seed: int, *, deals: int | None = None) -> int:
    """Play ``game`` with ``player`` at every seat; returns the decisions taken."""
    rng = random.Random(seed)
    decisions = 0
    first = game.deal_no
    while (seat := game.to_act()) is not None:
        if deals is not None and game.deal_no >= first + deals:
            break
        view = game.observe(seat)
        if isinstance(player, OraclePlayer):
            action = player.choose_seeing(game, view, view.legal, rng)
        else:
            action = player.choose(view, view.legal, rng)
        assert action in view.legal, (game.rules.game_id, view.phase, action)
        game.apply(seat, action)
        decisions += 1
        assert decisions < 20_000
    return decisions


def test_the_baselines_are_arena_levels_only() -> None:
    assert set(BASELINE_LEVELS) == {"rules", "pimc", "ismcts", "oracle"}
    assert not set(BASELINE_LEVELS) & set(LEVELS + TRIAL_LEVELS)
    assert isinstance(get_player("rules"), ConventionalPlayer)
    assert isinstance(get_player("oracle"), OraclePlayer)
    assert get_player("ismcts").name == "ismcts"


@pytest.mark.parametrize(("game_id", "overrides"), FORMS, ids=IDS)
def test_rules_player_plays_every_game_to_its_end_legally(
    game_id: str, overrides: dict[str, object]
) -> None:
    player = ConventionalPlayer()
    for seed in range(3):
        game, _ = new_game(rules=make_rules(game_id, None, overrides or None), seed=seed)
        _play(game, player, seed)
        assert game.is_over


@pytest.mark.parametrize(("game_id", "overrides"), FORMS, ids=IDS)
def test_ismcts_plays_every_game_legally(game_id: str, overrides: dict[str, object]) -> None:
    player = get_player("ismcts", budget=0.003)
    game, _ = new_game(rules=make_rules(game_id, None, overrides or None), seed=7)
    assert _play(game, player, 7, deals=1) > 0


@pytest.mark.parametrize(("game_id", "overrides"), FORMS, ids=IDS)
def test_oracle_plays_every_game_legally_seeing_every_hand(
    game_id: str, overrides: dict[str, object]
) -> None:
    player = get_player("oracle", budget=0.003)
    game, _ = new_game(rules=make_rules(game_id, None, overrides or None), seed=11)
    assert _play(game, player, 11, deals=1) > 0


def _mask(*codes: str) -> int:
    return sum(Card.parse(c).bit for c in codes)


# Spades trumps, seat 0 to lead, two cards each: the ace of hearts first takes a
# trick (the king must fall under it; West's spade ruffs the two later); the two
# first takes none (the king wins, then the last trump).
ENDGAME = [_mask("AH", "2H"), _mask("KH", "3S"), _mask("2D", "3D"), _mask("2C", "3C")]
WINNING = Card.parse("AH").index


def test_ismcts_wins_a_simple_endgame_with_more_iterations() -> None:
    trump = Card.parse("3S").suit.order
    deal = ismcts.Deal(seat=0, leader=0, trick=[], trump=trump, tricks=(11, 0), sides=(0, 1, 0, 1))
    found = [
        ismcts.search(
            deal, lambda r: ismcts.world_of_hands(ENDGAME), random.Random(s), iterations=200
        )
        for s in range(10)
    ]
    assert found == [WINNING] * 10
    # a single iteration only expands one random move: it does not know yet
    once = {
        ismcts.search(
            deal, lambda r: ismcts.world_of_hands(ENDGAME), random.Random(s), iterations=1
        )
        for s in range(20)
    }
    assert once == {WINNING, Card.parse("2H").index}


def test_ismcts_budget_is_hards_cpu_a_decision() -> None:
    from engine.ai.levels import HARD

    assert IsmctsPlayer().budget == HARD.soft


@pytest.mark.skipif(not dds.available(), reason="DDS (endplay) is not installed")
def test_oracle_plays_the_double_dummy_card() -> None:
    # whist-5: find a position where the seat's cards differ double dummy
    oracle = get_player("oracle", budget=0.003)
    assert isinstance(oracle, OraclePlayer)
    rng = random.Random(3)
    for seed in range(20):
        game, _ = new_game("whist-5", seed=seed)
        while (seat := game.to_act()) is not None and game.deal_no == 1:
            view = game.observe(seat)
            plays = [a for a in view.legal if isinstance(a, Play)]
            if len(plays) > 1 and not game.trick:
                hands = [game.hands[s] for s in range(4)]
                trump = game.trump.order if game.trump is not None else 4
                scores = dds.solve_cards(hands, game.leader, [], trump)
                if len(set(scores.values())) > 1:
                    action = oracle.choose_seeing(game, view, view.legal, rng)
                    assert isinstance(action, Play)
                    assert scores[action.card.index] == max(scores.values())
                    return
            game.apply(seat, view.legal[0])
    pytest.fail("no position with a double-dummy choice found")


def test_the_oracles_world_holds_every_card_where_it_lies() -> None:
    from engine.ai.baselines.search import _true_world

    game, _ = new_game("turnover-bridge", seed=5)
    world = _true_world(game)
    cards = sum(h.bit_count() for h in world.hands) + sum(u.bit_count() for u in world.ups)
    cards += sum(len(stack) for under in world.under for stack in under.values())
    assert cards == 52
    for seat in range(2):
        assert world.hands[seat] == game.hands[seat]
        assert game.layout is not None and world.ups[seat] == game.layout.up[seat]


def test_rules_player_answers_claims_simply() -> None:
    from engine.claims import AcceptClaim, AgreeConcession, Claim, Concede, answering
    from tests.engine.test_claims import to_play

    game = to_play("whist-short-classic", 1, 5)
    claimer = game.to_act()
    assert claimer is not None
    game.apply(claimer, Claim(5))
    seat = answering(game)[0]
    view = game.observe(seat)
    answer = ConventionalPlayer().choose(view, view.legal, random.Random(0))
    assert answer in view.legal
    # accepted only when every card the claimer shows is a top card
    from engine.ai.strategies.claims import top_cards
    from engine.cards import mask_of

    hand = game.hands[claimer]
    out = 0
    for s in range(4):
        if s != claimer:
            out |= game.hands[s]
    sure = top_cards(hand, out, game.trump, game.rank_order)
    assert (answer == AcceptClaim()) == sure
    assert mask_of(view.note("claim")[3]) == hand  # type: ignore[index]

    game = to_play("whist-short-classic", 2, 5)
    seat = game.to_act()
    assert seat is not None
    game.apply(seat, Concede())
    other = answering(game)[0]
    view = game.observe(other)
    assert ConventionalPlayer().choose(view, view.legal, random.Random(0)) == AgreeConcession()


def test_the_oracle_solves_the_end_of_the_deal_exactly() -> None:
    from engine.ai.baselines.search import EXACT_CARDS, exact_card

    trump = Card.parse("3S").suit.order
    world = ismcts.world_of_hands(ENDGAME)
    # seat 0 alone against three (as a Solo declarer): only the ace of hearts takes a trick
    alone = ismcts.Deal(seat=0, leader=0, trick=[], trump=trump, tricks=(5, 6), sides=(0, 1, 1, 1))
    assert exact_card(alone, world, ENDGAME[0], float("inf")) == WINNING
    # not where tricks are not the aim, or not exact, or too many cards are left
    misere = ismcts.Deal(
        seat=0, leader=0, trick=[], trump=trump, tricks=(0, 11), sides=(0, 1, 1, 1), misere_side=0
    )
    assert exact_card(misere, world, ENDGAME[0], float("inf")) is None
    each = ismcts.Deal(seat=0, leader=0, trick=[], trump=trump, tricks=(0,) * 4, sides=(0, 1, 2, 3))
    assert exact_card(each, world, ENDGAME[0], float("inf")) is None
    game, _ = new_game("solo-whist", seed=1)
    full = ismcts.world_of_hands([game.hands[s] for s in range(4)])
    assert max(h.bit_count() for h in full.hands) > EXACT_CARDS[1]
    assert exact_card(alone, full, full.hands[0], float("inf")) is None


def test_the_oracle_plays_solos_last_tricks_exactly_and_without_its_search_budget() -> None:
    from engine.ai.baselines.search import EXACT_CARDS, _deal_and_sampler, _true_world
    from engine.ai.search import clock, open_search

    rules_player = ConventionalPlayer()
    oracle = get_player("oracle", budget=0.5)
    assert isinstance(oracle, OraclePlayer)
    checked = 0
    for seed in range(40):
        game, _ = new_game("solo-whist", seed=seed)
        rng = random.Random(seed)
        while (seat := game.to_act()) is not None and game.deal_no == 1:
            view = game.observe(seat)
            plays = [a for a in view.legal if isinstance(a, Play)]
            found = _deal_and_sampler(view) if len(plays) > 1 else None
            world = _true_world(game)
            if (
                found is not None
                and found[0].misere_side is None
                and len(set(found[0].sides)) == 2
                and max(h.bit_count() for h in world.hands) <= EXACT_CARDS[1]
            ):
                deal = found[0]
                before = clock.current()
                clock.use("cpu")  # its budget as the arena measures it, whatever the load
                try:
                    start = clock.now()
                    action = oracle.choose_seeing(game, view, view.legal, rng)
                    took = clock.now() - start
                finally:
                    clock.use(before)
                if max(h.bit_count() for h in world.hands) <= 3:
                    assert took < 0.05  # solved, not searched for its 0.5 s
                assert isinstance(action, Play)

                def tricks(card: int, deal: ismcts.Deal = deal, world: ismcts.World = world) -> int:
                    state = ismcts.State(deal, world)
                    state.step(card)
                    after = ismcts.World(state.hands, state.ups, state.fresh, state.under)
                    final = open_search.solve(
                        after,
                        state.leader,
                        state.trick,
                        deal.trump,
                        deal.sides,
                        list(state.won),
                        deal.stop,
                        deal.sides[seat],
                        float("inf"),
                    )
                    return final[deal.sides[seat]]

                values = {a.card.index: tricks(a.card.index) for a in plays}
                assert values[action.card.index] == max(values.values())
                checked += 1
                if checked >= 12:
                    return
            game.apply(seat, rules_player.choose(view, view.legal, rng))
    pytest.fail(f"only {checked} Solo endgames found")
