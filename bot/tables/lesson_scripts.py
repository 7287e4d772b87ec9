"""The lessons as data: for each, a stacked deal and its steps, with their words.

A :class:`Lesson` names a game (id, preset, parameters), the deal (each hand, the
stock or head, the layouts: :func:`engine.stacked_deck`), the scores it starts
from and the learner's seat; its :class:`Step` s are played in order. A step of
the learner's asks a question (``text``) and accepts any of its ``answers``; the
explanation (``why``) follows a right answer, and a wrong one gets it too, with a
retry. A lay-out is one step of ``count`` cards chosen at once, as the game's menu
and **Confirm** lay them out (each one of the ``answers``). A step of another seat
plays its first answer and says ``text``. The words are marked for translation
(``N_``) and translated when shown.

Every number the words name is checked against the engine (tests/bot/test_lesson_scripts.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.present.i18n import N_
from engine import Game, decode_action, new_game, stacked_deck

__all__ = ["LESSONS", "Lesson", "Step", "lesson_named"]


@dataclass(frozen=True, slots=True)
class Step:
    """One action of the lesson's deal."""

    seat: int
    answers: tuple[
        str, ...
    ]  # the actions accepted (engine encoding); a scripted seat plays the first
    text: str  # the learner's question, or what another seat's action means
    why: str = ""  # the learner's step: why its answer is right
    offer: tuple[str, ...] = ()  # the learner's step: only these choices (else every legal one)
    count: int = 1  # the learner's lay-out: this many cards at once, each one of ``answers``


@dataclass(frozen=True, slots=True)
class Lesson:
    """A short scripted deal that teaches one thing."""

    name: str  # its name in ``/ruff lesson`` and in the ids of its buttons
    title: str
    game_id: str
    dealer: int
    hands: Mapping[int, tuple[str, ...]]
    steps: tuple[Step, ...]
    learned: str  # what the lesson taught, said at its end
    preset: str | None = None
    overrides: Mapping[str, str] = field(default_factory=dict)
    stock: tuple[str, ...] = ()
    layouts: Mapping[int, tuple[str, ...]] | None = None
    start_scores: tuple[int, ...] | None = None
    learner: int = 0

    def new_game(self) -> Game:
        """The lesson's deal, before any step (the same every time)."""
        from engine import make_rules

        rules = make_rules(self.game_id, self.preset, dict(self.overrides))
        deck = stacked_deck(rules, self.dealer, self.hands, self.stock, self.layouts)
        game, _ = new_game(
            rules=rules,
            seed=1,
            first_dealer=self.dealer,
            deck=deck,
            start_scores=self.start_scores,
        )
        return game

    def replay(self, actions: tuple[str, ...]) -> Game:
        """The deal after ``actions`` (as stored with the progress), the steps in order
        (a lay-out step's ``count`` actions in a row)."""
        game = self.new_game()
        k = 0
        for step in self.steps:
            for code in actions[k : k + step.count]:
                game.apply(step.seat, decode_action(code))
            k += step.count
            if k >= len(actions):
                break
        return game

    def actions_before(self, step: int) -> int:
        """How many actions the steps before ``step`` play."""
        return sum(s.count for s in self.steps[:step])


