"""``/ruff lesson``: a short scripted deal played in the learner's DMs.

A lesson (:mod:`bot.tables.lesson_scripts`) is a stacked deal and its steps. The
learner's steps ask a question with the game's own controls (the hand DM's card
buttons with their suit marks, ▲ on a face-up layout card, the call buttons and
menus, the lay-out menu and **Confirm**: :func:`bot.present.controls.hand_controls`
with the lesson's ids); the other seats' steps are played by the script, each with
a line of explanation. A right answer
is played, the script runs on to the learner's next step, the progress is stored
(:class:`~bot.store.LessonRepo`, before the message changes) and the message is
edited in place; a wrong answer gets the explanation privately and changes
nothing. The last step says what the lesson taught and offers the next one.

Progress is the actions played so far, so a lesson resumes where it was left,
also after a restart (``/ruff lesson`` again, or a button of its message: the
deal is replayed from the script). A learner whose DMs are closed plays it in
private answers in the channel instead. Lessons are not tables: no game row, no
result, no rating.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.discord_ui.services import DiscordServices
from bot.present import components as ui
from bot.present.controls import hand_controls, hand_in_buttons
from bot.present.i18n import _, ngettext
from bot.present.render import SeatInfo, TableInfo
from bot.present.render.lessons import (
    lesson_done_text,
    lesson_list_text,
    lesson_text,
    wrong_text,
)
from bot.present.replies import refuse, reply
from bot.store import LessonRepo, LessonRow
from bot.tables.lesson_scripts import LESSONS, Lesson, lesson_named
from bot.tables.table import AI_NAMES
from engine import Action, Card, CardParseError, Game, SeatView, decode_action

log = logging.getLogger(__name__)

__all__ = ["Lessons"]


@dataclass(frozen=True, slots=True)
class _Place:
    """Where a learner stands in a lesson: the deal, the steps done, the actions played."""

    lesson: Lesson
    game: Game
    step: int
    actions: tuple[str, ...]

    @property
    def finished(self) -> bool:
        return self.step >= len(self.lesson.steps)

    @property
    def view(self) -> SeatView:
        """The learner's view with only the step's choices live (a lay-out: its count)."""
        lesson, game = self.lesson, self.game
        view = game.observe(lesson.learner)
        if self.finished:
            return view
        step = lesson.steps[self.step]
        live = tuple(Lessons.choices(self))
        if step.count > 1:
            return replace(view, legal=live, claims=(), to_lay_out=step.count)
        return replace(view, legal=live, claims=())


def _run_script(lesson: Lesson, game: Game, step: int, actions: list[str]) -> int:
    """Play the other seats' steps from ``step`` on, up to the learner's next step
    (or the end); returns the step reached."""
    steps = lesson.steps
    while step < len(steps) and steps[step].seat != lesson.learner:
        code = steps[step].answers[0]
        game.apply(steps[step].seat, decode_action(code))
        actions.append(code)
        step += 1
    return step


def _said(lesson: Lesson, step: int) -> list[str]:
    """What happened since the learner's last answer before ``step``: its explanation,
    then each scripted step's line."""
    lines: list[str] = []
    k = step - 1
    while k >= 0 and lesson.steps[k].seat != lesson.learner:
        lines.append("• " + _(lesson.steps[k].text))
        k -= 1
    lines.reverse()
    if k >= 0:
        lines.insert(0, "✅ " + _(lesson.steps[k].why))
    return lines


def _learner_steps(lesson: Lesson, before: int | None = None) -> int:
    steps = lesson.steps if before is None else lesson.steps[:before]
    return sum(1 for s in steps if s.seat == lesson.learner)


