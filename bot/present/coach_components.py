"""The coach's buttons: Review under a deal summary, a puzzle's cards, the next puzzle.

Their ids have a prefix of their own (``rc:``), so the table's buttons
(``rh:``, :mod:`bot.present.components`) never see them:

* ``rc:v:<table>:<deal>`` — review my cards in that deal (1-based at the table);
* ``rc:d:<table>:<deal>`` — the figures behind that review (**Details**);
* ``rc:p:<puzzle>:<card>`` — answer a puzzle with a card (``10H``), or ``o<n>``: its
  ``n``-th choice (a call, trumps);
* ``rc:m:<puzzle>`` — a puzzle's menu of cards to lay out (the game's own menu):
  choosing only shows the choice, with **Confirm** under it;
* ``rc:k:<puzzle>:<card>.<card>...`` — **Confirm** the cards chosen in that menu: the
  answer;
* ``rc:c:<puzzle>:<k>`` — a puzzle's ``k``-th menu of choices (calls described in the
  options, as the game shows them); each option's value is the engine's encoding;
* ``rc:s:<puzzle>`` — show that puzzle's solution;
* ``rc:n:<puzzle>`` — the next puzzle after that one (``rc:n``: any next one, on
  messages from before the puzzle's number was in the id).

A puzzle's choices are the game's own controls (:func:`puzzle_controls`: the hand
message's card buttons with their suit marks, its lay-out menu and Confirm, its
call buttons and menus), built by :func:`bot.present.controls.hand_controls` from the
seat's view at the puzzle with these ids (:class:`PuzzleIds`).

This module only draws them; the coach feature (:mod:`bot.features.coach`) owns the
prefix: its button class parses an id and answers it, and a malformed id is answered
privately and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.present.components import Rows
from bot.present.controls import hand_controls
from bot.present.i18n import _
from bot.present.render.common import card_label
from engine import Action, Card, Play, SeatView

__all__ = [
    "PuzzleIds",
    "answer_view",
    "details_view",
    "next_view",
    "puzzle_controls",
    "review_id",
    "review_view",
]

_ID_LIMIT = 100


def review_id(table_id: int, deal: int) -> str:
    cid = f"rc:v:{table_id}:{deal}"
    assert len(cid) <= _ID_LIMIT
    return cid


def _button(
    custom_id: str,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    row: int | None = None,
) -> discord.ui.Button[Any]:
    """A coach's button: plain component data whose click the coach feature's ``rc:``
    class answers (:mod:`bot.features.coach`)."""
    assert len(custom_id) <= _ID_LIMIT
    return discord.ui.Button(label=label or "·", style=style, custom_id=custom_id, row=row)


def review_view(table_id: int, deal: int) -> discord.ui.View:
    """The Review button under a deal summary."""
    view = discord.ui.View(timeout=None)
    view.add_item(_button(review_id(table_id, deal), _("Review my play"), row=0))
    return view


def details_view(table_id: int, deal: int) -> discord.ui.View:
    """Under a review: **Details**, the figures behind it."""
    view = discord.ui.View(timeout=None)
    view.add_item(_button(f"rc:d:{table_id}:{deal}", _("Details"), row=0))
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
        view.add_item(_button(cid, label, discord.ButtonStyle.primary, row=i // 5))
    row = min(4, (min(len(cards), 20) + 4) // 5)
    _add_solution_and_next(view, puzzle_id, row, solution=True)
    return view


@dataclass(frozen=True, slots=True)
class PuzzleIds:
    """The ids of a puzzle's controls (:class:`bot.present.controls.ControlIds`): a card
    by its code, another choice by its place in the puzzle's ``legal`` list, the lay-out
    menu and its Confirm by the puzzle's number. No claims."""

    puzzle_id: int
    legal: tuple[str, ...]
    claims: bool = False

    def action(self, action: Action) -> str:
        if isinstance(action, Play):
            return f"rc:p:{self.puzzle_id}:{action.card}"
        code = action.encode()
        n = self.legal.index(code) if code in self.legal else 99
        return f"rc:p:{self.puzzle_id}:o{n}"

    def pick(self, verb: str) -> str:
        return f"rc:m:{self.puzzle_id}"

    def confirm(self, verb: str, codes: Sequence[str]) -> str:
        cid = f"rc:k:{self.puzzle_id}:" + ".".join(codes)
        assert len(cid) <= _ID_LIMIT
        return cid

    def choice(self, k: int) -> str:
        return f"rc:c:{self.puzzle_id}:{k}"


def puzzle_view(view: SeatView, body: Mapping[str, Any]) -> SeatView | None:
    """``view`` (the seat's at the puzzle) with only the puzzle's choices live, as the
    hand message would offer them: the legal cards; the cards of the lay-outs judged
    (the menu asks for as many as a lay-out holds); a kitty card (one at a time, as
    the coach judges it); the calls judged. None when the choices do not match the
    view's legal actions (then the puzzle's own buttons are used)."""
    kind = str(body.get("decision_kind", "card"))
    legal = [str(c) for c in body["legal"]]
    live: tuple[Action, ...]
    if body.get("kind", "card") == "card":
        wanted = set(legal)
        live = tuple(a for a in view.legal if isinstance(a, Play) and str(a.card) in wanted)
        if len(live) != len(wanted):
            return None
        return replace(view, legal=live, claims=())
    if kind in ("lay-out", "kitty"):
        sets = [code.split() for code in legal]
        cards = {c for each in sets for c in each}
        live = tuple(
            a
            for a in view.legal
            if not isinstance(a, Play) and str(getattr(a, "card", "")) in cards
        )
        size = {len(each) for each in sets}
        if len(size) != 1 or len({str(getattr(a, "card", "")) for a in live}) != len(cards):
            return None
        return replace(view, legal=live, claims=(), to_lay_out=size.pop())
    wanted_calls = set(legal)
    live = tuple(a for a in view.legal if a.encode() in wanted_calls)
    if len(live) != len(wanted_calls):
        return None
    return replace(view, legal=live, claims=())


def puzzle_controls(
    puzzle_id: int, view: SeatView, body: Mapping[str, Any], chosen: Sequence[Card] = ()
) -> Rows:
    """A puzzle's choices as the game shows them on a hand message (``view``: from
    :func:`puzzle_view`), then **Show the solution** and **Next puzzle**."""
    ids = PuzzleIds(puzzle_id, tuple(str(c) for c in body["legal"]))
    ui = hand_controls(0, 0, view, chosen=chosen, ids=ids)
    row = ui.free_row(2)
    if row is not None:
        ui.button(f"rc:s:{puzzle_id}", _("Show the solution"), row=row)
        ui.button(f"rc:n:{puzzle_id}", _("Next puzzle"), discord.ButtonStyle.success, row=row)
    return ui


def next_view(puzzle_id: int, solution: bool) -> discord.ui.View:
    """Under an answer: **Show the solution** and **Next puzzle**."""
    view = discord.ui.View(timeout=None)
    _add_solution_and_next(view, puzzle_id, 0, solution=solution)
    return view


def _add_solution_and_next(
    view: discord.ui.View, puzzle_id: int, row: int, *, solution: bool
) -> None:
    if solution:
        view.add_item(_button(f"rc:s:{puzzle_id}", _("Show the solution"), row=row))
    view.add_item(
        _button(f"rc:n:{puzzle_id}", _("Next puzzle"), discord.ButtonStyle.success, row=row)
    )
