"""A lesson's words (``/ruff lesson``): its message at each step, a wrong answer's
note, its end, and the list of lessons. The lesson's own lines come translated
from its script (``bot.tables.lesson_scripts``); the deal is shown with the same
lines as a hand message (trumps, score, the trick, the hand)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.i18n import _
from bot.present.render.bidwhist import view_hand_text, view_sorted
from bot.present.render.common import TableInfo, cards_text, fit
from bot.present.render.hand import named_last_trick_line, named_trick_line
from bot.present.render.lines import score_line, tricks_line, trump_line
from bot.present.render.table import game_lines
from engine import Card, SeatView

__all__ = [
    "lesson_done_text",
    "lesson_list_text",
    "lesson_text",
    "wrong_text",
]


def lesson_text(
    info: TableInfo,
    view: SeatView,
    title: str,
    step: int,
    steps: int,
    said: Sequence[str],
    ask: str,
    hand_shown: bool = False,
    chosen: Sequence[Card] = (),
) -> str:
    """The lesson's message at a step of the learner's: what happened since the last
    answer (``said``), the deal as the learner sees it, and the question. ``hand_shown``:
    every card of the hand is a button below, so the text does not list it (as a hand
    DM); ``chosen``: the cards chosen in the lay-out menu, to be confirmed."""
    lines = ["🎓 **" + title + "** · " + _("step {k} of {n}").format(k=step, n=steps)]
    lines.extend(said)
    lines.append(trump_line(info, view) + " · " + score_line(info, view))
    lines.extend(game_lines(info, view, view.seat))
    trick = named_trick_line(info, view)
    if trick:
        lines.append(trick)
    last = named_last_trick_line(info, view)
    if last:
        lines.append(last)
    if view.completed_tricks:
        lines.append(tricks_line(info, view))
    if not hand_shown:
        lines.append(
            _("Your hand ({count}): {cards}").format(
                count=len(view.hand), cards=view_hand_text(view)
            )
        )
    if view.stock_taken:
        lines.append(
            _("Taken in: {cards}").format(cards=cards_text(view_sorted(view, view.stock_taken)))
        )
    if view.my_discards:
        lines.append(_("Laid out: {cards}").format(cards=cards_text(view.my_discards)))
    lines.append("❓ " + ask)
    if chosen:
        lines.append(
            _("Chosen: {cards} — press **Confirm**.").format(cards=cards_text(list(chosen)))
        )
    return fit(lines)


def wrong_text(why: str) -> str:
    """The private note on a wrong answer: the explanation, and try again."""
    return _("❌ Not this one. {why}\nTry again: nothing has changed.").format(why=why)


def lesson_done_text(title: str, said: Sequence[str], learned: str, next_title: str) -> str:
    """The lesson's last message: what happened last, what it taught, what comes next."""
    lines = ["🎓 **" + title + "** · " + _("done")]
    lines.extend(said)
    lines.append(_("**What you learned:** {learned}").format(learned=learned))
    if next_title:
        lines.append(_("Next: **{title}** — press the button below.").format(title=next_title))
    else:
        lines.append(_("That was the last lesson. `/ruff lesson` lists them all."))
    return fit(lines)


def lesson_list_text(entries: Sequence[tuple[str, str, int, int, bool]]) -> str:
    """``/ruff lesson`` without a name: each lesson (name, title, steps done, steps,
    finished) and how far the reader got."""
    lines = [_("🎓 **Lessons** — short deals that teach the rules newcomers ask about:")]
    for name, title, done, steps, finished in entries:
        if finished:
            state = _("✅ done")
        elif done:
            state = _("step {k} of {n}").format(k=done + 1, n=steps)
        else:
            state = _("new")
        lines.append(f"• **{title}** (`{name}`) · {state}")
    lines.append(
        _("Start one with `/ruff lesson name:` or a button below; it is played in your DMs.")
    )
    return fit(lines)
