"""Bid Whist's words (RULES.md §7): bids, the contract and its books, the kitty,
the deal's rank order and jokers, the turn lines of the bidding and the naming,
and the deal summary.

Everything is read from the view and the events; the rules stay in the engine
(:mod:`engine.phases.auction`, :mod:`engine.phases.contract`,
:mod:`engine.families.bid_whist`). A bid code is ``"4u"`` / ``"5d"`` / ``"3n"``
(the number of books over six and the mode), shown as "4 uptown", "5 downtown",
"3 no trump". The kitty counts as the declaring side's first book, so a bid of 4
needs 10 books: the kitty and nine tricks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine import Card, SeatView
from engine.cards import RankOrder
from engine.events import (
    AllPassed,
    ContractDeclared,
    ContractScored,
    ContractWon,
    DealScored,
    Event,
    GameOver,
    KittyTaken,
    MatchOver,
)
from engine.phases.auction import bid

from .common import (
    SIDE_NAMES,
    TableInfo,
    card_text,
    cards_text,
    hand_text,
    sorted_cards,
    suit_text,
)

__all__ = [
    "BID_PHASES",
    "bid_name",
    "books_needed",
    "contract_line",
    "contract_text",
    "deal_summary",
    "final_line",
    "event_line",
    "is_bid",
    "is_bid_whist",
    "kitty_line",
    "order_text",
    "trump_line",
    "turn_line",
    "view_hand_text",
    "view_sorted",
]

_BID = re.compile(r"[1-7][udn]")
BID_PHASES = ("bidding", "name")  # the contract is not named yet


def is_bid(code: str) -> bool:
    """True for a Bid Whist bid code (``4u``), never for Solo's words."""
    return bool(_BID.fullmatch(code))


def is_bid_whist(view: SeatView) -> bool:
    return view.rules is not None and view.rules.family == "bid_whist"


def bid_name(code: str) -> str:
    """``4 uptown``, ``3 no trump``; ``Pass``."""
    if code == "pass":
        return "Pass"
    return bid(code).describe() if is_bid(code) else code


def books_needed(code: str) -> int:
    """Books the declaring side needs out of 13 (the kitty is the first)."""
    return 6 + bid(code).number


def _no_trump(view: SeatView) -> bool:
    return is_bid(view.contract) and view.contract.endswith("n")


def _named(view: SeatView) -> bool:
    return is_bid(view.contract) and view.phase not in BID_PHASES


def view_sorted(view: SeatView, cards: Sequence[Card]) -> list[Card]:
    """``cards`` in the deal's order: the contract's rank order once named (downtown:
    A 2 3 … or 2 3 … A), jokers first as the top trumps, last in no trump."""
    return sorted_cards(cards, view.trump, view.rank_order, jokers_last=_no_trump(view) and _named(view))


def view_hand_text(view: SeatView, cards: Sequence[Card] | None = None) -> str:
    """A hand (``view.hand`` by default) as :func:`~bot.render.common.hand_text`, in the deal's order."""
    shown = view.hand if cards is None else cards
    return hand_text(shown, view.trump, view.rank_order, jokers_last=_no_trump(view) and _named(view))


def order_text(order: RankOrder) -> str:
    """``uptown (A K Q … 2)``, ``downtown (A 2 3 … K)``, ``downtown, ace low (2 3 … K A)``."""
    if order.direction == "uptown":
        return "uptown (A K Q … 2)"
    if order.downtown_ace == "low":
        return "downtown, ace low (2 3 … K A)"
    return "downtown (A 2 3 … K)"


def contract_text(view: SeatView) -> str:
    """``4 uptown``; once named ``4 uptown in ♠ spades`` / ``3 no trump, downtown``."""
    name = bid_name(view.contract)
    if not _named(view):
        return name
    if view.trump is not None:
        return f"{name} in {suit_text(view.trump)}"
    return f"{name}, {view.rank_order.direction}"


def _side_of(info: TableInfo, seat: int) -> int:
    return seat % 2 if info.partnerships else seat


def trump_line(info: TableInfo, view: SeatView) -> str:
    """Trumps and the rank order of the deal, or what decides them."""
    if view.phase == "bidding":
        return "Trumps: **none yet — the bidding decides** (uptown: high cards win, downtown: low cards win)"
    if view.phase == "name":
        if _no_trump(view):
            return "No trumps · direction **to be named by the declarer** (uptown or downtown)"
        return "Trumps: **to be named by the declarer**"
    jokers = view.rules is not None and view.rules.jokers > 0
    if view.trump is None:
        tail = "; the jokers never win a trick" if jokers else ""
        return f"No trumps · **{order_text(view.rank_order)}**{tail}"
    tail = " (the jokers are the top trumps, Big above Little)" if jokers else ""
    return f"Trumps: **{suit_text(view.trump)}** · {order_text(view.rank_order)}{tail}"


