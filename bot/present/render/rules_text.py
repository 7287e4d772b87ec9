"""The rules summary (``/ruff rules``) in the reader's language.

The engine describes a game's rules in English lines (``Rules.describe``) and
never translates. Each line is translated here by its *shape*: the numbers of
the line become ``{0}``, ``{1}`` … and the shape is looked up in the
catalogue (``Game is {0}.``), so every preset and target of a game is covered
by one entry; the title line keeps the game's name (a proper name) and the
suit lines are put together from the suits' names. A line of a shape not known
here (a new rule option) is shown as the engine wrote it; the list is made from
every preset of every game, and ``tests/bot/test_i18n.py`` fails when a preset's
line is missing.
"""

from __future__ import annotations

import re

from bot.present.i18n import N_, _
from bot.present.render.common import SUIT_NAMES
from engine import Rules

__all__ = ["RULE_SHAPES", "rule_line", "rules_lines", "shape_of"]

RULE_SHAPES = frozenset(
    (
        N_("A Spread Misère hand is shown after the first trick."),
        N_("A side at {0} cannot score honours."),
        N_(
            "At {0}, a player with two honours may call Can-ye; if partner holds one, the side wins. Three honours shown win outright."
        ),
        N_("Best of three games."),
        N_("Downtown, low cards win and the ace is high (A, {0}, {1} … K)."),
        N_("Each deal is a game."),
        N_(
            "Each for himself. Eldest bids first; pass or bid higher: Propose (accept to partner, {0} tricks together), Solo ({1}), Misère (none, no trumps), Abundance ({2}, your trumps), Abundance in Trump ({3}), Spread Misère (none, hand shown), Slam (all {4}, you lead)."
        ),
        N_("Each opponent pays the declarer the value (or is paid it if he fails)."),
        N_("Each side scores the cards won in tricks over {0} (par)."),
        N_("Eldest leads; follow suit if you can, trumping is never forced; aces high."),
        N_("First to {0} wins (checked after the ruff and after each deal; a tie plays on)."),
        N_("Follow suit if you can; trumping is never forced. {0} point per trick over six."),
        N_("Game is {0}."),
        N_("Game is {0}; a side at minus {1} loses."),
        N_("Honours (A K Q J of trumps, captured): {0} honours = {1}, {2} honours = {3}."),
        N_("Honours (A K Q J of trumps, dealt): {0} honours = {1}, {2} honours = {3}."),
        N_("Honours (A K Q J of trumps, held after ruff): {0} honours = {1}, {2} honours = {3}."),
        N_("Honours cannot win the game."),
        N_("If all pass, the next dealer deals."),
        N_("If the first three pass, the dealer must bid."),
        N_("Jokers are the top trumps (Big above Little); in no trump they never win a trick."),
        N_("Made: books over six; set: minus the bid; no trump counts double."),
        N_(
            "One round of bids from eldest to the dealer: {0} to {1} books over six, uptown, downtown or no trump; at equal numbers downtown beats uptown and no trump beats both."
        ),
        N_("Slam is played without trumps."),
        N_("The dealer's last card is turned for trumps and stays in that hand."),
        N_(
            "The declarer names trumps (in no trump: uptown or downtown) before taking the kitty, then lays out as many cards: they count as his side's first book."
        ),
        N_("The first to {0} tricks wins the deal (a point); {1}-{2} is drawn."),
        N_(
            "The holder of the trump ace ruffs: takes the stock and lays out four cards (compulsory)."
        ),
        N_(
            "The holder of the trump ace ruffs: takes the stock and lays out four cards (optional)."
        ),
        N_("The non-dealer leads first, then the winner of each trick; {0} tricks a deal."),
        N_(
            "The rub: the holder of the trump ace (or the dealer if the ace is turned up or lies in the head) takes the head's top four and lays out four (optional)."
        ),
        N_(
            "The ruff: your strongest suit, by the number of its cards, the turn-up counting in trumps; the best wins {0} (a tie goes to the first from eldest). Each player's ruff is counted and announced at once."
        ),
        N_(
            "The ruff: your strongest suit, by the pips of its cards (ace {0}, K Q J {1} ten each, the rest face value), the turn-up counting in trumps; the best wins {2} (a tie goes to the first from eldest). Each player's ruff is counted and announced at once."
        ),
        N_("Top card of the stock is turned: its suit is trumps."),
        N_(
            "Values: Propose and Accept {0}, Solo {1}, Misère {2}, Abundance {3}, Abundance in Trump {4}, Spread Misère {5}, Slam {6}, ±{7} a trick over or under."
        ),
        N_(
            "Values: Propose and Accept {0}, Solo {1}, Misère {2}, Abundance {3}, Abundance in Trump {4}, Spread Misère {5}, Slam {6}."
        ),
        N_(
            "You may play from your hand or a face-up card of your layout; follow suit from these if you can. Playing a layout card turns up the card beneath: everyone sees it at once, you may play it from the next trick."
        ),
        N_("{0} cards, {1} each; the dealer's last card is turned: its suit is the turn-up suit."),
        N_(
            "{0} players, partners opposite (double hand); {1} cards each in fours, the other {2} are the head, its top card turned for trumps."
        ),
        N_(
            "{0} players, {1} cards: each has {2} face-down cards, each covered by a face-up card (rows of {3} and {4}), and an {5}-card hand."
        ),
        N_(
            "{0} players, {1} cards: each has {2} face-down cards, each covered by a face-up card (rows of {3} and {4}), and {5} hole cards."
        ),
        N_("{0}-card pack with the Big and Little Joker, {1} cards each, {2}-card kitty."),
        N_("{0}-card pack, {1} cards each"),
        N_("{0}-card pack, {1} cards each, {2}-card stock"),
    )
)
"""Every shape of a rules line the engine writes (numbers as ``{0}``, ``{1}`` …)."""

