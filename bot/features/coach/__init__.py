"""The coach as a feature: ``/ruff review``, ``/ruff puzzle``, ``/ruff lesson``, the
Hint button's answer, and their buttons and menus.

* :mod:`bot.features.coach.coach` — reviews of finished deals (a server's tables and a
  board's, one way: :meth:`Coach.review_seat`) and the puzzles made of them;
* :mod:`bot.features.coach.review_pool` — the reviews' worker process;
* :mod:`bot.features.coach.lessons` — the lessons, played in the learner's DMs;
* :mod:`bot.features.coach.hints` — the Hint button of a table with hints (its
  ``refusal`` and ``think`` serve the web table too, through the wiring's door).

Its ids (drawn by :mod:`bot.present.coach_components` and, for the hand's Hint and a
lesson's controls, :mod:`bot.present.components`; the grammar is the one those
buttons had before the feature had a package of its own, so old messages still work):

* ``rc:v:<table>:<deal>`` — Review my play under a deal summary; ``rc:d:<table>:<deal>``
  — **Details** under a review; ``rc:p:<puzzle>:<card|o<n>>`` — a puzzle's answer;
  ``rc:m:<puzzle>`` — its lay-out menu, ``rc:k:<puzzle>:<card>.<card>...`` — that
  menu's **Confirm**; ``rc:c:<puzzle>:<k>`` — its ``k``-th menu of calls;
  ``rc:s:<puzzle>`` — **Show the solution**; ``rc:n[:<puzzle>]`` — **Next puzzle**;
* ``rh:h:<table>:<version>:<seat>`` — the Hint button of a hand, stamped like a card
  (a hint for an earlier turn is stale);
* ``rh:l:<lesson>:<step>:<action>`` — a lesson's answer at its step (the engine's
  encoding), ``rh:l:<lesson>:start`` — start (or resume) it; ``rh:ld:<lesson>:<step>``
  — a lesson's lay-out menu (choosing shows the choice with **Confirm**),
  ``rh:lk:<lesson>:<step>:<card>.<card>...`` — that **Confirm**,
  ``rh:lc:<lesson>:<step>:<k>`` — a lesson's ``k``-th menu of choices.

An id of these prefixes the feature cannot read is answered privately and changes
nothing.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.features import Feature
from bot.features.coach.coach import Coach
from bot.features.coach.hints import Hints
from bot.features.coach.lessons import Lessons
from bot.features.items import item_class, not_recognised
from bot.present.i18n import N_, _
from bot.present.locales import Remembers
from bot.present.replies import refuse
from bot.tables.lesson_scripts import LESSONS
from engine import Action, ActionParseError, Card, CardParseError, decode_action

log = logging.getLogger(__name__)

__all__ = ["COACH_PREFIX", "HINT_PREFIX", "LESSON_PREFIXES", "build"]

COACH_PREFIX = "rc:"
HINT_PREFIX = "rh:h:"
LESSON_PREFIXES = ("rh:l:", "rh:ld:", "rh:lk:", "rh:lc:")

_REVIEW_RE = re.compile(r"v:(\d{1,19}):(\d{1,6})")
_DETAILS_RE = re.compile(r"d:(\d{1,19}):(\d{1,6})")
_ANSWER_RE = re.compile(r"p:(\d{1,19}):([0-9AJQKLSHDCB]{2,3}|o\d{1,2})")
_SOLUTION_RE = re.compile(r"s:(\d{1,19})")
_CONFIRM_RE = re.compile(r"k:(\d{1,19}):([0-9AJQKLSHDCB]{2,3}(?:\.[0-9AJQKLSHDCB]{2,3}){0,11})")
_PICK_RE = re.compile(r"m:(\d{1,19})")
_CHOICE_RE = re.compile(r"c:(\d{1,19}):(\d)")
_NEXT_RE = re.compile(r"n(?::(\d{1,19}))?")

_HINT_RE = re.compile(r"(\d{1,19}):(\d{1,9}):([0-3])")
_LESSON_RE = re.compile(r"([a-z0-9-]{1,24}):(\d{1,4}):([a-z]{1,10}(?::[0-9A-Za-z-]{1,16})?)")
_LESSON_START_RE = re.compile(r"([a-z0-9-]{1,24}):start")
_LESSON_PICK_RE = re.compile(r"([a-z0-9-]{1,24}):(\d{1,4})")
_LESSON_CONFIRM_RE = re.compile(
    r"([a-z0-9-]{1,24}):(\d{1,4}):([0-9A-Z]{2,3}(?:\.[0-9A-Z]{2,3}){0,11})"
)
_LESSON_CHOICE_RE = re.compile(r"([a-z0-9-]{1,24}):(\d{1,4}):(\d)")


def _card_codes(codes: Sequence[str]) -> list[str] | None:
    """``codes`` as cards' codes (``10H``), or None when one is not a card."""
    out: list[str] = []
    for code in codes:
        try:
            out.append(str(Card.parse(code)))
        except CardParseError:
            return None
    return out


