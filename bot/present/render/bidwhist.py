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

from bot.present.i18n import N_, TextMap, _, ngettext
from bot.present.render.common import (
    SIDE_NAMES,
    TableInfo,
    card_text,
    cards_text,
    hand_text,
    sorted_cards,
    suit_text,
)
from engine import (
    AllPassed,
    Card,
    ContractDeclared,
    ContractScored,
    ContractWon,
    DealScored,
    Event,
    GameOver,
    KittyTaken,
    MatchOver,
    RankOrder,
    SeatView,
    bid,
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
        return _("Pass")
    if not is_bid(code):
        return code
    b = bid(code)
    return _("{n} {mode}").format(n=b.number, mode=MODE_NAMES[b.mode])


# i18n: Bid Whist's modes: high cards win, low cards win, no trumps
MODE_NAMES = TextMap({"u": N_("uptown"), "d": N_("downtown"), "n": N_("no trump")})


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
    return sorted_cards(
        cards, view.trump, view.rank_order, jokers_last=_no_trump(view) and _named(view)
    )


def view_hand_text(view: SeatView, cards: Sequence[Card] | None = None) -> str:
    """A hand (``view.hand`` by default) as :func:`~bot.present.render.common.hand_text`, in the deal's order."""
    shown = view.hand if cards is None else cards
    return hand_text(
        shown, view.trump, view.rank_order, jokers_last=_no_trump(view) and _named(view)
    )


def order_text(order: RankOrder) -> str:
    """``uptown (A K Q … 2)``, ``downtown (A 2 3 … K)``, ``downtown, ace low (2 3 … K A)``."""
    if order.direction == "uptown":
        return _("uptown (A K Q … 2)")
    if order.downtown_ace == "low":
        return _("downtown, ace low (2 3 … K A)")
    return _("downtown (A 2 3 … K)")


def contract_text(view: SeatView) -> str:
    """``4 uptown``; once named ``4 uptown in ♠ spades`` / ``3 no trump, downtown``."""
    name = bid_name(view.contract)
    if not _named(view):
        return name
    if view.trump is not None:
        return _("{bid} in {suit}").format(bid=name, suit=suit_text(view.trump))
    return f"{name}, {MODE_NAMES['u' if view.rank_order.direction == 'uptown' else 'd']}"


def _side_of(info: TableInfo, seat: int) -> int:
    return info.rules.side_of(seat)


def trump_line(info: TableInfo, view: SeatView) -> str:
    """Trumps and the rank order of the deal, or what decides them."""
    if view.phase == "bidding":
        return _(
            "Trumps: **none yet — the bidding decides** (uptown: high cards win, downtown: low cards win)"
        )
    if view.phase == "name":
        if _no_trump(view):
            return _("No trumps · direction **to be named by the declarer** (uptown or downtown)")
        return _("Trumps: **to be named by the declarer**")
    jokers = view.rules is not None and view.rules.jokers > 0
    if view.trump is None:
        tail = _("; the jokers never win a trick") if jokers else ""
        return _("No trumps · **{order}**").format(order=order_text(view.rank_order)) + tail
    tail = _(" (the jokers are the top trumps, Big above Little)") if jokers else ""
    return (
        _("Trumps: **{suit}** · {order}").format(
            suit=suit_text(view.trump), order=order_text(view.rank_order)
        )
        + tail
    )


def contract_line(info: TableInfo, view: SeatView) -> str:
    """``Contract: **4 uptown** in ♠ spades · declared by East (bob) · EW need 10
    books (the kitty is the first): 4 so far``."""
    if not is_bid(view.contract) or view.declarer is None:
        return ""
    side = _side_of(info, view.declarer)
    need = books_needed(view.contract)
    parts = [_("Contract: **{name}**").format(name=bid_name(view.contract))]
    if _named(view):
        parts[0] += contract_text(view)[
            len(bid_name(view.contract)) :
        ]  # " in ♠ spades", ", downtown"
    parts.append(_("declared by {who}").format(who=info.seat_name(view.declarer)))
    books = _("{side} need {need} of 13 books (the kitty is the first)").format(
        side=info.side_short(side), need=need
    )
    if view.phase == "play":
        tricks = view.tricks[side] if side < len(view.tricks) else 0
        books += _(": {n} so far").format(n=1 + tricks)
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
        shown = _(" Shown to all: {cards}.").format(
            cards=cards_text(view_sorted(view, view.stock_taken))
        )
    taken = view.phase in ("kitty", "play") or (
        view.phase == "name" and not rules.declare_before_kitty
    )
    if not taken:
        return _("Kitty: {n} cards face down, to {who} once the contract is named.").format(
            n=count, who=who
        )
    if view.phase != "play":
        return (
            _("Kitty: {who} took its {n} cards and lays out {n}.").format(who=who, n=count) + shown
        )
    side = info.side_short(_side_of(info, view.declarer))
    return (
        _("Kitty: {who} laid out {n} cards face down — {side}'s first book.").format(
            who=who, n=count, side=side
        )
        + shown
    )


def turn_line(info: TableInfo, view: SeatView) -> str:
    """The hand message's line on this seat's turn in the bidding or the naming ("" otherwise)."""
    if view.phase == "bidding":
        bids = [a for a in view.legal if a.verb == "bid"]
        high = next((code for _, code in reversed(view.auction) if code != "pass"), None)
        if not bids:
            return _("🟢 **Your bid:** nothing outranks {bid} — press **Pass**.").format(
                bid=bid_name(high or "")
            )
        if not any(a.verb == "pass" for a in view.legal):
            return _(
                "🟢 **Your bid:** everyone else passed, so you (the dealer) must bid: {bid} or more."
            ).format(bid=bid_name(bids[0].encode()[4:]))
        lowest = bid_name(bids[0].encode()[4:])
        over = _("the highest so far is {bid}; ").format(bid=bid_name(high)) if high else ""
        number = getattr(bids[0], "number", 0)
        return _(
            "🟢 **Your bid** (you bid once): {highest}bid {lowest} or more, or pass. "
            "A bid of {n} is {books} books of 13 (6 + the bid), the kitty counting as the first."
        ).format(highest=over, lowest=lowest, n=number, books=books_needed(bids[0].encode()[4:]))
    if view.phase == "name":
        need = books_needed(view.contract)
        when = (
            _("before you see the kitty")
            if view.stock_taken == ()
            else _("now that you have the kitty")
        )
        if _no_trump(view):
            ace = (
                "A 2 3 … K"
                if view.rules is None or view.rules.downtown_ace == "high"
                else "2 3 … K A"
            )
            return _(
                "🟢 **Your turn:** you won the bidding with {bid} ({need} books). "
                "Name the direction {when}: **Uptown** (A K Q … 2 win) or **Downtown** ({ace})."
            ).format(bid=bid_name(view.contract), need=need, when=when, ace=ace)
        return _(
            "🟢 **Your turn:** you won the bidding with {bid} ({need} books). Name trumps {when}."
        ).format(bid=bid_name(view.contract), need=need, when=when)
    if view.phase == "kitty":
        count = view.to_lay_out
        discards = [getattr(a, "card", None) for a in view.legal if a.verb == "discard"]
        jokers_first = 0 < len(discards) < len(view.hand) and all(
            c is not None and c.is_joker for c in discards
        )
        first = _(" In no trump your jokers go out first.") if jokers_first else ""
        return (
            ngettext(
                "🟢 **Your turn:** choose the {n} card to lay out face down — they are your side's first book.",
                "🟢 **Your turn:** choose the {n} cards to lay out face down — they are your side's first book.",
                count,
            ).format(n=count)
            + first
        )
    return ""


def event_line(info: TableInfo, ev: Event) -> str:
    """A public line for a Bid Whist event ("" for the others)."""
    if isinstance(ev, ContractWon):
        need = books_needed(ev.bid)
        return _("{who} wins the bidding: {bid} ({need} books needed).").format(
            who=info.seat_name(ev.declarer), bid=bid_name(ev.bid), need=need
        )
    if isinstance(ev, ContractDeclared):
        direction = MODE_NAMES["u" if ev.direction == "uptown" else "d"]
        if ev.trump is None:
            return _("{who} plays no trump {direction}.").format(
                who=info.seat_name(ev.declarer), direction=direction
            )
        return _("{who} names {suit} trumps ({direction}).").format(
            who=info.seat_name(ev.declarer), suit=suit_text(ev.trump), direction=direction
        )
    if isinstance(ev, KittyTaken):
        if ev.cards:
            return _("{who} takes the {n}-card kitty, shown to all: {cards}.").format(
                who=info.seat_name(ev.seat), n=ev.count, cards=cards_text(ev.cards)
            )
        return _("{who} takes the {n}-card kitty.").format(who=info.seat_name(ev.seat), n=ev.count)
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
            _("Everyone passed: the deal is thrown in and {who} deals.").format(
                who=info.seat_name(info.rules.next_dealer(passed.dealer))
            )
        )
    for ev in events:
        if isinstance(ev, DealScored) and scored is not None:
            lines.append(
                _("**Deal {deal} of game {game}** — {result}").format(
                    deal=ev.deal_no, game=ev.game_no, result=_contract_result(info, scored, ev)
                )
            )
            scores = " · ".join(f"{info.side_short(s)} **{p}**" for s, p in enumerate(ev.scores))
            target = info.rules.target_score
            lines.append(
                _("Score: {scores} (game is {target}; a side at -{target} or below loses)").format(
                    scores=scores, target=target
                )
            )
        elif isinstance(ev, GameOver):
            lines.append(_game_over(info, ev))
        elif isinstance(ev, MatchOver) and info.rules.match_format != "single":
            lines.append(
                _("🏆 **{side}** win the match.").format(side=_side_players(info, ev.winner))
            )
    return lines


