"""The lines of the public table every game shares, one function per thing it
shows: the trick, scores, trumps, the ruff, an auction, whose turn. A family's own
words live in its module: ``solo``, ``bidwhist``, ``ruffe_trump``, ``turnover``."""

from __future__ import annotations

from bot.present.i18n import N_, TextMap, _
from bot.present.render import bidwhist
from bot.present.render.common import (
    CALL_NAMES,
    TableInfo,
    card_text,
    seat_short,
    suit_text,
    target_text,
    terms,
)
from engine import SeatView


def trick_line(view: SeatView) -> str:
    if not view.trick:
        return ""
    short = seat_short(view.n_seats)
    played = " · ".join(f"{short[s]} {card_text(c)}" for s, c in view.trick)
    return _("Trick {number}: {played}").format(number=view.trick_no, played=played)


def last_trick_line(info: TableInfo, view: SeatView) -> str:
    if not view.completed_tricks:
        return ""
    leader, cards, winner = view.completed_tricks[-1]
    n = info.n
    order = " ".join(f"{info.short[(leader + i) % n]} {card_text(c)}" for i, c in enumerate(cards))
    return _("Last trick ({number}): **{winner}** won — {cards}").format(
        number=len(view.completed_tricks), winner=info.seat_name(winner), cards=order
    )


def score_line(info: TableInfo, view: SeatView) -> str:
    rules = info.rules
    parts = [
        f"{info.side_short(s)} **{view.scores[s]}**"
        for s in info.scoring_sides()
        if s < len(view.scores)
    ]
    text = _("Score: {scores} ({target})").format(
        scores=" · ".join(parts), target=target_text(rules)
    )
    if rules.match_format != "single":
        text += _(" · games {won}–{lost}").format(won=view.games_won[0], lost=view.games_won[1])
    return text


def play_sides(view: SeatView, n: int) -> list[list[int]]:
    """The seats of each side of play in this deal (side index order)."""
    sides = view.seat_sides
    out: dict[int, list[int]] = {}
    for seat, side in enumerate(sides):
        out.setdefault(side, []).append(seat)
    return [out[k] for k in sorted(out)]


def tricks_line(info: TableInfo, view: SeatView, bare: bool = False) -> str:
    """``Tricks this deal: NS 4 · EW 2`` (``bare``: ``NS 4 · EW 2``)."""
    sides = view.seat_sides
    parts = []
    for seats in play_sides(view, info.n):
        side = sides[seats[0]]
        label = ("" if info.partnerships else "/").join(info.short[s] for s in seats)
        parts.append(f"{label} {view.tricks[side] if side < len(view.tricks) else 0}")
    if bare:
        return " · ".join(parts)
    return _("Tricks this deal: {tricks}").format(tricks=" · ".join(parts))


# what the turn-up means while a contract game's auction is on
_AUCTION_TURN_UP = TextMap(
    {
        "solo": N_(
            " — trumps for Propose, Solo and Royal Abundance; the other contracts fix their own"
        )
    }
)


def trump_line(info: TableInfo, view: SeatView, turn_up: bool = True) -> str:
    """``Trumps: **♦︎ diamonds** (turned up 3♦︎)``, or what decides them (``turn_up``:
    False leaves out the card turned up, which the table's picture shows)."""
    if bidwhist.is_bid_whist(view):
        return bidwhist.trump_line(info, view)
    if view.phase == "auction" and view.turn_up is not None:
        return _("Turn-up: **{card}**").format(card=card_text(view.turn_up)) + _AUCTION_TURN_UP.get(
            info.rules.family, ""
        )
    if view.phase == "trumps" and view.trump is None:
        return _("Trumps: **to be named by the declarer**")
    text = _("Trumps: **{suit}**").format(suit=suit_text(view.trump))
    if turn_up and view.turn_up is not None and view.trump is view.turn_up.suit:
        text += _(" (turned up {card})").format(card=card_text(view.turn_up))
    return text


def ruff_line(info: TableInfo, view: SeatView) -> str:
    if view.ruffer is None:
        return ""
    t = terms(info.rules)
    who = info.seat_name(view.ruffer)
    label = _(t.ruff)
    label = label[:1].upper() + label[1:]
    stock = _(t.stock)
    if t.ruff != "ruff":  # Ruffe and Trump's rub: four from the top of a head that may be longer
        if view.ruff_state == "pending":
            return _("{rub}: {who} may take the top four cards of the {head}.").format(
                rub=label, who=who, head=stock
            )
        if view.ruff_state == "taken":
            if view.phase != "discard":
                return _("{rub}: {who} took four cards from the {head} and laid out four.").format(
                    rub=label, who=who, head=stock
                )
            return _("{rub}: {who} took four cards from the {head}; laying out four…").format(
                rub=label, who=who, head=stock
            )
        if view.ruff_state == "declined":
            return _("{rub}: {who} declined.").format(rub=label, who=who)
        return ""
    if view.ruff_state == "pending":
        return _("{ruff}: {who} may take the {stock}.").format(ruff=label, who=who, stock=stock)
    if view.ruff_state == "taken":
        if view.phase != "discard":
            return _("{ruff}: {who} took the {stock} and laid out four cards.").format(
                ruff=label, who=who, stock=stock
            )
        return _("{ruff}: {who} took the {stock}; laying out four cards…").format(
            ruff=label, who=who, stock=stock
        )
    if view.ruff_state == "declined":
        return _("{ruff}: {who} declined the {stock}.").format(ruff=label, who=who, stock=stock)
    return ""


def contract_name(contract: str) -> str:
    if bidwhist.is_bid(contract):
        return bidwhist.bid_name(contract)  # Bid Whist: "4 uptown"
    return CALL_NAMES.get(contract, contract)


def auction_line(info: TableInfo, view: SeatView) -> str:
    if not view.auction:
        return ""
    calls = " · ".join(f"{info.who(s)} {contract_name(c)}" for s, c in view.auction)
    return _("Auction: {calls}").format(calls=calls)


_DOING = TextMap(
    {
        "ruff": N_("to decide the {ruff}"),
        "discard": N_("to lay out four cards"),
        "can_ye": N_("to declare honours"),
        "auction": N_("to bid"),
        "bidding": N_("to bid"),
        "trumps": N_("to name trumps"),
        "name": N_("to name trumps"),
        "kitty": N_("to lay out cards"),
        "contest": N_("to declare a ruff"),
        "claim": N_("to accept or reject the claim"),
        "concede": N_("to agree to concede or play on"),
    }
)


def waiting_line(info: TableInfo, view: SeatView, mention: bool = True) -> str:
    """Whose turn it is, by name (mentioned for humans on the public table)."""
    if view.to_act is None:
        return ""
    seat = view.to_act
    occupant = info.seats[seat]
    who = occupant.label(mention=mention) if occupant else "?"
    doing = _DOING.get(view.phase)
    if view.phase == "name" and bidwhist.is_bid(view.contract) and view.contract.endswith("n"):
        doing = _("to name uptown or downtown")
    if doing is None:
        doing = _("to lead") if not view.trick else _("to play")
    return f"▶ **{info.names[seat]}** — {who} {doing.format(ruff=_(terms(info.rules).ruff))}"
