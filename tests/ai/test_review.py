"""The coach's review (engine.ai.coach.review) on a stacked deal: a planted blunder is flagged,
the right card is not, the figures are reproducible and survive a JSON round trip."""

from __future__ import annotations

import random

import pytest

from engine import Card, Play, make_rules, new_game, play, stacked_deck
from engine.ai import DealReview, ReviewBudget, get_player, rank_options, review_deal
from engine.records import to_record

BUDGET = ReviewBudget(worlds=24, more_worlds=48)

# dealer North (0): East leads; North's last card, the 2 of clubs, makes clubs trumps.
# East holds every heart but North's, West twelve trumps: a heart trick North gives
# away is gone for good (North's ace, led later, is ruffed)
HANDS = {
    0: ["AH", "2H", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "2C"],
    1: ["KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "AS", "KS"],
    2: ["QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S", "QD", "KD"],
    3: ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "AD"],
}


def _deal(north_card: str) -> dict[str, object]:
    """The stacked deal: East leads the king of hearts, South and West throw a card, and
    North plays ``north_card`` fourth; easy players (seeded) finish the deal."""
    rules = make_rules("whist-5")
    deck = stacked_deck(rules, 0, HANDS)
    game, _ = new_game("whist-5", seed=5, first_dealer=0, deck=deck)
    for seat, card in ((1, "KH"), (2, "2S"), (3, "AD"), (0, north_card)):
        assert game.to_act() == seat
        game.apply(seat, play(Card.parse(card)))
    easy = get_player("easy")
    rng = random.Random(1)
    while game.deals_total == 1 and not game.is_over:
        seat = game.to_act()
        assert seat is not None
        game.apply(seat, easy.choose(game.observe(seat), game.legal_actions(seat), rng))
    return to_record(game)


def _first(review: DealReview) -> object:
    first = review.decisions[0]
    assert first.trick == 1
    return first


def test_a_planted_blunder_is_flagged_and_the_right_card_is_not() -> None:
    ducked = review_deal(_deal("2H"), 1, 0, BUDGET)
    blunder = ducked.decisions[0]
    assert (blunder.trick, str(blunder.played), str(blunder.best)) == (1, "2H", "AH")
    assert blunder.flagged
    assert blunder.cost >= 0.5 and blunder.cost > 3 * blunder.error
    assert blunder.dd_cost is not None and blunder.dd_cost >= 1
    assert ducked.unit == "points" and ducked.decisions_cost >= blunder.cost

    won = review_deal(_deal("AH"), 1, 0, BUDGET)
    right = won.decisions[0]
    assert (right.trick, str(right.played)) == (1, "AH")
    assert not right.flagged and right.cost == 0 and right.dd_cost == 0
    assert str(right.best) == "AH"
    # the best card's single-dummy value is the review's expectation; par and the
    # average split the result into decisions and the lie of the cards
    assert won.expected == max(o.value for o in right.options)
    assert won.par is not None and won.average is not None and won.cards is not None


def test_a_review_is_reproducible_and_kept_as_json() -> None:
    record = _deal("2H")
    one = review_deal(record, 1, 0, BUDGET)
    again = review_deal(record, 1, 0, BUDGET)
    assert one == again  # seeded from the game's seed and each decision's index
    assert DealReview.from_json(one.to_json()).to_json() == one.to_json()


def test_an_unfinished_deal_cannot_be_reviewed() -> None:
    rules = make_rules("whist-5")
    game, _ = new_game("whist-5", seed=5, first_dealer=0, deck=stacked_deck(rules, 0, HANDS))
    game.apply(1, Play(Card.parse("KH")))
    with pytest.raises(ValueError):
        review_deal(to_record(game), 1, 0, BUDGET)


def test_the_options_ranked_in_a_deal_in_play_never_look_at_the_hidden_hands() -> None:
    """``rank_options``: hard's view of every card here, best first, no double-dummy figure."""
    rules = make_rules("whist-5")
    game, _ = new_game("whist-5", seed=5, first_dealer=0, deck=stacked_deck(rules, 0, HANDS))
    for seat, card in ((1, "KH"), (2, "2S"), (3, "AD")):
        game.apply(seat, play(Card.parse(card)))
    ranked = rank_options(game, 0, random.Random(3), BUDGET)
    assert ranked is not None
    unit, options, worlds = ranked
    assert unit == "points" and worlds >= BUDGET.worlds
    assert str(options[0].card) == "AH" and options[0].value > options[-1].value
    assert all(o.dd is None for o in options)


