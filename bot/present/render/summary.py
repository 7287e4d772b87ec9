"""What happened: the recent-event lines of the table and the posts that sum
up a deal, a game or a match."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.present.i18n import N_, TextMap, _, ngettext
from bot.present.render import bidwhist, ruffe_trump, solo
from bot.present.render.claims import claim_event_lines, concession_line
from bot.present.render.common import (
    SIDE_NAMES,
    SIDE_SHORT,
    TableInfo,
    Terms,
    card_text,
    cards_text,
    note_text,
    suit_text,
    terms,
)
from bot.present.render.lines import contract_name
from bot.present.render.points import DealPoint
from engine import (
    AllPassed,
    CanYeCalled,
    ContractSettled,
    DealScored,
    Event,
    GameOver,
    HandExposed,
    HonoursScored,
    HonoursShown,
    LayoutCardPlayed,
    MatchOver,
    Passed,
    PlayStopped,
    RuffDeclined,
    RuffTaken,
    SoloAllPassed,
    SoloContractWon,
    TrickWon,
    TrumpNamed,
)

if TYPE_CHECKING:
    from engine import SeatView


def event_lines(info: TableInfo, events: Sequence[Event]) -> list[str]:
    """Short public lines for the notable events in ``events`` (never private ones)."""
    out: list[str] = []
    t = terms(info.rules)
    for ev in events:
        if ev.audience is not None:
            continue
        if isinstance(ev, RuffTaken):
            stock = _(t.stock)
            why = {
                "holds_ace": _("holds the trump ace"),
                "turned_ace": _("dealt the turned-up ace"),
                "ace_in_stock": _("dealer, the ace lay in the {stock}").format(stock=stock),
            }.get(ev.reason, "")
            if t.ruff == "rub":  # Ruffe and Trump: "rubs", the others "ruffs"
                text = _("{who} rubs ({why}): takes four from the {stock}, lays out four.")
            else:
                text = _("{who} ruffs ({why}): takes the {stock}, lays out four.")
            out.append(text.format(who=info.seat_name(ev.seat), why=why, stock=stock))
        elif isinstance(ev, RuffDeclined):
            out.append(
                _("{who} declines the {ruff}.").format(who=info.seat_name(ev.seat), ruff=_(t.ruff))
            )
        elif isinstance(ev, CanYeCalled):
            if ev.answered:
                out.append(
                    _("{who} calls “Can-ye?” — {partner} answers! Honours {cards}.").format(
                        who=info.seat_name(ev.seat),
                        partner=info.seat_name(ev.partner),
                        cards=cards_text(ev.shown),
                    )
                )
            else:
                out.append(
                    _("{who} calls “Can-ye?” — partner has none. Play on.").format(
                        who=info.seat_name(ev.seat)
                    )
                )
        elif isinstance(ev, HonoursShown):
            out.append(
                _("{who} shows {cards}.").format(
                    who=info.seat_name(ev.seat), cards=cards_text(ev.cards)
                )
            )
        elif isinstance(ev, Passed):
            out.append(_("{who} does not call.").format(who=info.seat_name(ev.seat)))
        elif isinstance(ev, SoloContractWon) and ev.declarer is not None:
            out.append(
                _("{who} wins the auction: {contract}.").format(
                    who=info.seat_name(ev.declarer), contract=contract_name(ev.contract)
                )
            )
        elif isinstance(ev, TrumpNamed):
            out.append(
                _("{who} names {suit} trumps.").format(
                    who=info.seat_name(ev.seat), suit=suit_text(ev.trump)
                )
            )
        elif isinstance(ev, HandExposed):
            out.append(_("{who} spreads the hand face up.").format(who=info.seat_name(ev.seat)))
        elif isinstance(ev, LayoutCardPlayed):
            turned = (
                _("{card} turned up").format(card=card_text(ev.turned_up))
                if ev.turned_up is not None
                else _("the position is empty")
            )
            out.append(
                _("{who} played {card} from the layout — {turned}.").format(
                    who=info.seat_name(ev.seat), card=card_text(ev.card), turned=turned
                )
            )
        else:
            line = bidwhist.event_line(
                info, ev
            )  # Bid Whist: the bidding won, the contract named, the kitty
            if line:
                out.append(line)
    out.extend(claim_event_lines(info, events))
    return out


SUMMARY_EVENTS = (DealScored, HonoursScored, GameOver, MatchOver, SoloAllPassed, AllPassed)


def _points(info: TableInfo, points: Sequence[int]) -> str:
    return " · ".join(f"{info.side_short(s)} {p:+d}" for s, p in enumerate(points) if p)


def deal_summary(info: TableInfo, events: Sequence[Event], tied: Sequence[int] = ()) -> str | None:
    """A public summary of a finished deal / game / match, or None (``tied``: the
    sides sharing first place when the game ended tied, ``SeatView.tied``)."""
    contract = bidwhist.deal_summary(info, events)
    if contract is not None:
        return (
            _("🃏 Table #{table} · ").format(table=info.table_id) + "\n".join(contract)
            if contract
            else None
        )
    lines: list[str] = []
    t = terms(info.rules)
    settled = next((e for e in events if isinstance(e, ContractSettled)), None)
    stopped = next((e for e in events if isinstance(e, PlayStopped)), None)
    for ev in events:
        if isinstance(ev, TrickWon):
            continue
        if isinstance(ev, SoloAllPassed):
            if ev.then == "redeal":
                lines.append(
                    _("Everyone passed: {who} deals again.").format(
                        who=info.seat_name(info.rules.next_dealer(ev.dealer))
                    )
                )
            else:
                lines.append(_("Everyone passed: a General Misère is played — most tricks pays."))
        elif isinstance(ev, HonoursScored):
            counts = " · ".join(f"{SIDE_SHORT[s]} {ev.counts[s]}" for s in range(2))
            pts = " · ".join(f"{SIDE_SHORT[s]} +{ev.points[s]}" for s in range(2) if ev.points[s])
            text = _("Honours held: {counts}").format(counts=counts) + (
                f" → {pts}" if pts else _(" → no score")
            )
            if ev.note:
                text += f" ({note_text(ev.note)})"
            lines.append(text)
        elif isinstance(ev, DealScored):
            title = _("**Deal {deal} of game {game}**").format(deal=ev.deal_no, game=ev.game_no)
            if settled is not None:
                lines.insert(0, f"{title} — {solo.contract_summary(info, settled, stopped)}")
            else:
                lines.insert(0, f"{title} — " + _deal_scored_text(info, ev, t))
            scores = " · ".join(f"{info.side_short(s)} **{p}**" for s, p in enumerate(ev.scores))
            lines.append(_("Score: {scores}").format(scores=scores))
        elif isinstance(ev, GameOver):
            lines.append(_game_over_text(info, ev, tied))
        elif isinstance(ev, MatchOver) and info.rules.match_format != "single":
            rubber = (
                _(" (rubber points {points})").format(points=f"{ev.rubber_points[ev.winner]:+d}")
                if info.rules.scores_rubber_points
                else ""
            )
            lines.append(
                _("🏆 **{side}** win the match {won}–{lost}{rubber}.").format(
                    side=SIDE_NAMES[ev.winner],
                    won=ev.games_won[ev.winner],
                    lost=ev.games_won[1 - ev.winner],
                    rubber=rubber,
                )
            )
    if not lines:
        return None
    return _("🃏 Table #{table} · ").format(table=info.table_id) + "\n".join(lines)


def _deal_scored_text(info: TableInfo, ev: DealScored, t: Terms) -> str:
    if info.partnerships:
        tricks = " · ".join(f"{SIDE_SHORT[s]} {ev.tricks[s]}" for s in range(2))
    else:
        tricks = " · ".join(
            f"{info.short[s]} {ev.tricks[s]}" for s in range(min(info.n, len(ev.tricks)))
        )
    trick_pts = " · ".join(f"{info.side_short(s)} +{p}" for s, p in enumerate(ev.trick_points) if p)
    points_name = ruffe_trump.par_words(info) if info.rules.cards_par else _(t.trick_points)
    label = f"{points_name}: " if t.trick_points else ""
    text = _("tricks {tricks}").format(tricks=tricks)
    if trick_pts:
        text += f" → {label}{trick_pts}"
    elif t.trick_points:
        text += _(" → no {points}").format(points=_(t.trick_points))
    else:
        text += _(" → no trick points")
    if t.honour_points:
        extra = " · ".join(
            f"{info.side_short(s)} +{p}" for s, p in enumerate(ev.honour_points) if p
        )
        if extra:
            text += f"; {_(t.honour_points)}: {extra}"
    penalty = " · ".join(
        _("{side} {points} (revoke)").format(side=info.side_short(s), points=p)
        for s, p in enumerate(ev.penalty_points)
        if p
    )
    if penalty:
        text += f"; {penalty}"
    return text


_HOW = TextMap(
    {
        "tricks": N_("on tricks"),
        "concession": N_("by concession (the other side conceded)"),
        "honours": N_("with honours"),
        "can_ye": N_("by Can-ye"),
        "show": N_("by showing honours"),
        "cards": N_("on cards"),
        "ruff": N_("with the ruff"),
    }
)


def tie_line(info: TableInfo, tied: Sequence[int], scores: Sequence[int]) -> str:
    """``🤝 East (bob), South (carol) and West (dave) share first place with 4 (North (alice) -12).``"""
    others = " · ".join(
        f"{info.seat_name(s)} {p}" for s, p in enumerate(scores) if s not in tied and s < info.n
    )
    return _("🤝 **{seats}** share first place with {score}{others}.").format(
        seats=info.names_of(tied),
        score=scores[tied[0]],
        others=f" ({others})" if others else "",
    )


def _game_over_text(info: TableInfo, ev: GameOver, tied: Sequence[int] = ()) -> str:
    if tied:
        return tie_line(info, tied, ev.scores)
    how = _HOW.get(ev.how, "")
    w = ev.winner
    if info.partnerships:
        return (
            _("🏆 **{side}** ({players}) win game {game} {how}, {score}–{other}.")
            .format(
                side=SIDE_NAMES[w],
                players=info.side_players(w),
                game=ev.game_no,
                how=how,
                score=ev.scores[w],
                other=ev.scores[1 - w],
            )
            .replace(" ,", ",")
        )
    others = " · ".join(f"{info.side_short(s)} {p}" for s, p in enumerate(ev.scores) if s != w)
    return _("🏆 **{seat}** ({who}) wins game {game}{how} — {score} ({others}).").format(
        seat=info.names[w],
        who=info.who(w),
        game=ev.game_no,
        how=f" {how}" if how else "",
        score=ev.scores[w],
        others=others,
    )


# how a side scored in a deal (bot.present.render.points.HOW_MARKS), in words
_HOW_WORDS = TextMap(
    {
        "tricks": N_("on tricks"),
        "honours": N_("with honours held"),
        "call": N_("by Can-ye or honours shown"),
        "ruff": N_("with the ruff"),
        "contract": N_("by a contract"),
    }
)


def how_won(info: TableInfo, view: SeatView, points: Sequence[DealPoint]) -> str:
    """Who won the match and how: the deals the winner scored in, by how they scored
    (tricks, honours held, Can-ye or shown honours, the ruff, a contract), and how the
    deciding deal was won. ``points``: :func:`bot.present.chart.deal_history` of the game."""
    winner = view.winner
    if winner is None or not 0 <= winner < len(view.scores):
        return ""
    conceded = concession_line(info, view)
    if conceded:  # not won by scoring: say who gave it up
        return conceded
    if view.tied:  # nobody won alone: name the tie
        return tie_line(info, view.tied, view.scores)
    if info.partnerships:
        who = f"{SIDE_NAMES[winner]} ({info.side_players(winner)})"
    else:
        who = (
            f"{info.names[winner]} ({info.who(winner)})"
            if winner < info.n
            else _("Side {number}").format(number=winner + 1)
        )
    counts = Counter(p.how[winner] for p in points if winner < len(p.how) and p.how[winner])
    scored = ", ".join(
        ngettext("{n} deal {how}", "{n} deals {how}", n).format(n=n, how=_HOW_WORDS.get(kind, kind))
        for kind, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    )
    deciding = next((p for p in reversed(points) if p.game_winner == winner), None)
    parts = [_("**How {who} won:**").format(who=who)]
    limit = deciding is not None and deciding.game_how == "set"
    if scored or not limit:
        parts.append(
            _("scored in {deals}").format(deals=scored) if scored else _("scored in no deal")
        )
    if limit:  # the others fell to minus the target
        target = info.rules.target_score
        losers = [s for s, p in enumerate(view.scores) if s != winner and p <= -target]
        parts.append(
            _("{who} fell to {score}: the limit of -{target} was reached").format(
                who=_(" and ").join(info.side_name(s) for s in losers) or _("the others"),
                score=min((view.scores[s] for s in losers), default=-target),
                target=target,
            )
        )
    if deciding is not None and winner < len(deciding.how) and deciding.how[winner]:
        parts.append(
            _("the deciding deal (game {game}, deal {deal}) was won {how}").format(
                game=deciding.game_no,
                deal=deciding.deal_no,
                how=_HOW_WORDS.get(deciding.how[winner], deciding.how[winner]),
            )
        )
    return parts[0] + " " + "; ".join(parts[1:]) + "."
