"""The card-choice model of the others (engine.ai.search.policy), learned from the arena's plays
(tools.learn_policy), and the trial level ``hard-policy`` that weighs its worlds by it."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

from engine import Game, decode_action
from engine.ai.coach.records import start_of
from engine.ai.levels import HARD, POLICY_WEIGHTS, profile
from engine.ai.search.policy import FEATURES, log_likelihood, play_history
from engine.ai.strategies.partnership import PartnershipStrategy
from tools.learn_policy import examples, fit

PLAYS = Path(__file__).parents[2] / "docs/arena/plays/whist-5-hard-vs-pimc.jsonl.gz"


def _held_out(count: int) -> list[dict[str, object]]:
    """Records of boards the weights were not learned from (seeds above 500)."""
    out = []
    with gzip.open(PLAYS, "rt", encoding="utf-8") as fh:
        for line in fh:
            play = json.loads(line)
            if int(play["seed"]) > 500:
                out.append(play["record"])
            if len(out) == count:
                break
    return out


def _position(record: dict[str, object], actions: int) -> Game:
    game = start_of(record)
    for entry in record["actions"][:actions]:  # type: ignore[index]
        seat_text, _, text = str(entry).partition(" ")
        game.apply(int(seat_text), decode_action(text))
    return game


def test_the_model_weighs_the_deal_as_it_lay_above_most_deals_the_seat_could_not_rule_out() -> None:
    """Mid-deal on boards the model never saw, the real deal explains the others' cards
    better than most of the worlds hard samples there: hard-policy's worlds lean to it."""
    level = profile("hard-policy")
    assert level.policy == POLICY_WEIGHTS and len(POLICY_WEIGHTS) == len(FEATURES)
    rng = random.Random(1)
    shares = []
    for record in _held_out(12):
        game = _position(record, rng.randrange(12, 40))
        seat = game.to_act()
        assert seat is not None
        strategy = PartnershipStrategy(game.observe(seat), level)
        worlds = strategy.worlds(rng)
        weights = [next(worlds)[1] for _ in range(48)]
        true_weight = strategy.policy_weight(strategy.true_world(game))
        shares.append(sum(w < true_weight for w in weights) / len(weights))
    assert sum(shares) / len(shares) > 0.75
    # hard itself weighs every world alike (its hints reject worlds, they do not weigh them)
    plain = PartnershipStrategy(game.observe(seat), HARD)
    assert {next(plain.worlds(rng))[1] for _ in range(8)} == {1.0}


def test_the_likelihood_of_a_deal_is_the_models_chance_of_each_card_from_the_hand_it_came_from() -> (
    None
):
    """play_history and log_likelihood give each card of the others back to the hand it
    was played from: on the real deal, their sum is the model's chance of every card of
    the other seats, each taken from the game as it stood (tools.learn_policy's
    examples); the seat's own cards, and cards without a choice, are left out."""
    import numpy as np

    record = _held_out(2)[1]
    game = _position(record, 30)
    seat = game.to_act()
    assert seat is not None
    seats, cards, decisions = play_history(game.observe(seat))
    assert len(cards) == 30 and {d.seat for d in decisions} == {0, 1, 2, 3} - {seat}
    trump = game.trump.order if game.trump is not None else 4
    ll = log_likelihood(
        POLICY_WEIGHTS, list(game.hands[:4]), seats, cards, decisions, trump, game.side_of
    )
    cut = {**record, "actions": record["actions"][:30]}  # type: ignore[index]
    expected = 0.0
    chosen_count = 0
    for rows, chosen in examples(cut, {0, 1, 2, 3} - {seat}):
        z = np.array(rows) @ np.array(POLICY_WEIGHTS)
        expected += float(z[chosen] - z.max() - np.log(np.exp(z - z.max()).sum()))
        chosen_count += 1
    assert 0 < chosen_count < len(decisions)  # some cards had no choice
    assert ll < 0 and abs(ll - expected) < 1e-9


def test_the_learner_recovers_how_a_player_chooses() -> None:
    """Fitted on hard's and pimc's cards of ten boards, the model predicts them far better
    than a uniform choice among the legal cards."""
    data = []
    for record in _held_out(10):
        data.extend(examples(record, {0, 1, 2, 3}))
    weights = fit(data, 1.0)
    import math

    import numpy as np

    right = 0
    for rows, chosen in data:
        z = np.array(rows) @ weights
        right += int(np.argmax(z) == chosen)
        assert math.isfinite(float(z.max()))
    uniform = sum(1 / len(rows) for rows, _ in data)
    assert right > 1.5 * uniform


def test_resampled_worlds_come_unweighted_and_hard_policy_is_hard_where_nobody_has_played() -> None:
    from dataclasses import replace

    record = _held_out(3)[2]
    game = _position(record, 20)
    seat = game.to_act()
    assert seat is not None
    level = replace(profile("hard-policy"), policy_temper=1.0, policy_draws=4)
    drawn = PartnershipStrategy(game.observe(seat), level).worlds(random.Random(2))
    assert {next(drawn)[1] for _ in range(8)} == {1.0}
    # before the first card there is nothing to explain: every world weighs the same
    start = _position(record, 0)
    leader = start.to_act()
    assert leader is not None
    weighed = PartnershipStrategy(start.observe(leader), profile("hard-policy")).worlds(
        random.Random(2)
    )
    assert {next(weighed)[1] for _ in range(8)} == {1.0}