def _measured(low: float, high: float) -> tuple[float, float, bool]:
    """measure() on worlds where the card played loses ``low`` and ``high`` in turn
    against the other card: its cost, error and flag under the production budget."""
    from engine.ai import REVIEW_BUDGET
    from engine.ai.coach.review import measure

    drawn = [0]

    def sample(rng: random.Random) -> int:
        drawn[0] += 1
        return drawn[0]

    def evaluate(world: int, cands: list[int]) -> dict[int, float]:
        return {c: (high if world % 2 else low) if c == 0 else 0.0 for c in cands}

    found = measure(sample, evaluate, [0, 1], 1, 0.3, random.Random(0), REVIEW_BUDGET)
    assert found is not None and found.best == 0
    flagged = REVIEW_BUDGET.flags(found.cost, found.error, 0.3)
    return found.cost, found.error, flagged


def test_a_cost_its_own_sampling_error_could_bring_to_the_threshold_is_not_flagged() -> None:
    # 0.32 a deal on average, with an error of about 0.05: above the threshold, and more
    # than three errors above zero, yet within one error of the threshold
    cost, error, flagged = _measured(0.0, 0.64)
    assert 0.3 <= cost < 0.3 + error and cost > 3 * error
    assert not flagged
    # 0.6 on average: the threshold is several errors below it
    cost, error, flagged = _measured(0.2, 1.0)
    assert cost - error >= 0.3 and flagged


# Board 1 of the published whist-5 hard vs rules match (docs/arena/plays/, seed 1):
# North's second card (the log's fifth action), 9D, led to trick 2 after winning the
# first with the ace of diamonds
BOARD_1 = {
    "actions": [
        *("2 play:2D", "3 play:5D", "0 play:AD", "1 play:4D", "0 play:9D", "1 play:8D"),
        *("2 play:3D", "3 play:10D", "3 play:QC", "0 play:3C", "1 play:AC", "2 play:6C"),
        *("1 play:2C", "2 play:KC", "3 play:4C", "0 play:5C", "2 play:AS", "3 play:4S"),
        *("0 play:7S", "1 play:3S", "2 play:2S", "3 play:QS", "0 play:KS", "1 play:8S"),
        *("0 play:KH", "1 play:6H", "2 play:7H", "3 play:4H", "0 play:AH", "1 play:8H"),
        *("2 play:QH", "3 play:10H", "0 play:2H", "1 play:9H", "2 play:5S", "3 play:JH"),
        *("3 play:JC", "0 play:8C", "1 play:10S", "2 play:7C", "3 play:9C", "0 play:9S"),
        *("1 play:JD", "2 play:10C", "2 play:6S", "3 play:6D", "0 play:3H", "1 play:QD"),
        *("0 play:5H", "1 play:KD", "2 play:JS", "3 play:7D"),
    ],
    "first_dealer": 1,
    "format": "ruff-honours-game",
    "game_id": "whist-5",
    "overrides": {},
    "preset": "default",
    "seed": 1,
    "version": 2,
}


def test_the_best_card_named_is_the_one_of_the_best_value_among_the_options() -> None:
    """While in doubt the review scores only the best card so far and the one played on
    the worlds it adds. Here the best of the first 24 worlds (2H) falls back on the 96
    worlds that follow, below cards scored on the first 24 only (5H at 3.333, KH at
    3.0): the review used to name 2H best, below three options it listed above it, and
    to give 9D's cost against 2H. Every card whose mean beats the best's is now scored on
    the added worlds too: the card named best is the first option, the one of the best
    value, and the cost is measured against it."""
    from engine.ai import REVIEW_BUDGET
    from engine.ai.coach.records import decision_seed, position_before
    from engine.ai.coach.review import review_position

    game, seat = position_before(BOARD_1, 4)
    judged = review_position(
        game,
        seat,
        Card.parse("9D").index,
        random.Random(decision_seed(BOARD_1, 4)),
        REVIEW_BUDGET,
        4,
    )
    assert judged is not None
    d = judged.decision
    assert (d.trick, d.played) == (2, "9D")
    top = max(o.value for o in d.options)
    assert d.options[0].choice == d.best
    assert d.options[0].value == top
    values = [o.value for o in d.options]
    assert values == sorted(values, reverse=True)
    played = next(o for o in d.options if o.choice == d.played)
    assert d.cost == pytest.approx(top - played.value, abs=0.002)


