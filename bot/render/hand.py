"""A seat's private hand message and the labels of its controls."""

from __future__ import annotations

from engine import Card, SeatView, Suit
from engine.actions import (
    Action,
    CallCanYe,
    DeclineRuff,
    Discard,
    Pass,
    Play,
    ShowHonours,
    TakeRuff,
)
from engine.cards import effective_suit
from engine.phases.contest import RuffClaim, best_suit
from engine.phases.contract import NameDirection
from engine.phases.solo_auction import Bid
from engine.phases.solo_declare import NameTrump

from . import bidwhist
from .common import (
    CALL_NAMES,
    TableInfo,
    card_text,
    cards_text,
    fit,
    terms,
)
from .lines import (
    contract_name,
    measure_name,
    play_sides,
    score_line,
    trick_line,
    trump_line,
)
from .table import (
    game_lines,
)


def action_label(action: Action) -> str:
    """A button's (or menu option's) label for ``action``, in plain words."""
    if isinstance(action, (Play, Discard)):
        return card_text(action.card)
    if isinstance(action, Bid):
        return CALL_NAMES.get(action.call, action.call)
    if isinstance(action, NameTrump):
        return f"Trumps: {action.suit.symbol}"
    if isinstance(action, RuffClaim):
        return f"Declare {action.value}"
    if isinstance(action, NameDirection):  # Bid Whist's no-trump declarer
        return "Uptown (high cards win)" if action.direction == "uptown" else "Downtown (low cards win)"
    describe = getattr(action, "describe", None)  # a family's own words for its action
    if callable(describe):
        text = describe()
        if isinstance(text, str) and text:
            return text[:1].upper() + text[1:]
    return {
        TakeRuff: "Take the stock (ruff)",
        DeclineRuff: "Decline the ruff",
        CallCanYe: "Call “Can-ye?”",
        ShowHonours: "Show honours",
        Pass: "Pass",
    }.get(type(action), action.encode())


def featured_choices(view: SeatView) -> list[tuple[Action, str]]:
    """Choices worth a button of their own when the rest go in menus: a pass, and the
    true value of one's ruff when ruffs are declared (any value may be declared)."""
    passes = [(a, action_label(a)) for a in view.legal if a.verb == "pass" or a.encode().endswith(":pass")]
    if not any(isinstance(a, RuffClaim) for a in view.legal):
        return passes
    value, _ = _my_ruff(view)
    action = next((a for a in view.legal if isinstance(a, RuffClaim) and a.value == value), None)
    return passes + ([(action, f"Declare {value} (my best suit)")] if action is not None else [])


def _my_ruff(view: SeatView) -> tuple[int, Suit]:
    hand = 0
    for card in view.hand:
        hand |= card.bit
    measure = view.rules.ruff_measure if view.rules is not None else "pip_sum"
    return best_suit(hand, view.turn_up, view.trump, measure)


# ---------------------------------------------------------------- the hand message


def _seat_line(info: TableInfo, view: SeatView) -> str:
    seat = view.seat
    name = info.names[seat]
    where = f"Game {view.game_no}, deal {view.deal_no}."
    if info.partnerships:
        partner = (seat + 2) % 4
        return f"You are **{name}**, partner {info.names[partner]} ({info.who(partner)}). {where}"
    groups = play_sides(view, info.n)
    mine = next(g for g in groups if seat in g)
    others = [s for s in range(info.n) if s not in mine]
    if view.contract and view.declarer is not None and len(groups) > 1:
        declaring = view.declarer in mine
        contract = contract_name(view.contract)
        if declaring and len(mine) == 1:
            return f"You are **{name}** — you play {contract} alone against {info.names_of(others)}. {where}"
        if declaring:
            mate = [s for s in mine if s != seat]
            return f"You are **{name}** — you play {contract} with {info.names_of(mate)} against {info.names_of(others)}. {where}"
        mates = [s for s in mine if s != seat]
        return (
            f"You are **{name}** — you defend with {info.names_of(mates)} against {info.names_of(others)}. {where}"
        )
    if view.phase == "auction":
        return f"You are **{name}** — each for themselves until the auction makes the sides. {where}"
    return f"You are **{name}**, playing for yourself. {where}"


