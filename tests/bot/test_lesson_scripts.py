"""The lessons' scripts against the engine: every step is legal in its stacked deal, and
every number the explanations say is the engine's (RULES.md)."""

from __future__ import annotations

import random

import pytest

from bot.tables.lesson_scripts import LESSONS, Lesson, lesson_named
from engine import Card, Game, Play, Suit, decode_action, parse_cards
from engine.ai import get_player
from engine.ai.strategies.conventional import estimated_tricks
from engine.families.solo import TARGETS
from engine.phases.contest import best_suit
from engine.view import facts_of


def _lesson(name: str) -> Lesson:
    lesson = lesson_named(name)
    assert lesson is not None
    return lesson


def _through(lesson: Lesson) -> Game:
    """The lesson's deal after every step, each the first of its answers still legal."""
    game = lesson.new_game()
    for step in lesson.steps:
        for _ in range(step.count):
            legal = game.legal_actions(step.seat)
            code = next(c for c in step.answers if decode_action(c) in legal)
            game.apply(step.seat, decode_action(code))
    return game


def _mask(cards: str) -> int:
    mask = 0
    for card in parse_cards(cards):
        mask |= card.bit
    return mask


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.name)
def test_every_step_is_legal_and_every_answer_plays(lesson: Lesson) -> None:
    game = lesson.new_game()
    played: list[str] = []
    for k, step in enumerate(lesson.steps):
        assert game.to_act() == step.seat, (k, game.phase)
        legal = game.legal_actions(step.seat)
        assert step.text and (step.seat != lesson.learner or step.why)
        assert all(decode_action(code) in legal for code in step.offer)
        legal_answers = [code for code in step.answers if decode_action(code) in legal]
        assert legal_answers, (k, step.answers)
        if step.seat == lesson.learner:
            wrong = [a for a in legal if a.encode() not in step.answers]
            assert wrong or len(legal) == 1 or step.offer, k  # a wrong answer is possible
        else:
            assert step.count == 1, k  # the script plays one action a step
        if step.count > 1:  # a lay-out: every card at once, as the game's menu and Confirm
            assert game.observe(step.seat).to_lay_out == step.count, k
            assert len(step.answers) >= step.count, k
        for _ in range(step.count):
            legal = game.legal_actions(step.seat)
            code = next(c for c in step.answers if decode_action(c) in legal)
            game.apply(step.seat, decode_action(code))
            played.append(code)
    assert lesson.replay(tuple(played)).state_key() == game.state_key()
    assert len({lesson.name for lesson in LESSONS}) == len(LESSONS)


def test_ruff_and_honours_numbers() -> None:
    lesson = _lesson("ruff-and-honours")
    game = lesson.new_game()
    rules = game.rules
    view = game.observe(0)
    assert view.turn_up == Card.parse("7D") and view.trump is Suit.DIAMONDS
    assert Card.parse("AD") in view.hand and view.ruffer == 0  # the ace of trumps ruffs
    assert rules.call_point == 8 and rules.target_score == 9  # "8 of 9"
    assert dict(rules.honours_values) == {3: 2, 4: 4}  # "three score 2 and four score 4"
    assert rules.score_order == "tricks_then_honours"  # "after the tricks are scored"
    game = _through(lesson)
    assert game.is_over and game.observe(0).scores == (9, 4)  # "wins the game at once, 9–4"
    assert game.match_winner == 0


def test_ruffe_and_trump_numbers() -> None:
    lesson = _lesson("ruffe-and-trump")
    game = lesson.new_game()
    rules = game.rules
    turn_up = game.observe(0).turn_up
    assert turn_up == Card.parse("10S") and game.observe(0).trump is Suit.SPADES
    hand = " ".join(lesson.hands[0])
    assert best_suit(_mask(hand), turn_up, Suit.SPADES, "pip_sum") == (47, Suit.HEARTS)
    spades = " ".join(c for c in lesson.hands[0] if c.endswith("S"))
    assert best_suit(_mask(spades), turn_up, Suit.SPADES, "pip_sum") == (44, Suit.SPADES)
    assert best_suit(_mask(spades), None, Suit.SPADES, "pip_sum") == (34, Suit.SPADES)
    for seat, said in ((1, 42), (2, 39), (3, 30)):  # the others declare their true ruffs
        value, _ = best_suit(_mask(" ".join(lesson.hands[seat])), turn_up, Suit.SPADES, "pip_sum")
        assert value == said
    assert rules.ruff_bonus == 12 and rules.target_score == 52
    assert rules.ruff_measure == "pip_sum"
    game = _through(lesson)
    assert game.observe(0).scores == (12, 0)  # "North–South score 12 before a card is played"
    # "every card over 24 scores a point: 7 tricks are 28 cards, 4 points"
    assert 7 * 4 - rules.tricks_per_deal * 4 // 2 == 4


def test_turnover_numbers() -> None:
    lesson = _lesson("turnover-layouts")
    game = lesson.new_game()
    assert game.rules.trump_mode == "spades" and game.observe(0).trump is Suit.SPADES
    assert facts_of(game.rules).stop_tricks == 14 and game.rules.tricks_per_deal == 26
    assert Card.parse("AH") not in game.observe(0).hand  # the A♥ lies on the layout
    game.apply(0, Play(Card.parse("AH")))
    # "the J♥, the only heart South can play"
    hearts = {a.card for a in game.legal_actions(1) if isinstance(a, Play)}
    assert hearts == {Card.parse("JH")}
    game.apply(1, Play(Card.parse("JH")))
    pile = game.observe(0).layouts[0][0]
    assert pile.up == Card.parse("2H")  # the 2♥ turned up
    game.apply(0, Play(Card.parse("2H")))
    # South's hearts lie face down: any card may be played
    assert Play(Card.parse("2S")) in game.legal_actions(1)
    assert Play(Card.parse("KD")) in game.legal_actions(1)


def test_solo_auction_numbers() -> None:
    lesson = _lesson("solo-auction")
    game = lesson.new_game()
    view = game.observe(0)
    assert view.turn_up == Card.parse("2H") and view.eldest == 0
    assert estimated_tricks(view.hand, Suit.HEARTS) == 6.5  # "about six and a half"
    assert TARGETS["solo"] == 5 and TARGETS["abund"] == 9 and TARGETS["prop"] == 8
    assert TARGETS["slam"] == 13 and TARGETS["mis"] == 0
    game = _through(lesson)
    after = game.observe(0)
    assert after.contract == "mis" and after.declarer == 2 and after.trump is None
    player, rng = get_player("easy"), random.Random(0)
    while game.deal_no == 1 and not game.is_over:
        seat = game.to_act()
        assert seat is not None
        game.apply(seat, player.choose(game.observe(seat), game.legal_actions(seat), rng))
    scores = game.observe(0).scores
    assert scores in ((-3, -3, 9, -3), (3, 3, -9, 3))  # "+9", or "South pays each of you 3"
