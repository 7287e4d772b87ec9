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

import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.features import Feature
from bot.features.coach.coach import Coach
from bot.features.coach.hints import Hints
from bot.features.coach.lessons import Lessons
from bot.features.items import item_class, not_recognised, numbers
from bot.present.i18n import N_, _
from bot.present.locales import Remembers
from bot.present.replies import refuse
from bot.tables.lesson_scripts import LESSONS
from engine import Action, ActionParseError, Card, CardParseError, decode_action

__all__ = ["COACH_PREFIX", "HINT_PREFIX", "LESSON_PREFIXES", "build"]

Interaction = discord.Interaction[Any]

COACH_PREFIX = "rc:"
HINT_PREFIX = "rh:h:"
LESSON_PREFIXES = ("rh:l:", "rh:ld:", "rh:lk:", "rh:lc:")

_ID = r"(\d{1,19})"  # a table or a puzzle
_CARDS = r"([0-9AJQKLSHDCB]{2,3}(?:\.[0-9AJQKLSHDCB]{2,3}){0,11})"
_LESSON = r"([a-z0-9-]{1,24})"
_STEP = r"(\d{1,4})"
_LESSON_CARDS = r"([0-9A-Z]{2,3}(?:\.[0-9A-Z]{2,3}){0,11})"


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

    # rc: reviews and puzzles
    async def on_details(i: Interaction, table: int, deal: int) -> None:
        await coach.review(i, table, deal, details=True)

    async def on_answer(i: Interaction, m: re.Match[str], values: Sequence[str]) -> None:
        choice = m.group(2)
        if not choice.startswith("o"):
            try:
                choice = str(Card.parse(choice))
            except CardParseError:
                await not_recognised(i)
                return
        await coach.answer(i, int(m.group(1)), choice)

    async def on_pick(i: Interaction, m: re.Match[str], values: Sequence[str]) -> None:
        cards = _card_codes(values)
        if not cards or len(set(cards)) != len(cards):
            await not_recognised(i)
            return
        await coach.pick(i, int(m.group(1)), cards)

    async def on_confirm(i: Interaction, m: re.Match[str], values: Sequence[str]) -> None:
        cards = _card_codes(m.group(2).split("."))
        if cards is None or len(set(cards)) != len(cards):
            await not_recognised(i)
            return
        await coach.answer(i, int(m.group(1)), "k" + " ".join(cards))

    async def on_choice(i: Interaction, m: re.Match[str], values: Sequence[str]) -> None:
        if len(values) != 1:
            await not_recognised(i)
            return
        await coach.answer(i, int(m.group(1)), "a" + values[0][:40])

    async def on_next(i: Interaction, m: re.Match[str], values: Sequence[str]) -> None:
        await coach.next_puzzle(i, None if m.group(1) is None else int(m.group(1)))

    # rh:l: (rh:ld:, rh:lk:, rh:lc:) a lesson's controls
    async def on_start(i: Interaction, m: re.Match[str], values: Sequence[str]) -> None:
        await lessons.on_lesson(i, m.group(1), -1, None)

    async def on_step(i: Interaction, m: re.Match[str], values: Sequence[str]) -> None:
        try:
            action = decode_action(m.group(3))
        except ActionParseError:
            await not_recognised(i)
            return
        await lessons.on_lesson(i, m.group(1), int(m.group(2)), action)

    async def on_lesson_pick(i: Interaction, m: re.Match[str], values: Sequence[str]) -> None:
        """Cards chosen in a lesson's lay-out menu (shown with Confirm)."""
        if not values:
            await refuse(i, _("That is not one of the choices."))
            return
        await lessons.on_lesson(i, m.group(1), int(m.group(2)), None, cards=values)

    async def on_lesson_confirm(i: Interaction, m: re.Match[str], values: Sequence[str]) -> None:
        """**Confirm** under a lesson's lay-out menu."""
        cards = tuple(m.group(3).split("."))
        await lessons.on_lesson(i, m.group(1), int(m.group(2)), None, cards=cards, confirmed=True)

    async def on_lesson_choice(i: Interaction, m: re.Match[str], values: Sequence[str]) -> None:
        """One choice of a lesson's menu (the engine's encoding)."""
        chosen = _one_action(values)
        if chosen is None:
            await refuse(i, _("That is not one of the choices."))
            return
        await lessons.on_lesson(i, m.group(1), int(m.group(2)), chosen)

    return Feature(
        name="coach",
        commands=[lesson, review, puzzle],
        items=[
            item_class(
                "CoachItem",
                COACH_PREFIX,
                {
                    rf"v:{_ID}:(\d{{1,6}})": numbers(coach.review),
                    rf"d:{_ID}:(\d{{1,6}})": numbers(on_details),
                    rf"p:{_ID}:([0-9AJQKLSHDCB]{{2,3}}|o\d{{1,2}})": on_answer,
                    rf"m:{_ID}": on_pick,
                    rf"k:{_ID}:{_CARDS}": on_confirm,
                    rf"c:{_ID}:(\d)": on_choice,
                    rf"s:{_ID}": numbers(coach.solution),
                    rf"n(?::{_ID})?": on_next,
                },
                locales,
            ),
            item_class(
                "HintButton",
                HINT_PREFIX,
                {r"(\d{1,19}):(\d{1,9}):([0-3])": numbers(hints.on_hint)},
                locales,
            ),
            item_class(
                "LessonButton",
                LESSON_PREFIXES[0],
                {
                    rf"{_LESSON}:start": on_start,
                    rf"{_LESSON}:{_STEP}:([a-z]{{1,10}}(?::[0-9A-Za-z-]{{1,16}})?)": on_step,
                },
                locales,
            ),
            item_class(
                "LessonPick", LESSON_PREFIXES[1], {rf"{_LESSON}:{_STEP}": on_lesson_pick}, locales
            ),
            item_class(
                "LessonConfirm",
                LESSON_PREFIXES[2],
                {rf"{_LESSON}:{_STEP}:{_LESSON_CARDS}": on_lesson_confirm},
                locales,
            ),
            item_class(
                "LessonChoice",
                LESSON_PREFIXES[3],
                {rf"{_LESSON}:{_STEP}:(\d)": on_lesson_choice},
                locales,
            ),
        ],
    )
