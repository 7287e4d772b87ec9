"""The public table message as one Components V2 layout, made for a phone.

The picture first (a media gallery whose alt text says everything the table
shows), above the container rather than inside it, so a phone shows it the full
width of the message column (about 304 px on a 400 px phone, not 275 inside the
container's padding); then one container: where there is no picture (pictures
switched off, not drawn yet, the lobby) a compact text table, then at most three
short lines, then the buttons. What else the table knows (the last
trick, every trick of the deal, the scores) is one button away and answered
privately (:mod:`bot.discord_ui.claims`).

A V2 message has no ``content`` and no embeds, and keeps its V2 flag for good:
every later edit of it is a layout too (:func:`text_layout` for a table that
ended). A message from before (plain content and rows of buttons) becomes a
layout at its next edit; its buttons keep their ids, so they still answer.

Pure: it builds ``discord.ui`` objects and sends nothing; the buttons are
:class:`~bot.present.components.RHButton` (routed by ``custom_id``, so
discord.py keeps no copy of the view once it is sent, see
:func:`~bot.present.notify.release_view`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import discord

from bot.present.components import RHButton, table_id_for
from bot.present.drawing import Picture
from bot.present.i18n import _
from bot.present.render.common import AI_LEVELS

__all__ = [
    "TableLayout",
    "TEXT_LIMIT",
    "finished_buttons",
    "layout_text",
    "lobby_buttons",
    "play_buttons",
    "text_layout",
    "without_buttons",
]

TEXT_LIMIT: Final = 4000  # Discord: the text of all text displays of one message
ACCENT: Final = discord.Colour(0x2E7D4F)  # the felt's green


@dataclass(frozen=True, slots=True)
class TableLayout:
    """What one table message shows, before it becomes a ``LayoutView``.

    ``picture``: the PNG shown first (its ``filename`` is the attachment the
    gallery points at); ``alt``: its alt text; ``table``: the compact text shown
    instead when there is no picture; ``lines``: the short lines under it.
    """

    lines: tuple[str, ...]
    buttons: tuple[tuple[RHButton, ...], ...] = ()
    picture: Picture | None = None
    alt: str = ""
    table: str = ""

    def text(self) -> str:
        """Everything the layout says in words (its edit signature, what tests read)."""
        top = self.alt if self.picture is not None else self.table
        return "\n".join(x for x in (top, *self.lines) if x)

    def signature(self) -> str:
        """What tells two renderings apart (the notifier skips an edit that changes
        nothing): the words and the buttons."""
        ids = "|".join(f"{b.custom_id}={b.item.label}" for row in self.buttons for b in row)
        return f"{self.text()}\n{ids}"

    def view(self) -> discord.ui.LayoutView:
        """The ``LayoutView`` to send (release it once sent)."""
        view = discord.ui.LayoutView(timeout=None)
        box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
            accent_colour=ACCENT
        )
        if self.picture is not None:  # the full column's width, outside the container
            view.add_item(
                discord.ui.MediaGallery(
                    discord.MediaGalleryItem(
                        f"attachment://{self.picture.filename}",
                        description=self.alt[:1024] or None,
                    )
                )
            )
        elif self.table:
            box.add_item(discord.ui.TextDisplay(self.table))
        text = "\n".join(self.lines)
        if text:
            budget = TEXT_LIMIT - (0 if self.picture is not None else len(self.table)) - 1
            box.add_item(discord.ui.TextDisplay(text[: max(1, budget)]))
        for row in self.buttons:
            if row:
                action_row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
                for button in row:
                    action_row.add_item(button)
                box.add_item(action_row)
        view.add_item(box)
        return view


def layout_text(message: discord.Message) -> str:
    """The words of a sent message: its content, or every text display and every
    media item's alt text of its V2 layout (in order)."""
    if message.content:
        return message.content
    out: list[str] = []

    def walk(items: Sequence[object]) -> None:
        for item in items:
            content = getattr(item, "content", None)
            if isinstance(content, str):
                out.append(content)
            for media in getattr(item, "items", ()) or ():
                if getattr(media, "description", None):
                    out.append(str(media.description))
            children = getattr(item, "children", None)
            if children:
                walk(children)

    walk(message.components)
    return "\n".join(out)