class Lessons:
    """Starts, resumes and answers the lessons."""

    def __init__(self, svc: DiscordServices) -> None:
        self.svc = svc
        self.repo = LessonRepo(svc.db)
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, user_id: int) -> asyncio.Lock:
        if len(self._locks) > 4096:  # bounded: drop the idle ones
            self._locks = {k: v for k, v in self._locks.items() if v.locked()}
        return self._locks.setdefault(user_id, asyncio.Lock())

    # ------------------------------------------------------------------ commands

    async def command(self, interaction: discord.Interaction[Any], name: str | None) -> None:
        """``/ruff lesson [name]``: the list of lessons, or one lesson (resumed if begun)."""
        if name is None:
            rows = {r.lesson: r for r in await self.repo.of_user(interaction.user.id)}
            entries = []
            for each in LESSONS:
                row = rows.get(each.name)
                entries.append(
                    (
                        each.name,
                        _(each.title),
                        _learner_steps(each, row.step) if row else 0,
                        _learner_steps(each),
                        bool(row and row.finished),
                    )
                )
            starts = [(each.name, _(each.title)[:80]) for each in LESSONS]
            await reply(
                interaction, lesson_list_text(entries), ui.lesson_view("", None, (), starts)
            )
            return
        found = lesson_named(name)
        if found is None:
            await refuse(
                interaction,
                _("There is no lesson called {name}. `/ruff lesson` lists them.").format(
                    name=repr(name)[:60]
                ),
            )
            return
        await self._start(interaction, found)

    async def on_lesson(
        self,
        interaction: discord.Interaction[Any],
        name: str,
        step: int,
        action: Action | None,
        cards: Sequence[str] = (),
        confirmed: bool = False,
    ) -> None:
        """A lesson's button or menu: start (or resume) it, answer its step, or choose
        (then confirm) the cards of its lay-out."""
        lesson = lesson_named(name)
        if lesson is None:
            await refuse(interaction, _("That lesson no longer exists. `/ruff lesson` lists them."))
            return
        if cards:
            await self._lay_out(interaction, lesson, step, cards, confirmed)
            return
        if action is None:
            await self._start(interaction, lesson)
            return
        await self._answer(interaction, lesson, step, (action,))

    # ------------------------------------------------------------------ the steps

    async def _start(self, interaction: discord.Interaction[Any], lesson: Lesson) -> None:
        user = interaction.user
        async with self._lock(user.id):
            row = await self.repo.get(user.id, lesson.name)
            place = self._resume(lesson, row)
            if place is None:  # new, finished before, or its script changed since: from the start
                game = lesson.new_game()
                actions: list[str] = []
                step = _run_script(lesson, game, 0, actions)
                place = _Place(lesson, game, step, tuple(actions))
                await self.repo.put(user.id, lesson.name, step, place.actions, place.finished)
        content, view = self._message(place, user)
        if interaction.guild is None:  # in the DMs already: the lesson is the answer
            await interaction.response.send_message(content, view=view)
            return
        try:
            await user.send(content, view=view)
        except discord.Forbidden:  # DMs closed: the lesson is played here, privately
            await reply(interaction, content, view)
            return
        except discord.HTTPException as exc:
            log.info("could not DM a lesson (HTTP %s)", exc.status)
            await refuse(
                interaction, _("Something went wrong — nothing was changed. Please try again.")
            )
            return
        await reply(interaction, _("📬 Your lesson is in your DMs."))

    def _resume(self, lesson: Lesson, row: LessonRow | None) -> _Place | None:
        """Where ``row`` left the lesson; None when there is nothing to resume."""
        if row is None or row.finished:
            return None
        learner_due = row.step < len(lesson.steps) and lesson.steps[row.step].seat == lesson.learner
        if len(row.actions) != lesson.actions_before(row.step) or not learner_due:
            return None  # the script changed under a stored lesson: start it again
        try:
            game = lesson.replay(row.actions)
        except Exception:  # the script changed under a stored lesson: start it again
            log.info("lesson %s: stored progress no longer replays; started again", lesson.name)
            return None
        return _Place(lesson, game, row.step, row.actions)

    async def _lay_out(
        self,
        interaction: discord.Interaction[Any],
        lesson: Lesson,
        step: int,
        codes: Sequence[str],
        confirmed: bool,
    ) -> None:
        """The lay-out menu: a choice shows itself with **Confirm** (nothing is judged
        yet); the Confirm answers the step with every card at once."""
        wanted = lesson.steps[step] if 0 <= step < len(lesson.steps) else None
        try:
            cards = [Card.parse(c) for c in codes]
        except CardParseError:
            cards = []
        if wanted is None or wanted.count < 2 or not cards:
            await refuse(interaction, _("That is not one of the choices."))
            return
        verb = decode_action(wanted.answers[0]).verb  # the lay-out's action: discard ...
        actions = tuple(decode_action(f"{verb}:{c}") for c in cards)
        if len(set(cards)) != wanted.count:
            await refuse(
                interaction,
                ngettext(
                    "Choose exactly {n} card.", "Choose exactly {n} cards.", wanted.count
                ).format(n=wanted.count),
            )
            return
        if confirmed:
            await self._answer(interaction, lesson, step, actions)
            return
        user = interaction.user
        async with self._lock(user.id):
            place = self._resume(lesson, await self.repo.get(user.id, lesson.name))
        if place is None or place.step != step:
            await refuse(
                interaction, _("That step is done — carry on from the lesson's latest message.")
            )
            return
        if any(a not in self.choices(place) for a in actions):
            await refuse(interaction, _("That is not one of the choices."))
            return
        content, view = self._message(place, user, chosen=cards)
        try:
            await interaction.response.edit_message(content=content, view=view)
        except discord.HTTPException as exc:
            log.info("could not show a lesson's chosen cards (HTTP %s)", exc.status)

    async def _answer(
        self,
        interaction: discord.Interaction[Any],
        lesson: Lesson,
        step: int,
        actions: tuple[Action, ...],
    ) -> None:
        user = interaction.user
        async with self._lock(user.id):
            row = await self.repo.get(user.id, lesson.name)
            place = self._resume(lesson, row)
            if place is None or place.step != step:
                await refuse(
                    interaction,
                    _("That step is done — carry on from the lesson's latest message."),
                )
                return
            wanted = lesson.steps[step]
            choices = self.choices(place)
            if len(actions) != wanted.count or any(a not in choices for a in actions):
                await refuse(interaction, _("That is not one of the choices."))
                return
            if any(a.encode() not in wanted.answers for a in actions):
                await reply(interaction, wrong_text(_(wanted.why)))
                return
            game = place.game
            played = list(place.actions)
            for action in actions:
                game.apply(lesson.learner, action)
                played.append(action.encode())
            reached = _run_script(lesson, game, step + 1, played)
            place = _Place(lesson, game, reached, tuple(played))
            await self.repo.put(user.id, lesson.name, reached, place.actions, place.finished)
        content, view = self._message(place, user)
        try:
            await interaction.response.edit_message(content=content, view=view)
        except discord.HTTPException as exc:
            log.info("could not edit a lesson message (HTTP %s); sending it anew", exc.status)
            await reply(interaction, content, view)

    # ------------------------------------------------------------------ what is shown

    @staticmethod
    def choices(place: _Place) -> list[Action]:
        """The learner's choices at the step: the step's offer, else every legal action."""
        lesson, game = place.lesson, place.game
        legal = game.legal_actions(lesson.learner)
        offer = lesson.steps[place.step].offer
        if offer:
            wanted = [decode_action(code) for code in offer]
            return [a for a in wanted if a in legal]
        return list(legal)

    def _message(
        self, place: _Place, user: discord.abc.User, chosen: Sequence[Card] = ()
    ) -> tuple[str, discord.ui.View]:
        lesson, game = place.lesson, place.game
        view = place.view
        n = game.rules.players
        seats = tuple(
            SeatInfo(user.display_name, user.id) if s == lesson.learner else SeatInfo(AI_NAMES[s])
            for s in range(n)
        )
        info = TableInfo(0, game.rules, seats)
        said = _said(lesson, place.step)
        if place.finished:
            later = LESSONS[LESSONS.index(lesson) + 1 :]
            following = later[0] if later else None
            text = lesson_done_text(
                _(lesson.title), said, _(lesson.learned), _(following.title) if following else ""
            )
            starts = [(following.name, _(following.title)[:80])] if following else []
            return text, ui.lesson_view(lesson.name, None, (), starts)
        text = lesson_text(
            info,
            view,
            _(lesson.title),
            _learner_steps(lesson, place.step) + 1,
            _learner_steps(lesson),
            said,
            _(lesson.steps[place.step].text),
            hand_shown=hand_in_buttons(view),
            chosen=chosen,
        )
        ids = ui.LessonIds(lesson.name, place.step)
        return text, hand_controls(0, 0, view, chosen=chosen, ids=ids)
