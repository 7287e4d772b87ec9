"""Pure text rendering: the public table, a seat's private hand, summaries.

Nothing here talks to Discord or the database; every function maps plain data
(an engine :class:`~engine.SeatView` and the table's seat names) to strings, so
renderers are easy to test and never see a hand they should not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import Card, Rules, SeatView, Suit, sort_hand
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
from engine.events import (
    CanYeCalled,
    DealScored,
    Event,
    GameOver,
    HonoursScored,
    HonoursShown,
    MatchOver,
    Passed,
    RuffDeclined,
    RuffTaken,
    TrickWon,
)

SEAT_NAMES = ("North", "East", "South", "West")
SEAT_SHORT = ("N", "E", "S", "W")
SIDE_NAMES = ("North & South", "East & West")
SIDE_SHORT = ("NS", "EW")


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat, as the table shows it."""

    name: str
    user_id: int | None = None  # None for AI seats
    ai_level: str | None = None
    away: bool = False  # a human whose turns the AI is playing

    @property
    def is_ai(self) -> bool:
        return self.user_id is None

    def label(self, mention: bool = False) -> str:
        if self.user_id is None:
            return f"{self.name} 🤖"
        text = f"<@{self.user_id}>" if mention else self.name
        return text + (" (away: AI playing)" if self.away else "")


@dataclass(frozen=True, slots=True)
class TableInfo:
    """Static facts about a table used in every rendering."""

    table_id: int
    rules: Rules
    seats: tuple[SeatInfo | None, ...]
    guild_name: str = ""
    channel_name: str = ""
    jump_url: str = ""

    def seat_name(self, seat: int) -> str:
        info = self.seats[seat]
        who = info.name if info else "empty"
        return f"{SEAT_NAMES[seat]} ({who})"

    def side_players(self, side: int) -> str:
        names = [self.seats[s].name if self.seats[s] else "—" for s in (side, side + 2)]  # type: ignore[union-attr]
        return " & ".join(names)


def suit_text(suit: Suit | None) -> str:
    return "no trumps" if suit is None else f"{suit.symbol} {suit.name.lower()}"


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(c.pretty for c in cards) if cards else "—"


def hand_text(cards: Sequence[Card], trump: Suit | None) -> str:
    """``♥ A K 7 · ♠ Q 10`` grouped by suit, trumps first."""
    groups: list[str] = []
    current: Suit | None = None
    ranks: list[str] = []
    for card in sort_hand(cards, trump):
        if card.suit is not current:
            if ranks and current is not None:
                groups.append(f"{current.symbol} {' '.join(ranks)}")
            current, ranks = card.suit, []
        ranks.append(card.rank.label)
    if ranks and current is not None:
        groups.append(f"{current.symbol} {' '.join(ranks)}")
    return " · ".join(groups) if groups else "(no cards)"


def trick_line(view: SeatView) -> str:
    if not view.trick:
        return ""
    played = " · ".join(f"{SEAT_SHORT[s]} {c.pretty}" for s, c in view.trick)
    return f"Trick {view.trick_no}: {played}"


def last_trick_line(info: TableInfo, view: SeatView) -> str:
    if not view.completed_tricks:
        return ""
    leader, cards, winner = view.completed_tricks[-1]
    order = " ".join(f"{SEAT_SHORT[(leader + i) % 4]} {c.pretty}" for i, c in enumerate(cards))
    return f"Last trick ({len(view.completed_tricks)}): **{info.seat_name(winner)}** won — {order}"


def score_line(info: TableInfo, view: SeatView) -> str:
    rules = info.rules
    parts = [f"{SIDE_SHORT[s]} **{view.scores[s]}**" for s in range(2)]
    text = f"Score: {' · '.join(parts)} (game to {rules.target_score})"
    if rules.match_format != "single":
        text += f" · games {view.games_won[0]}–{view.games_won[1]}"
    return text


def trump_line(info: TableInfo, view: SeatView) -> str:
    text = f"Trumps: **{suit_text(view.trump)}**"
    if view.turn_up is not None:
        text += f" (turned up {view.turn_up.pretty})"
    return text


def ruff_line(info: TableInfo, view: SeatView) -> str:
    if view.ruffer is None:
        return ""
    who = info.seat_name(view.ruffer)
    if view.ruff_state == "pending":
        return f"Ruff: {who} may take the stock."
    if view.ruff_state == "taken":
        done = view.phase != "discard"
        return f"Ruff: {who} took the stock" + (" and laid out four cards." if done else "; laying out four cards…")
    if view.ruff_state == "declined":
        return f"Ruff: {who} declined the stock."
    return ""


def waiting_line(info: TableInfo, view: SeatView, mention: bool = True) -> str:
    """Whose turn it is, by name (mentioned for humans on the public table)."""
    if view.to_act is None:
        return ""
    seat = view.to_act
    occupant = info.seats[seat]
    who = occupant.label(mention=mention) if occupant else "?"
    doing = {
        "ruff": "to decide the ruff",
        "discard": "to lay out four cards",
        "can_ye": "to declare honours",
    }.get(view.phase, "to lead" if not view.trick else "to play")
    return f"▶ **{SEAT_NAMES[seat]}** — {who} {doing}"