def test_a_swing_the_first_worlds_missed_keeps_the_verdict_in_doubt() -> None:
    """Near a game's end one trick can win or lose the game (9 points). Here the card
    played costs 0.2 in every world and a whole game in one world of 25, which the first
    24 worlds happen not to hold: their own error (0: every difference the same) said
    the cost was 0.2 for sure, and the review stopped there, unflagged, though the card
    costs 0.56 a deal. Another card of the same worlds shows such a swing (it loses the
    game in world 3): a cost's error is now never taken below what one world not yet
    drawn could move it by, so the worlds are doubled until the swing shows."""
    from engine.ai import REVIEW_BUDGET
    from engine.ai.coach.review import measure

    drawn = [0]

    def sample(rng: random.Random) -> int:
        drawn[0] += 1
        return drawn[0]

    def evaluate(world: int, cands: list[int]) -> dict[int, float]:
        best = 0.2 + (9.0 if world % 25 == 0 else 0.0)
        values = {0: best, 1: 0.0, 2: best - 9.0 if world == 3 else 0.0}
        return {c: values[c] for c in cands}

    found = measure(sample, evaluate, [0, 1, 2], 1, 0.3, random.Random(0), REVIEW_BUDGET)
    assert found is not None and found.best == 0
    assert found.worlds > REVIEW_BUDGET.worlds
    assert found.cost - found.error >= 0.3
    assert REVIEW_BUDGET.flags(found.cost, found.error, 0.3)


@pytest.mark.parametrize(
    ("game_id", "seed", "actions", "seat", "card", "best"),
    [
        # Whisk (Cotton's 1674 rules), North's opening lead: 3S instead of AC loses
        # 0.65 ± 0.12 points on 256 fresh worlds (a game lost in one world of 21); the
        # review's first 24 worlds held no such world for this pair and said 0.08 ± 0.08
        ("whisk-48", 100050, [], 0, "3S", "AC"),
        # Whist for 7 rotating, East's lead to trick 4: 10S instead of 4C loses 0.61 ±
        # 0.11 on 256 fresh worlds; the first 24 said 0.17 ± 0.10
        (
            "whist-7-rotate",
            100016,
            [
                *("1 play:6S", "2 play:4S", "3 play:QS", "0 play:2S", "3 play:5D"),
                *("0 play:4D", "1 play:AD", "2 play:2D", "1 play:8S", "2 play:JS"),
                *("3 play:KS", "0 play:5S", "3 play:KD", "0 play:7D"),
            ],
            1,
            "10S",
            "4C",
        ),
    ],
)
def test_a_blunder_whose_cost_is_a_game_lost_in_a_few_worlds_is_flagged(
    game_id: str, seed: int, actions: list[str], seat: int, card: str, best: str
) -> None:
    """Two of the bench's planted blunders (issue #36) that the review missed: each
    costs more than half a point, most of it a game lost in a few worlds of 25."""
    from engine import decode_action
    from engine.ai import REVIEW_BUDGET
    from engine.ai.coach.records import decision_seed
    from engine.ai.coach.review import review_position

    game, _ = new_game(game_id, seed=seed)
    for entry in actions:
        s, _, text = entry.partition(" ")
        game.apply(int(s), decode_action(text))
    index = len(actions)
    judged = review_position(
        game,
        seat,
        Card.parse(card).index,
        random.Random(decision_seed({"seed": seed}, index)),
        REVIEW_BUDGET,
        index,
    )
    assert judged is not None
    d = judged.decision
    assert (d.played, d.best) == (card, best)
    assert d.flagged, d
    assert d.worlds > REVIEW_BUDGET.worlds
