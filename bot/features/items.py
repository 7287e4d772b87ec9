"""A feature's buttons and menus: one :class:`discord.ui.DynamicItem` class per
``custom_id`` prefix, made by :func:`item_class` inside the feature's ``build``.

The class matches every id that starts with its prefix, so an old or forged id of
that prefix reaches the feature. The rest of the id is read against the feature's
routes (the shapes of the ids it draws, each with its callback, a closure over the
feature's own objects): the first shape the rest matches whole is called with the
match and the chosen values of a menu; a rest no shape matches is answered
privately (:func:`not_recognised`) and changes nothing. The click is answered in
the clicker's language, and a failure becomes a short private answer and the
client's error hook (:func:`bot.features.answered`), as every component of the bot
does.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import discord

from bot.features import answered
from bot.present.i18n import _
from bot.present.locales import Remembers
from bot.present.replies import refuse

__all__ = ["Click", "item_class", "not_recognised", "numbers"]

log = logging.getLogger(__name__)

ID_LIMIT = 100

Click = Callable[[discord.Interaction[Any], re.Match[str], Sequence[str]], Awaitable[None]]
"""A route's callback: (the interaction, the id after the prefix matched against the
route's shape, a menu's chosen values)."""


async def not_recognised(interaction: discord.Interaction[Any]) -> None:
    """The answer to an id of the feature's prefix that it cannot read."""
    await refuse(interaction, _("That button is not recognised — it may be from an older message."))


def numbers(act: Callable[..., Awaitable[None]]) -> Click:
    """The route of a shape whose every group is a number (a table, a step ...):
    ``act(interaction, *the numbers)``."""

    async def click(
        interaction: discord.Interaction[Any], m: re.Match[str], values: Sequence[str]
    ) -> None:
        await act(interaction, *(int(g) for g in m.groups()))

    return click


def item_class(
    name: str, prefix: str, routes: Mapping[str, Click], locales: Remembers
) -> type[discord.ui.DynamicItem[discord.ui.Item[Any]]]:
    """A DynamicItem class for the buttons and menus whose ``custom_id`` is ``prefix``
    + the rest (at most 100 characters in all). ``routes`` maps each shape of the
    rest (a regular expression, matched whole, tried in order) to its callback;
    ``locales`` remembers each clicker's language. The prefixes of two classes must
    not overlap: discord.py runs every class whose template matches."""
    template = re.escape(prefix) + rf"(?P<rest>\S{{0,{ID_LIMIT - len(prefix)}}})"
    shapes = [(re.compile(shape), click) for shape, click in routes.items()]

    async def route(
        interaction: discord.Interaction[Any], rest: str, values: Sequence[str]
    ) -> None:
        for shape, click in shapes:
            if m := shape.fullmatch(rest):
                await click(interaction, m, values)
                return
        log.debug("refused unreadable id %r from user %s", prefix + rest, interaction.user.id)
        await not_recognised(interaction)

    class FeatureItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=template):
        def __init__(self, item: discord.ui.Item[Any]) -> None:
            super().__init__(item)
            self.rest = str(getattr(item, "custom_id", ""))[len(prefix) :]

        @classmethod
        async def from_custom_id(
            cls,
            interaction: discord.Interaction[Any],
            item: discord.ui.Item[Any],
            match: re.Match[str],
            /,
        ) -> FeatureItem:
            # the button or menu as the message has it: a menu's chosen values land on it
            return cls(item)

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            values = tuple(str(v) for v in getattr(self.item, "values", ()))
            await answered(interaction, lambda i: route(i, self.rest, values), locales)

    FeatureItem.__name__ = FeatureItem.__qualname__ = name
    return FeatureItem
