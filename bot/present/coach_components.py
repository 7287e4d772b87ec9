"""The coach's buttons: Review under a deal summary, a puzzle's cards, the next puzzle.

Their ids have a prefix of their own (``rc:``), so the table's buttons
(``rh:``, :mod:`bot.present.components`) never see them:

* ``rc:v:<table>:<deal>`` — review my cards in that deal (1-based at the table);
* ``rc:d:<table>:<deal>`` — the figures behind that review (**Details**);
* ``rc:p:<puzzle>:<card>`` — answer a puzzle with a card (``10H``);
* ``rc:s:<puzzle>`` — show that puzzle's solution;
* ``rc:n:<puzzle>`` — the next puzzle after that one (``rc:n``: any next one, on
  messages from before the puzzle's number was in the id).

The callbacks parse the id and hand over to the handler the wiring binds the class
to (:func:`bind_coach`: the manager, a :class:`CoachHandler`); a malformed id is
answered privately and changes nothing.
"""

from __future__ import annotations

import logging
import re
import weakref
from typing import Any, Protocol

import discord

from bot.present.i18n import _
from bot.present.locales import Remembers, arrive
from bot.present.render.common import card_label
from bot.present.replies import refuse
from engine import Card, CardParseError

log = logging.getLogger(__name__)

__all__ = [
    "CoachButton",
    "CoachHandler",
    "answer_view",
    "details_view",
    "next_view",
    "review_id",
    "review_view",
    "bind_coach",
]

_REVIEW_RE = re.compile(r"v:(\d{1,19}):(\d{1,6})")
_DETAILS_RE = re.compile(r"d:(\d{1,19}):(\d{1,6})")
_ANSWER_RE = re.compile(r"p:(\d{1,19}):([0-9AJQKLSHDCB]{2,3}|o\d{1,2})")
_SOLUTION_RE = re.compile(r"s:(\d{1,19})")
_NEXT_RE = re.compile(r"n(?::(\d{1,19}))?")
_ID_LIMIT = 100


class CoachHandler(Protocol):
    """The coach's side of its buttons (the manager)."""

    @property
    def user_locales(self) -> Remembers:
        """Each player's language, remembered from their clicks."""
        ...

    async def on_review_button(
        self, interaction: discord.Interaction[Any], table_id: int, deal: int
    ) -> None: ...

    async def on_review_details(
        self, interaction: discord.Interaction[Any], table_id: int, deal: int
    ) -> None: ...

    async def on_puzzle_answer(
        self, interaction: discord.Interaction[Any], puzzle_id: int, choice: str
    ) -> None:
        """``choice``: a card's code, or ``o<n>``: the puzzle's ``n``-th choice (a call)."""
        ...

    async def on_next_puzzle(
        self, interaction: discord.Interaction[Any], after: int | None
    ) -> None:
        """Another puzzle than ``after`` (the one on the message), where one is left."""
        ...

    async def on_puzzle_solution(
        self, interaction: discord.Interaction[Any], puzzle_id: int
    ) -> None: ...


def review_id(table_id: int, deal: int) -> str:
    cid = f"rc:v:{table_id}:{deal}"
    assert len(cid) <= _ID_LIMIT
    return cid


class CoachButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"rc:(?P<rest>[^\s]{1,97})"
):
    """Every button of the coach, routed to the handler bound to the client (:func:`bind_coach`)."""

    def __init__(
        self,
        custom_id: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label or "·", style=style, custom_id=custom_id, row=row)
        )
        self.rest = custom_id[3:]

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CoachButton:
        button = cls(str(getattr(item, "custom_id", "")))
        button.rest = match["rest"]
        return button

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            handler = _HANDLERS.get(interaction.client)
            if handler is None:
                raise RuntimeError("no coach handler is bound to this client (bind_coach)")
            await arrive(interaction, handler.user_locales)
            await _route(handler, interaction, self.rest)
        except Exception:
            if not interaction.response.is_done():
                try:
                    await interaction.response.send_message(
                        _("Something went wrong — nothing was changed. Please try again."),
                        ephemeral=True,
                    )
                except discord.HTTPException:
                    pass
            await interaction.client.on_error("component", interaction)


