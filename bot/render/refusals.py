"""The engine's refusals in the reader's language.

The engine explains an illegal action in English (``IllegalAction.reason``) and
never translates. The bot shows a refusal only when a click raced a change or
an old button was pressed (the buttons offer legal actions only), so it
translates the engine's texts here when the refusal is shown: the fixed ones
by exact match, the few with a card or a number by pattern. A text not known
here is shown as the engine wrote it (a new engine text: add it below, then
``python -m bot.i18n update``; ``tests/bot/test_i18n.py`` lists every engine
refusal that is missing).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..i18n import N_, TextMap, _, ngettext

__all__ = ["REFUSALS", "reason_text"]

REFUSALS = TextMap({
    text: text
    for text in (
        N_("A no-trump bid names uptown or downtown, not trumps."),
        N_("A suit bid names the trump suit."),
        N_("Can-ye needs exactly two honours in your hand."),
        N_("Everyone else passed: the dealer must bid."),
        N_("In no trump your jokers must be laid out first."),
        N_("It is not your turn to bid."),
        N_("It is not your turn to declare your ruff."),
        N_("It is not your turn to declare."),
        N_("It is not your turn."),
        N_("Just play a card to let the call go."),
        N_("Nobody accepted: convert your proposal to Solo, or pass."),
        N_("Only the declarer lays out the kitty."),
        N_("Only the declarer names the contract."),
        N_("Only the declarer names trumps, once the auction is over."),
        N_("Only the declarer names trumps."),
        N_("Only the holder of the trump ace may ruff."),
        N_("Only the next player may accept the proposal."),
        N_("Only the ruffer lays out cards."),
        N_("Play a card."),
        N_("Showing needs three or four honours."),
        N_("That card cannot be played now."),
        N_("The auction is over."),
        N_("The ruff is compulsory in this game."),
        N_("There is no bidding now."),
        N_("There is no proposal to accept."),
        N_("There is no ruff to decide now."),
        N_("There is no ruff to declare now."),
        N_("There is no such seat."),
        N_("There is nothing to lay out now."),
        N_("There is nothing to name now."),
        N_("This game is over."),
        N_("Wait: honours are being declared."),
        N_("Wait: the auction is on."),
        N_("Wait: the bidding is under way."),
        N_("Wait: the declarer is laying out the kitty."),
        N_("Wait: the declarer is naming the contract."),
        N_("Wait: the declarer is naming trumps."),
        N_("Wait: the ruff is being decided."),
        N_("Wait: the ruffer is laying out four cards."),
        N_("Wait: the ruffs are being declared."),
        N_("You cannot call honours now."),
        N_("You cannot do that now."),
        N_("You have passed: you may only accept the proposal or pass."),
        # claims and concessions (engine/claims.py)
        N_("A claim is waiting for answers: nobody may play until it is settled."),
        N_("A claim is waiting for answers: answer it first."),
        N_("A claim is already waiting for answers."),
        N_("A concession is waiting for an answer."),
        N_("A concession is already waiting for an answer."),
        N_("Conceding needs two sides: this game is played each for himself."),
        N_("There is no claim to answer now."),
        N_("There is no concession to answer now."),
        N_("Only the claimer's opponents answer a claim."),
        N_("You have already accepted this claim."),
        N_("Only the proposer's partner answers a concession."),
        N_("You can claim only during the play of the cards."),
        N_("You can claim only on your turn."),
        N_("Call or pass the honours first (play a card), then claim."),
        N_("Nobody may claim in a general misère."),
        N_("That is not a number of tricks."),
    )
})
"""Every fixed refusal of the engine, English -> the language of the moment."""

RULE_REFUSALS = TextMap({
    text: text
    for text in (
        N_("trump_cycle must name at least one suit or NT"),
        N_("the ruff needs a four-card stock"),
        N_("scoring=odd_tricks needs stop_at_majority=false (every trick counts)"),
    )
})
"""The fixed texts of the rules' refusals (``engine.RulesError``)."""


def _patterns() -> list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]]:
    return [
        (
            re.compile(r"You must follow suit: you hold (?P<suit>\S+)\."),
            lambda m: _("You must follow suit: you hold {suit}.").format(suit=m["suit"]),
        ),
        (
            re.compile(r"(?P<card>\S+) is not in your hand\."),
            lambda m: _("{card} is not in your hand.").format(card=m["card"]),
        ),
        (
            re.compile(r"(?P<card>\S+) is face down in your layout: it is not available yet\."),
            lambda m: _("{card} is face down in your layout: it is not available yet.").format(card=m["card"]),
        ),
        (
            re.compile(r"(?P<card>\S+) was turned up this trick: you may play it from the next trick\."),
            lambda m: _("{card} was turned up this trick: you may play it from the next trick.").format(card=m["card"]),
        ),
        (
            re.compile(r"(?P<card>\S+) is in your opponent's layout\."),
            lambda m: _("{card} is in your opponent's layout.").format(card=m["card"]),
        ),
        (
            re.compile(r"A ruff is worth 0 to (?P<n>\d+)\."),
            lambda m: _("A ruff is worth 0 to {n}.").format(n=m["n"]),
        ),
        (
            re.compile(r"There (is|are) only (?P<n>\d+) tricks? left to claim\."),
            lambda m: ngettext(
                "There is only {n} trick left to claim.", "There are only {n} tricks left to claim.", int(m["n"])
            ).format(n=m["n"]),
        ),
        (
            re.compile(r"Here everyone plays for himself: claim all (?P<n>\d+) remaining tricks or none\."),
            lambda m: _("Here everyone plays for himself: claim all {n} remaining tricks or none.").format(n=m["n"]),
        ),
        (
            re.compile(r"Bids run from (?P<low>\d+) to (?P<high>\d+)\."),
            lambda m: _("Bids run from {low} to {high}.").format(low=m["low"], high=m["high"]),
        ),
        # the rules' refusals of /ruff new options (engine.RulesError); the names and
        # values they quote are the options' own and stay as they are
        (
            re.compile(r"bad value (?P<value>.+) for (?P<spec>[a-z_]+: .+)", re.S),
            lambda m: _("bad value {value} for {spec}").format(value=m["value"], spec=m["spec"]),
        ),
        (
            re.compile(r"unknown parameter (?P<name>.+) for (?P<game>\S+) \(known: (?P<known>.*)\)", re.S),
            lambda m: _("unknown parameter {name} for {game} (known: {known})").format(
                name=m["name"], game=m["game"], known=m["known"]
            ),
        ),
        (
            re.compile(r"unknown preset (?P<name>.+) for (?P<game>\S+) \(known: (?P<known>.*)\)", re.S),
            lambda m: _("unknown preset {name} for {game} (known: {known})").format(
                name=m["name"], game=m["game"], known=m["known"]
            ),
        ),
        (
            re.compile(r"unknown game (?P<name>.+) \(known: (?P<known>.*)\)", re.S),
            lambda m: _("unknown game {name} (known: {known})").format(name=m["name"], known=m["known"]),
        ),
    ]


_COMPILED = _patterns()


def reason_text(reason: str) -> str:
    """``reason`` (an engine refusal) in the language of the moment."""
    known = REFUSALS.get(reason) or RULE_REFUSALS.get(reason)
    if known is not None:
        return known
    for pattern, render in _COMPILED:
        match = pattern.fullmatch(reason)
        if match is not None:
            return render(match)
    return reason
