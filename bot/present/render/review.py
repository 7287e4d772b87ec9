"""The coach's words: a deal's review and a puzzle, from their stored JSON (pure).

A review (:func:`review_text`) reads like a chess site's game report: a headline
(how many mistakes and inaccuracies, what the side took), the costliest flagged
decisions in plain words, the rest counted in one line. A decision's cost is
judged by what the seat could know (single dummy: the mean over deals of the
unseen cards); a mistake is a flagged one (a cost beyond chance), an inaccuracy a
smaller cost still worth a word (:data:`INACCURACY`). The figures — each cost with
its standard error, the double-dummy figure (every hand known) where the record
may show it, the split of the deal's result into "decisions" and "the cards"
(docs/coach.md) — are :func:`review_details`, for a button.
A puzzle (:func:`puzzle_text`) shows only what its seat knew at that moment;
:func:`answer_text` judges a chosen card against the best, with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.present.i18n import _, ngettext
from bot.present.render.common import card_text, cards_text, seat_names, suit_text
from bot.present.render.hand import action_label
from engine import ActionParseError, Card, Suit, decode_action, make_rules

__all__ = [
    "answer_text",
    "choice_text",
    "is_correct",
    "puzzle_choices",
    "puzzle_text",
    "reason_text",
    "review_details",
    "review_text",
    "solution_text",
]

MAX_LISTED = 8  # decisions listed in a review (the costliest; flagged ones first)


def _card(code: str) -> str:
    return card_text(Card.parse(code))


def choice_text(code: str, kind: str = "card", game_id: str = "") -> str:
    """A decision's choice in words: a card, a lay-out's cards, a bid, a call, trumps
    (in the words of ``game_id``: Ruffe and Trump's rub is no ruff)."""
    if kind in ("card", "kitty"):
        return _card(code)
    if kind == "lay-out":
        return _("lay out {cards}").format(cards=cards_text([Card.parse(c) for c in code.split()]))
    try:
        action = decode_action(code)
    except ActionParseError:
        return code
    try:
        rules = make_rules(game_id) if game_id else None
    except ValueError:
        rules = None
    return action_label(action, rules)


def _when(d: Mapping[str, Any]) -> str:
    kind = str(d.get("kind", "card"))
    if kind == "card" or int(d["trick"]):
        return _("Trick {trick}").format(trick=d["trick"])
    if kind == "kitty":
        return _("The kitty")
    if kind == "lay-out":
        return _("Your lay-out")
    if kind == "trump":
        return _("Trumps")
    return _("Before the play")


def _amount(value: float, unit: str) -> str:
    if unit == "points":
        return ngettext("{n} point", "{n} points", 2).format(n=f"{value:.1f}")
    return ngettext("{n} trick", "{n} tricks", 2).format(n=f"{value:.1f}")


def _about(value: float, unit: str) -> str:
    """A cost in plain words: ``about 2 tricks``, ``less than a trick``."""
    n = round(value)
    if unit == "points":
        if n < 1:
            return _("less than a point")
        return ngettext("about {n} point", "about {n} points", n).format(n=n)
    if n < 1:
        return _("less than a trick")
    return ngettext("about {n} trick", "about {n} tricks", n).format(n=n)


INACCURACY = {"tricks": 0.25, "points": 0.5}
"""A cost not beyond chance but this large (in its unit) is an inaccuracy; smaller
costs are as good as the seat could know."""
FLAGGED_SHOWN = 3  # flagged decisions a review spells out; the rest are counted


def _unit(d: Mapping[str, Any], unit: str) -> str:
    return str(d.get("unit") or unit)


def _is_inaccuracy(d: Mapping[str, Any], unit: str) -> bool:
    return not d["flagged"] and float(d["cost"]) >= INACCURACY.get(_unit(d, unit), 0.25)


def _decision_line(d: Mapping[str, Any], game_id: str, cost: str) -> str:
    """One decision: when, what was chosen, what was best, and ``cost``."""
    kind = str(d.get("kind", "card"))
    if kind == "card":
        return _("Trick {trick}: you played {played}, {best} was best — {cost}").format(
            trick=d["trick"], played=_card(d["played"]), best=_card(d["best"]), cost=cost
        )
    return _("{when}: you chose {played}, {best} was best — {cost}").format(
        when=_when(d),
        played=choice_text(str(d["played"]), kind, game_id),
        best=choice_text(str(d["best"]), kind, game_id),
        cost=cost,
    )


def _result(body: Mapping[str, Any]) -> str:
    """``your side took 5 tricks of 13`` / ``you scored 3 points``."""
    result = float(body["result"])
    shown = f"{result:g}"
    count = int(abs(result)) if result.is_integer() else 2  # 1.5 points: the plural
    if body.get("result_unit", "tricks") == "points":
        return ngettext(
            "you scored {n} point in this deal", "you scored {n} points in this deal", count
        ).format(n=shown)
    try:
        total = make_rules(str(body.get("game_id", ""))).tricks_per_deal
    except ValueError:
        total = 0
    if total:
        return ngettext(
            "your side took {n} trick of {total}", "your side took {n} tricks of {total}", count
        ).format(n=shown, total=total)
    return ngettext("your side took {n} trick", "your side took {n} tricks", count).format(n=shown)


def _counts(mistakes: int, inaccuracies: int) -> str:
    """``2 mistakes, 1 inaccuracy`` (the headline's verdict)."""
    if not mistakes and not inaccuracies:
        return _("No mistakes")
    parts = []
    if mistakes:
        parts.append(ngettext("{n} mistake", "{n} mistakes", mistakes).format(n=mistakes))
    if inaccuracies:
        parts.append(
            ngettext("{n} inaccuracy", "{n} inaccuracies", inaccuracies).format(n=inaccuracies)
        )
    return ", ".join(parts)


def review_text(
    body: Mapping[str, Any], table_id: int, seat_name: str, show_double_dummy: bool
) -> str:
    """The review of one seat's decisions in one deal (``body``: ``DealReview.to_json``),
    read at a glance: a headline (``2 mistakes, 1 inaccuracy — your side took 5 tricks
    of 13``), the costliest mistakes (at most :data:`FLAGGED_SHOWN`) in plain words, the
    rest counted in one line. The figures behind it (each cost with its margin, every
    hand known, the lie of the cards) are :func:`review_details`, for a button.
    ``show_double_dummy`` is for the details; the main text never shows the hidden hands'
    figures."""
    unit = str(body["unit"])
    decisions: Sequence[Mapping[str, Any]] = body["decisions"]
    game_id = str(body.get("game_id", ""))
    flagged = sorted((d for d in decisions if d["flagged"]), key=lambda d: -float(d["cost"]))
    inaccuracies = [d for d in decisions if _is_inaccuracy(d, unit)]
    lines = [
        _("**Review of table #{table}, deal {deal}** — {seat}").format(
            table=table_id, deal=body["deal"], seat=seat_name
        ),
        _("{verdict} — {result}.").format(
            verdict=_counts(len(flagged), len(inaccuracies)), result=_result(body)
        ),
    ]
    shown = flagged[:FLAGGED_SHOWN]
    for d in shown:
        cost = _("it cost {amount}").format(amount=_about(float(d["cost"]), _unit(d, unit)))
        lines.append("⚠️ " + _decision_line(d, game_id, cost) + ".")
    rest = len(decisions) - len(shown)
    if rest:
        lines.append(_rest_line(rest, len(flagged) - len(shown), len(inaccuracies), bool(shown)))
    if flagged:
        lines.append(_("Your mistakes are now puzzles: `/ruff puzzle`."))
    return "\n".join(lines)


def _rest_line(rest: int, mistakes: int, inaccuracies: int, after_shown: bool) -> str:
    """The ``rest`` decisions not spelled out, in one line: how many were mistakes or
    inaccuracies, and that the others were as good as the seat could know."""
    found = []
    if mistakes:
        found.append(ngettext("{n} more mistake", "{n} more mistakes", mistakes).format(n=mistakes))
    if inaccuracies:
        found.append(
            ngettext("{n} inaccuracy", "{n} inaccuracies", inaccuracies).format(n=inaccuracies)
        )
    fine = rest - mistakes - inaccuracies
    if not found:
        if after_shown:
            return ngettext(
                "Your other decision was as good as you could know.",
                "Your other {n} decisions were as good as you could know.",
                rest,
            ).format(n=rest)
        return ngettext(
            "Your one decision was as good as you could know.",
            "All {n} of your decisions were as good as you could know.",
            rest,
        ).format(n=rest)
    if after_shown:
        head = ngettext(
            "Your other decision: {found}", "Your other {n} decisions: {found}", rest
        ).format(n=rest, found=", ".join(found))
    else:
        head = ngettext("Your decision: {found}", "Your {n} decisions: {found}", rest).format(
            n=rest, found=", ".join(found)
        )
    if fine:
        head += ngettext(
            "; {n} as good as you could know", "; {n} as good as you could know", fine
        ).format(n=fine)
    return head + "."


def review_details(body: Mapping[str, Any], show_double_dummy: bool) -> str:
    """The figures behind :func:`review_text`, for those who want them (a **Details**
    button): each costly decision's cost with its margin (and, where the record may
    show it, with every hand known), the split of the result into decisions and the
    lie of the cards, and how the figures are made."""
    unit = str(body["unit"])
    decisions: Sequence[Mapping[str, Any]] = body["decisions"]
    game_id = str(body.get("game_id", ""))
    costly = [d for d in decisions if d["cost"] > 0 or d["flagged"]]
    costly.sort(key=lambda d: (not d["flagged"], -d["cost"]))
    lines = []
    for d in costly[:MAX_LISTED]:
        its_unit = _unit(d, unit)
        cost = _("it cost {cost} ± {error}").format(
            cost=_amount(float(d["cost"]), its_unit), error=f"{d['error']:.2f}"
        )
        if show_double_dummy and d["dd_cost"] is not None:
            cost += _(" (all hands known: {cost})").format(cost=_amount(d["dd_cost"], its_unit))
        lines.append(("⚠️ " if d["flagged"] else "· ") + _decision_line(d, game_id, cost))
    lines.append(summary_line(body, show_double_dummy))
    if unit == "points":
        lines.append(
            _(
                "Points: what the deal is worth to your side, as the hard AI plays for it"
                " (your side's score less the others', a game won or lost counting more)."
            )
        )
    lines.append(
        _(
            "Single dummy: each decision (card, bid, call, lay-out) is scored over deals of"
            " the cards you could not see, consistent with everything you saw; ⚠️ marks a"
            " cost beyond chance. Flagged decisions are now puzzles: `/ruff puzzle`."
        )
    )
    return "\n".join(lines)


def summary_line(body: Mapping[str, Any], show_double_dummy: bool) -> str:
    """ "Two decisions cost about 1.4 tricks; the lie of the cards cost 1.0"."""
    unit = str(body["unit"])
    flagged = [d for d in body["decisions"] if d["flagged"]]
    spent: dict[str, float] = {}
    for d in flagged:
        its_unit = str(d.get("unit") or unit)
        spent[its_unit] = spent.get(its_unit, 0.0) + float(d["cost"])
    if flagged:
        head = ngettext(
            "{n} decision cost about {cost}",
            "{n} decisions cost about {cost}",
            len(flagged),
        ).format(n=len(flagged), cost=_(" and ").join(_amount(v, u) for u, v in spent.items()))
    else:
        head = _("No decision cost anything beyond chance")
    par, average = body.get("par"), body.get("average")
    if not show_double_dummy or par is None or average is None:
        return _("**Summary:** {head}.").format(head=head)
    luck = float(par) - float(average)
    if abs(luck) < 0.05:
        cards = _("the lie of the cards was average")
    elif luck < 0:
        cards = _("the lie of the cards cost {amount}").format(amount=_amount(-luck, unit))
    else:
        cards = _("the lie of the cards gave {amount}").format(amount=_amount(luck, unit))
    return _(
        "**Summary:** {head}; {cards} (with every hand known, the deal was worth {par}"
        " to your side from your first choice; {average} on average over the deals"
        " you could not tell from it)."
    ).format(head=head, cards=cards, par=f"{float(par):.1f}", average=f"{float(average):.1f}")


def puzzle_text(
    body: Mapping[str, Any], puzzle_id: int, own: bool, hand_shown: bool = False
) -> str:
    """The position of a puzzle as its seat saw it, and the question; ``hand_shown``:
    the hand is on the card buttons below, so the text does not list it again."""
    n = int(body["n_seats"])
    names = seat_names(n)
    seat = int(body["seat"])
    trump = body.get("trump")
    lines = [
        _("**Puzzle #{id}**").format(id=puzzle_id)
        + (" " + _("(from one of your games)") if own else " " + _("(from this server's games)")),
        _("You are {seat}. Trumps: {trump}. Trick {trick}.").format(
            seat=names[seat],
            trump=suit_text(None if trump is None else Suit(trump)),
            trick=body["trick_no"],
        )
        if body["trick_no"]
        else _("You are {seat}. Trumps: {trump}. Before the play.").format(
            seat=names[seat], trump=suit_text(None if trump is None else Suit(trump))
        ),
    ]
    sides = body["sides"]
    tricks = body["tricks"]
    mine = sides[seat]
    if mine < len(tricks):
        others = sum(t for s, t in enumerate(tricks) if s != mine)
        lines.append(
            _("Tricks so far: your side {mine}, the others {others}.").format(
                mine=tricks[mine], others=others
            )
        )
    if body.get("contract"):
        lines.append(_("Contract: {contract}").format(contract=body["contract"]))
    if body.get("kind", "card") != "card":
        return "\n".join([*lines, *_call_lines(body, names)])
    gone = [Card.parse(c) for c in body["gone"]]
    lines.append(_("Cards gone in earlier tricks: {cards}").format(cards=cards_text(gone)))
    if body["trick"]:
        played = ", ".join(f"{names[s]} {_card(c)}" for s, c in body["trick"])
        lines.append(_("This trick: {cards}").format(cards=played))
    else:
        lines.append(_("You are to lead."))
    if not hand_shown:
        lines.append(
            _("Your hand: {cards}").format(cards=cards_text([Card.parse(c) for c in body["hand"]]))
        )
    lines.append(_("**Which card?**"))
    return "\n".join(lines)


def _call_lines(body: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """A decision before the play: the turn-up, the auction so far, the hand, the question."""
    lines: list[str] = []
    if body.get("turn_up"):
        lines.append(_("Turn-up: {card}").format(card=_card(str(body["turn_up"]))))
    auction = body.get("auction") or []
    if auction:
        said = ", ".join(f"{names[int(s)]} {call}" for s, call in auction)
        lines.append(_("The auction so far: {calls}").format(calls=said))
    lines.append(
        _("Your hand: {cards}").format(cards=cards_text([Card.parse(c) for c in body["hand"]]))
    )
    kind = str(body.get("decision_kind", "call"))
    if kind == "lay-out":
        lines.append(_("**Which cards do you lay out?**"))
    elif kind == "kitty":
        lines.append(_("**Which card do you lay out next?**"))
    else:
        lines.append(_("**What do you choose?**"))
    return lines


def puzzle_choices(body: Mapping[str, Any]) -> list[str]:
    """A puzzle's answers as button labels, in the order of its ``legal`` codes."""
    kind = str(body.get("decision_kind", "card"))
    if body.get("kind", "card") == "card":
        return [card_text(Card.parse(c)) for c in body["legal"]]
    return [choice_text(str(c), kind, str(body.get("game_id", ""))) for c in body["legal"]]


def _value_of(body: Mapping[str, Any], card: str) -> float | None:
    rep = body["stands_for"].get(card, card)
    for code, value in body["options"]:
        if code == rep:
            return float(value)
    return None


def is_correct(body: Mapping[str, Any], card: str, threshold: float) -> bool:
    """Whether ``card`` is as good as the best within ``threshold`` (a flag's size)."""
    value = _value_of(body, card)
    best = _value_of(body, str(body["best"]))
    return value is not None and best is not None and best - value < threshold


def reason_text(body: Mapping[str, Any], chosen: str) -> str:
    """Why the best card beats ``chosen``, in words, when a simple reason fits."""
    best = Card.parse(str(body["best"]))
    other = Card.parse(chosen)
    if best.is_joker or other.is_joker:
        return ""
    trump = body.get("trump")
    seen = {Card.parse(c).index for c in (*body["gone"], *body["hand"])}
    seen |= {Card.parse(c).index for _s, c in body["trick"]}
    if best.suit == other.suit:
        higher_out = [
            c
            for c in range(best.suit.order * 13, best.suit.order * 13 + 13)
            if c not in seen and c > best.index
        ]
        if best.index < other.index and higher_out:
            top = Card.from_index(max(higher_out))
            return _("keep {card} back: the {top} is still out").format(
                card=card_text(other), top=card_text(top)
            )
        if best.index > other.index:
            return _("play high: {card} can win the trick").format(card=card_text(best))
    if trump is not None and best.suit.value == trump and other.suit.value != trump:
        return _("trump it: the trick is worth a trump")
    if trump is not None and other.suit.value == trump and best.suit.value != trump:
        return _("keep your trump for later")
    return ""


def answer_text(body: Mapping[str, Any], card: str, threshold: float) -> str:
    """The verdict on ``card``: right or not, the figures of the choice and the best, and why."""
    unit = str(body["unit"])
    best = str(body["best"])
    value = _value_of(body, card)
    best_value = _value_of(body, best)
    if value is None or best_value is None:
        return _("That card was not one of the choices.")
    worlds = int(body.get("worlds", 0))
    is_card = body.get("kind", "card") == "card"
    game_id = str(body.get("game_id", ""))
    kind = "card" if is_card else str(body.get("decision_kind", "call"))
    if is_correct(body, card, threshold):
        head = _("✅ Right: {card} is as good as the best ({value} on average).").format(
            card=choice_text(card, kind, game_id), value=_amount(value, unit)
        )
    else:
        head = _("❌ {best} keeps {gain} more on average than {card} ({a} against {b}).").format(
            best=choice_text(best, kind, game_id),
            gain=_amount(best_value - value, unit),
            card=choice_text(card, kind, game_id),
            a=f"{best_value:.1f}",
            b=f"{value:.1f}",
        )
        reason = reason_text(body, card) if is_card else ""
        if reason:
            head += " " + _("Why: {reason}.").format(reason=reason)
    played = str(body["played"])
    tail = _(
        "Measured over {n} deals of the cards you could not see. In the game, {played} was chosen."
    ).format(n=worlds, played=choice_text(played, kind, game_id))
    return head + "\n" + tail


def unmeasured_text(body: Mapping[str, Any], cards: Sequence[str]) -> str:
    """A lay-out chosen that the coach did not measure at this position: said so (not
    counted), with how many were measured."""
    game_id = str(body.get("game_id", ""))
    code = " ".join(cards)
    return _(
        "The coach did not measure {choice} here: it weighed the {n} likeliest lay-outs."
        " Choose again, or see the solution."
    ).format(choice=choice_text(code, "lay-out", game_id), n=len(body["legal"]))


def solution_text(body: Mapping[str, Any]) -> str:
    """A puzzle's solution: the best choice with its figure, the one chosen in the game,
    and why, where a simple reason fits."""
    unit = str(body["unit"])
    best = str(body["best"])
    played = str(body["played"])
    is_card = body.get("kind", "card") == "card"
    kind = "card" if is_card else str(body.get("decision_kind", "call"))
    game_id = str(body.get("game_id", ""))
    best_value = _value_of(body, best)
    played_value = _value_of(body, played)
    lines = [
        _("💡 The solution: {best} ({value} on average).").format(
            best=choice_text(best, kind, game_id),
            value=_amount(best_value or 0.0, unit),
        )
    ]
    if played_value is not None and best_value is not None and played != best:
        line = _("In the game, {played} was chosen: {gain} less on average.").format(
            played=choice_text(played, kind, game_id),
            gain=_amount(best_value - played_value, unit),
        )
        reason = reason_text(body, played) if is_card else ""
        if reason:
            line += " " + _("Why: {reason}.").format(reason=reason)
        lines.append(line)
    return "\n".join(lines)