_HANDLERS: weakref.WeakKeyDictionary[discord.Client, CoachHandler] = weakref.WeakKeyDictionary()


def bind_coach(client: discord.Client, handler: CoachHandler) -> None:
    """Hand ``client``'s coach clicks to ``handler`` (the manager), once, from the wiring."""
    _HANDLERS[client] = handler


async def _route(handler: CoachHandler, interaction: discord.Interaction[Any], rest: str) -> None:
    if m := _REVIEW_RE.fullmatch(rest):
        await handler.on_review_button(interaction, int(m.group(1)), int(m.group(2)))
        return
    if m := _DETAILS_RE.fullmatch(rest):
        await handler.on_review_details(interaction, int(m.group(1)), int(m.group(2)))
        return
    if m := _ANSWER_RE.fullmatch(rest):
        choice = m.group(2)
        if not choice.startswith("o"):
            try:
                choice = str(Card.parse(choice))
            except CardParseError:
                choice = ""
        if choice:
            await handler.on_puzzle_answer(interaction, int(m.group(1)), choice)
            return
    elif m := _NEXT_RE.fullmatch(rest):
        await handler.on_next_puzzle(interaction, None if m.group(1) is None else int(m.group(1)))
        return
    elif m := _SOLUTION_RE.fullmatch(rest):
        await handler.on_puzzle_solution(interaction, int(m.group(1)))
        return
    log.debug("refused malformed coach custom_id %r from user %s", rest, interaction.user.id)
    await refuse(interaction, _("That button is not recognised — it may be from an older message."))


def review_view(table_id: int, deal: int) -> discord.ui.View:
    """The Review button under a deal summary."""
    view = discord.ui.View(timeout=None)
    view.add_item(CoachButton(review_id(table_id, deal), _("Review my play"), row=0))
    return view


def details_view(table_id: int, deal: int) -> discord.ui.View:
    """Under a review: **Details**, the figures behind it."""
    view = discord.ui.View(timeout=None)
    view.add_item(CoachButton(f"rc:d:{table_id}:{deal}", _("Details"), row=0))
    return view


def answer_view(
    puzzle_id: int, cards: list[str], labels: list[str] | None = None
) -> discord.ui.View:
    """A puzzle's legal cards, one button each (at most 20: four rows of five); with
    ``labels``, its choices (calls, lay-outs) by their place in the list instead; and
    under them **Show the solution** and **Next puzzle**."""
    view = discord.ui.View(timeout=None)
    for i, code in enumerate(cards[:20]):
        if labels is None:
            cid = f"rc:p:{puzzle_id}:{code}"
            label = card_label(Card.parse(code))
        else:
            cid = f"rc:p:{puzzle_id}:o{i}"
            label = labels[i][:80]
        view.add_item(CoachButton(cid, label, discord.ButtonStyle.primary, row=i // 5))
    row = min(4, (min(len(cards), 20) + 4) // 5)
    _add_solution_and_next(view, puzzle_id, row, solution=True)
    return view


def next_view(puzzle_id: int, solution: bool) -> discord.ui.View:
    """Under an answer: **Show the solution** (after a wrong one) and **Next puzzle**."""
    view = discord.ui.View(timeout=None)
    _add_solution_and_next(view, puzzle_id, 0, solution=solution)
    return view


def _add_solution_and_next(
    view: discord.ui.View, puzzle_id: int, row: int, *, solution: bool
) -> None:
    if solution:
        view.add_item(CoachButton(f"rc:s:{puzzle_id}", _("Show the solution"), row=row))
    view.add_item(
        CoachButton(f"rc:n:{puzzle_id}", _("Next puzzle"), discord.ButtonStyle.success, row=row)
    )
