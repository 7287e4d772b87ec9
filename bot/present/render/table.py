"""Whole public messages: the lobby, the table in play, the final table, and
the rules summary."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.i18n import _, ngettext
from bot.present.render import bidwhist
from bot.present.render.claims import claim_lines, concession_line
from bot.present.render.common import (
    SIDE_NAMES,
    TableInfo,
    card_text,
    fit,
    target_text,
)
from bot.present.render.lines import (
    auction_line,
    last_trick_line,
    ruff_line,
    score_line,
    trick_line,
    tricks_line,
    trump_line,
    waiting_line,
)
from bot.present.render.ruffe_trump import contest_lines
from bot.present.render.rules_text import rules_lines
from bot.present.render.solo import contract_line, exposed_lines, sides_line
from bot.present.render.summary import tie_line
from bot.present.render.turnover import layout_lines
from engine import Rules, SeatView


def header(info: TableInfo) -> str:
    rules = info.rules
    head = _("🃏 **{title}** · preset `{preset}` · table #{table}").format(
        title=rules.title, preset=rules.preset, table=info.table_id
    )
    return head + " · " + _("💡 Hints on · unrated") if info.hints else head


def lobby_text(info: TableInfo, creator_name: str, note: str = "") -> str:
    rules = info.rules
    lines = [header(info)]
    if info.partnerships:
        lines.append(
            _("Partners sit opposite: **{ns}** vs **{ew}** · {target}").format(
                ns=SIDE_NAMES[0], ew=SIDE_NAMES[1], target=target_text(rules)
            )
        )
    else:
        lines.append(
            _("{n} players, each for themselves · {target}").format(
                n=info.n, target=target_text(rules)
            )
        )
    for seat in range(info.n):
        occupant = info.seats[seat]
        lines.append(f"> {info.names[seat]}: {occupant.label() if occupant else _('— empty —')}")
    if all(info.seats):
        lines.append(
            _("Opened by {opener}. The table is full — the opener can **Start**.").format(
                opener=creator_name
            )
        )
    else:
        lines.append(
            _(
                "Opened by {opener}. **Join** to take a seat, **Add AI** for computer players; "
                "the opener may **Start** at any time (empty seats get AI players)."
            ).format(opener=creator_name)
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
    lines = [
        header(info) + _(" · game {game}, deal {deal}").format(game=view.game_no, deal=view.deal_no)
    ]
    seats = " | ".join(
        f"{info.short[s]}: {info.seats[s].label() if info.seats[s] else '—'}"  # type: ignore[union-attr]
        + " ("
        + ngettext("{n} card", "{n} cards", view.hand_sizes[s]).format(n=view.hand_sizes[s])
        + ")"
        for s in range(info.n)
    )
    lines.append(seats)
    lines.append(
        _("{trumps} · Dealer: {dealer}").format(
            trumps=trump_line(info, view), dealer=info.seat_name(view.dealer)
        )
    )
    ruff = ruff_line(info, view)
    if ruff:
        lines.append(ruff)
    lines.extend(game_lines(info, view, None))
    lines.append(score_line(info, view))
    lines.append(tricks_line(info, view))
    if view.shown_honours:
        shown = ", ".join(f"{info.short[s]} {card_text(c)}" for s, c in view.shown_honours)
        lines.append(_("Honours shown: {cards}").format(cards=shown))
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
    :func:`~bot.present.render.summary.how_won`, once the game's history is summed up)."""
    winner = view.winner if view.winner is not None else 0
    lines = [header(info) + _(" · **finished**")]
    conceded = concession_line(info, view)
    if conceded:  # no score to read: the game was given up
        lines.append(conceded)
        how = ""  # how_won says the same
    elif bidwhist.is_bid_whist(view):  # won at +target, or by the others falling to -target
        lines.append(bidwhist.final_line(info, view))
    elif info.partnerships:
        games = (
            _(" (games {won}–{lost})").format(
                won=view.games_won[winner], lost=view.games_won[1 - winner]
            )
            if info.rules.match_format != "single"
            else ""
        )
        lines.append(
            _("🏆 **{side}** — {players} — win {score}–{other}{games}.").format(
                side=SIDE_NAMES[winner],
                players=info.side_players(winner),
                score=view.scores[winner],
                other=view.scores[1 - winner],
                games=games,
            )
        )
    elif view.tied:  # nobody won alone
        lines.append(tie_line(info, view.tied, view.scores))
        how = ""  # how_won says the same
    else:
        others = " · ".join(
            f"{info.seat_name(s)} {view.scores[s]}" for s in info.scoring_sides() if s != winner
        )
        lines.append(
            _("🏆 **{seat}** — {who} — wins with {score} ({others}).").format(
                seat=info.names[winner],
                who=info.who(winner),
                score=view.scores[winner],
                others=others,
            )
        )
    if how:
        lines.append(how)
    last = last_trick_line(info, view)
    if last:
        lines.append(last)
    if info.hints:
        lines.append(_("Hints were on: this game is not rated."))
    lines.append(_("Press **Rematch** to play again with the same seats."))
    return "\n".join(lines)


def rules_text(rules: Rules) -> str:
    lines = rules_lines(rules)  # the engine's lines, translated (bot/present/render/rules_text.py)
    return "\n".join(["📜 " + lines[0], *(f"• {line}" for line in lines[1:])])