def header(info: TableInfo) -> str:
    rules = info.rules
    return f"🃏 **{rules.title}** · preset `{rules.preset}` · table #{info.table_id}"


def lobby_text(info: TableInfo, creator_name: str, note: str = "") -> str:
    rules = info.rules
    lines = [header(info)]
    lines.append(
        f"Partners sit opposite: **{SIDE_NAMES[0]}** vs **{SIDE_NAMES[1]}** · game to {rules.target_score}"
    )
    for seat in range(4):
        occupant = info.seats[seat]
        lines.append(f"> {SEAT_NAMES[seat]}: {occupant.label() if occupant else '— empty —'}")
    lines.append(
        f"Opened by {creator_name}. **Join** to take a seat, **Add AI** for computer players; "
        "the opener may **Start** at any time (empty seats get AI players)."
    )
    if note:
        lines.append(note)
    return "\n".join(lines)


def table_text(info: TableInfo, view: SeatView, recent: Sequence[str] = ()) -> str:
    """The public table during play. Uses only public fields of ``view``."""
    lines = [header(info) + f" · game {view.game_no}, deal {view.deal_no}"]
    seats = " | ".join(
        f"{SEAT_SHORT[s]}: {info.seats[s].label() if info.seats[s] else '—'}"  # type: ignore[union-attr]
        f" ({view.hand_sizes[s]})"
        for s in range(4)
    )
    lines.append(seats)
    lines.append(f"{trump_line(info, view)} · Dealer: {info.seat_name(view.dealer)}")
    ruff = ruff_line(info, view)
    if ruff:
        lines.append(ruff)
    lines.append(score_line(info, view))
    lines.append(f"Tricks this deal: NS {view.tricks[0]} · EW {view.tricks[1]}")
    if view.shown_honours:
        shown = ", ".join(f"{SEAT_SHORT[s]} {c.pretty}" for s, c in view.shown_honours)
        lines.append(f"Honours shown: {shown}")
    last = last_trick_line(info, view)
    if last:
        lines.append(last)
    trick = trick_line(view)
    if trick:
        lines.append(trick)
    for line in recent[-3:]:
        lines.append(f"• {line}")
    wait = waiting_line(info, view)
    if wait:
        lines.append(wait)
    return "\n".join(lines)


def action_label(action: Action) -> str:
    if isinstance(action, Play):
        return action.card.pretty
    if isinstance(action, Discard):
        return action.card.pretty
    return {
        TakeRuff: "Take the stock (ruff)",
        DeclineRuff: "Decline the ruff",
        CallCanYe: "Call “Can-ye?”",
        ShowHonours: "Show honours",
        Pass: "Pass",
    }.get(type(action), action.encode())


def hand_message(info: TableInfo, view: SeatView, note: str = "", away: bool = False) -> str:
    """The private hand message (DM or ephemeral) for ``view.seat``.

    ``away``: the AI is playing this seat after missed turns.
    """
    seat = view.seat
    partner = info.seats[(seat + 2) % 4]
    lines = [f"🃏 **{info.rules.title}** · table #{info.table_id}"]
    where = " in ".join(x for x in (f"#{info.channel_name}" if info.channel_name else "", f"**{info.guild_name}**" if info.guild_name else "") if x)
    if where:
        lines.append(f"Playing {where}" + (f" — [go to the table]({info.jump_url})" if info.jump_url else ""))
    elif info.jump_url:
        lines.append(f"[Go to the table]({info.jump_url})")
    lines.append(
        f"You are **{SEAT_NAMES[seat]}**, partner {SEAT_NAMES[(seat + 2) % 4]}"
        f" ({partner.name if partner else '—'}). Game {view.game_no}, deal {view.deal_no}."
    )
    lines.append(trump_line(info, view) + " · " + score_line(info, view))
    if view.phase == "over":
        lines.append(f"Your hand: {hand_text(view.hand, view.trump)}")
        lines.append("The game is over — see the table for the result.")
        return "\n".join(lines)
    lines.append(f"Your hand ({len(view.hand)}): {hand_text(view.hand, view.trump)}")
    if view.stock_taken:
        lines.append(f"From the stock: {cards_text(view.stock_taken)}")
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
    return "\n".join(lines)


