"""What happened: the recent-event lines of the table and the posts that sum
up a deal, a game or a match."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.events import AllPassed as BidWhistAllPassed
from engine.events import (
    CanYeCalled,
    DealScored,
    Event,
    GameOver,
    HonoursScored,
    HonoursShown,
    LayoutCardPlayed,
    MatchOver,
    Passed,
    RuffDeclined,
    RuffTaken,
    TrickWon,
)
from engine.families.solo import ContractSettled
from engine.phases.solo_auction import AllPassed, ContractWon
from engine.phases.solo_declare import HandExposed, PlayStopped, TrumpNamed

from . import bidwhist
from .claims import claim_event_lines
from .common import (
    SIDE_NAMES,
    SIDE_SHORT,
    TableInfo,
    Terms,
    card_text,
    cards_text,
    suit_text,
    terms,
)
from .lines import (
    contract_name,
    tricks_needed,
)

if TYPE_CHECKING:
    from engine import SeatView

    from ..chart import DealPoint


def event_lines(info: TableInfo, events: Sequence[Event]) -> list[str]:
    """Short public lines for the notable events in ``events`` (never private ones)."""
    out: list[str] = []
    t = terms(info.rules)
    for ev in events:
        if ev.audience is not None:
            continue
        if isinstance(ev, RuffTaken):
            why = {
                "holds_ace": "holds the trump ace",
                "turned_ace": "dealt the turned-up ace",
                "ace_in_stock": f"dealer, the ace lay in the {t.stock}",
            }.get(ev.reason, "")
            out.append(f"{info.seat_name(ev.seat)} {t.ruff}s ({why}): takes the {t.stock}, lays out four.")
        elif isinstance(ev, RuffDeclined):
            out.append(f"{info.seat_name(ev.seat)} declines the {t.ruff}.")
        elif isinstance(ev, CanYeCalled):
            if ev.answered:
                out.append(
                    f"{info.seat_name(ev.seat)} calls “Can-ye?” — {info.seat_name(ev.partner)} answers! "
                    f"Honours {cards_text(ev.shown)}."
                )
            else:
                out.append(f"{info.seat_name(ev.seat)} calls “Can-ye?” — partner has none. Play on.")
        elif isinstance(ev, HonoursShown):
            out.append(f"{info.seat_name(ev.seat)} shows {cards_text(ev.cards)}.")
        elif isinstance(ev, Passed):
            out.append(f"{info.seat_name(ev.seat)} does not call.")
        elif isinstance(ev, ContractWon) and ev.declarer is not None:
            out.append(f"{info.seat_name(ev.declarer)} wins the auction: {contract_name(ev.contract)}.")
        elif isinstance(ev, TrumpNamed):
            out.append(f"{info.seat_name(ev.seat)} names {suit_text(ev.trump)} trumps.")
        elif isinstance(ev, HandExposed):
            out.append(f"{info.seat_name(ev.seat)} spreads the hand face up.")
        elif isinstance(ev, LayoutCardPlayed):
            turned = f"{card_text(ev.turned_up)} turned up" if ev.turned_up is not None else "the position is empty"
            out.append(f"{info.seat_name(ev.seat)} played {card_text(ev.card)} from the layout — {turned}.")
        else:
            line = bidwhist.event_line(info, ev)  # Bid Whist: the bidding won, the contract named, the kitty
            if line:
                out.append(line)
    out.extend(claim_event_lines(info, events))
    return out


SUMMARY_EVENTS = (DealScored, HonoursScored, GameOver, MatchOver, AllPassed, BidWhistAllPassed)


def _points(info: TableInfo, points: Sequence[int]) -> str:
    return " · ".join(f"{info.side_short(s)} {p:+d}" for s, p in enumerate(points) if p)


def _contract_summary(info: TableInfo, ev: ContractSettled, stopped: PlayStopped | None) -> str:
    n = info.rules.tricks_per_deal
    if ev.contract == "general":
        head = (
            f"General Misère: {info.seat_name(ev.declarer)} took the most tricks ({ev.tricks}) and pays {ev.value}"
        )
    else:
        who = info.seat_name(ev.declarer)
        if ev.partner is not None:
            who += f" with {info.seat_name(ev.partner)}"
        needs = tricks_needed(ev.contract, n)
        result = "✅ made" if ev.made else "❌ failed"
        head = f"{contract_name(ev.contract)} by {who} ({needs}): took {ev.tricks} — {result}, worth {ev.value}"
    if stopped is not None:
        head += f" (play stopped after trick {stopped.trick_no})"
    return head + " → " + (_points(info, ev.points) or "no points")


def deal_summary(info: TableInfo, events: Sequence[Event]) -> str | None:
    """A public summary of a finished deal / game / match, or None."""
    contract = bidwhist.deal_summary(info, events)
    if contract is not None:
        return f"🃏 Table #{info.table_id} · " + "\n".join(contract) if contract else None
    lines: list[str] = []
    t = terms(info.rules)
    settled = next((e for e in events if isinstance(e, ContractSettled)), None)
    stopped = next((e for e in events if isinstance(e, PlayStopped)), None)
    for ev in events:
        if isinstance(ev, TrickWon):
            continue
        if isinstance(ev, AllPassed):
            if ev.then == "redeal":
                lines.append(f"Everyone passed: {info.seat_name((ev.dealer + 1) % info.n)} deals again.")
            else:
                lines.append("Everyone passed: a General Misère is played — most tricks pays.")
        elif isinstance(ev, HonoursScored):
            counts = " · ".join(f"{SIDE_SHORT[s]} {ev.counts[s]}" for s in range(2))
            pts = " · ".join(f"{SIDE_SHORT[s]} +{ev.points[s]}" for s in range(2) if ev.points[s])
            text = f"Honours held: {counts}" + (f" → {pts}" if pts else " → no score")
            if ev.note:
                text += f" ({ev.note})"
            lines.append(text)
        elif isinstance(ev, DealScored):
            title = f"**Deal {ev.deal_no} of game {ev.game_no}**"
            if settled is not None:
                lines.insert(0, f"{title} — {_contract_summary(info, settled, stopped)}")
            else:
                lines.insert(0, f"{title} — " + _deal_scored_text(info, ev, t))
            scores = " · ".join(f"{info.side_short(s)} **{p}**" for s, p in enumerate(ev.scores))
            lines.append(f"Score: {scores}")
        elif isinstance(ev, GameOver):
            lines.append(_game_over_text(info, ev))
        elif isinstance(ev, MatchOver) and info.rules.match_format != "single":
            lines.append(
                f"🏆 **{SIDE_NAMES[ev.winner]}** win the match {ev.games_won[ev.winner]}–{ev.games_won[1 - ev.winner]}"
                + (f" (rubber points {ev.rubber_points[ev.winner]:+d})" if info.rules.game_id == "whist-short-classic" else "")
                + "."
            )
    if not lines:
        return None
    return f"🃏 Table #{info.table_id} · " + "\n".join(lines)


def _deal_scored_text(info: TableInfo, ev: DealScored, t: Terms) -> str:
    if info.partnerships:
        tricks = " · ".join(f"{SIDE_SHORT[s]} {ev.tricks[s]}" for s in range(2))
    else:
        tricks = " · ".join(f"{info.short[s]} {ev.tricks[s]}" for s in range(min(info.n, len(ev.tricks))))
    trick_pts = " · ".join(
        f"{info.side_short(s)} +{p}" for s, p in enumerate(ev.trick_points) if p
    )
    label = f"{t.trick_points}: " if t.trick_points else ""
    text = f"tricks {tricks}" + (f" → {label}{trick_pts}" if trick_pts else f" → no {t.trick_points or 'trick points'}")
    if t.honour_points:
        extra = " · ".join(f"{info.side_short(s)} +{p}" for s, p in enumerate(ev.honour_points) if p)
        if extra:
            text += f"; {t.honour_points}: {extra}"
    penalty = " · ".join(
        f"{info.side_short(s)} {p} (revoke)" for s, p in enumerate(ev.penalty_points) if p
    )
    if penalty:
        text += f"; {penalty}"
    return text


_HOW = {
    "tricks": "on tricks",
    "concession": "by concession (the other side conceded)",
    "honours": "with honours",
    "can_ye": "by Can-ye",
    "show": "by showing honours",
    "cards": "on cards",
    "ruff": "with the ruff",
    "contract": "",
}


def _game_over_text(info: TableInfo, ev: GameOver) -> str:
    how = _HOW.get(ev.how, "")
    w = ev.winner
    if info.partnerships:
        return (
            f"🏆 **{SIDE_NAMES[w]}** ({info.side_players(w)}) win game {ev.game_no} "
            f"{how}, {ev.scores[w]}–{ev.scores[1 - w]}."
        )
    others = " · ".join(f"{info.side_short(s)} {p}" for s, p in enumerate(ev.scores) if s != w)
    return (
        f"🏆 **{info.names[w]}** ({info.who(w)}) wins game {ev.game_no}"
        + (f" {how}" if how else "")
        + f" — {ev.scores[w]} ({others})."
    )


# how a side scored in a deal (bot.chart.HOW_MARKS), in words
_HOW_WORDS = {
    "tricks": "on tricks",
    "honours": "with honours held",
    "call": "by Can-ye or honours shown",
    "ruff": "with the ruff",
    "contract": "by a contract",
}


def how_won(info: TableInfo, view: SeatView, points: Sequence[DealPoint]) -> str:
    """Who won the match and how: the deals the winner scored in, by how they scored
    (tricks, honours held, Can-ye or shown honours, the ruff, a contract), and how the
    deciding deal was won. ``points``: :func:`bot.chart.deal_history` of the game."""
    winner = view.winner
    if winner is None or not 0 <= winner < len(view.scores):
        return ""
    if info.partnerships:
        who = f"{SIDE_NAMES[winner]} ({info.side_players(winner)})"
    else:
        who = f"{info.names[winner]} ({info.who(winner)})" if winner < info.n else f"Side {winner + 1}"
    counts = Counter(p.how[winner] for p in points if winner < len(p.how) and p.how[winner])
    scored = ", ".join(
        f"{n} deal{'s' if n != 1 else ''} {_HOW_WORDS.get(kind, kind)}"
        for kind, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    )
    deciding = next((p for p in reversed(points) if p.game_winner == winner), None)
    parts = [f"**How {who} won:**"]
    parts.append(f"scored in {scored}" if scored else "scored in no deal")
    if deciding is not None and winner < len(deciding.how) and deciding.how[winner]:
        parts.append(
            f"the deciding deal (game {deciding.game_no}, deal {deciding.deal_no}) was won "
            f"{_HOW_WORDS.get(deciding.how[winner], deciding.how[winner])}"
        )
    return parts[0] + " " + "; ".join(parts[1:]) + "."