def _one_action(values: Sequence[str]) -> Action | None:
    """A menu's one chosen value as the engine's action, or None."""
    if len(values) != 1:
        return None
    try:
        return decode_action(values[0])
    except ActionParseError:
        return None


def build(coach: Coach, hints: Hints, lessons: Lessons, locales: Remembers) -> Feature:
    """The feature over its parts (made by the manager: the daily boards' review and the
    web table's hints use the same ``coach`` and ``hints``)."""

    @app_commands.command(
        name="review", description=N_("Which of your cards cost you in a finished deal (private)")
    )
    @app_commands.describe(
        table=N_("Table number (default: your table in this channel, else your last game)"),
        deal=N_("Deal number at that table (default: the last finished one)"),
    )
    async def review(
        interaction: discord.Interaction[Any],
        table: app_commands.Range[int, 1, 2**53] | None = None,
        deal: app_commands.Range[int, 1, 10000] | None = None,
    ) -> None:
        await coach.review(interaction, table, deal)

    @app_commands.command(
        name="puzzle", description=N_("Replay a position where a card cost you (or a server mate)")
    )
    async def puzzle(interaction: discord.Interaction[Any]) -> None:
        await coach.puzzle(interaction)

    @app_commands.command(
        name="lesson", description=N_("A short lesson on a rule newcomers ask about, in your DMs")
    )
    @app_commands.describe(name=N_("Which lesson (default: the list of lessons)"))
    @app_commands.choices(
        name=[app_commands.Choice(name=lesson.title, value=lesson.name) for lesson in LESSONS]
    )
    async def lesson(interaction: discord.Interaction[Any], name: str | None = None) -> None:
        await lessons.command(interaction, name)

    async def on_coach(
        interaction: discord.Interaction[Any], rest: str, values: Sequence[str]
    ) -> None:
        """Every ``rc:`` button and menu: reviews and puzzles."""
        if m := _PICK_RE.fullmatch(rest):
            cards = _card_codes(values)
            if cards and len(set(cards)) == len(cards):
                await coach.pick(interaction, int(m.group(1)), cards)
                return
        elif m := _CHOICE_RE.fullmatch(rest):
            if len(values) == 1:
                await coach.answer(interaction, int(m.group(1)), "a" + values[0][:40])
                return
        elif m := _CONFIRM_RE.fullmatch(rest):
            cards = _card_codes(m.group(2).split("."))
            if cards is not None and len(set(cards)) == len(cards):
                await coach.answer(interaction, int(m.group(1)), "k" + " ".join(cards))
                return
        elif m := _REVIEW_RE.fullmatch(rest):
            await coach.review(interaction, int(m.group(1)), int(m.group(2)))
            return
        elif m := _DETAILS_RE.fullmatch(rest):
            await coach.review(interaction, int(m.group(1)), int(m.group(2)), details=True)
            return
        elif m := _ANSWER_RE.fullmatch(rest):
            choice = m.group(2)
            if not choice.startswith("o"):
                try:
                    choice = str(Card.parse(choice))
                except CardParseError:
                    choice = ""
            if choice:
                await coach.answer(interaction, int(m.group(1)), choice)
                return
        elif m := _NEXT_RE.fullmatch(rest):
            await coach.next_puzzle(interaction, None if m.group(1) is None else int(m.group(1)))
            return
        elif m := _SOLUTION_RE.fullmatch(rest):
            await coach.solution(interaction, int(m.group(1)))
            return
        log.debug("refused malformed coach custom_id %r from user %s", rest, interaction.user.id)
        await not_recognised(interaction)

    async def on_hint(
        interaction: discord.Interaction[Any], rest: str, values: Sequence[str]
    ) -> None:
        m = _HINT_RE.fullmatch(rest)
        if m is None:
            await not_recognised(interaction)
            return
        await hints.on_hint(interaction, int(m.group(1)), int(m.group(2)), int(m.group(3)))

    async def on_lesson(
        interaction: discord.Interaction[Any], rest: str, values: Sequence[str]
    ) -> None:
        """``rh:l:``: start a lesson, or answer its step with a button's action."""
        if m := _LESSON_START_RE.fullmatch(rest):
            await lessons.on_lesson(interaction, m.group(1), -1, None)
            return
        m = _LESSON_RE.fullmatch(rest)
        action: Action | None = None
        if m is not None:
            try:
                action = decode_action(m.group(3))
            except ActionParseError:
                action = None
        if m is None or action is None:
            await not_recognised(interaction)
            return
        await lessons.on_lesson(interaction, m.group(1), int(m.group(2)), action)

    async def on_lesson_pick(
        interaction: discord.Interaction[Any], rest: str, values: Sequence[str]
    ) -> None:
        """``rh:ld:``: cards chosen in a lesson's lay-out menu (shown with Confirm)."""
        m = _LESSON_PICK_RE.fullmatch(rest)
        if m is None:
            await not_recognised(interaction)
            return
        if not values:
            await refuse(interaction, _("That is not one of the choices."))
            return
        await lessons.on_lesson(interaction, m.group(1), int(m.group(2)), None, cards=values)

    async def on_lesson_confirm(
        interaction: discord.Interaction[Any], rest: str, values: Sequence[str]
    ) -> None:
        """``rh:lk:``: **Confirm** under a lesson's lay-out menu."""
        m = _LESSON_CONFIRM_RE.fullmatch(rest)
        if m is None:
            await not_recognised(interaction)
            return
        await lessons.on_lesson(
            interaction,
            m.group(1),
            int(m.group(2)),
            None,
            cards=tuple(m.group(3).split(".")),
            confirmed=True,
        )

    async def on_lesson_choice(
        interaction: discord.Interaction[Any], rest: str, values: Sequence[str]
    ) -> None:
        """``rh:lc:``: one choice of a lesson's menu (the engine's encoding)."""
        m = _LESSON_CHOICE_RE.fullmatch(rest)
        if m is None:
            await not_recognised(interaction)
            return
        chosen = _one_action(values)
        if chosen is None:
            await refuse(interaction, _("That is not one of the choices."))
            return
        await lessons.on_lesson(interaction, m.group(1), int(m.group(2)), chosen)

    return Feature(
        name="coach",
        commands=[lesson, review, puzzle],
        items=[
            item_class("CoachItem", COACH_PREFIX, on_coach, locales),
            item_class("HintButton", HINT_PREFIX, on_hint, locales),
            item_class("LessonButton", LESSON_PREFIXES[0], on_lesson, locales),
            item_class("LessonPick", LESSON_PREFIXES[1], on_lesson_pick, locales),
            item_class("LessonConfirm", LESSON_PREFIXES[2], on_lesson_confirm, locales),
            item_class("LessonChoice", LESSON_PREFIXES[3], on_lesson_choice, locales),
        ],
    )