def text_layout(text: str) -> discord.ui.LayoutView:
    """A layout of one text and no buttons (a table that was cancelled or expired)."""
    return TableLayout(lines=(), table=text).view()


# ------------------------------------------------------------------ the buttons


def _button(table_id: int, verb: str, label: str, style: discord.ButtonStyle) -> RHButton:
    return RHButton(table_id_for(table_id, verb), label, style)


def play_buttons(table_id: int, show_reclaim: bool) -> tuple[tuple[RHButton, ...], ...]:
    """My hand and what is one tap away (Last trick; This deal: every trick of the deal,
    the scores and, for a player whose side may concede, **Concede**): one row, which
    fits a phone's line (a second row of Scores and Concede made the message taller
    than a phone's screen). For a player the AI stands in for, **Take my seat back**
    on a row of its own."""
    first = (
        _button(table_id, "hand", _("My hand"), discord.ButtonStyle.primary),
        _button(table_id, "last", _("Last trick"), discord.ButtonStyle.secondary),
        _button(table_id, "deal", _("This deal"), discord.ButtonStyle.secondary),
    )
    if not show_reclaim:
        return (first,)
    reclaim = _button(table_id, "reclaim", _("Take my seat back"), discord.ButtonStyle.success)
    return first, (reclaim,)


def lobby_buttons(table_id: int, full: bool = False) -> tuple[tuple[RHButton, ...], ...]:
    """The lobby's buttons; once every seat is taken only Leave, Start and Cancel."""
    first = [
        _button(table_id, "leave", _("Leave"), discord.ButtonStyle.secondary),
        _button(table_id, "start", _("Start"), discord.ButtonStyle.primary),
        _button(table_id, "cancel", _("Cancel"), discord.ButtonStyle.danger),
    ]
    if full:
        return (tuple(first),)
    first.insert(0, _button(table_id, "join", _("Join"), discord.ButtonStyle.success))
    second = tuple(
        _button(
            table_id,
            f"ai-{level}",
            _("Add AI ({level})").format(level=AI_LEVELS[level]),
            discord.ButtonStyle.secondary,
        )
        for level in ("easy", "normal", "hard")
    )
    return tuple(first), second


def finished_buttons(table_id: int, rematch: bool = True) -> tuple[tuple[RHButton, ...], ...]:
    """The final table's: Rematch (where its kind has one: not an event's board), and
    the last deal's tricks (while the table is kept)."""
    deal = _button(table_id, "deal", _("This deal"), discord.ButtonStyle.secondary)
    if not rematch:
        return ((deal,),)
    return ((_button(table_id, "rematch", _("Rematch"), discord.ButtonStyle.success), deal),)


def without_buttons(message: discord.Message | None) -> discord.ui.LayoutView | None:
    """The view of an edit that takes a message's buttons away and leaves the rest
    (a finished table's Rematch, once pressed): a V2 layout is sent again without its
    action rows, its picture kept (the gallery names the attachment it has); a
    message from before the layout loses its rows (``None``)."""
    if message is None or not message.flags.components_v2:
        return None
    view = discord.ui.LayoutView.from_message(message, timeout=None)
    for item in list(view.walk_children()):
        if not isinstance(item, discord.ui.ActionRow):
            continue
        parent = item.parent
        if isinstance(parent, discord.ui.Container):
            parent.remove_item(item)
        else:
            view.remove_item(item)
    for item in view.walk_children():
        if isinstance(item, discord.ui.MediaGallery):
            for media in item.items:
                name = media.media.url.rsplit("/", 1)[-1].split("?", 1)[0]
                media.media = discord.UnfurledMediaItem(f"attachment://{name}")
    return view
