"""The engine's refusals in the reader's language.

The engine explains an illegal action in English (``IllegalAction.reason``) and
never translates. The bot shows a refusal only when a click raced a change or
an old button was pressed (the buttons offer legal actions only), so it
translates the engine's texts here when the refusal is shown: the fixed ones
by exact match, the few with a card or a number by pattern. A text not known
here is shown as the engine wrote it (a new engine text: add it below, then
``python -m bot.present.i18n update``; ``tests/bot/test_i18n.py`` lists every engine
refusal that is missing).
"""

from __future__ import annotations

import re
import string
from typing import Final

from bot.present.i18n import N_, TextMap, _, ngettext

__all__ = ["REFUSALS", "reason_text"]

REFUSALS = TextMap.of(
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
    N_("Claims open once the deal's first trick is complete."),
    N_("Against a misère only the declarer may claim."),
    N_("Under a misère the declarer claims to take no more tricks."),
    N_("That is not a number of tricks."),
)
"""Every fixed refusal of the engine, English -> the language of the moment."""

RULE_REFUSALS = TextMap.of(
    N_("trump_cycle must name at least one suit or NT"),
    N_("the ruff needs a four-card stock"),
    N_("scoring=odd_tricks needs stop_at_majority=false (every trick counts)"),
)
"""The fixed texts of the rules' refusals (``engine.RulesError``)."""


FIELDS: Final = {
    "card": r"\S+",
    "suit": r"\S+",
    "game": r"\S+",
    "n": r"\d+",
    "low": r"\d+",
    "high": r"\d+",
    "name": r".+",
    "value": r".+",
    "spec": r"[a-z_]+: .+",
    "known": r".*",
}
"""What each ``{field}`` of a refusal in :data:`WITH_FIELDS` stands for in the
engine's text: a card or suit as the engine writes it, a game id, a number, or
an option's name, value, spec or list of known ones (these may span lines)."""

WITH_FIELDS: Final = (
    N_("You must follow suit: you hold {suit}."),
    N_("{card} is not in your hand."),
    N_("{card} is face down in your layout: it is not available yet."),
    N_("{card} was turned up this trick: you may play it from the next trick."),
    N_("{card} is in your opponent's layout."),
    N_("A ruff is worth 0 to {n}."),
    N_("Here everyone plays for himself: claim all {n} remaining tricks or none."),
    N_("Bids run from {low} to {high}."),
    # the rules' refusals of /ruff new options (engine.RulesError); the names and
    # values they quote are the options' own and stay as they are
    N_("bad value {value} for {spec}"),
    N_("unknown parameter {name} for {game} (known: {known})"),
    N_("unknown preset {name} for {game} (known: {known})"),
    N_("unknown game {name} (known: {known})"),
)
"""The engine's refusals with a card, a number or a name in them: each is its own
English text and the pattern the engine's text is matched with (:func:`_pattern`)."""


def _pattern(text: str) -> re.Pattern[str]:
    """``text``'s words as they are, each ``{field}`` a named group matching :data:`FIELDS`."""
    parts = []
    for words, field, _spec, _conversion in string.Formatter().parse(text):
        parts.append(re.escape(words))
        if field is not None:
            parts.append(f"(?P<{field}>{FIELDS[field]})")
    return re.compile("".join(parts), re.S)


_PATTERNS: Final = tuple((_pattern(text), text) for text in WITH_FIELDS)

# the one with a count: its English has two forms
_TRICKS_LEFT: Final = re.compile(r"There (is|are) only (?P<n>\d+) tricks? left to claim\.")


def reason_text(reason: str) -> str:
    """``reason`` (an engine refusal) in the language of the moment."""
    known = REFUSALS.get(reason) or RULE_REFUSALS.get(reason)
    if known is not None:
        return known
    for pattern, text in _PATTERNS:
        match = pattern.fullmatch(reason)
        if match is not None:
            return _(text).format(**match.groupdict())
    match = _TRICKS_LEFT.fullmatch(reason)
    if match is not None:
        n = match["n"]
        return ngettext(
            "There is only {n} trick left to claim.",
            "There are only {n} tricks left to claim.",
            int(n),
        ).format(n=n)
    return reason