def contract_line(info: TableInfo, view: SeatView) -> str:
    """``Contract: **4 uptown** in ♠ spades · declared by East (bob) · EW need 10
    books (the kitty is the first): 4 so far``."""
    if not is_bid(view.contract) or view.declarer is None:
        return ""
    side = _side_of(info, view.declarer)
    need = books_needed(view.contract)
    parts = [f"Contract: **{bid_name(view.contract)}**"]
    if _named(view):
        parts[0] += contract_text(view)[len(bid_name(view.contract)) :]  # " in ♠ spades", ", downtown"
    parts.append(f"declared by {info.seat_name(view.declarer)}")
    books = f"{info.side_short(side)} need {need} of 13 books (the kitty is the first)"
    if view.phase == "play":
        tricks = view.tricks[side] if side < len(view.tricks) else 0
        books += f": {1 + tricks} so far"
    parts.append(books)
    return " · ".join(parts)


def kitty_line(info: TableInfo, view: SeatView, mine: int | None = None) -> str:
    """Where the kitty is; its cards when it is shown to all (``kitty_exposed``),
    except on a hand message (``mine``), which lists them itself."""
    if view.declarer is None or not is_bid(view.contract) or view.phase == "bidding":
        return ""
    rules = view.rules
    if rules is None:
        return ""
    who = info.seat_name(view.declarer)
    count = rules.deck_size - rules.players * rules.hand_size
    shown = ""
    if rules.kitty_exposed and view.stock_taken and mine is None:
        shown = f" Shown to all: {cards_text(view_sorted(view, view.stock_taken))}."
    taken = view.phase in ("kitty", "play") or (view.phase == "name" and not rules.declare_before_kitty)
    if not taken:
        return f"Kitty: {count} cards face down, to {who} once the contract is named."
    if view.phase != "play":
        return f"Kitty: {who} took its {count} cards and lays out {count}.{shown}"
    side = info.side_short(_side_of(info, view.declarer))
    return f"Kitty: {who} laid out {count} cards face down — {side}'s first book.{shown}"


def turn_line(info: TableInfo, view: SeatView) -> str:
    """The hand message's line on this seat's turn in the bidding or the naming ("" otherwise)."""
    if view.phase == "bidding":
        bids = [a for a in view.legal if a.verb == "bid"]
        high = next((code for _, code in reversed(view.auction) if code != "pass"), None)
        if not bids:
            return f"🟢 **Your bid:** nothing outranks {bid_name(high or '')} — press **Pass**."
        if not any(a.verb == "pass" for a in view.legal):
            return (
                "🟢 **Your bid:** everyone else passed, so you (the dealer) must bid: "
                f"{bid_name(bids[0].encode()[4:])} or more."
            )
        lowest = bid_name(bids[0].encode()[4:])
        over = f"the highest so far is {bid_name(high)}; " if high else ""
        return (
            f"🟢 **Your bid** (you bid once): {over}bid {lowest} or more, or pass. "
            "A bid of N needs 6 + N books of 13, the kitty counting as the first."
        )
    if view.phase == "name":
        need = books_needed(view.contract)
        when = "before you see the kitty" if view.stock_taken == () else "now that you have the kitty"
        if _no_trump(view):
            ace = "A 2 3 … K" if view.rules is None or view.rules.downtown_ace == "high" else "2 3 … K A"
            return (
                f"🟢 **Your turn:** you won the bidding with {bid_name(view.contract)} ({need} books). "
                f"Name the direction {when}: **Uptown** (A K Q … 2 win) or **Downtown** ({ace})."
            )
        return (
            f"🟢 **Your turn:** you won the bidding with {bid_name(view.contract)} ({need} books). "
            f"Name trumps {when}."
        )
    if view.phase == "kitty":
        count = view.to_lay_out
        discards = [getattr(a, "card", None) for a in view.legal if a.verb == "discard"]
        jokers_first = 0 < len(discards) < len(view.hand) and all(c is not None and c.is_joker for c in discards)
        first = " In no trump your jokers go out first." if jokers_first else ""
        return (
            f"🟢 **Your turn:** choose the {count} card{'s' if count != 1 else ''} to lay out face down "
            f"— they are your side's first book.{first}"
        )
    return ""


def event_line(info: TableInfo, ev: Event) -> str:
    """A public line for a Bid Whist event ("" for the others)."""
    if isinstance(ev, ContractWon):
        need = books_needed(ev.bid)
        return f"{info.seat_name(ev.declarer)} wins the bidding: {bid_name(ev.bid)} ({need} books needed)."
    if isinstance(ev, ContractDeclared):
        if ev.trump is None:
            return f"{info.seat_name(ev.declarer)} plays no trump {ev.direction}."
        return f"{info.seat_name(ev.declarer)} names {suit_text(ev.trump)} trumps ({ev.direction})."
    if isinstance(ev, KittyTaken):
        text = f"{info.seat_name(ev.seat)} takes the {ev.count}-card kitty"
        if ev.cards:
            text += f", shown to all: {cards_text(ev.cards)}"
        return text + "."
    return ""