def _cards(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_LOW_SIDE_CARDS: tuple[str, ...] = (
    "discard:2C",
    "discard:3C",
    "discard:4C",
    "discard:2S",
    "discard:2H",
    "discard:3H",
    "discard:4H",
)

_LAY_OUT_WHY = N_(
    "A low card of a side suit is the cheapest to lose: lay out cards below the 5 outside "
    "trumps, and keep your trumps, the honours (A K Q J of trumps) and your aces."
)

RUFF_AND_HONOURS = Lesson(
    name="ruff-and-honours",
    title=N_("Cotton's ruff, honours and Can-ye"),
    game_id="ruff-honours-cotton",
    dealer=3,
    start_scores=(8, 4),
    hands={
        0: _cards("AD 9D AS KS QS 2S AH 3H 2H 4C 3C 2C"),
        1: _cards("KD 10D 8D JS 10S 9S KH QH JH KC QC JC"),
        2: _cards("JD 6D 5D 8S 7S 6S 10H 9H 8H 10C 9C 8C"),
        3: _cards("4D 3D 2D 5S 4S 3S 7H 6H 5H 7C 6C 5C"),
    },
    stock=_cards("7D QD AC 4H"),
    steps=(
        Step(
            0,
            ("take",),
            N_(
                "The turn-up 7♦ makes diamonds trumps, and you hold the A♦, the ace of trumps: "
                "the ruff is yours. Take the stock, or decline it?"
            ),
            N_(
                "Take it: the four stock cards (the 7♦ turn-up among them) join your hand, and "
                "then you lay out any four. You can only gain."
            ),
        ),
        Step(
            0,
            _LOW_SIDE_CARDS,
            N_("You hold 16 cards and lay out four, face down. Which four?"),
            _LAY_OUT_WHY,
            count=4,
        ),
        Step(
            0,
            ("canye",),
            N_(
                "North–South stand at 8 of 9, so before the first lead you may ask your partner "
                "“Can-ye?”. You hold two honours, the A♦ and the Q♦. Call, or pass?"
            ),
            N_(
                "Call: with exactly two honours at 8 you ask “Can-ye?”. South holds the J♦ and "
                "answers, your side shows three honours and wins the game at once, 9–4, "
                "without playing a card."
            ),
        ),
    ),
    learned=N_(
        "The holder of the ace of trumps ruffs: he takes the four stock cards and lays out four. "
        "The honours are the A K Q J of trumps: after the tricks are scored, three honours "
        "score 2 points and four score 4. A side at 8 wins at once with Can-ye: two honours "
        "in one hand and one in the partner's (three in one hand are simply shown)."
    ),
)

RUFFE_AND_TRUMP = Lesson(
    name="ruffe-and-trump",
    title=N_("Ruffe and Trump: the ruff contest and the rub"),
    game_id="ruff-trump-willughby",
    overrides={"ruff_announce": "declared"},
    dealer=3,
    hands={
        0: _cards("AS KS 9S 4S QH JH 10H 9H 8H 5D 2C 3C"),
        1: _cards("KD QD 10D 9D 3D AC KC 7S 6S 2H 3H 4H"),
        2: _cards("AD 8D 7D 6D QC JC 10C 9C 8S 5S 5H 6H"),
        3: _cards("4D JD 2D 8C 7C 6C 5C 4C 3S 2S 7H KH"),
    },
    stock=_cards("10S AH JS QS"),
    steps=(
        Step(
            0,
            ("ruffval:47",),
            N_(
                "Before the rub each player declares his ruff: the value of his best suit, the "
                "ace 11, king, queen, knave and ten 10 each, the others at face value; the "
                "turned-up 10♠ counts in trumps for everyone. What is your ruff?"
            ),
            N_(
                "Hearts: 10 + 10 + 10 + 9 + 8 = 47. Spades: 11 + 10 + 9 + 4 and the 10♠ turn-up "
                "= 44. Your ruff is 47, in hearts."
            ),
            offer=("ruffval:34", "ruffval:44", "ruffval:47"),
        ),
        Step(1, ("ruffval:42",), N_("East declares 42.")),
        Step(2, ("ruffval:39",), N_("South, your partner, declares 39.")),
        Step(3, ("ruffval:30",), N_("West declares 30.")),
        Step(
            0,
            ("take",),
            N_(
                "Your 47 is the highest ruff: it wins 12 points for your side once you show "
                "your hearts after the rub. Now the rub: you hold the A♠, the ace of trumps, "
                "so you may take the top four cards of the head, the 10♠ among them. Take them?"
            ),
            N_("Take them: four more cards to choose from, and then you lay out four."),
        ),
        Step(
            0,
            ("discard:2C", "discard:3C", "discard:5D", "discard:4S"),
            N_("Lay out four cards. Which four?"),
            N_(
                "Lay out the cards least likely to win, the 2♣, 3♣, 5♦ and 4♠, and keep your "
                "hearts: you show them after the rub to prove your ruff."
            ),
            count=4,
        ),
    ),
    learned=N_(
        "In Ruffe and Trump the “ruff” is a contest of the strongest suit (ace 11, king, "
        "queen, knave and ten 10, the rest at face value, the turn-up counting in trumps); "
        "the best ruff scores 12 for its side before play. The holder of the ace of trumps "
        "rubs: he takes the top four cards of the head and lays out four. In the play every "
        "card your side wins over 24 scores a point (7 tricks are 28 cards: 4 points), and "
        "the first side to 52 wins."
    ),
)

TURNOVER_LAYOUTS = Lesson(
    name="turnover-layouts",
    title=N_("Turnover Bridge: the layouts"),
    game_id="turnover-bridge",
    dealer=1,
    hands={
        0: _cards("AS KS QS 9S 8S 7D 4D 3D"),
        1: _cards("2S 3S 4S JH 5C KD QD JD"),
    },
    layouts={
        0: _cards("2H 2D 5D 6D 8D 9D 10H 9H 8H AH KC QC JC 10C 9C 8C 7C 6C"),
        1: _cards("QH KH 7H 6H 5H 4H 3H 10D AD 2C 3C 4C AC 10S JS 5S 6S 7S"),
    },
    steps=(
        Step(
            0,
            ("play:AH",),
            N_(
                "You lead. You may play from your hand and the face-up cards of your layout; "
                "the face-down cards beneath are not yours to play yet. Which card of your "
                "layout wins this trick for sure?"
            ),
            N_(
                "The A♥: a face-up layout card plays like a card in your hand. Once it is "
                "played, the card beneath it turns face up."
            ),
        ),
        Step(
            1,
            ("play:JH",),
            N_(
                "South follows with the J♥, the only heart South can play. Your A♥ wins, and "
                "the 2♥ beneath it turns face up: you may play it from the next trick."
            ),
        ),
        Step(
            0,
            ("play:2H",),
            N_("Lead the 2♥ that just turned up, and watch what South can do."),
            N_(
                "South's other hearts lie face down: they do not count, so South is void in "
                "hearts and may trump."
            ),
        ),
        Step(
            1,
            ("play:2S",),
            N_("South trumps with the 2♠ (spades are trumps) and wins the trick."),
        ),
        Step(1, ("play:5C",), N_("South leads the 5♣.")),
        Step(
            0,
            ("play:6C",),
            N_(
                "You have no club in your hand, but clubs lie face up on your layout: they "
                "count, so you must follow suit. Which club?"
            ),
            N_("The 6♣: it wins as cheaply as possible and keeps your higher clubs."),
        ),
    ),
    learned=N_(
        "In Turnover Bridge you play from your hand and the face-up cards of your layout; a "
        "layout card played turns up the one beneath, which you may play from the next "
        "trick; face-down cards do not count for following suit; spades are trumps. The deal "
        "ends as soon as one player has 14 of the 26 tricks."
    ),
)

SOLO_AUCTION = Lesson(
    name="solo-auction",
    title=N_("The Solo Whist auction"),
    game_id="solo-whist",
    dealer=3,
    hands={
        0: _cards("AH KH QH JH 10H AS KS 2C 3C 4C 2D 3D 4D"),
        1: _cards("9H 8H AC KC QC JC AD KD QD JD 10S 9S 8S"),
        2: _cards("2S 3S 4S 5S 6S 5C 6C 7C 5D 6D 7D 3H 4H"),
        3: _cards("QS JS 7S 10C 9C 8C 10D 9D 8D 7H 6H 5H 2H"),
    },
    steps=(
        Step(
            0,
            ("bid:solo",),
            N_(
                "In Solo Whist each plays for himself; the dealer's turned-up 2♥ marks the "
                "trump suit of Solo. You are eldest and call first: pass, or a contract higher "
                "than the last. With hearts as trumps count your sure tricks: the A K Q of "
                "hearts, two more for five trumps, the A K of spades. What do you call?"
            ),
            N_(
                "Solo: you undertake 5 of the 13 tricks alone, hearts trumps, and you count "
                "about six and a half. Propose needs a partner to accept and 8 tricks for the "
                "two; Abundance needs 9."
            ),
        ),
        Step(1, ("bid:pass",), N_("East passes.")),
        Step(
            2,
            ("bid:mis",),
            N_("South calls Misère: to lose every trick, with no trumps. Misère ranks above Solo."),
        ),
        Step(3, ("bid:pass",), N_("West passes.")),
        Step(
            0,
            ("bid:pass",),
            N_(
                "South's Misère outranks your Solo. To stay in you must call higher: Abundance "
                "(9 tricks alone, trumps of your choice) or more. Pass, or raise?"
            ),
            N_("Pass: six and a half sure tricks are far from the 9 that Abundance needs."),
        ),
    ),
    learned=N_(
        "The calls rank Propose and Accept (8 tricks for two), Solo (5 alone), Misère (no "
        "trick), Abundance (9 alone, trumps of your choice), Royal Abundance (9, the "
        "turn-up suit), Spread Misère (no trick, the hand shown) and Slam (all 13); each call "
        "must outrank the last, and a player who was overcalled may raise on his next turn. "
        "South now plays Misère: if South takes no trick, each of you pays South 3 (+9); "
        "if South takes one, South pays each of you 3."
    ),
)

LESSONS: tuple[Lesson, ...] = (RUFF_AND_HONOURS, RUFFE_AND_TRUMP, TURNOVER_LAYOUTS, SOLO_AUCTION)
"""Every lesson, in the order they are offered."""


def lesson_named(name: str) -> Lesson | None:
    return next((lesson for lesson in LESSONS if lesson.name == name), None)
