"""Ruffe and Trump's words: the ruff contest (the strongest suit, by cards or pips),
its claims, the suits shown and who takes the ruff."""

from __future__ import annotations

from bot.present.i18n import _
from bot.present.render.common import TableInfo, cards_text, suit_symbol
from engine import SeatView, Suit, sort_hand


def measure_name(info: TableInfo) -> str:
    return _("pips") if info.rules.ruff_measure == "pip_sum" else _("cards")


def measure_how(info: TableInfo) -> str:
    """How a suit's ruff is counted, in a few words."""
    if info.rules.ruff_measure == "pip_sum":
        return _("ace 11, K Q J 10 ten each, the rest face value")
    return _("cards of the suit")


def par_words(info: TableInfo) -> str:
    """What "cards over par" means at this table: ``cards over par (26 of 52)``."""
    rules = info.rules
    return _("cards over par ({par} of {cards}: only the cards won beyond it score)").format(
        par=rules.cards_par, cards=rules.players * rules.tricks_per_deal
    )


def contest_lines(info: TableInfo, view: SeatView, explain: bool = True) -> list[str]:
    """Ruffe and Trump's ruff (the strongest suit), from the deal's public notes;
    ``explain``: with how a suit is counted (a decision's DM leaves it to the table)."""
    lines: list[str] = []
    contest = view.ruff_contest
    if contest is None:
        return lines
    winners, points = contest.winners, contest.points
    unit = measure_name(info)
    if contest.values is not None:
        each = " · ".join(f"{info.short[s]} {v}" for s, v in enumerate(contest.values))
        if explain:
            lines.append(
                _(
                    "Ruff ({unit}): {values} — each hand's strongest suit counted for it ({how})"
                ).format(unit=unit, values=each, how=measure_how(info))
            )
        else:
            lines.append(_("Ruff ({unit}): {values}").format(unit=unit, values=each))
    elif contest.claims is not None:
        each = " · ".join(f"{info.short[s]} {v}" for s, v in contest.claims)
        lines.append(
            _("Ruff claims ({unit}): {values}").format(unit=unit, values=each or _("none yet"))
        )
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
