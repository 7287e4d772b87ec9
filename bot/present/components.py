"""Buttons and selects whose ``custom_id`` carries the state they act on.

Every component is a :class:`discord.ui.DynamicItem`, registered once in
``setup_hook``, so buttons keep working after a restart. The id grammar
(always ``<= 100`` characters):

* ``rh:t:<table>:<verb>`` — table buttons (join, leave, start, cancel, ai-easy,
  ai-normal, ai-hard, hand, reclaim, rematch, and those of claims and concessions:
  claims, claim-all, last, deal, scores, concede, concede-yes, keep; the table
  message's own buttons are laid out in :mod:`bot.present.layout`);
* ``rh:a:<table>:<version>:<seat>:<action>`` — a game action such as
  ``play:10H`` or ``canye`` (the engine's own encoding); ``version`` is the
  engine's action count when the button was drawn, so a button from an earlier
  trick is recognised as stale;
* ``rh:d:<table>:<version>:<seat>[:<verb>]`` — a menu of cards to lay out, one
  ``<verb>:<card>`` action per chosen card (``discard`` when the verb is left
  out, as in ids sent before the verb was added); choosing only shows the choice
  with a **Confirm** button, nothing is laid out yet;
* ``rh:k:<table>:<version>:<seat>:<verb>:<card>.<card>...`` — **Confirm** the cards
  chosen in that menu (one ``<verb>:<card>`` action each, committed together);
* ``rh:c:<table>:<version>:<seat>:<k>`` — the ``k``-th menu of choices (when
  there are more than buttons fit, e.g. a ruff value 0-95); each option's value
  is the engine's encoding of one action (``ruffval:47``).

Ids of the same ``rh:`` prefix that features own (``bot/features/``) are theirs
and never match the classes here: ``rh:lb:`` (leaderboard pages,
``bot.features.info``), ``rh:r:`` and ``rh:s:`` (replays, ``bot.features.records``),
``rh:h:`` (the Hint button) and the lessons' ``rh:l:``, ``rh:ld:``, ``rh:lk:``,
``rh:lc:`` (``bot.features.coach``, whose docstring has their grammar). Their ids
are drawn here (:func:`hint_id`, :func:`lesson_id`, :class:`LessonIds`): the hand's
and a lesson's controls are this module's.

The builders here are pure functions of an engine view; the callbacks only
parse the id and hand over to the :class:`~bot.present.handlers.ClickHandler`
the wiring binds the classes to (:func:`routed`).
"""

from __future__ import annotations

import logging
import re
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.present.handlers import ClickHandler
from bot.present.i18n import _, ngettext
from bot.present.locales import arrive
from engine import Action, ActionParseError, decode_action

log = logging.getLogger(__name__)

TABLE_VERBS = (
    "join",
    "leave",
    "start",
    "cancel",
    "ai-easy",
    "ai-normal",
    "ai-hard",
    "hand",
    "reclaim",
    "rematch",
    "claims",  # the private menu of how many tricks to claim
    "claim-all",  # the private question before claiming every trick left
    "last",  # the last trick, privately
    "deal",  # every trick of the deal so far, privately
    "scores",  # the scores and what else counts, privately
    "concede",  # the private question before conceding
    "concede-yes",  # propose (or, at two, make) a concession
    "keep",  # close a private question: keep playing
)
ROWS = 5  # Discord: at most 5 rows of components per message
ROW_WIDTH = 5  # at most 5 buttons per row (a select fills a row)
_ID_LIMIT = 100


@dataclass(frozen=True, slots=True)
class ParsedId:
    kind: str  # t | a | d | k | c
    table_id: int = 0
    verb: str = ""  # the table verb (t) or the laid-out cards' action verb (d)
    version: int = 0
    seat: int = 0
    action: Action | None = None
    cards: tuple[str, ...] = ()  # the chosen cards' codes (k)


class BadCustomId(ValueError):
    """A custom_id that does not follow the grammar (forged or from another bot version)."""


_TABLE_RE = re.compile(r"t:(\d{1,19}):([a-z-]{1,12})")
_ACT_RE = re.compile(r"a:(\d{1,19}):(\d{1,9}):([0-3]):([a-z]{1,10}(?::[0-9A-Za-z-]{1,16})?)")
_PICK_RE = re.compile(r"d:(\d{1,19}):(\d{1,9}):([0-3])(?::([a-z]{1,10}))?")
_CONFIRM_RE = re.compile(
    r"k:(\d{1,19}):(\d{1,9}):([0-3]):([a-z]{1,10}):([0-9A-Z]{2,3}(?:\.[0-9A-Z]{2,3}){0,11})"
)
_CHOICE_RE = re.compile(r"c:(\d{1,19}):(\d{1,9}):([0-3]):(\d)")


