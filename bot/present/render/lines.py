"""The lines of the public table, one function per thing a game shows: the
trick, scores, trumps, the ruff, the ruff contest, an auction and contract,
sides, an exposed hand, layouts, whose turn."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.i18n import N_, TextMap, _
from bot.present.render import bidwhist
from bot.present.render.common import (
    CALL_NAMES,
    TableInfo,
    card_text,
    cards_text,
    hand_text,
    seat_short,
    suit_symbol,
    suit_text,
    target_text,
    terms,
)
from engine import TARGETS, PileView, SeatView, Suit, sort_hand


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
    parts = [f"{info.side_short(s)} **{view.scores[s]}**" for s in info.scoring_sides() if s < len(view.scores)]
    text = _("Score: {scores} ({target})").format(scores=" · ".join(parts), target=target_text(rules))
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


def tricks_line(info: TableInfo, view: SeatView) -> str:
    sides = view.seat_sides
    parts = []
    for seats in play_sides(view, info.n):
        side = sides[seats[0]]
        label = ("" if info.partnerships else "/").join(info.short[s] for s in seats)
        parts.append(f"{label} {view.tricks[side] if side < len(view.tricks) else 0}")
    return _("Tricks this deal: {tricks}").format(tricks=" · ".join(parts))


# what the turn-up means while a contract game's auction is on
_AUCTION_TURN_UP = TextMap(
    {"solo": N_(" — trumps for Propose, Solo and Royal Abundance; the other contracts fix their own")}
)


def trump_line(info: TableInfo, view: SeatView) -> str:
    if bidwhist.is_bid_whist(view):
        return bidwhist.trump_line(info, view)
    if view.phase == "auction" and view.turn_up is not None:
        return _("Turn-up: **{card}**").format(card=card_text(view.turn_up)) + _AUCTION_TURN_UP.get(
            info.rules.family, ""
        )
    if view.phase == "trumps" and view.trump is None:
        return _("Trumps: **to be named by the declarer**")
    text = _("Trumps: **{suit}**").format(suit=suit_text(view.trump))
    if view.turn_up is not None and view.trump is view.turn_up.suit:
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
            return _("{rub}: {who} may take the top four cards of the {head}.").format(rub=label, who=who, head=stock)
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
            return _("{ruff}: {who} took the {stock} and laid out four cards.").format(ruff=label, who=who, stock=stock)
        return _("{ruff}: {who} took the {stock}; laying out four cards…").format(ruff=label, who=who, stock=stock)
    if view.ruff_state == "declined":
        return _("{ruff}: {who} declined the {stock}.").format(ruff=label, who=who, stock=stock)
    return ""


def measure_name(info: TableInfo) -> str:
    return _("pips") if info.rules.ruff_measure == "pip_sum" else _("cards")


def contest_lines(info: TableInfo, view: SeatView) -> list[str]:
    """Ruffe and Trump's ruff (the strongest suit), from the deal's public notes."""
    lines: list[str] = []
    contest = view.ruff_contest
    if contest is None:
        return lines
    winners, points = contest.winners, contest.points
    unit = measure_name(info)
    if contest.values is not None:
        each = " · ".join(f"{info.short[s]} {v}" for s, v in enumerate(contest.values))
        lines.append(_("Ruff ({unit}): {values}").format(unit=unit, values=each))
    elif contest.claims is not None:
        each = " · ".join(f"{info.short[s]} {v}" for s, v in contest.claims)
        lines.append(_("Ruff claims ({unit}): {values}").format(unit=unit, values=each or _("none yet")))
    for shown in contest.shown or ():
        verdict = _("true") if shown.honest else _("**false** — the ruff passes to the true winner")
        lines.append(
            _("{who} shows {suit}: {cards} = {value} {unit} ({verdict})").format(
                who=info.seat_name(shown.seat),
                suit=suit_symbol(Suit.parse(shown.suit)),
                cards=cards_text(sort_hand(list(shown.cards), None)),
                value=shown.value,
                unit=unit,
                verdict=verdict,
            )
        )
    if winners is not None and points is not None:
        if winners:
            who = info.names_of(list(winners))
            won = " · ".join(f"{info.side_short(s)} +{p}" for s, p in enumerate(points) if p)
            lines.append(_("→ the ruff goes to {who}: {points}").format(who=who, points=won))
        else:
            lines.append(_("→ nobody wins the ruff"))
    return lines


def contract_name(contract: str) -> str:
    if bidwhist.is_bid(contract):
        return bidwhist.bid_name(contract)  # Bid Whist: "4 uptown"
    return CALL_NAMES.get(contract, contract)


def auction_line(info: TableInfo, view: SeatView) -> str:
    if not view.auction:
        return ""
    calls = " · ".join(f"{info.who(s)} {contract_name(c)}" for s, c in view.auction)
    return _("Auction: {calls}").format(calls=calls)


def tricks_needed(contract: str, tricks_per_deal: int) -> str:
    target = TARGETS.get(contract)
    if contract in ("mis", "spread", "general"):
        return _("must lose every trick") if contract != "general" else _("most tricks pays")
    if target is None:
        return ""
    if target >= tricks_per_deal:
        return _("must take all {n} tricks").format(n=tricks_per_deal)
    if contract == "prop":
        return _("needs {target} of {n} tricks together").format(target=target, n=tricks_per_deal)
    return _("needs {target} of {n} tricks").format(target=target, n=tricks_per_deal)


def contract_line(info: TableInfo, view: SeatView) -> str:
    contract = view.contract
    if not contract:
        return ""
    if bidwhist.is_bid(contract):
        return bidwhist.contract_line(info, view)
    if contract == "general":
        return _("Contract: **General Misère** — everyone passed: each plays alone at no trumps; most tricks pays.")
    parts = [_("Contract: **{name}**").format(name=contract_name(contract))]
    if view.declarer is not None:
        mates = [g for g in play_sides(view, info.n) if view.declarer in g][0]
        partner = [s for s in mates if s != view.declarer]
        if len(partner) == 1 and not info.partnerships:  # a proposal and its acceptor
            parts.append(
                _("proposed by {proposer}, accepted by {acceptor}").format(
                    proposer=info.seat_name(view.declarer), acceptor=info.seat_name(partner[0])
                )
            )
        else:
            parts.append(_("declared by {who}").format(who=info.seat_name(view.declarer)))
    needs = tricks_needed(contract, info.rules.tricks_per_deal)
    if needs:
        parts.append(needs)
    return " · ".join(parts)


def sides_line(info: TableInfo, view: SeatView) -> str:
    """Sides made for this deal (one against three, a proposer and acceptor), if any."""
    if info.partnerships or view.declarer is None or not view.contract:
        return ""
    groups = play_sides(view, info.n)
    if len(groups) < 2:
        return ""
    declaring = next((g for g in groups if view.declarer in g), groups[0])
    others = [s for g in groups if g is not declaring for s in g]
    if len(declaring) == 1:
        return _("Sides: {who} plays alone against {others}.").format(
            who=info.seat_name(declaring[0]), others=info.names_of(others)
        )
    return _("Sides: {who} together against {others}.").format(
        who=info.names_of(declaring), others=info.names_of(others)
    )


def exposed_lines(info: TableInfo, view: SeatView, skip: int | None = None) -> list[str]:
    lines = []
    for seat, cards in view.exposed:
        if seat == skip:
            continue
        lines.append(
            _("🂠 {who} plays with the hand face up: {hand}").format(
                who=info.seat_name(seat), hand=hand_text(cards, view.trump)
            )
        )
    return lines


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _pile(pile: PileView) -> str:
    if pile.up is None:
        return "▢"
    under = str(pile.down).translate(_SUPERSCRIPT) if pile.down else ""
    return f"{card_text(pile.up)}{under}{'✱' if pile.fresh else ''}"


def layout_text(piles: Sequence[PileView]) -> str:
    """One layout in two rows: each face-up card with the count of face-down cards
    beneath it as a superscript; ✱ = just turned up, ▢ = an emptied position."""
    half = (len(piles) + 1) // 2
    rows = [piles[:half], piles[half:]]
    return " │ ".join(" ".join(_pile(p) for p in row) for row in rows if row)


def layout_lines(info: TableInfo, view: SeatView, mine: int | None = None) -> list[str]:
    if not view.layouts:
        return []
    lines = [_("Layouts (face-up cards; ¹ = a card face down beneath; ✱ = turned up this trick, playable from the next):")]
    for seat, piles in enumerate(view.layouts):
        owner = _("Your layout") if seat == mine else f"{info.seat_name(seat)}"
        lines.append(f"> {owner}: {layout_text(piles)}")
    return lines


_DOING = TextMap({
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
})


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