_NUMBER = re.compile(r"\d+")
_TITLE = re.compile(r"(?P<title>.+) — preset `(?P<preset>[^`]+)`")
_TRUMP_SUIT = re.compile(r"(?P<suit>Spades|Hearts|Diamonds|Clubs) are trumps\.")
_ROTATE = "Trumps rotate each deal: "


def shape_of(line: str) -> tuple[str, list[str]]:
    """``("Game is {0}.", ["7"])`` for ``"Game is 7."``: the line's shape and its numbers."""
    numbers: list[str] = []

    def hole(match: re.Match[str]) -> str:
        numbers.append(match.group())
        return "{" + str(len(numbers) - 1) + "}"

    return _NUMBER.sub(hole, line), numbers


def _suit(name: str) -> str:
    code = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}.get(name.lower())
    if code is None:
        return _("no trumps") if name == "no trumps" else name
    return SUIT_NAMES.get(code, name)


def rule_line(line: str) -> str:
    """One line of :meth:`engine.Rules.describe` in the language of the moment."""
    title = _TITLE.fullmatch(line)
    if title is not None:
        return _("{title} — preset `{preset}`").format(title=title["title"], preset=title["preset"])
    trump = _TRUMP_SUIT.fullmatch(line)
    if trump is not None:
        suit = _suit(trump["suit"])
        return _("{suit} are trumps.").format(suit=suit[:1].upper() + suit[1:])
    if line.startswith(_ROTATE) and line.endswith("."):
        names = ", ".join(_suit(n) for n in line[len(_ROTATE) : -1].split(", "))
        return _("Trumps rotate each deal: {suits}.").format(suits=names)
    shape, numbers = shape_of(line)
    if shape in RULE_SHAPES:
        return _(shape).format(*numbers)
    return line


def rules_lines(rules: Rules) -> list[str]:
    """The rules summary of ``rules``, line by line, in the language of the moment."""
    return [rule_line(line) for line in rules.describe()]