def _side_players(info: TableInfo, side: int) -> str:
    if info.partnerships:
        return f"{SIDE_NAMES[side]} ({info.side_players(side)})"
    return info.seat_name(side)


def deal_summary(info: TableInfo, events: Sequence[Event]) -> list[str] | None:
    """The lines of a Bid Whist deal's summary, or None when ``events`` hold no Bid
    Whist result (the caller's generic summary then applies)."""
    scored = next((e for e in events if isinstance(e, ContractScored)), None)
    passed = next((e for e in events if isinstance(e, AllPassed)), None)
    if scored is None and passed is None:
        return None
    lines: list[str] = []
    if passed is not None:
        lines.append(
            f"Everyone passed: the deal is thrown in and {info.seat_name((passed.dealer + 1) % info.n)} deals."
        )
    for ev in events:
        if isinstance(ev, DealScored) and scored is not None:
            lines.append(f"**Deal {ev.deal_no} of game {ev.game_no}** — " + _contract_result(info, scored, ev))
            scores = " · ".join(f"{info.side_short(s)} **{p}**" for s, p in enumerate(ev.scores))
            target = info.rules.target_score
            lines.append(f"Score: {scores} (game is {target}; a side at -{target} or below loses)")
        elif isinstance(ev, GameOver):
            lines.append(_game_over(info, ev))
        elif isinstance(ev, MatchOver) and info.rules.match_format != "single":
            lines.append(f"🏆 **{_side_players(info, ev.winner)}** win the match.")
    return lines


def _contract_result(info: TableInfo, ev: ContractScored, scored: DealScored) -> str:
    declaring = info.side_short(ev.side)
    partner = f" with {info.seat_name((ev.declarer + 2) % 4)}" if info.partnerships else ""
    need = books_needed(ev.bid)
    tricks = ev.books - 1
    result = "✅ made" if ev.made else "❌ set"
    double = " (no trump counts double)" if ev.bid.endswith("n") and info.rules.nt_multiplier == 2 else ""
    points = " · ".join(
        f"{info.side_short(s)} {p:+d}" if s == ev.side else f"{info.side_short(s)} 0"
        for s, p in enumerate(scored.trick_points)
    )
    return (
        f"{bid_name(ev.bid)} declared by {info.seat_name(ev.declarer)}{partner}: "
        f"{declaring} needed {need} books and made {ev.books} (the kitty + {tricks} trick{'s' if tricks != 1 else ''}) "
        f"— {result}{double} → {points}"
    )


def _outcome(info: TableInfo, winner: int, scores: Sequence[int], how: str) -> str:
    """Why ``winner`` won, with the score: reached the target, the others fell to
    minus the target, or a Boston."""
    target = info.rules.target_score
    each = " · ".join(f"{info.side_short(s)} {p}" for s, p in enumerate(scores))
    if how == "set":
        losers = [s for s in range(len(scores)) if s != winner and scores[s] <= -target]
        who = " and ".join(
            f"{SIDE_NAMES[s] if info.partnerships else info.seat_name(s)} fell to {scores[s]}" for s in losers
        )
        why = f"{who or 'the others fell too low'}, and a side at -{target} or below loses"
    elif how == "boston":
        why = "a Boston (all 13 books) wins the game"
    else:
        why = f"reached {scores[winner]}, and game is {target}"
    return f"{why} ({each})"


def _game_over(info: TableInfo, ev: GameOver) -> str:
    return f"🏆 **{_side_players(info, ev.winner)}** win game {ev.game_no}: " + _outcome(
        info, ev.winner, ev.scores, ev.how
    ) + "."


def final_line(info: TableInfo, view: SeatView) -> str:
    """The finished table's winner line (the view does not say how: read from the scores)."""
    winner = view.winner if view.winner is not None else 0
    target = info.rules.target_score
    if view.scores[winner] >= target:
        how = "contract"
    elif any(p <= -target for s, p in enumerate(view.scores) if s != winner):
        how = "set"
    else:
        how = "boston"
    players = info.side_players(winner) if info.partnerships else info.who(winner)
    name = SIDE_NAMES[winner] if info.partnerships else info.names[winner]
    return f"🏆 **{name}** — {players} — win: " + _outcome(info, winner, view.scores, how) + "."


def card_label(card: Card) -> str:
    """A card button's label (a joker by name)."""
    return card_text(card)