def _contract_result(info: TableInfo, ev: ContractScored, scored: DealScored) -> str:
    declaring = info.side_short(ev.side)
    partner = (
        _(" with {who}").format(who=info.seat_name((ev.declarer + 2) % 4))
        if info.partnerships
        else ""
    )
    need = books_needed(ev.bid)
    tricks = ev.books - 1
    result = _("✅ made") if ev.made else _("❌ set")
    double = (
        _(" (no trump counts double)")
        if ev.bid.endswith("n") and info.rules.nt_multiplier == 2
        else ""
    )
    points = " · ".join(
        f"{info.side_short(s)} {p:+d}" if s == ev.side else f"{info.side_short(s)} 0"
        for s, p in enumerate(scored.trick_points)
    )
    made = ngettext(
        "{side} needed {need} books and made {books} (the kitty + {n} trick)",
        "{side} needed {need} books and made {books} (the kitty + {n} tricks)",
        tricks,
    ).format(side=declaring, need=need, books=ev.books, n=tricks)
    return _("{bid} declared by {who}{partner}: {made} — {result}{double} → {points}").format(
        bid=bid_name(ev.bid),
        who=info.seat_name(ev.declarer),
        partner=partner,
        made=made,
        result=result,
        double=double,
        points=points,
    )


def _outcome(info: TableInfo, winner: int, scores: Sequence[int], how: str) -> str:
    """Why ``winner`` won, with the score: reached the target, the others fell to
    minus the target, or a Boston."""
    target = info.rules.target_score
    each = " · ".join(f"{info.side_short(s)} {p}" for s, p in enumerate(scores))
    if how == "set":
        losers = [s for s in range(len(scores)) if s != winner and scores[s] <= -target]
        who = _(" and ").join(
            _("{who} fell to {score}").format(
                who=SIDE_NAMES[s] if info.partnerships else info.seat_name(s), score=scores[s]
            )
            for s in losers
        )
        why = _("{who}, and a side at -{target} or below loses").format(
            who=who or _("the others fell too low"), target=target
        )
    elif how == "boston":
        why = _("a Boston (all 13 books) wins the game")
    else:
        why = _("reached {score}, and game is {target}").format(score=scores[winner], target=target)
    return f"{why} ({each})"


def _game_over(info: TableInfo, ev: GameOver) -> str:
    return _("🏆 **{side}** win game {game}: {how}.").format(
        side=_side_players(info, ev.winner),
        game=ev.game_no,
        how=_outcome(info, ev.winner, ev.scores, ev.how),
    )


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
    return _("🏆 **{side}** — {players} — win: {how}.").format(
        side=name, players=players, how=_outcome(info, winner, view.scores, how)
    )


def card_label(card: Card) -> str:
    """A card button's label (a joker by name)."""
    return card_text(card)