def _your_turn_line(info: TableInfo, view: SeatView) -> str:
    phase = view.phase
    if phase == "ruff":
        holds_ace = any(c.suit is view.trump and c.rank.label == "A" for c in view.hand)
        why = "you hold the trump ace" if holds_ace else "nobody holds the trump ace, so the dealer may ruff"
        return f"🟢 **Your turn:** {why}. Take the four stock cards (then lay out four), or decline."
    if phase == "discard":
        left = sum(1 for a in view.legal if isinstance(a, Discard))
        del left
        return "🟢 **Your turn:** choose the four cards to lay out face down."
    if phase == "can_ye":
        return (
            f"🟢 **Your turn to declare:** your side stands at {view.start_scores[view.side]}. "
            "Call “Can-ye?” (two honours: if partner holds one, you win), show three or more honours to win, or pass."
        )
    parts = ["🟢 **Your turn**"]
    if view.trick:
        parts.append(trick_line(view))
        led = view.led_suit
        if led is not None and any(c.suit is led for c in view.hand):
            parts.append(f"follow {led.symbol}")
    else:
        parts.append("lead any card")
    if any(isinstance(a, (CallCanYe, ShowHonours)) for a in view.legal):
        parts.append("or call your honours first")
    return " — ".join(parts) + "."


# ---------------------------------------------------------------- event summaries


def event_lines(info: TableInfo, events: Sequence[Event]) -> list[str]:
    """Short public lines for the notable events in ``events`` (never private ones)."""
    out: list[str] = []
    for ev in events:
        if ev.audience is not None:
            continue
        if isinstance(ev, RuffTaken):
            why = {
                "holds_ace": "holds the trump ace",
                "turned_ace": "dealt the turned-up ace",
                "ace_in_stock": "dealer, the ace lay in the stock",
            }.get(ev.reason, "")
            out.append(f"{info.seat_name(ev.seat)} ruffs ({why}): takes the stock, lays out four.")
        elif isinstance(ev, RuffDeclined):
            out.append(f"{info.seat_name(ev.seat)} declines the ruff.")
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
    return out


def deal_summary(info: TableInfo, events: Sequence[Event]) -> str | None:
    """A public summary of a finished deal / game / match, or None."""
    lines: list[str] = []
    for ev in events:
        if isinstance(ev, TrickWon):
            continue
        if isinstance(ev, HonoursScored):
            counts = " · ".join(f"{SIDE_SHORT[s]} {ev.counts[s]}" for s in range(2))
            pts = " · ".join(f"{SIDE_SHORT[s]} +{ev.points[s]}" for s in range(2) if ev.points[s])
            text = f"Honours held: {counts}" + (f" → {pts}" if pts else " → no score")
            if ev.note:
                text += f" ({ev.note})"
            lines.append(text)
        elif isinstance(ev, DealScored):
            tricks = f"NS {ev.tricks[0]} · EW {ev.tricks[1]}"
            trick_pts = " · ".join(
                f"{SIDE_SHORT[s]} +{ev.trick_points[s]}" for s in range(2) if ev.trick_points[s]
            )
            penalty = " · ".join(
                f"{SIDE_SHORT[s]} {ev.penalty_points[s]} (revoke)" for s in range(2) if ev.penalty_points[s]
            )
            lines.insert(
                0,
                f"**Deal {ev.deal_no} of game {ev.game_no}** — tricks {tricks}"
                + (f" → {trick_pts}" if trick_pts else " → no trick points")
                + (f"; {penalty}" if penalty else ""),
            )
            lines.append(f"Score: NS **{ev.scores[0]}** · EW **{ev.scores[1]}**")
        elif isinstance(ev, GameOver):
            how = {
                "tricks": "on tricks",
                "honours": "with honours",
                "can_ye": "by Can-ye",
                "show": "by showing honours",
            }.get(ev.how, "")
            lines.append(
                f"🏆 **{SIDE_NAMES[ev.winner]}** ({info.side_players(ev.winner)}) win game {ev.game_no} "
                f"{how}, {ev.scores[ev.winner]}–{ev.scores[1 - ev.winner]}."
            )
        elif isinstance(ev, MatchOver) and info.rules.match_format != "single":
            lines.append(
                f"🏆 **{SIDE_NAMES[ev.winner]}** win the match {ev.games_won[ev.winner]}–{ev.games_won[1 - ev.winner]}"
                + (f" (rubber points {ev.rubber_points[ev.winner]:+d})" if info.rules.game_id == "whist-short-classic" else "")
                + "."
            )
    if not lines:
        return None
    return f"🃏 Table #{info.table_id} · " + "\n".join(lines)


def final_text(info: TableInfo, view: SeatView) -> str:
    """The table message once the match is over."""
    winner = view.winner if view.winner is not None else 0
    lines = [header(info) + " · **finished**"]
    lines.append(
        f"🏆 **{SIDE_NAMES[winner]}** — {info.side_players(winner)} — win "
        f"{view.scores[winner]}–{view.scores[1 - winner]}"
        + (f" (games {view.games_won[winner]}–{view.games_won[1 - winner]})" if info.rules.match_format != "single" else "")
        + "."
    )
    last = last_trick_line(info, view)
    if last:
        lines.append(last)
    lines.append("Press **Rematch** to play again with the same seats.")
    return "\n".join(lines)


def rules_text(rules: Rules) -> str:
    return "\n".join(["📜 " + rules.describe()[0], *(f"• {line}" for line in rules.describe()[1:])])
