"""Whole public messages: the lobby, the table in play, the final table, and
the rules summary."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Rules, SeatView

from . import bidwhist
from .claims import claim_lines
from .common import (
    SIDE_NAMES,
    TableInfo,
    card_text,
    fit,
    target_text,
)
from .lines import (
    auction_line,
    contest_lines,
    contract_line,
    exposed_lines,
    last_trick_line,
    layout_lines,
    ruff_line,
    score_line,
    sides_line,
    trick_line,
    tricks_line,
    trump_line,
    waiting_line,
)


def header(info: TableInfo) -> str:
    rules = info.rules
    return f"🃏 **{rules.title}** · preset `{rules.preset}` · table #{info.table_id}"


def lobby_text(info: TableInfo, creator_name: str, note: str = "") -> str:
    rules = info.rules
    lines = [header(info)]
    if info.partnerships:
        lines.append(
            f"Partners sit opposite: **{SIDE_NAMES[0]}** vs **{SIDE_NAMES[1]}** · {target_text(rules)}"
        )
    else:
        lines.append(f"{info.n} players, each for themselves · {target_text(rules)}")
    for seat in range(info.n):
        occupant = info.seats[seat]
        lines.append(f"> {info.names[seat]}: {occupant.label() if occupant else '— empty —'}")
    lines.append(
        f"Opened by {creator_name}. **Join** to take a seat, **Add AI** for computer players; "
        "the opener may **Start** at any time (empty seats get AI players)."
    )
    if note:
        lines.append(note)
    return "\n".join(lines)


def game_lines(info: TableInfo, view: SeatView, mine: int | None) -> list[str]:
    """What a game adds to the table beyond trumps, tricks and scores (public)."""
    lines: list[str] = []
    lines.extend(contest_lines(info, view))
    for line in (
        auction_line(info, view),
        contract_line(info, view),
        sides_line(info, view),
        bidwhist.kitty_line(info, view, mine),
    ):
        if line:
            lines.append(line)
    lines.extend(exposed_lines(info, view, skip=mine))
    lines.extend(claim_lines(info, view))
    lines.extend(layout_lines(info, view, mine))
    return lines


def table_text(info: TableInfo, view: SeatView, recent: Sequence[str] = ()) -> str:
    """The public table during play. Uses only public fields of ``view``."""
    lines = [header(info) + f" · game {view.game_no}, deal {view.deal_no}"]
    seats = " | ".join(
        f"{info.short[s]}: {info.seats[s].label() if info.seats[s] else '—'}"  # type: ignore[union-attr]
        f" ({view.hand_sizes[s]})"
        for s in range(info.n)
    )
    lines.append(seats)
    lines.append(f"{trump_line(info, view)} · Dealer: {info.seat_name(view.dealer)}")
    ruff = ruff_line(info, view)
    if ruff:
        lines.append(ruff)
    lines.extend(game_lines(info, view, None))
    lines.append(score_line(info, view))
    lines.append(tricks_line(info, view))
    if view.shown_honours:
        shown = ", ".join(f"{info.short[s]} {card_text(c)}" for s, c in view.shown_honours)
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
    return fit(lines)


# ---------------------------------------------------------------- buttons


def final_text(info: TableInfo, view: SeatView, how: str = "") -> str:
    """The table message once the match is over (``how``: the line of
    :func:`~bot.render.summary.how_won`, once the game's history is summed up)."""
    winner = view.winner if view.winner is not None else 0
    lines = [header(info) + " · **finished**"]
    if bidwhist.is_bid_whist(view):  # won at +target, or by the others falling to -target
        lines.append(bidwhist.final_line(info, view))
    elif info.partnerships:
        lines.append(
            f"🏆 **{SIDE_NAMES[winner]}** — {info.side_players(winner)} — win "
            f"{view.scores[winner]}–{view.scores[1 - winner]}"
            + (f" (games {view.games_won[winner]}–{view.games_won[1 - winner]})" if info.rules.match_format != "single" else "")
            + "."
        )
    else:
        others = " · ".join(
            f"{info.seat_name(s)} {view.scores[s]}" for s in info.scoring_sides() if s != winner
        )
        lines.append(f"🏆 **{info.names[winner]}** — {info.who(winner)} — wins with {view.scores[winner]} ({others}).")
    if how:
        lines.append(how)
    last = last_trick_line(info, view)
    if last:
        lines.append(last)
    lines.append("Press **Rematch** to play again with the same seats.")
    return "\n".join(lines)


def rules_text(rules: Rules) -> str:
    return "\n".join(["📜 " + rules.describe()[0], *(f"• {line}" for line in rules.describe()[1:])])