def parse_custom_id(rest: str) -> ParsedId:
    """Parse the part after ``rh:``; raises :class:`BadCustomId` if malformed."""
    if m := _TABLE_RE.fullmatch(rest):
        if m.group(2) not in TABLE_VERBS:
            raise BadCustomId(rest)
        return ParsedId("t", table_id=int(m.group(1)), verb=m.group(2))
    if m := _ACT_RE.fullmatch(rest):
        try:
            action = decode_action(m.group(4))
        except ActionParseError:
            raise BadCustomId(rest) from None
        return ParsedId(
            "a",
            table_id=int(m.group(1)),
            version=int(m.group(2)),
            seat=int(m.group(3)),
            action=action,
        )
    if m := _PICK_RE.fullmatch(rest):
        return ParsedId(
            "d",
            table_id=int(m.group(1)),
            version=int(m.group(2)),
            seat=int(m.group(3)),
            verb=m.group(4) or "discard",
        )
    if m := _CONFIRM_RE.fullmatch(rest):
        return ParsedId(
            "k",
            table_id=int(m.group(1)),
            version=int(m.group(2)),
            seat=int(m.group(3)),
            verb=m.group(4),
            cards=tuple(m.group(5).split(".")),
        )
    if m := _CHOICE_RE.fullmatch(rest):
        return ParsedId(
            "c", table_id=int(m.group(1)), version=int(m.group(2)), seat=int(m.group(3))
        )
    raise BadCustomId(rest)


def table_id_for(table_id: int, verb: str) -> str:
    return f"rh:t:{table_id}:{verb}"


def action_id(table_id: int, version: int, seat: int, action: Action) -> str:
    cid = f"rh:a:{table_id}:{version}:{seat}:{action.encode()}"
    assert len(cid) <= _ID_LIMIT
    return cid


def pick_id(table_id: int, version: int, seat: int, verb: str = "discard") -> str:
    """The id of a menu of cards to lay out with ``verb`` (``discard``: the ruff)."""
    cid = f"rh:d:{table_id}:{version}:{seat}" + ("" if verb == "discard" else f":{verb}")
    assert len(cid) <= _ID_LIMIT
    return cid


def confirm_id(table_id: int, version: int, seat: int, verb: str, codes: Sequence[str]) -> str:
    """The id of **Confirm** under a menu of cards to lay out: the chosen cards' codes."""
    cid = f"rh:k:{table_id}:{version}:{seat}:{verb}:" + ".".join(codes)
    assert len(cid) <= _ID_LIMIT
    return cid


def choice_id(table_id: int, version: int, seat: int, k: int) -> str:
    """The id of the ``k``-th menu of choices (0-9) on a hand message."""
    cid = f"rh:c:{table_id}:{version}:{seat}:{k}"
    assert len(cid) <= _ID_LIMIT and 0 <= k <= 9
    return cid


def hint_id(table_id: int, version: int, seat: int) -> str:
    """The id of the Hint button of ``seat``'s hand at engine ``version``."""
    cid = f"rh:h:{table_id}:{version}:{seat}"
    assert len(cid) <= _ID_LIMIT
    return cid


def lesson_id(lesson: str, step: int | None = None, action: Action | None = None) -> str:
    """The id of a lesson's answer ``action`` at ``step``, or (no step) of its start."""
    if step is None or action is None:
        cid = f"rh:l:{lesson}:start"
    else:
        cid = f"rh:l:{lesson}:{step}:{action.encode()}"
    assert len(cid) <= _ID_LIMIT
    return cid


@dataclass(frozen=True, slots=True)
class LessonIds:
    """The ids of a lesson step's controls (:class:`bot.present.controls.ControlIds`):
    the game's buttons and menus, answering the lesson at ``step``. No claims."""

    lesson: str
    step: int
    claims: bool = False

    def action(self, action: Action) -> str:
        return lesson_id(self.lesson, self.step, action)

    def pick(self, verb: str) -> str:
        return f"rh:ld:{self.lesson}:{self.step}"

    def confirm(self, verb: str, codes: Sequence[str]) -> str:
        cid = f"rh:lk:{self.lesson}:{self.step}:" + ".".join(codes)
        assert len(cid) <= _ID_LIMIT
        return cid

    def choice(self, k: int) -> str:
        return f"rh:lc:{self.lesson}:{self.step}:{k}"


class RHButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rh:(?P<rest>(?![dcshr]:|l[bdkc]?:)[^\s]{1,97})",
):
    """Every button of the bot's tables. The callback routes by the id's kind to the
    click handler the wiring bound to the client (:func:`bind`)."""

    def __init__(
        self,
        custom_id: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "·", style=style, custom_id=custom_id, disabled=disabled, row=row
            )
        )
        self.rest = custom_id[3:]

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> RHButton:
        button = cls(str(getattr(item, "custom_id", "")))
        button.rest = match["rest"]
        return button

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.rest, values=())


class RHSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"rh:(?P<rest>[dc]:[^\s]{1,94})",
):
    """Every select menu of the bot's tables: cards to lay out (the ruff's discards, a
    kitty), or one choice of many (a declared ruff value); routed as :class:`RHButton`."""

    def __init__(
        self,
        custom_id: str,
        options: list[discord.SelectOption] | None = None,
        count: int = 1,
        row: int | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id,
                options=options or [discord.SelectOption(label="·")],
                min_values=count,
                max_values=count,
                placeholder=placeholder
                or ngettext(
                    "Choose {n} card to lay out", "Choose {n} cards to lay out", count
                ).format(n=count),
                row=row,
            )
        )
        self.rest = custom_id[3:]

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> RHSelect:
        select = cls(str(getattr(item, "custom_id", "")))
        select.rest = match["rest"]
        return select

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.rest, values=tuple(str(v) for v in self.item.values))


_HANDLERS: weakref.WeakKeyDictionary[discord.Client, ClickHandler] = weakref.WeakKeyDictionary()


def bind(client: discord.Client, handler: ClickHandler) -> None:
    """Hand ``client``'s clicks on :class:`RHButton` and :class:`RHSelect` to ``handler``
    (the manager): the wiring injects it once, in ``setup_hook``. (The classes are
    registered once per client, and discord.py re-registers a sent item's own class,
    so the handler cannot ride on a class of its own.)"""
    _HANDLERS[client] = handler


async def _dispatch(
    interaction: discord.Interaction[Any], rest: str, values: tuple[str, ...]
) -> None:
    try:
        handler = _HANDLERS.get(interaction.client)
        if handler is None:
            raise RuntimeError("no click handler is bound to this client (components.bind)")
        # answer in the clicker's language; remember it for their DMs
        await arrive(interaction, handler.user_locales)
        await _route(handler, interaction, rest, values)
    except Exception:
        # discord.py only logs errors raised in dynamic items; answer the user and
        # report through the client's error hook so nothing fails silently.
        if not interaction.response.is_done():
            try:
                await interaction.response.send_message(
                    _("Something went wrong — nothing was changed. Please try again."),
                    ephemeral=True,
                )
            except discord.HTTPException:
                pass
        await interaction.client.on_error("component", interaction)


async def _route(
    manager: ClickHandler,
    interaction: discord.Interaction[Any],
    rest: str,
    values: tuple[str, ...],
) -> None:
    try:
        parsed = parse_custom_id(rest)
    except BadCustomId:
        log.debug("refused malformed custom_id %r from user %s", rest, interaction.user.id)
        await manager.refuse(
            interaction, _("That button is not recognised — it may be from an older message.")
        )
        return
    if parsed.kind == "t":
        await manager.on_table_button(interaction, parsed.table_id, parsed.verb)
    elif parsed.kind == "a":
        assert parsed.action is not None
        await manager.on_action(
            interaction, parsed.table_id, parsed.version, parsed.seat, [parsed.action]
        )
    elif parsed.kind == "d":
        await manager.on_pick(
            interaction, parsed.table_id, parsed.version, parsed.seat, parsed.verb, values
        )
    elif parsed.kind == "k":
        await manager.on_pick(
            interaction,
            parsed.table_id,
            parsed.version,
            parsed.seat,
            parsed.verb,
            parsed.cards,
            confirmed=True,
        )
    elif parsed.kind == "c":
        if len(values) != 1:
            await manager.refuse(interaction, _("Choose one option."))
            return
        try:
            action = decode_action(values[0])
        except ActionParseError:
            log.debug(
                "refused malformed menu choice %r from user %s", values[0], interaction.user.id
            )
            await manager.refuse(interaction, _("That is not one of the choices."))
            return
        await manager.on_action(interaction, parsed.table_id, parsed.version, parsed.seat, [action])
    else:
        raise AssertionError(f"unrouted custom_id kind {parsed.kind!r}")


# ------------------------------------------------------------------ view builders


def new_view() -> discord.ui.View:
    """A persistent view (its items are dynamic: they work after a restart)."""
    return discord.ui.View(timeout=None)


