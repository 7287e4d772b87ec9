"""Solo Whist's words: what a contract needs, who declared it and with whom, the
sides it makes, a hand played face up, and the deal's result under a contract."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.i18n import N_, TextMap, _
from bot.present.render import bidwhist
from bot.present.render.common import CALL_NAMES, TableInfo, hand_text
from bot.present.render.lines import contract_name, play_sides
from engine import TARGETS, ContractSettled, PlayStopped, SeatView


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


# i18n: what each Solo call undertakes, beside its name on the call line ({n}: tricks)
_UNDERTAKES = TextMap(
    {
        "accept": N_("{n} tricks with the proposer"),
        "prop": N_("{n} tricks with a partner who accepts"),
        "solo": N_("{n} tricks alone"),
        "mis": N_("no trick, no trumps"),
        "abund": N_("{n} tricks alone, you name trumps"),
        "royal": N_("{n} tricks alone, the turn-up's suit trumps"),
        "spread": N_("no trick, your hand face up"),
        "slam": N_("all {n} tricks, you lead"),
    }
)


def undertakes(call: str) -> str:
    """What ``call`` undertakes, in a few words (``5 tricks alone``); "" for a pass."""
    words = _UNDERTAKES.get(call, "")
    return words.format(n=TARGETS.get("prop" if call == "accept" else call, 0)) if words else ""


def call_choices(calls: Sequence[str]) -> str:
    """The calls one may make now, each with what it undertakes:
    ``Pass · Accept: 8 tricks with the proposer``."""
    parts: list[str] = []
    for call in calls:
        name = CALL_NAMES.get(call, call)
        words = undertakes(call)
        parts.append(f"{name}: {words}" if words else name)
    return " · ".join(parts)


def contract_line(info: TableInfo, view: SeatView) -> str:
    contract = view.contract
    if not contract:
        return ""
    if bidwhist.is_bid(contract):
        return bidwhist.contract_line(info, view)
    if contract == "general":
        return _(
            "Contract: **General Misère** — everyone passed: each plays alone at no trumps; most tricks pays."
        )
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


def _points(info: TableInfo, points: Sequence[int]) -> str:
    return " · ".join(f"{info.side_short(s)} {p:+d}" for s, p in enumerate(points) if p)


def contract_summary(info: TableInfo, ev: ContractSettled, stopped: PlayStopped | None) -> str:
    n = info.rules.tricks_per_deal
    if ev.contract == "general":
        head = _("General Misère: {who} took the most tricks ({tricks}) and pays {value}").format(
            who=info.seat_name(ev.declarer), tricks=ev.tricks, value=ev.value
        )
    else:
        who = info.seat_name(ev.declarer)
        if ev.partner is not None:
            who += _(" with {who}").format(who=info.seat_name(ev.partner))
        needs = tricks_needed(ev.contract, n)
        result = _("✅ made") if ev.made else _("❌ failed")
        head = _("{contract} by {who} ({needs}): took {tricks} — {result}, worth {value}").format(
            contract=contract_name(ev.contract),
            who=who,
            needs=needs,
            tricks=ev.tricks,
            result=result,
            value=ev.value,
        )
    if stopped is not None:
        head += _(" (play stopped after trick {n})").format(n=stopped.trick_no)
    return head + " → " + (_points(info, ev.points) or _("no points"))
