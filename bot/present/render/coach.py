"""A hint's words: the hard AI's choice and the reason for it (``engine.ai.explain``),
in the reader's language."""

from __future__ import annotations

from bot.present.i18n import _, ngettext
from bot.present.render.common import CALL_NAMES, card_text, suit_name
from bot.present.render.hand import action_label
from engine import Action, Discard, Play, Rules, Suit
from engine.ai import Reason

__all__ = ["hint_text", "reason_text"]


def _suit(suit: Suit | None) -> str:
    return suit_name(suit) if suit is not None else _("that suit")


def reason_text(reason: Reason) -> str:
    """The reason in words, in the language of the moment."""
    code, n = reason.code, reason.n
    card = card_text(reason.card) if reason.card is not None else ""
    if code == "only":
        return _("it is your only legal choice")
    if code == "draw_trumps":
        return ngettext(
            "draw trumps: {n} you have not seen is still out",
            "draw trumps: {n} you have not seen are still out",
            n,
        ).format(n=n)
    if code == "return_partner":
        return _("return your partner's suit ({suit})").format(suit=_suit(reason.suit))
    if code == "cash_master":
        return _("cash a winner: {card} is the highest of its suit left").format(card=card)
    if code == "top_of_sequence":
        return _("lead the top of a sequence")
    if code == "fourth_best":
        return _("fourth best from your longest suit")
    if code == "lead_low":
        return _("lead low from {suit}, keeping its high cards").format(suit=_suit(reason.suit))
    if code == "second_low":
        return _("second hand low")
    if code == "cover_honour":
        return _("cover an honour with an honour (the {card})").format(card=card)
    if code == "third_high":
        return _("third hand high")
    if code == "win_cheaply":
        return _("last to play: win as cheaply as you can")
    if code == "win_now":
        return _("win the trick with the cheapest card that does")
    if code == "finesse":
        return _("finesse: the {card} is still out and may lie before you").format(card=card)
    if code == "partner_winning":
        return _("your partner is winning the trick: play low")
    if code == "duck":
        return _("duck: the {card} is still out").format(card=card)
    if code == "follow_low":
        return _("you cannot win this trick: follow with your lowest")
    if code == "ruff":
        return _("ruff: you are void in {suit}").format(suit=_suit(reason.suit))
    if code == "overruff":
        return _("overruff: you are void in {suit} and can beat the trump played").format(
            suit=_suit(reason.suit)
        )
    if code == "discard_weak":
        return _("discard from your weakest suit ({suit})").format(suit=_suit(reason.suit))
    if code == "misere_under":
        return _("misère: play the highest card that still loses to the {card}").format(card=card)
    if code == "misere_low":
        return _("misère: play low and keep out of the tricks")
    if code == "take_ruff":
        return _("take the stock: four more cards to choose from, then lay out the weakest four")
    if code == "decline_ruff":
        return _("decline: the stock would not improve this hand")
    if code == "lay_out_weak":
        return _(
            "lay out from your weakest suit ({suit}): keep trumps, honours and winners"
        ).format(suit=_suit(reason.suit))
    if code == "lay_out":
        return _("the search keeps the rest of the hand stronger without the {card}").format(
            card=card
        )
    if code == "show_honours":
        return ngettext(
            "you hold {n} honour: show it and win the game at once",
            "you hold {n} honours: show them and win the game at once",
            n,
        ).format(n=n)
    if code == "call_canye":
        return _("you hold two honours at the call point: if your partner holds one, you win")
    if code == "pass_canye":
        return _("nothing to call: the honours still score at the end of the deal")
    if code == "solo_call":
        return ngettext(
            "about {n} sure trick: enough for {contract}",
            "about {n} sure tricks: enough for {contract}",
            n,
        ).format(n=n, contract=CALL_NAMES.get(reason.call, reason.call))
    if code == "solo_pass":
        return ngettext(
            "about {n} sure trick: too few to bid higher",
            "about {n} sure tricks: too few to bid higher",
            n,
        ).format(n=n)
    if code == "solo_misere":
        return ngettext(
            "only {n} high card: a hand that can lose every trick ({contract})",
            "only {n} high cards: a hand that can lose every trick ({contract})",
            n,
        ).format(n=n, contract=CALL_NAMES.get(reason.call, reason.call))
    if code == "bid_books":
        return ngettext(
            "the hand counts about {n} book with your partner and the kitty",
            "the hand counts about {n} books with your partner and the kitty",
            n,
        ).format(n=n)
    if code == "bid_pass":
        return ngettext(
            "the hand counts only about {n} book: too few to bid",
            "the hand counts only about {n} books: too few to bid",
            n,
        ).format(n=n)
    if code == "name_longest":
        return ngettext(
            "name your longest suit ({n} card) as trumps",
            "name your longest suit ({n} cards) as trumps",
            n,
        ).format(n=n)
    if code == "direction":
        if reason.call == "downtown":
            return ngettext(
                "{n} low card (five or lower): low cards should win",
                "{n} low cards (five or lower): low cards should win",
                n,
            ).format(n=n)
        return ngettext(
            "{n} high card (knave or higher): high cards should win",
            "{n} high cards (knave or higher): high cards should win",
            n,
        ).format(n=n)
    if code == "true_ruff":
        if reason.suit is not None:
            return _("declare your true ruff: {n} in {suit}").format(
                n=n, suit=suit_name(reason.suit)
            )
        return _("declare {n}: the search judged it best").format(n=n)
    return _("the search found it best over the deals you cannot rule out")


def hint_text(action: Action, reason: Reason, rules: Rules | None) -> str:
    """The whole private answer to a Hint click."""
    if isinstance(action, Play):
        what = _("play **{card}**").format(card=card_text(action.card))
    elif isinstance(action, Discard):
        what = _("lay out **{card}**").format(card=card_text(action.card))
    else:
        what = "**" + action_label(action, rules) + "**"
    return _("💡 Hint: {what} — {reason}.").format(what=what, reason=reason_text(reason))