def lesson_view(
    lesson: str,
    step: int | None,
    choices: Sequence[tuple[Action, str]],
    starts: Sequence[tuple[str, str]] = (),
) -> discord.ui.View:
    """A lesson's buttons: one per choice at ``step`` (five a row, at most 20), then a
    button per lesson to start (``starts``: name, label)."""
    ui = Rows()
    for i, (action, label) in enumerate(choices[: (ROWS - 1) * ROW_WIDTH]):
        style = (
            discord.ButtonStyle.success
            if getattr(action, "card", None) is not None
            else discord.ButtonStyle.primary
        )
        assert step is not None
        ui.button(lesson_id(lesson, step, action), label, style, row=i // ROW_WIDTH)
    first = -(-min(len(choices), (ROWS - 1) * ROW_WIDTH) // ROW_WIDTH)
    for i, (name, label) in enumerate(starts[: (ROWS - first) * ROW_WIDTH]):
        ui.button(lesson_id(name), label, discord.ButtonStyle.primary, row=first + i // ROW_WIDTH)
    return ui


class Rows(discord.ui.View):
    """Buttons and menus sent as plain component data, for the hot path.

    A hand message is re-sent on nearly every move, and building it from
    ``discord.ui`` items costs about half a millisecond of the event loop each
    time. The clicks do not need those objects: they are routed by ``custom_id``
    to :class:`RHButton` and :class:`RHSelect`, registered once in
    ``setup_hook``. So this view holds the component dicts Discord receives and
    no items (it is not dispatchable: discord.py keeps no copy of it). Discord's
    limits are checked here as ``discord.ui`` would: 5 rows, 5 buttons or one
    menu a row, ids of at most 100 characters, labels of at most 80.
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self._rows: list[list[dict[str, Any]]] = []

    def _row(self, row: int) -> list[dict[str, Any]]:
        if not 0 <= row < ROWS:
            raise ValueError(f"row {row} is out of range (0..{ROWS - 1})")
        while len(self._rows) <= row:
            self._rows.append([])
        return self._rows[row]

    @staticmethod
    def _check_id(custom_id: str) -> None:
        if not custom_id or len(custom_id) > _ID_LIMIT:
            raise ValueError(f"custom_id must be 1..{_ID_LIMIT} characters: {custom_id!r}")

    def button(
        self,
        custom_id: str,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int = 0,
        emoji: Mapping[str, Any] | None = None,
    ) -> None:
        self._check_id(custom_id)
        items = self._row(row)
        if len(items) >= ROW_WIDTH or any(c["type"] == 3 for c in items):
            raise ValueError(f"row {row} is full")
        button: dict[str, Any] = {
            "type": 2,
            "style": style.value,
            "disabled": disabled,
            "label": (label or "·")[:80],
            "custom_id": custom_id,
        }
        if emoji is not None:
            button["emoji"] = dict(emoji)
        items.append(button)

    def menu(
        self,
        custom_id: str,
        options: Sequence[tuple[str, str] | tuple[str, str, str]],
        count: int,
        placeholder: str,
        row: int = 0,
        chosen: Sequence[str] = (),
        emojis: Mapping[str, dict[str, Any]] | None = None,
    ) -> None:
        """A select menu of ``(label, value)`` or ``(label, value, description)``
        options choosing exactly ``count``; the values in ``chosen`` shown as chosen,
        ``emojis`` an option's emoji by value."""
        self._check_id(custom_id)
        items = self._row(row)
        if items:
            raise ValueError(f"row {row} is not empty: a menu needs a row of its own")
        if not 1 <= len(options) <= 25 or not 1 <= count <= len(options):
            raise ValueError("a menu has 1..25 options and chooses 1..all of them")
        items.append(
            {
                "type": 3,
                "custom_id": custom_id,
                "min_values": count,
                "max_values": count,
                "placeholder": placeholder[:150],
                "options": [
                    _option(
                        *option, chosen=option[1] in chosen, emoji=(emojis or {}).get(option[1])
                    )
                    for option in options
                ],
            }
        )

    def free_row(self, room: int = 1) -> int | None:
        """A row with room for ``room`` more buttons: a new row while there is one, else
        the last row of buttons with room; None when every row is full."""
        if len(self._rows) < ROWS:
            return len(self._rows)
        for i in reversed(range(len(self._rows))):
            items = self._rows[i]
            if len(items) + room <= ROW_WIDTH and all(c["type"] == 2 for c in items):
                return i
        return None

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": list(items)} for items in self._rows if items]


def _option(
    label: str,
    value: str,
    description: str = "",
    *,
    chosen: bool = False,
    emoji: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A select option as Discord receives it (labels and descriptions at most 100 characters)."""
    option: dict[str, Any] = {"label": label[:100], "value": value}
    if description:
        option["description"] = description[:100]
    if chosen:
        option["default"] = True
    if emoji is not None:
        option["emoji"] = emoji
    return option