def hand_message(info: TableInfo, view: SeatView, note: str = "", away: bool = False) -> str:
    """The private hand message (DM or ephemeral) for ``view.seat``.

    ``away``: the AI is playing this seat after missed turns.
    """
    lines = [f"🃏 **{info.rules.title}** · table #{info.table_id}"]
    where = " in ".join(x for x in (f"#{info.channel_name}" if info.channel_name else "", f"**{info.guild_name}**" if info.guild_name else "") if x)
    if where:
        lines.append(f"Playing {where}" + (f" — [go to the table]({info.jump_url})" if info.jump_url else ""))
    elif info.jump_url:
        lines.append(f"[Go to the table]({info.jump_url})")
    lines.append(_seat_line(info, view))
    lines.append(trump_line(info, view) + " · " + score_line(info, view))
    if view.phase == "over":
        lines.append(f"Your hand: {bidwhist.view_hand_text(view)}")
        lines.append("The game is over — see the table for the result.")
        return "\n".join(lines)
    lines.extend(game_lines(info, view, view.seat))
    lines.append(f"Your hand ({len(view.hand)}): {bidwhist.view_hand_text(view)}")
    if view.stock_taken:
        lines.append(f"From the {terms(info.rules).stock}: {cards_text(bidwhist.view_sorted(view, view.stock_taken))}")
    if view.my_discards:
        lines.append(f"Laid out: {cards_text(view.my_discards)}")
    if away:
        lines.append("🤖 You were away, so the AI is playing your cards. Press **Take my seat back** to play again.")
    elif view.my_turn:
        lines.append(_your_turn_line(info, view))
    else:
        lines.append("⏳ Not your turn — the table shows the play. This message updates when it is.")
    if note:
        lines.append(note)
    return fit(lines)


def _your_turn_line(info: TableInfo, view: SeatView) -> str:
    phase = view.phase
    t = terms(info.rules)
    special = bidwhist.turn_line(info, view) if bidwhist.is_bid_whist(view) else ""
    if special:
        return special
    if phase == "ruff":
        holds_ace = any(c.suit is view.trump and c.rank.label == "A" for c in view.hand)
        why = "you hold the trump ace" if holds_ace else f"nobody holds the trump ace, so the dealer may {t.ruff}"
        top = "the four stock cards" if t.stock == "stock" else f"the top four cards of the {t.stock}"
        return f"🟢 **Your turn:** {why}. Take {top} (then lay out four), or decline."
    if phase == "discard":
        return "🟢 **Your turn:** choose the four cards to lay out face down."
    if phase == "can_ye":
        return (
            f"🟢 **Your turn to declare:** your side stands at {view.start_scores[view.side]}. "
            "Call “Can-ye?” (two honours: if partner holds one, you win), show three or more honours to win, or pass."
        )
    if phase == "auction":
        calls = [a for a in view.legal if isinstance(a, Bid)]
        names = ", ".join(CALL_NAMES.get(a.call, a.call) for a in calls)
        return f"🟢 **Your call:** {names}."
    if phase == "trumps":
        return f"🟢 **Your turn:** name trumps for your {contract_name(view.contract)}."
    if phase == "contest":
        value, suit = _my_ruff(view)
        unit = measure_name(info)
        how = (
            "ace 11, K Q J 10 ten each, the rest face value" if unit == "pips" else "cards of the suit"
        )
        return (
            f"🟢 **Your turn to declare your ruff:** your best suit is {suit.symbol}, worth {value} {unit} "
            f"({how}; the turn-up counts in trumps). Declare it, or any value from the menus — "
            "a claim above your true ruff is found out after the rub and loses it."
        )
    legal = view.legal
    if any(isinstance(getattr(a, "card", None), Card) and not isinstance(a, Play) for a in legal):
        return f"🟢 **Your turn:** choose the {view.to_lay_out or ''} cards to lay out face down.".replace("  ", " ")
    if legal and not any(isinstance(a, Play) for a in legal):
        return "🟢 **Your turn:** " + ", ".join(action_label(a) for a in legal) + "."
    parts = ["🟢 **Your turn**"]
    if view.trick:
        parts.append(trick_line(view))
        led = view.led_suit
        plays = [a.card for a in view.legal if isinstance(a, Play)]
        if led is not None and plays and all(effective_suit(c, view.trump) is led for c in plays):
            parts.append(f"follow {led.symbol}")
    else:
        parts.append("lead any card")
    if view.layouts:
        parts.append("your face-up layout cards are marked (layout)")
    if any(isinstance(a, (CallCanYe, ShowHonours)) for a in view.legal):
        parts.append("or call your honours first")
    return " — ".join(parts) + "."


# ---------------------------------------------------------------- event summaries
